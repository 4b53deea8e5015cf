"""Whether one capacity step held, and when it did not, what limited it: the target, the load generator, the
network, or the kit's own failures.

Why apart from the search: the judgement reads only files a step left (``summary.json``'s figures, ``latency.json``'s
windows, ``locust_failures.csv``), so it is tested on made-up files, and the search stays a loop. A step is judged
on its steady state (:mod:`qaconform.load.steady`: warm-up left out): the thresholds on the steady figures, the
steady throughput against the offered rate, and the latency trend (a queue building counts as broken even while
the p95 is still under its limit). A failure that says nothing about the target's capacity is named for what it
is: no HTTP answer at all (the network, or a connection limit), or a 4xx to a state change (the kit asked for
something the node's state did not allow), never "the target's capacity".
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qaconform.load.noise import busy_pct, cpu_times
from qaconform.load.steady import Steady, steady_state
from qaconform.load.thresholds import LOWER_METRICS, Limits, breaches, evaluate

ACHIEVED_SHARE = 0.97
"""A step held only if its steady throughput made this share of the offered rate (the old 0.9 let a step at 10 %
over the capacity pass as held)."""
MAX_SHORTFALL_SHARE = 0.06
"""... and never more than this share, however short the steady state (a step of 1 s of steady state would otherwise
pass a 12 % shortfall as edge effects)."""
MISSED_SHARE = 0.01
"""... and missed at most this share of its schedule's start slots."""
WORKER_CPU_SHARE = 0.75
"""How much of a core one generator process may use before it bends the figures: the basis of a worker count."""
GENERATOR_BUSY_PCT = 50.0
"""A step that fell behind its schedule while its users waited for their slots is the generator's limit only when
one of its processes used at least this share of a core (in percent): its own CPU says it was working hard. Below
it the generator had CPU to spare (a CI step blamed the generator at 5.5 % of a core on a busy machine and ended the
search), so the step is judged like any other and a busy machine is said as a caveat (``busy_machine``)."""

TARGET, GENERATOR, NETWORK, KIT, TIME = "target", "generator", "network", "kit", "time"
STATE_CHANGES = {"PUT", "POST", "DELETE", "PATCH"}


@dataclass
class Verdict:
    """One step, judged: the figures capacity.json keeps and, when it broke, why and whose limit it was."""

    offered_rps: float | None
    achieved_rps: float
    held: bool
    reasons: list[str]
    cause: str | None
    steady: Steady | None
    breaches: list[dict[str, Any]] = field(default_factory=list)
    generator_cpu_pct: float = 0.0
    generator_cpu: list[dict[str, Any]] = field(default_factory=list)
    cpu_s_per_request: float | None = None
    failure_kinds: dict[str, int] = field(default_factory=dict)
    total: dict[str, Any] = field(default_factory=dict)
    """The figures judged: the steady state's, or the whole run's when it was too short for one."""

    def record(self) -> dict[str, Any]:
        total = self.total
        count = total.get("count") or 0
        return {
            "offered_rps": self.offered_rps, "achieved_rps": round(self.achieved_rps, 2), "held": self.held,
            "reasons": self.reasons, "cause": self.cause,
            "p50_ms": total.get("p50_ms"), "p95_ms": total.get("p95_ms"), "p99_ms": total.get("p99_ms"),
            "failure_ratio": round((total.get("failures") or 0) / count, 5) if count else None,
            "generator_cpu_pct": self.generator_cpu_pct, "generator_cpu": self.generator_cpu,
            "breaches": [{"name": b["name"], "actual": b["actual"], "limit": b["limit"]} for b in self.breaches],
            "failure_kinds": self.failure_kinds, "figures": "steady state" if self.steady else "whole run",
            "steady": self.steady.as_dict() if self.steady else None,
        }


