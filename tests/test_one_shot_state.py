"""One-shot fixtures whose state comes from the target, the record beside the profile only a hint.

A CI build starts from a fresh checkout: no record. The doctor then reads a wiki node's state from bounded list
reads (qaconform.target.fixture_state) and says "unknown" for a favorite (no read shows one), never "ok"; a run
whose unfavorite then meets a node an earlier build consumed skips those tests as "not checked: fixture not in its
state" (qaconform.pytest.one_shots), never a failed rule. Where the state was known (the reference server's record
says its one-shots are fresh), the same answer stays the rule's failure: the planted fault is still caught.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from qaconform.kit import pytest_command, suite_env
from qaconform.pytest import one_shots
from qaconform.pytest.outcomes import SkipKind
from qaconform.reference import ReferenceServer
from qaconform.target import fixture_state, ledger
from qaconform.target.client import ApiResponse, Exchange, Recorder
from qaconform.target.doctor import Severity, examine, render
from qaconform.target.fixture_state import FixtureState
from qaconform.target.profile import load_profile

UNFAVORITE_TESTS = ["suites/scenarios/test_node_actions.py", "suites/contract/test_operation_shapes.py",
                    "suites/scenarios/test_permissions.py", "-k", "unfavorit"]
"""The tests that read member's unfavorite of favorite_node_id (the one-shot fixture ``unfavorite_once``)."""


def _alone(srv: ReferenceServer, folder: Path, record: bool = False) -> Path:
    """The server's profile copied into ``folder`` as a CI checkout has it: alone (``record``: with the record)."""
    target = folder / "site.toml"
    shutil.copy(srv.profile_path, target)
    if record:
        shutil.copy(ledger.ledger_path(srv.profile_path), ledger.ledger_path(target))
    return target


def _suites(profile: Path, work: Path, *selection: str) -> list[dict[str, Any]]:
    """The suites' tests ``selection`` against ``profile``, serially; their entries of the results file."""
    results = work / "results.json"
    root = Path(__file__).resolve().parent.parent
    cmd = [*pytest_command(), *[str(root / s) if s.startswith("suites/") else s for s in selection],
           "--target-profile", str(profile), "-q", "--qaconform-results", str(results), "-p", "no:randomly"]
    from qaconform.reference.profile_out import password_env

    # none of the caller's settings; the passwords the reference server's profile names (qa16), as the self-test
    env = suite_env({**{k: v for k, v in os.environ.items() if not k.startswith("QACONFORM_")}, **password_env()})
    proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert results.exists(), f"exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    tests: list[dict[str, Any]] = json.loads(results.read_text(encoding="utf-8"))["tests"]
    assert tests, proc.stdout[-3000:]
    return tests


@pytest.fixture(scope="module")
def consumed() -> Iterator[ReferenceServer]:
    """A staging site an earlier build used: every one-shot node consumed (member's favorite removed, wiki nodes
    unwikified)."""
    with ReferenceServer(variants=("one-shots-consumed",)) as srv:
        yield srv


# ----------------------------------------------------------------------------------------------------------
# the doctor, given a consumed fixture and no record

def test_the_doctor_with_no_record_says_unknown_or_not_in_its_state_never_ok(consumed: ReferenceServer,
                                                                              tmp_path: Path) -> None:
    path = _alone(consumed, tmp_path)
    assert not ledger.ledger_path(path).exists()
    profile = load_profile(path)
    rec = Recorder(secrets=set(profile.passwords()), keep=10_000)
    d = examine(profile, rec)
    text = render(d, profile)
    assert d.exit_code == 0, text
    favorite = d.one_shots["favorite_node_id"]
    assert (favorite.chosen, favorite.state, favorite.unknown) == (profile.fixtures.favorite_node_id,
                                                                  FixtureState.UNKNOWN, (favorite.chosen,)), text
    said = [f for f in d.findings if f.key == "fixtures.favorite_node_id"]
    assert len(said) == 1 and said[0].severity is Severity.NOTE, text
    assert f"the state of node {favorite.chosen} is unknown" in said[0].message
    assert "this run uses node" not in said[0].message
    for name in ("member_wiki_node_id", "wiki_node_id"):  # a list shows them unwikified: not in their state
        assert d.one_shots[name].state is FixtureState.NOT_IN_STATE, text
        assert "not in the state the profile says" in d.unusable[name]
    assert not [f for f in d.findings if f.key.startswith("fixtures.") and "_node_id" in f.key
                and f.severity is Severity.OK], text
    assert {e.method for e in rec.exchanges} == {"GET"}


