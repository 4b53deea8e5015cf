"""`qaconform selftest`: the kit proves itself against fault-injected and variant reference servers.

A conformance suite is only as good as the faults it catches. For every planted fault of the reference server
(``qaconform/reference/faults.py``) this command starts a server with exactly that fault on, runs the suite tests
whose rule markers name the rule the fault breaks, and counts the fault *caught* when at least one such test
*failed* (an assertion about the target, not an error of the kit). It also runs every suite against a clean
server and requires zero failures, so a suite cannot buy its score with false positives. The mutation score is
caught / total; anything short of 100 % or a red clean run is exit 1.

The dual check: every allowed *variant* of the reference server (``qaconform/reference/variants.py``:
another behaviour the description leaves open) and all of them at once must pass every suite. A suite failure on a
variant is a false positive (the suite asserts what the description does not state) and fails the self-test. When
the clean run fails, the mutation score is meaningless (a fault may be "caught" by a test that fails anyway) and
is not printed.

Each fault, variant and the clean run get their own server process and their own pytest process (``--jobs`` at a
time), so one hanging or crashing run cannot take the others down, and every pytest run is bounded by ``--timeout``.
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from qaconform import exitcodes
from qaconform.blame import charged_rules
from qaconform.kit import pytest_command, pytest_cwd, suite_env, suites_dir
from qaconform.status import Status

DEFAULT_JOBS = 2
DEFAULT_TIMEOUT_S = 300.0
DEFAULT_SEED = 20260801
"""Seed of the generated tests, fixed so that a self-test run is reproducible (``--seed`` to vary it)."""
DEFAULT_SEEDS = 3
"""Seeds of the generated tests on the clean server and on ``all``: a seed decides what they send, and one seed
let a false failure through that the next seed showed (a second send to moderation)."""


@dataclass
class RunResult:
    """One pytest run against one server: which tests failed, and for which rules."""

    label: str
    rule: str | None
    """The rule a fault breaks; None for the clean run and the variants."""
    returncode: int | None = None
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    failed: list[dict[str, Any]] = field(default_factory=list)
    """Tests with outcome failed or error: nodeid, outcome, rules, message (first line)."""
    problem: str | None = None
    """Why the run could not be judged (server did not start, timeout, pytest exited without results)."""
    generated: bool = False
    """Whether the generated tests (suites/properties) ran too; for a fault, only when the others missed it."""
    variants: tuple[str, ...] = ()
    """The allowed variants the server ran with (a variant run); every suite must pass on it. ``("clean",)`` for
    an extra seed of the generated tests on the clean server."""
    seed: int | None = None
    """For an extra seed's run: the seed, and only the generated tests (suites/properties) ran."""

    def caught_by(self) -> list[str]:
        """Tests charged with the fault's rule: failed naming it (not errored), or blocked by it in their setup."""
        return [t["nodeid"] for t in self.failed if self.rule in _charged(t)]

    def failures(self) -> list[dict[str, Any]]:
        """The failed, blocked and errored tests, without should-level warnings (which fail no run)."""
        return [t for t in self.failed if not t.get("warning")]

    def warnings(self) -> list[dict[str, Any]]:
        return [t for t in self.failed if t.get("warning")]

    def failed_rules(self) -> list[str]:
        """Every rule this run's failures are charged to (a fault should turn one rule red)."""
        return sorted({r for t in self.failed for r in _charged(t)})

    @property
    def caught(self) -> bool:
        return bool(self.caught_by())


def _charged(t: dict[str, Any]) -> list[str]:
    """The rules a kept failure is charged to (computed from its whole message when it was read)."""
    return list(t["charged"]) if "charged" in t else charged_rules(t)


