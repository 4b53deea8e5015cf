"""Throughput and latency of the reference server, against a bare Starlette app on the same stack.

Prints req/s, p50 and p99 for: a minimal endpoint (a tiny Starlette app on uvicorn, started by this script), GET
question.json page 1 and page 1000 with 10 000 and 1 000 000 nodes, and POST answer. Every scenario is bounded in
time (--duration) and requests; servers listen on 127.0.0.1 only and are stopped at the end.

    python bench/bench_reference.py                 # both sizes, 5 s per scenario
    python bench/bench_reference.py --sizes 10000 --duration 2
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from qaconform.contract import API_PREFIX
from qaconform.reference import ReferenceServer
from qaconform.target.profile import load_profile

MAX_REQUESTS = 200_000


@dataclass
class Result:
    name: str
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        lat = sorted(self.latencies_ms) or [0.0]
        p50 = statistics.median(lat)
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
        return f"{self.name:<52} {self.requests:>7} {self.errors:>6} {self.rate:>9.0f} {p50:>8.2f} {p99:>8.2f}"


HEADER = f"{'scenario':<52} {'requests':>7} {'errors':>6} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}"


def run_load(
    name: str,
    base_url: str,
    request: Callable[[int], tuple[str, str, bytes | None, dict[str, str]]],
    expect: int,
    duration: float,
    concurrency: int,
    prelude: Callable[[int], tuple[str, str, bytes | None, dict[str, str]]] | None = None,
) -> Result:
    """``concurrency`` threads, each with one keep-alive connection, for ``duration`` seconds.

    ``prelude``: a request sent before each measured one and not measured (e.g. a write that empties the caches).
    """
    parts = urlsplit(base_url)
    latencies: list[float] = []
    counts = {"requests": 0, "errors": 0}
    lock = threading.Lock()
    warmup_end = time.monotonic() + min(0.5, duration / 4)
    end = warmup_end + duration

    def worker(n: int) -> None:
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
        mine: list[float] = []
        errors = 0
        i = n
        try:
            while len(mine) < MAX_REQUESTS:
                now = time.monotonic()
                if now > end:
                    break
                if prelude is not None:
                    method, path, body, headers = prelude(i)
                    conn.request(method, path, body=body, headers=headers)
                    conn.getresponse().read()
                method, path, body, headers = request(i)
                i += concurrency
                start = time.perf_counter()
                conn.request(method, path, body=body, headers=headers)
                resp = conn.getresponse()
                resp.read()
                elapsed = (time.perf_counter() - start) * 1000
                if now >= warmup_end:
                    mine.append(elapsed)
                    errors += resp.status != expect
        finally:
            conn.close()
        with lock:
            latencies.extend(mine)
            counts["requests"] += len(mine)
            counts["errors"] += errors

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=duration + 60)
    return Result(name, counts["requests"], counts["errors"], duration, latencies)


PING_PATH = f"{API_PREFIX}/_ping.json"
PING_APP = """
import sys, uvicorn
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route
async def ping(request):
    return Response(b'{"ok":true}', media_type="application/json;charset=UTF-8")
app = Starlette(routes=[Route("__PING_PATH__", ping)])
config = uvicorn.Config(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False,
                        lifespan="off")
