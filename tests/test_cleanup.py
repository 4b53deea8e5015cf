"""Cleanup where the site allows it (issue 29, item 2): with the delete action named in the profile ([cleanup]), a
run against the reference server leaves every list's totalCount as it found it, and so does `qaconform cleanup` of a
run made with --no-cleanup; the pure parts (items, order, statuses, the terminal line) on their own."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from qaconform import exitcodes
from qaconform.commands.cleanup import CLEANUP_NAME
from qaconform.pytest.seed_draws import member_wiki_send_for_seed
from qaconform.reference import ReferenceServer
from qaconform.report.terminal import changed_lines
from qaconform.target.cleanup import ALREADY_GONE, LEFT, REMOVED, WITH_PARENT, items_of, remove_created, summary_line
from qaconform.target.client import ApiClient, Recorder
from qaconform.target.created_log import CHANGED_LOG, changed
from qaconform.target.profile import Profile, load_profile, profile_from_dict
from qaconform.target.profile_fixtures import ONE_SHOTS

ROLES = ("admin", "moderator", "member", "novice")
AREAS = ("comments",)
"""What the runs of these tests check: the areas that write most (answers, comments, state changes), quickly."""


# ----------------------------------------------------------------------------------------------------------
# every list of the 19 operations, as each account reads it

def _clients(profile: Profile) -> dict[str, ApiClient]:
    rec = Recorder(keep=0)
    return {r: ApiClient(profile, r, a.username, a.password, rec) for r, a in profile.accounts.items()}


def _count(client: ApiClient, path: str, **params: Any) -> Any:
    """A list's totalCount (or its length when it has no envelope) and the ids on it (None where one page of
    :data:`PAGE` does not hold it whole), or the status of a refusal."""
    resp = client.get(path, params={"pageSize": PAGE, **params})
    if resp.status_code != 200:
        return f"status {resp.status_code}"
    body = resp.json()
    items = body.get("list") if isinstance(body, dict) else body
    total = body.get("totalCount") if isinstance(body, dict) else len(body)
    items = items if isinstance(items, list) else []
    ids = [i["id"] for i in items if isinstance(i, dict) and "id" in i]
    whole = isinstance(total, int) and len(items) >= total and len(ids) == len(items)
    return (total, tuple(sorted(int(i) for i in ids)) if whole else None)


PAGE = 100
"""One page of a snapshot's list: the reference server's lists are shorter."""


def without(snap: dict[str, Any], nodes: set[int]) -> dict[str, Any]:
    """``snap`` as if ``nodes`` were on no list: each list's count less those of them it holds, and its ids without
    them (a list not held whole on one page as it was: its count cannot be corrected)."""
    def one(value: Any) -> Any:
        if not isinstance(value, tuple) or value[1] is None:
            return value
        total, ids = value
        return (total - sum(1 for i in ids if i in nodes), tuple(i for i in ids if i not in nodes))

    return {role: {name: one(v) for name, v in lists.items()} for role, lists in snap.items()}


def declared_changes(profile: Profile, report: dict[str, Any]) -> set[int]:
    """The nodes report.json says the run changed and no cleanup undoes (``changed``), each one of the profile's
    one-shot fixtures (the run changes no other node it did not create)."""
    nodes = {int(c["node"]) for c in report["changed"]}
    one_shots = {int(n) for name in ONE_SHOTS for n in _nodes(getattr(profile.fixtures, name, None))}
    assert nodes <= one_shots, f"the run changed nodes it did not create that are no one-shot fixture: {nodes}"
    return nodes


def _nodes(value: Any) -> list[Any]:
    return [] if value is None else list(value) if isinstance(value, (list, tuple)) else [value]


def snapshot(profile: Profile) -> dict[str, Any]:
    """totalCount and ids (:func:`_count`) of every list of the 19 operations, for every account: the question list
    (plain, unanswered, in the fixture space), each account's answers and questions, the comments of every answer of
    the fixture question, the fixture question's followers, experts, spaces, topics, groups, and (as admin) each
    account's content."""
    clients = _clients(profile)
    ids = {r: a.id for r, a in profile.accounts.items()}
    fx = profile.fixtures
    question = next(q for q in clients["admin"].get("/question.json", params={"pageSize": 100}).json()["list"]
                    if q["id"] == fx.question_id)
    answers = sorted(int(a) for a in question.get("answers") or [])
    assert answers, "the fixture question has answers: their comment lists are part of the snapshot"
    out: dict[str, Any] = {}
    for role, c in clients.items():
        lists: dict[str, Any] = {
            "questions": _count(c, "/question.json"),
            "questions unanswered": _count(c, "/question.json", unanswered="true"),
            "questions in space": _count(c, "/question.json", spaceId=fx.space_id),
            "experts": _count(c, "/user/retrieveAllExperts.json"),
            "earned experts": _count(c, "/user/retrieveEarnedExperts.json"),
            "spaces": _count(c, "/space.json"),
            "topics": _count(c, "/topic.json"),
            "groups": _count(c, "/group.json"),
            "followers": _count(c, f"/node/{fx.question_id}/followers.json"),
        }
        for who, uid in ids.items():
            lists[f"answers of {who}"] = _count(c, f"/user/{uid}/answer.json")
            lists[f"questions of {who}"] = _count(c, f"/user/{uid}/question.json")
        for a in answers:
            lists[f"comments of {a}"] = _count(c, f"/answer/{a}/comment.json")
        if role == "admin":
            for who, uid in ids.items():
                lists[f"content of {who}"] = _count(c, f"/users/gdpr/{uid}/content.json")
        out[role] = lists
    return out


