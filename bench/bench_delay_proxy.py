"""What bench/delay_proxy.py costs and whether it delays as it says: the proxy's CPU per request, and the delay added
to a round trip, alone and on several connections at once.

Why: the proxy runs on the kit's machine and simulates a network that costs that machine nothing; its CPU competes
with the kit's processes on few cores and makes bench/bench_run.py pessimistic. CPU is measured, not wall time, so the
figure holds on a shared machine (more or less: a loaded machine's caches make every wake-up dearer): the proxy runs
in a process of its own (``--serve``), which reports its CPU time (user and system) around the workload.

Workloads, against the embedded reference server through the proxy at ``--delay`` ms: ``run`` (a serial
``qaconform run --only AREA ...``: the kit's own mix of reads and writes, about 45 s for paging) and ``gets``
(``--requests`` keep-alive GETs of a question list, from ``--connections`` threads). Then: the median round trip
of 20 serial GETs without and with the proxy (the difference must be at least the delay), and ``--connections``
connections sending 10 GETs each at once (held at the same time, they take about 10 round trips, not 10 x connections
delays, and all are in flight at once).

Run: python bench/bench_delay_proxy.py [--workload run|gets] [--requests 2000] [--connections 5] [--delay 25]
[--only paging] [--proxy-dir DIR: another delay_proxy.py to measure, e.g. an older one]. Everything listens on
127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qaconform.contract import API_PREFIX  # noqa: E402

LIST = API_PREFIX + "/question.json?pageSize=5"


def serve(proxy_dir: str, upstream: str, delay_s: float) -> int:
    """The proxy in this process: prints its URL, then answers commands on stdin (``reset``: start counting,
    ``report``: CPU and requests since then, as JSON) until stdin closes."""
    sys.path.insert(0, proxy_dir)
    from delay_proxy import DelayProxy

    with DelayProxy(upstream, delay_s) as proxy:
        print(proxy.url, flush=True)
        cpu0 = os.times()
        for line in sys.stdin:
            if line.strip() == "reset":
                proxy.stats.reset()
                cpu0 = os.times()
                print("ok", flush=True)
            elif line.strip() == "report":
                s, cpu = proxy.stats, os.times()
                print(json.dumps({"user_s": cpu.user - cpu0.user, "sys_s": cpu.system - cpu0.system,
                                  "cpu_s": cpu.user + cpu.system - cpu0.user - cpu0.system, "requests": s.requests,
                                  "max_in_flight": s.max_in_flight, "answers": sum(s.answers.values())}), flush=True)
    return 0


class Served:
    """A proxy process (``--serve``) and its commands."""

    def __init__(self, proxy_dir: str, upstream: str, delay_s: float) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve", proxy_dir, upstream, str(delay_s)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            self.proc.kill()
            raise SystemExit(f"the proxy did not start: {self.url!r}")

    def ask(self, command: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def gets(url: str, count: int, connections: int) -> list[float]:
    """``count`` GETs spread over ``connections`` keep-alive connections at once; the round trips, in seconds."""
    host, port = url.removeprefix("http://").split(":")
    times: list[float] = []
    lock = threading.Lock()

    def one_connection(n: int) -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        mine = []
        for _ in range(n):
            t0 = time.monotonic()
            conn.request("GET", LIST)
            resp = conn.getresponse()
            resp.read()
            mine.append(time.monotonic() - t0)
            if resp.status != 200:
                raise SystemExit(f"GET {LIST}: {resp.status}")
        conn.close()
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=one_connection, args=(count // connections + (i < count % connections),))
               for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    return times


def kit_run(profile_text: str, proxy_url: str, upstream: str, only: list[str]) -> int:
    """A serial `qaconform run --only ...` through the proxy; its exit code."""
    with tempfile.TemporaryDirectory(prefix="qaconform-bench-proxy-") as work:
        profile = Path(work) / "profile.toml"
        profile.write_text(profile_text.replace(f'"{upstream}"', f'"{proxy_url}"'), encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
        done = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", str(profile),
                               "--out", str(Path(work) / "out"), "--jobs", "1", "--seed", "20261123", "--only", *only],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
        return done.returncode


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--serve":
        return serve(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workload", choices=("run", "gets"), default="run",
                    help="a serial qaconform run --only AREA (default) or --requests GETs")
    ap.add_argument("--requests", type=int, default=2000, help="GETs of the gets workload (default 2000)")
    ap.add_argument("--connections", type=int, default=5, help="connections at once (default 5)")
    ap.add_argument("--delay", type=float, default=25.0, help="the proxy's delay in ms for the checks (default 25)")
    ap.add_argument("--only", nargs="+", default=["paging"], help="areas of the run workload (default paging)")
    ap.add_argument("--proxy-dir", default=str(ROOT / "bench"), help="the folder of the delay_proxy.py to measure")
    args = ap.parse_args()
    if args.requests < 1 or args.connections < 1 or args.delay < 0:
        print("bench_delay_proxy: --requests and --connections must be 1 or more, --delay 0 or more", file=sys.stderr)
        return 2
    from qaconform.reference import ReferenceServer

    with ReferenceServer() as srv:
        proxy = Served(args.proxy_dir, srv.url, args.delay / 1000)
        try:
            proxy.ask("reset")
            if args.workload == "gets":
                gets(proxy.url, args.requests, args.connections)
                what = f"{args.requests} GETs on {args.connections} connections"
            else:
                code = kit_run(Path(srv.profile_path).read_text(encoding="utf-8"), proxy.url, srv.url, args.only)
                what = f"qaconform run --jobs 1 --only {' '.join(args.only)} (exit {code})"
            r = json.loads(proxy.ask("report"))
        finally:
            proxy.close()
        print(f"{args.proxy_dir}/delay_proxy.py, {what}: {r['requests']} requests, proxy CPU {r['cpu_s']:.2f} s "
              f"(user {r['user_s']:.2f}, system {r['sys_s']:.2f}), {1000 * r['cpu_s'] / max(1, r['requests']):.3f} ms "
              "per request")

        delay_s = args.delay / 1000
        direct = statistics.median(gets(srv.url, 20, 1))
        proxy = Served(args.proxy_dir, srv.url, delay_s)
        try:
            through = statistics.median(gets(proxy.url, 20, 1))
            proxy.ask("reset")
            began = time.monotonic()
            gets(proxy.url, 10 * args.connections, args.connections)
            wall = time.monotonic() - began
            r = json.loads(proxy.ask("report"))
        finally:
            proxy.close()
        added = through - direct
        print(f"delay {args.delay:g} ms: median round trip {1000 * direct:.1f} ms direct, {1000 * through:.1f} ms "
              f"through the proxy: +{1000 * added:.1f} ms ({'honoured' if added >= delay_s else 'NOT honoured'})")
        print(f"{args.connections} connections x 10 GETs at once: {wall:.2f} s (held one after another: at least "
              f"{10 * args.connections * delay_s:.2f} s), at most {r['max_in_flight']} in flight")
        return 0 if added >= delay_s and r["max_in_flight"] == args.connections else 1


if __name__ == "__main__":
    sys.exit(main())
