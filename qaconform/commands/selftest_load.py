"""The self-test's load part (`qaconform selftest --load`, issue 45 item 5): each load scenario for a few seconds
against the clean reference server and each group of its allowed variants (a failure charged to a rule there is a
false positive of the load checks), and against each planted fault whose rule a load check names (caught when the
load charges a failure to that rule).

Why the load is judged by the rules its failures are charged to (:mod:`qaconform.load.check_rules`) and not by its
thresholds: latency and throughput are the machine's on a shared runner, and a 429 is the target's pace; what the
description decides is which answers are right. Why a fixed, low rate (``RATE``): the rate-limit variant (20
requests a second per account) is in every group, and a load that outruns it gets 429s instead of answers to check.
Why the faults are informational: a fault breaks its rule on one path, and the load takes few paths (no paging past
a few pages, no projections with every parameter); the count says how many planted faults the load notices, the
suites' self-test is what proves every rule can fail. A variant group with a false positive is named, not bisected:
``qaconform selftest --load-only --variant NAME`` runs one variant.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SECONDS = 6.0
"""Default seconds of each scenario's run (``--load-seconds``)."""
RATE = 15.0
"""Requests a second of each run (open model): below the rate-limit variant's 20 a second for any one account."""
USERS = 10
"""Users carrying RATE: enough that every user class of a scenario gets its share by weight (with the 3 users the rate
alone asks for, Locust starts one of each class and the moderate scenario's moderator sent no send to moderation in
6 s). The write budget is lifted (a throwaway server): at the profile's 5 writes a second, two thirds of a moderate
run's tasks were reads instead."""


@dataclass
class LoadRun:
    """One scenario's run against one server (the clean one, a variant group, one fault)."""

    label: str
    scenario: str
    rule: str | None = None
    """The rule the server's fault breaks; None for the clean server and the variants."""
    variants: tuple[str, ...] = ()
    requests: int = 0
    charged: dict[str, dict[str, int]] = field(default_factory=dict)
    """Failures charged to rules: rule -> request name (or ``nothing-lost``) -> count."""
    uncharged: dict[str, int] = field(default_factory=dict)
    """Failures no rule decides, by check (a 429, a timeout): shown, never a verdict."""
    problem: str | None = None
    """Why the run could not be judged (the server or Locust did not start or stop, no request answered)."""
    seconds: float = 0.0

    @property
    def caught(self) -> bool:
        return self.rule is not None and self.rule in self.charged

    def false_positive(self) -> bool:
        """Clean server and variant groups: any failure charged to a rule, or a run that could not be judged."""
        return self.rule is None and (bool(self.charged) or self.problem is not None)


@dataclass
class LoadPart:
    runs: list[LoadRun]
    seconds: float

    @property
    def false_positives(self) -> list[LoadRun]:
        return [r for r in self.runs if r.false_positive()]

    @property
    def faults(self) -> list[LoadRun]:
        return [r for r in self.runs if r.rule is not None]

    def faults_caught(self) -> tuple[list[str], list[str]]:
        """(faults caught by some scenario's run, faults no run caught), each fault once."""
        labels = list(dict.fromkeys(r.label for r in self.faults))
        caught = {r.label for r in self.faults if r.caught}
        return [n for n in labels if n in caught], [n for n in labels if n not in caught]

    @property
    def ok(self) -> bool:
        """No false positive on the clean server or a variant group, and no fault run that could not be judged."""
        return not self.false_positives and not any(r.problem for r in self.faults)

    def lines(self) -> list[str]:
        judged = [r for r in self.runs if r.rule is None]
        caught, missed = self.faults_caught()
        faults = (f"; {len(caught) + len(missed)} faults whose rule a load check names, caught by load {len(caught)}"
                  if caught or missed else "")
        out = [f"load: {len(judged)} scenario runs on the clean server and the variants, false positives "
               f"{len(self.false_positives)}{faults} ({self.seconds:.0f}s)"]
        for r in self.false_positives:
            out.append(f"  LOAD FALSE POSITIVE: {r.scenario} on {r.label}: "
                       + (r.problem.splitlines()[0] if r.problem else _charged_text(r.charged))
                       + " (the load checks judge what the description does not state)")
        for r in self.faults:
            if r.problem:
                out.append(f"  load run not judged: {r.scenario} on fault {r.label}: {r.problem.splitlines()[0]}")
        if missed:
            out.append("  faults the load did not notice (its path is not one the load takes; the suites catch "
                       "them): " + ", ".join(missed))
        return out

    def as_json(self) -> dict[str, Any]:
        caught, missed = self.faults_caught()
        return {"ok": self.ok, "seconds": round(self.seconds, 1), "rate": RATE,
                "false_positives": [f"{r.scenario} on {r.label}" for r in self.false_positives],
                "faults_caught": caught, "faults_missed": missed,
                "runs": [{**asdict(r), "caught": r.caught, "false_positive": r.false_positive()} for r in self.runs]}