# ----------------------------------------------------------------------------------------------------------
# end to end: `qaconform run` and `qaconform cleanup` against a reference server

@pytest.fixture(autouse=True)
def _one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clients here belong to no parallel run: the kit's own tests may run under xdist, whose worker count would
    otherwise be read as this run's (a profile allowing one request at once cannot be shared by two)."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)


@pytest.fixture(scope="module")
def server() -> Iterator[ReferenceServer]:
    with ReferenceServer() as srv:
        yield srv


def _qaconform(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600, check=False)


def _run(profile: Path, out: Path, *extra: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    done = _qaconform("run", "--profile", str(profile), "--only", *AREAS, "--report-dir", str(out), *extra,
                      cwd=out.parent)
    assert (out / "report.json").is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    return done, json.loads((out / "report.json").read_text(encoding="utf-8"))


SEEDS = {"20260801": "after its unwikify", "20260832": "before its unwikify"}
"""Two seeds, one per order of admin's send of the one-shot member_wiki_node_id and member's unwikify of it (wiki20):
a comments-only run unwikifies it (unwiki25, blind94: the comments right after), and where the send comes first it
is sent to moderation too (novice then lists one question fewer); no delete undoes either."""


@pytest.mark.slow
@pytest.mark.parametrize("seed", list(SEEDS))
def test_a_run_with_the_delete_action_named_leaves_every_list_as_it_found_it_but_its_declared_one_shots(
        seed: str, tmp_path: Path) -> None:
    """"With the site's delete action the footprint is zero", but for what the run says it changed and could not
    undo (report.json ``changed``, its summary and page): the one-shot fixtures it consumed, nothing else; every
    list is as it was once those nodes are left out of it. clean26: pinned to 20260801 before, as at the other half
    of the seeds the send to moderation changed novice's lists."""
    assert member_wiki_send_for_seed(int(seed)) == SEEDS[seed], "the seed no longer draws the order it is here for"
    with ReferenceServer() as server:  # a fresh one: an earlier run here consumed the one-shots this run needs
        profile = load_profile(server.profile_path)
        assert profile.cleanup is not None
        before = snapshot(profile)
        done, report = _run(Path(server.profile_path), tmp_path / "run", "--seed", seed)
        after = snapshot(profile)
    assert done.returncode == exitcodes.OK, done.stdout[-3000:]
    record = report["cleanup"]
    nodes = [c for c in report["created"] if c["kind"] in ("answer", "comment")]
    assert len(nodes) >= 10, "the run wrote answers and comments: there is something to clean up"
    assert record["left_behind"] == sum(1 for c in report["created"] if c["kind"] not in ("answer", "comment"))
    assert record["removed"] + record["already_gone"] == len(nodes)
    assert record["calls"] <= len(nodes), "comments under a removed answer cost no call of their own"
    assert f"cleanup: removed {record['removed']} of {record['created']} created item" in done.stdout
    changed = declared_changes(profile, report)
    wiki = int(_nodes(profile.fixtures.member_wiki_node_id)[0])
    ops = {(x["operation"], x["by"]) for c in report["changed"] if c["node"] == wiki for x in c["changes"]}
    assert ("cancelWiki", "member") in ops, "member's unwikify of its one-shot question is declared"
    assert (("sendToModeration", "admin") in ops) == (SEEDS[seed] == "before its unwikify"), ops
    if SEEDS[seed] == "before its unwikify":
        assert after != before, "the send to moderation changed novice's lists (else this seed proves nothing)"
    assert without(after, changed) == without(before, changed)
    said = f"node {wiki} (member_wiki_node_id): "
    line = next((x for x in done.stdout.splitlines() if x.startswith("changed on the target and not undone")), "")
    assert said in line and "cancelWiki by member" in line, done.stdout[-3000:]
    page = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert 'id="cleanup"' in page and "cleanup: removed" in page
    top = page[page.index('<section id="fixtures">'):]
    top = top[:top.index("</section>")]
    assert "cleanup: removed" in top, "what the run did to the target says it cleaned up"
    assert said in top, "what the run did to the target says what it could not undo"


@pytest.mark.slow
def test_cleanup_of_a_run_made_with_no_cleanup_does_the_same_and_twice_is_harmless(server: ReferenceServer,
                                                                                   tmp_path: Path) -> None:
    profile = load_profile(server.profile_path)
    before = snapshot(profile)
    done, report = _run(Path(server.profile_path), tmp_path / "kept", "--no-cleanup")
    assert done.returncode == exitcodes.OK, done.stdout[-3000:]
    assert report["cleanup"]["skipped"].startswith("kept (--no-cleanup)")
    assert "cleanup: kept (--no-cleanup)" in done.stdout and "left behind" in done.stdout
    assert snapshot(profile) != before, "the kept run changed some list (else this test proves nothing)"
    changed = declared_changes(profile, report)  # its seed is not pinned: either order of the one-shot's send

    first = _qaconform("cleanup", str(tmp_path / "kept"), "--profile", str(server.profile_path), cwd=tmp_path)
    assert first.returncode == exitcodes.OK, first.stdout + first.stderr
    assert "cleanup: removed" in first.stdout
    assert report["changed"], "the run unwikified the one-shot member_wiki_node_id (else this line proves nothing)"
    assert "changed on the target and not undone by any cleanup" in first.stdout, first.stdout
    assert without(snapshot(profile), changed) == without(before, changed)
    record = json.loads((tmp_path / "kept" / CLEANUP_NAME).read_text(encoding="utf-8"))
    assert record["removed"] > 0

    again = _qaconform("cleanup", str(tmp_path / "kept"), "--profile", str(server.profile_path), cwd=tmp_path)
    assert again.returncode == exitcodes.OK, again.stdout + again.stderr
    record = json.loads((tmp_path / "kept" / CLEANUP_NAME).read_text(encoding="utf-8"))
    assert record["removed"] == 0 and record["already_gone"] > 0
    assert without(snapshot(profile), changed) == without(before, changed)


@pytest.mark.slow
def test_cleanup_refuses_what_it_cannot_use_with_exit_2_and_no_traceback(server: ReferenceServer,
                                                                         tmp_path: Path) -> None:
    missing = _qaconform("cleanup", str(tmp_path / "nope"), "--profile", str(server.profile_path), cwd=tmp_path)
    assert missing.returncode == exitcodes.USAGE and "no such folder" in missing.stderr
    (tmp_path / "empty").mkdir()
    empty = _qaconform("cleanup", str(tmp_path / "empty"), "--profile", str(server.profile_path), cwd=tmp_path)
    assert empty.returncode == exitcodes.USAGE and "holds no report.json" in empty.stderr
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "report.json").write_text("{not json", encoding="utf-8")
    bad = _qaconform("cleanup", str(tmp_path / "bad"), "--profile", str(server.profile_path), cwd=tmp_path)
    assert bad.returncode == exitcodes.USAGE and "not readable as JSON" in bad.stderr
    run = tmp_path / "run"
    run.mkdir()
    (run / "report.json").write_text(json.dumps({"created": [], "target": {"base_url": server.url}}), "utf-8")
    text = Path(server.profile_path).read_text(encoding="utf-8")
    without = tmp_path / "without.toml"
    without.write_text(text.split("[cleanup]")[0], encoding="utf-8")
    refused = _qaconform("cleanup", str(run), "--profile", str(without), cwd=tmp_path)
    assert refused.returncode == exitcodes.USAGE and "has no [cleanup] section" in refused.stderr
    for done in (missing, empty, bad, refused):
        assert "Traceback" not in done.stderr + done.stdout
    password = load_profile(server.profile_path).accounts["admin"].password
    assert password not in refused.stderr