@dataclass
class SelftestResult:
    faults: list[RunResult]
    clean: RunResult | None
    seconds: float
    variants: list[RunResult] = field(default_factory=list)

    @property
    def false_positives(self) -> list[RunResult]:
        """Variant runs with any failed, blocked or errored test (a should-level warning is none), or that could
        not be judged."""
        return [v for v in self.variants if v.failures() or v.problem is not None or v.returncode not in (0, None)]

    @property
    def caught(self) -> int:
        return sum(1 for r in self.faults if r.caught)

    @property
    def score(self) -> float:
        return self.caught / len(self.faults) if self.faults else 1.0

    @property
    def clean_ok(self) -> bool:
        c = self.clean
        return c is None or (c.problem is None and c.returncode == 0 and not c.failures())

    @property
    def ok(self) -> bool:
        return self.caught == len(self.faults) and self.clean_ok and not self.false_positives


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=int, default=DEFAULT_JOBS, metavar="N",
                        help=f"servers + pytest runs at a time (default {DEFAULT_JOBS})")
    parser.add_argument("--fault", action="append", default=[], metavar="NAME",
                        help="check only this fault (repeatable; default: every fault of "
                             "`qaconform serve --list-faults`); without --variant, no variant runs")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME",
                        help="check only this allowed variant (repeatable; 'all' = every variant that composes, at "
                             "once; default: each variant of `qaconform serve --list-variants`, then all); without "
                             "--fault, no fault runs")
    parser.add_argument("--no-faults", action="store_true", help="run no fault (only the variants and the clean run)")
    parser.add_argument("--no-variants", action="store_true", help="run no variant (only the faults and the clean run)")
    parser.add_argument("--whole-suite", action="store_true",
                        help="run every suite (not only the tests naming the fault's rule) against each fault, so "
                             "that 'rules failed' measures how far one broken rule spreads (slower)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                        help=f"stop one pytest run after this many seconds (default {DEFAULT_TIMEOUT_S:.0f}); "
                             "a run stopped this way does not count as catching its fault")
    parser.add_argument("--no-clean", action="store_true",
                        help="skip the run of every suite against the clean server (useful while adding a fault)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="N",
                        help=f"seed of the generated tests (default {DEFAULT_SEED}, fixed for reproducible runs)")
    parser.add_argument("--seeds", type=int, default=DEFAULT_SEEDS, metavar="N",
                        help=f"run the generated tests with N seeds (--seed, --seed + 1, ...) on the clean server and "
                             f"on 'all' (default {DEFAULT_SEEDS}; the extra seeds run suites/properties only)")
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
    parser.add_argument("--json", metavar="FILE", default=None,
                        help="also write the result (every fault, its rule, the tests that caught it) as JSON here")


def main(args: argparse.Namespace) -> int:
    from qaconform.reference import faults as registry
    from qaconform.reference import variants as allowed

    chosen_faults, chosen_variants = list(dict.fromkeys(args.fault)), list(dict.fromkeys(args.variant))
    names = chosen_faults or ([] if chosen_variants or args.no_faults else list(registry.FAULTS))
    unknown = [n for n in names if n not in registry.FAULTS]
    if unknown:
        print(f"qaconform selftest: unknown fault {unknown[0]!r}; `qaconform serve --list-faults` lists the "
              f"{len(registry.FAULTS)} known faults", file=sys.stderr)
        return exitcodes.USAGE
    variant_runs = chosen_variants or ([] if chosen_faults or args.no_variants else [*allowed.VARIANTS, allowed.ALL])
    try:
        for v in variant_runs:
            allowed.expand([v])
    except allowed.UnknownVariantError as exc:
        print(f"qaconform selftest: {exc}", file=sys.stderr)
        return exitcodes.USAGE
    if args.jobs < 1 or args.timeout <= 0 or args.seeds < 1:
        print("qaconform selftest: --jobs and --seeds must be 1 or more and --timeout positive", file=sys.stderr)
        return exitcodes.USAGE
    unknown_fixtures = [f for f in args.keep_fixture if f not in OPTIONAL_FIXTURES]
    if unknown_fixtures:
        print(f"qaconform selftest: --keep-fixture {unknown_fixtures[0]!r} is not an optional fixture; use one of "
              f"{', '.join(OPTIONAL_FIXTURES)}", file=sys.stderr)
        return exitcodes.USAGE
    problems = check_registry()
    if problems:
        print("qaconform selftest: the fault registry is wrong:\n  " + "\n  ".join(problems), file=sys.stderr)
        return exitcodes.KIT_ERROR
    extra = extra_seed_runs(not args.no_clean, variant_runs, args.seed, args.seeds)
    print(f"self-test: {len(names)} faults, {len(variant_runs)} variant runs"
          f"{' + the clean run' if not args.no_clean else ''}"
          f"{f' + {len(extra)} runs of the generated tests with other seeds' if extra else ''}, {args.jobs} at a time, "
          f"seed {args.seed}", flush=True)
    shape = ProfileShape(args.default_profile, tuple(args.keep_fixture))
    from qaconform.report.progress import Tracker

    with Tracker(len(names) + len(variant_runs) + len(extra) + (0 if args.no_clean else 1), "self-test") as tracker:
        def progress(res: RunResult) -> None:
            tracker.advance(_progress_line(res))

        result = run_selftest(names, jobs=args.jobs, timeout=args.timeout, clean=not args.no_clean, seed=args.seed,
                              always_generated=args.always_generated, progress=progress, shape=shape,
                              variants=variant_runs, whole_suite=args.whole_suite, seeds=args.seeds)
    print(format_table(result))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(as_json(result), indent=1))
    return exitcodes.OK if result.ok else exitcodes.RULE_FAILED


