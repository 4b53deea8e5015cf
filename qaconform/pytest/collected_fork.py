"""xdist workers forked from the first worker once it has collected, instead of each collecting the suites again.

Why (issue 44, speed15): every worker of a parallel run collected the same ~11,000 items (pytest's genitems, the
suites' covering arrays, fixture information): ~1.1 s of CPU a worker on a quiet machine, 1.5 s at load, 8 to 12 s of
a run's ~45 s of kit CPU on 8 workers, on 2 cores. A fork of a collected worker costs milliseconds.

How. The fork server (qaconform/pytest/forked_workers.py) forks xdist's workers. For one run (the controller's
:data:`SESSION_ENV`, one id per run), the first worker's waiter claims the run (:func:`route`) and forks it fresh with
:data:`TEMPLATE_ENV` set: that worker collects as always and, at the start of its test loop, before any test, forks
a *template* of itself (:func:`offer`). The template listens on a socket; the waiters of the run's other workers,
which waited for it, hand it their shim (its socket and standard streams). For each, the template forks a waiter
that forks the worker, which leaves the template's loop with the shim's streams, runs execnet's bootstrap line (a
fresh gateway on those streams, in a thread: :func:`_become_worker`), takes the channel of xdist's ``remote_exec``
from it (:func:`pytest_cmdline_main`: xdist's ``_prepareconfig`` there returns this worker's collected config),
tells the controller what a worker that collected would have (workerready, collectionstart, the collection reports
that did not pass, collectionfinish), and goes on into xdist's test loop. Its main thread runs the tests, as a
worker's does (signals, pytest-timeout). When its session has ended, it waits for the gateway's thread, then ends
as a forked worker does.

What differs from a worker that collected: nothing the controller or a test sees (the same items, ids, order, the
same options and workerinput, its own basetemp, exchange log, capture files and random seed). A worker whose
collection failed (an error, or nothing collected) offers no template: the others then collect as before, and so
do the workers of a run whose template could not start within :data:`WAIT_S`. ``QACONFORM_COLLECT_ONCE=0`` turns it
off (every worker collects).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import re
import select
import signal
import socket
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

SESSION_ENV = "QACONFORM_FORK_SESSION"
"""Set by the controller for the workers it starts (one id per run): the workers of one run share a template."""
TEMPLATE_ENV = "QACONFORM_FORK_TEMPLATE"
"""Set by the fork server for the first worker of a run: the socket path where it offers its collection."""
SWITCH = "QACONFORM_COLLECT_ONCE"
"""``0``: every forked worker collects (the fork server forks each fresh)."""
WAIT_S = 90.0
"""How long a later worker's waiter waits for the first worker's template before it forks the worker fresh (the
first worker's collection: ~1 s on a quiet machine, 20 s and more at load 40)."""
IDLE_S = 60.0
"""How long a template waits for the next worker before it ends."""
POLL_S = 0.01
LOG_ENV = "QACONFORM_COLLECT_ONCE_LOG"
"""A file each worker forked from a template appends a line to (``forked gwN``), and the first worker too
(``template gw0 for N``): how the kit's tests see which workers collected."""


def new_session() -> str:
    return uuid.uuid4().hex


def enabled(environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    return environ.get(SWITCH, "1").strip() != "0"


def _paths(folder: str, key: str) -> tuple[Path, Path, Path]:
    """The run's claim file, its template's socket and the file that says no template comes."""
    base = Path(folder) / f"tpl-{re.sub(r'[^0-9a-f]', '', key)[:32]}"
    return base.with_suffix(".first"), base.with_suffix(".sock"), base.with_suffix(".none")


# ----------------------------------------------------------------------------------------------------------
# in the fork server's waiter

def route(request: dict[str, Any], fds: list[int], conn: socket.socket, folder: str) -> bool:
    """For a waiter that read an xdist worker's request: True when the run's template took the shim (the waiter has
    nothing left to do); False when the waiter forks the worker itself: the run's first worker (``request``'s
    environment then carries :data:`TEMPLATE_ENV`), or no template came."""
    env = request.get("env") or {}
    key = env.get(SESSION_ENV)
    argv = request.get("argv") or []
    if not key or "-c" not in argv or not enabled(env):
        return False
    first, sock, none = _paths(folder, key)
    try:
        os.close(os.open(first, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return _hand_over(request, fds, conn, sock, none)
    except OSError:
        return False
    env[TEMPLATE_ENV] = str(sock)
    return False


def _hand_over(request: dict[str, Any], fds: list[int], conn: socket.socket, sock: Path, none: Path) -> bool:
    deadline = time.monotonic() + WAIT_S
    while not sock.exists():
        if none.exists() or time.monotonic() > deadline:
            return False
        time.sleep(POLL_S)
    payload = json.dumps(request).encode()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as tpl:
            tpl.connect(str(sock))
            socket.send_fds(tpl, [len(payload).to_bytes(4, "big") + payload], [conn.fileno(), *fds])
            taken = tpl.makefile("r", encoding="utf-8").readline().strip() == "ok"
    except OSError:
        return False
    if taken:
        for fd in fds:
            os.close(fd)
    return taken


# ----------------------------------------------------------------------------------------------------------
# in the first worker

_NOT_PASSED: list[dict[str, Any]] = []
"""The first worker's collection reports that did not pass (skipped modules), serialised: each fork sends them too."""


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if not report.passed and os.environ.get(TEMPLATE_ENV):
        config = _CONFIG.get("config")
        if config is not None:
            _NOT_PASSED.append(config.hook.pytest_report_to_serializable(config=config, report=report))


_CONFIG: dict[str, Any] = {}


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is not None:
        _CONFIG["config"] = config


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> Any:
    """In the first worker of a run, before its first test: offer its collection (:func:`offer`) and return None
    (xdist's loop runs the tests). In a worker forked from it: that worker's loop, run here (the hook's callers were
    taken before the fork: the first worker's interactor, not this one's)."""
    config = session.config
    path = os.environ.pop(TEMPLATE_ENV, None)
    if not path or getattr(config, "workerinput", None) is None:
        return None
    count = int(getattr(config, "workerinput", {}).get("workercount", 1)) - 1
    if count < 1 or not session.items or session.testsfailed:
        _no_template(path)
        return None
    try:
        interactor = offer(session, Path(path), count)
    except Exception:  # noqa: BLE001 - the others then collect, as they did
        _no_template(path)
        return None
    return None if interactor is None else interactor.pytest_runtestloop(session)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A first worker that never reached its test loop (``--collect-only``, an interrupted collection) says so."""
    path = os.environ.pop(TEMPLATE_ENV, None)
    if path:
        _no_template(path)


def _no_template(path: str) -> None:
    with contextlib.suppress(OSError):
        Path(path).with_suffix(".none").touch()


def offer(session: pytest.Session, sock: Path, count: int) -> Any:
    """Fork the template (through a short-lived middle process, so that it is nobody's zombie); in a worker that
    leaves the template's loop, become that worker and return its interactor; in this one, return None at once."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    _flush_exchange_log(session.config)
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        _log(f"template {getattr(session.config, 'workerinput', {}).get('workerid')} for {count}")
        return None
    try:
        if os.fork():
            os._exit(0)
        request, fds = _template(session, sock, count)  # returns only in a worker forked from it
    except BaseException:  # noqa: BLE001 - a template that failed ends; the others fork fresh after WAIT_S
        os._exit(1)
    return _become_worker(session, request, fds)


def _template(session: Any, sock: Path, count: int) -> tuple[dict[str, Any], list[int]]:
    """The template's loop: one waiter for each worker handed over, until ``count`` or :data:`IDLE_S`. In the forked
    worker it returns that worker's request and streams."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the run's workers' to handle
    _detach(session)
    tmp = sock.with_suffix(".tmp")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(tmp))
    listener.listen(64)
    tmp.rename(sock)  # only a listening socket is ever seen at its path
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the waiters are reaped by the kernel
    served = 0
    while served < count:
        ready, _, _ = select.select([listener], [], [], IDLE_S)
        if not ready:
            break
        conn, _ = listener.accept()
        try:
            head, fds, _, _ = socket.recv_fds(conn, 1 << 20, 4)
            size = int.from_bytes(head[:4], "big")
            data = head[4:]
            while len(data) < size:
                more = conn.recv(size - len(data))
                if not more:
                    raise OSError("the waiter hung up")
                data += more
            request = json.loads(data)
            conn.sendall(b"ok\n")
        except (OSError, ValueError):
            conn.close()
            continue
        conn.close()
        served += 1
        if os.fork() == 0:  # the waiter: forks the worker and reports it to the shim, as the fork server's do
            listener.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            shim, streams = socket.socket(fileno=fds[0]), fds[1:]
            pid = os.fork()
            if pid == 0:
                shim.close()
                return request, streams
            from qaconform.pytest import shim_waiter

            try:
                shim_waiter.report_worker(pid, shim, streams)
            finally:
                os._exit(0)
        for fd in fds:
            os.close(fd)
    listener.close()
    with contextlib.suppress(OSError):
        sock.with_suffix(".none").touch()  # a worker that comes later (a restarted one) is forked fresh at once
        sock.unlink()
    os._exit(0)


def _detach(session: Any) -> None:
    """In the template: let go of the first worker's streams and gateway. Its capture stops (each worker starts its
    own); its standard streams and the gateway's pipes become /dev/null (kept open: their numbers must not be taken
    by the next gateway's, which the dead gateway's objects still name)."""
    config = session.config
    capman = config.pluginmanager.getplugin("capturemanager")
    if capman is not None and capman._global_capturing is not None:  # what it holds is the first worker's to print
        capman._global_capturing.stop_capturing()
        capman._global_capturing = None
    devnull = os.open(os.devnull, os.O_RDWR)
    interactor = _interactor(config)
    gateway = interactor.channel.gateway
    for stream in (gateway._io.outfile, gateway._io.infile):
        with contextlib.suppress(OSError, ValueError):
            os.dup2(devnull, stream.fileno())
    for fd in (0, 1, 2, *_stderr_copies(config)):
        os.dup2(devnull, fd)
    os.close(devnull)
    # the dead gateway, once this process's session has ended, hands over to the new one (_become_worker)
    gateway._execpool._running_lock = threading.Lock()  # a lock its receiver thread held at the fork stays held


def _stderr_copies(config: Any) -> list[int]:
    """Descriptors of the first worker's stderr that pytest keeps for the process's life (its faulthandler's)."""
    try:
        from _pytest.faulthandler import fault_handler_stderr_fd_key
    except ImportError:
        return []
    fd = config.stash.get(fault_handler_stderr_fd_key, None)
    return [fd] if isinstance(fd, int) and fd > 2 else []


def _interactor(config: Any) -> Any:
    found = [p for p in config.pluginmanager.get_plugins() if type(p).__name__ == "WorkerInteractor"]
    if len(found) != 1:
        raise RuntimeError(f"{len(found)} xdist worker interactors")
    return found[0]


# ----------------------------------------------------------------------------------------------------------
# in a worker forked from the template

_HANDOFF: queue.Queue[Any] | None = None
"""Set in a forked worker until the new gateway's ``remote_exec`` of xdist's worker module has handed its
interactor over (:func:`pytest_cmdline_main`)."""
_DONE = threading.Event()
"""Set when the forked worker's session has ended: the gateway's thread then ends xdist's ``remote_exec``."""


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> Any:
    """In the gateway's thread of a forked worker: xdist's worker module made its interactor for the collected
    config; hand it to the main thread and keep the channel open until the session there has ended."""
    handoff = _HANDOFF
    if handoff is None:
        return None
    handoff.put(_interactor(config))
    _DONE.wait()
    return 0



def _become_worker(session: pytest.Session, request: dict[str, Any], fds: list[int]) -> Any:
    """Take the shim's streams, folder and environment, start a gateway on them, and answer the controller as the
    worker it started; then return into the test loop."""
    global _HANDOFF
    from _pytest import config as pytest_config
    from _pytest.tmpdir import TempPathFactory
    from xdist.remote import getinfodict

    from qaconform.pytest import shim_waiter

    config: Any = session.config
    old = _interactor(config)
    old_gateway = old.channel.gateway
    output = config.workeroutput
    config.pluginmanager.unregister(old)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    os.environ.pop(TEMPLATE_ENV, None)
    random.seed()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for fd in _stderr_copies(config):  # pytest's faulthandler writes to the worker's own stderr
        os.dup2(2, fd)
    shim_waiter.streams()
    _HANDOFF = handoff = queue.Queue[Any]()
    prepare = pytest_config._prepareconfig
    pytest_config._prepareconfig = lambda *args, **kwargs: config  # type: ignore[assignment]
    argv = request["argv"]
    source = argv[argv.index("-c") + 1]
    gateway = threading.Thread(target=_serve_gateway, args=(source,), name="qc-gateway", daemon=True)
    gateway.start()
    try:
        interactor = handoff.get(timeout=WAIT_S)
    except queue.Empty:
        os._exit(1)
    pytest_config._prepareconfig = prepare
    _HANDOFF = None
    config.workeroutput = output  # the dict the plugins filled at configure, as a worker that collected has
    interactor.session = session
    config._tmp_path_factory = TempPathFactory.from_config(config, _ispytest=True)  # its own basetemp
    _reopen_exchange_log(config)
    capman = config.pluginmanager.getplugin("capturemanager")
    if capman is not None and capman._global_capturing is None and capman.is_globally_capturing():
        capman.start_global_capturing()  # on the gateway's descriptors, as the worker's own capture started
        capman.suspend_global_capture()  # as after a collection: each test's phases resume it
    interactor.sendevent("workerready", workerinfo=getinfodict())
    interactor.sendevent("collectionstart")
    for data in _NOT_PASSED:
        interactor.sendevent("collectreport", data=data)
    interactor.pytest_collection_finish(session)

    # when this session has ended, the main thread returns into the first worker's dead gateway: it stops there,
    # lets the new gateway's remote_exec end, and waits for that gateway (the controller closes it) before the
    # process ends as a forked worker does (forked_workers._run_worker)
    _log(f"forked {config.workerinput['workerid']}")
    old.channel.close = lambda *args, **kwargs: None
    old_gateway._execpool.trigger_shutdown()

    def join(timeout: float | None = None) -> None:
        _DONE.set()
        gateway.join()

    old_gateway.join = join
    return interactor


def _serve_gateway(source: str) -> None:
    """execnet's bootstrap line (``python -c``'s): a gateway on this process's stdin and stdout; this thread executes
    what the controller sends (``remote_exec``), the main thread runs the tests."""
    try:
        exec(compile(source, "<string>", "exec"), {"__name__": "__main__"})  # noqa: S102 - execnet's bootstrap
    except BaseException:  # noqa: BLE001 - the controller sees the gateway go; the worker ends
        import traceback

        traceback.print_exc()
        os._exit(1)


def _flush_exchange_log(config: Any) -> None:
    from qaconform.pytest import exchange_log

    log = config.stash.get(exchange_log._KEY, None)
    if log is not None:
        log.file.flush()


def _reopen_exchange_log(config: Any) -> None:
    """The exchange log is per worker (DIR/gwN.jsonl): the fork closes the first worker's copy and opens its own."""
    from qaconform.pytest import exchange_log

    if config.stash.get(exchange_log._KEY, None) is not None:
        exchange_log.pytest_unconfigure(config)
        exchange_log.pytest_configure(config)


def _log(line: str) -> None:
    path = os.environ.get(LOG_ENV)
    if path:
        with contextlib.suppress(OSError), open(path, "a", encoding="utf-8") as log:
            log.write(line + "\n")
