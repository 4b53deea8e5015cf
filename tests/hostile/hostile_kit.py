"""Running kit commands (`qaconform run`, `qaconform load`) as the hostile tests need them: bounded, measured.

Each command runs through ``measure.py`` (its exit code and peak memory) in its own process group, with its
output in a file, and is killed with its whole group when the hard timeout passes, so that no test leaves a
process behind even when the kit hangs. ``Background`` starts every module's commands at once: the machine may have
two cores, and most of a hostile run is waiting for a target. Also here: the credentials every hostile profile
carries (``Secrets``) and the profile itself (``profile_toml``).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import psutil
from hostile_server import HostileServer

from qaconform.reference import ReferenceServer
from qaconform.target.profile import Profile

ROOT = Path(__file__).resolve().parents[2]
MEASURE = Path(__file__).with_name("measure.py")
TRACEBACK = "Traceback (most recent call last)"
MAX_BUSY = 2.5
"""The most a busy machine stretches a command's time limit (15 s -> 37.5 s stays below the hard timeouts, so a
command that hangs is still caught)."""
SLACK_S = 4.0  # what a waiting run may take beyond timeout_s compared with a refused one (same start-up cost)
TIMEOUT_S = 2
"""timeout_s of every hostile profile: small, so that bounded-time assertions stay cheap."""
T = TypeVar("T")
P = TypeVar("P")


@dataclass(frozen=True)
class Secrets:
    """The credentials of one hostile profile and every form in which they could leak."""

    passwords: dict[str, str]
    names: dict[str, str] | None = None  # role -> username; default qa-<role>

    def usernames(self) -> dict[str, str]:
        return {role: (self.names or {}).get(role, f"qa-{role}") for role in self.passwords}

    def forms(self) -> list[str]:
        """Passwords and the base64 Authorization values (with and without 'Basic ')."""
        out: list[str] = []
        names = self.usernames()
        for role, pw in self.passwords.items():
            token = base64.b64encode(f"{names[role]}:{pw}".encode()).decode()
            out += [pw, token]
        return out

    @classmethod
    def of(cls, profile: Profile) -> Secrets:
        """The secrets of a profile the tests did not write (the reference server's)."""
        return cls({r: a.password for r, a in profile.accounts.items()},
                   {r: a.username for r, a in profile.accounts.items()})

    def leaks_in(self, text: str) -> list[str]:
        return [s for s in self.forms() if s in text]


def profile_toml(base_url: str, creds: Secrets, *, extra: str = "", password_env: bool = False,
                 timeout_s: float = TIMEOUT_S, max_response_bytes: int = 1024 * 1024) -> str:
    """A complete, valid profile for ``base_url`` (callers break it on purpose with ``extra`` or by editing)."""
    lines = [
        'name = "hostile"',
        f'base_url = "{base_url}"',
        f"timeout_s = {timeout_s}",
        f"max_response_bytes = {max_response_bytes}",
    ]
    body = "\n".join(lines) + "\n" + extra + "\n"
    for role, pw in creds.passwords.items():
        body += f"[accounts.{role}]\nusername = \"qa-{role}\"\n"
        body += f'password_env = "QC_HOSTILE_{role.upper()}"\n' if password_env else f'password = "{pw}"\n'
    body += "[fixtures]\nquestion_id = 10\nspace_id = 1\n"
    return body


@dataclass
class KitRun:
    """One finished kit command: what a test asserts on."""

    name: str
    args: list[str]
    out_dir: Path
    returncode: int
    output: str
    seconds: float
    maxrss_mb: float
    killed: bool = False
    notes: list[str] = field(default_factory=list)
    busy: float = 1.0
    """How many times over the machine was booked while the command ran (the mean 1-minute load average per CPU,
    at least 1, at most :data:`MAX_BUSY`): the factor its time limit is stretched by. CI's machine ran these
    commands beside the rest of the suite: a `load` against a closed port took 13 s there and 3 s on a quiet one."""
    load: float = 1.0
    """The same mean load per CPU, at least 1 but not capped: what :func:`allowed_seconds` stretches the command's
    own CPU work by."""
    cpu_s: float = 0.0
    """The CPU time (user + system) of the command and its waited-for descendants (measure.py; 0 when killed)."""

    def written_files(self) -> list[Path]:
        return sorted(p for p in self.out_dir.rglob("*") if p.is_file()) if self.out_dir.exists() else []

    def written_text(self) -> str:
        return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in self.written_files())

    def report(self) -> dict[str, Any] | None:
        found = sorted(self.out_dir.glob("*/report.json"))
        return json.loads(found[-1].read_text(encoding="utf-8")) if found else None

    def describe(self) -> str:
        tail = self.output[-3000:]
        return (f"`qaconform {' '.join(self.args)}` ({self.name}) exited {self.returncode} after {self.seconds:.1f}s, "
                f"max RSS {self.maxrss_mb:.0f} MB{' (killed at the hard timeout)' if self.killed else ''}; "
                f"output ends with:\n{tail}")