def must_rules() -> frozenset[str]:
    """The ids of spec/rules.yaml's must-rules: each needs a planted fault the suites catch."""
    from qaconform.contract import load_contract

    return frozenset(r.id for r in load_contract().rules.values() if r.level == "must")


def rules_without_fault() -> list[str]:
    """Must-rules no fault of the registry breaks: no self-test can show that their tests can fail."""
    from qaconform.reference import faults as registry

    broken = {f.rule for f in registry.FAULTS.values()}
    return sorted(must_rules() - broken)


def fault_coverage(result: SelftestResult, must: frozenset[str] | None = None) -> tuple[int, int, list[str]]:
    """(must-rules with a caught fault, must-rules, the must-rules without one), over the faults that ran."""
    must = must_rules() if must is None else must
    caught = {r.rule for r in result.faults if r.caught and r.rule in must}
    return len(caught), len(must), sorted(must - caught)


def check_registry() -> list[str]:
    """Every fault names a rule of spec/rules.yaml (a typo would make the fault uncatchable by construction)."""
    from qaconform.contract import load_contract
    from qaconform.reference import faults as registry

    rules = load_contract().rules
    return [f"fault {f.name!r} names rule {f.rule!r}, which is not in spec/rules.yaml"
            for f in registry.FAULTS.values() if f.rule not in rules]


def run_selftest(names: Sequence[str], jobs: int = DEFAULT_JOBS, timeout: float = DEFAULT_TIMEOUT_S,
                 clean: bool = True, seed: int = DEFAULT_SEED, always_generated: bool = False,
                 progress: Callable[[RunResult], None] | None = None,
                 shape: ProfileShape | None = None, variants: Sequence[str] = (),
                 whole_suite: bool = False, seeds: int = 1) -> SelftestResult:
    """Run the clean server over every suite, each named fault over its rule's tests and each variant over every
    suite (``all``, every variant at once, with the generated tests too); ``jobs`` at a time. ``seeds`` > 1: the
    generated tests again with the next seeds on the clean server and on ``all`` (:func:`extra_seed_runs`)."""
    from qaconform.reference import faults as registry

    started = time.monotonic()
    tasks: list[tuple[str, str | None, str | None, int | None]] = ([("clean", None, None, None)] if clean else [])
    tasks += [(n, registry.FAULTS[n].rule, None, None) for n in names]
    tasks += [(f"variant {v}", None, v, None) for v in variants]
    tasks += [(label, None, variant, extra) for label, variant, extra in extra_seed_runs(clean, variants, seed, seeds)]

    def one(task: tuple[str, str | None, str | None, int | None]) -> RunResult:
        label, rule, variant, extra_seed = task
        if extra_seed is not None:
            res = _run_generated(label, variant or "clean", timeout, extra_seed)
        elif variant is not None:
            res = _run_variant(label, variant, timeout, seed)
        else:
            res = _run_one(label, rule, timeout, seed, always_generated, shape or ProfileShape(), whole_suite)
        if progress:
            progress(res)
        return res

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(one, tasks))
    clean_result = results.pop(0) if clean else None
    fault_results = [r for r in results if not r.variants]
    variant_results = [r for r in results if r.variants]
    return SelftestResult(faults=fault_results, clean=clean_result, seconds=time.monotonic() - started,
                          variants=variant_results)


