"""The doctor and discovery (qaconform.target.doctor, .discover) against live reference servers, in process.

Each examination is checked for what it must find and for what it must never do: send anything but a read. The
servers run the allowed variants the doctor exists for (a profile written without account ids, one-shot fixtures
an earlier run consumed, pools), and misbehaving servers prove that a broken target is left to the suites, not
turned into a profile error.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hostile_server import HostileServer

from qaconform.reference import ReferenceServer
from qaconform.target import discover, ledger
from qaconform.target.client import Recorder
from qaconform.target.doctor import Diagnosis, Severity, examine, render
from qaconform.target.profile import Profile, load_profile

READS = {"GET"}


@pytest.fixture(scope="module")
def plain() -> Iterator[ReferenceServer]:
    """A profile written without account ids (the novice is in no expert list: only the question list shows it)."""
    with ReferenceServer(variants=("profile-without-ids",)) as srv:
        yield srv


@pytest.fixture(scope="module")
def pools() -> Iterator[ReferenceServer]:
    with ReferenceServer(variants=("one-shot-pools",)) as srv:
        yield srv


@pytest.fixture(scope="module")
def consumed() -> Iterator[ReferenceServer]:
    with ReferenceServer(variants=("one-shots-consumed",)) as srv:
        yield srv


def _copy(srv: ReferenceServer, folder: Path, edit: dict[str, str] | None = None) -> Path:
    """The server's profile (and its record of consumed fixtures, if any) copied into ``folder``, lines edited by
    regex (``{pattern: replacement}``), so a test's own record never touches the server's folder."""
    source = Path(srv.profile_path)
    text = source.read_text(encoding="utf-8")
    for pattern, repl in (edit or {}).items():
        text, n = re.subn(pattern, repl, text, flags=re.MULTILINE)
        assert n, f"the reference profile has no line matching {pattern!r}"
    target = folder / "site.toml"
    target.write_text(text, encoding="utf-8")
    record = ledger.ledger_path(source)
    if record.exists():
        shutil.copy(record, ledger.ledger_path(target))
    return target


def _examine(path: Path) -> tuple[Diagnosis, Recorder, Profile]:
    profile = load_profile(path)
    rec = Recorder(secrets=set(profile.passwords()), keep=10_000)
    return examine(profile, rec), rec, profile


def _methods(rec: Recorder) -> set[str]:
    return {e.method for e in rec.exchanges}


# ----------------------------------------------------------------------------------------------------------
# discovery: what `qaconform init` and the doctor find with nothing but a base URL and accounts

def test_discovery_finds_ids_a_readable_question_the_hidden_space_and_the_tracker(plain: ReferenceServer) -> None:
    written = load_profile(plain.profile_path)
    assert all(a.id is None for a in written.accounts.values()), "the variant writes no account id"
    probe = discover.probe_profile(written.base_url, {r: (a.username, a.password) for r, a in
                                                      written.accounts.items()})
    rec = Recorder(keep=10_000)
    clients = discover.clients_for(probe, rec)
    experts = discover.read_pages(clients["admin"], "/user/retrieveAllExperts.json")
    assert "novice" not in {u.get("username") for u in experts.items}, "precondition: novice is no expert"
    found = discover.discover(clients)
    assert found.user_ids == {"admin": 1, "moderator": 2, "member": 3, "novice": 4}
    assert found.question is not None
    for role, client in clients.items():  # the question found is listed for every account, in its space
        listing = discover.read_pages(client, "/question.json", {"spaceId": found.question.space_id})
        assert listing.find(found.question.question_id) is not None, role
    assert found.hidden_space_id == 3
    assert found.issue_tracker == "tracker"
    assert _methods(rec) == READS


# ----------------------------------------------------------------------------------------------------------
# a good profile, pools, consumed fixtures

def test_a_good_profile_is_usable_and_its_missing_ids_are_discovered(plain: ReferenceServer, tmp_path: Path) -> None:
    d, rec, profile = _examine(_copy(plain, tmp_path))
    assert d.exit_code == 0 and not d.of(Severity.STOP, Severity.FIXTURE), render(d, profile)
    assert d.user_ids == {"admin": 1, "moderator": 2, "member": 3, "novice": 4}
    assert [f.severity for f in d.findings if f.key == "fixtures.locked_question_id"] == [Severity.OK]
    resolved = d.resolve(profile)
    assert {r: a.id for r, a in resolved.accounts.items()} == d.user_ids
    assert resolved.fixtures == profile.fixtures
    assert _methods(rec) == READS
    assert "verdict: the profile is usable" in render(d, profile)


def test_a_pool_gives_the_first_node_still_in_its_state_and_counts_what_is_left(pools: ReferenceServer,
                                                                                tmp_path: Path) -> None:
    path = _copy(pools, tmp_path)
    d, rec, profile = _examine(path)
    assert d.exit_code == 0 and not d.unusable, render(d, profile)
    for name in ledger.ONE_SHOT_FIXTURES:
        pool = profile.pools[name]
        assert len(pool) == 3
        shot = d.one_shots[name]
        # the first of each pool was consumed by an earlier run: the wiki nodes show it (wiki false), the favorite
        # only its record beside the profile
        assert (shot.chosen, shot.consumed, shot.left_after) == (pool[1], (pool[0],), 1), name
    resolved = d.resolve(profile)
    assert resolved.fixtures.favorite_node_id == profile.pools["favorite_node_id"][1]
    assert {n: resolved.pools[n] for n in profile.pools} == profile.pools
    # wiki21: the wiki kinds' fixtures, single nodes in this variant, are each a pool of one
    assert {n: len(resolved.pools[n]) for n in ledger.WIKI_KIND_FIXTURES} == dict.fromkeys(ledger.WIKI_KIND_FIXTURES, 1)
    assert _methods(rec) == READS
    # this run consumes the second favorite and records it: the next examination takes the third, the last
    favorite = profile.pools["favorite_node_id"]
    ledger.record(path, profile.base_url, "favorite_node_id", favorite[1], "qc-test")
    again, _, _ = _examine(path)
    assert (again.one_shots["favorite_node_id"].chosen, again.one_shots["favorite_node_id"].left_after) == (
        favorite[2], 0)
    ledger.record(path, profile.base_url, "favorite_node_id", favorite[2], "qc-test")
    empty, _, _ = _examine(path)
    assert empty.one_shots["favorite_node_id"].chosen is None
    assert empty.unusable["favorite_node_id"].startswith("not checked: fixture favorite_node_id consumed")
    assert empty.exit_code == 0


def test_fixtures_an_earlier_run_consumed_skip_their_tests_and_say_how_to_renew(consumed: ReferenceServer,
                                                                                 tmp_path: Path) -> None:
    d, rec, profile = _examine(_copy(consumed, tmp_path))
    assert d.exit_code == 0, render(d, profile)
    assert set(d.unusable) == set(ledger.ONE_SHOT_FIXTURES)
    assert d.unusable["favorite_node_id"].startswith("not checked: fixture favorite_node_id consumed (node 14 "
                                                     "consumed by run qc-earlier")
    for name in ("member_wiki_node_id", "wiki_node_id"):
        assert d.unusable[name].startswith(f"not checked: fixture {name} is not in the state the profile says"), name
        assert "consumed by an earlier run?" in d.unusable[name]
    skips = d.of(Severity.FIXTURE)
    assert len(skips) == 3 and all(f.fix.startswith("renew: ") for f in skips)
    # a run prints a finding as "message (fix)": a fix with brackets of its own would nest them
    assert not any("(" in f.fix.split("; once")[0] for f in skips), [f.fix for f in skips]
    resolved = d.resolve(profile)
    assert all(getattr(resolved.fixtures, n) is None for n in ledger.ONE_SHOT_FIXTURES)
    assert _methods(rec) == READS


def test_a_record_for_another_base_url_is_not_this_targets(consumed: ReferenceServer, tmp_path: Path) -> None:
    path = _copy(consumed, tmp_path)
    profile = load_profile(path)
    ours = [c.node for c in ledger.read(path, profile.base_url)]
    assert 14 in ours  # member_wiki_node_id, consumed by the variant
    assert ledger.read(path, "http://127.0.0.1:1") == []
    ledger.record(path, "http://127.0.0.1:1", "wiki_node_id", 13, "qc-other")
    assert [c.node for c in ledger.read(path, profile.base_url)] == ours
    assert [c.run for c in ledger.of_run(path, "http://127.0.0.1:1", "qc-other")] == ["qc-other"]


# ----------------------------------------------------------------------------------------------------------
# a broken profile: one message each, with its fix; nothing but reads

BROKEN = {
    "question-does-not-exist": ({r"^question_id = \d+": "question_id = 999999"}, "question_id 999999: no such "
                                                                               "question"),
    "question-in-another-space": ({r"^space_id = \d+": "space_id = 2"}, "lives in space 1, not in space_id 2"),
    "wrong-password": ({r'^password_env = "QACONFORM_MEMBER_PASSWORD"': 'password = "not-it"'},
                       "[accounts.member] username 'member' is refused"),
    "base-url-with-api-root": ({r'^base_url = "(.*)"': r'base_url = "\1/services/v2"'}, "already holds /services/v2"),
    "base-url-under-a-path": ({r'^base_url = "(.*)"': r'base_url = "\1/community"'}, "does not serve the interface"),
    "locked-question-does-not-exist": ({r"^locked_question_id = \d+": "locked_question_id = 999999"},
                                       "locked_question_id 999999: no such question"),
    "locked-question-is-an-answer": ({r"^locked_question_id = \d+": "locked_question_id = 2"},
                                     "locked_question_id 2 is not a question"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_profile_is_one_stop_naming_the_key_with_its_fix(case: str, plain: ReferenceServer,
                                                                  tmp_path: Path) -> None:
    edit, words = BROKEN[case]
    d, rec, profile = _examine(_copy(plain, tmp_path, edit))
    stops = d.of(Severity.STOP)
    assert d.exit_code == 2 and len(stops) == 1, render(d, profile)
    assert words in stops[0].message and stops[0].fix, stops[0]
    assert _methods(rec) <= READS
    if case == "base-url-with-api-root":
        assert rec.total == 0, "the shape of base_url is judged before any request"
        assert f'base_url = "{plain.url}"' in stops[0].fix
    if case == "base-url-under-a-path":
        assert f'set base_url = "{plain.url}"' in stops[0].fix
    if case == "question-does-not-exist":
        assert "every account reads question" in stops[0].fix
    text = render(d, profile)
    assert text.count("ERROR") == 1 and "fix:" in text and "exit 2" in text
    assert "not-it" not in text


def test_optional_fixtures_not_in_their_state_skip_only_their_tests(plain: ReferenceServer, tmp_path: Path) -> None:
    d, rec, profile = _examine(_copy(plain, tmp_path, {r"^hidden_space_id = \d+": "hidden_space_id = 1",
                                                       r"^issue_tracker = .*": 'issue_tracker = "jira"'}))
    assert d.exit_code == 0, render(d, profile)
    assert set(d.unusable) == {"hidden_space_id", "issue_tracker"}
    fixes = {f.key: f.fix for f in d.of(Severity.FIXTURE)}
    assert fixes == {"fixtures.hidden_space_id": "set hidden_space_id = 3",
                     "fixtures.issue_tracker": f'set issue_tracker = "tracker" in {profile.path}'}
    resolved = d.resolve(profile)
    assert resolved.fixtures.hidden_space_id is None and resolved.fixtures.issue_tracker is None


def test_a_hidden_space_that_is_not_there_is_no_hidden_space(plain: ReferenceServer, tmp_path: Path) -> None:
    """qa19: hidden_space_id = 998 (no such space) read "ok  space 998 is hidden from novice", and the tests of hidden
    spaces then held on a space nobody lists. Admin's whole space list lacks it and admin reads no question in it:
    only its tests skip, with the space to set."""
    d, _, profile = _examine(_copy(plain, tmp_path, {r"^hidden_space_id = \d+": "hidden_space_id = 998"}))
    assert d.exit_code == 0, render(d, profile)
    assert set(d.unusable) == {"hidden_space_id"}, render(d, profile)
    found = d.of(Severity.FIXTURE)
    assert [(f.key, f.fix) for f in found] == [("fixtures.hidden_space_id", "set hidden_space_id = 3")]
    assert "no such space on the target" in found[0].message
    assert "998 is hidden from novice" not in render(d, profile)


def test_a_wrong_base_url_port_is_unreachable_exit_3(tmp_path: Path, plain: ReferenceServer) -> None:
    with HostileServer("refused") as closed:
        d, _, profile = _examine(_copy(plain, tmp_path, {r'^base_url = ".*"': f'base_url = "{closed.url}"'}))
    assert d.exit_code == 3 and "is unreachable" in d.of(Severity.UNREACHABLE)[0].message


# ----------------------------------------------------------------------------------------------------------
# a broken target is the suites' to judge, not a profile error

def test_a_target_whose_lists_show_nothing_is_left_to_the_suites(plain: ReferenceServer, tmp_path: Path) -> None:
    with HostileServer("ok") as empty:
        d, _, profile = _examine(_copy(plain, tmp_path, {r'^base_url = ".*"': f'base_url = "{empty.url}"'}))
    assert d.exit_code == 0 and not d.unusable, render(d, profile)
    assert any("not confirmed" in f.message for f in d.of(Severity.NOTE))


def test_a_short_list_of_something_else_is_no_proof_the_question_is_missing(plain: ReferenceServer,
                                                                           tmp_path: Path) -> None:
    """A target answering every read with the same one-item list (a garbage answer CI met from a rotating hostile
    server): the question list, read to its end, lacks the fixture question, but the node's own followers answer 200.
    That contradiction is the suites' to judge; the profile is not wrong."""
    with HostileServer("markup") as same:
        d, _, profile = _examine(_copy(plain, tmp_path, {r'^base_url = ".*"': f'base_url = "{same.url}"',
                                                         r"^question_id = \d+": "question_id = 10"}))
    assert "fixtures.question_id" not in {f.key for f in d.of(Severity.STOP)}, render(d, profile)
    assert any(f.key == "fixtures.question_id" and "not confirmed" in f.message for f in d.of(Severity.NOTE)), \
        render(d, profile)