def _charged_text(charged: dict[str, dict[str, int]]) -> str:
    return "; ".join(f"{rule} ({', '.join(f'{op} {n}' for op, n in ops.items())})" for rule, ops in charged.items())


@dataclass(frozen=True)
class Server:
    """One server of the load part and the scenarios run against it, one after the other."""

    label: str
    scenarios: tuple[str, ...]
    fault: str | None = None
    rule: str | None = None
    variants: tuple[str, ...] = ()


def servers(faults: Sequence[str], variant_runs: Sequence[tuple[str, ...]], clean: bool,
            scenarios: Sequence[str]) -> list[Server]:
    """The clean server and each variant group with every scenario; each fault whose rule a load check names with the
    scenarios that judge it (:func:`qaconform.load.check_rules.claimed`); faults no load check judges are left out."""
    from qaconform.commands import variant_groups
    from qaconform.load.check_rules import claimed
    from qaconform.reference import faults as registry

    out = [Server("clean server", tuple(scenarios))] if clean else []
    out += [Server(variant_groups.label(g), tuple(scenarios), variants=tuple(g)) for g in variant_runs]
    for name in faults:
        rule = registry.FAULTS[name].rule
        chosen = tuple(s for s in claimed(rule) if s in scenarios)
        if chosen:
            out.append(Server(name, chosen, fault=name, rule=rule))
    return out


def run_load_part(todo: Sequence[Server], jobs: int, seconds: float = SECONDS,
                  progress: Callable[[LoadRun], None] | None = None) -> LoadPart:
    """Every server of ``todo`` with its scenarios, ``jobs`` servers at a time."""
    started = time.monotonic()

    def one(server: Server) -> list[LoadRun]:
        return _serve_and_load(server, seconds, progress)

    with _without_caller_settings(), ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        runs = [r for part in pool.map(one, todo) for r in part]
    return LoadPart(runs=runs, seconds=time.monotonic() - started)


@contextlib.contextmanager
def _without_caller_settings() -> Iterator[None]:
    """None of the caller's QACONFORM_ settings reach the Locust processes (they read their environment: a
    QACONFORM_BASE_URL there would be refused, a QACONFORM_MAX_WRITES obeyed); a self-test judges the kit."""
    saved = {k: v for k, v in os.environ.items() if k.startswith("QACONFORM_")}
    for k in saved:
        del os.environ[k]
    try:
        yield
    finally:
        os.environ.update(saved)


def _serve_and_load(server: Server, seconds: float, progress: Callable[[LoadRun], None] | None) -> list[LoadRun]:
    from qaconform.reference import ReferenceServer, ReferenceServerError

    runs: list[LoadRun] = []
    with tempfile.TemporaryDirectory(prefix="qaconform-selftest-load-") as tmp:
        try:
            with ReferenceServer(faults=(server.fault,) if server.fault else (), variants=server.variants) as srv:
                for scenario in server.scenarios:
                    run = _one_scenario(server, scenario, srv.profile_path, Path(tmp) / scenario, seconds)
                    runs.append(run)
                    if progress:
                        progress(run)
        except ReferenceServerError as exc:
            runs.append(LoadRun(server.label, ",".join(server.scenarios), server.rule, server.variants,
                                problem=f"the reference server did not start: {exc}"))
            if progress:
                progress(runs[-1])
    return runs


def _one_scenario(server: Server, scenario: str, profile_path: str, out: Path, seconds: float) -> LoadRun:
    """One scenario against a running server: Locust at ``RATE`` for ``seconds``, judged by its charged failures."""
    from qaconform.errors import KitError
    from qaconform.load.cli import load_thresholds, write_target
    from qaconform.load.runner import RunConfig, run_load
    from qaconform.load.write_budget import Limits
    from qaconform.target.profile import load_profile
    from qaconform.target.resolved import resolve

    run = LoadRun(server.label, scenario, server.rule, server.variants)
    t0 = time.monotonic()
    try:
        resolved = resolve(load_profile(profile_path), "profile", None)
        profile = resolved.profile()
        cfg = RunConfig(scenario=scenario, duration_s=seconds, rate=RATE, users=USERS, write_limits=Limits(None, None))
        summary = run_load(cfg, profile, write_target(resolved, out), out, load_thresholds(None, []), quiet=True)
    except (KitError, OSError, ValueError) as exc:
        run.problem = f"{type(exc).__name__}: {exc}"
    else:
        run.requests = summary.requests
        run.charged = dict(summary.failed_rules.get("charged") or {})
        run.uncharged = dict(summary.failed_rules.get("uncharged") or {})
        if not summary.requests:
            run.problem = "no request was made (see the Locust log of the run)"
    run.seconds = time.monotonic() - t0
    return run


def progress_line(run: LoadRun) -> str:
    if run.rule is not None:
        state = "not judged" if run.problem else "caught" if run.caught else "not noticed"
    else:
        state = "FALSE POSITIVE" if run.false_positive() else "green"
    return f"load {run.scenario} on {run.label}: {state} ({run.requests} requests, {run.seconds:.0f}s)"
