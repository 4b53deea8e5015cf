"""The optional load run of ``qaconform run --load``: ``qaconform load`` in a subprocess, bounded in time, and what
the run's report says of it (status, exit code, command, and a message read from its summary.json).

Apart from :mod:`qaconform.commands.run` because it is one step of the run with its own subprocess and its own
reading of results; the runner records the dict :func:`run_load` returns.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from qaconform.commands.run_options import LOAD_GRACE_S, load_command
from qaconform.commands.run_stream import stream


def run_load(load: str, profile_path: str, load_dir: Path, secrets: set[str],
             target_file: Path | None = None) -> dict[str, Any]:
    """Run ``qaconform load`` (``load`` is the --load choice) into ``load_dir``, on the run's resolved target
    (``target_file``, its target.json) when given; the report's ``load`` entry."""
    if not _load_available():
        return {"status": "unavailable", "exit_code": None, "command": None,
                "message": "qaconform load is not available in this installation; no load figures"}
    cmd = load_command(load, profile_path, load_dir, target_file)
    assert cmd is not None
    duration = 10.0 if load == "smoke" else 20.0
    print(f"$ qaconform {shlex.join(cmd[3:])}", flush=True)
    done = stream(cmd, timeout_s=duration + LOAD_GRACE_S, secrets=secrets)
    status = {0: "passed", 1: "breached", 2: "usage error", 3: "unreachable"}.get(done.returncode, "error")
    message = _load_message(load_dir, done.returncode)
    if done.timed_out:
        status, message = "error", f"the load run did not end within {duration + LOAD_GRACE_S:.0f} s"
    return {"status": status, "exit_code": done.returncode, "command": "qaconform " + shlex.join(cmd[3:]),
            "message": message if status != "passed" else None}


def _load_available() -> bool:
    """Whether `qaconform load` can run here (its module imports: Locust's side is installed)."""
    try:
        import qaconform.load.cli  # noqa: F401
    except ImportError:
        return False
    return True


def _load_message(load_dir: Path, returncode: int) -> str:
    """What a load run that did not pass says, from its summary.json (never from its terminal output)."""
    try:
        summary = json.loads((load_dir / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return f"qaconform load ended with exit code {returncode} and wrote no summary.json; see its output above"
    broken = [t for t in (summary.get("thresholds") or []) if isinstance(t, dict) and not t.get("ok")] \
        if isinstance(summary, dict) else []
    lost = summary.get("lost") if isinstance(summary, dict) else None
    if broken or lost:
        parts = [f"threshold {t.get('name')} breached: {t.get('actual')} (limit {t.get('limit')})" for t in broken]
        return "; ".join([*parts, *([f"{len(lost)} item(s) lost"] if lost else [])])[:300]
    return f"qaconform load ended with exit code {returncode} (verdict {summary.get('verdict')!r})"
