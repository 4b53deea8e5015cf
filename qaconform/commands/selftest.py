"""`qaconform selftest`: the kit proves itself against fault-injected and variant reference servers.

A conformance suite is only as good as the faults it catches. For every planted fault of the reference server
(``qaconform/reference/faults.py``) this command starts a server with exactly that fault on, runs the suite tests
whose rule markers name the rule the fault breaks, and counts the fault *caught* when at least one such test
*failed* (an assertion about the target, not an error of the kit). It also runs every suite against a clean
server and requires zero failures, so a suite cannot buy its score with false positives. The mutation score is
caught / total; anything short of 100 % or a red clean run is exit 1.

The dual check: every allowed *variant* of the reference server (``qaconform/reference/variants.py``:
another behaviour the description leaves open) must pass every suite: by default in a few composed groups (``all``,
then ``all`` with each choice's other alternatives; ``qaconform.commands.variant_groups``), a group that fails
bisected until its variants are named; ``--each-variant`` runs each one alone too. A suite failure on a
variant is a false positive (the suite asserts what the description does not state) and fails the self-test. When
the clean run fails, the mutation score is meaningless (a fault may be "caught" by a test that fails anyway) and
is not printed. A fault naming seeded draws runs at the first seed from ``--seed`` that draws them (``selftest_seeds``).
Each fault, variant and the clean run get their own server and pytest process (``--jobs`` at a time), so one hanging
or crashing run cannot take the others down; each pytest run is bounded by ``--timeout`` stretched by the measured
load for its own CPU work (``selftest_deadline``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import qaconform.commands.selftest_catchers as selftest_catchers
import qaconform.commands.variant_groups as variant_groups
from qaconform import exitcodes
from qaconform.commands import selftest_ahead, selftest_batch, selftest_load, selftest_second, selftest_seeds
from qaconform.commands.selftest_batch import Task
from qaconform.commands.selftest_deadline import Deadline
from qaconform.commands.selftest_profile import OPTIONAL_FIXTURES, ProfileShape
from qaconform.commands.selftest_result import (
    RunResult,
    SelftestResult,
    as_json,
    format_table,
    progress_line,
    read_results,
)
from qaconform.commands.selftest_rules import (
    LEAN_OPTIONS,
    check_registry,
    files_of,
    generated_test_rules,
)
from qaconform.commands.selftest_rules import pytest_base as _pytest_base
from qaconform.errors import KitError, UsageError
from qaconform.kit import pytest_command, pytest_cwd, suite_env

if TYPE_CHECKING:
    from qaconform.reference import ReferenceServer

DEFAULT_JOBS = 2
_FORK_SERVER: str | None = None
"""The socket of the fork server the self-test's pytest processes are forked from while it runs
(:func:`_forked_pytest`)."""
_REFERENCE_FORK_SERVER: str | None = None
"""The socket of the fork server its reference servers are forked from while it runs (:func:`_launch_server`)."""
DEFAULT_TIMEOUT_S = 300.0
"""One pytest run's bound on a quiet machine; each run stretches it by the measured load for its own CPU work
(:mod:`qaconform.commands.selftest_deadline`): 300 s stopped runs that were only slow at a load of 30 on 2 cores."""
_DEADLINE_TICK_S = 1.0
"""How often a run's load and CPU are measured against its bound."""
DEFAULT_SEED = 20260801
"""Seed of the generated tests, fixed so that a self-test run is reproducible (``--seed`` to vary it)."""
DEFAULT_SEEDS = 3
"""Seeds of the generated tests on the clean server and on ``all``: a seed decides what they send, and one seed
let a false failure through that the next seed showed (a second send to moderation)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=int, default=DEFAULT_JOBS, metavar="N",
                        help=f"servers + pytest runs at a time (default {DEFAULT_JOBS})")
    parser.add_argument("--fault", action="append", default=[], metavar="NAME",
                        help="check only this fault (repeatable; default: every fault of "
                             "`qaconform serve --list-faults`); without --variant, no variant runs")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME",
                        help="check only this allowed variant (repeatable; 'all' = every variant that composes, at "
                             "once; default: every variant of `qaconform serve --list-variants` in a few composed "
                             "groups, a group that fails bisected to its variants); without --fault, no fault runs")
    parser.add_argument("--each-variant", action="store_true",
                        help="run every variant alone, then all (slower: one full run of the suites each; grouping "
                             "cannot see a false positive that another variant of its group hides)")
    parser.add_argument("--no-faults", action="store_true", help="run no fault (only the variants and the clean run)")
    parser.add_argument("--no-variants", action="store_true", help="run no variant (only the faults and the clean run)")
    parser.add_argument("--whole-suite", action="store_true",
                        help="run every suite (not only the tests naming the fault's rule) against each fault, so "
                             "that 'rules failed' measures how far one broken rule spreads (slower); with "
                             "--until-caught: each fault's run is a whole run's pytest (the generated tests "
                             "included, every test in a whole run's order) ended at its first test charged with "
                             "the fault's rule, so 'caught' is what `qaconform run --reference-fault` catches")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                        help=f"stop one pytest run after this many seconds (default {DEFAULT_TIMEOUT_S:.0f}) on a "
                             "quiet machine, plus its own CPU time times the load per CPU above 1 measured while "
                             "it runs (a hang spends no CPU); a run stopped this way does not count as catching "
                             "its fault")
    parser.add_argument("--no-clean", action="store_true",
                        help="skip the run of every suite against the clean server (useful while adding a fault)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="N",
                        help=f"seed of the suites (default {DEFAULT_SEED}, fixed for reproducible runs; a fault naming "
                             "seeded draws runs at the first seed from N that draws them)")
    parser.add_argument("--seeds", type=int, default=DEFAULT_SEEDS, metavar="N",
                        help=f"run the generated tests with N seeds (--seed, --seed + 1, ...) on the clean server and "
                             f"on 'all' (default {DEFAULT_SEEDS}; the extra seeds run suites/properties only)")
    parser.add_argument("--until-caught", action="store_true",
                        help="end each fault's run at its first test charged with its rule (CI: the score alone; "
                             "'rules failed' then counts only the tests up to it)")
    parser.add_argument("--always-generated", action="store_true",
                        help="run the generated tests (suites/properties) for every fault whose rule they name, not "
                             "only for faults the other tests miss (slower: tens of seconds per such fault)")
    parser.add_argument("--default-profile", action="store_true",
                        help="give the suites a default profile: [safety] destructive off, no gdpr_user, and none of "
                             "the optional fixtures but those named by --keep-fixture (a rule must be "
                             "defended there too, or its tests must say which fixture they need)")
    parser.add_argument("--keep-fixture", action="append", default=[], metavar="NAME",
                        help=f"with --default-profile, keep this optional fixture (one of "
                             f"{', '.join(OPTIONAL_FIXTURES)}; repeatable)")
    # --- the load part (issue 45 item 5: qaconform.commands.selftest_load)
    parser.add_argument("--load", action="store_true",
                        help="also run each load scenario for a few seconds against the clean server and each variant "
                             "group (a load failure charged to a rule there is a false positive) and against each "
                             "chosen fault whose rule a load check names (counted caught or not noticed); off by "
                             "default: all of it is 85 Locust runs on 61 servers (about 10 minutes on 2 cores)")
    parser.add_argument("--load-only", action="store_true",
                        help="run the load part alone (no suite run), for the same choice of clean run, variants and "
                             "faults")
    parser.add_argument("--load-seconds", type=float, default=None, metavar="S",
                        help="seconds of each scenario's run in the load part (default 6)")
    parser.add_argument("--load-scenario", action="append", default=[], metavar="NAME",
                        help="run only this load scenario in the load part (repeatable; default every scenario)")
    parser.add_argument("--json", metavar="FILE", default=None,
                        help="also write the result (every fault, its rule, the tests that caught it) as JSON here")
    parser.add_argument("--write-catchers", action="store_true", help="record each caught fault's first catch, run "
                        "first by later --until-caught runs (qaconform/commands/selftest_catchers.json)")


def main(args: argparse.Namespace) -> int:
    from qaconform.reference import faults as registry
    from qaconform.reference import variants as allowed

    chosen_faults, chosen_variants = list(dict.fromkeys(args.fault)), list(dict.fromkeys(args.variant))
    names = chosen_faults or ([] if chosen_variants or args.no_faults else list(registry.FAULTS))
    unknown = [n for n in names if n not in registry.FAULTS]
    if unknown:
        raise UsageError(f"unknown fault {unknown[0]!r}; `qaconform serve --list-faults` lists the "
                         f"{len(registry.FAULTS)} known faults")
    variant_runs: list[tuple[str, ...]] = [(v,) for v in chosen_variants] or (
        [] if chosen_faults or args.no_variants else
        [(v,) for v in [*allowed.VARIANTS, allowed.ALL]] if args.each_variant else variant_groups.groups())
    try:
        for v in variant_runs:
            allowed.expand(v)
    except allowed.UnknownVariantError as exc:  # the reference server's own error: it imports nothing of the kit
        raise UsageError(str(exc)) from None
    if args.jobs < 1 or args.timeout <= 0 or args.seeds < 1:
        raise UsageError("--jobs and --seeds must be 1 or more and --timeout positive")
    unknown_fixtures = [f for f in args.keep_fixture if f not in OPTIONAL_FIXTURES]
    if unknown_fixtures:
        raise UsageError(f"--keep-fixture {unknown_fixtures[0]!r} is not an optional fixture; use one of "
                         f"{', '.join(OPTIONAL_FIXTURES)}")
    problems = check_registry()
    if problems:
        raise KitError("the fault registry is wrong:\n  " + "\n  ".join(problems))
    load_todo = _load_servers(args, names, variant_runs)
    if args.load_only:
        assert load_todo is not None
        result = SelftestResult(faults=[], clean=None, seconds=0.0, load=_run_load(load_todo, args))
        result.seconds = result.load.seconds if result.load else 0.0
        return _finish(result, args)
    extra = extra_seed_runs(not args.no_clean, [n for g in variant_runs for n in g], args.seed, args.seeds)
    own = 0 if args.no_clean else selftest_seeds.clean_runs(names, args.seed)
    print(f"self-test: {len(names)} faults, {len(variant_runs)} variant runs"
          f"{' + the clean run' if not args.no_clean else ''}"
          f"{f' + {len(extra)} runs of the generated tests with other seeds' if extra else ''}, {args.jobs} at a time, "
          f"seed {args.seed}{selftest_seeds.announce(names, args.seed, own)}", flush=True)
    shape = ProfileShape(args.default_profile, tuple(args.keep_fixture))
    from qaconform.report.progress import Tracker

    with Tracker(len(names) + len(variant_runs) + len(extra) + own + (not args.no_clean), "self-test") as tracker:
        def progress(res: RunResult) -> None:
            tracker.advance(progress_line(res))

        result = run_selftest(names, jobs=args.jobs, timeout=args.timeout, clean=not args.no_clean, seed=args.seed,
                              always_generated=args.always_generated, progress=progress, shape=shape,
                              variants=variant_runs, whole_suite=args.whole_suite, seeds=args.seeds,
                              until_caught=args.until_caught)
    if load_todo is not None:
        result.load = _run_load(load_todo, args)
        result.seconds += result.load.seconds
    return _finish(result, args)


def _finish(result: SelftestResult, args: argparse.Namespace) -> int:
    """The table, the JSON file, and the exit code."""
    print(format_table(result))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(as_json(result), indent=1))
    if args.write_catchers:
        print(selftest_catchers.written(as_json(result)["faults"]))
    return exitcodes.OK if result.ok else exitcodes.RULE_FAILED


def _load_servers(args: argparse.Namespace, names: Sequence[str], variant_runs: Sequence[tuple[str, ...]]
                  ) -> list[selftest_load.Server] | None:
    """The load part's servers (None without --load or --load-only), checked before anything runs."""
    if not (args.load or args.load_only or args.load_scenario or args.load_seconds is not None):
        return None
    if not (args.load or args.load_only):
        raise UsageError("--load-scenario and --load-seconds choose what the load part runs: add --load or --load-only")
    from qaconform.load.runner import scenarios

    known = scenarios()
    unknown = [s for s in args.load_scenario if s not in known]
    if unknown:
        raise UsageError(f"--load-scenario {unknown[0]!r} is not a load scenario; use one of {', '.join(known)}")
    seconds = selftest_load.SECONDS if args.load_seconds is None else args.load_seconds
    if not 1 <= seconds <= 600:
        raise UsageError(f"--load-seconds {seconds:g}: give 1 to 600 seconds")
    args.load_seconds = seconds
    return selftest_load.servers(names, variant_runs, not args.no_clean, args.load_scenario or known)


