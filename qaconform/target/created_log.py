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
CHANGED_LOG = "changed.jsonl"
"""clean26: the log of the accepted state changes (lock, send to moderation, unwikify, unfavorite ...) the run made
on nodes, one JSON line each (``{"node", "operation", "by"}``), written the same way: :func:`changed`."""

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


def changed(run_dir: Path, created: Iterable[Any]) -> list[dict[str, Any]]:
    """clean26: what the run changed on the target and no cleanup undoes: per node it did not create (``created``:
    report.json's list; a node of its own goes with the cleanup's delete, or is listed as left behind), the accepted
    state changes of the run folder's :data:`CHANGED_LOG` in the order sent, each (operation, account) once:
    ``[{"node": 12, "changes": [{"operation": "cancelWiki", "by": "member"}, ...]}]``. The delete action names no
    undo of a lock, a send to moderation, an unwikify nor an unfavorite, and the one-shot fixtures (the profile's
    wiki and favorite nodes) are consumed by them by design: the report says so instead of "the footprint is
    zero"."""
    own = {str(c.get("id")) for c in created if isinstance(c, Mapping)}
    out: dict[str, list[dict[str, str]]] = {}
    for item in read(run_dir / CHANGED_LOG):
        node = str(item.get("node"))
        if node in own or not node.isdigit():
            continue
        change = {"operation": str(item.get("operation")), "by": str(item.get("by"))}
        if change not in out.setdefault(node, []):
            out[node].append(change)
    return [{"node": int(node), "changes": changes} for node, changes in out.items()]
