"""Event hooks every locustfile of ours installs (by importing this module, once per process).

- every request's float response time goes into a per-operation :class:`~qaconform.load.histogram.HistogramSet`
  (Locust rounds times under 100 ms to whole milliseconds);
- workers ship their histogram and pacing counts to the master with each stats report (``report_to_master``),
  so the figures also reach a master on another machine; the master merges them (``worker_report``);
- the process that owns the totals (master, or the only process) writes ``latency.json`` into the run folder
  when Locust quits; `qaconform load` turns it into ``summary.json``;
- write tasks record every created id for the nothing-lost check: a worker ships its records to the master with
  each stats report (so they reach a master on another machine, like the histograms); the master, or the only
  process, appends them to ``created-<pid>.jsonl`` in its run folder;
- the write budget (:mod:`qaconform.load.write_budget`): the process that runs alone holds the whole budget; a
  worker takes its share when the test starts, from its index and the master's ``--expect-workers`` (Locust hands
  both to the worker before its users spawn: no message of our own), workers ship the tally of their writes with
  each stats report, and the totals go into ``latency.json`` (``writes``).
"""

from __future__ import annotations

import json
import os
import time
from typing import IO, Any

import gevent
from locust import events
from locust import stats as locust_stats
from locust.runners import MasterRunner, WorkerRunner

from qaconform.load.check_rules import RuleTally
from qaconform.load.histogram import Histogram, HistogramSet
from qaconform.load.pacing import PacingStats
from qaconform.load.steady import Windows
from qaconform.load.write_budget import WriteBudget, WriteTotals, shares

from .settings import SETTINGS

HIST = HistogramSet()
HIST_INTENDED = HistogramSet()
"""Open model only: time from each request's *intended* start (its schedule slot) to its answer, so that a
generator or target that falls behind shows up in the latency (the correction wrk2 makes)."""
PACING = PacingStats()
WINDOWS: Windows | None = Windows(SETTINGS.window_s) if SETTINGS.window_s > 0 else None
"""Capacity steps only (``QACONFORM_WINDOW_S``): the same figures per window of time, for the step's steady state."""
_requests_by_worker: dict[str, int] = {}
_created_file: IO[str] | None = None
_created_unsent: list[dict[str, Any]] = []
_is_worker = False
_KEY = "qaconform"
locust_stats.CSV_STATS_FLUSH_INTERVAL_SEC = 2
"""Locust flushes its CSV files every 10 s by default; `qaconform load` prints live totals from the stats history
file every few seconds (qaconform/load/live.py), so flush it every 2 s (the history gets a row every second)."""
_users_stopped_at: list[float] = []
_users_started_at: list[float] = []
BUDGET = WriteBudget(SETTINGS.write_limits)
"""This process's write budget: the whole of it, or (a worker) None until the test starts and its share is known."""
WRITES = WriteTotals(SETTINGS.write_limits)
RULES = RuleTally()
"""This process's failures charged to the rules their checks name (qaconform.load.check_rules); merged where the
totals are written, like the histograms."""
"""The tallies of every process's writes, merged where the totals are written (master, or the only process)."""


@events.init.add_listener
def _note_role(environment: Any, **_kw: Any) -> None:
    global _is_worker
    # libev caches "now" per loop iteration: loading the locustfile on a busy machine can leave it seconds stale,
    # and Locust's --run-time timer (set right after this event) then fired at once (a 4 s run ended after 65 ms)
    gevent.get_hub().loop.update_now()
    _is_worker = isinstance(environment.runner, WorkerRunner)
    if _is_worker:
        BUDGET.limits = None  # no write before the test starts and the share is known


@events.test_start.add_listener
def _take_share(environment: Any, **_kw: Any) -> None:
    """A worker's share of the write budget: ``expect_workers`` workers share it, this one has ``worker_index``."""
    runner = environment.runner
    if not isinstance(runner, MasterRunner | WorkerRunner):
        return
    n = max(1, int(getattr(environment.parsed_options, "expect_workers", 1) or 1))
    WRITES.processes = n
    if isinstance(runner, WorkerRunner):
        BUDGET.set_limits(shares(SETTINGS.write_limits, n)[int(runner.worker_index) % n])


@events.request.add_listener
def _record_time(request_type: str, name: str, response_time: float, response_length: int, response: Any = None,
                 context: Any = None, exception: Any = None, start_time: Any = None, url: Any = None,
                 **_kw: Any) -> None:
    """Every request's float time into this process's histogram of its name.

    Runs on every request: the parameters Locust passes are named, so that no dict of the rest is built per call
    (0.3 µs of 0.8), and HIST is read once."""
    by_name = HIST.by_name
    h = by_name.get(name)
    if h is None:
        h = by_name[name] = Histogram()
    h.add(response_time)
    if WINDOWS is not None:
        WINDOWS.add(name, response_time, exception is not None, time.time())
    if exception is not None:
        RULES.add(name, exception)


