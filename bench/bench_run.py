"""What a parallel `qaconform run` gains against a target that is far away: the whole kit against the embedded
reference server behind a proxy that holds every request for a fixed delay (0, 25 and 50 ms: a server in the same
room, in another region, on another continent), serially (--jobs 1) and with the default number of workers.

For each run it prints the wall time, the requests the proxy received, the longest chain of requests that must
follow one another, the floor (that chain x delay, or requests x delay / workers, whichever is larger: no schedule
can beat it), wall time / floor, whether every rule got the same verdict as in the serial run, and what the
politeness limits promise (the most requests in flight at once and within any one second, as the proxy saw them),
and where the time outside the tests goes: from the start to the first test (start-up, collection on every worker,
the preflight) and from the last test to the end (merging results, the report).

The chain: the tests of a group of qaconform/pytest/parallel.py run one after another, and so do the requests inside one
test (its fixtures included); the longest such unit, plus the checks made before any test (the runner's
reachability check and the controller's preflight), is the chain. Requests are counted per test by
bench/qc_bench_probe.py, a pytest plugin loaded into the run through PYTEST_ADDOPTS. A test that reads as several
accounts at once (support.for_each) counts every read, so the chain is an upper bound, and so is the floor of a
serial run (requests x delay).

Run: python bench/bench_run.py [--delays 0,25,50] [--jobs N] [--seed N] [--repeat N] [--requests] [--cpu]
(about 5 min on 2 cores; --repeat N runs the parallel run N times at each delay and prints each figure's median and
range, since this machine's speed moves between runs by more than most changes of the kit;
--requests adds the table of bench/request_table.py for each parallel run: requests per suite file and rule, reads,
writes and repeated reads; --cpu where the pytest processes' CPU went, before their first test and per suite file,
and the CPU of this process: the delaying proxy, and the worker balance: each worker's span and idle time, the
longest units of work)
The machine's load average is printed with every run: on a shared machine, rerun when it is high, or run the bench
with a higher priority than the rest (`nice -n -10`, as root, with the kernel's autogroups off:
`echo 0 > /proc/sys/kernel/sched_autogroup_enabled`, or every terminal session shares the CPU equally).
Everything listens on 127.0.0.1; each run gets a fresh reference server and is bounded by --timeout.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from delay_proxy import DelayProxy  # noqa: E402
from request_table import read_log, render, rules_of, tabulate  # noqa: E402
from tree_cpu import TreeCPU  # noqa: E402

from qaconform.pytest.parallel import group_of  # noqa: E402
from qaconform.reference import ReferenceServer  # noqa: E402
from qaconform.target.exchange_log import ENV as EXCHANGE_LOG  # noqa: E402


@dataclass
class Run:
    delay_ms: int
    label: str
    jobs: int
    wall_s: float
    requests: int
    chain: int
    max_in_flight: int
    max_per_second: int
    exit_code: int
    verdicts: dict[str, str]
    load: tuple[float, float, float]
    startup_s: float
    """From the start of `qaconform run` to the first test on any worker (start-up, collection, preflight)."""
    tail_s: float
    """From the end of the last test to the end of `qaconform run` (merging results, the report)."""
    same_as_serial: bool | None = None
    notes: list[str] = field(default_factory=list)
    requests_table: str | None = None
    """With --requests: where the run's requests went (bench/request_table.py)."""
    cpu_table: str | None = None
    """With --cpu: where the kit's own CPU went (:func:`cpu_of`)."""

    @property
    def floor_s(self) -> float:
        d = self.delay_ms / 1000
        return max(self.chain * d, self.requests * d / self.jobs)

    @property
    def ratio(self) -> float | None:
        return self.wall_s / self.floor_s if self.floor_s > 0 else None


def test_span(probe_dir: Path) -> tuple[float, float]:
    """When the first test of the run started and the last one ended (epoch seconds, over every process)."""
    starts, stops = [], []
    for f in probe_dir.glob("probe-*.json"):
        for t in json.loads(f.read_text())["tests"]:
            starts.append(t["start"])
            stops.append(t["stop"])
    return (min(starts), max(stops)) if starts else (0.0, 0.0)


def chain_of(probe_dir: Path, before_tests: int) -> int:
    """The longest run of requests that must follow one another (see the module docstring)."""
    units: dict[str, int] = {}
    startup = 0
    for f in probe_dir.glob("probe-*.json"):
        data = json.loads(f.read_text())
        if data["worker"] == "main" and not data["tests"]:
            startup = max(startup, data["total"])  # an xdist controller: its preflight, before any worker starts
            continue
        startup = max(startup, data["startup"]) if data["worker"] == "main" else startup
        for t in data["tests"]:
            key = group_of(t["nodeid"]) or f"{data['worker']}:{t['nodeid']}:{id(t)}"
            units[key] = units.get(key, 0) + t["requests"]
    return before_tests + startup + max(units.values(), default=0)