def extra_seed_runs(clean: bool, variants: Sequence[str], seed: int, seeds: int) -> list[tuple[str, str, int]]:
    """(label, "clean" or "all", seed) of the generated tests' runs with the seeds after ``seed``: on the clean
    server when the clean run is on, on ``all`` when it is among the variant runs."""
    from qaconform.reference import variants as allowed

    servers = (["clean"] if clean else []) + ([allowed.ALL] if allowed.ALL in variants else [])
    return [(f"{'clean server' if s == 'clean' else 'variant all'}, seed {seed + i}", s, seed + i)
            for i in range(1, seeds) for s in servers]


def _run_generated(label: str, server: str, timeout: float, seed: int) -> RunResult:
    """The generated tests alone (the other suites send the same whatever the seed) with another seed, against the
    clean server or ``all``; any failure is a false positive."""
    res = RunResult(label=label, rule=None, variants=(server,), seed=seed)
    t0 = time.monotonic()
    _serve_and_test(res, label, None, timeout, seed, generated=True,
                    variants=() if server == "clean" else (server,), only_generated=True)
    res.seconds = time.monotonic() - t0
    return res


def _run_variant(label: str, variant: str, timeout: float, seed: int) -> RunResult:
    """Every suite against a server running ``variant`` (``all``: every variant that composes, generated tests
    included); any failure is a false positive."""
    from qaconform.reference import variants as allowed

    res = RunResult(label=label, rule=None, variants=(variant,))
    t0 = time.monotonic()
    _serve_and_test(res, label, None, timeout, seed, generated=variant == allowed.ALL, variants=(variant,))
    res.seconds = time.monotonic() - t0
    return res


def _run_one(label: str, rule: str | None, timeout: float, seed: int, always_generated: bool = False,
             shape: ProfileShape | None = None, whole_suite: bool = False) -> RunResult:
    """The clean run (``rule`` None): every suite, generated tests included, against a clean server.

    A fault: first the tests naming its rule without the generated ones (a few seconds each); only when those miss
    it and a generated test names the rule, again with the generated tests, against a fresh server (the first run
    consumed the profile's one-shot nodes). ``always_generated``: one run with the generated tests from the start.
    """
    res = RunResult(label=label, rule=rule)
    t0 = time.monotonic()
    both = rule is None or (always_generated and rule in generated_test_rules())
    shape = shape or ProfileShape()
    _serve_and_test(res, label, rule, timeout, seed, generated=both, shape=shape, whole_suite=whole_suite)
    if rule is not None and not res.caught and res.problem is None and rule in generated_test_rules():
        res.failed.clear()
        _serve_and_test(res, label, rule, timeout, seed, generated=True, shape=shape, whole_suite=whole_suite)
    res.seconds = time.monotonic() - t0
    return res