def run_kit(name: str, args: Sequence[str], work: Path, hard_timeout_s: float,
            env: dict[str, str] | None = None) -> KitRun:
    """Run ``qaconform ARGS`` (from the checkout) and wait at most ``hard_timeout_s``."""
    work.mkdir(parents=True, exist_ok=True)
    out_dir = work / "out"
    result = work / "measure.json"
    log = work / "output.txt"
    full_env = dict(os.environ if env is None else env)
    full_env["PYTHONUNBUFFERED"] = "1"
    full_env.pop("QACONFORM_PROFILE", None)
    cmd = [sys.executable, str(MEASURE), str(result), sys.executable, "-m", "qaconform.commands.cli", *args]
    started = time.monotonic()
    killed = False
    loads: list[float] = []
    with open(log, "wb") as fh:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=full_env, start_new_session=True)
        peak_kb, cpu_s = 0, 0.0
        try:
            while proc.poll() is None:
                # the hard timeout stretches with the machine's booking as the limits do (allowed_seconds): a
                # command that hangs stops spending CPU, so its limit stops growing and it is still killed
                if time.monotonic() > started + allowed_seconds(hard_timeout_s, _busy(loads), _load(loads), cpu_s):
                    killed = True
                    break
                peak_kb = max(peak_kb, _tree_rss_kb(proc.pid))
                cpu_s = max(cpu_s, _tree_cpu_s(proc.pid))
                loads.append(os.getloadavg()[0] / (os.cpu_count() or 1))
                time.sleep(0.2)
        finally:
            _kill_group(proc)
    seconds = time.monotonic() - started
    measured = json.loads(result.read_text()) if result.exists() else {"rc": proc.returncode, "maxrss_kb": 0}
    return KitRun(name=name, args=list(args), out_dir=out_dir, returncode=int(measured["rc"]),
                  output=log.read_text(encoding="utf-8", errors="replace"), seconds=seconds,
                  maxrss_mb=max(measured["maxrss_kb"], peak_kb) / 1024, killed=killed,
                  busy=_busy(loads), load=_load(loads), cpu_s=float(measured.get("cpu_s", cpu_s)))


def allowed_seconds(max_seconds: float, busy: float, load: float, cpu_s: float) -> float:
    """The time a command that does not wait for its target may take: ``max_seconds`` (a quiet machine's bound),
    stretched by ``busy`` (:attr:`KitRun.busy`) as before, or by exactly what the machine's booking (``load``, not
    capped) cost the command's own work (``cpu_s``), whichever is more: ``max_seconds + cpu_s * (load - 1)``. The
    hard timeout of :func:`run_kit` stretches the same way, with the CPU measured so far.

    Why: a run's wall time is its CPU work, stretched by how many others share the cores, plus its waiting on the
    target. The capped factor alone failed at 2.5x (one-broken-endpoint, CI's machine booked more than 2.5 times
    over while the run did nothing wrong). Stretching only the CPU part by the load measured keeps the bound on
    the waiting, the thing under test (a broken endpoint cut at timeout_s and max_response_bytes, not read forever),
    at ``max_seconds`` whatever the load: a command that waits longer than a quiet machine's bound still fails."""
    return max(max_seconds * busy, max_seconds + cpu_s * (load - 1.0))