# ----------------------------------------------------------------------------------------------------------
# the pure parts

def _profile(**cleanup: Any) -> Profile:
    """A profile with this [cleanup]; one request at a time (max_concurrency 1), so the calls come in their order
    (tests/test_cleanup_fanout.py checks the deletes sent together)."""
    accounts = {r: {"username": r, "password": "pw"} for r in ROLES}
    return profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": accounts,
                              "fixtures": {"question_id": 1, "space_id": 1}, "safety": {"max_concurrency": 1},
                              **({"cleanup": cleanup} if cleanup else {})})


class _Resp:
    def __init__(self, status: int, body: Any = None) -> None:
        self.status_code, self._body, self.text = status, body, json.dumps(body)

    def json(self) -> Any:
        return self._body


class _Fake:
    """A client that answers from a table of node id -> status, and records what it was asked."""

    def __init__(self, role: str, answers: dict[int, int], calls: list[tuple[str, str, str]]) -> None:
        self.role, self.answers, self.calls, self.recorder = role, answers, calls, Recorder()

    def request(self, method: str, url: str, **_kw: Any) -> _Resp:
        self.calls.append((self.role, method, url))
        status = self.answers.get(int(url.rsplit("/", 2)[1]), 200)
        return _Resp(status, {"success": True} if status == 200 else {"error": "x"})


