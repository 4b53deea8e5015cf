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
import shlex
import subprocess
import sys
import time
import traceback
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qaconform import exitcodes, kit
from qaconform.commands import run_coverage, run_credentials, run_draws, run_paths, run_warm_up
from qaconform.commands.run_load import run_load
from qaconform.commands.run_options import (  # noqa: F401 - the command's names, as before the split
    DEFAULT_SUITE_TIMEOUT_S,
    ENV_JOBS,
    LOAD_GRACE_S,
    MAX_DEFAULT_JOBS,
    PREFLIGHT_READS,
    ROUND_TRIP_PER_WORKER_S,
    SMOKE_LOAD,
    SUITE_KILL_GRACE_S,
    THOROUGH_COST,
    Plan,
    _budget_line,
    _combine_marker,
    add_arguments,
    cost_lines,
    default_jobs,
    load_command,
    plan_selection,
    validate_load_choice,
)
from qaconform.commands.run_stream import Finished, stream  # noqa: F401
from qaconform.errors import KitError, Unreachable, UsageError
from qaconform.kit import pytest_command, pytest_cwd
from qaconform.report.options import check_report_options, write_extra_outputs
from qaconform.target.resolved import TARGET_NAME
from qaconform.vocabulary import StopReason

DRY_RUN_TESTS = "dry-run-tests.json"
"""The run folder's file where ``--dry-run``'s collection writes the tests that would write (node id -> rule ids)."""

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
        raise UsageError("--reference-fault applies to the embedded reference server; drop --profile")
    if args.reference_fault:
        from qaconform.reference.faults import FAULTS

        unknown = [f for f in args.reference_fault if f not in FAULTS]
        if unknown:
            near = difflib.get_close_matches(unknown[0], list(FAULTS), n=3)
            raise UsageError(f"--reference-fault {unknown[0]}: no such fault"
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
        self.fail_under: tuple[float | None, str] = (None, "--fail-under")
        """The share of must-rules the run must check, and where it was given (--fail-under, QACONFORM_FAIL_UNDER,
        the profile's fail_under)."""
        self.doctor_lines: list[str] = []
        """What the doctor found that the user should know (fixtures not in their state, ids discovered ...)."""
        self._asked: int | None = None
        """--jobs (or QACONFORM_JOBS), checked against the profile's limits before anything is sent."""

    # -- steps ---------------------------------------------------------------------------------------------
    def execute(self) -> int:
        from qaconform.contract import load_contract
        from qaconform.report.redact import secret_variants

        args = self.args
        self._use_given_copies()
        contract = load_contract()
        checked = self._check_arguments(contract)  # UsageError (exit 2) for anything refused before a target
        self.junit_target = checked.junit_target
        with self.stack:  # a UsageError (exit 2) or Unreachable (exit 3) below stops the reference server too
            self._start_fork_server(checked.plan)
            profile_path, resolved = self._target()
            profile = resolved.loaded  # the file as given (its base URL the resolved one), before the findings
            jobs = self._asked or self._default_jobs(profile)
            run_id, self.run_dir = self._make_run_dir(checked.report_dir)
            resolved.write(self.run_dir)  # what the suites' pytest and each of its workers test
            if self.fail_under[0] is None:  # neither --fail-under nor its variable: the profile's, if any
                self.fail_under = (profile.fail_under, run_coverage.PROFILE_FAIL_UNDER)
            secrets = secret_variants(profile.passwords(), [a.username for a in profile.accounts.values()])
            self.secrets = secrets
            self.meta = self._meta(run_id, checked.plan, jobs, profile)
            self._announce(run_id, profile, jobs)
            for line in run_draws.settle(args, self.meta, os.environ):  # seeds23: the seed draws' rotation
                print(f"qaconform run: {line}", flush=True)
            for line in self.doctor_lines:
                print(line, flush=True)
            if args.dry_run:
                self._print_dry_run(profile_path, checked.plan, contract, self.run_dir)
            results_path = self.run_dir / "results.json"
            stop = self._run(profile_path, checked.plan, results_path, jobs)
            if stop is None and args.profile:  # a password changed mid-run fails no rule of the target (qa20)
                stop = run_credentials.check(profile, self._stopped)
            read = run_coverage.read_in_background(self.run_dir, results_path, self.meta, self.args,
                                                   self.fail_under, secrets)  # while the cleanup's deletes wait
            self._cleanup(profile, results_path, stop, frozenset(checked.expectations))
        # the reference server is stopped here (end of the with block), before the reports are written
        return self._finish(results_path, checked.expectations, secrets, read)

    def _start_fork_server(self, plan: Plan) -> None:
        """The server the suites' workers are forked from (qaconform/pytest/forked_workers.py): the one the command
        line started first of all (``forked_workers.start_early``), else one started here, before the target is
        checked, so that its imports overlap the reference server's start and the doctor's reads; its socket reaches
        the suites' pytest through the environment. Not for a run that will have one worker (an early one is
        stopped)."""
        from qaconform.pytest import forked_workers, worker_shim

        early = forked_workers.take_early()  # started by the command line before this module was imported
        one = self.args.jobs == 1 or os.environ.get(ENV_JOBS, "").strip() == "1" or (plan.rules and not plan.areas)
        if one or not forked_workers.enabled():
            if early is not None:
                early.stop()
            return
        server = early
        if server is None:
            try:
                server = forked_workers.ForkServer(kit.suite_env(os.environ))
            except OSError:
                return  # the workers start as their own interpreters
        self.stack.callback(server.stop)
        os.environ[worker_shim.ENV] = server.path
        self.stack.callback(os.environ.pop, worker_shim.ENV, None)

    def _use_given_copies(self) -> None:
        """--spec / --suites: through the environment, so the pytest process and the report read the same copy;
        UsageError when a copy is not there."""
        for flag, name in ((self.args.spec, "spec"), (self.args.suites, "suites")):
            if flag:
                os.environ[kit.ENV[name]] = str(Path(flag).expanduser().resolve())
                try:
                    kit.kit_dir(name)
                except kit.KitNotFound as exc:
                    raise UsageError(f"--{name} {flag}: {exc}") from None

    def _check_arguments(self, contract: Any) -> _Checked:
        """Everything about the command line that can be refused before a target is touched."""
        from qaconform.report.expect import load_expectations

        args = self.args
        plan = plan_selection(args.only, list(contract.rules.values()))
        self._plan = plan
        expectations = load_expectations(args.expect) if args.expect else {}
        validate_load_choice(args.load)
        if args.max_examples is not None and args.max_examples <= 0:
            raise UsageError("--max-examples must be a positive number")
        if args.write_budget is not None:
            from qaconform.target.writes import parse_budget

            try:
                parse_budget(args.write_budget, "--write-budget")
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            if args.thorough:
                raise UsageError("--thorough means no write budget: give --write-budget or --thorough, not both")
        if args.timeout <= 0:
            raise UsageError("--timeout must be a positive number of seconds")
        check_report_options(args)
        self.fail_under = run_coverage.fail_under_of(args)
        if args.jobs is None and os.environ.get(ENV_JOBS, "").strip():
            raw = os.environ[ENV_JOBS].strip()
            if not raw.isdecimal():
                raise UsageError(f"{ENV_JOBS}={raw!r} is not a number of workers; unset it or give one like 4")
            args.jobs = int(raw)
        if args.jobs is not None and args.jobs < 1:
            raise UsageError("--jobs must be 1 or more worker processes")
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
        except OSError as exc:
            where = f"--report-dir {args.report_dir}" if report_dir is not None else f"--out {args.out}"
            raise UsageError(f"{where}: cannot create a run folder there ({exc.strerror or exc}); "
                             "choose a writable folder") from None

    def _meta(self, run_id: str, plan: Plan, jobs: int, profile: Any) -> dict[str, Any]:
        """What the report needs from the runner beyond the results file (see report.model.build_report)."""
        from qaconform.report.reproduce import password_envs, rerun_context

        args = self.args
        rerun = rerun_context(args.profile, args.reference_fault)
        if not args.profile and getattr(profile, "path", None):
            # the embedded server's profile names its passwords' variables (qa16), those `qaconform serve
            # --print-env` sets: the report's curls name them, read while its private folder is still there
            rerun["password_env"] = password_envs(str(profile.path))
        return {"run_id": run_id, "selection": {"areas": plan.areas, "rules": plan.rules},
                "read_only": bool(args.read_only or args.dry_run), "dry_run": bool(args.dry_run),
                "strict": bool(getattr(args, "strict", False)),
                "reference": not args.profile, "reference_faults": list(args.reference_fault),
                "kit_errors": self.kit_errors,
                "rerun": rerun,
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
        for line in cost_lines(self.args, profile, self.round_trip_s, jobs):
            print(f"qaconform run: {line}", flush=True)

    def _run(self, profile_path: str, plan: Plan, results_path: Path, jobs: int) -> str | None:
        """The suites, then the load run if asked and the suites ran to their end; why the run stopped early (a
        reason of qaconform.report.verdict, the runner's or the plugin's), None when it did not."""
        try:
            suites = self._run_suites(profile_path, plan, results_path, jobs)
            self._record_suites(suites, results_path)
            stop = self._stop_reason(results_path)
            if stop is None and self.args.load:
                self._run_load(profile_path)
            return stop
        except KeyboardInterrupt:  # pytest got SIGINT too and wrote what finished: report that, then stop
            print("\nqaconform run: interrupted; writing the report of the tests that finished", file=sys.stderr)
            self._stopped(StopReason.INTERRUPTED,
                          "interrupted by the user: the report holds only the tests that finished")
            return "interrupted"

    def _stop_reason(self, results_path: Path) -> str | None:
        """Why the suites stopped early, from the fields the runner and the plugin recorded (never their output)."""
        from qaconform.report.verdict import stopped_of

        try:
            results = json.loads(results_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            results = {}
        stopped = stopped_of(results if isinstance(results, dict) else {}, self.meta)
        return stopped["reason"] if stopped else None

    def _cleanup(self, profile: Any, results_path: Path, stop: str | None,
                 expected: frozenset[str] = frozenset()) -> None:
        """Remove what the run created while the target is still up (qaconform.commands.cleanup)."""
        from qaconform.commands.cleanup import after_run, changed_in, unfinished_created

        assert self.run_dir is not None
        self.meta["created_unfinished"] = unfinished_created(results_path)  # tests a Ctrl-C stopped: in report.json
        self.meta["changed"] = changed_in(results_path)  # clean26: state changes of nodes it did not create
        why_not = {"interrupted": "the run was interrupted",
                   "unreachable": "the target did not answer"}.get(stop or "")
        if self.args.read_only or self.args.dry_run:  # a delete is a write too
            why_not = "not tried: a --read-only run sends no writes, deletes included"
        self.meta["cleanup"] = after_run(profile, results_path, self.run_dir,
                                         keep=bool(getattr(self.args, "no_cleanup", False)), why_not=why_not,
                                         expected=expected)

    def _target(self) -> tuple[str, Any]:
        """The run's one resolved target (qaconform.target.resolved): the profile (or the embedded server's), the
        environment's override, and the doctor's findings for the URL the suites will test (they read it from
        target.json; issue 30: two servers in one run). ProfileError, Unreachable: exit 2, 3."""
        from qaconform.target.resolved import env_override, resolve_target

        path = self.args.profile
        if not path:
            from qaconform.reference import ReferenceServer

            print("qaconform run: starting the embedded reference server (fresh database) on 127.0.0.1 ...",
                  flush=True)
            srv = self.stack.enter_context(ReferenceServer(faults=tuple(self.args.reference_fault), throwaway=True))
            path = str(srv.profile_path)
        resolved = resolve_target(profile=path, override=env_override(), doctor=self._examine,
                                  say=lambda line: print(f"qaconform run: {line}", flush=True))
        return path, resolved

    def _examine(self, profile: Any, base_url_from: str) -> Any:
        """The run's doctor: --jobs checked against the profile's limits (before anything is sent), the preflight,
        then the doctor's examination (reads only), before any folder is made. Fixtures not in their state are said
        here and skip only their tests; a profile that cannot be used is refused by the resolver."""
        from qaconform.target.doctor import Severity, examine

        self._asked = self._asked_jobs(profile)
        self._preflight(profile, base_url_from, reads=1 if self._asked else PREFLIGHT_READS)
        recorder = self.recorder  # the preflight's: a target that hung on it is not waited for again
        diagnosis = examine(profile, recorder)
        self.doctor_lines = [recorder.redact(f"qaconform run: doctor: {f.message}" + (f" ({f.fix})" if f.fix else ""))
                             for f in diagnosis.of(Severity.FIXTURE, Severity.NOTE)]
        return diagnosis

    def _preflight(self, profile: Any, base_url_from: str, reads: int = PREFLIGHT_READS) -> None:
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
            where = base_url_from if base_url_from != "profile" else f"base_url in {profile.path}"
            raise Unreachable(f"target {profile.base_url} is unreachable ({exc}). Is the server running? Check "
                              f"{where}.") from None
        except TargetError:
            pass  # it answered; what it answered is for the suites to judge
        finally:
            client.close()
        self.round_trip_s = min(trips) if trips else None

    def _print_dry_run(self, profile_path: str, plan: Plan, contract: Any, run_dir: Path) -> None:
        writes = [op for op in contract.operations.values() if op.method.upper() in ("POST", "PUT", "DELETE", "PATCH")]
        print("--dry-run: these operations create or change content on the target; tests that call them are "
              "skipped in this run:")
        for op in sorted(writes, key=lambda o: o.operation_id):
            print(f"  {op.operation_id:<18} {op.method.upper():<4} {op.path}")
        from qaconform.pytest.rule_map import read_rule_map

        # the collected tests as data (qaconform.pytest.rule_map writes their node ids), never pytest's terminal text
        listed = run_dir / DRY_RUN_TESTS
        # the listing and the run collect the same seeded matrices (their test ids): run_draws.settle set the seed
        env = kit.suite_env(os.environ)
        env["QACONFORM_SEED"] = str(self.args.seed)
        cmd = [*pytest_command(), "--collect-only", "-q", "-p", "qaconform.pytest.rule_map",
               "--qaconform-rule-map", str(listed), "--target-profile", profile_path,
               *_combine_marker(plan.pytest_args, "writes or destructive")]
        proc = subprocess.run(cmd, cwd=pytest_cwd(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=300, check=False, stdin=subprocess.DEVNULL, env=env)
        try:
            tests = list(read_rule_map(listed)) if proc.returncode in (0, 5) else None
        except (OSError, ValueError):
            tests = None
        if tests is None:
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
            raise UsageError(f"--jobs {self.args.jobs}: the profile allows {limits.describe()} ([safety] "
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
               "--qaconform-timeout", str(args.timeout),
               "--qaconform-target", str(results_path.parent / TARGET_NAME),
               "-p", "qaconform.report.coverage_plugin",
               "--qaconform-coverage", str(results_path.parent / "coverage.json"),
               *run_coverage.pytest_args(results_path.parent),
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
        self.meta["pytest_command"] = shlex.join(cmd)  # quoted: a path holding a space pastes whole (qa20)
        print(f"$ python {shlex.join(cmd[1:])}", flush=True)
        from qaconform.pytest import forked_workers, worker_shim

        server = env.get(worker_shim.ENV)  # the fork server this run started: pytest itself is forked from it too
        launch = forked_workers.through(cmd, server) if server else cmd
        run_warm_up.start(run_warm_up.AFTER_SUITES)
        done = stream(launch, timeout_s=args.timeout + SUITE_KILL_GRACE_S, env=env, secrets=self.secrets)
        if not results_path.is_file():  # its last output, kept in kit-error.txt for the kit's maintainers
            self.kit_errors.append(f"pytest ended with code {done.returncode} and wrote no results file\n\n"
                                   f"--- last output ---\n{done.tail[-6000:]}")
        return done

    def _record_suites(self, done: Finished, results_path: Path) -> None:
        """What the runner alone knows of how the suites ended, as fields of run.json (``stopped``); the plugin
        records the rest (its stop reason, collection errors, every test) in the results file, and
        :func:`qaconform.report.verdict.verdict` decides the exit code from both."""
        self.meta["pytest_exit"] = done.returncode
        if done.timed_out:
            self._stopped(StopReason.TIME_BUDGET,
                          f"the suites did not finish within --timeout {self.args.timeout:.0f} s "
                          f"(and {SUITE_KILL_GRACE_S:.0f} s of grace) and were stopped; results are partial")
        elif not results_path.is_file():
            from pytest import ExitCode as pytest_exit  # here only: the runner never imports pytest otherwise

            passed_through = getattr(self.args, "pytest_args", None)
            if done.returncode == pytest_exit.USAGE_ERROR and passed_through:
                self._stopped(StopReason.USAGE,
                              f"pytest refused the arguments after --: {' '.join(passed_through)} (its "
                              "message is above; see `python -m pytest --help`)")
            else:
                self._stopped(StopReason.NO_RESULTS,
                              f"pytest ended with code {done.returncode} and wrote no results file "
                              f"{results_path}; see its output above")

    def _stopped(self, reason: StopReason, message: str) -> None:
        """Record why the runner itself ended the suites early (its exit code: ``StopReason.exit_code``)."""
        self.meta["stopped"] = {"reason": reason, "message": message}

    def _run_load(self, profile_path: str) -> None:
        assert self.run_dir is not None
        self.meta["load"] = run_load(self.args.load, profile_path, self.run_dir / "load", self.secrets,
                                     self.run_dir / TARGET_NAME)  # the target this run resolved, not again

    def _finish(self, results_path: Path, expectations: Any, secrets: set[str],
                read: Future[dict[str, Any] | None]) -> int:
        from qaconform.report.terminal import format_summary
        from qaconform.report.verdict import stop_verdict, verdict
        from qaconform.report.writer import RUN_META_NAME, build_and_write

        assert self.run_dir is not None
        collected = read.result()  # raises here what it raised there
        (self.run_dir / RUN_META_NAME).write_text(
            json.dumps({k: v for k, v in self.meta.items() if k != "coverage"}, indent=1, default=str),
            encoding="utf-8")
        if self.kit_errors:
            (self.run_dir / "kit-error.txt").write_text(self._scrubbed("\n\n".join(self.kit_errors)),
                                                        encoding="utf-8")
        if not results_path.is_file():
            code, why = stop_verdict(self.meta.get("stopped")) or (exitcodes.KIT_ERROR, "no results were written")
            print(f"qaconform run: {why}; no report (no results were written), see {self.run_dir}", file=sys.stderr)
            return code
        results = json.loads(results_path.read_text(encoding="utf-8"))
        report, paths = build_and_write(results, self.run_dir, expectations=expectations, meta=self.meta,
                                        secrets=secrets, baseline=getattr(self.args, "baseline", None),
                                        keep_all=bool(getattr(self.args, "keep_all", False)))
        run_coverage.after_report(self.run_dir, report, collected)
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
        code, why = verdict(report)  # the one decision (report.json holds the same: it is built by this function)
        if report.get("stopped"):
            print(f"qaconform run: {why}", file=sys.stderr)
        return code

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


def main(args: argparse.Namespace) -> int:
    runner = Runner(args)
    try:
        return runner.execute()
    except (KeyboardInterrupt, KitError):  # Ctrl-C, and the errors the command stops with: `qaconform` says them
        raise
    except Exception as exc:  # the kit broke: one line on the terminal, the traceback in a file
        try:
            where = f"the traceback is in {runner.record_crash()}"
        except Exception:  # noqa: BLE001 - the report folder itself may be the problem
            where = "the traceback could not be saved either"
        print(f"qaconform run: the kit itself broke ({type(exc).__name__}: {exc}); {where}. Please report it.",
              file=sys.stderr)
        return exitcodes.KIT_ERROR