def _run_load(todo: Sequence[selftest_load.Server], args: argparse.Namespace) -> selftest_load.LoadPart:
    runs = sum(len(s.scenarios) for s in todo)
    print(f"self-test, load part: {runs} scenario runs of {args.load_seconds:g} s at {selftest_load.RATE:g} req/s on "
          f"{len(todo)} servers, {args.jobs} at a time", flush=True)
    return selftest_load.run_load_part(todo, args.jobs, args.load_seconds,
                                       lambda run: print(selftest_load.progress_line(run), flush=True))


def run_selftest(names: Sequence[str], jobs: int = DEFAULT_JOBS, timeout: float = DEFAULT_TIMEOUT_S,
                 clean: bool = True, seed: int = DEFAULT_SEED, always_generated: bool = False,
                 progress: Callable[[RunResult], None] | None = None,
                 shape: ProfileShape | None = None, variants: Sequence[tuple[str, ...]] = (),
                 whole_suite: bool = False, seeds: int = 1, until_caught: bool = False) -> SelftestResult:
    """Run the clean server over every suite, each named fault over its rule's tests and each group of variants
    (one variant, ``all``, or a composed group of :mod:`variant_groups`) over every suite (``all`` with the
    generated tests too; a group that fails is bisected to its variants); ``jobs`` at a time. ``seeds`` > 1: the
    generated tests again with the next seeds on the clean server and on ``all`` (:func:`extra_seed_runs`)."""
    started = time.monotonic()
    tasks, at_seed = selftest_seeds.fault_tasks(names, seed, clean)  # the clean run, each fault at its seed
    progress = selftest_seeds.marking(progress, at_seed)
    tasks += [(variant_groups.label(g), None, tuple(g), None) for g in variants]
    tasks += [(label, None, (server,), extra) for label, server, extra
              in extra_seed_runs(clean, [n for g in variants for n in g], seed, seeds)]

    def one(task: Task) -> list[RunResult]:
        label, rule, group, extra_seed = task
        at = seed if extra_seed is None else extra_seed  # a fault's own seed, or an extra seed's run
        if rule is not None and group is not None:  # a rule's batch: the labels of its faults
            return _run_rule(group, rule, timeout, at, shape or ProfileShape(), (files or {})[rule], progress,
                             collectors if at == seed else None, until_caught, ahead)
        if extra_seed is not None and rule is None:
            return [_run_generated(label, (group or ("clean",))[0], timeout, extra_seed, progress)]
        if group is not None:
            return _run_variant_group(label, group, timeout, seed, progress)
        res = _run_one(label, rule, timeout, at, always_generated, shape or ProfileShape(), whole_suite,
                       (files or {}).get(rule or "", ()), until_caught=until_caught)
        if progress:
            progress(res)
        return [res]

    collectors: selftest_batch.Collectors | None = None
    with _forked_pytest(), tempfile.TemporaryDirectory(prefix="qaconform-selftest-collectors-") as tmp:
        if names and not whole_suite and not always_generated and selftest_batch.enabled():
            start = functools.partial(_every_rule_batch, seed, until_caught=until_caught)
            collectors = selftest_batch.Collectors(start, Path(tmp), jobs)
        tests = collectors.rule_map(timeout) if collectors is not None else None
        files = (files_of(tests) if tests is not None else rule_files(timeout)) if names and not whole_suite else None
        if files is not None and collectors is not None:
            tasks = selftest_batch.by_rule(tasks, files)
            collectors.most = selftest_batch.collections_for(sum(t[1] is not None and t[2] is not None for t in tasks),
                                                             jobs)
        ahead = selftest_ahead.Ahead(_fault_server, [t[2] for t in tasks if t[1] is not None and t[2] is not None],
                                     jobs)  # each batch's first server started while a job runs a last fault
        try:
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                results = [selftest_seeds.mark(r, at_seed) for runs in pool.map(one, tasks) for r in runs]
        finally:
            ahead.close()
            if collectors is not None:
                collectors.stop()
    clean_result = results.pop(0) if clean else None
    order = {n: i for i, n in enumerate(names)}
    fault_results = sorted((r for r in results if not r.variants), key=lambda r: order.get(r.label, len(order)))
    variant_results = [r for r in results if r.variants]
    return SelftestResult(faults=fault_results, clean=clean_result, seconds=time.monotonic() - started,
                          variants=variant_results, until_caught=until_caught)


