"""The fork server the suites' xdist workers start from (qaconform/pytest/forked_workers.py): a worker forked there
behaves as the interpreter xdist would have started (streams, folder, environment, exit code), already holds the
modules every worker imports, and without a server the shim is that plain interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import execnet
import pytest

from qaconform.pytest import forked_workers, worker_shim

pytestmark = pytest.mark.skipif(not forked_workers.enabled({}), reason="workers are forked on Linux only")


@pytest.fixture(scope="module")
def server() -> Iterator[forked_workers.ForkServer]:
    s = forked_workers.ForkServer()
    yield s
    s.stop()
    assert not s.folder.exists()
    assert s.proc.returncode == 0


def _shim(server_path: str, source: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-S", "-I", worker_shim.__file__, "-u", "-c", source], cwd=cwd,
                          env={**os.environ, worker_shim.ENV: server_path, **env}, capture_output=True, text=True,
                          timeout=60)


def test_a_forked_worker_has_the_shims_streams_folder_environment_and_exit_code(
    server: forked_workers.ForkServer, tmp_path: Path
) -> None:
    source = ("import os, sys; print('out', os.getcwd(), os.environ['QC_PROBE'], 'schemathesis' in sys.modules); "
              "print('err', file=sys.stderr); sys.exit(3)")
    done = _shim(server.path, source, tmp_path, QC_PROBE="probe-value")
    assert done.returncode == 3, done.stderr
    assert done.stdout.split() == ["out", str(tmp_path), "probe-value", "True"]  # preloaded: forked, not started
    assert done.stderr.strip() == "err"


def test_without_a_fork_server_the_shim_is_the_plain_interpreter(tmp_path: Path) -> None:
    done = _shim(str(tmp_path / "no-such-socket"), "import sys; print('schemathesis' in sys.modules); sys.exit(4)",
                 tmp_path)
    assert (done.returncode, done.stdout.strip()) == (4, "False")


def test_an_execnet_gateway_through_the_shim_runs_code_in_a_forked_worker(
    server: forked_workers.ForkServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What xdist does with each worker's spec: ``use_for`` rewrites a local popen spec, and execnet's bootstrap
    reaches a worker forked from the server."""
    specs = [execnet.XSpec("popen"), execnet.XSpec("popen//python=/usr/bin/python3")]
    specs[0].id, specs[1].id = "gw0", "gw1"
    monkeypatch.setenv(worker_shim.ENV, "")
    assert forked_workers.use_for(specs, server) == 1
    assert "worker_shim.py" in str(specs[0].python) and specs[1].python == "/usr/bin/python3"
    assert specs[0].id == "gw0"  # xdist's worker id kept: PYTEST_XDIST_WORKER and its status line name it
    gw = execnet.makegateway(specs[0])
    try:
        ch = gw.remote_exec("import os, sys; channel.send((os.getppid(), 'hypothesis' in sys.modules))")
        parent, preloaded = ch.receive(timeout=30)
    finally:
        gw.exit()
    assert preloaded
    assert parent != os.getpid()  # its parent is the server's waiter, not this process: it was forked
