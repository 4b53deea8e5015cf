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


def test_the_suites_pytest_is_forked_with_its_arguments_module_and_environment(
    server: forked_workers.ForkServer, tmp_path: Path
) -> None:
    """``qaconform run`` starts ``python -P -m pytest ...`` through the shim (``through``): the forked process runs
    the module as ``__main__`` with the arguments after it, keeps the server's socket for its own workers, and its
    output is not held back in a buffer (the runner streams pytest's progress as it comes)."""
    (tmp_path / "qc_probe_main.py").write_text(
        "import os, sys\nsys.stdout.write('partial-line')\n"
        "print(' argv', sys.argv[1:], os.environ.get('QACONFORM_FORK_SERVER') is not None,\n"
        "      'hypothesis' in sys.modules)\n"
        "sys.exit(5)\n")
    cmd = forked_workers.through([sys.executable, "-P", "-m", "qc_probe_main", "a", "--b"], server.path)
    assert cmd[:4] == [sys.executable, "-S", "-I", worker_shim.__file__]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={**os.environ, worker_shim.ENV: server.path, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 5, done.stderr
    assert done.stdout.strip() == "partial-line argv ['a', '--b'] True True"
    assert forked_workers.through(["/usr/bin/env", "true"], server.path) == ["/usr/bin/env", "true"]


def test_a_forked_process_whose_shim_is_killed_ends_too(server: forked_workers.ForkServer, tmp_path: Path) -> None:
    """SIGKILL cannot be forwarded: when the runner kills pytest's stand-in, the forked pytest must not live on."""
    import signal
    import time

    shim = subprocess.Popen([sys.executable, "-S", "-I", worker_shim.__file__, "-u", "-c",
                             "import os, time; print(os.getpid(), flush=True); time.sleep(120)"],
                            cwd=tmp_path, env={**os.environ, worker_shim.ENV: server.path}, stdout=subprocess.PIPE,
                            text=True)
    assert shim.stdout is not None
    forked = int(shim.stdout.readline())
    assert forked != shim.pid
    shim.send_signal(signal.SIGKILL)
    shim.wait(timeout=10)
    for _ in range(100):  # bounded: 10 s
        try:
            os.kill(forked, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the forked process {forked} outlived its killed shim")


def test_a_worker_whose_shim_died_before_it_learnt_the_pid_ends_too(tmp_path: Path,
                                                                     capfd: pytest.CaptureFixture[str]) -> None:
    """The race the test above can lose on a busy machine: the shim is killed after its request and before the waiter
    tells it the worker's pid. The waiter then cannot send the pid; the worker must not live on (before: the waiter
    ended on the broken pipe and left the worker running). Here the shim's end is closed before the waiter starts."""
    import json
    import signal
    import socket
    import time

    waiter_end, shim_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    marker = tmp_path / "worker.pid"
    code = f"import os, time; open({str(marker)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    payload = json.dumps({"argv": ["-u", "-c", code], "cwd": str(tmp_path), "env": dict(os.environ)}).encode()
    null = os.open(os.devnull, os.O_RDWR)
    socket.send_fds(shim_end, [len(payload).to_bytes(4, "big") + payload], [null, null, null])
    os.close(null)
    shim_end.close()  # the shim is gone: its request is still there to read
    waiter = os.fork()
    if waiter == 0:  # as the server forks it
        forked_workers._wait_for_worker(waiter_end)  # never returns: os._exit
    waiter_end.close()
    os.waitpid(waiter, 0)  # the waiter ends once its worker has
    assert "Traceback" not in capfd.readouterr().err, "the waiter printed a broken pipe's traceback: noise in a run"
    deadline = time.monotonic() + 3  # a worker left running writes its pid within a fraction of a second
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    worker = int(marker.read_text() or 0) if marker.exists() else 0
    if not worker:
        return  # killed before it wrote its pid: nothing outlived the shim
    try:
        os.kill(worker, 0)
    except ProcessLookupError:
        return
    os.kill(worker, signal.SIGKILL)
    pytest.fail(f"the worker {worker} outlived its shim, which died before it learnt the pid")


@pytest.mark.parametrize(("argv", "starts"), [
    (["run"], True),
    (["run", "--profile", "site.toml", "--only", "contract"], True),
    (["run", "--jobs", "1"], False),
    (["run", "-j", "1"], False),
    (["run", "-j1"], False),
    (["run", "--jobs=1"], False),
    (["run", "--spec", "my-spec"], False),
    (["run", "--suites=my-suites"], False),
    (["run", "--help"], False),
])
def test_qaconform_run_starts_its_fork_server_before_importing_the_run_unless_it_will_not_use_it(
        argv: list[str], starts: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from qaconform.commands import cli

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.delenv("QACONFORM_JOBS", raising=False)
    monkeypatch.setattr("tempfile.tempdir", None)
    cli._start_fork_server_early(argv)
    server = forked_workers.take_early()
    try:
        assert (server is not None) is starts
        assert forked_workers.take_early() is None  # handed on once
    finally:
        if server is not None:
            server.stop()
    assert not list(tmp_path.glob("qc-fork-*"))


def test_a_run_refused_before_its_target_leaves_no_fork_server_behind(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    env.pop("QACONFORM_JOBS", None)
    done = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--max-examples", "0"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "--max-examples must be a positive number" in done.stderr
    assert "Traceback" not in done.stderr
    assert not list(tmp_path.glob("qc-fork-*")), "the early fork server's folder was left behind"


def test_a_reference_server_forked_from_its_own_server_answers_and_ends_when_killed(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The self-test forks each fault's reference server from a fork server that imported only the reference server
    (``ForkServer(preload=REFERENCE_PRELOAD)``): the server forked there answers as one started as its own
    interpreter, its kill (the self-test's throwaway stop kills the shim) ends it and frees its port, and the waiter
    that loses its shim that way prints nothing (it printed a BrokenPipeError's traceback per fault)."""
    import socket
    import time
    import urllib.request

    from qaconform.reference import ReferenceServer

    forks = forked_workers.ForkServer(preload=forked_workers.REFERENCE_PRELOAD)

    def launch(cmd: list[str], env: dict[str, str]) -> list[str]:
        env[worker_shim.ENV] = forks.path
        return forked_workers.through(cmd, forks.path)

    try:
        with ReferenceServer(throwaway=True, launch=launch) as srv:
            assert srv._proc is not None and srv._proc.args[:4] == [sys.executable, "-S", "-I", worker_shim.__file__]
            with urllib.request.urlopen(srv.url + "/services/v2/space.json", timeout=30) as resp:
                assert resp.status == 200 and b'"list"' in resp.read()
            port = int(srv.url.rsplit(":", 1)[1])
        for _ in range(100):  # bounded: 10 s
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) != 0:
                    break
            time.sleep(0.1)
        else:
            pytest.fail(f"the forked reference server still listens on {port} after its shim was killed")
    finally:
        forks.stop()
    assert "Traceback" not in capfd.readouterr().err
