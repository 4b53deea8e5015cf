"""`qaconform run`'s command line: its options, what --only selects, the load run it may add, how many workers a
run starts by default. Checked before any target is touched (a bad option is exit 2, nothing sent)."""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qaconform.commands import run_coverage
from qaconform.errors import UsageError
from qaconform.pytest.markers import AREAS
from qaconform.report.options import add_report_options
from qaconform.target.writes import DEFAULT_WRITE_BUDGET, THOROUGH_COST

SMOKE_LOAD = ("--scenario", "mixed", "--duration", "10")
DEFAULT_SUITE_TIMEOUT_S = 3600.0
LOAD_GRACE_S = 240.0
SUITE_KILL_GRACE_S = 60.0
"""How long after --timeout the runner stops pytest itself: the plugin stops the run at the first test to end after
--timeout (``stopped: time_budget`` in the results); this is for a test that never ends."""
MAX_DEFAULT_JOBS = 8
"""The most workers a run starts unless told (--jobs): a staging server is shared, and each worker collects the suites
(about 1.1 s of CPU before its first test, 2026-11-30). Was 6 when a run sent ~2,000 requests (bench/bench_run.py, 2
cores, 50 ms a request: 4 workers 29.5 s, 6 workers 25.3 s, 8 workers 26.3 s); at ~6,600 requests the round trips, not
the start-up, bound a run (speed12: see :func:`default_jobs`)."""
MAX_LOOPBACK_JOBS = 6
"""The most workers against the embedded reference server (one per CPU up to this): unchanged by speed12, which
measured only a target across a network."""
ROUND_TRIP_PER_WORKER_S = 0.00625
"""One more worker for each this much of round trip to the target, four per 25 ms (see :func:`default_jobs`)."""
ENV_JOBS = "QACONFORM_JOBS"
"""--jobs from the environment (a CI job's setting), when the option is not given."""
PREFLIGHT_READS = 3
"""Reads of the preflight: enough for one round trip on an open connection."""


def default_jobs(cpus: int, round_trip_s: float | None) -> int:
    """How many workers a run starts when --jobs does not say, from the machine and the target.

    On loopback (the embedded reference server, ``round_trip_s`` None) a request costs CPU, not waiting: one worker
    per core. Across a network the workers mostly wait for answers, and a far target needs more of them to hide its
    round trips: two per core, plus four for every 25 ms of round trip, at most :data:`MAX_DEFAULT_JOBS`. Measured on
    2 cores (bench/bench_run.py, wall time of the whole kit): reference 12.3 s serial, 8.4 s on 2 workers, 9.2 s on
    4; a target 25 ms away 19.4 s on 4 workers, 17.1 s on 5, 17.7 s on 6; 50 ms away 29.5 s on 4, 25.3 s on 6 (when a
    run sent ~2,000 requests). speed12 (issue 44, ~6,600 requests): at 25 ms a run on 5 workers waits
    6,600 x 25 ms / 5 = 33 s on round trips alone, more than its CPU (kit + server + proxy ~45 s on 2 cores, 22 s);
    on 8 the round trips are 21 s and the CPU ~49 s (24 s: each more worker collects, +1.1 s). Six alternating pairs
    at +25 ms, load 7-28: wall median 93.4 s on 8 workers, 119.8 s on 5 (8 won four pairs; kit CPU median 43.3 s
    against 38.1 s; the same requests, verdicts and exit 0).
    """
    cpus = max(1, cpus)
    if round_trip_s is None:
        return min(cpus, MAX_LOOPBACK_JOBS)
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