def test_a_fresh_entry_in_the_record_makes_the_favorite_known_and_a_later_consumption_undoes_it(
        consumed: ReferenceServer, tmp_path: Path) -> None:
    path = _alone(consumed, tmp_path)
    profile = load_profile(path)
    node = profile.fixtures.favorite_node_id
    ledger.record(path, profile.base_url, "favorite_node_id", node, "qa-lead", state=ledger.FRESH)
    assert examine(profile).one_shots["favorite_node_id"].state is FixtureState.IN_STATE
    ledger.record(path, profile.base_url, "favorite_node_id", node, "qc-run")
    d = examine(profile)
    assert d.one_shots["favorite_node_id"].chosen is None
    assert d.unusable["favorite_node_id"].startswith("not checked: fixture favorite_node_id consumed")


# ----------------------------------------------------------------------------------------------------------
# a run whose unfavorite meets a consumed favorite, no record: no failed rule

@pytest.mark.parametrize("repeat, answered", [
    ("repeat-is-success-false", "answered 200 with success: false"),  # the site a CI build met
    (None, "answered 404"),  # the reference server's default: "not a favorite of member"
])
@pytest.mark.slow
def test_an_unfavorite_of_a_consumed_favorite_with_no_record_is_not_checked_not_failed(
        repeat: str | None, answered: str, consumed: ReferenceServer, tmp_path: Path) -> None:
    if repeat is None:
        tests = _suites(profile := _alone(consumed, tmp_path), tmp_path, *UNFAVORITE_TESTS)
    else:
        with ReferenceServer(variants=("one-shots-consumed", repeat)) as srv:
            tests = _suites(profile := _alone(srv, tmp_path), tmp_path, *UNFAVORITE_TESTS)
    bad = [t["nodeid"] for t in tests if t["outcome"] in ("failed", "error")]
    assert not bad, bad
    state_skips = [t for t in tests if t["outcome"] == "skipped" and t.get("skip_kind") == SkipKind.FIXTURE_STATE]
    assert len(state_skips) >= 5, [(t["nodeid"], t["outcome"], t.get("message")) for t in tests]
    held = [t for t in state_skips if "not checked: fixture not in its state: favorite_node_id" in t["message"]]
    assert held and all(answered in t["message"] for t in held), [t["message"] for t in state_skips]
    # typed, for the report's "consumed before this run" (not "consumed by this run"; tests/report/test_html_page.py)
    met = [t.get("met_consumed") or {} for t in held]
    assert all(m.get("fixture") == "favorite_node_id" and f"node {m.get('node')} answered" in t["message"]
               for m, t in zip(met, held, strict=True)), met
    # user26: and recorded beside the profile, so that the next build from this folder takes the pool's next node
    # (it met node 14 again on every build) and the report says "consumed before this run"
    node = load_profile(profile).fixtures.favorite_node_id
    entries = ledger.read(profile, load_profile(profile).base_url)
    assert [(e.fixture, e.node, e.consumed) for e in entries] == [("favorite_node_id", node, True)], entries