def _serve_and_test(res: RunResult, label: str, rule: str | None, timeout: float, seed: int,
                    generated: bool, shape: ProfileShape | None = None, variants: Sequence[str] = (),
                    whole_suite: bool = False, only_generated: bool = False) -> None:
    from qaconform.reference import ReferenceServer, ReferenceServerError

    res.generated = res.generated or generated
    with tempfile.TemporaryDirectory(prefix="qaconform-selftest-") as tmp:
        try:
            with ReferenceServer(faults=() if rule is None else (label,), variants=variants) as srv:
                profile_path = srv.profile_path
                if shape is not None and shape.default:
                    profile_path = str(Path(tmp) / "default-profile.toml")
                    Path(profile_path).write_text(shape.rewrite(Path(srv.profile_path).read_text()))
                    _keep_record(Path(srv.profile_path), Path(profile_path))
                _pytest(res, profile_path, None if whole_suite else rule, Path(tmp), timeout, seed, generated,
                        only_generated)
        except ReferenceServerError as exc:
            res.problem = f"the reference server did not start: {exc}"


def _keep_record(source: Path, profile: Path) -> None:
    """The server's record of its one-shot fixtures (fresh, or consumed by an "earlier run") beside the rewritten
    profile too: without it a kept favorite's state is unknown, and a fault that removes it would only skip."""
    from qaconform.target.ledger import ledger_path

    if ledger_path(source).exists():
        shutil.copy(ledger_path(source), ledger_path(profile))


def _pytest(res: RunResult, profile_path: str, rule: str | None, tmp: Path, timeout: float, seed: int,
            generated: bool, only_generated: bool = False) -> None:
    results_path = tmp / "results.json"
    base = pytest_command()
    if only_generated:
        base[base.index(str(suites_dir()))] = str(suites_dir() / "properties")
    cmd = [*base, "--target-profile", profile_path,
           "-q", "--qaconform-results", str(results_path), "--seed", str(seed)]
    if rule is not None:
        cmd += ["--rule", rule]
    if not generated:
        cmd += LEAN_OPTIONS
    env = suite_env({k: v for k, v in os.environ.items() if not k.startswith("QACONFORM_")})
    log_path = tmp / "pytest.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=pytest_cwd(), stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
        try:
            res.returncode = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
            res.problem = f"pytest did not finish within {timeout:.0f}s (raise --timeout, or find the hanging test)"
            return
    try:
        payload = json.loads(results_path.read_text())
    except (OSError, ValueError):
        tail = log_path.read_text(errors="replace")[-1500:]
        res.problem = f"pytest exited with code {res.returncode} and wrote no results; its output ends with:\n{tail}"
        return
    for t in payload.get("tests", []):
        res.counts[t["outcome"]] = res.counts.get(t["outcome"], 0) + 1
        if t["outcome"] in (Status.FAILED, Status.WARNING, Status.ERROR, Status.BLOCKED):
            message = (t.get("message") or "").strip()
            res.failed.append({"nodeid": t["nodeid"], "outcome": t["outcome"], "rules": t.get("rules", []),
                               "blocked_by": t.get("blocked_by", []), "warning": bool(t.get("warning")),
                               "charged": charged_rules(t),
                               "message": message.splitlines()[0][:200] if message else ""})
    if rule is not None and not payload.get("tests") and (generated or rule not in generated_test_rules()):
        res.problem = f"no suite test names {rule}: write one (pytest exit code {res.returncode})"
    elif rule is None and res.returncode not in (0, None, 5) and not res.failed:
        tail = log_path.read_text(errors="replace")[-1500:]
        res.problem = f"pytest exited with code {res.returncode}; its output ends with:\n{tail}"


OPTIONAL_FIXTURES = ("member_wiki_node_id", "wiki_node_id", "favorite_node_id", "hidden_space_id",
                     "gdpr_csv_file_id", "issue_tracker")
"""The fixtures a profile may leave out (README: Pointing it at your server)."""


@dataclass(frozen=True)
class ProfileShape:
    """Which profile the suites get: the reference server's full one, or a default one (``--default-profile``)."""

    default: bool = False
    keep: tuple[str, ...] = ()

    def rewrite(self, text: str) -> str:
        """The reference profile's TOML with the optional fixtures (but ``keep``) and the safety consent removed."""
        if not self.default:
            return text
        dropped = tuple(f for f in OPTIONAL_FIXTURES if f not in self.keep)
        out = []
        for line in text.splitlines():
            key = line.split("=", 1)[0].strip()
            if key in dropped or key in ("gdpr_user", "gdpr_user_email"):
                continue
            out.append("destructive = false" if key == "destructive" else line)
        return "\n".join(out) + "\n"


