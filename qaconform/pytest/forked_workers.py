"""xdist workers forked from one process that has imported the kit once, instead of five interpreters importing it.

Why: every worker of a parallel run starts a fresh interpreter and imports pytest, its plugins, schemathesis,
hypothesis, pydantic, requests and the kit, about 1.5 s of CPU each, before it collects. On a 2-core machine five of
them at once are a third of the run's CPU and most of the wait for the first test (issue 31). Here the controller
starts one *fork server* early (at configure, while it checks the target); it imports those modules once and forks
a worker for each one xdist starts. A fork shares the imported modules' memory and costs milliseconds.

How xdist still sees its own workers: each worker's command becomes ``python -S -I worker_shim.py <xdist's
arguments>`` (``pytest_xdist_setupnodes``). The shim passes its standard streams, folder and environment to the
server, which forks a waiter that forks the worker, reports the worker's pid and, later, its exit code; the shim
forwards signals and exits with that code. The worker runs execnet's bootstrap line as ``python -u -c`` would.

Only on Linux (fork after imports is what CPython supports there; macOS and Windows start workers as before), only
for xdist's local ``popen`` workers, and never with ``QACONFORM_FORK_WORKERS=0``. If the server cannot start or be
reached, the shim becomes the plain interpreter with the same arguments: a run never depends on it.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import random
import select
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from qaconform.pytest import collect_gate, local_constants, precompiled, worker_shim

SWITCH = "QACONFORM_FORK_WORKERS"
"""``0`` starts every worker as its own interpreter (xdist's way)."""

PRELOAD = (
    "pytest", "_pytest.python", "_pytest.fixtures", "_pytest.runner", "_pytest.terminal", "_pytest.assertion.rewrite",
    "execnet", "xdist.remote", "xdist.plugin", "pytest_timeout", "pytest_base_url.plugin",
    "hypothesis", "_hypothesis_pytestplugin", "schemathesis", "schemathesis.pytest.plugin",
    "schemathesis.specs.openapi.schemas", "schemathesis.generation.hypothesis.builder",
    "requests", "urllib3", "pydantic", "jsonschema", "yaml", "allpairspy",
    "qaconform.pytest.plugin", "qaconform.pytest.fixtures", "qaconform.pytest.properties.oas",
    "qaconform.pytest.properties.schema", "qaconform.contract",
    # what a worker imported after its fork (measured: sys.modules before and after a collection)
    "qaconform.pytest.one_shots", "qaconform.pytest.parallel", "qaconform.pytest.time_frames",
    "qaconform.target.diagnosis", "qaconform.target.discover", "qaconform.target.doctor",
    "qaconform.target.fixture_state", "qaconform.target.ledger",
    "xdist.looponfail", "xdist.newhooks", "schemathesis.pytest.xdist", "schemathesis.engine.events",
    "schemathesis.reporting.junitxml", "schemathesis.reporting.html", "schemathesis.reporting.allure",
    "schemathesis.graphql.checks", "schemathesis.generation.dictionaries", "allure_commons", "pdb",
)
"""What every worker imports before its first test (its plugins and what the suites import). Never locust: its
import patches the process with gevent."""
REFERENCE_PRELOAD = ("qaconform.reference.cli", "qaconform.reference.server", "uvicorn.loops.auto",
                     "uvicorn.loops.asyncio", "uvicorn.protocols.http.h11_impl",
                     "uvicorn.protocols.http.httptools_impl", "uvicorn.protocols.websockets.wsproto_impl")
"""What ``python -m qaconform.reference`` imports before it seeds (uvicorn, the app, the registries): the self-test
starts a reference server per fault, each a fresh interpreter importing these (0.3-0.5 s of CPU) before this."""


def enabled(environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    return sys.platform == "linux" and hasattr(socket, "send_fds") and environ.get(SWITCH, "1").strip() != "0"


class ForkServer:
    """A handle on the fork server: started by ``qaconform run`` first of all (:func:`start_early`: its imports overlap
    the runner's own work), or by the controller at configure when pytest runs alone; stopped by whoever started it.
    The controller adopts a running one from ``QACONFORM_FORK_SERVER`` (:meth:`adopt`)."""

    proc: subprocess.Popen[bytes] | None

    @classmethod
    def adopt(cls, path: str) -> ForkServer:
        """The server another process started and stops (``qaconform run``)."""
        server = cls.__new__(cls)
        server.folder, server.path, server.proc = None, path, None
        return server

    def __init__(self, env: dict[str, str] | None = None, preload: tuple[str, ...] = ()) -> None:
        """``preload``: import only these modules before the first fork, not :data:`PRELOAD` and pytest's head start
        (the self-test's reference servers: :data:`REFERENCE_PRELOAD`)."""
        self.folder: Path | None = Path(tempfile.mkdtemp(prefix="qc-fork-"))
        self.path = str(self.folder / "sock")
        # Bound and listening here, before the server has started: a worker that connects while the server still
        # imports waits in the backlog instead of finding no socket.
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(self.path)
            listener.listen(64)
            self.proc = subprocess.Popen(
                [sys.executable, "-P", "-c", "from qaconform.pytest.forked_workers import serve; serve()",
                 str(listener.fileno()), str(self.folder), *([",".join(preload)] if preload else [])],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, pass_fds=[listener.fileno()],
                env=dict(env if env is not None else os.environ, **{worker_shim.ENV: ""}))
        finally:
            listener.close()

    def python(self) -> str:
        """The ``python=`` of an XSpec: the shim, for execnet's ``popen`` gateway (split with shlex)."""
        return " ".join(shlex.quote(p) for p in (sys.executable, "-S", "-I", worker_shim.__file__))

    def stop(self) -> None:
        """Close its stdin (it ends by itself then), reap it, remove the socket's folder (an adopted one: nothing,
        its owner does)."""
        if self.proc is None or self.folder is None:
            return
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        for p in self.folder.iterdir():
            p.unlink(missing_ok=True)
        self.folder.rmdir()


_EARLY: list[ForkServer] = []
"""The server :func:`start_early` started, until ``qaconform run`` takes it (:func:`take_early`)."""


def start_early(env: dict[str, str]) -> None:
    """Start the fork server before ``qaconform run`` has even imported its own modules: the server's imports (1.5 to
    2 s of CPU) are what the first worker waits for, and the runner's imports, argument checks and doctor then run
    beside them on the other core instead of before them (the runner's own imports alone are half a second). Stopped
    at exit unless :func:`take_early` hands it on; a server nobody takes ends when this process does."""
    if _EARLY or not enabled():
        return
    try:
        server = ForkServer(env)
    except OSError:
        return  # started again later, or the workers start as their own interpreters
    _EARLY.append(server)
    atexit.register(_stop_early)


def take_early() -> ForkServer | None:
    """The server :func:`start_early` started (its owner is now the caller, who stops it), if any."""
    if not _EARLY:
        return None
    atexit.unregister(_stop_early)
    return _EARLY.pop()


def _stop_early() -> None:
    while _EARLY:
        _EARLY.pop().stop()


def through(cmd: list[str], path: str) -> list[str]:
    """``cmd`` (``python -P -m pytest ...``, the suites' pytest) forked from the server at ``path``: the shim with the
    same interpreter options and arguments. The shim runs the plain interpreter if the server cannot be reached."""
    if not cmd or cmd[0] != sys.executable or "-m" not in cmd:
        return cmd
    return [sys.executable, "-S", "-I", worker_shim.__file__, *cmd[1:]]


def use_for(specs: list[Any], server: ForkServer) -> int:
    """Give xdist's local ``popen`` workers the shim as their interpreter (in place: the list is xdist's); returns
    how many. The server's socket path travels in the workers' environment."""
    import execnet

    os.environ[worker_shim.ENV] = server.path
    count = 0
    for i, spec in enumerate(specs):
        if spec.popen and not spec.python and not spec.via and not spec.chdir:
            forked = execnet.XSpec(f"{spec}//python={server.python()}")
            forked.id = spec.id  # the id xdist gave it (gw0 ...): a spec made from its string would get a new one
            specs[i] = forked
            count += 1
    return count


# ----------------------------------------------------------------------------------------------------------
# the fork server process

def serve() -> None:
    """Import :data:`PRELOAD` (or the modules a third argument names, comma-separated), then fork a worker for each
    connection on the listening socket the controller passed, until stdin closes (the controller ended). Connections
    made while it imports wait in the backlog."""
    listener = socket.socket(fileno=int(sys.argv[1]))  # bound and listening: the controller made it
    if len(sys.argv) > 3:  # not pytest's workers: only what the forked command imports, no collection slots
        global _PYTEST_WORKERS
        _PYTEST_WORKERS = False
        _preload_only(sys.argv[3].split(","))
    else:
        if len(sys.argv) > 2:  # the socket's folder: the workers' collection slots go there (removed with it)
            try:
                collect_gate.open_slots(Path(sys.argv[2]))
            except OSError:
                pass  # the workers collect all at once, as before
        _prepare()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the waiters are reaped by the kernel
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the controller's and the workers' to handle; this
    # server ends when the controller closes its stdin
    while True:
        ready, _, _ = select.select([listener, sys.stdin], [], [])
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 1):
            # nothing to flush or save (stdout is /dev/null, no test ran here): ending without the interpreter's
            # shutdown of everything PRELOAD imported saves the end of `qaconform run` 0.4 s of waiting (issue 31)
            os._exit(0)
        if listener in ready:
            conn, _ = listener.accept()
            if os.fork() == 0:
                listener.close()
                _wait_for_worker(conn)
            conn.close()


def _prepare() -> None:
    """What every worker would do first, done once: the imports (:data:`PRELOAD` and pytest's own plugins), the
    suites' modules compiled (:mod:`qaconform.pytest.precompiled`), the contract read, hypothesis's unicode tables
    and constants of the local modules gathered (:mod:`qaconform.pytest.local_constants`). Then the heap is frozen: the
    workers' garbage collections skip what they share (and do not copy its pages by touching it)."""
    import gc

    tables = local_constants.tables_in_background()  # computed beside the imports on a new cache folder (3 s)
    names = list(PRELOAD)
    try:
        from _pytest.config import default_plugins

        names += [f"_pytest.{name}" for name in default_plugins]
    except ImportError:
        pass
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001, S112 - a module missing here is imported by the worker as usual
            continue
    try:
        from qaconform import kit
        from qaconform.contract import load_contract

        precompiled.compile_tree(kit.suites_dir())
        load_contract().dimensions  # noqa: B018 - cached per spec folder (its dimensions.yaml too, which the
        # crossing suites read at collection); a worker with another QACONFORM_SPEC_DIR reads its own
    except Exception:  # noqa: BLE001, S110 - each is only a head start: the worker does it as usual
        pass
    tables()  # read (16 ms) if the child has written them by now
    local_constants.precompute()  # last: it covers the modules imported so far
    gc.collect()
    gc.freeze()


_PYTEST_WORKERS = True
"""In the fork server: whether what it forks is pytest (its assertion rewriting and precompiled code set up in each
fork), not another command (:data:`REFERENCE_PRELOAD`)."""


def _preload_only(names: list[str]) -> None:
    """The imports of a server that forks something other than pytest's workers; a module missing is imported by the
    forked command as usual."""
    import gc

    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001, S112 - only a head start
            continue
    gc.collect()
    gc.freeze()


def _wait_for_worker(conn: socket.socket) -> None:
    """In a waiter (forked from the server): fork the worker, report its pid and then its exit code."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        head, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
        size = int.from_bytes(head[:4], "big")
        data = head[4:]
        while len(data) < size:
            more = conn.recv(size - len(data))
            if not more:
                raise OSError("the shim hung up")
            data += more
        request = json.loads(data)
        pid = os.fork()
        if pid == 0:
            conn.close()
            _run_worker(request, fds)
        for fd in fds:
            os.close(fd)
        shim_gone = False
        try:
            conn.sendall(f"pid {pid}\n".encode())
            shim_gone = _kill_when_orphaned(pid, conn)
        except OSError:  # the shim died before it learnt the pid (or its socket broke): the worker goes with it,
            os.kill(pid, signal.SIGKILL)  # as the end of a plain interpreter would have ended it
            shim_gone = True
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if not shim_gone:  # else nobody is left to tell, and a broken pipe's traceback would only be noise
            try:
                conn.sendall(f"exit {code}\n".encode())
            except BrokenPipeError:  # it went just after the process it stood for
                pass
    except Exception:  # noqa: BLE001 - the shim then starts the plain interpreter, or exits 1
        traceback.print_exc()
    finally:
        os._exit(0)


def _kill_when_orphaned(pid: int, conn: socket.socket) -> bool:
    """Wait for the forked process to end; if its shim goes first (killed: SIGKILL cannot be forwarded), kill it too,
    as the end of a plain interpreter would have ended it, and say so (nobody is left to tell its exit code: the
    self-test kills every fault's reference server that way). The shim sends nothing after its request, so its
    socket turns readable only when it is gone."""
    try:
        watched = os.pidfd_open(pid)
    except (AttributeError, OSError):  # an older kernel: only waitpid
        return False
    try:
        while True:
            ready, _, _ = select.select([watched, conn.fileno()], [], [])
            if watched in ready:
                return False
            if not conn.recv(64):
                os.kill(pid, signal.SIGKILL)
                return True
    finally:
        os.close(watched)


def _streams() -> None:
    """The standard streams of ``python -u`` on the shim's descriptors: unbuffered bytes, text written through."""
    import io

    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's own streams
    for fd, name in ((1, "stdout"), (2, "stderr")):
        raw = open(fd, "wb", buffering=0, closefd=False)  # noqa: SIM115
        setattr(sys, name, io.TextIOWrapper(raw, encoding="utf-8", errors="backslashreplace" if fd == 2 else "strict",
                                            line_buffering=True, write_through=True))


def _run_worker(request: dict[str, Any], fds: list[int]) -> None:
    """In the forked process: take the shim's streams, folder and environment, then do what ``python -u -c <line>``
    (an xdist worker) or ``python -P -m <module> ...`` (the suites' pytest, started by ``qaconform run``) does."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    argv = request["argv"]
    module = argv[argv.index("-m") + 1] if "-m" in argv else None
    os.environ.clear()
    os.environ.update(request["env"])
    if module is None:
        os.environ.pop(worker_shim.ENV, None)  # a worker's own children start as usual; pytest keeps it for its workers
    random.seed()  # not the server's sequence, the same in every worker
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a fresh interpreter
    # PYTHONPATH is read when an interpreter starts: folders this process's environment adds come first, as there
    for entry in reversed([e for e in os.environ.get("PYTHONPATH", "").split(os.pathsep) if e]):
        if os.path.abspath(entry) not in sys.path:
            sys.path.insert(0, os.path.abspath(entry))
    _streams()
    if _PYTEST_WORKERS:
        _quiet_rewrite_warnings()
        precompiled.install()
    code = 0
    try:
        if module is not None:
            import runpy

            options = argv[:argv.index("-m")]
            sys.argv = [module, *argv[argv.index("-m") + 2:]]  # run_module puts the module's file first
            if "-P" not in options and "-I" not in options:
                sys.path.insert(0, os.getcwd())
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            sys.argv = ["-c"]
            sys.path.insert(0, "")  # as ``python -c`` has it
            source = argv[argv.index("-c") + 1]
            exec(compile(source, "<string>", "exec"), {"__name__": "__main__"})  # noqa: S102 - execnet's bootstrap
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - as the interpreter would: print it and exit 1
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


def _quiet_rewrite_warnings() -> None:
    """The preloaded plugin modules were imported before pytest's assertion rewriting could be installed, on
    purpose: pytest's "Module already imported so cannot be rewritten" warning for them says nothing to the user.
    (Their own asserts keep plain messages; the suites fail through qaconform.pytest.outcomes, not asserts.)"""
    from _pytest.assertion.rewrite import AssertionRewritingHook

    def quiet(self: Any, name: str) -> None:  # noqa: ARG001 - the signature pytest calls
        return None

    AssertionRewritingHook._warn_already_imported = quiet  # type: ignore[method-assign]