def extra_seed_runs(clean: bool, variants: Sequence[str], seed: int, seeds: int) -> list[tuple[str, str, int]]:
    """(label, "clean" or "all", seed) of the generated tests' runs with the seeds after ``seed``."""
    from qaconform.reference import variants as allowed

    servers = (["clean"] if clean else []) + ([allowed.ALL] if allowed.ALL in variants else [])
    return [(f"{'clean server' if s == 'clean' else 'variant all'}, seed {seed + i}", s, seed + i)
            for i in range(1, seeds) for s in servers]


def _run_generated(label: str, server: str, timeout: float, seed: int,
                   progress: Callable[[RunResult], None] | None = None) -> RunResult:
    """The generated tests alone (the other suites send the same whatever the seed) with another seed, against the
    clean server or ``all``; any failure is a false positive."""
    res = RunResult(label=label, rule=None, variants=(server,), seed=seed)
    t0 = time.monotonic()
    _serve_and_test(res, label, None, timeout, seed, generated=True,
                    variants=() if server == "clean" else (server,), only_generated=True)
    res.seconds = time.monotonic() - t0
    if progress:
        progress(res)
    return res


def _run_variant_group(label: str, group: tuple[str, ...], timeout: float, seed: int,
                       progress: Callable[[RunResult], None] | None = None) -> list[RunResult]:
    """Every suite against a server running ``group`` (``all``: every variant that composes, generated tests
    included); any failure is a false positive. A group of several variants whose tests failed is bisected
    (:func:`variant_groups.bisect`, the same tests and seed) so that the false positive is named by its variants;
    a run that could not be judged (no server, a timeout) is not."""
    from qaconform.reference import variants as allowed

    generated = allowed.ALL in group

    def run(names: tuple[str, ...], name: str) -> RunResult:
        res = RunResult(label=name, rule=None, variants=names)
        t0 = time.monotonic()
        _serve_and_test(res, name, None, timeout, seed, generated=generated, variants=names)
        res.seconds = time.monotonic() - t0
        if progress:
            progress(res)
        return res

    first = run(group, label)
    members = allowed.expand(group)
    if not first.false_positive() or first.problem is not None or len(members) < 2:
        return [first]
    return [first, *variant_groups.bisect(members, lambda part: run(part, variant_groups.label(part)),
                                          RunResult.false_positive)]


