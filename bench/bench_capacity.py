"""The capacity search against targets of known capacity: the reference server behind bench/capped_proxy.py, which
serves at most N requests/s with a fixed service time and queues the rest, at 300 and 1,200 req/s. For each, two
searches (`qaconform capacity -s browse` with default options: 5 % precision, 180 s budget) and their answers, the
error against N, the time each took, and whether the two agree within 5 %.

Run: python bench/bench_capacity.py [--rates 300 1200] [--runs 2] [--max-time 180] [--service-ms 2] [--canned]
     python bench/bench_capacity.py --generator-limited   (a search the load generator limits: a fast target)
     python bench/bench_capacity.py --self [--hog] [--slower 20]   (issue 45's hard case: the reference server
     itself, twice, then made slower; the verdicts of comparing them, in both orders; --hog keeps one core busy)
About 6 minutes per rate with the defaults. On a 2-core machine the reference server itself serves about 500 req/s
of browse (measured: 513 behind a 1,200 req/s cap), so 1,200 is measured with --canned (the proxy answers itself):
python bench/bench_capacity.py --rates 300 && python bench/bench_capacity.py --rates 1200 --canned.
Everything listens on 127.0.0.1 and every step is bounded; the proxy
and the server are processes of their own (the proxy's event loop would otherwise share the GIL with nothing, but
the bench's own waiting must not disturb it). Locust runs only in child processes of `qaconform capacity`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qaconform.reference import ReferenceServer  # noqa: E402
from qaconform.reference.profile_out import password_env  # noqa: E402

PROXY = Path(__file__).resolve().parent / "capped_proxy.py"
READY = "capped proxy listening on "


def start_proxy(upstream: str | None, rps: float, service_ms: float,
                max_s: float) -> tuple[subprocess.Popen[str], str]:
    where = ["--upstream", upstream] if upstream else ["--canned"]
    proc = subprocess.Popen([sys.executable, str(PROXY), *where, "--rps", str(rps), "--service-ms", str(service_ms),
                             "--max-s", str(max_s)], stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith(READY):
        proc.kill()
        raise SystemExit(f"the capped proxy did not start: {line!r}")
    return proc, line[len(READY):].strip()


def stop(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, 9)


def search(profile: Path, out: Path, max_time: float, extra: list[str]) -> tuple[dict[str, Any], float, str]:
    cmd = [sys.executable, "-m", "qaconform.commands.cli", "capacity", "--profile", str(profile), "-s", "browse",
           "--max-time", str(max_time), "--out", str(out), *extra]
    started = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=max_time + 120)
    took = time.monotonic() - started
    path = out / "capacity.json"
    if not path.is_file():
        raise SystemExit(f"qaconform capacity failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return json.loads(path.read_text())["scenarios"]["browse"], took, proc.stdout


def bench_rate(server: ReferenceServer, rps: float, args: argparse.Namespace, tmp: Path) -> list[float | None]:
    proxy, url = start_proxy(None if args.canned else server.url, rps, args.service_ms,
                             args.runs * (args.max_time + 150))
    answers: list[float | None] = []
    try:
        profile = tmp / f"capped-{rps:g}.toml"
        profile.write_text(Path(server.profile_path).read_text().replace(server.url, url))
        for i in range(args.runs):
            load0 = os.getloadavg()[0]
            r, took, _ = search(profile, tmp / f"cap-{rps:g}-{i + 1}", args.max_time, [])
            found = r["capacity_rps"]
            answers.append(found)
            err = f"{(found / rps - 1) * 100:+.1f} %" if found else "-"
            kinds = [s["kind"] for s in r["steps"]]
            print(f"  target {rps:g} req/s, run {i + 1}: {found if found is not None else 'nothing'} req/s "
                  f"({err}), {'lower bound' if r['lower_bound'] else 'confirmed'}, between {r['between']}, "
                  f"{len(kinds)} steps of {r['step_duration_s']:g} s, {took:.0f} s; limited by "
                  f"{r['limited_by']['kind']}; load average {load0:.2f}", flush=True)
    finally:
        stop(proxy)
    ok = [a for a in answers if a]
    if len(ok) == len(answers) and len(ok) >= 2:
        spread = (max(ok) / min(ok) - 1) * 100
        within = all(abs(a / rps - 1) <= 0.05 for a in ok)
        print(f"  target {rps:g}: answers {', '.join(f'{a:g}' for a in ok)}; spread {spread:.1f} % "
              f"({'agree' if spread <= 5 else 'DISAGREE'} within 5 %); all within ±5 % of the truth: {within}")
    return answers


def generator_limited(server: ReferenceServer, tmp: Path, max_time: float) -> None:
    """A target the generator cannot saturate (the proxy's canned answers, no cap worth the name): the search must
    say the generator was the limit and how many workers it would take."""
    proxy, url = start_proxy(None, 100000, 0.0, max_time + 150)
    try:
        profile = tmp / "fast.toml"
        profile.write_text(Path(server.profile_path).read_text().replace(server.url, url))
        _, took, stdout = search(profile, tmp / "cap-generator", max_time, [])
        print(f"  generator-limited search ({took:.0f} s) printed:\n" + "\n".join("    " + x for x in
                                                                               stdout.splitlines()))
    finally:
        stop(proxy)


def start_hog() -> subprocess.Popen[bytes]:
    """A CPU hog on one core (the last): the busy shared runner a capacity comparison has to hold still on."""
    last = max(os.sched_getaffinity(0))
    code = f"import os; os.sched_setaffinity(0, {{{last}}})\nwhile True: pass"
    return subprocess.Popen([sys.executable, "-c", code], start_new_session=True)


def serve(tmp: Path, name: str, work_us: float = 0.0) -> tuple[subprocess.Popen[bytes], Path]:
    """The reference server in a process of its own (``--work-us``: the same server made slower)."""
    profile = tmp / f"{name}.toml"
    os.environ.update(password_env())  # the profile names the demo passwords' variables; the runs read them
    proc = subprocess.Popen([sys.executable, "-m", "qaconform.commands.cli", "serve", "--port", "0", "--profile-out",
                             str(profile), "--work-us", str(work_us)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while not profile.is_file() and time.monotonic() < deadline:
        time.sleep(0.2)
    if not profile.is_file():
        stop(proc)  # type: ignore[arg-type]
        raise SystemExit("the reference server did not start")
    time.sleep(0.5)
    return proc, profile


def self_capacity(args: argparse.Namespace, tmp: Path) -> None:
    """The hard case of issue 45: a target whose capacity is the machine's (the reference server on the same cores),
    measured twice (no regression may be reported either way), then the same server made slower by about
    ``--slower`` percent (a regression, or "cannot tell at this noise" where the noise is larger: never "ok")."""
    from qaconform.report.capacity_diff import compare_capacity, compare_text

    reports: dict[str, dict[str, Any]] = {}
    for name, work in (("A", 0.0), ("B", 0.0), ("slower", None)):
        if work is None:  # a request's share of the server's CPU: from the answers so far, what 20 % fewer takes
            found = [x["scenarios"]["browse"]["capacity_rps"] for x in reports.values()]
            best = max((f for f in found if f), default=None)
            if best is None:
                print("  no answer held to make a known slowdown of: raise --max-time", flush=True)
                break
            work = (1 / (best * (1 - args.slower / 100)) - 1 / best) * 1e6
        proc, profile = serve(tmp, f"self-{name}", work)
        try:
            r, took, _ = search(profile, tmp / f"cap-self-{name}", args.max_time, [])
        finally:
            stop(proc)  # type: ignore[arg-type]
        reports[name] = json.loads((tmp / f"cap-self-{name}" / "capacity.json").read_text())
        iv = r.get("interval") or {}
        print(f"  reference server {name}{f' (+{work:.0f} µs of CPU a request)' if work else ''}: "
              f"{r['capacity_rps']} req/s, interval {iv.get('lower')}..{iv.get('upper')} (noise ±{iv.get('noise_pct')} "
              f"%), {'lower bound' if r['lower_bound'] else 'confirmed'}, {took:.0f} s, limited by "
              f"{r['limited_by']['kind']}; load average {os.getloadavg()[0]:.2f}", flush=True)
    for a, b in (("A", "B"), ("B", "A"), ("A", "slower")):
        if b not in reports:
            continue
        changes = compare_capacity(reports[a], reports[b], args.tolerance)
        print(f"  {a} -> {b}: " + compare_text(changes, args.tolerance), flush=True)


def _target_text(args: argparse.Namespace) -> str:
    if args.self_capacity:
        return "the reference server itself"
    return "the proxy alone (canned answers)" if args.canned else "the reference server behind the proxy"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rates", type=float, nargs="+", default=[300.0, 1200.0], help="known capacities (req/s)")
    ap.add_argument("--runs", type=int, default=2, help="searches per rate (default 2)")
    ap.add_argument("--max-time", type=float, default=180.0, help="each search's --max-time (default 180)")
    ap.add_argument("--service-ms", type=float, default=2.0, help="the proxy's fixed service time (default 2)")
    ap.add_argument("--generator-limited", action="store_true", help="only the generator-limited search")
    ap.add_argument("--hog", action="store_true", help="run a CPU hog on one core for the whole bench (a busy CI "
                    "runner)")
    ap.add_argument("--self", dest="self_capacity", action="store_true", help="the reference server itself (no "
                    "proxy), twice, then made slower by --slower percent: the verdicts of comparing them")
    ap.add_argument("--slower", type=float, default=20.0, help="with --self: the slowdown made (default 20 %%)")
    ap.add_argument("--tolerance", type=float, default=5.0, help="with --self: the comparison's tolerance (default 5)")
    ap.add_argument("--canned", action="store_true", help="the proxy answers itself (no reference server behind it): "
                    "the known capacity then holds on a machine too busy for the reference server to make N req/s")
    args = ap.parse_args()
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs; "
          f"target: {_target_text(args)}"
          + ("; a CPU hog on one core" if args.hog else ""),
          flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="qaconform-bench-capacity-"))
    hog = start_hog() if args.hog else None
    try:
        if args.self_capacity:
            self_capacity(args, tmp)
        else:
            with ReferenceServer() as server:
                if args.generator_limited:
                    generator_limited(server, tmp, args.max_time)
                else:
                    for rps in args.rates:
                        bench_rate(server, rps, args, tmp)
    finally:
        if hog is not None:
            stop(hog)  # type: ignore[arg-type]
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; run folders in {tmp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
