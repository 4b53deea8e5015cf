"""The test that caught each fault last time, run first in the fault's next ``--until-caught`` run.

Why: under ``--until-caught`` (CI's fault self-test) a fault's first run is its rule's tests in order up to the first
one charged with the rule, and a rule crossed by a covering array is named by hundreds of tests: the 48 faults of
the three list-count rules ran 24,293 tests to their catches (ci17, 2026-12-01), 1,292 faults about 262,000. The
catch is nearly always the same test from one self-test to the next, so that test goes first and a fault's run ends
after one test instead of hundreds.

What it may change is time, never a verdict: a fault is still caught only by a failed test charged with its rule,
and it still runs against every test of its rule until one is; a catcher that no longer fails (the suites or the
fault changed), no longer exists, or belongs to the generated tests (not in the first run) only loses its head
start: the rest follow in their own order (``fault_batch._first``). A missing, stale or unreadable file is a
slower self-test with the same verdicts (``tests/test_selftest_catchers.py``). Whole runs (no ``--until-caught``)
keep the rule's order untouched.

The file is written by ``qaconform selftest --write-catchers``: each fault caught in that self-test gets its first
catch; faults not run keep their entry; faults no longer registered lose theirs.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("selftest_catchers.json")
"""Committed beside this module; refreshed by a self-test with ``--write-catchers``."""


def load(path: Path = PATH) -> dict[str, str]:
    """{fault label: the node id of the test that caught it last}; empty when the file is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items() if isinstance(v, str) and v}


@functools.cache
def _committed() -> dict[str, str]:
    return load()


def catch_of(label: str) -> str | None:
    """The test to run first in fault ``label``'s ``--until-caught`` run (None: its rule's order as it is).
    Off unless ``QACONFORM_SELFTEST_CATCHERS=1``: a cache fault's catch can need the state earlier tests left on its
    server, and the catch run first then passes (round35-question-lists-cached-through-unwikify missed in CI)."""
    if os.environ.get("QACONFORM_SELFTEST_CATCHERS", "0").strip() != "1":
        return None
    return _committed().get(label)


def merged(old: dict[str, str], faults: Iterable[dict[str, Any]], registered: Iterable[str]) -> dict[str, str]:
    """``old`` with each caught fault's first catch (``faults``: the self-test's JSON entries, ``label`` and
    ``caught_by``) and without the labels no longer ``registered``, sorted by label (a small diff)."""
    known = set(registered)
    new = {k: v for k, v in old.items() if k in known}
    for fault in faults:
        if fault.get("caught_by") and fault.get("label") in known:
            new[str(fault["label"])] = str(fault["caught_by"][0])
    return dict(sorted(new.items()))


def write(faults: Iterable[dict[str, Any]], registered: Iterable[str], path: Path = PATH) -> int:
    """Merge this self-test's catches into ``path``; returns how many faults it names."""
    new = merged(load(path), faults, registered)
    path.write_text(json.dumps(new, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    _committed.cache_clear()
    return len(new)


def written(faults: Iterable[dict[str, Any]]) -> str:
    """``--write-catchers``: :func:`write` this self-test's catches (its JSON's ``faults``) into :data:`PATH`."""
    from qaconform.reference import faults as registry

    return f"catchers: {write(faults, registry.FAULTS)} faults named in {PATH}"