def _run_one(label: str, rule: str | None, timeout: float, seed: int, always_generated: bool = False,
             shape: ProfileShape | None = None, whole_suite: bool = False, files: Sequence[str] = (),
             batch: selftest_batch.Batch | None = None, server: Callable[[], ReferenceServer] | None = None,
             until_caught: bool = False) -> RunResult:
    """The clean run (``rule`` None): every suite, generated tests included, against a clean server.

    A fault: first the tests naming its rule without the generated ones; only when those miss it and a generated
    test names the rule, the generated tests against a fresh server (the first run consumed the profile's one-shot
    nodes; :mod:`qaconform.commands.selftest_second`). ``always_generated``: one run with them from the start.
    ``files``: the suite files that hold the rule's tests (:func:`rule_files`), given to the first run's pytest
    instead of the whole suites folder (the same tests, collected without the rest). ``batch``: the first run by
    the batch that collected those tests once for every fault of the rule (:func:`_run_rule`); ``server``: its
    first run's server, started ahead (:mod:`qaconform.commands.selftest_ahead`).
    """
    res = RunResult(label=label, rule=rule)
    t0 = time.monotonic()
    in_run = whole_suite and until_caught and rule is not None  # a whole run's pytest, ended at the rule's catch
    both = rule is None or in_run or (always_generated and rule in generated_test_rules())
    shape = shape or ProfileShape()
    if until_caught and not (both or whole_suite) and rule is not None and selftest_second.generated_first(
            res, label, rule, timeout, seed, shape, _serve_and_test, _run_generated, server):
        res.seconds = time.monotonic() - t0
        return res
    batch = None if both or whole_suite else batch
    first = selftest_catchers.batch_catch(label) if batch is not None and batch.until_caught and rule else None
    _serve_and_test(res, label, rule, timeout, seed, generated=both, shape=shape, whole_suite=whole_suite,
                    files=() if batch is None else files, batch=batch, server=server, until_caught=in_run, first=first)
    if first is not None and selftest_catchers.rerun(res):  # a miss with the head start: the run without it
        _serve_and_test(res, label, rule, timeout, seed, generated=False, shape=shape, files=files,
                        batch=None if batch is None or batch.broken() else batch)  # a fresh server: no ``server``
    if rule is not None and not in_run and not res.caught and res.problem is None and rule in generated_test_rules():
        selftest_second.second_run(res, label, rule, timeout, seed, shape, whole_suite, files,
                                   _serve_and_test, _run_generated, until_caught)
    res.seconds = time.monotonic() - t0
    return res


