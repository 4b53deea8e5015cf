"""Running the reference server: in this process (``serve``) or as a managed subprocess (``ReferenceServer``).

``ReferenceServer`` starts ``python -m qaconform.reference --port 0 ...`` so the server has its own interpreter
(no GIL shared with the test process, no event loop mixed into pytest) and waits for its "listening" line.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

import uvicorn

from . import faults, variants
from .app import create_app
from .db import Database
from .http_protocol import protocol
from .profile_out import password_env, write_profile
from .seed import ISSUE_TRACKER, parse_size, seed, stored_fixtures

READY_PREFIX = "qaconform reference server listening on "
_READY_RE = re.compile(re.escape(READY_PREFIX) + r"(http://\S+)")


class _Server(uvicorn.Server):
    """uvicorn's server with a callback once the socket accepts connections."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_ready = on_ready

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        # uvicorn re-raises a captured signal after shutdown; Ctrl-C or SIGTERM is a clean stop here (exit 0).
        self._captured_signals.clear()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            self._on_ready()


def _listen(host: str, port: int) -> tuple[socket.socket, str]:
    """The bound listening socket and the base URL a client reaches it at (0.0.0.0 shown as 127.0.0.1)."""
    # proto IPPROTO_TCP matters: asyncio sets TCP_NODELAY on accepted sockets only for such listeners, and
    # without it every response waits ~40 ms for a delayed ACK.
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "") else (f"[{host}]" if ":" in host else host)
    return sock, f"http://{shown_host}:{sock.getsockname()[1]}"


def serve(
    host: str = "127.0.0.1",
    port: int = 0,
    db_path: str = ":memory:",
    size: str | int = "small",
    page_size: int = 15,
    profile_out: str | None = None,
    fault_names: Sequence[str] = (),
    log: Callable[[str], None] = print,
    variant_names: Sequence[str] = (),
    inline_passwords: bool = False,
) -> int:
    """Seed (or reuse) the database, bind, write the profile, serve until SIGINT/SIGTERM. Returns an exit code."""
    faults.activate(fault_names)
    variants.activate(variant_names)
    if variants.is_on("default-page-size-20"):
        page_size = 20  # a site configured with another system default; its profile says so
    nodes = parse_size(size)
    started = time.monotonic()
    db = Database(db_path)
    reused = db.is_seeded()
    if reused:
        fixtures = stored_fixtures(db)
        log(f"reusing the database {db_path} (seeded with {db.meta('seeded')} nodes)")
    else:
        fixtures = seed(db, nodes)
    seeded_s = time.monotonic() - started
    app = create_app(db, page_size=page_size, tracker=ISSUE_TRACKER)
    sock, base_url = _listen(host, port)
    if profile_out:
        write_profile(profile_out, base_url, fixtures, page_size, fresh=not reused, inline_passwords=inline_passwords)
    # httptools when installed, h11 otherwise (http_protocol.py); the asyncio loop, or uvloop where installed
    config = uvicorn.Config(app, http=protocol(), log_level="warning", access_log=False, lifespan="off",
                            timeout_graceful_shutdown=5)

    def ready() -> None:
        extra = f" (faults: {', '.join(sorted(fault_names))})" if fault_names else ""
        if variants.active():
            extra += f" (variants: {', '.join(sorted(variants.active()))})"
        log(f"seeded {nodes} nodes in {seeded_s:.1f}s{extra}")
        if profile_out and not inline_passwords:
            log(f"profile written to {profile_out}; its passwords come from QACONFORM_<ROLE>_PASSWORD: "
                f'eval "$(qaconform serve --print-env)" sets them')
        elif profile_out:
            log(f"profile written to {profile_out}")
        log(READY_PREFIX + base_url)
        sys.stdout.flush()

    server = _Server(config, ready)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        db.close()
    return 0


class ReferenceServerError(RuntimeError):
    """The reference server could not be started; the message holds its stderr tail."""


