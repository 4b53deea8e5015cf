"""A run's JSON files: read with messages that say what to pass instead, written as strict JSON."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import orjson

from qaconform.errors import UsageError


class RunFileError(UsageError, ValueError):
    """A run's file that cannot be used as the one asked for: the command stops with the usage code (what to pass
    instead is in the message). A ValueError too, for the callers that catch that."""


def read_run_json(path: str | Path, filename: str, key: str, not_found: str, wrong_kind: str) -> dict[str, Any]:
    """The JSON object in ``path`` (or ``path/filename`` for a run folder) that holds a list under ``key``.

    Raises RunFileError (a ValueError) with a message for the user: ``not_found`` says what to pass,
    ``wrong_kind`` what the file probably is instead.
    """
    p = Path(path)
    if p.is_dir():
        p = p / filename
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunFileError(f"{p}: not found; {not_found}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunFileError(f"{p}: not readable as JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise RunFileError(f"{p}: {wrong_kind}")
    return data


def finite(value: Any) -> Any:
    """``value`` with every float that is not finite (NaN, infinity) replaced by None: JSON has no such numbers, and
    ``json.dumps`` would write ``NaN``, which strict parsers (CI's, JavaScript's ``JSON.parse``) refuse."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


_ORJSON_AS_JSON = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
"""What orjson would write its own way, handed to ``default=str`` as ``json.dumps`` does."""


def strict_json(value: Any, indented: bool = False) -> str:
    """The JSON text of ``value`` that every JSON parser reads: non-finite numbers as null (:func:`finite`),
    anything else that is not JSON as its ``str``; ``indented``: by two spaces.

    orjson writes it (a run's report.json: 3 ms, where ``json.dumps`` with an indent, which is pure Python, took
    70 ms at the end of every run), and writes NaN and infinities as null itself; ``json.dumps`` writes what orjson
    refuses (an integer beyond 64 bits, a key that is not a string, a lone surrogate). The copy :func:`finite`
    makes is made only when ``json.dumps`` meets such a number: a run's report seldom holds one, and copying its
    60,000 values cost more than writing them."""
    try:
        return orjson.dumps(value, default=str,
                            option=_ORJSON_AS_JSON | (orjson.OPT_INDENT_2 if indented else 0)).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        pass
    size = 2 if indented else None
    try:
        return json.dumps(value, allow_nan=False, default=str, indent=size)
    except ValueError:  # a NaN or an infinity (json.dumps says "Out of range float values are not JSON compliant")
        return json.dumps(finite(value), allow_nan=False, default=str, indent=size)