def _run_rule(labels: Sequence[str], rule: str, timeout: float, seed: int, shape: ProfileShape,
              files: Sequence[str], progress: Callable[[RunResult], None] | None = None,
              collectors: selftest_batch.Collectors | None = None, until_caught: bool = False,
              shared: selftest_ahead.Ahead[ReferenceServer] | None = None) -> list[RunResult]:
    """:func:`_run_one` for each fault of ``rule`` in turn, their first runs by one batch
    (:mod:`qaconform.commands.selftest_batch`): tests collected once, then run in a fork per fault against that
    fault's own server. ``collectors``: a batch of theirs, which collected every suite once for the whole self-test
    (each fork keeps the rule's tests); else one that collects the rule's files. A batch whose pytest ended or hung
    is replaced for the next fault. ``until_caught``: each first run ends at its first test charged with ``rule``.
    ``shared``: the self-test's servers started ahead (its last fault's run starts the next batch's first server)."""
    results: list[RunResult] = []
    with (tempfile.TemporaryDirectory(prefix="qaconform-selftest-batch-") as tmp,
          contextlib.nullcontext(shared) if shared is not None else selftest_ahead.Ahead(_fault_server) as ahead):
        batch: selftest_batch.Batch | None = None
        try:
            for n, label in enumerate(labels):
                server = ahead.take(label)
                ahead.prepare(labels[n + 1] if n + 1 < len(labels) else None)
                if batch is None or batch.broken():
                    if batch is not None:
                        batch.stop()
                    batch = (collectors.take() if collectors is not None else None) or selftest_batch.Batch(
                        _pytest_base(rule, seed, False, files=files), _suite_environment(), pytest_cwd(),
                        Path(tmp) / str(n), _launch, until_caught=until_caught)
                res = _run_one(label, rule, timeout, seed, False, shape, False, files, batch=batch, server=server,
                               until_caught=until_caught)
                if progress:
                    progress(res)
                results.append(res)
        finally:
            if batch is not None and batch.every_rule and collectors is not None:
                collectors.give(batch)
            elif batch is not None:
                batch.stop()
    return results