uvicorn.Server(config).run()
"""
PING_APP = PING_APP.replace("__PING_PATH__", PING_PATH)


@contextmanager
def ping_server() -> Iterator[str]:
    """The same stack (Starlette on uvicorn) with one constant endpoint: the ceiling for any endpoint."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", PING_APP, str(port)], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("the ping app did not start within 20 s")
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def bench_size(size: int, duration: float, concurrency: int) -> list[Result]:
    t0 = time.monotonic()
    with ReferenceServer(size=size, start_timeout=180) as srv:
        started = time.monotonic() - t0
        profile = load_profile(srv.profile_path)
        acc = profile.accounts["member"]
        token = base64.b64encode(f"{acc.username}:{acc.password}".encode()).decode()
        auth = {"Authorization": f"Basic {token}"}
        qid = profile.fixtures.question_id
        print(f"# {size:,} nodes: started (seeded) in {started:.1f}s", flush=True)

        def get(page: int) -> Callable[[int], tuple[str, str, bytes | None, dict[str, str]]]:
            return lambda i: ("GET", f"{API_PREFIX}/question.json?page={page}", None, auth)

        def post(i: int) -> tuple[str, str, bytes | None, dict[str, str]]:
            body = json.dumps({"body": f"bench answer {i}"}).encode()
            return (
                "POST",
                f"{API_PREFIX}/question/{qid}/answer.json",
                body,
                {**auth, "Content-Type": "application/json"},
            )

        def envelope_of(page: int) -> dict[str, int]:
            conn = http.client.HTTPConnection("127.0.0.1", urlsplit(srv.url).port, timeout=30)
            try:
                conn.request("GET", f"{API_PREFIX}/question.json?page={page}&includeOnly=id", headers=auth)
                body = json.loads(conn.getresponse().read())
            finally:
                conn.close()
            return {k: body[k] for k in ("totalCount", "pageCount", "listCount")}

        info = envelope_of(1000)
        print(
            f"# {size:,} nodes: member sees {info['totalCount']:,} questions in {info['pageCount']:,} pages;"
            f" page 1000 holds {info['listCount']} items"
            + (" (past the last page: an empty list)" if info["listCount"] == 0 else ""),
            flush=True,
        )
        results = [
            run_load(f"GET question.json page=1 ({size:,} nodes) [1]", srv.url, get(1), 200, duration, concurrency),
            run_load(
                f"GET question.json page=1000 ({size:,} nodes) [1]", srv.url, get(1000), 200, duration, concurrency
            ),
            run_load(f"POST answer ({size:,} nodes)", srv.url, post, 201, duration, concurrency),
            run_load(f"GET question.json page=1 after posts ({size:,})", srv.url, get(1), 200, duration, concurrency),
            run_load(f"GET page=1 right after a POST ({size:,}) [2]", srv.url, get(1), 200, duration, 1, post),
            run_load(f"GET page=1000 right after a POST ({size:,}) [2]", srv.url, get(1000), 200, duration, 1, post),
        ]
        for r in results:
            print(r.line(), flush=True)
        return results


def bench_lists(size: int, duration: float, concurrency: int, ping: Result) -> None:
    """Every list operation once, read-only, as its natural caller: req/s against the minimal endpoint's."""
    with ReferenceServer(size=size, start_timeout=180) as srv:
        profile = load_profile(srv.profile_path)

        def auth(role: str) -> dict[str, str]:
            acc = profile.accounts[role]
            return {"Authorization": "Basic " + base64.b64encode(f"{acc.username}:{acc.password}".encode()).decode()}

        member = profile.accounts["member"].id
        conn = http.client.HTTPConnection("127.0.0.1", urlsplit(srv.url).port, timeout=30)
        conn.request("GET", f"{API_PREFIX}/user/{member}/answer.json?pageSize=1&includeOnly=id", headers=auth("admin"))
        answer = json.loads(conn.getresponse().read())["list"][0]["id"]
        conn.close()
        fx = profile.fixtures
        lists = [
            ("/question.json", "member"),
            (f"/user/{member}/answer.json", "member"),
            (f"/user/{member}/question.json", "member"),
            ("/user/retrieveAllExperts.json", "member"),
            ("/user/retrieveEarnedExperts.json", "member"),
            ("/space.json", "member"),
            ("/topic.json", "member"),
            (f"/node/{fx.question_id}/followers.json", "member"),
            ("/group.json", "admin"),
            (f"/answer/{answer}/comment.json", "member"),
            (f"/users/gdpr/{member}/content.json", "admin"),
            (f"/{fx.issue_tracker}/issuetype.json", "member"),
        ]
        print(f"# every list operation, {size:,} nodes, read-only [1]", flush=True)
        def get(path: str, headers: dict[str, str]) -> Callable[[int], tuple[str, str, bytes | None, dict[str, str]]]:
            return lambda i: ("GET", API_PREFIX + path, None, headers)

        for path, role in lists:
            result = run_load(f"GET {path} ({role})", srv.url, get(path, auth(role)), 200, duration, concurrency)
            print(f"{result.line()}  {result.rate / ping.rate:>4.0%}", flush=True)


def _question_list_request(header: bytes, query: str) -> Any:
    """A starlette Request for GET question.json?``query`` with this Authorization header, as the server gets it."""
    from starlette.requests import Request

    return Request({"type": "http", "method": "GET", "path": f"{API_PREFIX}/question.json", "path_params": {},
                    "query_string": query.encode(), "headers": [(b"authorization", header)]})


def _cpu_ms(call: Callable[[], object], calls: int, before: Callable[[int], object]) -> list[float]:
    """The process CPU milliseconds of ``calls`` calls of ``call``, each after ``before(i)`` (not timed); sorted."""
    cpu_ms = []
    for i in range(calls):
        before(i)
        start = time.process_time()
        call()
        cpu_ms.append((time.process_time() - start) * 1000)
    return sorted(cpu_ms)