CREATED = [
    {"kind": "answer", "id": "11", "by": "member", "url": "http://h/services/v2/question/1/answer.json"},
    {"kind": "comment", "id": 12, "by": "novice", "url": "http://h/services/v2/node/11/comment.json"},
    {"kind": "comment", "id": 13, "by": "member"},  # parent unknown: deleted on its own
    {"kind": "comment", "id": 14, "by": "member", "url": "http://h/services/v2/node/12/comment.json"},  # a reply
    {"kind": "gdpr-job", "id": "job-1", "by": "admin"},
    {"kind": "answer", "id": "11", "by": "member"},  # the same answer listed twice
]


def _remove(profile: Profile, answers: dict[int, int] | None = None) -> tuple[Any, list[tuple[str, str, str]]]:
    calls: list[tuple[str, str, str]] = []
    clients = {r: _Fake(r, answers or {}, calls) for r in ROLES}
    return remove_created(profile, CREATED, clients=clients), calls  # type: ignore[arg-type]


def test_answers_first_and_comments_under_a_removed_answer_cost_no_call() -> None:
    outcome, calls = _remove(_profile(path="/services/v2/node/{id}/delete.json"))
    assert [(r, m, u.rsplit("/", 2)[1]) for r, m, u in calls] == [("admin", "PUT", "11"), ("admin", "PUT", "13")]
    status = {(i.kind, str(i.id)): i.status for i in outcome.items}
    assert status == {("answer", "11"): REMOVED, ("comment", "12"): WITH_PARENT, ("comment", "13"): REMOVED,
                      ("comment", "14"): WITH_PARENT, ("gdpr-job", "job-1"): LEFT}
    record = outcome.as_dict()
    assert (record["created"], record["removed"], record["left_behind"], record["calls"]) == (5, 4, 1, 2)
    assert summary_line(record) == ("cleanup: removed 4 of 5 created items; left behind: 1 (1 gdpr-job), see "
                                    "report.json cleanup.items")


