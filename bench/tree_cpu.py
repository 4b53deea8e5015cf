"""CPU of a set of process trees while a command runs, sampled (psutil) every 0.25 s: what every process of a run
cost, including those whose parent does not wait for them (forked workers' waiters are reaped by the kernel, so
``RUSAGE_CHILDREN`` misses them). Used by bench/bench_run.py --cpu."""

from __future__ import annotations

import threading
import time

import psutil

INTERVAL_S = 0.25


class TreeCPU:
    """Samples the CPU (user + system) of every process under the given roots, by a label per root."""

    def __init__(self, roots: dict[str, int]) -> None:
        self.roots = roots
        self._seen: dict[int, tuple[str, float]] = {}
        self.kinds: dict[int, str] = {}
        """What each process was, as first seen (its command line, shortened; a forked child shows its parent's)."""
        self.parents: dict[int, int] = {}
        self._stop = threading.Event()
        self.own_cpu = 0.0
        self._thread = threading.Thread(target=self._loop, name="tree-cpu", daemon=True)

    def __enter__(self) -> TreeCPU:
        self._base = {pid: self._cpu(pid) for pid in self.roots.values()}  # what a root used before the run
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    @staticmethod
    def _cpu(pid: int) -> float:
        try:
            t = psutil.Process(pid).cpu_times()
            return t.user + t.system
        except psutil.Error:
            return 0.0

    def _sample(self) -> None:
        for label, pid in self.roots.items():
            try:
                root = psutil.Process(pid)
                procs = [root, *root.children(recursive=True)]
            except psutil.Error:
                continue
            for p in procs:
                try:
                    t = p.cpu_times()
                    if p.pid not in self.kinds:
                        self.kinds[p.pid] = " ".join(p.cmdline())[-90:]
                        self.parents[p.pid] = p.ppid()
                except psutil.Error:
                    continue
                self._seen[p.pid] = (label, t.user + t.system - self._base.get(p.pid, 0.0))

    def _loop(self) -> None:
        while not self._stop.wait(INTERVAL_S):
            self._sample()
        self.own_cpu = time.thread_time()
        """This sampler's own CPU (a thread of the caller's process, whose CPU it should not be charged to)."""

    def totals(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for label, cpu in self._seen.values():
            out[label] = out.get(label, 0.0) + cpu
        return out

    def per_process(self) -> list[tuple[int, int, str, str, float]]:
        """Every process seen: pid, parent pid, root label, command line, CPU seconds; the costliest first."""
        rows = [(pid, self.parents.get(pid, 0), label, self.kinds.get(pid, "?"), cpu)
                for pid, (label, cpu) in self._seen.items()]
        return sorted(rows, key=lambda r: -r[4])