def cpu_of(probe_dir: Path, requests: int) -> str:
    """Where the pytest processes' CPU went: before their first test (interpreter, plugins, collection, session
    set-up) and in the tests, per suite file, with CPU per request. On 2 cores a run whose processes need 60 CPU
    seconds cannot end before 30 s, whatever the target's latency: this says what sets that floor."""
    startup, in_tests, processes = 0.0, 0.0, 0
    per_file: dict[str, list[float]] = {}
    for f in probe_dir.glob("probe-*.json"):
        data = json.loads(f.read_text())
        processes += 1
        startup += float(data.get("startup_cpu") or 0.0)
        for t in data["tests"]:
            cpu = float(t.get("cpu") or 0.0)
            in_tests += cpu
            entry = per_file.setdefault(t["nodeid"].split("::")[0], [0.0, 0, 0])
            entry[0] += cpu
            entry[1] += t["requests"]
            entry[2] += 1
    total = startup + in_tests
    lines = [f"CPU of the pytest processes: {total:.1f} s ({processes} processes): {startup:.1f} s before their first "
             f"test, {in_tests:.1f} s in tests ({1000 * in_tests / max(1, requests):.1f} ms per request); "
             f"floor on {os.cpu_count()} CPUs: {total / max(1, os.cpu_count() or 1):.1f} s",
             f"{'suite file':<50} {'CPU s':>7} {'tests':>6} {'requests':>9} {'ms/request':>11}"]
    for name, (cpu, reqs, tests) in sorted(per_file.items(), key=lambda kv: -kv[1][0]):
        per = f"{1000 * cpu / reqs:.1f}" if reqs else "-"
        lines.append(f"{name:<50} {cpu:>7.1f} {tests:>6} {reqs:>9} {per:>11}")
    return "\n".join(lines)


def balance_of(probe_dir: Path, launched: float, delay_ms: int, top: int = 12) -> str:
    """How the workers' time was spent (the schedule): each worker's first test and last test end (seconds from the
    start of `qaconform run`), its time in tests and its requests, the time workers stood idle before the last one
    ended (time a better schedule could win), and the units of work that took the longest (a unit's tests run one
    after another on one worker: the longest is the chain the run cannot beat)."""
    workers: list[tuple[str, float, float, float, int]] = []
    units: dict[str, list[float]] = {}
    for f in probe_dir.glob("probe-*.json"):
        data = json.loads(f.read_text())
        tests = data["tests"]
        if not tests:
            continue
        busy = sum(t["stop"] - t["start"] for t in tests)
        workers.append((data["worker"], min(t["start"] for t in tests) - launched,
                        max(t["stop"] for t in tests) - launched, busy, sum(t["requests"] for t in tests)))
        for t in tests:
            key = group_of(t["nodeid"]) or t["nodeid"].split("[", 1)[0]
            entry = units.setdefault(key, [0.0, 0, 0])
            entry[0] += t["stop"] - t["start"]
            entry[1] += t["requests"]
            entry[2] += 1
    if not workers:
        return "worker balance: no test ran"
    end = max(w[2] for w in workers)
    idle = sum(end - w[2] for w in workers)
    lines = [f"worker balance: the last test ended {end:.1f} s after the start; workers idle before it: {idle:.1f} s "
             f"in all", f"{'worker':<8} {'first s':>8} {'last s':>8} {'in tests s':>11} {'requests':>9}"]
    for name, first, last, busy, reqs in sorted(workers):
        lines.append(f"{name:<8} {first:>8.1f} {last:>8.1f} {busy:>11.1f} {reqs:>9}")
    lines.append(f"the {top} longest units (tests of a group, or tests of one function; time in tests, requests, "
                 f"requests x {delay_ms} ms)")
    for key, (secs, reqs, tests) in sorted(units.items(), key=lambda kv: -kv[1][0])[:top]:
        lines.append(f"{key[:70]:<70} {secs:>6.1f} s {tests:>5} tests {reqs:>6} req {reqs * delay_ms / 1000:>6.1f} s")
    return "\n".join(lines)