@pytest.mark.parametrize("redirect", ["redirect_foreign", "redirect_loop"])
def test_a_redirected_followers_read_is_no_proof_the_question_is_missing(plain: ReferenceServer, tmp_path: Path,
                                                                       redirect: str) -> None:
    """The same one-item list for every read, and a 302 for the node's followers: a redirect (to another host, or in a
    loop) says nothing about the node. CI's garbage-over-tls run met this from a server that rotates garbage answers
    request by request; the doctor reads with several threads, so which read met the redirect depended on the order
    its requests arrived in, and the run stopped with exit 2 (tests/hostile/test_run_hostile.py, 4 failures) when the
    followers read drew a redirect. Here the followers path always answers it."""
    with HostileServer("markup", sting={"followers.json": redirect}) as same:
        d, _, profile = _examine(_copy(plain, tmp_path, {r'^base_url = ".*"': f'base_url = "{same.url}"',
                                                         r"^question_id = \d+": "question_id = 10"}))
        met = [s.path for s in same.seen if s.behaviour == redirect]
    assert any("/node/10/followers.json" in p for p in met), met
    assert "fixtures.question_id" not in {f.key for f in d.of(Severity.STOP)}, render(d, profile)
    assert any(f.key == "fixtures.question_id" and "not confirmed" in f.message for f in d.of(Severity.NOTE)), \
        render(d, profile)


