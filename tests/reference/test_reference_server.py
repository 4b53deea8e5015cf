"""The reference server as a program: start, profile, CLI options, faults listing, clean stop."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from ref_helpers import ROLES, Ref

from qaconform.reference import ReferenceServer, ReferenceServerError, faults
from qaconform.reference.cli import main as cli_main
from qaconform.reference.faults import FAULTS
from qaconform.target.profile import load_profile


def test_profile_written_by_the_server_loads_and_describes_it(ref: Ref) -> None:
    p = ref.profile
    assert p.name == "reference"
    assert p.base_url == ref.url and urlsplit(ref.url).hostname == "127.0.0.1"
    assert p.timeout_s == 10 and p.service_version == "2.16.0" and p.verify_tls is True
    assert p.default_page_size == 15
    assert sorted(p.accounts) == sorted(ROLES)
    assert all(a.id and a.password for a in p.accounts.values())
    fx = p.fixtures
    assert None not in (
        fx.question_id,
        fx.space_id,
        fx.member_wiki_node_id,
        fx.wiki_node_id,
        fx.favorite_node_id,
        fx.hidden_space_id,
        fx.gdpr_csv_file_id,
    )
    assert fx.issue_tracker == "tracker"
    assert (
        p.visibility.full,
        p.visibility.recipients,
        p.visibility.to_original_poster,
        p.visibility.to_moderators,
        p.visibility.to_own_groups,
    ) == ("full", "recipients", "op", "mod", "group")
    assert p.safety.destructive is True and p.safety.gdpr_user == "gdpr-target"


def test_profile_fixtures_point_at_what_they_promise(ref: Ref) -> None:
    fx = ref.profile.fixtures
    for who in ROLES:
        q = ref.question(fx.question_id, who)
        assert q["primaryContainerId"] == fx.space_id
    assert ref.question(fx.member_wiki_node_id)["wiki"] is True
    assert ref.question(fx.member_wiki_node_id)["author"]["id"] == ref.user_id("member")
    wiki = ref.question(fx.wiki_node_id)
    assert wiki["wiki"] is True and wiki["author"]["id"] != ref.user_id("member")
    spaces = {s["id"] for s in ref.ok("GET", "/space.json", "novice")["list"]}
    assert fx.hidden_space_id not in spaces and fx.space_id in spaces


def test_every_account_logs_in_with_the_profile_password(ref: Ref) -> None:
    for who in ROLES:
        assert ref.get("/tracker/issuetype.json", who).status_code == 200, who


def test_server_stops_and_frees_its_port_on_exit() -> None:
    with ReferenceServer(page_size=7) as srv:
        port = urlsplit(srv.url).port
        body = requests.get(srv.url + "/services/v2/question.json", timeout=10).json()
        assert body["pageSize"] == 7
        assert load_profile(srv.profile_path).default_page_size == 7
    with pytest.raises(requests.ConnectionError):
        requests.get(f"http://127.0.0.1:{port}/services/v2/question.json", timeout=2)


def test_a_throwaway_server_is_killed_at_stop_but_never_one_on_a_database_file(tmp_path: Path) -> None:
    """The self-test's servers (``throwaway``, in memory) are killed: nothing of them is read afterwards, and the
    graceful stop was half a second of waiting per fault. A database file is never killed mid-write."""
    import signal

    with ReferenceServer(throwaway=True) as srv:
        proc, port = srv._proc, urlsplit(srv.url).port
        assert requests.get(srv.url + "/services/v2/question.json", timeout=10).status_code == 200
    assert proc is not None and proc.returncode == -signal.SIGKILL, proc and proc.returncode
    with pytest.raises(requests.ConnectionError):
        requests.get(f"http://127.0.0.1:{port}/services/v2/question.json", timeout=2)
    with ReferenceServer(throwaway=True, db=str(tmp_path / "ref.sqlite")) as srv:
        proc = srv._proc
    assert proc is not None and proc.returncode == 0, "a server on a database file stops gracefully (SIGTERM)"


def test_an_embedded_server_ends_when_the_process_that_started_it_is_killed(tmp_path: Path) -> None:
    """A kit command killed at a hard timeout (SIGKILL: no clean-up runs) must not leave its server listening."""
    import os
    import signal
    import time

    starter = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom qaconform.reference import ReferenceServer\n"
         "s = ReferenceServer(); s.start(); print(s._proc.pid, flush=True); time.sleep(120)"],
        stdout=subprocess.PIPE, text=True)
    assert starter.stdout is not None
    server_pid = int(starter.stdout.readline())
    os.kill(starter.pid, signal.SIGKILL)
    starter.wait(timeout=10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            return
        with open(f"/proc/{server_pid}/stat", encoding="ascii") as stat:  # a zombie has ended (init reaps it)
            if stat.read().split(") ", 1)[1].startswith("Z"):
                return
        time.sleep(0.2)
    os.kill(server_pid, signal.SIGKILL)
    raise AssertionError("the reference server outlived the process that started it by 10 s")


def test_sized_server_seeds_the_number_of_nodes_asked_for() -> None:
    with ReferenceServer(size=3000) as srv:
        body = requests.get(srv.url + "/services/v2/question.json", timeout=10, params={"pageSize": 1}).json()
        assert 500 < body["totalCount"] < 1000  # about a quarter of the nodes are questions


def test_server_that_cannot_start_raises_with_its_error_output() -> None:
    with pytest.raises(ReferenceServerError) as err:
        with ReferenceServer(faults=("no-such-fault",)):
            pass
    assert "no-such-fault" in str(err.value) and "--list-faults" in str(err.value)


def test_file_database_is_reused_with_the_same_fixtures(tmp_path: Path) -> None:
    path = str(tmp_path / "ref.sqlite")
    with ReferenceServer(db=path) as first:
        fx1 = load_profile(first.profile_path).fixtures
        auth = ("member", load_profile(first.profile_path).accounts["member"].password)
        r = requests.post(
            f"{first.url}/services/v2/question/{fx1.question_id}/answer.json",
            auth=auth,
            json={"body": "kept across restarts"},
            timeout=10,
        )
        assert r.status_code == 201
        new_id = int(r.json()["id"])
    with ReferenceServer(db=path) as second:
        assert load_profile(second.profile_path).fixtures == fx1
        answers = requests.get(
            f"{second.url}/services/v2/user/3/answer.json", params={"pageSize": 1000}, timeout=10
        ).json()["list"]
        assert new_id in {a["id"] for a in answers}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qaconform.reference", *args], capture_output=True, text=True, timeout=60
    )


def test_list_faults_prints_every_fault_with_its_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["--list-faults"]) == 0
    out = capsys.readouterr().out
    for fault in FAULTS.values():
        assert fault.name in out and fault.rule in out
    assert len(FAULTS) >= 6


@pytest.mark.parametrize(
    "args, message",
    [
        (["--size", "huge"], "size must be 'small' or a number"),
        (["--size", "2000000"], "between 1 and 1,000,000"),
        (["--fault", "nope"], "unknown fault 'nope'"),
        (["--page-size", "0"], "--page-size must be 1 or more"),
    ],
)
def test_cli_rejects_bad_options_with_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        assert cli_main(["--port", "0", *args]) == 2
    finally:
        faults.activate(())
    assert message in capsys.readouterr().err


def test_cli_reports_a_busy_port_and_exits_3() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        out = _cli("--port", str(busy.getsockname()[1]))
    assert out.returncode == 3
    assert "pick another --port" in out.stderr


def test_cli_prints_the_listening_line_and_stops_on_sigterm() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "qaconform.reference", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = ""
        for _ in range(20):
            line = proc.stdout.readline()
            if "listening on" in line:
                break
        assert line.startswith("qaconform reference server listening on http://127.0.0.1:")
        url = line.rsplit(" ", 1)[1].strip()
        assert requests.get(url + "/services/v2/space.json", timeout=10).status_code == 200
        proc.terminate()
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def test_a_server_whose_parent_is_not_the_watched_process_ends_when_that_process_does() -> None:
    """``--exit-with-parent PID`` of a server forked from the self-test's fork server: its parent is that server's
    waiter, not PID, so it must live while PID lives and end once PID is gone (else every forked server would end at
    once, or outlive a killed self-test)."""
    import time

    watched = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    server = subprocess.Popen([sys.executable, "-c", "import time; from qaconform.reference.cli import "
                               f"exit_with_parent; exit_with_parent({watched.pid}, 0.1); "
                               "print('watching', flush=True); time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "watching"
        time.sleep(1.0)  # ten checks of its watch
        assert server.poll() is None, "it ended while the process it watches was alive"
        watched.kill()
        watched.wait(timeout=10)
        assert server.wait(timeout=20) == 0
    finally:
        for p in (watched, server):
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