def bench_handler(size: int, calls: int = 200) -> None:
    """Handler CPU time in this process (no HTTP, no scheduling noise): what the database and rendering cost.

    "warm": the same page again, as under a read-only load (encoded nodes and page bookmarks are reused).
    "after a write": before every call one question becomes the most active (as posting an answer makes it): the
    bookmarks catch up with that change and the changed node is rendered again.
    "cold": both caches emptied before every call (a server just started): every node is rendered and encoded,
    and a deep page is found by an OFFSET walk over the index.
    """
    import asyncio

    from starlette.responses import Response

    from qaconform.reference.db import Database
    from qaconform.reference.node_lists import list_questions
    from qaconform.reference.seed import ACCOUNTS, seed
    from qaconform.reference.service import Service

    db = Database(":memory:")
    seed(db, size)
    svc = Service(db, 15)
    member = next(a for a in ACCOUNTS if a.role == "member")
    header = b"Basic " + base64.b64encode(f"{member.username}:{member.password}".encode())
    loop = asyncio.new_event_loop()
    questions = [r[0] for r in db.all("SELECT id FROM nodes WHERE type = 'question' ORDER BY id DESC LIMIT 5000")]

    async def list_page(query: str) -> Response:
        """The question list as the route table calls it: the caller resolved, then the handler."""
        req = _question_list_request(header, query)
        return await list_questions(svc, req, svc.caller(req))

    def show_page(query: str) -> None:
        loop.run_until_complete(list_page(query))

    def clear_caches(i: int) -> None:
        svc.render.fragments.clear()
        svc.bookmarks.clear()

    def make_most_active(i: int) -> None:
        """What posting an answer does to a question: it becomes the most active."""
        db.conn.execute("UPDATE nodes SET last_active_date = ?, answer_count = answer_count + 1 WHERE id = ?",
                        (4_000_000_000_000 + i, questions[i % len(questions)]))

    before: dict[str, Callable[[int], object]] = {"warm": lambda i: None, "after a write": make_most_active,
                                                  "cold": clear_caches}
    try:
        for query in ("page=1", "page=1000", "page=1000&sort=votes"):
            show_page(query)  # the count is cached after this
            for state, prepare in before.items():
                cpu_ms = _cpu_ms(functools.partial(show_page, query), calls, prepare)
                print(
                    f"handler CPU, question.json?{query:<22} {size:>9,} nodes, {state:>13}:"
                    f" p50 {statistics.median(cpu_ms):.2f} ms, p99 {cpu_ms[int(len(cpu_ms) * 0.99) - 1]:.2f} ms",
                    flush=True,
                )
    finally:
        loop.close()
        db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,1000000", help="comma-separated node counts")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per scenario (max 60)")
    parser.add_argument("--concurrency", type=int, default=4, help="client threads (max 64)")
    parser.add_argument("--no-handler", action="store_true", help="skip the in-process handler CPU measurement")
    args = parser.parse_args(argv)
    duration = min(max(args.duration, 0.5), 60.0)
    concurrency = min(max(args.concurrency, 1), 64)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"# python {sys.version.split()[0]}, {os.cpu_count()} CPUs (load average {load}), {concurrency} client"
        f" threads, {duration:.1f}s per scenario (after 0.5s warm-up)"
    )
    print(HEADER, flush=True)
    with ping_server() as url:
        ping = run_load(
            "GET _ping.json (bare Starlette, same stack)",
            url,
            lambda i: ("GET", PING_PATH, None, {}),
            200,
            duration,
            concurrency,
        )
        print(ping.line(), flush=True)
    for size in sizes:
        results = bench_size(size, duration, concurrency)
        page1, page1000 = (statistics.median(r.latencies_ms or [0.0]) for r in results[:2])
        print(
            f"# {size:,} nodes: page 1 at {results[0].rate / ping.rate:.0%} and page 1000 at"
            f" {results[1].rate / ping.rate:.0%} of the minimal endpoint's req/s (aim: at least 50%);"
            f" page 1000 p50 is {page1000 / page1:.2f}x page 1 (aim: at most 1.5x)",
            flush=True,
        )
    print(
        "# [1] read-only load: nodes come encoded from the cache and deep pages start from a bookmark.\n"
        "# [2] one client, each GET right after a POST answer (not measured): the answered question (with all its"
        " answer ids) is rendered again and the page bookmarks catch up with the write; the cost of a list under"
        " writes. req/s counts the GETs only, over time that includes the POSTs.",
        flush=True,
    )
    bench_lists(min(sizes), min(duration, 2.0), concurrency, ping)
    if not args.no_handler:
        for size in sizes:
            bench_handler(size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