def rounds_of(exchanges: list[dict[str, Any]], delay_ms: int, jobs: int) -> str:
    """The round trips each process waited for one after another: the time it had a request in flight divided by
    the mean time of one of its requests (requests sent together count once per round: 45 reads 5 at a time are
    about 9); and, a figure that does not depend on the load at all, the requests sent while no other of the
    process was in flight (a whole read-ahead counts once). rounds x delay is the time a process waits on the
    network; the rounds of the busiest worker, or all rounds over the workers, bound the run as requests x delay /
    workers bounds a run that overlaps nothing. On a loaded machine the first moves with the load (concurrent
    requests are slowed more than single ones): compare runs made at a similar load."""
    spans: dict[int, list[tuple[float, float]]] = {}
    for e in exchanges:
        if e.get("shared"):
            continue  # logged again for a test that judged it, sent once
        end = float(e["t"])
        spans.setdefault(int(e.get("pid") or 0), []).append((end - float(e.get("ms") or 0) / 1000, end))
    per: dict[int, float] = {}
    alone = 0
    for pid, iv in spans.items():
        iv.sort()
        in_flight, start, end = 0.0, iv[0][0], iv[0][1]
        alone += 1
        for s, e in iv[1:]:
            if s > end:
                in_flight += end - start
                start, end = s, e
                alone += 1
            else:
                end = max(end, e)
        in_flight += end - start
        mean = sum(e - s for s, e in iv) / len(iv)
        per[pid] = in_flight / mean if mean > 0 else float(len(iv))
    total = sum(per.values())
    workers = sorted((round(n) for n in per.values()), reverse=True)
    busiest = workers[0] if workers else 0
    return (f"round trips one after another (time with a request in flight / mean time of a request, per process): "
            f"{total:.0f} for {sum(len(v) for v in spans.values())} requests ({alone} of them sent with none other of "
            f"their process in flight: a read-ahead counts once); the busiest processes {workers[:jobs]}; "
            f"{total:.0f} x {delay_ms} ms / {jobs} workers = {total * delay_ms / 1000 / max(1, jobs):.1f} s; "
            f"the busiest alone waits {busiest} x {delay_ms} ms = {busiest * delay_ms / 1000:.1f} s")


def processes_of(tree: TreeCPU, probe_dir: Path, root: int) -> str:
    """Every process of the run with its CPU, named by role where the bench knows it (the pytest processes from
    their probe files; the rest by command line): where the kit's CPU outside the tests goes."""
    workers = {}
    for f in probe_dir.glob("probe-*.json"):
        parts = f.stem.split("-")
        workers[int(parts[-1])] = f"pytest {parts[1]}"
    lines = [f"{'pid':>8} {'parent':>8} {'CPU s':>6}  process"]
    for pid, ppid, label, cmd, cpu in tree.per_process():
        if cpu < 0.05:
            continue
        role = "qaconform run" if pid == root else workers.get(pid, cmd)
        lines.append(f"{pid:>8} {ppid:>8} {cpu:>6.2f}  {label}: {role}")
    return "\n".join(lines)