def failure_kinds(failures_csv: Path) -> dict[str, int]:
    """Locust's failures table by kind: ``no_answer`` (no HTTP answer), ``state_4xx`` (a 4xx to a state change),
    ``other``. Row format: Method, Name, Error, Occurrences."""
    kinds: dict[str, int] = {}
    try:
        with failures_csv.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    except OSError:
        return kinds
    for row in rows:
        error = row.get("Error") or ""
        try:
            n = int(row.get("Occurrences") or 0)
        except ValueError:
            n = 0
        if "no HTTP answer" in error or "ConnectionRefused" in error or "ConnectionReset" in error:
            kind = "no_answer"
        elif (row.get("Method") or "").upper() in STATE_CHANGES and "got 4" in error:
            kind = "state_4xx"
        else:
            kind = "other"
        kinds[kind] = kinds.get(kind, 0) + n
    return kinds


def shortfall_allowed(offered: float, steady: Steady | None, users: int) -> float:
    """How far under the offered rate a step may measure and still have made it: 3 %, or one request per user over
    the steady seconds when that is more (each user's paced requests fall either side of a window's edge, so a
    short steady state at a low rate counts up to about one request per user too few)."""
    seconds = steady.seconds if steady is not None else 0.0
    per_user = users / seconds if seconds and users else 0.0
    return max((1 - ACHIEVED_SHARE) * offered, min(per_user, MAX_SHORTFALL_SHARE * offered))


def _cpu(summary: Mapping[str, Any]) -> tuple[float, list[dict[str, Any]]]:
    procs = [c for c in summary.get("generator_cpu") or [] if c.get("mean_cpu_pct") is not None]
    return round(sum(float(c["mean_cpu_pct"]) for c in procs), 1), procs


def judge(summary: Mapping[str, Any], latency: Mapping[str, Any], failures_csv: Path, limits: Limits,
          offered: float | None, warmup_s: float) -> Verdict:
    """Judge one step from what it wrote. ``offered`` None: a closed-loop probe (held means only "no breach")."""
    steady = steady_state(latency.get("windows") or {}, warmup_s, latency.get("users_stopped_at"))
    if steady is not None and steady.total["count"]:
        operations, total = steady.operations, steady.total
    else:  # too short for a steady state: the whole run's figures
        operations, total = dict(summary.get("operations") or {}), dict(summary.get("total") or {})
    achieved = float(total.get("rps") or 0.0)
    # a minimum throughput (min_rps) judges a load run, not a step whose rate the search chose: a search below it
    # would otherwise break every step and descend to nothing (a starved machine's probe made 5 req/s, the default
    # total.min_rps is 5: seven steps down to 0.2 req/s all "broke")
    found = [b for b in breaches(evaluate(limits, operations, total)) if b["metric"] not in LOWER_METRICS]
    reasons = [f"{b['name']} {_num(b['actual'])} over {_num(b['limit'])}" if b["metric"] != "min_rps" else
               f"{b['name']} {_num(b['actual'])} under {_num(b['limit'])}" for b in found]
    om = summary.get("open_model") or {}
    if offered:
        if achieved < offered - shortfall_allowed(offered, steady, int(summary.get("users") or 0)):
            reasons.append(f"made {achieved:.1f} of {offered:g} req/s")
        slots = int(om.get("slots") or 0)
        if slots and int(om.get("missed_slots") or 0) > MISSED_SHARE * slots:
            # user26: ``slots`` counts the starts made (on time or late), not the dropped ones: "missed 886 of 405
            # start slots" (a busy machine's capacity step) read as more missed than there were
            reasons.append(f"missed {om['missed_slots']} of its {slots + int(om['missed_slots'])} start slots")
        if steady is not None and steady.growing:
            reasons.append(f"latency grew through the step ({_trend(steady.latency_trend)}): a queue building")
    if summary.get("lost"):
        reasons.append(f"{len(summary['lost'])} created items not listed")
    cpu_pct, procs = _cpu(summary)
    kinds = failure_kinds(failures_csv)
    held = not reasons
    cause = None if held else _cause(summary, found, kinds, offered, total, reasons)
    return Verdict(offered, achieved, held, reasons, cause, steady if steady is not None and steady.total["count"]
                   else None, found, cpu_pct, procs, cpu_pct / 100.0 / achieved if achieved else None, kinds,
                   dict(total))