def _every_rule_batch(seed: int, folder: Path, rule_map: Path | None = None,
                      until_caught: bool = False) -> selftest_batch.Batch:
    """A batch over every suite but the generated tests (:class:`selftest_batch.Collectors`); ``rule_map``: it
    writes each collected test's rules there as its collection ends."""
    extra = ["-p", "qaconform.pytest.rule_map", "--qaconform-rule-map", str(rule_map)] if rule_map else []
    return selftest_batch.Batch([*_pytest_base(None, seed, False), *extra], _suite_environment(), pytest_cwd(),
                                folder, _launch, every_rule=True, until_caught=until_caught)


def _serve_and_test(res: RunResult, label: str, rule: str | None, timeout: float, seed: int,
                    generated: bool, shape: ProfileShape | None = None, variants: Sequence[str] = (),
                    whole_suite: bool = False, only_generated: bool = False, files: Sequence[str] = (),
                    batch: selftest_batch.Batch | None = None,
                    server: Callable[[], ReferenceServer] | None = None, until_caught: bool = False,
                    first: str | None = None) -> None:
    """One run against a server of its own (``batch``: the rule's tests its batch collected, :func:`_run_rule`,
    ``first`` run first; ``server``: gives it started, else it starts here)."""
    from qaconform.reference import ReferenceServerError

    res.generated = res.generated or generated
    with tempfile.TemporaryDirectory(prefix="qaconform-selftest-") as tmp:
        try:  # started already: not entered as a context (that would start a second one), stopped after the run
            srv = (server or (lambda: _fault_server(label if rule else None, variants)))()
        except ReferenceServerError as exc:
            res.problem = f"the reference server did not start: {exc}"
            return
        try:
            profile_path = (shape or ProfileShape()).profile_for(srv.profile_path, Path(tmp))
            if batch is not None:
                _batch_run(res, batch, profile_path, rule, Path(tmp), timeout, first)
            else:
                _pytest(res, profile_path, None if whole_suite else rule, Path(tmp), timeout, seed, generated,
                        only_generated, files, until_caught, rule if whole_suite and until_caught else None)
        finally:
            srv.stop()