LEAN_OPTIONS = ["--ignore", "suites/properties", "-p", "no:schemathesis", "-p", "no:hypothesispytest",
                "-p", "no:anyio"]
"""Without the generated tests: skip collecting suites/properties and loading schemathesis and hypothesis (about
two thirds of a fault run's start-up time, and their time budget)."""


@functools.cache
def generated_test_rules() -> frozenset[str]:
    """Rule ids written as string literals anywhere in suites/properties (an over-approximation is only slower)."""
    from qaconform.contract import load_contract

    known = set(load_contract().rules)
    found: set[str] = set()
    for path in (suites_dir() / "properties").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known:
                found.add(node.value)
    return frozenset(found)


def _short(nodeid: str) -> str:
    """``suites/scenarios/test_x.py::test_y[p/q]`` -> ``test_x.py::test_y[p/q]``."""
    path, sep, rest = nodeid.partition("::")
    return path.rsplit("/", 1)[-1] + sep + rest


def _progress_line(res: RunResult) -> str:
    if res.variants:
        state = "FALSE POSITIVES" if res.failures() or res.problem or res.returncode not in (0, None) else "green"
        if state == "green" and res.warnings():
            state += f" ({len(res.warnings())} should-level warning(s))"
        return f"{res.label}: {state} ({res.seconds:.0f}s)"
    if res.rule is None:
        state = "green" if res.problem is None and res.returncode == 0 and not res.failures() else "RED"
        return f"clean run: {state} ({res.seconds:.0f}s)"
    return f"{res.label}: {'caught' if res.caught else 'MISSED'} ({res.seconds:.0f}s)"


