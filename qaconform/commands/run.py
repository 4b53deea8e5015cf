"""`qaconform run`: one command from a target (or the reference server) to a verdict and a report.

The suites run in a pytest *subprocess* so that a crash, a hang or a heavy import in a suite can never take the
runner down with it: the runner always gets to stop the server, write what it knows and exit with a code CI can
trust. Its own work is small and ordered so that cheap mistakes are reported before anything is sent: options and
the expectations file (exit 2), the profile (exit 2), reachability (exit 3), then the suites, the optional load
run, the server stop, and the reports. Anything unexpected inside the kit is exit 4 with the traceback in
``reports/<run-id>/kit-error.txt``, never a raw traceback on the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import traceback
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from pytest import ExitCode as pytest_exit

from qaconform import exitcodes, kit
from qaconform.commands import run_paths
from qaconform.kit import pytest_command, pytest_cwd
from qaconform.pytest.markers import AREAS
from qaconform.report.options import add_report_options, check_report_options, write_extra_outputs
from qaconform.target.writes import DEFAULT_WRITE_BUDGET, THOROUGH_COST

SMOKE_LOAD = ("--scenario", "mixed", "--duration", "10")
DEFAULT_SUITE_TIMEOUT_S = 3600.0
LOAD_GRACE_S = 240.0
_TAIL_BYTES = 64 * 1024
_READ_TICK_S = 0.5
_STOP_GRACE_S = 15.0
MAX_DEFAULT_JOBS = 6
"""The most workers a run starts unless told (--jobs): a staging server is shared, and past this the workers' start-up
costs more CPU than their waiting saves (bench/bench_run.py, 2 cores, 50 ms a request: 4 workers 29.5 s, 6 workers
25.3 s, 8 workers 26.3 s)."""
ROUND_TRIP_PER_WORKER_S = 0.025
"""One more worker for each this much of round trip to the target (see :func:`default_jobs`)."""
ENV_JOBS = "QACONFORM_JOBS"
"""--jobs from the environment (a CI job's setting), when the option is not given."""
DOCTOR_NAME = "doctor.json"
"""The doctor's findings in the run folder: the suites' pytest process reads them instead of examining again."""
PREFLIGHT_READS = 3
"""Reads of the preflight: enough for one round trip on an open connection."""


def default_jobs(cpus: int, round_trip_s: float | None) -> int:
    """How many workers a run starts when --jobs does not say, from the machine and the target.

    On loopback (the embedded reference server, ``round_trip_s`` None) a request costs CPU, not waiting: one worker
    per core. Across a network the workers mostly wait for answers, and a far target needs more of them to hide its
    round trips: two per core, plus one for every 25 ms of round trip, at most :data:`MAX_DEFAULT_JOBS`. Measured on
    2 cores (bench/bench_run.py, wall time of the whole kit): reference 12.3 s serial, 8.4 s on 2 workers, 9.2 s on
    4; a target 25 ms away 19.4 s on 4 workers, 17.1 s on 5, 17.7 s on 6; 50 ms away 29.5 s on 4, 25.3 s on 6.
    """
    cpus = max(1, cpus)
    if round_trip_s is None:
        return min(cpus, MAX_DEFAULT_JOBS)
    return max(2, min(MAX_DEFAULT_JOBS, 2 * cpus + int(round_trip_s / ROUND_TRIP_PER_WORKER_S)))




def _budget_line(args: argparse.Namespace, profile: Any) -> str:
    """The run's write budget, as the suites will apply it (command line over profile)."""
    from qaconform.target.writes import WriteBudget, parse_budget

    if getattr(args, "thorough", False):
        return f"--thorough: no write budget; {THOROUGH_COST}"
    given = getattr(args, "write_budget", None)
    budget = parse_budget(given, "--write-budget") if given is not None else profile.safety.write_budget_value
    source = "--write-budget" if given is not None else "[safety] write_budget"
    return f"{WriteBudget(budget).describe()} ({source}; --thorough for release QA)"


class UsageProblem(Exception):
    """A bad option or input file: exit 2 with this message, nothing sent."""


class Unreachable(Exception):
    """The target did not answer: exit 3 with this message."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", metavar="P", default=None,
                        help="target profile (TOML); without it the embedded reference server is started on "
                             "127.0.0.1 with a fresh database and stopped at the end")
    parser.add_argument("--spec", metavar="DIR", default=None,
                        help="use this copy of spec/ (rules, schemas, openapi.yaml) instead of the kit's own")
    parser.add_argument("--suites", metavar="DIR", default=None,
                        help="run this copy of suites/ (e.g. your edited one) instead of the kit's own")
    parser.add_argument("--only", nargs="+", metavar="AREA|RULE", default=[],
                        help=f"run only these areas ({' '.join(AREAS)}, auth, conventions) and/or rule ids "
                             "(COMMENT-4, or a prefix such as COMMENT-*)")
    parser.add_argument("--load", metavar="smoke|SCENARIO", default=None,
                        help="after the suites, a load run: 'smoke' (mixed, 10 s) or a scenario of `qaconform load`")
    parser.add_argument("--out", metavar="DIR", default="reports",
                        help="parent folder of the run folder (default reports/; reports/latest links to the newest "
                             "run); an existing run is never overwritten")
    parser.add_argument("--report-dir", metavar="DIR", default=None,
                        help="CI: write this run's files into exactly DIR (new or empty) instead of a new folder "
                             "under --out")
    parser.add_argument("--junitxml", metavar="PATH", default=None,
                        help="CI: also write the JUnit XML report to PATH (replaces only an earlier JUnit file)")
    parser.add_argument("--expect", metavar="FILE", default=None,
                        help="expected failures for this target (TOML or YAML: rule id -> reason + link); they do not "
                             "fail the exit code, and one that passes is reported as unexpectedly passing")
    parser.add_argument("--read-only", action="store_true", help="run only tests that do not write to the target")
    parser.add_argument("--no-cleanup", action="store_true",
                        help="keep what the run created (to debug it); by default it is removed at the end when the "
                             "profile names the site's delete action ([cleanup]); `qaconform cleanup RUN_DIR` later")
    parser.add_argument("--strict", action="store_true",
                        help="a failed should-level rule (no sentence states it; every well-behaved server meets it) "
                             "fails the run too; without it, such failures are reported as warnings")
    parser.add_argument("--dry-run", action="store_true",
                        help="print what would be written (operations and tests that create content) and run only "
                             "the read-only tests")
    parser.add_argument("--write-budget", metavar="N|unlimited", default=None,
                        help="accepted writes the run may make on the target, all workers together (default: the "
                             f"profile's [safety] write_budget, else {DEFAULT_WRITE_BUDGET}; the generated tests "
                             "and the observations have reserved shares); "
                             "a test that meets a spent budget is 'not checked: write budget spent' and its rules are "
                             "named in the summary")
    parser.add_argument("--thorough", action="store_true",
                        help="release QA: no write budget and the generated tests' full example counts; "
                             + THOROUGH_COST)
    parser.add_argument("--max-examples", type=int, metavar="N", default=None,
                        help="generated tests: examples per test (env QACONFORM_MAX_EXAMPLES for the suites)")
    parser.add_argument("--seed", type=int, metavar="N", default=None,
                        help="generated tests: the seed, to reproduce a run (env QACONFORM_SEED for the suites)")
    parser.add_argument("--reference-fault", action="append", default=[], metavar="NAME",
                        help="with no --profile: plant this fault in the reference server (see "
                             "`python -m qaconform.reference --list-faults`); to see what a broken target looks like")
    parser.add_argument("--jobs", "-j", type=int, metavar="N", default=None,
                        help=f"run the suites on N worker processes (env {ENV_JOBS}; default: one per CPU for the "
                             "embedded reference server; for a --profile target two per CPU plus one per 25 ms of "
                             f"round trip, at most {MAX_DEFAULT_JOBS}; 1 when --only names rule ids alone; never more "
                             "than the profile's [safety] max_concurrency and max_rps allow); 1 runs them serially")
    parser.add_argument("--timeout", type=float, metavar="S", default=DEFAULT_SUITE_TIMEOUT_S,
                        help=f"stop the suites after this many seconds (default {DEFAULT_SUITE_TIMEOUT_S:.0f})")
    add_report_options(parser)


# ----------------------------------------------------------------------------------------------------------
# options

@dataclass
class Plan:
    """What ``--only`` turns into: pytest arguments, and the selection the report uses (skipped vs not covered)."""

    pytest_args: list[str] = field(default_factory=list)
    areas: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)


def plan_selection(only: Sequence[str], rules: Sequence[Any]) -> Plan:
    """Areas map to ``-m``, rule ids to ``--rule``. Both at once means their union, so areas become rule ids."""
    by_area: dict[str, list[str]] = {}
    ids = set()
    for r in rules:
        by_area.setdefault(r.area, []).append(r.id)
        ids.add(r.id)
    areas: list[str] = []
    rule_ids: list[str] = []
    for token in dict.fromkeys(t for raw in only for t in raw.replace(",", " ").split()):
        if token in AREAS or token in by_area:
            areas.append(token)
        elif token in ids or (token.endswith("*") and any(i.startswith(token[:-1]) for i in ids)):
            rule_ids.append(token)
        else:
            near = difflib.get_close_matches(token, [*AREAS, *by_area, *ids], n=3)
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise UsageProblem(f"--only {token}: neither an area ({' '.join(sorted({*AREAS, *by_area}))}) "
                               f"nor a rule id of spec/rules.yaml{hint}")
    plan = Plan(areas=areas, rules=rule_ids)
    if not areas and not rule_ids:
        return plan
    if not rule_ids and all(a in AREAS for a in areas):
        plan.pytest_args = ["-m", " or ".join(areas)]
        return plan
    marker_only = [a for a in areas if a not in by_area]
    if marker_only:
        raise UsageProblem(f"--only {' '.join(marker_only)} selects by test marker and cannot be combined with rule "
                           "ids or the areas auth/conventions; run them in two runs")
    expanded = list(dict.fromkeys([*rule_ids, *(i for a in areas for i in by_area[a])]))
    for rid in expanded:
        plan.pytest_args += ["--rule", rid]
    return plan


def load_command(choice: str | None, profile_path: str, out: Path) -> list[str] | None:
    """The `qaconform load` command line for ``--load``, as a subprocess (locust never loads in this process)."""
    if not choice:
        return None
    base = [sys.executable, "-m", "qaconform.commands.cli", "load", "--profile", profile_path, "--out", str(out)]
    if choice == "smoke":
        return [*base, *SMOKE_LOAD]
    if not re.fullmatch(r"[a-z][a-z0-9_-]*", choice):
        raise UsageProblem(f"--load {choice!r}: give 'smoke' or a scenario name of `qaconform load --scenario`")
    return [*base, "--scenario", choice]


def validate_load_choice(choice: str | None) -> None:
    if not choice or choice == "smoke":
        return
    try:
        from qaconform.load.runner import SCENARIOS
    except ImportError:
        return  # the load run will record that the command is unavailable
    if choice not in SCENARIOS:
        near = difflib.get_close_matches(choice, ["smoke", *SCENARIOS], n=1)
        raise UsageProblem(f"--load {choice}: not a load scenario" + (f" (did you mean {near[0]}?)" if near else "")
                           + f"; use smoke or one of {', '.join(SCENARIOS)}")


# ----------------------------------------------------------------------------------------------------------
# subprocesses

@dataclass
class Finished:
    returncode: int
    tail: str
    timed_out: bool = False


def stream(cmd: Sequence[str], *, timeout_s: float, env: dict[str, str] | None = None,
           sink: IO[bytes] | None = None, secrets: Iterable[str] = ()) -> Finished:
    """Run ``cmd``, copying its output to the terminal as it comes (pytest prints dots without newlines, so bytes,
    not lines), keep the tail for diagnosis, and stop it when ``timeout_s`` is over.

    ``secrets`` (the profile's passwords and their Basic forms) never reach the terminal nor the tail: the child
    (pytest and its plugins, Locust) redacts where it can, and this is the last pass over what it printed."""
    from qaconform.report.redact import StreamScrubber

    scrubber = StreamScrubber(secrets)
    out = sink if sink is not None else sys.stdout.buffer
    tail: deque[bytes] = deque()
    size = 0
    proc = subprocess.Popen(list(cmd), cwd=pytest_cwd(), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    deadline = time.monotonic() + timeout_s
    timed_out = False
    try:
        while True:
            if time.monotonic() > deadline:
                timed_out = True
                _stop(proc)
                break
            ready, _, _ = select.select([fd], [], [], _READ_TICK_S)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunk = scrubber.feed(chunk)
            out.write(chunk)
            out.flush()
            tail.append(chunk)
            size += len(chunk)
            while size > _TAIL_BYTES and len(tail) > 1:
                size -= len(tail.popleft())
    except BaseException:
        _stop(proc)
        raise
    finally:
        proc.stdout.close()
        rest = scrubber.flush()
        out.write(rest)
        out.flush()
        tail.append(rest)
    try:
        rc = proc.wait(timeout=_STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        _stop(proc)
        rc = proc.wait(timeout=_STOP_GRACE_S)
    return Finished(rc, b"".join(tail).decode("utf-8", errors="replace"), timed_out)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGINT first (pytest then writes its results), SIGKILL if it does not end; only this child's group."""
    if proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGINT, _STOP_GRACE_S), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _stopped(results_path: Path) -> tuple[str, str] | None:
    """Why the plugin says the run stopped early (its results file's ``stopped``), or None."""
    try:
        data = json.loads(results_path.read_text())
    except (OSError, ValueError):
        return None
    stopped = data.get("stopped") if isinstance(data, dict) else None
    if isinstance(stopped, dict) and isinstance(stopped.get("reason"), str):
        return stopped["reason"], str(stopped.get("message") or "")
    return None


def _exit_line(tail: str) -> str | None:
    """The message of a pytest.exit(...) or a usage error in pytest's output."""
    for pattern in (r"^!+ _pytest\.outcomes\.Exit: (.+?) !+$", r"^!+ (.+?) !+$", r"^ERROR: (.+)$"):
        found = re.findall(pattern, tail, re.MULTILINE)
        if found:
            return str(found[-1]).strip()
    return None


# ----------------------------------------------------------------------------------------------------------
# the run

@dataclass(frozen=True)
class _Checked:
    """The command line, checked: what to run, the expected failures, where the reports go."""

    plan: Plan
    expectations: Mapping[str, Any]
    report_dir: Path | None
    junit_target: Path | None


def _check_reference_faults(args: argparse.Namespace) -> None:
    """--reference-fault: only without --profile, and only faults the registry has (with a did-you-mean)."""
    if args.reference_fault and args.profile:
        raise UsageProblem("--reference-fault applies to the embedded reference server; drop --profile")
    if args.reference_fault:
        from qaconform.reference.faults import FAULTS

        unknown = [f for f in args.reference_fault if f not in FAULTS]
        if unknown:
            near = difflib.get_close_matches(unknown[0], list(FAULTS), n=3)
            raise UsageProblem(f"--reference-fault {unknown[0]}: no such fault"
                               + (f" (did you mean {', '.join(near)}?)" if near else "")
                               + "; `python -m qaconform.reference --list-faults` lists them")


class Runner:
    """One `qaconform run`. Holds what the run learns so that a failure at any step still leaves a useful report."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.stack = contextlib.ExitStack()
        self.run_dir: Path | None = None
        self.meta: dict[str, Any] = {}
        self.kit_errors: list[str] = []
        self._plan: Plan | None = None
        self.junit_target: Path | None = None
        self.round_trip_s: float | None = None
        """The shortest of the preflight's round trips to the target (it sizes the default number of workers)."""
        self.jobs_why = ""
        """Why the run has the workers it has, when --jobs did not say."""
        self.secrets: set[str] = set()
        """The profile's passwords and their Basic forms: kept from the terminal, kit-error.txt and the reports."""
        self.recorder: Any = None
        """The preflight's and the doctor's exchanges (qaconform.target.client.Recorder)."""
        self.doctor_lines: list[str] = []
        """What the doctor found that the user should know (fixtures not in their state, ids discovered ...)."""

    # -- steps ---------------------------------------------------------------------------------------------
    def execute(self) -> int:
        from qaconform.contract import load_contract
        from qaconform.report.expect import ExpectError
        from qaconform.report.redact import secret_variants

        args = self.args
        problem = self._use_given_copies()
        if problem is not None:
            return problem
        contract = load_contract()
        try:
            checked = self._check_arguments(contract)
        except (UsageProblem, ExpectError, run_paths.PathProblem) as exc:
            return self._usage(str(exc))
        self.junit_target = checked.junit_target
        with self.stack:
            try:
                profile_path, profile = self._target()
                asked = self._asked_jobs(profile)  # refused before anything is sent
                self._preflight(profile, reads=1 if asked else PREFLIGHT_READS)
                diagnosis = self._doctor(profile)
                jobs = asked or self._default_jobs(profile)
                run_id, self.run_dir = self._make_run_dir(checked.report_dir)
                (self.run_dir / DOCTOR_NAME).write_text(json.dumps(diagnosis, indent=1), encoding="utf-8")
            except UsageProblem as exc:
                return self._usage(str(exc))
            except Unreachable as exc:
                print(f"qaconform run: {exc}", file=sys.stderr)
                return exitcodes.UNREACHABLE
            secrets = secret_variants(profile.passwords(), [a.username for a in profile.accounts.values()])
            self.secrets = secrets
            self.meta = self._meta(run_id, checked.plan, jobs, profile)
            self._announce(run_id, profile, jobs)
            for line in self.doctor_lines:
                print(line, flush=True)
            if args.dry_run:
                self._print_dry_run(profile_path, checked.plan, contract)
            results_path = self.run_dir / "results.json"
            special = self._run(profile_path, checked.plan, results_path, jobs)
            self._cleanup(profile, results_path, special)
        # the reference server is stopped here (end of the with block), before the reports are written
        return self._finish(results_path, special, checked.expectations, secrets)

    def _use_given_copies(self) -> int | None:
        """--spec / --suites: through the environment, so the pytest process and the report read the same copy;
        the usage exit code when a copy is not there."""
        for flag, name in ((self.args.spec, "spec"), (self.args.suites, "suites")):
            if flag:
                os.environ[kit.ENV[name]] = str(Path(flag).expanduser().resolve())
                try:
                    kit.kit_dir(name)
                except kit.KitNotFound as exc:
                    print(f"qaconform run: --{name} {flag}: {exc}", file=sys.stderr)
                    return exitcodes.USAGE
        return None

    def _check_arguments(self, contract: Any) -> _Checked:
        """Everything about the command line that can be refused before a target is touched."""
        from qaconform.report.expect import load_expectations

        args = self.args
        plan = plan_selection(args.only, list(contract.rules.values()))
        self._plan = plan
        expectations = load_expectations(args.expect) if args.expect else {}
        validate_load_choice(args.load)
        if args.max_examples is not None and args.max_examples <= 0:
            raise UsageProblem("--max-examples must be a positive number")
        if args.write_budget is not None:
            from qaconform.target.writes import parse_budget

            try:
                parse_budget(args.write_budget, "--write-budget")
            except ValueError as exc:
                raise UsageProblem(str(exc)) from None
            if args.thorough:
                raise UsageProblem("--thorough means no write budget: give --write-budget or --thorough, not both")
        if args.timeout <= 0:
            raise UsageProblem("--timeout must be a positive number of seconds")
        problem = check_report_options(args)
        if problem:
            raise UsageProblem(problem)
        if args.jobs is None and os.environ.get(ENV_JOBS, "").strip():
            raw = os.environ[ENV_JOBS].strip()
            if not raw.isdecimal():
                raise UsageProblem(f"{ENV_JOBS}={raw!r} is not a number of workers; unset it or give one like 4")
            args.jobs = int(raw)
        if args.jobs is not None and args.jobs < 1:
            raise UsageProblem("--jobs must be 1 or more worker processes")
        _check_reference_faults(args)
        report_dir = run_paths.check_report_dir(args.report_dir) if args.report_dir else None
        junit_target = run_paths.check_junit_target(args.junitxml) if args.junitxml else None
        return _Checked(plan, expectations, report_dir, junit_target)

    def _make_run_dir(self, report_dir: Path | None) -> tuple[str, Path]:
        """The run's id and folder: exactly --report-dir, or a new folder under --out (and reports/latest)."""
        from qaconform.report.writer import new_run_dir, new_run_id

        args = self.args
        try:
            if report_dir is not None:
                return new_run_id(), run_paths.make_report_dir(report_dir)
            run_dir = new_run_dir(args.out)
            run_paths.point_latest(Path(args.out), run_dir)
            return run_dir.name, run_dir
        except run_paths.PathProblem as exc:
            raise UsageProblem(str(exc)) from None
        except OSError as exc:
            where = f"--report-dir {args.report_dir}" if report_dir is not None else f"--out {args.out}"
            raise UsageProblem(f"{where}: cannot create a run folder there ({exc.strerror or exc}); "
                               "choose a writable folder") from None

    def _meta(self, run_id: str, plan: Plan, jobs: int, profile: Any) -> dict[str, Any]:
        """What the report needs from the runner beyond the results file (see report.model.build_report)."""
        from qaconform.report.reproduce import rerun_context

        args = self.args
        return {"run_id": run_id, "selection": {"areas": plan.areas, "rules": plan.rules},
                "read_only": bool(args.read_only or args.dry_run), "dry_run": bool(args.dry_run),
                "strict": bool(getattr(args, "strict", False)),
                "reference": not args.profile, "reference_faults": list(args.reference_fault),
                "kit_errors": self.kit_errors,
                "rerun": rerun_context(args.profile, args.reference_fault),
                "execution": {"jobs": jobs, **_limits(profile).as_dict(), "round_trip_ms": self._round_trip_ms()}}

    def _round_trip_ms(self) -> float | None:
        return None if self.round_trip_s is None else round(self.round_trip_s * 1000, 1)

    def _announce(self, run_id: str, profile: Any, jobs: int) -> None:
        """The run's first lines: which target, how many workers, which politeness limits."""
        print(f"qaconform run {run_id}: target {profile.base_url}"
              + (" (embedded reference server)" if not self.args.profile else f" (profile {self.args.profile})"),
              flush=True)
        limits = _limits(profile)
        why = f" ({self.jobs_why}; --jobs N to choose)" if self.jobs_why else ""
        print(f"qaconform run: {_plural(jobs, 'worker')}{why}; politeness: " + (
            limits.describe() if limits.limited else "no limits (the profile sets no [safety] max_concurrency "
                                                     "or max_rps)"), flush=True)
        print(f"qaconform run: {_budget_line(self.args, profile)}", flush=True)

    def _run(self, profile_path: str, plan: Plan, results_path: Path, jobs: int) -> int | None:
        """The suites, then the load run if asked and the suites gave a verdict; the special exit code of a run that
        ended early (None: the report decides)."""
        try:
            suites = self._run_suites(profile_path, plan, results_path, jobs)
            special = self._classify_suites(suites, plan, results_path)
            if special is None and self.args.load:
                self._run_load(profile_path)
            return special
        except KeyboardInterrupt:  # pytest got SIGINT too and wrote what finished: report that, then stop
            print("\nqaconform run: interrupted; writing the report of the tests that finished", file=sys.stderr)
            return self._special(exitcodes.INTERRUPTED, "interrupted by the user: the report holds only the tests that "
                                              "finished")

    def _cleanup(self, profile: Any, results_path: Path, special: int | None) -> None:
        """Remove what the run created while the target is still up (qaconform.commands.cleanup)."""
        from qaconform.commands.cleanup import after_run

        assert self.run_dir is not None
        why_not = {exitcodes.INTERRUPTED: "the run was interrupted",
                   exitcodes.UNREACHABLE: "the target did not answer"}.get(special or 0)
        if self.args.read_only or self.args.dry_run:  # a delete is a write too
            why_not = "not tried: a --read-only run sends no writes, deletes included"
        self.meta["cleanup"] = after_run(profile, results_path, self.run_dir,
                                         keep=bool(getattr(self.args, "no_cleanup", False)), why_not=why_not)

    def _usage(self, message: str) -> int:
        print(f"qaconform run: {message}", file=sys.stderr)
        return exitcodes.USAGE

    def _target(self) -> tuple[str, Any]:
        from qaconform.target.profile import ProfileError, load_profile

        path = self.args.profile
        if not path:
            from qaconform.reference import ReferenceServer

            print("qaconform run: starting the embedded reference server (fresh database) on 127.0.0.1 ...",
                  flush=True)
            srv = self.stack.enter_context(ReferenceServer(faults=tuple(self.args.reference_fault)))
            path = str(srv.profile_path)
        try:
            profile = load_profile(path)
        except ProfileError as exc:
            raise UsageProblem(str(exc)) from None
        override = os.environ.get("QACONFORM_BASE_URL", "").strip().rstrip("/")
        if override and override != profile.base_url.rstrip("/"):
            # the suites' plugin applies pytest-base-url's variable too: the target is resolved here, once, so that
            # the preflight and the doctor examine the URL the suites will test (issue 30: two servers in one run)
            from dataclasses import replace

            print(f"qaconform run: QACONFORM_BASE_URL overrides base_url: testing {override}", flush=True)
            profile = replace(profile, base_url=override)
            self.base_url_from = "QACONFORM_BASE_URL"
        return path, profile

    def _preflight(self, profile: Any, reads: int = PREFLIGHT_READS) -> None:
        """Is the target there? Anonymous reads of one question, on one connection: the shortest of their round
        trips (the first also opens the connection) tells how far away the target is."""
        from qaconform.target.client import ApiClient, Recorder, TargetError, TargetUnreachable

        self.recorder = Recorder(secrets=set(profile.passwords()))
        client = ApiClient(profile, "anonymous", None, None, self.recorder)
        trips: list[float] = []
        try:
            for _ in range(reads):
                began = time.monotonic()
                client.get("question.json", params={"pageSize": 1})
                trips.append(time.monotonic() - began)
        except TargetUnreachable as exc:
            raise Unreachable(f"target {profile.base_url} is unreachable ({exc}). Is the server running? Check "
                              f"{getattr(self, 'base_url_from', '') or f'base_url in {profile.path}'}.") from None
        except TargetError:
            pass  # it answered; what it answered is for the suites to judge
        finally:
            client.close()
        self.round_trip_s = min(trips) if trips else None

    def _doctor(self, profile: Any) -> dict[str, Any]:
        """The doctor's examination (reads only), before any folder is made: a profile that cannot be used ends the
        run with every problem in one message (exit 2; 3 when nothing answers); fixtures not in their state are
        said here and skip only their tests. Returns the findings the suites and the report read."""
        from qaconform.target.doctor import Severity, examine

        recorder = self.recorder  # the preflight's: a target that hung on it is not waited for again
        diagnosis = examine(profile, recorder)
        problems = diagnosis.of(Severity.STOP, Severity.UNREACHABLE)
        text = "; ".join(f.message + (f" (fix: {f.fix})" if f.fix else "") for f in problems)
        if diagnosis.exit_code == exitcodes.UNREACHABLE:
            raise Unreachable(recorder.redact(text))
        if problems:
            raise UsageProblem(recorder.redact(f"profile {profile.path}: {text}"))
        self.doctor_lines = [recorder.redact(f"qaconform run: doctor: {f.message}" + (f" ({f.fix})" if f.fix else ""))
                             for f in diagnosis.of(Severity.FIXTURE, Severity.NOTE)]
        return diagnosis.as_dict()

    def _print_dry_run(self, profile_path: str, plan: Plan, contract: Any) -> None:
        writes = [op for op in contract.operations.values() if op.method.upper() in ("POST", "PUT", "DELETE", "PATCH")]
        print("--dry-run: these operations create or change content on the target; tests that call them are "
              "skipped in this run:")
        for op in sorted(writes, key=lambda o: o.operation_id):
            print(f"  {op.operation_id:<18} {op.method.upper():<4} {op.path}")
        cmd = [*pytest_command(), "--collect-only", "-q",
               "--target-profile", profile_path, *_combine_marker(plan.pytest_args, "writes or destructive")]
        proc = subprocess.run(cmd, cwd=pytest_cwd(), capture_output=True, text=True, timeout=300, check=False,
                              stdin=subprocess.DEVNULL)
        tests = [line for line in proc.stdout.splitlines() if "::" in line]
        if proc.returncode not in (0, 5):
            print(f"  (could not list the writing tests: pytest --collect-only exited {proc.returncode})")
            return
        print(f"--dry-run: {len(tests)} test(s) would write (marked writes or destructive):")
        for t in tests[:40]:
            print(f"  {t}")
        if len(tests) > 40:
            print(f"  ... and {len(tests) - 40} more")
        self.meta["dry_run_writes"] = tests

    def _asked_jobs(self, profile: Any) -> int | None:
        """--jobs (or QACONFORM_JOBS) when given, refused when the profile's politeness limits cannot share it."""
        if self.args.jobs is None:
            return None
        limits = _limits(profile)
        cap = limits.max_jobs()
        if cap is not None and self.args.jobs > cap:
            raise UsageProblem(f"--jobs {self.args.jobs}: the profile allows {limits.describe()} ([safety] "
                               f"max_concurrency / max_rps), which {self.args.jobs} workers cannot share; use "
                               f"--jobs {cap} or fewer")
        return int(self.args.jobs)

    def _default_jobs(self, profile: Any) -> int:
        """The workers for this machine and target (:func:`default_jobs`), within the profile's politeness limits;
        ``jobs_why`` says how they were chosen."""
        cpus = os.cpu_count() or 1
        trip = self.round_trip_s if self.args.profile else None
        default = default_jobs(cpus, trip)
        self.jobs_why = _plural(cpus, "CPU") + (f", {trip * 1000:.0f} ms a round trip" if trip is not None else "")
        if self._plan is not None and self._plan.rules and not self._plan.areas:
            default = 1  # a few rules: starting workers (each collects the suites) costs more than it saves
            self.jobs_why = "--only names rules alone"
        cap = _limits(profile).max_jobs()
        if cap is not None and default > cap:
            self.jobs_why += f", at most {cap} by the profile's limits"
            return cap
        return default

    def _run_suites(self, profile_path: str, plan: Plan, results_path: Path, jobs: int = 1) -> Finished:
        args = self.args
        cmd = [*pytest_command(), "--target-profile", profile_path,
               "--qaconform-results", str(results_path), "--continue-on-collection-errors",
               "--qaconform-doctor", str(results_path.parent / DOCTOR_NAME),
               "-p", "qaconform.report.coverage_plugin",
               "--qaconform-coverage", str(results_path.parent / "coverage.json"),
               *plan.pytest_args]
        if jobs > 1:  # xdist's load mode with qaconform's scheduler (qaconform/pytest/parallel.py)
            cmd += ["-n", str(jobs), "--dist", "load"]
        if args.read_only or args.dry_run:
            cmd.append("--read-only")
        if getattr(args, "strict", False):
            cmd.append("--strict-should")
        if getattr(args, "write_budget", None) is not None:
            cmd += ["--write-budget", str(args.write_budget)]
        if getattr(args, "thorough", False):
            cmd.append("--thorough")
        if sys.stdout.isatty():
            cmd.append("--color=yes")
        cmd += getattr(args, "pytest_args", None) or []  # after `--` on the command line: the user's, verbatim
        env = kit.suite_env(os.environ)
        if args.max_examples is not None:
            env["QACONFORM_MAX_EXAMPLES"] = str(args.max_examples)
        if args.seed is not None:
            env["QACONFORM_SEED"] = str(args.seed)
        self.meta["pytest_command"] = " ".join(cmd)
        print(f"$ python {' '.join(cmd[1:])}", flush=True)
        done = stream(cmd, timeout_s=args.timeout, env=env, secrets=self.secrets)
        self.meta["pytest_exit"] = done.returncode
        return done

    def _classify_suites(self, done: Finished, plan: Plan, results_path: Path) -> int | None:
        """None when the suites ran to a verdict; otherwise the exit code the run must end with."""
        line = _exit_line(done.tail)
        if done.timed_out:
            self.kit_errors.append(f"the suites did not finish within --timeout {self.args.timeout:.0f} s and were "
                                   "stopped; results are partial")
            return exitcodes.KIT_ERROR
        rc = done.returncode
        for path, why in re.findall(r"^ERROR (\S+) - (.+)$", done.tail, re.MULTILINE):
            if "::" not in path:  # a suite module that cannot be imported: the kit is broken, the rest still ran
                self.kit_errors.append(f"{path} could not be collected: {why.strip()}")
        stopped = _stopped(results_path)
        if stopped is None and rc in (0, 1):
            if not results_path.is_file():
                self.kit_errors.append(f"pytest ended with {rc} but wrote no results file {results_path}")
                return exitcodes.KIT_ERROR
            return None
        if rc == pytest_exit.NO_TESTS_COLLECTED:
            if plan.areas or plan.rules:
                why = f"no test matched --only {' '.join([*plan.areas, *plan.rules])}"
                print(f"qaconform run: {why}", file=sys.stderr)
                return self._special(exitcodes.USAGE, why)
            self.kit_errors.append("pytest collected no test under suites/")
            return exitcodes.KIT_ERROR
        passed_through = getattr(self.args, "pytest_args", None)
        if rc == pytest_exit.USAGE_ERROR and passed_through and stopped is None:
            why = (f"pytest refused the arguments after --: {line or ' '.join(passed_through)} "
                   "(see `python -m pytest --help`)")
            print(f"qaconform run: {why}", file=sys.stderr)
            return self._special(exitcodes.USAGE, why)
        reason, why = stopped if stopped else ("", "")
        if reason in ("profile", "unreachable"):  # the plugin stopped the run: a profile, credential or target problem
            print(f"qaconform run: {why}", file=sys.stderr)
            return self._special(exitcodes.USAGE if reason == "profile" else exitcodes.UNREACHABLE, why)
        if reason == "interrupted" and "KeyboardInterrupt" in done.tail:
            raise KeyboardInterrupt
        what = why or f"pytest ended with code {rc}"
        self.kit_errors.append(f"{what}: {line or 'see the output above'}\n\n--- last output ---\n{done.tail[-6000:]}")
        return exitcodes.KIT_ERROR

    def _special(self, code: int, reason: str) -> int:
        """Record that the run ends with ``code`` whatever the rules say (the report shows the same verdict)."""
        self.meta["exit_override"] = {"code": code, "reason": reason}
        return code

    def _run_load(self, profile_path: str) -> None:
        assert self.run_dir is not None
        load_dir = self.run_dir / "load"
        cmd = load_command(self.args.load, profile_path, load_dir)
        assert cmd is not None
        duration = 10.0 if self.args.load == "smoke" else 20.0
        print(f"$ qaconform {' '.join(cmd[3:])}", flush=True)
        done = stream(cmd, timeout_s=duration + LOAD_GRACE_S, secrets=self.secrets)
        status = {0: "passed", 1: "breached", 2: "usage error", 3: "unreachable"}.get(done.returncode, "error")
        message = _exit_line(done.tail) or (done.tail.strip().splitlines() or [""])[-1][:300]
        if "not available in this installation" in done.tail:
            status = "unavailable"
        if done.timed_out:
            status, message = "error", f"the load run did not end within {duration + LOAD_GRACE_S:.0f} s"
        self.meta["load"] = {"status": status, "exit_code": done.returncode,
                             "command": "qaconform " + " ".join(cmd[3:]),
                             "message": message if status != "passed" else None}

    def _finish(self, results_path: Path, special: int | None, expectations: Any, secrets: set[str]) -> int:
        from qaconform.report.terminal import format_summary
        from qaconform.report.writer import RUN_META_NAME, build_and_write, read_coverage

        assert self.run_dir is not None
        (self.run_dir / RUN_META_NAME).write_text(json.dumps(self.meta, indent=1, default=str), encoding="utf-8")
        coverage = read_coverage(self.run_dir)
        if coverage is not None:
            self.meta["coverage"] = coverage  # not in run.json: `qaconform report` reads coverage.json itself
        if self.kit_errors:
            (self.run_dir / "kit-error.txt").write_text(self._scrubbed("\n\n".join(self.kit_errors)),
                                                        encoding="utf-8")
        if not results_path.is_file():
            print(f"qaconform run: no results were written; see {self.run_dir}", file=sys.stderr)
            return special if special is not None else exitcodes.KIT_ERROR
        results = json.loads(results_path.read_text(encoding="utf-8"))
        load = self.meta.get("load")
        if load and load.get("status") == "unavailable":
            load["message"] = "qaconform load is not available in this installation; no load figures"
        report, paths = build_and_write(results, self.run_dir, expectations=expectations, meta=self.meta,
                                        secrets=secrets, baseline=getattr(self.args, "baseline", None),
                                        keep_all=bool(getattr(self.args, "keep_all", False)))
        for line in write_extra_outputs(report, self.args):
            print(line)
        copied = False
        if self.junit_target is not None:
            try:
                run_paths.copy_junit(paths["junit"], self.junit_target)
                copied = True
            except OSError as exc:  # the verdict stands; say where the file is instead
                print(f"qaconform run: could not write --junitxml {self.junit_target} ({exc.strerror or exc}); the "
                      f"JUnit report is {paths['junit']}", file=sys.stderr)
        print(format_summary(report, paths["html"]))
        if copied:
            print(f"JUnit XML: {self.junit_target}")
        return int(report["exit_code"])  # the report's verdict already holds the override and the kit errors

    def record_crash(self) -> Path:
        """Write the traceback of an unexpected exception where the user is told to look."""
        folder = self.run_dir
        if folder is None:
            from qaconform.report.writer import new_run_dir

            folder = new_run_dir(self.args.out)
        path = folder / "kit-error.txt"
        path.write_text(self._scrubbed("".join(traceback.format_exc()) + (
            "\n\n" + "\n\n".join(self.kit_errors) if self.kit_errors else "")), encoding="utf-8")
        return path

    def _scrubbed(self, text: str) -> str:
        """``text`` without the profile's secrets (an exception's message may quote what the target echoed)."""
        from qaconform.report.redact import redact_text

        return redact_text(text, self.secrets)


def _limits(profile: Any) -> Any:
    from qaconform.target.politeness import Limits

    return Limits(profile.safety.max_concurrency, profile.safety.max_rps)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _combine_marker(pytest_args: list[str], expr: str) -> list[str]:
    """Add a marker expression to a selection that may already hold ``-m``."""
    if "-m" in pytest_args:
        i = pytest_args.index("-m")
        return [*pytest_args[:i], "-m", f"({pytest_args[i + 1]}) and ({expr})", *pytest_args[i + 2:]]
    return [*pytest_args, "-m", expr]


def main(args: argparse.Namespace) -> int:
    runner = Runner(args)
    try:
        return runner.execute()
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # the kit broke: one line on the terminal, the traceback in a file
        try:
            where = f"the traceback is in {runner.record_crash()}"
        except Exception:  # noqa: BLE001 - the report folder itself may be the problem
            where = "the traceback could not be saved either"
        print(f"qaconform run: the kit itself broke ({type(exc).__name__}: {exc}); {where}. Please report it.",
              file=sys.stderr)
        return exitcodes.KIT_ERROR