def _load(loads: list[float]) -> float:
    """The mean load per CPU seen so far, at least 1 (not capped: :func:`allowed_seconds`)."""
    return max(1.0, sum(loads) / len(loads)) if loads else 1.0


def _tree_cpu_s(pid: int) -> float:
    """The CPU time (user + system) a process and its descendants spent so far, those already waited for included."""
    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0.0
    for p in procs:
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
    return total


def _busy(loads: list[float]) -> float:
    """The mean load per CPU seen so far, between 1 and :data:`MAX_BUSY`."""
    return min(MAX_BUSY, max(1.0, sum(loads) / len(loads))) if loads else 1.0


def _tree_rss_kb(pid: int) -> int:
    """The largest RSS among a process and its descendants now: measure.py's figure is lost when a run is killed."""
    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    best = 0
    for p in procs:
        with contextlib.suppress(psutil.Error):
            best = max(best, p.memory_info().rss // 1024)
    return best


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Whatever the command left running in its process group (a pytest child, a locust worker) ends here."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=5)
            if sig == signal.SIGTERM:
                time.sleep(0.2)  # give grandchildren a moment, then make sure
        except subprocess.TimeoutExpired:
            continue


@dataclass
class Job:
    """One planned kit command; ``result()`` waits for it once the background has started it."""

    key: str
    args: list[str]
    work: Path
    hard_timeout_s: float
    env: dict[str, str] | None
    first: bool
    future: Future[KitRun] | None = None

    def result(self) -> KitRun:
        if self.future is None:
            raise RuntimeError(f"kit command {self.key!r} was planned but never started (Background.start)")
        return self.future.result()


@dataclass(frozen=True)
class Finished:
    """A finished kit command with what it ran against: the server it talked to and the profile it read."""

    run: KitRun
    server: HostileServer
    profile: Path


@dataclass(frozen=True)
class Planned:
    """What a module's ``plan`` set up for one case: the command, the server it talks to, the profile it reads."""

    job: Job
    server: HostileServer
    profile: Path

    def finished(self) -> Finished:
        """Wait for the command; the record a test judges."""
        return Finished(self.job.result(), self.server, self.profile)


class Background:
    """Every kit command of the hostile tests, started together when the session starts.

    Why: each module needs a dozen kit commands that mostly wait (for a timeout, a hanging target, a 3 s load
    run); run module by module they add up to minutes, started at once they take about as long as the longest.
    A module describes its commands in a ``plan(bg)`` function returning its ``Planned`` cases; conftest calls
    each selected module's ``plan`` once (``add_plan``), and the module's fixtures get what it returned with
    ``planned(plan)``, typed as ``plan`` returns it. Servers and the pool end with the session.
    """

    def __init__(self, base: Path, creds: Secrets, tls_files: tuple[Path, Path], parallel: int = 10) -> None:
        self.base = base
        self.creds = creds
        self.tls_files = tls_files
        self.parallel = parallel
        self.stack = contextlib.ExitStack()
        self._jobs: list[Job] = []
        self._plans: dict[Callable[[Background], Any], object] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._cpu_pool: ThreadPoolExecutor | None = None
        self._reference: ReferenceServer | None = None

    def reference(self) -> ReferenceServer:
        """The one embedded reference server of the session (modules share it; each run writes only its own
        content, and only test_safety's runs use the one-shot fixtures)."""
        if self._reference is None:
            self._reference = self.enter(ReferenceServer())
        return self._reference

    def enter(self, cm: contextlib.AbstractContextManager[T]) -> T:
        """Keep a server (hostile or reference) running until the session ends."""
        return self.stack.enter_context(cm)

    def work(self, key: str) -> Path:
        folder = self.base / key
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def job(self, key: str, args: Sequence[str], hard_timeout_s: float, env: dict[str, str] | None = None,
            first: bool = False) -> Job:
        """Plan ``qaconform ARGS``; ``first`` for commands that mostly wait, so they start before the CPU-bound."""
        job = Job(key, list(args), self.work(key), hard_timeout_s, env, first)
        self._jobs.append(job)
        return job

    def add_plan(self, plan: Callable[[Background], P]) -> None:
        """Call a module's ``plan`` (before ``start``) and keep what it returned for ``planned``."""
        self._plans[plan] = plan(self)

    def planned(self, plan: Callable[[Background], P]) -> P:
        """What ``plan`` returned when the session started (KeyError: conftest did not call it)."""
        if plan not in self._plans:
            raise KeyError(f"{plan.__module__}.plan was not called at session start; is its module selected?")
        return cast(P, self._plans[plan])  # stored under the function itself: its own return type

    def start(self) -> None:
        """Commands that mostly wait (``first``) start at once, up to ``parallel`` of them; the CPU-bound ones (whole
        runs of the suites) share a pool of one per core, so that each is judged on its own time, not on ten runs
        dividing two cores while it ran (a run's `ends in time` is its own duration)."""
        self._pool = ThreadPoolExecutor(max_workers=self.parallel, thread_name_prefix="kit-wait")
        self._cpu_pool = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="kit-cpu")
        for job in self._jobs:
            pool = self._pool if job.first else self._cpu_pool
            job.future = pool.submit(run_kit, job.key, job.args, job.work, job.hard_timeout_s, job.env)

    def close(self) -> None:
        """Stop everything; fail loudly if a kit command left a process behind (and end that process)."""
        for pool in (self._pool, self._cpu_pool):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        self.stack.close()
        left = leftovers(self.base)
        for p in left:
            with contextlib.suppress(psutil.Error):
                p.kill()
        if left:
            raise RuntimeError(f"kit commands left {len(left)} process(es) running: "
                               + "; ".join(" ".join(p.info["cmdline"] or [])[:200] for p in left))


