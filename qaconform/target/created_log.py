"""The run's log of what it created, written the moment the target answers 201, so a Ctrl-C cannot lose it.

A test's ``created`` reaches the results file only when the test ends (pytest's report of its call). A run
interrupted mid-test (Ctrl-C, a worker killed) loses what that test had created: the cleanup then said "the run
created nothing on the target" after writes the target had accepted, and ``qaconform cleanup RUN_DIR`` could not
remove them. So every process of a run also appends each created item, as it is seen, to ``created.jsonl`` in the
run folder (one JSON line per item, one ``write`` on a file opened for appending: lines of several workers never
interleave); the cleanup and the report add what the log holds and no finished test listed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

CREATED_LOG = "created.jsonl"
"""Its name in the run folder (beside results.json)."""

UNFINISHED = "(a test that did not finish: the run was interrupted or its worker stopped)"
"""The ``test`` of an item only the log holds."""


def append(path: Path, item: Mapping[str, Any]) -> None:
    """Add one created item to the log; a log that cannot be written never stops the test (the results still list
    what finished tests created)."""
    line = (json.dumps(dict(item), default=repr) + "\n").encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError:
        return
    try:
        os.write(fd, line)
    except OSError:
        pass
    finally:
        os.close(fd)


def read(path: Path) -> list[dict[str, Any]]:
    """The items of a log, in the order written; none when there is no log; a torn line is skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    for line in text.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            out.append(item)
    return out


def unfinished(listed: Iterable[Any], run_dir: Path) -> list[dict[str, Any]]:
    """What the run folder's log holds and ``listed`` (the finished tests' ``created``) does not, each once, marked
    with :data:`UNFINISHED` as its test."""
    seen = {_key(c) for c in listed if isinstance(c, Mapping)}
    out = []
    for item in read(run_dir / CREATED_LOG):
        key = _key(item)
        if key not in seen:
            seen.add(key)
            out.append({**item, "test": UNFINISHED})
    return out


def _key(item: Mapping[str, Any]) -> tuple[str, str]:
    return str(item.get("kind") or "content"), str(item.get("id"))
