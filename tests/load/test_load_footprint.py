"""Load leaves staging as it found it (issue 45): with the profile's ``[cleanup]``, ``qaconform load`` and ``qaconform
capacity`` remove what they created at their end, and ``qaconform cleanup`` takes their folders.

One default capacity run and two short loads had left 456 answers and 222 comments under a staging server's fixture
question. Here each command runs as a subprocess against the embedded reference server (whose profile names its
delete action), and every list count a load can change is read before and after, as the admin reads it
(:func:`counts`: 33 counts on the reference server).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from qaconform.contract import path as op_path
from qaconform.reference import ReferenceServer
from qaconform.target.client import ApiClient
from qaconform.target.discover import clients_for
from qaconform.target.profile import Profile, load_profile

pytestmark = pytest.mark.slow  # Locust in subprocesses
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server() -> Iterator[ReferenceServer]:
    with ReferenceServer() as srv:
        yield srv


LIST_COUNTS = ("listQuestions", "listActiveExperts", "listEarnedExperts", "listSpaces", "listTopics", "listGroups")
"""Lists without a parameter: their totalCount as the admin reads them."""


def _get(client: ApiClient, op: str, params: dict[str, object] | None = None, **ids: object) -> object:
    r = client.get(op_path(op, **ids).removeprefix("/services/v2/"), params=params or {})
    assert r.status == 200, f"GET {op} {ids} answered {r.status}: the count cannot be read"
    return r.json()


def counts(profile: Profile) -> dict[str, int]:
    """Every list count a load or capacity run can change, as the admin reads it (issue 45, "Done when": "leave every
    list count as it was"): each list's totalCount; every account's answers, questions and content (the user content
    list, a bare array); the fixture question's answerCount and answers; the comments of every answer under it and of
    every account's answers; the followers of the fixture question and of the one-shot fixtures. Favorites have no
    list to read (no operation shows them): the unfavorite is a one-shot the mixed load never sends (only the moderate
    scenario's member does) and capacity never."""
    admin = clients_for(profile)["admin"]
    fx = profile.fixtures
    out = {f"{op}.totalCount": int(_get(admin, op)["totalCount"]) for op in LIST_COUNTS}  # type: ignore[index]
    answers: set[int] = set()
    page = 1
    while True:  # the fixture question's item: answerCount and answers (a question's answers field)
        js = _get(admin, "listQuestions", {"page": page, "pageSize": 100})
        for item in js["list"]:  # type: ignore[index]
            if str(item.get("id")) == str(fx.question_id):
                out["fixture question answerCount"] = int(item.get("answerCount", -1))
                out["fixture question answers"] = len(item.get("answers") or ())
                answers.update(int(a) for a in item.get("answers") or ())
        if page >= int(js["pageCount"]):  # type: ignore[index]
            break
        page += 1
    for role, account in profile.accounts.items():
        mine = _get(admin, "listUserAnswers", {"pageSize": 100}, userId=account.id)
        out[f"answers of {role}"] = int(mine["totalCount"])  # type: ignore[index]
        answers.update(int(item["id"]) for item in mine["list"])  # type: ignore[index]
        out[f"questions of {role}"] = int(_get(admin, "listUserQuestions", userId=account.id)["totalCount"])  # type: ignore[index]
        out[f"content of {role}"] = len(_get(admin, "listUserContent", userId=account.id))  # type: ignore[arg-type]
    for answer in sorted(answers):
        r = admin.get(op_path("listAnswerComments", answerId=answer).removeprefix("/services/v2/"))
        if r.status == 200:  # an answer in moderation may be shown to no one: not a count of this test
            out[f"comments of answer {answer}"] = int(r.json()["totalCount"])
    for name in ("question_id", "wiki_node_id", "member_wiki_node_id", "favorite_node_id"):
        node = getattr(fx, name, None)
        for n in node if isinstance(node, list | tuple) else [node] if node is not None else []:
            out[f"followers of {name} {n}"] = int(_get(admin, "listNodeFollowers", nodeId=n)["totalCount"])  # type: ignore[index]
    return out


def qaconform(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, check=False)


def test_a_mixed_load_removes_what_it_created_at_its_end(server: ReferenceServer, tmp_path: Path) -> None:
    profile = load_profile(server.profile_path)
    before = counts(profile)
    # 30 s as the issue says: a 10 s mixed load sent only answers and comments (49 writes); in 30 s the moderator also
    # locks and sends to moderation (150 writes: 4 locks, 3 sends), which left answerCount 3 higher before deletion
    # took back a moderated answer's count (tests/reference/test_reference_deletion.py)
    proc = qaconform("load", "--profile", str(server.profile_path), "--scenario", "mixed", "--duration", "30",
                     "--report-dir", str(tmp_path))
    # its latency verdict is the machine's (a busy one breaches p95): only the footprint is judged here
    assert proc.returncode in (0, 1) and (tmp_path / "summary.json").is_file(), proc.stdout[-3000:] + proc.stderr
    record = json.loads((tmp_path / "cleanup.json").read_text(encoding="utf-8"))
    assert record["created"] > 0 and record["left_behind"] == 0, record
    assert "cleanup: removed" in proc.stdout, proc.stdout[-2000:]
    after = counts(profile)
    assert after == before, {k: (before.get(k), after.get(k)) for k in set(before) | set(after)
                             if before.get(k) != after.get(k)}


def test_a_capacity_run_removes_every_steps_nodes_and_cleanup_takes_a_load_folder(
        server: ReferenceServer, tmp_path: Path) -> None:
    profile = load_profile(server.profile_path)
    before = counts(profile)
    proc = qaconform("capacity", "--profile", str(server.profile_path), "--scenario", "mixed", "--max-time", "40",
                     "--report-dir", str(tmp_path / "cap"))
    assert (tmp_path / "cap" / "capacity.json").is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    record = json.loads((tmp_path / "cap" / "cleanup.json").read_text(encoding="utf-8"))
    assert record["created"] > 0 and record["left_behind"] == 0, record
    assert counts(profile) == before

    kept = qaconform("load", "--profile", str(server.profile_path), "--scenario", "write", "--duration", "5",
                     "--report-dir", str(tmp_path / "kept"), "--no-cleanup")
    assert kept.returncode in (0, 1) and (tmp_path / "kept" / "summary.json").is_file(), kept.stdout + kept.stderr
    assert counts(profile) != before, "--no-cleanup keeps what the load wrote"
    later = qaconform("cleanup", str(tmp_path / "kept"))  # the profile from the folder's target.json
    assert later.returncode == 0, later.stdout + later.stderr
    assert counts(profile) == before
    again = qaconform("cleanup", str(tmp_path / "kept"))
    assert again.returncode == 0 and "already gone" in again.stdout, again.stdout + again.stderr


def test_a_ctrl_c_during_the_load_says_what_it_created_and_how_to_remove_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A write scenario stopped with Ctrl-C printed only "interrupted", with 77 answers and comments left on the
    target and no word of them. No delete is sent (the user asked to stop); the line and cleanup.json say what stays
    and the command that removes it, and the interrupt still ends the command."""
    from qaconform.load.footprint import CLEANUP_NAME, said_on_interrupt
    from qaconform.target.profile import profile_from_dict

    accounts = {r: {"username": r, "password": "pw"} for r in ("admin", "moderator", "member", "novice")}
    profile = profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": accounts,
                                 "fixtures": {"question_id": 1, "space_id": 1},
                                 "cleanup": {"method": "PUT", "path": "/services/v2/node/{id}/delete.json"}})
    rows = [{"kind": "answer", "id": 41, "role": "member", "parent": 1},
            {"kind": "comment", "id": 42, "role": "member", "parent": 41}]
    (tmp_path / "created-123.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    with pytest.raises(KeyboardInterrupt), said_on_interrupt(profile, tmp_path, "load"):
        raise KeyboardInterrupt
    line = capsys.readouterr().out.strip()
    assert line.startswith("cleanup: the load run was interrupted; remove them later with `qaconform cleanup "
                           f"{tmp_path} --profile"), line
    assert line.endswith("left behind: 2 created items (1 answer, 1 comment)"), line
    record = json.loads((tmp_path / CLEANUP_NAME).read_text())
    assert (record["created"], record["left_behind"], record["calls"]) == (2, 2, 0), record


def test_a_sigterm_during_the_load_is_taken_as_a_ctrl_c(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """user12: `kill` (or a cancelled CI job) ended `qaconform capacity` at once with exit 143 and no word, and its
    Locust processes went on loading the target to the end of their step. Meanwhile a SIGTERM is a Ctrl-C: the
    Locust processes are stopped (the runner's finally), what was created is said; the handler is restored after."""
    import os
    import signal

    from qaconform.load.footprint import said_on_interrupt
    from qaconform.target.profile import profile_from_dict

    accounts = {r: {"username": r, "password": "pw"} for r in ("admin", "moderator", "member", "novice")}
    profile = profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": accounts,
                                 "fixtures": {"question_id": 1, "space_id": 1}})
    rows = [{"kind": "answer", "id": 41, "role": "member", "parent": 1}]
    (tmp_path / "created-123.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), said_on_interrupt(profile, tmp_path, "capacity"):
        os.kill(os.getpid(), signal.SIGTERM)
    assert "the capacity run was interrupted" in capsys.readouterr().out
    assert signal.getsignal(signal.SIGTERM) == before


def test_without_a_delete_action_the_line_says_how_to_find_what_the_load_left(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """qa19: a write load against a profile without ``[cleanup]`` said only that its answers and comments stay on the
    target. The line now gives the run tag their bodies hold (qaload- and the run id, as summary.json has it) and the
    file listing their ids."""
    from qaconform.load.footprint import CLEANUP_NAME, clean_up
    from qaconform.target.profile import profile_from_dict

    accounts = {r: {"username": r, "password": "pw"} for r in ("admin", "moderator", "member", "novice")}
    profile = profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": accounts,
                                 "fixtures": {"question_id": 1, "space_id": 1}})
    rows = [{"kind": "answer", "id": 41, "role": "member", "parent": 1},
            {"kind": "comment", "id": 42, "role": "member", "parent": 41}]
    (tmp_path / "created-123.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    (tmp_path / "summary.json").write_text(json.dumps({"run_id": "20261201-110952-31fa"}), "utf-8")
    record = clean_up(profile, tmp_path, command="load")
    line = capsys.readouterr().out.strip()
    assert "stay on the target; each body holds its run tag qaload-20261201-110952-31fa; their ids are in " \
           f"{tmp_path}/created-*.jsonl" in line, line
    assert line.endswith("left behind: 2 created items (1 answer, 1 comment)"), line
    assert (record["created"], record["left_behind"], record["calls"]) == (2, 2, 0), record
    assert "qaload-20261201-110952-31fa" in (tmp_path / CLEANUP_NAME).read_text()


def test_each_cleanup_line_of_an_ab_comparison_names_its_target(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """qa19: `qaconform capacity --baseline-target` printed "cleanup: the run created nothing on the target" twice,
    one line per build, neither saying which. The label names it."""
    from qaconform.load.footprint import clean_up
    from qaconform.target.profile import profile_from_dict

    accounts = {r: {"username": r, "password": "pw"} for r in ("admin", "moderator", "member", "novice")}
    profile = profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": accounts,
                                 "fixtures": {"question_id": 1, "space_id": 1}})
    for name in ("baseline", "candidate"):
        (tmp_path / name).mkdir()
        clean_up(profile, tmp_path / name, command="capacity", label=f"{name} {profile.base_url}")
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"cleanup ({name} http://127.0.0.1:9): the run created nothing on the target"
                     for name in ("baseline", "candidate")], lines