class ReferenceServer:
    """A reference server in a subprocess on a free 127.0.0.1 port, for the duration of a ``with`` block.

    ``url`` is the base_url (everything before /services/v2); ``profile_path`` the TOML profile it wrote.
    ``throwaway``: an in-memory server nobody reads after ``stop`` (the self-test's, one per fault; the one a
    `qaconform run` without a profile starts) is killed there, not stopped gracefully; uvicorn's graceful stop waits a
    tick and a pause of 0.1 s each, then the interpreter's shutdown: about half a second of every fault's run.
    """

    def __init__(
        self,
        size: str | int = "small",
        faults: Sequence[str] = (),
        page_size: int = 15,
        db: str = ":memory:",
        start_timeout: float = 30.0,
        variants: Sequence[str] = (),
        throwaway: bool = False,
        launch: Callable[[list[str], dict[str, str]], list[str]] | None = None,
    ) -> None:
        self.size = size
        self.launch = launch
        """How its command is started: given the command and its environment (which it may extend), the command to
        run. The self-test forks its servers from one process that imported this package once (0.3-0.5 s of CPU a
        server); None: the command as it is."""
        self.throwaway = throwaway
        self.faults = tuple(faults)
        self.variants = tuple(variants)
        self.page_size = page_size
        self.db = db
        self.start_timeout = start_timeout
        self.url = ""
        self.profile_path = ""
        self._proc: subprocess.Popen[bytes] | None = None
        self._dir: str | None = None

    def __enter__(self) -> ReferenceServer:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _tail(self, name: str, lines: int = 25) -> str:
        assert self._dir is not None
        try:
            text = Path(self._dir, name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def _seeding_allowance(self) -> float:
        """Big sizes seed for a while before listening: up to 2 more minutes for a million nodes on a busy host."""
        nodes = self.size if isinstance(self.size, int) else 0
        return 120.0 * nodes / 1_000_000 if nodes > 100_000 else 0.0

    def _command(self) -> list[str]:
        """The reference server's command line: its own process, listening on a free port of 127.0.0.1, writing the
        profile into this server's private folder and ending with this process."""
        cmd = [
            sys.executable,
            "-m",
            "qaconform.reference",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            self.db,
            "--size",
            str(self.size),
            "--page-size",
            str(self.page_size),
            "--profile-out",
            self.profile_path,
            "--exit-with-parent",
            str(os.getpid()),
        ]
        for name in self.faults:
            cmd += ["--fault", name]
        for name in self.variants:
            cmd += ["--variant", name]
        return cmd

    def start(self) -> None:
        """Start the server and wait until it listens. Its profile names each account's ``password_env`` (as
        ``qaconform serve --profile-out`` writes it, qa16): no password in any file, not even this private one, and
        the curls a run prints name the variables ``eval "$(qaconform serve --print-env)"`` sets. This process's
        environment gets those variables (the demo passwords of the seed), so the kit's runs and the processes they
        start load the profile as it is."""
        os.environ.update(password_env())
        self._dir = tempfile.mkdtemp(prefix="qaconform-reference-")
        self.profile_path = os.path.join(self._dir, "profile.toml")
        cmd = self._command()
        env: dict[str, Any] = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if self.launch is not None:
            cmd = self.launch(cmd, env)
        with (
            open(os.path.join(self._dir, "stdout.log"), "wb") as out,
            open(os.path.join(self._dir, "stderr.log"), "wb") as err,
        ):
            self._proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env)
        deadline = time.monotonic() + self.start_timeout + self._seeding_allowance()
        while True:
            match = _READY_RE.search(self._tail("stdout.log", 50))
            if match:
                self.url = match.group(1)
                return
            code = self._proc.poll()
            if code is not None:
                tail = self._tail("stderr.log") or self._tail("stdout.log")
                self.stop()
                raise ReferenceServerError(
                    f"the reference server exited with code {code} before it was ready; its output ends with:\n{tail}"
                )
            if time.monotonic() > deadline:
                tail = self._tail("stderr.log") or self._tail("stdout.log")
                self.stop()
                raise ReferenceServerError(
                    f"the reference server was not ready within"
                    f" {self.start_timeout + self._seeding_allowance():.0f}s (size {self.size}); "
                    f"pass a larger start_timeout for big sizes. Its output ends with:\n{tail}"
                )
            time.sleep(0.05)

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL if self.throwaway and self.db == ":memory:" else signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