def _median(values: list[int]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    return (ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2) if n else 0.0


def format_table(result: SelftestResult, must: frozenset[str] | None = None) -> str:
    """Faults (fault, rule, caught/missed, the rules that failed, by which test), variants (green or the false
    positives), and the verdict lines; the mutation score only when the clean run is green."""
    lines = [*_fault_rows(result), *_fault_lines(result, must), *_variant_lines(result), *_clean_lines(result)]
    lines.append(f"self-test {'PASSED' if result.ok else 'FAILED'} in {result.seconds:.0f}s")
    return "\n".join(lines)


def _fault_rows(result: SelftestResult) -> list[str]:
    """The table of faults: fault, rule, caught or MISSED, the rules that failed, and by which test."""
    rows = []
    for r in result.faults:
        by = r.caught_by()
        if by:
            shown = _short(by[0]) + (f" (+{len(by) - 1} more)" if len(by) > 1 else "")
        elif r.problem:
            shown = r.problem.splitlines()[0]
        else:
            shown = "no test naming the rule failed" + (f"; other failures: {_short(r.failed[0]['nodeid'])}"
                                                         if r.failed else "")
        rows.append((r.label, r.rule or "", "caught" if by else "MISSED", ",".join(r.failed_rules()) or "-", shown))
    if not rows:
        return []
    w1 = max([len("fault"), *(len(x[0]) for x in rows)])
    w2 = max([len("rule"), *(len(x[1]) for x in rows)])
    w4 = max([len("rules failed"), *(min(len(x[3]), 60) for x in rows)])
    return [f"{'fault':<{w1}}  {'rule':<{w2}}  {'result':<6}  {'rules failed':<{w4}}  caught by",
            "-" * (w1 + w2 + w4 + 40),
            *(f"{a:<{w1}}  {b:<{w2}}  {c:<6}  {d:<{w4}}  {e}" for a, b, c, d, e in rows),
            ""]


def _fault_lines(result: SelftestResult, must: frozenset[str] | None) -> list[str]:
    """The faults' verdict: caught of total (meaningless when the clean run is red), spread, coverage, survivors."""
    lines: list[str] = []
    total = len(result.faults)
    if total and result.clean is not None and not result.clean_ok:
        lines.append(f"faults: {result.caught}/{total} caught, but the mutation score is meaningless: the clean run "
                     "failed, so a fault may be 'caught' by a test that fails on a conforming server too")
    elif total:
        lines.append(f"faults: caught {result.caught}/{total} ({100 * result.score:.1f}%)")
        lines.append(f"mutation score: {result.caught}/{total} faults caught ({100 * result.score:.1f}%)")
        spread = [len(r.failed_rules()) for r in result.faults if r.caught]
        if spread:
            lines.append(f"failed rules per caught fault: median {_median(spread):g}, max {max(spread)}"
                         + ("" if max(spread) <= 3 else " (a fault should turn at most 3 rules red: sharpen the "
                            "messages of the tests that blame more)"))
        covered, rules, uncovered = fault_coverage(result, must)
        lines.append(f"fault coverage: {covered}/{rules} must-rules with a caught fault")
        if uncovered and len(uncovered) <= 20:
            lines.append("must-rules without a caught fault: " + ", ".join(uncovered))
        elif uncovered:
            lines.append(f"must-rules without a caught fault: {', '.join(uncovered[:20])} and "
                         f"{len(uncovered) - 20} more (a run with --fault checks only the faults named)")
    missed = [r.label for r in result.faults if not r.caught]
    if missed:
        lines.append("survivors: " + ", ".join(missed) + " — add or sharpen a suite test naming the fault's rule")
    return lines


def _variant_lines(result: SelftestResult) -> list[str]:
    """The variants' verdict: how many gave a false positive, and each one's failures."""
    if not result.variants:
        return []
    bad = result.false_positives
    lines = [f"variants: false positives {len(bad)}/{len(result.variants)}"]
    for v in bad:
        lines.append(f"  FALSE POSITIVE on {v.label} ({v.seconds:.0f}s): the suites assert what the description "
                     "does not state")
        if v.problem:
            lines.append("    " + v.problem.replace("\n", "\n    "))
        lines += [f"    {t['outcome']}: {t['nodeid']} [{', '.join(t['rules'])}] {t['message']}"
                  for t in v.failures()[:10]]
        if len(v.failures()) > 10:
            lines.append(f"    ... and {len(v.failures()) - 10} more")
    return lines


def _clean_lines(result: SelftestResult) -> list[str]:
    """The clean run's verdict: skipped, green with its counts, or red with its false positives."""
    c = result.clean
    if c is None:
        return ["clean run: skipped (--no-clean)"]
    if result.clean_ok:
        counts = ", ".join(f"{v} {k}" for k, v in sorted(c.counts.items()))
        return [f"clean run: green ({counts}; {c.seconds:.0f}s)"]
    lines = [f"clean run: RED — false positives against the clean reference server ({c.seconds:.0f}s):"]
    if c.problem:
        lines.append("  " + c.problem.replace("\n", "\n  "))
    lines += [f"  {t['outcome']}: {t['nodeid']} [{', '.join(t['rules'])}] {t['message']}"
              for t in c.failures()[:20]]
    return lines


def as_json(result: SelftestResult) -> dict[str, Any]:
    return {
        "ok": result.ok,
        "score": result.score,
        "caught": result.caught,
        "total": len(result.faults),
        "fault_coverage": dict(zip(("covered", "must_rules"), fault_coverage(result)[:2], strict=True)),
        "seconds": round(result.seconds, 1),
        "clean": asdict(result.clean) if result.clean else None,
        "faults": [{**asdict(r), "caught": r.caught, "caught_by": r.caught_by(), "failed_rules": r.failed_rules()}
                   for r in result.faults],
        "variants": [{**asdict(v), "warnings": len(v.warnings())} for v in result.variants],
        "false_positives": [v.label for v in result.false_positives],
    }