def test_a_target_refusing_every_credential_stops_naming_each_account(plain: ReferenceServer, tmp_path: Path) -> None:
    with HostileServer("html401") as refusing:
        d, _, profile = _examine(_copy(plain, tmp_path, {r'^base_url = ".*"': f'base_url = "{refusing.url}"'}))
    assert d.exit_code == 2
    assert [f.key for f in d.of(Severity.STOP)] == [f"accounts.{r}" for r in ("admin", "moderator", "member",
                                                                              "novice")]


def test_the_findings_travel_as_plain_json(consumed: ReferenceServer, tmp_path: Path) -> None:
    d, _, profile = _examine(_copy(consumed, tmp_path))
    data = json.loads(json.dumps(d.as_dict()))
    back = Diagnosis.from_dict(data)
    assert back.as_dict() == d.as_dict()
    assert back.resolve(profile) == d.resolve(profile)
    assert replace(profile, pools={}).pools == {}


def test_an_id_no_list_shows_comes_from_a_comment_the_account_posts(plain: ReferenceServer) -> None:
    """The last way to an account's id (the ``user_ids`` fixture): its own comment, whose author the list shows."""
    from qaconform.pytest.fixtures import _ids_from_own_comments

    profile = load_profile(plain.profile_path)
    rec = Recorder(keep=10_000)
    api = discover.clients_for(profile, rec)
    found = _ids_from_own_comments(api, profile.fixtures.question_id, ["novice", "member"], "qc-doctor-test", None)
    assert found == {"novice": 4, "member": 3}
    assert [e.method for e in rec.exchanges if e.method != "GET"] == ["POST", "POST", "POST"]