@pytest.mark.slow
def test_a_second_build_on_a_site_that_answers_a_repeated_unfavorite_with_the_earlier_action_fails_no_rule(
        tmp_path: Path) -> None:
    """The hundredth build, played as a user (variant repeat-is-noop: a repeat answers 200 with the earlier action
    and changes nothing): the first build removes member's and admin's favorites; the second, from a fresh folder,
    meets answers that cannot show it the node was consumed, and before this its count check failed ("after member's
    unfavorite the count was 0; admin removing its own favorite must give -1"). A count of 0 leaves admin no
    favorite to remove: not checked, never failed, and admin's unfavorite is not sent."""
    selection = ("suites/scenarios/test_node_actions.py", "-k", "another_users_favorite or updated_favorite")
    with ReferenceServer(variants=("repeat-is-noop",)) as srv:
        (tmp_path / "1").mkdir()
        first = _suites(_alone(srv, tmp_path / "1"), tmp_path / "1", *selection)
        (tmp_path / "2").mkdir()
        second = _suites(_alone(srv, tmp_path / "2"), tmp_path / "2", *selection)
    assert [t["outcome"] for t in first] == ["passed", "passed"], first
    outcomes = {t["nodeid"].split("::")[1]: t for t in second}
    assert not [t for t in second if t["outcome"] in ("failed", "error")], second
    survives = outcomes["test_another_users_favorite_survives_and_its_removal_lowers_the_count_by_one"]
    assert survives["outcome"] == "skipped" and "its favoriteCount is 0" in survives["message"], survives


@pytest.mark.slow
def test_the_same_answer_on_a_favorite_known_fresh_is_the_rules_failure(tmp_path: Path) -> None:
    """The reference server's record says its favorite is fresh: a refused unfavorite that removed it (planted
    fault) makes member's own unfavorite fail PERM-DENIED-NO-EFFECT, not skip."""
    with ReferenceServer(faults=("denied-unfavorite-still-removes",)) as srv:
        assert any(e.state == ledger.FRESH for e in ledger.read(srv.profile_path, load_profile(
            srv.profile_path).base_url)), "the server says its one-shots are fresh"
        tests = _suites(_alone(srv, tmp_path, record=True), tmp_path,
                        "suites/scenarios/test_permissions.py", "-k", "refused_unfavorites")
    assert [t["outcome"] for t in tests] == ["failed"], tests
    assert "PERM-DENIED-NO-EFFECT" in tests[0]["rules"]


def test_refused_unwikifies_of_wiki_node_id_leave_it_unconsumed_in_the_record(tmp_path: Path) -> None:
    """accept22: novice's and member's refused unwikifies of wiki_node_id (test_permissions.py, before the drawn
    unwikifier's) change nothing, so the run records nothing for the node (it recorded it consumed before)."""
    with ReferenceServer() as srv:
        node = load_profile(srv.profile_path).fixtures.wiki_node_id
        profile = _alone(srv, tmp_path, record=True)
        base = load_profile(profile).base_url
        before = ledger.read(profile, base)
        tests = _suites(profile, tmp_path, "suites/scenarios/test_permissions.py", "-k",
                        "unwikifying_anothers_wiki_node_is_refused")
    assert len(tests) >= 2 and {t["outcome"] for t in tests} == {"passed"}, tests  # novice's, member's (+ options)
    after = ledger.read(profile, base)
    assert after == before and not [e for e in after if e.node == node and e.consumed], after


def test_a_one_shot_call_is_recorded_only_when_the_target_accepted_it(tmp_path: Path) -> None:
    profile = tmp_path / "site.toml"
    profile.write_text("", encoding="utf-8")
    base = "http://127.0.0.1:1"
    for status in (401, 403, 404, 409, 500):
        assert not ledger.record_if_accepted(profile, base, "wiki_node_id", 7, "qc-run", status)
    assert ledger.read(profile, base) == []
    assert ledger.record_if_accepted(profile, base, "wiki_node_id", 7, "qc-run", 200)
    assert [(e.fixture, e.node, e.run, e.consumed) for e in ledger.read(profile, base)] == [
        ("wiki_node_id", 7, "qc-run", True)]


# ----------------------------------------------------------------------------------------------------------
# the pieces: bounded reads, the decision, the run-time hold