def users_idle(summary: Mapping[str, Any], offered: float | None, total: Mapping[str, Any]) -> bool:
    """Whether the open model's users were mostly waiting for their next slot, not for answers: the rate times the
    mean response time (Little's law: the requests in flight) is under a quarter of the users. A step that still
    fell behind its schedule while the generator worked hard (:func:`generator_busy`) fell behind in the generator,
    not in the target: a target's queue keeps the users waiting on answers (the mean counts the queue's long waits,
    which a median can miss). With CPU to spare it is not the generator's limit, whatever else the machine runs."""
    users = int(summary.get("users") or 0)
    mean = total.get("mean_ms")
    return bool(offered and users and mean is not None and offered * mean / 1000.0 < 0.25 * users)


def generator_busy(summary: Mapping[str, Any]) -> bool:
    """Whether one generator process used at least GENERATOR_BUSY_PCT of a core through the step."""
    return any(float(c.get("mean_cpu_pct") or 0.0) >= GENERATOR_BUSY_PCT for c in summary.get("generator_cpu") or [])


def fell_behind(reasons: list[str]) -> bool:
    """Whether a step broke by falling behind its schedule (made less than asked, or missed start slots): the only
    breaks a generator short of CPU causes (a latency that grows, a threshold, a failure are the answers')."""
    return any(r.startswith(("made ", "missed ")) for r in reasons)


def busy_machine(load_average: float, n_cores: int) -> str | None:
    """The caveat for a machine busier than its cores (load average above the core count): everything else running
    there takes CPU from the generator and from a target on the same machine, so the figures can only be low."""
    if load_average <= n_cores:
        return None
    return (f"the machine was busy (load average {load_average:.1f} on {n_cores} cores): the figures can only be "
            "lower than on a quiet machine; rerun when it is quieter for a tighter answer")


def _cause(summary: Mapping[str, Any], found: list[dict[str, Any]], kinds: Mapping[str, int], offered: float | None,
           total: Mapping[str, Any], reasons: list[str]) -> str:
    if summary.get("generator_cpu_warning") or (not found and fell_behind(reasons) and generator_busy(summary)
                                                and users_idle(summary, offered, total)):
        return GENERATOR
    failures = sum(kinds.values())
    only_failures = bool(found) and all(b["metric"] == "failure_ratio" for b in found)
    if failures and kinds.get("no_answer", 0) * 2 >= failures and (only_failures or not found):
        return NETWORK
    if failures and kinds.get("state_4xx", 0) * 2 >= failures and only_failures:
        return KIT
    return TARGET


def workers_needed(cpu_s_per_request: float | None, rate: float) -> int | None:
    """Generator processes it takes to offer ``rate`` req/s, each at most WORKER_CPU_SHARE of a core."""
    if not cpu_s_per_request or rate <= 0:
        return None
    return max(1, math.ceil(rate * cpu_s_per_request / WORKER_CPU_SHARE))


def cores() -> int:
    return os.cpu_count() or 1


def machine_load(cpu_before: tuple[float, float] | None) -> dict[str, Any]:
    """How loaded the machine was over a run, for summary.json's reader: the load average at its end, how busy all
    its CPUs were since ``cpu_before`` (``noise.cpu_times``), and the busy-machine caveat. A load run on a machine at
    load 29 on 2 cores printed "verdict: pass, p95 123 ms" with nothing saying that its figures were the machine's."""
    try:
        load = round(os.getloadavg()[0], 2)
    except OSError:  # no load average on this platform
        load = None
    n = cores()
    return {"cores": n, "load_average_1m": load, "cpu_busy_pct": busy_pct(cpu_before, cpu_times()),
            "caveat": None if load is None else busy_machine(load, n)}


def _num(v: Any) -> str:
    return "none" if v is None else f"{v:.4g}"


def _trend(trend: list[float]) -> str:
    if len(trend) < 2:
        return ""
    return f"median {trend[0]:.1f} ms -> {trend[-1]:.1f} ms"
