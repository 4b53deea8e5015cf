"""CI's hundredth build against one staging server (user14): every earlier build left its answers there (no delete
action named), so the writer's answer list is longer than a page. A rule must not switch off for what the kit itself
piled up: the count read right after a write (PAGING-TOTALCOUNT-UNION, suites/contract/test_count_after_write.py)
skipped "the list may be longer than one page" from the moment member had a page of answers (at the cap of 20 of
the `page-size-cap-20` variant: the second build), and stayed skipped forever. Now the pages are walked and the count
judged against what was listed before and after the write: it holds on a clean server and still catches a count
kept from before the write (the planted fault user-answer-count-cached).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from qaconform.reference import ReferenceServer
from qaconform.target.client import ApiClient, Recorder
from qaconform.target.profile import load_profile

pytestmark = pytest.mark.slow

TEST = "test_a_users_answer_count_read_right_after_an_answer_counts_it"
PILED = 45
"""Answers member already holds, as earlier builds left them: more than two pages at the cap of 20."""


def _pile_answers(profile_path: str) -> None:
    profile = load_profile(profile_path)
    account = profile.accounts["member"]
    member = ApiClient(profile, "member", account.username, account.password, Recorder(keep=0))
    for n in range(PILED):
        resp = member.post(f"/question/{profile.fixtures.question_id}/answer.json",
                           json={"body": f"<p>an earlier build's answer {n} [qc-earlier]</p>"})
        assert resp.status_code == 201, resp.text


def _outcome(tmp_path: Path, faults: tuple[str, ...]) -> dict[str, Any]:
    with ReferenceServer(variants=("page-size-cap-20",), faults=faults, start_timeout=120) as server:
        _pile_answers(server.profile_path)
        proc = subprocess.run(
            [sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", server.profile_path, "--seed", "1",
             "--only", "PAGING-TOTALCOUNT-UNION", "--report-dir", str(tmp_path / "r"), "--", "-k", TEST],
            capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    found = [t for t in results["tests"] if TEST in t["nodeid"] and t["when"] == "call"]
    assert len(found) == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    return dict(found[0])


def test_the_count_after_a_write_is_judged_on_a_list_longer_than_a_page(tmp_path: Path) -> None:
    test = _outcome(tmp_path, ())
    assert test["outcome"] == "passed", (test["outcome"], test.get("message"))


def test_a_count_kept_from_before_the_write_fails_on_a_list_longer_than_a_page(tmp_path: Path) -> None:
    test = _outcome(tmp_path, ("user-answer-count-cached",))
    assert test["outcome"] == "failed" and "PAGING-TOTALCOUNT-UNION" in test["rules"], (test["outcome"],
                                                                                         test.get("message"))