class _List:
    """A fake client over one paged list of ``n`` nodes, newest first (ids n..1): counts its requests."""

    def __init__(self, n: int, wiki: dict[int, bool], cap: int = 10_000) -> None:
        self.ids = list(range(n, 0, -1))
        self.wiki, self.cap, self.calls = wiki, cap, 0

    def get(self, api_path: str, params: dict[str, Any]) -> ApiResponse:
        self.calls += 1
        size = min(int(params["pageSize"]), self.cap)
        page = int(params["page"])
        chunk = self.ids[(page - 1) * size: page * size]
        body = {"list": [{"id": i, "wiki": self.wiki.get(i, False)} for i in chunk], "page": page,
                "pageSize": size, "totalCount": len(self.ids), "pageCount": -(-len(self.ids) // size)}
        return _resp(200, body)


def _resp(status: int, body: Any) -> ApiResponse:
    exchange = Exchange("member", "PUT", "http://127.0.0.1:1/x", status, {}, None, {}, "", 1.0, "curl")
    return ApiResponse(status, {"Content-Type": "application/json"}, json.dumps(body).encode(), "http://x", exchange)


@pytest.mark.parametrize("cap", [10_000, 100, 20])
def test_a_node_at_the_old_end_of_a_long_list_is_found_in_three_reads(cap: int) -> None:
    """The fixture is the oldest item of a list runs grew to 5,000 (page 17 and beyond at 50 a page)."""
    client = _List(5000, {1: True}, cap)
    found = fixture_state.wiki_shown(client, {"member": 3}, [1])  # type: ignore[arg-type]
    assert found == {1: True}
    assert client.calls <= 1 + fixture_state.END_PAGES


def test_a_node_in_the_middle_of_a_long_list_is_left_unshown_within_the_bound() -> None:
    client = _List(5000, {2500: True})
    assert fixture_state.wiki_shown(client, {"member": 3}, [2500]) == {}  # type: ignore[arg-type]
    lists = len(fixture_state.wiki_lists({"member": 3}))
    assert client.calls <= lists * (1 + fixture_state.END_PAGES)


def test_the_target_decides_first_then_the_latest_entry_of_the_record_else_unknown() -> None:
    def entry(node: int, state: str) -> ledger.Consumed:
        return ledger.Consumed("wiki_node_id", node, "r", "", "http://t", state)

    entries = ledger.latest([entry(2, ledger.CONSUMED), entry(3, ledger.CONSUMED), entry(3, ledger.FRESH),
                             entry(4, ledger.FRESH), entry(5, ledger.FRESH)])
    states = fixture_state.decide("wiki_node_id", [1, 2, 3, 4, 5, 6], {1: False, 4: True, 5: False}, entries)
    assert states == {1: FixtureState.NOT_IN_STATE, 2: FixtureState.NOT_IN_STATE, 3: FixtureState.IN_STATE,
                      4: FixtureState.IN_STATE, 5: FixtureState.NOT_IN_STATE, 6: FixtureState.UNKNOWN}
    assert fixture_state.choose(states) == 3
    assert fixture_state.choose({6: FixtureState.UNKNOWN, 7: FixtureState.UNKNOWN}) == 6
    assert fixture_state.choose({1: FixtureState.NOT_IN_STATE}) is None


@pytest.mark.parametrize("status, body, skips", [
    (200, {"success": False, "result": {}}, True),
    (404, {"error": "not a favorite"}, True),
    (409, {"error": "not wiki"}, True),
    (200, {"success": True, "result": {}}, False),
    (200, {"result": {}}, False),  # success missing: ACTION-WRAPPERS' to judge
    (403, {"error": "denied"}, False),
    (500, {"error": "boom"}, False),
])
def test_a_refusal_by_state_skips_only_when_the_doctor_did_not_know(status: int, body: Any, skips: bool) -> None:
    resp = _resp(status, body)
    assert one_shots.held(resp, "favorite_node_id", 14, FixtureState.IN_STATE, lambda: None) is resp
    if not skips:
        assert one_shots.held(resp, "favorite_node_id", 14, FixtureState.UNKNOWN, lambda: None) is resp
        return
    with pytest.raises(pytest.skip.Exception, match="not checked: fixture not in its state: favorite_node_id node 14"):
        one_shots.held(resp, "favorite_node_id", 14, FixtureState.UNKNOWN, lambda: None)


def test_a_cancelwiki_refused_on_a_node_still_wiki_stays_the_servers() -> None:
    resp = _resp(409, {"error": "not wiki"})
    assert one_shots.held(resp, "wiki_node_id", 13, FixtureState.UNKNOWN, lambda: True) is resp
    with pytest.raises(pytest.skip.Exception, match="a read now shows it wiki: false"):
        one_shots.held(resp, "wiki_node_id", 13, FixtureState.UNKNOWN, lambda: False)


@pytest.mark.slow
def test_a_fresh_folder_run_moves_on_to_the_pools_next_favorite_and_checks_the_unfavorite_rules(
        tmp_path: Path) -> None:
    """pool26: the pool's first favorite an earlier build consumed, no record (a CI build from a fresh checkout):
    member's unfavorite meets it consumed, and the run moves on to the pool's next node WITHIN the run (it skipped
    the unfavorite rules on every fresh build, the pool still holding nodes), the refused callers' calls made again
    on it first. Both nodes end up recorded consumed, the first as met, the second by the run's own call."""
    with ReferenceServer(variants=("one-shot-pools",)) as srv:
        profile = _alone(srv, tmp_path)
        pool = list(load_profile(profile).pools["favorite_node_id"])
        tests = _suites(profile, tmp_path, *UNFAVORITE_TESTS)
    assert len(pool) == 3, pool
    bad = [(t["nodeid"], t.get("message")) for t in tests if t["outcome"] in ("failed", "error")]
    assert not bad, bad
    passed = [t["nodeid"] for t in tests if t["outcome"] == "passed"]
    for name in ("test_refused_unfavorites_leave_members_favorite_in_place", "test_unfavorite_reports_the_updated"):
        assert [n for n in passed if name in n], [(t["nodeid"], t["outcome"], t.get("message")) for t in tests]
    assert not [t for t in tests if t.get("skip_kind") == SkipKind.FIXTURE_STATE], tests
    entries = [e for e in ledger.read(profile, load_profile(profile).base_url) if e.fixture == "favorite_node_id"]
    assert [(e.node, e.consumed) for e in entries] == [(n, True) for n in pool[:2]], entries


def test_a_wiki_pool_is_read_first_and_a_favorite_pool_moves_on_until_it_is_exhausted() -> None:
    """pool26 (qaconform.pytest.pool_next): a wiki node of unknown state the read shows not wiki is passed over
    (recorded) before any call, a node no read shows is tried; moving on changes the node every fixture reads; past
    the pool's last node there is none, and the skip names the pool and what to add."""
    from qaconform.pytest import pool_next
    from qaconform.target.diagnosis import Diagnosis, OneShot
    from qaconform.target.profile import ROLES, profile_from_dict

    profile = profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": {
        r: {"username": r, "password": "pw"} for r in ROLES}, "fixtures": {
        "question_id": 1, "space_id": 1, "wiki_node_id": [23, 24, 25], "favorite_node_id": [31, 32]}})
    d = Diagnosis(one_shots={"wiki_node_id": OneShot("wiki_node_id", (23, 24, 25), 23, (), 2, (23, 24, 25)),
                             "favorite_node_id": OneShot("favorite_node_id", (31, 32), 31, (), 1, (31, 32))})
    profile = d.resolve(profile)
    passed: list[int] = []
    shown = {23: False, 24: None, 25: True}
    assert pool_next.read_first(profile, d, "wiki_node_id", 23, shown.get, passed.append) == 24
    assert (passed, profile.fixtures.wiki_node_id, d.one_shots["wiki_node_id"].consumed) == ([23], 24, (23,))
    assert d.one_shots["wiki_node_id"].left_after == 1
    assert pool_next.next_node(d, "favorite_node_id", 31) == 32
    pool_next.move_on(profile, d, "favorite_node_id", 31, 32)
    assert (profile.fixtures.favorite_node_id, one_shots.doctor_state(d, "favorite_node_id")) == (
        32, FixtureState.UNKNOWN)
    assert pool_next.next_node(d, "favorite_node_id", 32) is None
    said = pool_next.exhausted(d, "favorite_node_id", 32)
    assert "the pool [31, 32] holds no node after it" in said and "[fixtures] favorite_node_id" in said