def test_the_author_account_and_a_site_that_does_not_cascade_delete_every_node_as_its_creator() -> None:
    _, calls = _remove(_profile(path="/x/{id}/del", method="DELETE", account="author", cascades=False))
    assert [(r, m, u.rsplit("/", 2)[1]) for r, m, u in calls] == [
        ("novice", "DELETE", "12"), ("member", "DELETE", "13"), ("member", "DELETE", "14"), ("member", "DELETE", "11")]


def test_a_node_already_gone_is_not_an_error_and_a_refusal_is_left_behind_saying_why() -> None:
    outcome, _ = _remove(_profile(path="/n/node/{id}/delete.json"), answers={11: 404, 13: 403})
    by_id = {str(i.id): i for i in outcome.items}
    assert by_id["11"].status == ALREADY_GONE and by_id["12"].status == ALREADY_GONE  # it went with its answer
    assert by_id["13"].status == LEFT and by_id["13"].http == 403 and "[cleanup] account" in (by_id["13"].why or "")
    assert summary_line(outcome.as_dict()).startswith("cleanup: removed 0 of 5 created items (3 already gone)")


def test_without_a_delete_action_everything_is_left_behind_and_said_so() -> None:
    outcome = remove_created(_profile(), CREATED)
    assert outcome.calls == 0 and {i.status for i in outcome.items} == {LEFT}
    line = summary_line(outcome.as_dict())
    assert line.startswith("cleanup: the profile names no delete action") and "left behind: 5 created items" in line


def test_items_are_deduplicated_and_a_comment_knows_its_parent_from_where_it_was_posted() -> None:
    items = items_of(CREATED)
    assert [(i.kind, str(i.id), i.parent) for i in items] == [
        ("answer", "11", None), ("comment", "12", 11), ("comment", "13", None), ("comment", "14", 12),
        ("gdpr-job", "job-1", None)]


def test_a_run_without_a_delete_action_says_what_it_left_behind(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from qaconform.commands.cleanup import after_run

    results = tmp_path / "results.json"
    results.write_text(json.dumps({"tests": [{"created": CREATED[:3]}, {"created": CREATED[3:]}, {}]}), "utf-8")
    record = after_run(_profile(), results, tmp_path, keep=False)
    assert (record["created"], record["left_behind"], record["calls"]) == (5, 5, 0)
    assert capsys.readouterr().out.strip() == (
        "cleanup: the profile names no delete action ([cleanup], docs/profile.md#cleanup), so `qaconform cleanup` "
        "cannot remove them: they stay on the target, listed in report.json created; left behind: 5 created "
        "items (1 answer, 3 comment, 1 gdpr-job)")
    kept = after_run(_profile(path="/n/{id}"), results, tmp_path, keep=True)
    assert kept["skipped"] == f"kept (--no-cleanup); remove them later with `qaconform cleanup {tmp_path} --profile " \
                              "<profile>`" and kept["calls"] == 0


@pytest.mark.parametrize("keep, why_not", [(True, None), (False, "the run was interrupted")])
def test_without_a_delete_action_no_cleanup_command_is_suggested_but_the_run_tag_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], keep: bool, why_not: str | None) -> None:
    """crossing11: --no-cleanup or an interrupted run suggested `qaconform cleanup DIR`, which exits 2 when the
    profile names no delete action; it now says what was left and how to find it (the run tag in every body)."""
    from qaconform.commands.cleanup import after_run

    results = tmp_path / "results.json"
    results.write_text(json.dumps({"run_tag": "qc-20261130-abc", "tests": [{"created": CREATED}]}), "utf-8")
    record = after_run(_profile(), results, tmp_path, keep=keep, why_not=why_not)
    line = capsys.readouterr().out.strip()
    assert "qaconform cleanup " + str(tmp_path) not in line and "--profile" not in line, line
    assert "cannot remove them" in line and "run tag qc-20261130-abc" in line, line
    assert line.startswith("cleanup: " + ("kept (--no-cleanup)" if keep else "the run was interrupted")), line
    assert (record["left_behind"], record["calls"]) == (5, 0)
    with_delete = after_run(_profile(path="/n/{id}"), results, tmp_path, keep=keep, why_not=why_not)
    assert f"`qaconform cleanup {tmp_path} --profile " in with_delete["skipped"], with_delete


