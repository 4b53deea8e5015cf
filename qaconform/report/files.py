"""Reading a run's JSON files (results.json, report.json) with messages that say what to pass instead."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_run_json(path: str | Path, filename: str, key: str, not_found: str, wrong_kind: str) -> dict[str, Any]:
    """The JSON object in ``path`` (or ``path/filename`` for a run folder) that holds a list under ``key``.

    Raises ValueError with a message for the user: ``not_found`` says what to pass, ``wrong_kind`` what the file
    probably is instead.
    """
    p = Path(path)
    if p.is_dir():
        p = p / filename
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{p}: not found; {not_found}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{p}: not readable as JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise ValueError(f"{p}: {wrong_kind}")
    return data
