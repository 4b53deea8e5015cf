"""A fault's second run, the one with the generated tests: those tests alone first, the rule's other files only when
they miss.

Why: a fault the other tests miss is run again with the generated tests (suites/properties) against a fresh server.
That run held the rule's suite files too (:func:`~qaconform.commands.selftest_rules.with_generated`), so it ran
every test of the rule a second time (2,124 of them for a comment-count fault) after the first run had shown that
none of them catches the fault: 61 of 953 faults ran so, 285 of the 1,036 seconds of the fault runs of a CI
self-test (2026-11-30). The generated tests are made to run alone (``qaconform selftest``'s runs of the other seeds
run only them, on the clean server and on ``all``, and must be green), so a failure of theirs charged with the
fault's rule against a server with only that fault on catches the fault as a failure in the longer run would.

Nothing is lost: when the generated tests alone do not catch the fault (a test of theirs that needs what the rule's
other tests wrote before it, a timeout, a rule named in suites/properties by no test of its own), that run is
forgotten and the run of old (the rule's files and the generated tests) follows, against another fresh server.
``QACONFORM_SELFTEST_GENERATED_FIRST=0`` goes straight to the run of old.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from qaconform.commands.selftest_result import RunResult
from qaconform.commands.selftest_rules import with_generated


def enabled() -> bool:
    """Whether a second run tries the generated tests alone first (``QACONFORM_SELFTEST_GENERATED_FIRST=0``: no)."""
    return os.environ.get("QACONFORM_SELFTEST_GENERATED_FIRST", "1").strip() != "0"


def second_run(res: RunResult, serve: Callable[..., None], files: Sequence[str], whole_suite: bool) -> None:
    """The second run of the fault ``res`` holds (its first run missed it): ``serve(**options)`` is one run
    against a fresh server with the generated tests (``selftest._serve_and_test`` with its fault, rule and seed
    bound), which adds what it found to ``res``. First ``only_generated``; kept only when it caught the fault with
    no problem, else its counts, failures, exit code and problem are put back as they were and the run of old
    follows (``files`` and the generated folder; ``whole_suite``: every suite, as before)."""
    res.failed.clear()
    if enabled() and not whole_suite:
        before: dict[str, Any] = {"counts": dict(res.counts), "returncode": res.returncode, "problem": res.problem}
        serve(only_generated=True, files=())
        if res.caught and res.problem is None:
            return
        res.failed.clear()
        res.counts.clear()
        res.counts.update(before["counts"])
        res.returncode, res.problem = before["returncode"], before["problem"]
    serve(files=() if whole_suite else with_generated(files))