def test_what_a_failing_tests_curl_names_is_kept_so_that_the_curl_replays_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """user11: the report's curl of a failing lock (PUT /node/122/lock.json) named an answer the run's own cleanup had
    removed, so the curl answered "no such node", not the failure. The nodes a failing test's requests name are
    kept, with the created nodes above them (a cascade would take them) and below them (a list's failure is its
    items); the rest is removed, and the line says what was kept and how to remove it later."""
    from qaconform.commands.cleanup import after_run
    from qaconform.target import cleanup as target_cleanup

    calls: list[tuple[str, str, str]] = []
    monkeypatch.setattr(target_cleanup, "_clients", lambda _p: {r: _Fake(r, {}, calls) for r in ROLES})
    failed = {"outcome": "failed", "created": [],
              "exchanges": [{"method": "PUT", "url": "http://h/services/v2/node/12/lock.json?prompt=p%2011"}]}
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"tests": [{"created": CREATED[:3]}, failed, {"created": CREATED[3:]}]}), "utf-8")
    record = after_run(_profile(path="/n/{id}/delete.json"), results, tmp_path, keep=False)
    assert [u.rsplit("/", 2)[1] for _, _, u in calls] == ["13"], calls  # 11 above 12, 14 below it: kept
    status = {str(i["id"]): (i["status"], i.get("why") or "") for i in record["items"]}
    assert {k for k, (st, why) in status.items() if st == LEFT and "failing test" in why} == {"11", "12", "14"}
    assert status["13"][0] == REMOVED and (record["created"], record["removed"], record["left_behind"]) == (5, 1, 4)
    line = capsys.readouterr().out.strip()
    assert "kept for the failing tests' curls: 3 (1 answer, 2 comment)" in line, line
    assert f"qaconform cleanup {tmp_path}" in line, line


def test_a_known_failure_keeps_nothing_so_ci_with_expect_still_leaves_nothing(tmp_path: Path) -> None:
    """A CI build with `--expect` fails the same known rule on every push: keeping its nodes would leave a few more
    on staging at every build. A failed test all of whose rules are expected names nothing to keep."""
    from qaconform.commands.cleanup import named_by_failures

    failed = {"outcome": "failed", "rules": ["PERM-LOCK-OWN"],
              "exchanges": [{"method": "PUT", "url": "http://h/services/v2/node/12/lock.json"}]}
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"tests": [{"created": CREATED}, failed]}), "utf-8")
    assert named_by_failures(results, CREATED) == {("answer", "11"), ("comment", "12"), ("comment", "14")}
    assert named_by_failures(results, CREATED, expected=frozenset({"PERM-LOCK-OWN"})) == set()


def test_a_run_that_created_nothing_says_so_in_one_line() -> None:
    assert summary_line(remove_created(_profile(path="/n/{id}"), []).as_dict()) == (
        "cleanup: the run created nothing on the target")
    assert summary_line(remove_created(_profile(), []).as_dict()) == "cleanup: the run created nothing on the target"