def intended(name: str, ms: float) -> None:
    """Open model: one request's latency counted from its intended start (see HIST_INTENDED)."""
    HIST_INTENDED.add(name, ms)
    if WINDOWS is not None:
        WINDOWS.add_intended(ms, time.time())


SHIP_EVERY = 5
"""A worker ships its histograms with every 5th stats report (15 s) and with every report once its users stopped
(the final one included): each ship is thousands of buckets the master merges in Python, in the CPU the workers
share, and nothing reads them before the end of the run. Created ids go with every report."""
_reports = 0
_shares_spent: set[str] = set()


WORKER_LINE = "qaconform worker"
"""The prefix of what a worker says on its own terminal (its log: `qaconform load --master-host` prints those lines):
that it joined, its users, its rate and its requests (issue 45: workers on other machines printed nothing at all)."""
VOICE_EVERY_S = 5.0
_shipped = 0  # requests whose histograms already went to the master


def _requests_so_far() -> int:
    return _shipped + sum(h.count for h in HIST.by_name.values())


def _speak(environment: Any) -> None:
    """A worker's line every few seconds while its users run: users, the rate of the last interval, requests."""
    runner = environment.runner
    last, at = _requests_so_far(), time.monotonic()
    while not _users_stopped_at:
        gevent.sleep(VOICE_EVERY_S)
        now, t = _requests_so_far(), time.monotonic()
        print(f"{WORKER_LINE} {runner.worker_index}: {runner.user_count} users, {(now - last) / (t - at):.1f} req/s, "
              f"{now} requests", flush=True)
        last, at = now, t


@events.test_start.add_listener
def _say_joined(environment: Any, **_kw: Any) -> None:
    runner = environment.runner
    if not isinstance(runner, WorkerRunner):
        return
    opts = environment.parsed_options
    print(f"{WORKER_LINE} {runner.worker_index}: joined the master at {getattr(opts, 'master_host', '?')}:"
          f"{getattr(opts, 'master_port', '?')}; target {environment.host}", flush=True)
    gevent.spawn(_speak, environment)


@events.report_to_master.add_listener
def _ship_to_master(client_id: str, data: dict[str, Any]) -> None:
    global _reports, _shipped
    _reports += 1
    created = _created_unsent[:]
    del _created_unsent[: len(created)]
    data[_KEY] = {"created": created, "writes": BUDGET.drain(), "rules": RULES.drain()}
    if _users_stopped_at or _reports % SHIP_EVERY == 0:
        _shipped += sum(h.count for h in HIST.by_name.values())
        data[_KEY].update({"hist": HIST.drain(), "pacing": PACING.drain(), "intended": HIST_INTENDED.drain()})
        if WINDOWS is not None:
            data[_KEY]["windows"] = WINDOWS.drain()


@events.worker_report.add_listener
def _merge_from_worker(client_id: str, data: dict[str, Any]) -> None:
    part = data.get(_KEY)
    if not part:
        return
    HIST.merge_dict(part.get("hist", {}))
    HIST_INTENDED.merge_dict(part.get("intended", {}))
    PACING.merge_dict(part.get("pacing", {}))
    if WINDOWS is not None and part.get("windows"):
        WINDOWS.merge_dict(part["windows"])
    _write_created(part.get("created", []))
    RULES.merge(part.get("rules"))
    writes = part.get("writes")
    if writes:
        WRITES.merge(writes)
        if writes.get("total_spent"):
            _shares_spent.add(client_id)
    n = sum(int(h.get("count", 0)) for h in part.get("hist", {}).values())
    _requests_by_worker[client_id] = _requests_by_worker.get(client_id, 0) + n


def record_created(kind: str, node_id: int, role: str, parent: int, user_id: int | None) -> None:
    """Remember a node that got a 201: a worker keeps it for its next report to the master, others write it."""
    rec = {"kind": kind, "id": node_id, "role": role, "parent": parent, "user_id": user_id}
    if _is_worker:
        _created_unsent.append(rec)
    else:
        _write_created([rec])