def one_run(delay_ms: int, jobs: int | None, seed: int, timeout_s: float, work: Path,
            only: list[str] | None = None, requests_table: bool = False, cpu: bool = False) -> Run:
    label = "serial" if jobs == 1 else "parallel"
    work = Path(tempfile.mkdtemp(prefix=f"{delay_ms}-{label}-", dir=work))  # one folder per run (--repeat)
    probe = work / f"probe-{delay_ms}-{label}"
    probe.mkdir(parents=True)
    with ReferenceServer() as srv, DelayProxy(srv.url, delay_ms / 1000) as proxy:
        text = Path(srv.profile_path).read_text(encoding="utf-8").replace(f'"{srv.url}"', f'"{proxy.url}"')
        profile = work / f"profile-{delay_ms}-{label}.toml"
        profile.write_text(text, encoding="utf-8")
        out = work / f"out-{delay_ms}-{label}"
        cmd = [sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", str(profile), "--out", str(out),
               "--seed", str(seed)]
        if jobs is not None:
            cmd += ["--jobs", str(jobs)]
        if only:
            cmd += ["--only", *only]
        env = dict(os.environ, PYTEST_ADDOPTS="-p qc_bench_probe", QC_BENCH_PROBE_DIR=str(probe),
                   PYTHONPATH=os.pathsep.join([str(ROOT / "bench"), os.environ.get("PYTHONPATH", "")]))
        env.pop("PYTEST_CURRENT_TEST", None)
        log = work / f"exchanges-{delay_ms}-{label}"
        if requests_table:  # the client's exchange log (request_table.py): a line per request, off unless asked
            env[EXCHANGE_LOG] = str(log)
        proxy.stats.reset()
        began, launched, cpu0 = time.monotonic(), time.time(), time.process_time()
        server_pid = srv._proc.pid if srv._proc is not None else os.getpid()
        with subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              stdin=subprocess.DEVNULL) as running, \
                TreeCPU({"kit": running.pid, "reference server": server_pid}) as tree:
            try:
                stdout, stderr = running.communicate(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                running.kill()
                raise SystemExit(f"qaconform run took more than {timeout_s:g}s") from None
        proc = subprocess.CompletedProcess(cmd, running.returncode, stdout, stderr)
        wall, ended = time.monotonic() - began, time.time()
        proxy_cpu = time.process_time() - cpu0 - tree.own_cpu
        load = os.getloadavg()
        stats = proxy.stats
        requests, in_flight, per_second = stats.requests, stats.max_in_flight, stats.max_per_second()
    folders = [p for p in out.iterdir() if p.is_dir()] if out.is_dir() else []
    report_path = folders[0] / "report.json" if folders else None
    if report_path is None or not report_path.is_file():
        raise SystemExit(f"qaconform run wrote no report (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n"
                         f"{proc.stderr[-2000:]}")
    report = json.loads(report_path.read_text())
    ran_jobs = int((report.get("execution") or {}).get("jobs") or 1)
    verdicts = {r["id"]: r["status"] for r in report["rules"]}
    first, last = test_span(probe)
    table = None
    if requests_table:
        exchanges = read_log(log)
        table = render(tabulate(exchanges, rules_of(report))) + "\n" + rounds_of(exchanges, delay_ms, ran_jobs)
    cpu_table = None
    if cpu:  # this process's CPU is the proxy's: it competes with the kit for the cores, a real network would not
        every = tree.totals()
        every["delaying proxy (this process)"] = proxy_cpu
        total = sum(every.values())
        cpu_table = (f"{cpu_of(probe, requests)}\nCPU of the bench process (the delaying proxy): {proxy_cpu:.1f} s, "
                     f"{1000 * proxy_cpu / max(1, requests):.2f} ms per request\n"
                     f"CPU of every process of the run: {total:.1f} s ("
                     + ", ".join(f"{k} {v:.1f}" for k, v in sorted(every.items(), key=lambda kv: -kv[1]))
                     + f"); on {os.cpu_count()} CPUs no run can end before {total / max(1, os.cpu_count() or 1):.1f} s"
                     + _kit_floor(every)
                     + "\nthe processes (CPU at least 0.05 s):\n" + processes_of(tree, probe, running.pid)
                     + "\n" + balance_of(probe, launched, delay_ms))
    return Run(delay_ms, label, ran_jobs, wall, requests, chain_of(probe, before_tests=1), in_flight, per_second,
               proc.returncode, verdicts, load, startup_s=first - launched, tail_s=ended - last, requests_table=table,
               cpu_table=cpu_table, notes=[_verdict_counts(report)])


def _verdict_counts(report: dict[str, Any]) -> str:
    """The run's rules by verdict, its tests and accepted writes, in one line (a pair compares them, speed23)."""
    counts: dict[str, int] = {}
    for r in report["rules"]:
        counts[str(r["status"])] = counts.get(str(r["status"]), 0) + 1
    writes = (report.get("writes") or {}).get("accepted")
    return (f"rules {', '.join(f'{n} {k}' for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))}; "
            f"{len(report.get('tests') or [])} test results; {writes} accepted writes")


def _kit_floor(every: dict[str, float]) -> str:
    """The floor of the kit's own CPU: against a real remote target the reference server's and this proxy's CPU are
    another machine's, so only the kit's processes share this machine's cores (issue 44, speed4: whether 20 s at
    +25 ms is within reach of the kit on 2 cores at all)."""
    kit = sum(v for k, v in every.items() if k.startswith("kit"))
    cpus = max(1, os.cpu_count() or 1)
    return f"; the kit alone ({kit:.1f} s) no sooner than {kit / cpus:.1f} s"


def fmt_row(r: Run) -> str:
    ratio = f"{r.ratio:.2f}x" if r.ratio is not None else "-"
    same = {None: "(reference)", True: "same", False: "DIFFERENT"}[r.same_as_serial]
    return (f"{r.delay_ms:>5} ms  {r.label:<8} {r.jobs:>4}  {r.wall_s:>7.1f}  {r.requests:>8}  {r.chain:>5}  "
            f"{r.floor_s:>7.1f}  {ratio:>10}  {same:<11} {r.max_in_flight:>9}  {r.max_per_second:>6}  "
            f"{r.startup_s:>7.1f}  {r.tail_s:>6.1f}   exit {r.exit_code}   load {r.load[0]:.1f}")


HEADER = ("delay    run      jobs   wall s  requests  chain  floor s  wall/floor  verdicts    in flight  max/s  "
          "first s  tail s   (exit, 1-min load average after the run)")


def fmt_spread(runs: list[Run]) -> str:
    """The median and range of each figure of repeated parallel runs at one delay, and how many kept the serial
    run's verdicts."""
    def spread(values: list[float], unit: str, digits: int = 1) -> str:
        if not values:  # wall/floor at 0 ms: no floor, no ratio
            return "-"
        return (f"median {statistics.median(values):.{digits}f}{unit} "
                f"({min(values):.{digits}f}-{max(values):.{digits}f})")

    ratios = [r.ratio for r in runs if r.ratio is not None]
    same = [r.same_as_serial for r in runs if r.same_as_serial is not None]
    verdicts = f"; the serial run's verdicts in {sum(same)} of {len(same)}" if same else ""
    return (f"{runs[0].delay_ms:>5} ms  {len(runs)} parallel runs: wall {spread([r.wall_s for r in runs], ' s')}, "
            f"wall/floor {spread(ratios, 'x', 2)}, first test {spread([r.startup_s for r in runs], ' s')}, "
            f"tail {spread([r.tail_s for r in runs], ' s')}{verdicts}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--delays", default="0,25,50", help="milliseconds added to every request (default 0,25,50)")
    ap.add_argument("--jobs", type=int, default=None,
                    help="workers of the parallel run (default: what `qaconform run` chooses for a profile target)")
    ap.add_argument("--seed", type=int, default=20261123, help="seed of the generated tests, the same in every run")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds any one run may take (default 600)")
    ap.add_argument("--parallel-only", action="store_true", help="skip the serial runs (no verdict comparison)")
    ap.add_argument("--only", nargs="+", metavar="AREA|RULE", default=None,
                    help="a part of the suites, as `qaconform run --only` takes it (default: all of them)")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="run the parallel run N times at each delay and print the median of each figure with its "
                         "range (this machine's speed moves between runs by more than a change of the kit does)")
    ap.add_argument("--requests", action="store_true",
                    help="also print where each parallel run's requests went: per suite file and rule, reads and "
                         "writes, repeated reads (bench/request_table.py; the log costs a little time per request)")
    ap.add_argument("--cpu", action="store_true",
                    help="also print where each parallel run's CPU went: the pytest processes before their first "
                         "test and in each suite file, per request; and the worker balance: each worker's span, "
                         "its idle time before the last test ended, the longest units of work")
    args = ap.parse_args()
    try:
        delays = [int(d) for d in re.split(r"[,\s]+", args.delays.strip()) if d]
    except ValueError:
        print(f"--delays {args.delays!r}: give milliseconds separated by commas, like 0,25,50", file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 2:
        print("--jobs: the parallel run needs 2 or more workers", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="qaconform-bench-run-"))
    print(f"qaconform run against the reference server behind a delaying proxy; {os.cpu_count()} CPUs, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start", flush=True)
    print(HEADER, flush=True)
    runs: list[Run] = []
    try:
        for delay in delays:
            serial = None
            if not args.parallel_only:
                serial = one_run(delay, 1, args.seed, args.timeout, work, args.only)
                print(fmt_row(serial), flush=True)
                runs.append(serial)
            repeated = []
            for _ in range(max(1, args.repeat)):
                par = one_run(delay, args.jobs, args.seed, args.timeout, work, args.only, args.requests, args.cpu)
                if serial is not None:
                    par.same_as_serial = par.verdicts == serial.verdicts
                    if not par.same_as_serial:
                        differ = {k: (serial.verdicts.get(k), v) for k, v in par.verdicts.items()
                                  if serial.verdicts.get(k) != v}
                        par.notes.append(f"verdicts (serial, parallel) differ: {differ}")
                print(fmt_row(par), flush=True)
                for note in par.notes:
                    print(f"         {note}", flush=True)
                if par.requests_table:
                    print(f"\n{par.requests_table}\n", flush=True)
                if par.cpu_table:
                    print(f"\n{par.cpu_table}\n", flush=True)
                runs.append(par)
                repeated.append(par)
            if len(repeated) > 1:
                print(fmt_spread(repeated), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    pairs = [(s, p) for s in runs for p in runs if s.label == "serial" and p.label == "parallel"
             and s.delay_ms == p.delay_ms]
    for s, p in pairs:
        print(f"{p.delay_ms} ms: parallel / serial wall time {p.wall_s / s.wall_s:.2f}")
    return 0 if all(r.same_as_serial is not False for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
