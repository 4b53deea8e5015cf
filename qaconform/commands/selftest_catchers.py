"""The test that caught each fault last time, run first in the fault's next ``--until-caught`` run.

Why: under ``--until-caught`` (CI's fault self-test) a fault's first run is its rule's tests in order up to the first
one charged with the rule, and a rule crossed by a covering array is named by hundreds of tests: the 48 faults of
the three list-count rules ran 24,293 tests to their catches (ci17, 2026-12-01), 1,292 faults about 262,000. The
catch is nearly always the same test from one self-test to the next, so that test runs first, alone (ci21), and a
fault's run ends after one test instead of hundreds.

What it may change is time, never a verdict (ci21, 2026-12-01): a fault is still caught only by a failed test
charged with its rule, and a run with the head start that does not catch it is forgotten (:func:`rerun`): the run
without the head start follows, its rule's tests in their order *against a fresh server*, exactly the run a self-test
without this file makes. Why a fresh server: a cache fault's catch can need the state the rule's earlier tests leave
on the fault's server (round35-question-lists-cached-through-unwikify: a question list cached before an unwikify),
so its catch run first passes and spends a one-shot node; the rule's order after it, on that server, then found the
node spent and missed the fault (the clean-clone CI of 9c1ee86, with the head start on; ci19's fallback ran on the
same server). A catcher that no longer fails, no longer exists, or belongs to the generated tests (not in the first
run) is such a miss. A missing, stale or unreadable file is a slower self-test with the same verdicts
(``tests/test_selftest_catchers.py``). Whole runs (no ``--until-caught``) keep the rule's order untouched.

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

GENERATED = "suites/properties/"
"""Where the generated tests are: a catch there runs in a fault's second run, never its first."""
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
    """The test to run first in fault ``label``'s ``--until-caught`` run (None: its rule's order as it is);
    ``QACONFORM_SELFTEST_CATCHERS=0`` turns the head start off."""
    if os.environ.get("QACONFORM_SELFTEST_CATCHERS", "1").strip() == "0":
        return None
    return _committed().get(label)


def batch_catch(label: str) -> str | None:
    """:func:`catch_of` when a first run can hold it: a generated test's (suites/properties) is not among a fault's
    first run's tests; ``selftest_second.generated_first`` runs those first instead."""
    catch = catch_of(label)
    return None if catch is None or catch.startswith(GENERATED) else catch


def rerun(res: Any) -> bool:
    """After a fault's run with its catch first (``res``, a ``selftest_result.RunResult``): whether the run without
    the head start must follow on a fresh server. Caught: no (``head_start`` "caught"). Missed, or not judged (a
    problem): yes, and ``res`` is emptied so that it holds that run alone (``head_start`` "missed")."""
    if res.caught:
        res.head_start = "caught"
        return False
    res.failed.clear()
    res.counts.clear()
    res.returncode, res.problem, res.head_start = None, None, "missed"
    return True


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