def _fault_server(label: str | None, variants: Sequence[str] = ()) -> ReferenceServer:
    """A started throwaway server (its database is read by nobody after the run) with fault ``label`` on."""
    from qaconform.reference import ReferenceServer

    srv = ReferenceServer(faults=selftest_seeds.faults_of(label), variants=variants, throwaway=True,
                          launch=_launch_server)
    srv.start()
    return srv


def _pytest(res: RunResult, profile_path: str, rule: str | None, tmp: Path, timeout: float, seed: int,
            generated: bool, only_generated: bool = False, files: Sequence[str] = (), until_caught: bool = False,
            stop_at: str | None = None) -> None:
    results_path = tmp / "results.json"
    cmd = [*_pytest_base(rule, seed, generated, only_generated, files, until_caught, stop_at), "--target-profile",
           profile_path,
           "--qaconform-results", str(results_path)]
    env = _suite_environment()
    log_path = tmp / "pytest.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(_launch(cmd, env), cwd=pytest_cwd(), stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
        deadline = Deadline(timeout, log_path)  # --timeout, stretched by the load for the run's own CPU only
        while True:
            try:
                res.returncode = proc.wait(timeout=_DEADLINE_TICK_S)
                break
            except subprocess.TimeoutExpired:
                deadline.sample(proc.pid)
                if deadline.over():
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=30)
                    res.problem = deadline.why()
                    return
    read_results(res, results_path, lambda: log_path.read_text(errors="replace"), rule,
                 rule is not None and (generated or rule not in generated_test_rules()))


