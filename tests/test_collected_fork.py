"""Workers forked from the first worker's collection (qaconform/pytest/collected_fork.py): the first worker of a run
is claimed and offers a template, later workers are handed to it (or forked fresh when none comes), and a parallel
run of the suites gives every test the outcome it gets when every worker collects."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from qaconform.pytest import collected_fork, forked_workers

pytestmark = pytest.mark.skipif(not forked_workers.enabled({}), reason="workers are forked on Linux only")

ROOT = Path(__file__).resolve().parents[1]


def _request(key: str | None, argv: list[str] | None = None) -> dict[str, object]:
    env = {"PATH": "/usr/bin"}
    if key:
        env[collected_fork.SESSION_ENV] = key
    return {"argv": argv or ["-u", "-c", "import sys"], "cwd": "/", "env": env}


def test_the_first_worker_of_a_run_is_claimed_to_offer_its_collection(tmp_path: Path) -> None:
    a, b = socket.socketpair()
    first = _request("ab12")
    assert collected_fork.route(first, [], a, str(tmp_path)) is False  # forked fresh, by the waiter
    assert first["env"][collected_fork.TEMPLATE_ENV] == str(tmp_path / "tpl-ab12.sock")  # type: ignore[index]
    other_run = _request("cd34")
    assert collected_fork.route(other_run, [], a, str(tmp_path)) is False
    assert collected_fork.TEMPLATE_ENV in other_run["env"]  # type: ignore[operator]
    a.close()
    b.close()


@pytest.mark.parametrize("request_", [
    _request(None),  # not a run's worker (the kit's own tests, a plain pytest -n)
    _request("ab12", ["-P", "-m", "pytest", "suites"]),  # the suites' pytest itself, not a worker
])
def test_what_is_not_a_runs_worker_is_never_routed(request_: dict[str, object], tmp_path: Path) -> None:
    a, b = socket.socketpair()
    assert collected_fork.route(request_, [], a, str(tmp_path)) is False
    assert collected_fork.TEMPLATE_ENV not in request_["env"]  # type: ignore[operator]
    assert not list(tmp_path.iterdir())
    a.close()
    b.close()


def test_a_later_worker_is_forked_fresh_when_the_first_says_no_template_comes(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collected_fork, "WAIT_S", 30.0)
    a, b = socket.socketpair()
    assert collected_fork.route(_request("ab12"), [], a, str(tmp_path)) is False
    (tmp_path / "tpl-ab12.none").touch()  # the first worker's collection failed: it offers nothing
    later = _request("ab12")
    assert collected_fork.route(later, [], a, str(tmp_path)) is False  # at once, not after WAIT_S
    assert collected_fork.TEMPLATE_ENV not in later["env"]  # type: ignore[operator]
    a.close()
    b.close()


def test_a_later_worker_is_handed_to_the_template_with_its_shim_and_streams(tmp_path: Path) -> None:
    """The waiter passes the shim's socket and its three streams to the template, which says ``ok``."""
    sock = tmp_path / "tpl-ab12.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(sock))
    listener.listen(1)
    got: dict[str, object] = {}

    def template() -> None:
        conn, _ = listener.accept()
        head, fds, _, _ = socket.recv_fds(conn, 1 << 20, 4)
        got["request"] = json.loads(head[4:])
        got["fds"] = len(fds)
        for fd in fds:
            os.close(fd)
        conn.sendall(b"ok\n")
        conn.close()

    thread = threading.Thread(target=template)
    thread.start()
    (tmp_path / "tpl-ab12.first").touch()  # the run's first worker was claimed before
    shim, waiter = socket.socketpair()
    streams = [os.open(os.devnull, os.O_RDWR) for _ in range(3)]
    assert collected_fork.route(_request("ab12"), streams, waiter, str(tmp_path)) is True
    thread.join(10)
    assert got["fds"] == 4  # the shim's socket and its stdin, stdout, stderr
    assert got["request"]["env"][collected_fork.SESSION_ENV] == "ab12"  # type: ignore[index]
    for fd in streams:  # the waiter's copies are closed: the worker holds them now
        with pytest.raises(OSError):
            os.fstat(fd)
    listener.close()
    shim.close()
    waiter.close()


FILES = ["suites/contract/test_null_fields.py", "suites/contract/test_unsized_pages.py",
         "suites/contract/test_bare_array_readers.py"]


def _run(tmp_path: Path, name: str, **env: str) -> tuple[dict[str, str], str, subprocess.CompletedProcess[str]]:
    junit = tmp_path / f"{name}.xml"
    log = tmp_path / f"{name}.log"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *FILES, "-n", "3", "-p", "no:randomly", "-q", "-p", "no:cacheprovider",
         f"--junitxml={junit}", "-p", "qaconform.pytest.exchange_log", f"--qaconform-exchanges={tmp_path / name}"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "QACONFORM_SEED": "20260801", collected_fork.LOG_ENV: str(log), **env})
    outcomes: dict[str, str] = {}
    if junit.exists():
        for case in ET.parse(junit).getroot().iter("testcase"):
            kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
            outcomes[f"{case.get('classname')}::{case.get('name')}"] = kinds[0] if kinds else "passed"
    return outcomes, log.read_text() if log.exists() else "", done


def test_a_parallel_run_forks_the_later_workers_from_the_first_ones_collection_with_the_same_outcomes(
        tmp_path: Path) -> None:
    forked, log, done = _run(tmp_path, "forked")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert sorted(log.split("\n")) == ["", "forked gw1", "forked gw2", "template gw0 for 2"], log
    # each worker its own exchange log, each with the exchanges of the tests it ran
    assert {p.name for p in (tmp_path / "forked").glob("*.jsonl")} >= {"gw0.jsonl"}
    collected, log_off, done_off = _run(tmp_path, "collected", **{collected_fork.SWITCH: "0"})
    assert done_off.returncode == 0, done_off.stdout[-3000:]
    assert log_off == ""  # switched off: every worker collected
    assert forked and forked == collected
