"""A fault's second run, the one with the generated tests: those tests alone first, the rule's other files only when
they miss.

Why: a fault the other tests miss is run again with the generated tests (suites/properties) against a fresh server.
That run held the rule's suite files too (:func:`~qaconform.commands.selftest_rules.with_generated`), so it ran
every test of the rule a second time (2,124 of them for a comment-count fault) after the first run had shown that
none of them catches the fault: 61 of 953 faults ran so, 285 of the 1,036 seconds of the fault runs of a CI
self-test (2026-11-30). The generated tests are made to run alone (the self-test's runs of the other seeds run
only them, on the clean server and on ``all``, and must be green), and a failure of theirs charged with the fault's
rule against a server with only that fault on catches the fault as a failure in the longer run would. So that no
test that fails alone whatever the server can "catch" a fault, such a catch is trusted only once the same tests
alone, at the same seed, passed on a clean server in this self-test (one run per seed, :func:`clean_alone`: 6 s of
CPU, 2026-12-01).

Nothing is lost: when the generated tests alone do not catch the fault (a test of theirs that needs what the rule's
other tests wrote before it, a timeout, a rule named in suites/properties by no test of its own), that run is
forgotten and the run of old (the rule's files and the generated tests) follows, against another fresh server.
``QACONFORM_SELFTEST_GENERATED_FIRST=0`` goes straight to the run of old.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

from qaconform.commands import selftest_catchers
from qaconform.commands.selftest_profile import ProfileShape
from qaconform.commands.selftest_result import RunResult
from qaconform.commands.selftest_rules import generated_test_rules, with_generated


def enabled() -> bool:
    """Whether a second run tries the generated tests alone first (``QACONFORM_SELFTEST_GENERATED_FIRST=0``: no)."""
    return os.environ.get("QACONFORM_SELFTEST_GENERATED_FIRST", "1").strip() != "0"


_CLEAN_RUNS: dict[int, RunResult] = {}
"""This self-test's run of the generated tests alone on a clean server, per seed (:func:`clean_alone`)."""
_CLEAN_LOCK = threading.Lock()


def clean_alone(seed: int, run: Callable[[], RunResult]) -> bool:
    """Whether the generated tests alone passed on a clean server at ``seed``: ``run`` (``selftest._run_generated``
    on the clean server) once per seed and self-test, the first fault to ask running it and the others waiting for
    it (the self-test's jobs are threads of one process)."""
    with _CLEAN_LOCK:
        if seed not in _CLEAN_RUNS:
            _CLEAN_RUNS[seed] = run()
        clean = _CLEAN_RUNS[seed]
    return clean.problem is None and not clean.failed and clean.returncode == 0


def second_run(res: RunResult, label: str, rule: str, timeout: float, seed: int, shape: ProfileShape,
               whole_suite: bool, files: Sequence[str], serve_and_test: Callable[..., None],
               run_generated: Callable[..., RunResult], until_caught: bool = False) -> None:
    """``selftest._run_one``'s second run of fault ``label``: :func:`run_second` with that module's one run against
    a fresh server (``_serve_and_test``) and, for the reference server's own profile, its run of the generated tests
    alone on a clean server (``_run_generated``; a ``--default-profile`` self-test has no such run to trust them by,
    so it goes to the run of old). ``selftest`` passes its two functions in: this module does not import it back."""
    serve = functools.partial(serve_and_test, res, label, rule, timeout, seed, generated=True, shape=shape,
                              whole_suite=whole_suite)
    clean = functools.partial(run_generated, "clean server, generated tests alone", "clean", timeout, seed)
    run_second(res, serve, files, whole_suite, None if shape.default else (seed, clean), until_caught)


def run_second(res: RunResult, serve: Callable[..., None], files: Sequence[str], whole_suite: bool,
               clean: tuple[int, Callable[[], RunResult]] | None = None, until_caught: bool = False) -> None:
    """The second run of the fault ``res`` holds (its first run missed it): ``serve(**options)`` is one run
    against a fresh server with the generated tests (``selftest._serve_and_test`` with its fault, rule and seed
    bound), which adds what it found to ``res``. First ``only_generated``, when ``clean`` is given (the seed, and
    the run of the generated tests alone on a clean server at that seed): kept only when it caught the fault with
    no problem and the clean run passed (:func:`clean_alone`), else its counts, failures, exit code and problem are
    put back as they were and the run of old follows (``files`` and the generated folder; ``whole_suite``: every
    suite, as before). ``until_caught`` (the self-test's ``--until-caught``): the run alone ends at its first test
    charged with the rule, the privacy model's file first (``selftest_rules.generated_files``; ci16); the clean run
    that trusts it runs every test, in the same order."""
    res.failed.clear()
    if enabled() and not whole_suite and clean is not None:
        before: dict[str, Any] = {"counts": dict(res.counts), "returncode": res.returncode, "problem": res.problem}
        serve(only_generated=True, files=(), **({"until_caught": True} if until_caught else {}))
        if res.caught and res.problem is None and clean_alone(*clean):
            return
        res.failed.clear()
        res.counts.clear()
        res.counts.update(before["counts"])
        res.returncode, res.problem = before["returncode"], before["problem"]
    serve(files=() if whole_suite else with_generated(files))


def generated_first(res: RunResult, label: str, rule: str, timeout: float, seed: int, shape: ProfileShape,
                    serve_and_test: Callable[..., None], run_generated: Callable[..., RunResult],
                    server: Callable[[], Any] | None) -> bool:
    """Under ``--until-caught``, a fault whose last catch was a generated test (``selftest_catchers``): its second
    run, the generated tests alone (trusted as :func:`run_second` trusts them), before its first run. True: caught
    so, and the first run's server (``server``, started ahead) is stopped unused. False: nothing tried (no such
    catch, a ``--default-profile``, ``QACONFORM_SELFTEST_GENERATED_FIRST=0``), or a miss, forgotten as
    :func:`run_second` forgets one: the first run and the rest follow as without it.

    Why: such a fault's first run ran every test of its rule to a miss (1,750 for a comment-count fault) before the
    generated tests caught it (ci19, 2026-12-01). Its verdict is the same either way: caught by a failure charged
    with its rule, of a test that passed alone on the clean server."""
    catch = selftest_catchers.catch_of(label)
    if (shape.default or not enabled() or not catch or not catch.startswith(selftest_catchers.GENERATED)
            or rule not in generated_test_rules()):
        return False
    serve_and_test(res, label, rule, timeout, seed, generated=True, shape=shape, only_generated=True, files=(),
                   until_caught=True)
    if res.caught and res.problem is None and clean_alone(
            seed, functools.partial(run_generated, "clean server, generated tests alone", "clean", timeout, seed)):
        if server is not None:
            with contextlib.suppress(Exception):  # one that did not start has nothing to stop
                server().stop()
        return True
    res.failed.clear()
    res.counts.clear()
    res.returncode, res.problem, res.generated = None, None, False
    return False
