"""`qaconform load` keeps to its write budget, counted at the target; a refused state change is a failure row; the
nothing-lost check reads back every account that wrote.

Each run is a bounded subprocess against its own embedded reference server (Locust never runs in this process);
what the load wrote is counted through the interface (the authors' answer lists and their answers' comment lists),
not taken from the kit's own summary.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from qaconform.load.nothing_lost import check_nothing_lost
from qaconform.reference import ReferenceServer
from qaconform.target.profile import Profile, load_profile

ROOT = Path(__file__).resolve().parents[2]
WRITERS = ("member", "moderator", "admin")


def load(profile: str, out: Path, *args: str, timeout: float = 120) -> tuple[int, str, dict[str, Any]]:
    cmd = [sys.executable, "-m", "qaconform.commands.cli", "load", "--profile", profile,
           "--report-dir", str(out), *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    summary_path = out / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
    return proc.returncode, proc.stdout + proc.stderr, summary


@pytest.fixture(scope="module")
def ref_profile() -> Iterator[str]:
    with ReferenceServer() as server:
        yield str(server.profile_path)


def _get(profile: Profile, role: str, path: str, **params: Any) -> dict[str, Any]:
    acc = profile.accounts[role]
    r = requests.get(f"{profile.api_root}{path}", params=params, auth=(acc.username, acc.password), timeout=10)
    assert r.status_code == 200, (path, r.status_code, r.text[:200])
    return dict(r.json())


def written_at_target(profile: Profile) -> dict[str, set[int] | int]:
    """Every answer of the writing accounts (by id) and the comments on them, as their authors read them."""
    answers: set[int] = set()
    comments = 0
    for role in WRITERS:
        uid = profile.accounts[role].id
        assert uid is not None, "the reference server's profile names its account ids"
        for page in range(1, 51):
            js = _get(profile, role, f"/user/{uid}/answer.json", page=page, pageSize=100)
            mine = {int(a["id"]) for a in js["list"]}
            answers |= mine
            for aid in mine:
                comments += int(_get(profile, role, f"/answer/{aid}/comment.json", pageSize=1)["totalCount"])
            if page >= js["pageCount"]:
                break
    return {"answers": answers, "comments": comments}


@pytest.mark.slow
def test_the_write_total_holds_at_the_target_across_two_workers(ref_profile: str, tmp_path: Path) -> None:
    profile = load_profile(ref_profile)
    before = written_at_target(profile)
    rc, output, s = load(ref_profile, tmp_path, "--scenario", "write", "--duration", "4", "--users", "4",
                         "--workers", "2", "--max-writes", "15", "--max-write-rps", "100", "--no-cleanup",
                         timeout=120)  # kept: what the load wrote is counted at the target after it
    after = written_at_target(profile)
    assert rc == 0, output
    new_answers = len(after["answers"] - before["answers"])  # type: ignore[operator]
    new_comments = int(after["comments"]) - int(before["comments"])  # type: ignore[call-overload]
    w = s["writes"]
    assert new_answers + new_comments <= 15, (new_answers, new_comments)
    assert new_answers + new_comments == w["accepted"] == w["sent"] == 15, (new_answers, new_comments, w)
    assert w["budget_reached"] and w["processes"] == 2 and w["shares_spent"] == 2, w
    assert "WRITE BUDGET REACHED: 15 of 15 writes sent" in output
    assert s["operations"]["listQuestions"]["count"] > 0, "the users kept reading once the budget was spent"
    # nothing-lost read back every account that wrote, each through its own lists
    roles = {json.loads(line)["role"] for f in tmp_path.glob("created-*.jsonl") for line in f.read_text().splitlines()}
    accounts = s["nothing_lost"]["accounts"]
    assert set(accounts) == roles and len(roles) >= 2, (accounts, roles)
    assert sum(a["answers"] + a["comments"] for a in accounts.values()) == 15 and s["lost"] == []


@pytest.mark.slow
def test_the_write_rate_holds_roughly(ref_profile: str, tmp_path: Path) -> None:
    rc, output, s = load(ref_profile, tmp_path, "--scenario", "write", "--duration", "5", "--users", "4",
                         "--max-writes", "1000", "--max-write-rps", "4", timeout=120)
    assert rc == 0, output
    w = s["writes"]
    # one write at the start, then 4/s for the 5 s the users run (a task under way when they stop may still write)
    assert 0.5 * 4 * 5 <= w["sent"] <= 4 * 5 + 2, w
    assert w["held_back"]["rate"] > 0 and not w["budget_reached"], w


@pytest.mark.slow
def test_a_refused_cancelwiki_is_a_failure_row_not_a_success(tmp_path: Path) -> None:
    """The variant one-shots-consumed names wiki nodes an earlier run unwikified: the load's cancelwiki is refused.
    It is a failure row of its own name (a one-shot fixture: not held against the target)."""
    with ReferenceServer(variants=("one-shots-consumed",)) as server:
        rc, output, s = load(str(server.profile_path), tmp_path, "--scenario", "moderate", "--duration", "4",
                             "--users", "3", "--max-write-rps", "40", timeout=120)
    assert rc == 0, output
    with (tmp_path / "locust_failures.csv").open(newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["Name"] == "cancelWiki (one-shot)"]
    assert rows and all("refused: got 4" in r["Error"] for r in rows), rows
    assert s["operations"]["cancelWiki (one-shot)"]["failures"] >= 1
    assert s["writes"]["by_operation"]["cancelWiki (one-shot)"]["refused"] >= 1
    assert "cancelWiki (one-shot): refused" in output
    assert s["verdict"] == "pass"


@pytest.mark.slow
def test_a_refused_lock_of_a_fresh_node_fails_the_run(tmp_path: Path) -> None:
    """Not a one-shot: the load locks answers it just created, so a refusal is the target's and fails the run."""
    with ReferenceServer(faults=("lock-denied-to-moderator",)) as server:
        rc, output, s = load(str(server.profile_path), tmp_path, "--scenario", "moderate", "--duration", "4",
                             "--users", "3", "--max-write-rps", "40", timeout=120)
    assert rc == 1, output
    with (tmp_path / "locust_failures.csv").open(newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["Name"] == "lockNode"]
    assert rows and all("refused: got 4" in r["Error"] for r in rows), rows
    assert s["writes"]["by_operation"]["lockNode"]["refused"] >= 1
    assert "lockNode.failure_ratio" in {t["name"] for t in s["thresholds"] if not t["ok"]}


def test_the_nothing_lost_check_reads_back_each_account_not_only_the_first(ref_profile: str) -> None:
    profile = load_profile(ref_profile)
    qid = profile.fixtures.question_id
    recs = []
    for role in ("member", "moderator"):
        acc = profile.accounts[role]
        r = requests.post(f"{profile.api_root}/question/{qid}/answer.json", json={"body": f"<p>by {role}</p>"},
                          auth=(acc.username, acc.password), timeout=10)
        assert r.status_code == 201, r.text
        recs.append({"kind": "answer", "id": int(r.json()["id"]), "role": role, "parent": qid, "user_id": acc.id})
    recs.append({"kind": "answer", "id": 987654323, "role": "moderator", "parent": qid,
                 "user_id": profile.accounts["moderator"].id})
    recs.append({"kind": "moderated", "id": recs[0]["id"]})
    lost, facts = check_nothing_lost(profile, recs, budget_s=20)
    assert [(x["id"], x["role"], x["problem"]) for x in lost] == [(987654323, "moderator", "missing")]
    assert facts["accounts"] == {"moderator": {"answers": 2, "comments": 0, "lost": 1}}
    assert facts["not_checked"] == {"sent_to_moderation": 1} and facts["created"] == 3
