"""A pytest plugin loaded only by bench/bench_run.py (``-p qc_bench_probe`` through PYTEST_ADDOPTS): counts the HTTP
requests each test sends, so that the bench can print the longest chain of requests that must follow one another.

Every request of the kit goes through ``qaconform.target.transport.Transport.send`` (and any that schemathesis
makes itself through ``requests.adapters.HTTPAdapter.send``); the count between the start and the
end of a test's protocol (setup, call, teardown) is that test's, session fixtures included (a worker makes them
before the first test that needs them, so they are part of that test's chain). Requests made before the first test
(on an xdist controller: the preflight it makes before any worker starts) are the process's start-up. One JSON
file per process in ``$QC_BENCH_PROBE_DIR``.

It also records CPU seconds (``time.process_time``: this process, every thread): before the first test and in each
test. On a small machine the kit's own CPU, not the target's latency, can set the floor of a run; these figures say
where that CPU goes (bench_run.py --cpu). With ``QC_BENCH_PROFILE=<folder>`` each xdist worker also runs cProfile
(CPU time) from this plugin's import (after the fork, at the start of its configuration) to its first test and
writes ``start-<worker>-<pid>.prof`` there: where a worker's CPU before its first test goes. Only workers: a
controller profiled to its end (it runs no test) made a whole run ten times slower. With
``QC_BENCH_PROFILE_TESTS=<folder>`` one worker (``QC_BENCH_PROFILE_WORKER``, default gw0; ``all``: each) runs
cProfile from its first test to its end and writes ``tests-<worker>-<pid>.prof``: where the CPU of the tests goes
(every worker profiled at a load near 13 took more than bench_run's 600 s: profile one or two). cProfile inflates
code of many small calls (pytest's fixtures, execnet's serializer) several times over;
``QC_BENCH_SAMPLE_TESTS=<folder>`` instead samples each worker's main thread every 2 ms of the process's CPU
(``ITIMER_PROF``) from its first test to its end and writes ``samples-<worker>-<pid>.json``: per code area, the
samples where it was running (self) and where it was on the stack (inclusive).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from requests.adapters import HTTPAdapter

from qaconform.target.transport import Transport

_lock = threading.Lock()
_count = [0]


def _counting(send: Any) -> Any:
    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        with _lock:
            _count[0] += 1
        return send(self, *args, **kwargs)
    return counted


Transport.send = _counting(Transport.send)  # type: ignore[method-assign]
HTTPAdapter.send = _counting(HTTPAdapter.send)  # type: ignore[method-assign]

_profile: Any = None
if os.environ.get("QC_BENCH_PROFILE") and os.environ.get("PYTEST_XDIST_WORKER"):
    import cProfile

    _profile = cProfile.Profile(time.process_time)
    _profile.enable()


def _dump_profile(config: pytest.Config) -> None:
    global _profile
    if _profile is None:
        return
    _profile.disable()
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    _profile.dump_stats(str(Path(os.environ["QC_BENCH_PROFILE"], f"start-{worker}-{os.getpid()}.prof")))
    _profile = None


_tests_profile: Any = None


def _start_tests_profile(config: pytest.Config) -> None:
    """cProfile (CPU time) of one worker's tests: ``QC_BENCH_PROFILE_TESTS``, from its first test to its end."""
    global _tests_profile
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    chosen = os.environ.get("QC_BENCH_PROFILE_WORKER", "gw0")
    if not os.environ.get("QC_BENCH_PROFILE_TESTS") or chosen not in (worker, "all"):
        return
    import cProfile

    _tests_profile = cProfile.Profile(time.process_time)
    _tests_profile.enable()


def _dump_tests_profile(config: pytest.Config) -> None:
    global _tests_profile
    if _tests_profile is None:
        return
    _tests_profile.disable()
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    _tests_profile.dump_stats(str(Path(os.environ["QC_BENCH_PROFILE_TESTS"], f"tests-{worker}-{os.getpid()}.prof")))
    _tests_profile = None


_samples: dict[str, dict[str, int]] = {"self": {}, "inclusive": {}, "function": {}}