def test_a_wiki_kind_fixture_left_out_is_noted_and_one_given_is_checked_as_every_wiki_one_shot(
        plain: ReferenceServer, tmp_path: Path) -> None:
    """wiki21: wiki_answer_id and accepted_wiki_question_id are optional one-shots. Left out, the doctor says why the
    seeds of that kind unwikify wiki_node_id instead (a note, never a stop); given, the lists show it wiki (in its
    state) as for wiki_node_id."""
    d, rec, profile = _examine(_copy(plain, tmp_path, {r"^wiki_answer_id = .*\n": ""}))
    assert profile.fixtures.wiki_answer_id is None and profile.fixtures.accepted_wiki_question_id is not None
    notes = [f for f in d.findings if f.key == "fixtures.wiki_answer_id"]
    assert [f.severity for f in notes] == [Severity.NOTE], render(d, profile)
    assert "on the seeds that draw 'an answer' the unwikify acts on wiki_node_id instead" in notes[0].message
    assert "wiki_answer_id" not in d.unusable and "accepted_wiki_question_id" not in d.unusable
    shot = d.one_shots["accepted_wiki_question_id"]
    assert shot.chosen == profile.fixtures.accepted_wiki_question_id
    assert [f.severity for f in d.findings if f.key == "fixtures.accepted_wiki_question_id"] == [Severity.OK]
    assert _methods(rec) == READS


def test_a_wiki_kind_fixture_left_out_with_wiki_node_id_left_out_too_says_nothing_takes_its_place(
        plain: ReferenceServer, tmp_path: Path) -> None:
    """qa21: a CI profile as docs/ci.md advises (no one-shot fixtures) was told the seeds of each wiki kind
    "unwikify wiki_node_id instead", a fixture it does not name either. The note now says those seeds check no
    unwikify of another's wiki node; still a note, never a stop."""
    d, rec, profile = _examine(_copy(plain, tmp_path, {r"^wiki_answer_id = .*\n": "", r"^wiki_node_id = .*\n": ""}))
    assert profile.fixtures.wiki_answer_id is None and profile.fixtures.wiki_node_id is None
    notes = [f for f in d.findings if f.key == "fixtures.wiki_answer_id"]
    assert [f.severity for f in notes] == [Severity.NOTE], render(d, profile)
    assert "wiki_node_id instead" not in notes[0].message
    assert ("on the seeds that draw 'an answer' no unwikify of another's wiki node is checked (wiki_node_id is not "
            "in the profile either)") in notes[0].message
    assert "wiki_answer_id" not in d.unusable
    assert _methods(rec) == READS