def cost_lines(args: argparse.Namespace, profile: Any, round_trip_s: float | None, jobs: int) -> list[str]:
    """What the run will cost that nobody can take back, said before anything is sent (issue 46): the real
    data-protection jobs a profile with [safety] destructive schedules, and the time --thorough takes at the
    target's measured round trip."""
    out = []
    safety = profile.safety
    if safety.destructive and not getattr(args, "read_only", False):
        out.append("[safety] destructive = true: the run schedules real data-protection jobs (at most three), which "
                   f"no interface undoes, for {safety.gdpr_user or 'no user (gdpr_user is not set: jobs name nobody)'}"
                   "; the summary lists each with its id, user, date and operations")
    if getattr(args, "thorough", False) and round_trip_s is not None:
        from qaconform.target.writes import THOROUGH_REQUESTS

        wait = THOROUGH_REQUESTS * round_trip_s / max(1, jobs)
        took = f"{wait / 60:.0f} min" if wait >= 120 else f"{wait:.0f} s"
        out.append(f"--thorough at this target's round trip ({round_trip_s * 1000:.0f} ms, {jobs} worker(s)): at "
                   f"least {took} waiting for answers alone, plus the target's own work")
    return out


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
                        help="the seed of the generated tests and the seed draws, to reproduce a run (env "
                             "QACONFORM_SEED for the suites); without it, the seed draws' next turn (docs/ci.md)")
    parser.add_argument("--reference-fault", action="append", default=[], metavar="NAME",
                        help="with no --profile: plant this fault in the reference server (see "
                             "`python -m qaconform.reference --list-faults`); to see what a broken target looks like")
    parser.add_argument("--jobs", "-j", type=int, metavar="N", default=None,
                        help=f"run the suites on N worker processes (env {ENV_JOBS}; default: one per CPU for the "
                             "embedded reference server; for a --profile target two per CPU plus four per 25 ms of "
                             f"round trip, at most {MAX_DEFAULT_JOBS}; 1 when --only names rule ids alone; never more "
                             "than the profile's [safety] max_concurrency and max_rps allow); 1 runs them serially")
    parser.add_argument("--timeout", type=float, metavar="S", default=DEFAULT_SUITE_TIMEOUT_S,
                        help=f"stop the suites after this many seconds (default {DEFAULT_SUITE_TIMEOUT_S:.0f})")
    run_coverage.add_arguments(parser)
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
            raise UsageError(f"--only {token}: neither an area ({' '.join(sorted({*AREAS, *by_area}))}) "
                             f"nor a rule id of spec/rules.yaml{hint}")
    plan = Plan(areas=areas, rules=rule_ids)
    if not areas and not rule_ids:
        return plan
    if not rule_ids and all(a in AREAS for a in areas):
        plan.pytest_args = ["-m", " or ".join(areas)]
        return plan
    marker_only = [a for a in areas if a not in by_area]
    if marker_only:
        raise UsageError(f"--only {' '.join(marker_only)} selects by test marker and cannot be combined with rule "
                         "ids or the areas auth/conventions; run them in two runs")
    expanded = list(dict.fromkeys([*rule_ids, *(i for a in areas for i in by_area[a])]))
    for rid in expanded:
        plan.pytest_args += ["--rule", rid]
    return plan


def load_command(choice: str | None, profile_path: str, out: Path, target_file: Path | None = None
                 ) -> list[str] | None:
    """The `qaconform load` command line for ``--load``, as a subprocess (locust never loads in this process).
    With ``target_file`` (the run's target.json) the load tests the target the run resolved and its doctor examined,
    not the profile resolved again."""
    if not choice:
        return None
    given = ["--target-file", str(target_file)] if target_file is not None else ["--profile", profile_path]
    base = [sys.executable, "-m", "qaconform.commands.cli", "load", *given, "--report-dir", str(out)]
    if choice == "smoke":
        return [*base, *SMOKE_LOAD]
    if not re.fullmatch(r"[a-z][a-z0-9_-]*", choice):
        raise UsageError(f"--load {choice!r}: give 'smoke' or a scenario name of `qaconform load --scenario`")
    return [*base, "--scenario", choice]


def validate_load_choice(choice: str | None) -> None:
    if not choice or choice == "smoke":
        return
    try:
        from qaconform.load.runner import scenarios
    except ImportError:
        return  # the load run will record that the command is unavailable
    known = scenarios()
    if choice not in known:
        near = difflib.get_close_matches(choice, ["smoke", *known], n=1)
        raise UsageError(f"--load {choice}: not a load scenario" + (f" (did you mean {near[0]}?)" if near else "")
                         + f"; use smoke or one of {', '.join(known)}")


def _combine_marker(pytest_args: list[str], expr: str) -> list[str]:
    """Add a marker expression to a selection that may already hold ``-m``."""
    if "-m" in pytest_args:
        i = pytest_args.index("-m")
        return [*pytest_args[:i], "-m", f"({pytest_args[i + 1]}) and ({expr})", *pytest_args[i + 2:]]
    return [*pytest_args, "-m", expr]