def _area(filename: str) -> str:
    """A code area of a sample: a package under site-packages, the kit's folder/module, or the standard library."""
    if "site-packages/" in filename:
        return filename.split("site-packages/", 1)[1].split("/", 1)[0]
    for top in ("/qaconform/", "/suites/", "/bench/"):
        if top in filename:
            rest = filename.rsplit(top, 1)[1]
            return top.strip("/") + "/" + rest.split("/", 1)[0]
    if filename == "<string>":  # execnet's serializer (sent to the worker as source), dataclasses' __init__
        return "<string>"
    return "stdlib"


def _sample(signum: int, frame: Any) -> None:
    if frame is None:
        return
    counts = _samples
    top = frame.f_code
    area = _area(top.co_filename)
    counts["self"][area] = counts["self"].get(area, 0) + 1
    name = f"{area}:{top.co_name}"
    counts["function"][name] = counts["function"].get(name, 0) + 1
    seen = set()
    f = frame
    while f is not None:
        seen.add(_area(f.f_code.co_filename))
        f = f.f_back
    for a in seen:
        counts["inclusive"][a] = counts["inclusive"].get(a, 0) + 1


def _start_sampling() -> None:
    if not os.environ.get("QC_BENCH_SAMPLE_TESTS") or not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    import gc
    import signal

    gc.callbacks.append(_gc_timer)
    signal.signal(signal.SIGPROF, _sample)
    signal.setitimer(signal.ITIMER_PROF, 0.002, 0.002)


def _dump_samples(config: pytest.Config) -> None:
    folder = os.environ.get("QC_BENCH_SAMPLE_TESTS")
    if not folder or not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    import signal

    signal.setitimer(signal.ITIMER_PROF, 0, 0)
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    Path(folder, f"samples-{worker}-{os.getpid()}.json").write_text(json.dumps({**_samples, "gc": _gc}))


_gc: dict[str, Any] = {"s": 0.0, "by_generation": [0, 0, 0], "began": None}
"""This process's time in the garbage collector (``gc.callbacks``, CPU seconds) and its collections per generation,
from its first test to its end: with QC_BENCH_SAMPLE_TESTS."""


def _gc_timer(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc["began"] = time.process_time()
    elif _gc["began"] is not None:
        _gc["s"] += time.process_time() - _gc["began"]
        _gc["by_generation"][int(info.get("generation", 0))] += 1
        _gc["began"] = None


_tests: list[dict[str, Any]] = []
_startup: list[int] = []
_startup_cpu: list[float] = []
"""This process's CPU seconds before its first test (interpreter start, plugins, collection, session set-up)."""


def _group(item: pytest.Item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return None
    return str(mark.args[0] if mark.args else mark.kwargs.get("name"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    if not _startup:
        _startup.append(_count[0])
        _startup_cpu.append(time.process_time())
        _dump_profile(item.config)
        _start_tests_profile(item.config)
        _start_sampling()
    before, began, cpu = _count[0], time.time(), time.process_time()
    yield
    _tests.append({"nodeid": item.nodeid, "group": _group(item), "requests": _count[0] - before,
                   "start": began, "stop": time.time(), "cpu": time.process_time() - cpu})


def _process_start() -> float:
    """When this process began (the timeline of a run: how long each worker took to start its first test)."""
    import psutil

    return float(psutil.Process().create_time())


def pytest_sessionfinish(session: pytest.Session) -> None:
    _dump_profile(session.config)  # a worker that ran no test: its whole session
    _dump_tests_profile(session.config)
    _dump_samples(session.config)
    folder = os.environ.get("QC_BENCH_PROBE_DIR")
    if not folder or not (_tests or _count[0]):
        return  # an xdist controller runs no test, but its preflight counts
    worker = getattr(session.config, "workerinput", {}).get("workerid", "main")
    payload = {"worker": worker, "startup": _startup[0] if _startup else 0, "total": _count[0], "tests": _tests,
               "process_start": _process_start(), "end": time.time(),
               "startup_cpu": _startup_cpu[0] if _startup_cpu else time.process_time(), "cpu": time.process_time()}
    Path(folder, f"probe-{worker}-{os.getpid()}.json").write_text(json.dumps(payload))