def leftovers(base: Path) -> list[psutil.Process]:
    """Processes whose command line names a path under ``base`` (every kit command of these tests does)."""
    mark = str(base)
    found = []
    for p in psutil.process_iter(["cmdline"]):
        with contextlib.suppress(psutil.Error):
            if p.pid != os.getpid() and any(mark in arg for arg in p.info["cmdline"] or []):
                found.append(p)
    return found


def assert_ended_cleanly(case: Any, run: KitRun, refused: KitRun, timeout_s: float) -> None:
    """A kit command against a hostile target: in time, the documented exit code, a clear message, no traceback.

    ``case`` is a run or load case (max_seconds, waits_for_target, exit_code, words); ``refused`` is the same command
    against a closed port, so that a waiting run is judged by what it waited beyond start-up.
    """
    assert not run.killed, run.describe()
    if case.waits_for_target:
        # Judged against the refused run's start-up, not the clock alone: on a loaded CI machine the start-up itself
        # (imports, the Locust processes) took 13 s of the 15 a waiting run may take, so only what it waited beyond
        # start-up tells whether it honoured timeout_s.
        waited = run.seconds - refused.seconds
        assert waited < timeout_s + SLACK_S, f"waited {waited:.1f}s more than a refused run: " + run.describe()
        assert run.seconds < case.max_seconds * run.busy + max(0.0, refused.seconds - case.max_seconds / 2), \
            run.describe()
    else:
        allowed = allowed_seconds(case.max_seconds, run.busy, run.load, run.cpu_s)
        assert run.seconds < allowed, (f"(machine {run.load:.1f}x booked, {run.cpu_s:.1f}s of CPU: {allowed:.0f}s "
                                       "allowed) " + run.describe())
    assert run.returncode == case.exit_code, run.describe()
    assert case.words in run.output, f"the output lacks {case.words!r}: " + run.describe()
    assert TRACEBACK not in run.output, run.describe()