def _write_created(records: list[dict[str, Any]]) -> None:
    """Append records to this process's ``created-<pid>.jsonl``, one JSON line per node."""
    global _created_file
    if not records or not SETTINGS.run_dir:
        return
    if _created_file is None:
        _created_file = open(  # noqa: SIM115 - kept open for the life of the process, closed on quitting
            os.path.join(SETTINGS.run_dir, f"created-{os.getpid()}.jsonl"), "a", encoding="utf-8", buffering=1
        )
    _created_file.write("".join(json.dumps(rec) + "\n" for rec in records))


def _entry_figures(e: Any) -> dict[str, Any]:
    return {"count": e.num_requests, "failures": e.num_failures, "rps": e.total_rps,
            "p50_ms": e.get_response_time_percentile(0.5) if e.num_requests else None,
            "p95_ms": e.get_response_time_percentile(0.95) if e.num_requests else None,
            "p99_ms": e.get_response_time_percentile(0.99) if e.num_requests else None,
            "max_ms": e.max_response_time if e.num_requests else None}


def final_stats(stats: Any) -> dict[str, dict[str, Any]]:
    """Locust's final counts per request name, read at quitting.

    Why not only its ``_stats.csv``: that file is rewritten once a second and not after the last second of
    the run, so it can miss the requests made in it; these come from the same in-memory totals, complete.
    """
    out = {e.name: _entry_figures(e) for e in stats.entries.values() if e.num_requests or e.num_failures}
    out["Aggregated"] = _entry_figures(stats.total)
    return out


@events.test_start.add_listener
def _note_start(**_kw: Any) -> None:
    """When the test started (epoch; the master's or the only process's start): `qaconform load` measures the
    generator's CPU from here, not over the import of the locustfile and the wait for the workers before it."""
    _users_started_at.append(time.time())


@events.test_stop.add_listener
def _note_stop(environment: Any = None, **_kw: Any) -> None:
    """When the users stopped (epoch): `qaconform load` measures the generator's CPU up to here, not over the
    reports and the wait for the last CSV row that follow. A worker says what it sent."""
    _users_stopped_at.append(time.time())
    runner = getattr(environment, "runner", None)
    if isinstance(runner, WorkerRunner):
        print(f"{WORKER_LINE} {runner.worker_index}: users stopped after {_requests_so_far()} requests", flush=True)


def _writes_merged(runner: Any) -> dict[str, Any]:
    if not isinstance(runner, MasterRunner):
        WRITES.merge(BUDGET.drain())
        WRITES.shares_spent = int(BUDGET.total_spent)
    else:
        WRITES.shares_spent = len(_shares_spent)
    return WRITES.as_dict()


def record_moderated(node_id: int) -> None:
    """An answer the run created and then sent to moderation: whether its author's list still shows it is not
    stated, so the nothing-lost check leaves it out (and says so)."""
    rec = {"kind": "moderated", "id": node_id}
    if _is_worker:
        _created_unsent.append(rec)
    else:
        _write_created([rec])


@events.quitting.add_listener
def _write_totals(environment: Any, **_kw: Any) -> None:
    global _created_file
    if _created_file is not None:
        _created_file.close()
        _created_file = None  # a worker's last report may still come in: it reopens the file and appends
    runner = environment.runner
    if isinstance(runner, WorkerRunner) or not SETTINGS.run_dir:
        return
    if getattr(environment.parsed_options, "csv_prefix", None):
        # Locust rewrites its _stats.csv once per CSV_STATS_INTERVAL_SEC and not after the users stop, so the
        # file would miss the last second of the run. The users have stopped by now: letting its writer run one
        # more time makes the CSV (which the report charts) agree with the totals below.
        gevent.sleep(locust_stats.CSV_STATS_INTERVAL_SEC + 0.2)
    out = {
        "hist": HIST.to_dict(),
        "intended": HIST_INTENDED.to_dict(),
        "pacing": PACING.to_dict(),
        "cpu_warning": bool(getattr(runner, "cpu_warning_emitted", False)),
        "worker_cpu_warning": bool(getattr(runner, "worker_cpu_warning_emitted", False)),
        "mode": "master" if isinstance(runner, MasterRunner) else "local",
        "requests_by_worker": dict(_requests_by_worker),
        "users_stopped_at": _users_stopped_at[0] if _users_stopped_at else None,
        "users_started_at": _users_started_at[0] if _users_started_at else None,
        "stats": final_stats(environment.stats),
        "writes": _writes_merged(runner),
        "rules": RULES.to_dict(),
    }
    if WINDOWS is not None:
        out["windows"] = WINDOWS.to_dict()
    tmp = os.path.join(SETTINGS.run_dir, "latency.json.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(out, fh)
    os.replace(tmp, os.path.join(SETTINGS.run_dir, "latency.json"))