def test_the_page_shows_what_was_left_behind_and_why_escaped() -> None:
    from qaconform.report.html_page import _cleanup

    outcome, _ = _remove(_profile(path="/n/node/{id}/delete.json"), answers={13: 403})
    page = _cleanup({"cleanup": outcome.as_dict()})
    assert page.startswith('<section id="cleanup">') and "cleanup: removed 3 of 5 created items" in page
    assert "<td>comment 13</td><td>member</td><td>refused (403)" in page and "gdpr-job job-1" in page
    assert _cleanup({"cleanup": None}) == ""


def test_the_node_a_failures_own_exchange_names_is_kept_when_the_last_exchanges_do_not_name_it(
        tmp_path: Path) -> None:
    """A --thorough release run against a server with a planted privacy fault: the privacy model's failure read
    answer 12's comments, then made eight more reads (the only exchanges a test keeps), and the cleanup removed
    12; the report's curl answered "answer 12 does not exist". The failure's own exchange and the curls name it."""
    from qaconform.commands.cleanup import named_by_failures

    reads = [{"method": "GET", "url": "http://h/services/v2/question.json?page=1"}] * 8
    failed = {"outcome": "failed", "rules": ["COMMENT-PRIVACY-LIST"], "exchanges": reads,
              "failure": {"rules": ["COMMENT-PRIVACY-LIST"], "curl": "curl -sS -i -X GET -u \"$USER:$PASSWORD\" "
                          "'http://h/services/v2/answer/12/comment.json?page=1'   # as member",
                          "exchange": {"method": "GET", "url": "http://h/services/v2/answer/12/comment.json?page=1"}}}
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"tests": [{"created": CREATED}, failed]}), "utf-8")
    assert named_by_failures(results, CREATED) == {("answer", "11"), ("comment", "12"), ("comment", "14")}
    only_curl = {**failed, "failure": {**failed["failure"], "exchange": None}}
    results.write_text(json.dumps({"tests": [{"created": CREATED}, only_curl]}), "utf-8")
    assert named_by_failures(results, CREATED) == {("answer", "11"), ("comment", "12"), ("comment", "14")}
    reproduce_only = {"outcome": "error", "exchanges": reads,
                      "reproduce": "curl -sS -i -X PUT -u \"$USER:$PASSWORD\" 'http://h/services/v2/node/14/lock.json'"}
    results.write_text(json.dumps({"tests": [{"created": CREATED}, reproduce_only]}), "utf-8")
    assert named_by_failures(results, CREATED) == {("answer", "11"), ("comment", "12"), ("comment", "14")}


def test_what_the_run_changed_on_nodes_it_did_not_create_is_declared_once_per_change(tmp_path: Path) -> None:
    """clean26: every accepted state change of a node is logged as sent (``Recorder.note_changed``); report.json's
    ``changed`` keeps the nodes the run did not create (its own go with the cleanup), each change once, and the
    summary names a fixture's node by its fixture."""
    rec = Recorder(keep=0, changed_log=tmp_path / CHANGED_LOG)
    base = "http://127.0.0.1:1/services/v2"
    rec.note_changed("admin", f"{base}/node/12/sendToModeration.json?reason=x", "sendToModeration")
    rec.note_changed("member", f"{base}/node/12/cancelwiki.json", "cancelWiki")
    rec.note_changed("admin", f"{base}/node/12/sendToModeration.json", "sendToModeration")
    rec.note_changed("moderator", f"{base}/node/300/lock.json", "lockNode")  # the run's own answer
    rec.note_changed("admin", f"{base}/users/gdpr/4/schedule.json", "scheduleJob")  # no node action
    got = changed(tmp_path, [{"kind": "answer", "id": "300", "by": "member"}])
    assert got == [{"node": 12, "changes": [{"operation": "sendToModeration", "by": "admin"},
                                            {"operation": "cancelWiki", "by": "member"}]}]
    assert changed_lines({"changed": got, "fixtures": {"one_shots": {"member_wiki_node_id": {"used": 12}}}}) == [
        "changed on the target and not undone by any cleanup (nodes the run did not create): node 12 "
        "(member_wiki_node_id): sendToModeration by admin, cancelWiki by member"]
    assert changed_lines({"changed": []}) == [] and changed(tmp_path / "none", []) == []