def _batch_run(res: RunResult, batch: selftest_batch.Batch, profile_path: str, rule: str | None, tmp: Path,
               timeout: float, first: str | None = None) -> None:
    """A fault's first run by its rule's batch (``first``: its last catch, run first; :mod:`selftest_catchers`)."""
    run = batch.run(profile_path, tmp / "results.json", timeout, rule, first)
    res.returncode, res.problem = run.returncode, run.problem
    if run.problem is None:
        read_results(res, tmp / "results.json", functools.partial(str, run.output), rule,
                     rule not in generated_test_rules())


def _suite_environment() -> dict[str, str]:
    """The kit's suite environment without the caller's QACONFORM_ settings (a self-test judges the kit, not the
    caller's target), with the reference servers' password variables, which their profiles name (qa16)."""
    from qaconform.reference.profile_out import password_env
    return suite_env({**{k: v for k, v in os.environ.items() if not k.startswith("QACONFORM_")}, **password_env()})


@contextlib.contextmanager
def _forked_pytest() -> Iterator[None]:
    """For the self-test's duration, its pytest processes are forked from one fork server
    (:mod:`qaconform.pytest.forked_workers`) that imported pytest, the plugins and the kit once: a fresh interpreter
    was most of a fault's run. Without it (not Linux, ``QACONFORM_FORK_WORKERS=0``) each pytest starts on its own."""
    global _FORK_SERVER, _REFERENCE_FORK_SERVER
    from qaconform.pytest import forked_workers

    if not forked_workers.enabled() or _FORK_SERVER is not None:
        yield
        return
    try:
        server = forked_workers.ForkServer(_suite_environment())
    except OSError:
        yield
        return
    try:
        reference = forked_workers.ForkServer(dict(os.environ), preload=forked_workers.REFERENCE_PRELOAD)
    except OSError:
        reference = None
    _FORK_SERVER = server.path
    _REFERENCE_FORK_SERVER = reference.path if reference is not None else None
    try:
        yield
    finally:
        _FORK_SERVER = _REFERENCE_FORK_SERVER = None
        server.stop()
        if reference is not None:
            reference.stop()


def _launch(cmd: list[str], env: dict[str, str]) -> list[str]:
    """``cmd`` (``python -P -m pytest ...``) as it is started: through the fork server while one runs (the socket's
    path set in ``env``), else as it is."""
    if _FORK_SERVER is None:
        return cmd
    from qaconform.pytest import forked_workers, worker_shim

    env[worker_shim.ENV] = _FORK_SERVER
    return forked_workers.through(cmd, _FORK_SERVER)


def _launch_server(cmd: list[str], env: dict[str, str]) -> list[str]:
    """A reference server's command (``python -m qaconform.reference ...``) as it is started: forked from the
    self-test's second fork server while one runs (it imported the reference server once: each fault's server
    skipped 0.3-0.5 s of CPU importing it), else as it is. The same code serves the same answers either way."""
    if _REFERENCE_FORK_SERVER is None:
        return cmd
    from qaconform.pytest import forked_workers, worker_shim

    env[worker_shim.ENV] = _REFERENCE_FORK_SERVER
    return forked_workers.through(cmd, _REFERENCE_FORK_SERVER)


def rule_files(timeout: float) -> dict[str, list[str]] | None:
    """The suite files (relative to the suites' parent) that hold each rule's tests, the generated ones left out:
    one ``pytest --collect-only`` with :mod:`qaconform.pytest.rule_map` per self-test. None when that collection
    fails: every fault's pytest then collects the whole suites folder, as it did before the map."""
    with tempfile.TemporaryDirectory(prefix="qaconform-selftest-map-") as tmp:
        out = Path(tmp) / "rule-map.json"
        cmd = [*pytest_command(), "--collect-only", "-q", "-p", "qaconform.pytest.rule_map",
               "--qaconform-rule-map", str(out), *LEAN_OPTIONS]
        env = _suite_environment()
        try:
            subprocess.run(_launch(cmd, env), cwd=pytest_cwd(), env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout, check=False)
            tests = json.loads(out.read_text(encoding="utf-8"))["tests"]
        except (OSError, ValueError, KeyError, TypeError, subprocess.TimeoutExpired):
            return None
    return files_of(tests)
