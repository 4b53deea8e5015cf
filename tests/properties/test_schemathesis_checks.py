"""Our schemathesis checks fail on planted bugs and pass on the real samples; the generation guards stay safe.

The checks in qaconform/pytest/schemathesis_checks.py judge every generated response; a check that cannot fail
would pass every target. Each test feeds one hand-made response (a real sample from ../shared/samples, or one with
a planted bug) to one check. The safety helpers of suites/properties/oas.py decide which data-protection job may
ever be sent: they get tests of their own, because a mistake there acts on real users.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from schemathesis.core.transport import Response

from qaconform.pytest import schemathesis_checks
from qaconform.pytest.properties.oas import constrain_gdpr_job, must_reject
from qaconform.target.profile import profile_from_dict

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT.parent / "shared" / "samples"


@pytest.fixture(scope="module")
def schema() -> Any:
    return schemathesis.openapi.from_path(str(ROOT / "spec" / "openapi.yaml"), config=schemathesis.Config())


def _response(body: Any, status: int = 200, user: str | None = None) -> Response:
    headers = {}
    if user is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:pw".encode()).decode()
    request = requests.Request("GET", "http://127.0.0.1/services/v2/x.json", headers=headers).prepare()
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return Response(status_code=status, headers={"content-type": ["application/json"]}, content=raw,
                    request=request, elapsed=0.01, verify=True, message="OK", encoding="utf-8",
                    http_version="1.1")  # fmt: skip


def _case(schema: Any, path: str, method: str = "GET", **kw: Any) -> Any:
    return schema[path][method].Case(**kw)


def _sample(name: str) -> Any:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def test_envelope_invariants_pass_on_the_real_question_list_and_name_the_rule_of_a_wrong_list_count(
    schema: Any,
) -> None:
    case = _case(schema, "/services/v2/question.json")
    body = _sample("question-list.json")
    schemathesis_checks.envelope_invariants(None, _response(body), case)  # type: ignore[arg-type]
    body["listCount"] += 1
    with pytest.raises(AssertionError, match=r"\[PAGING-LISTCOUNT\]"):
        schemathesis_checks.envelope_invariants(None, _response(body), case)  # type: ignore[arg-type]


def test_envelope_invariants_report_a_page_size_not_echoed_before_the_page_count_it_spoils(schema: Any) -> None:
    case = _case(schema, "/services/v2/space.json", query={"pageSize": 2})
    body = {"name": "", "sort": "", "page": 1, "pageSize": 1000, "pageCount": 2, "listCount": 2, "totalCount": 3,
            "list": [{"id": 1}, {"id": 2}]}
    with pytest.raises(AssertionError, match=r"^\[PAGING-PAGESIZE-ECHO\].*\[PAGING-PAGECOUNT\]"):
        schemathesis_checks.envelope_invariants(None, _response(body), case)  # type: ignore[arg-type]


def test_envelope_invariants_accept_the_follower_list_page_zero_of_a_real_server(schema: Any) -> None:
    case = _case(schema, "/services/v2/node/{nodeId}/followers.json", path_parameters={"nodeId": 1})
    schemathesis_checks.envelope_invariants(None, _response(_sample("node-followers.json")), case)  # type: ignore[arg-type]


def test_envelope_invariants_leave_the_page_number_of_a_follower_list_alone_but_not_of_other_lists(
    schema: Any,
) -> None:
    """"A follower list shows 0": a follower list asked for page 2 may show page 1 (its pages counted from 0)."""
    body = {"name": "", "sort": "", "page": 1, "pageSize": 1, "pageCount": 3, "listCount": 1, "totalCount": 3,
            "list": [{"id": 1}]}
    followers = _case(schema, "/services/v2/node/{nodeId}/followers.json", path_parameters={"nodeId": 1},
                      query={"page": 2, "pageSize": 1})
    schemathesis_checks.envelope_invariants(None, _response(body), followers)  # type: ignore[arg-type]
    spaces = _case(schema, "/services/v2/space.json", query={"page": 2, "pageSize": 1})
    with pytest.raises(AssertionError, match=r"\[PAGING-PAGE-ECHO\] page 2 was asked for"):
        schemathesis_checks.envelope_invariants(None, _response(body), spaces)  # type: ignore[arg-type]


def test_projection_honoured_fails_when_items_keep_fields_outside_include_only(schema: Any) -> None:
    case = _case(schema, "/services/v2/space.json", query={"includeOnly": "id,name"})
    good = {"page": 1, "pageSize": 15, "pageCount": 1, "listCount": 1, "totalCount": 1, "list": [{"id": 1}]}
    schemathesis_checks.projection_honoured(None, _response(good), case)  # type: ignore[arg-type]
    bad = {**good, "list": [{"id": 1, "name": "a", "prefix": "p"}]}
    with pytest.raises(AssertionError, match=r"\[PROJ-INCLUDEONLY\].*prefix"):
        schemathesis_checks.projection_honoured(None, _response(bad), case)  # type: ignore[arg-type]


def _comments(*items: dict[str, Any]) -> dict[str, Any]:
    return {"page": 1, "pageSize": 15, "pageCount": 1, "listCount": len(items), "totalCount": len(items),
            "list": list(items)}


PRIVATE = {"id": 7, "type": "comment", "visibility": "recipients", "author": {"id": 3}, "recipients": [{"id": 2}]}


@pytest.mark.parametrize(("user", "leaks"), [(None, True), ("novice", True), ("member", False), ("moderator", False),
                                             ("stranger", False)])  # fmt: skip
def test_no_private_comment_leak_judges_anonymous_callers_and_known_accounts(
    schema: Any, monkeypatch: pytest.MonkeyPatch, user: str | None, leaks: bool
) -> None:
    """member wrote the comment, moderator is its recipient, novice neither; a stranger's entitlement is unknown."""
    monkeypatch.setattr(schemathesis_checks, "ACCOUNT_IDS", {"member": 3, "moderator": 2, "novice": 4})
    case = _case(schema, "/services/v2/answer/{answerId}/comment.json", path_parameters={"answerId": 5})
    resp = _response(_comments({"id": 6, "type": "comment", "visibility": "full"}, PRIVATE), user=user)
    if leaks:
        with pytest.raises(AssertionError, match=r"\[COMMENT-PRIVACY-LIST\] comment 7"):
            schemathesis_checks.no_private_comment_leak(None, resp, case)  # type: ignore[arg-type]
    else:
        schemathesis_checks.no_private_comment_leak(None, resp, case)  # type: ignore[arg-type]


@pytest.mark.parametrize(("parent", "leaks"), [(5, True), (6, True), (8, False), (99, False)],
                         ids=["on-the-answer", "under-a-public-comment", "under-a-private-comment", "parent-unlisted"])
def test_no_private_comment_leak_leaves_a_reply_that_may_have_inherited_its_settings_unjudged(
    schema: Any, monkeypatch: pytest.MonkeyPatch, parent: int, leaks: bool
) -> None:
    """novice is neither author nor recipient of comment 7. Under answer 5 or a public comment 6, 7 has its own
    settings: a leak. Under private comment 8 (by novice) it may have inherited them, and who besides its author and
    recipients reads such a reply (the author of the comment it answers) is not stated."""
    monkeypatch.setattr(schemathesis_checks, "ACCOUNT_IDS", {"member": 3, "moderator": 2, "novice": 4})
    case = _case(schema, "/services/v2/answer/{answerId}/comment.json", path_parameters={"answerId": 5})
    above = {"id": 8, "type": "comment", "visibility": "recipients", "author": {"id": 4}, "recipients": [{"id": 2}],
             "parentId": 5}
    resp = _response(_comments({"id": 6, "type": "comment", "visibility": "full", "parentId": 5}, above,
                               {**PRIVATE, "parentId": parent}), user="novice")
    if leaks:
        with pytest.raises(AssertionError, match=r"\[COMMENT-PRIVACY-LIST\] comment 7"):
            schemathesis_checks.no_private_comment_leak(None, resp, case)  # type: ignore[arg-type]
    else:
        schemathesis_checks.no_private_comment_leak(None, resp, case)  # type: ignore[arg-type]


def test_dates_in_milliseconds_pass_on_the_real_list_and_fail_on_epoch_seconds(schema: Any) -> None:
    case = _case(schema, "/services/v2/question.json")
    body = _sample("question-list.json")
    schemathesis_checks.dates_in_milliseconds(None, _response(body), case)  # type: ignore[arg-type]
    body["list"][0]["creationDate"] = 1550762618
    with pytest.raises(AssertionError, match=r"\[SHAPE-DATES-MILLIS\].*seconds"):
        schemathesis_checks.dates_in_milliseconds(None, _response(body), case)  # type: ignore[arg-type]


def test_the_hook_leaves_out_shape_changing_parameters_and_keeps_include_only_only_when_asked() -> None:
    def query_names(keep: list[str]) -> dict[str, Any]:
        schemathesis_checks.KEEP_PROJECTION[:] = keep
        try:
            loaded = schemathesis.openapi.from_path(str(ROOT / "spec" / "openapi.yaml"), config=schemathesis.Config())
        finally:
            schemathesis_checks.KEEP_PROJECTION.clear()
        return {p.name: p.definition.get("schema") for p in loaded["/services/v2/question.json"]["GET"].query}

    plain = query_names([])
    assert not {"wrap", "v1", "include", "exclude", "includeOnly"} & set(plain)
    assert {"page", "pageSize", "sort", "spaceId"} <= set(plain)
    assert query_names(["id", "id,name"])["includeOnly"] == {"type": "string", "enum": ["id", "id,name"]}


def _profile(destructive: bool, gdpr_user: str | None = "gdpr-target") -> Any:
    accounts = {r: {"username": r, "password": "pw"} for r in ("admin", "moderator", "member", "novice")}
    safety: dict[str, Any] = {"destructive": destructive}
    if gdpr_user:
        safety["gdpr_user"] = gdpr_user
    return profile_from_dict({"base_url": "http://127.0.0.1:1", "accounts": accounts,
                              "fixtures": {"question_id": 1, "space_id": 1}, "safety": safety}, env={})


FUTURE = {"formatted": "01/02/2099 10:00"}
JOBS = [
    {"type": "individual", "operations": ["delete"], "user": {"id": 5}, "scheduleDate": FUTURE},
    {"type": "bulk", "operations": ["anonymize"], "csvFileId": 5, "scheduleDate": FUTURE},
    {"type": "individual", "operations": ["suspend"], "user": {"email": "x@y"}, "reassignUser": {"id": 9},
     "scheduleTime": {"timeStamp": 4102444800000}},
]  # fmt: skip


@pytest.mark.parametrize("job", JOBS)
def test_without_destructive_every_generated_job_is_in_the_past_and_names_nobody_real(job: dict[str, Any]) -> None:
    body = json.loads(json.dumps(job))
    constrain_gdpr_job(body, _profile(destructive=False))
    assert body["scheduleDate"] == {"formatted": "01/01/2001 00:00"} and "scheduleTime" not in body
    assert body.get("user", {"username": "gdpr-target"}) == {"username": "gdpr-target"}
    assert body.get("csvFileId", -1) == -1


@pytest.mark.parametrize("job", JOBS)
def test_with_destructive_a_generated_job_only_ever_names_gdpr_user_and_is_in_the_past(job: dict[str, Any]) -> None:
    body = json.loads(json.dumps(job))
    constrain_gdpr_job(body, _profile(destructive=True))
    assert body["type"] == "individual" and body["user"] == {"username": "gdpr-target"} and "csvFileId" not in body
    assert body.get("reassignUser", {"username": "admin"}) == {"username": "admin"}
    assert body["scheduleDate"] == {"formatted": "01/01/2001 00:00"} and "scheduleTime" not in body


def test_destructive_without_a_gdpr_user_still_dates_every_job_in_the_past() -> None:
    body = json.loads(json.dumps(JOBS[0]))
    constrain_gdpr_job(body, _profile(destructive=True, gdpr_user=None))
    assert body["scheduleDate"] == {"formatted": "01/01/2001 00:00"}


@pytest.mark.parametrize(("operation", "body", "query", "expected"), [
    ("postComment", {"visibility": "x"}, {}, True),
    ("postComment", {"body": 5}, {}, False),  # a body of another type is given: no refusal stated (issue 46)
    ("postComment", {"body": False}, {}, False),
    ("postComment", {}, {}, True),
    ("postComment", None, {}, True),
    ("postComment", {"recipients": None}, {"pageSize": 1}, True),
    ("postComment", {"recipients": None}, {"body": "given as a parameter"}, False),
    ("postComment", {"body": "text", "recipients": None}, {}, False),
    ("scheduleGdprJob", ["not", "an", "object"], {}, True),
    ("scheduleGdprJob", {"type": "individual", "operations": []}, {}, True),
    ("scheduleGdprJob", {"type": "individual", "operations": [{"op": "delete"}], "user": {"id": 1}}, {}, True),
    ("scheduleGdprJob", {"type": "individual", "operations": ["delete"], "user": {"id": 1}, "x": 1}, {}, False),
    ("listQuestions", None, {"pageSize": "abc"}, False),
])  # fmt: skip
def test_refusals_are_required_only_where_the_description_lists_them(
    schema: Any, operation: str, body: Any, query: dict[str, Any], expected: bool
) -> None:
    class FakeCase:
        pass

    case = FakeCase()
    case.body, case.query, case.path_parameters = body, query, {}  # type: ignore[attr-defined]
    assert must_reject(operation, case) is expected


def _sender(made: dict[int, str]) -> Any:
    from qaconform.pytest.properties.oas import Pools, SchemaSender
    from qaconform.pytest.properties.plugin import Budget

    pools = Pools(question_id=1, readers=[10, 11], victims=[20, 21, 22, 23, 24], comments=[30, 31],
                  user_ids={"member": 3}, protected=frozenset({1}))
    fresh = iter(range(900, 999))
    return SchemaSender(profile=_profile(False), pools=pools, budget=Budget(seed=1, max_examples=1, time_budget_s=1.0),
                        api={}, created=None, run_tag="qc-t", made=made, fresh=lambda: next(fresh))


def test_an_id_a_generated_request_made_is_kept_only_where_a_node_of_its_kind_belongs(schema: Any) -> None:
    """Seed 320870083 once posted an answer to answer 110 (made by an earlier generated postAnswer): a 404 the target
    was right to give, charged to SHAPE-POST-ANSWER. A made answer is a node to act on, never a question."""
    sender = _sender({110: "answer", 111: "comment"})
    post = _case(schema, "/services/v2/question/{questionId}/answer.json", "POST", path_parameters={"questionId": 110},
                 body={"body": "x"})
    sender.make_safe(post)
    assert post.path_parameters["questionId"] == 1  # the profile's question, the only one to answer
    for node in (110, 111):
        followers = _case(schema, "/services/v2/node/{nodeId}/followers.json", path_parameters={"nodeId": node})
        sender.make_safe(followers)
        assert followers.path_parameters["nodeId"] == node  # nobody's fixture: a chain may act on it
    comments = _case(schema, "/services/v2/answer/{answerId}/comment.json", path_parameters={"answerId": 111})
    sender.make_safe(comments)
    assert comments.path_parameters["answerId"] in (10, 11)  # a comment is not an answer: a reader instead


def test_a_state_change_acts_on_an_answer_of_its_own_unless_a_chain_links_its_answer(schema: Any) -> None:
    """A shared node is moved by the first generated lock and met moved by every later one (and by hypothesis's replay
    of a failing case): a second send to moderation was charged as 'undocumented status' and made the chains'
    choices draw differently from one example to the next (FlakyStrategyDefinition)."""
    sender = _sender({110: "answer"})
    first = _case(schema, "/services/v2/node/{nodeId}/sendToMod.json", "PUT", path_parameters={"nodeId": 110})
    second = _case(schema, "/services/v2/node/{nodeId}/sendToMod.json", "PUT", path_parameters={"nodeId": 110})
    sender.make_safe(first)
    sender.make_safe(second)
    assert first.path_parameters["nodeId"] == 900 and second.path_parameters["nodeId"] == 901
    linked = _case(schema, "/services/v2/node/{nodeId}/lock.json", "PUT", path_parameters={"nodeId": 110})
    sender.linked_case = linked
    sender.make_safe(linked)
    assert linked.path_parameters["nodeId"] == 110  # the chain's own answer, as its link gave it


def test_the_ledger_knows_a_node_only_until_this_run_moved_it_or_a_parent() -> None:
    from qaconform.pytest.properties.states import NodeLedger, error_body_stated

    ledger = NodeLedger()
    ledger.created(50, 1)  # an answer to question 1
    ledger.created(60, 50)  # a comment on it
    assert ledger.change_above(60) is None
    ledger.moved(50, "lockNode")
    assert ledger.change_above(50) == "node 50 was locked by this run"
    assert ledger.change_above(60) == "node 50 was locked by this run"  # a reply under a locked answer: not stated
    assert ledger.change_above(1) is None
    assert error_body_stated("listUserContent", 422, schema_valid=False)
    assert error_body_stated("scheduleGdprJob", 400, schema_valid=True)
    assert not error_body_stated("scheduleGdprJob", 400, schema_valid=False)  # e.g. an unparsable body
    assert not error_body_stated("postComment", 400, schema_valid=True)


def test_a_generated_case_past_the_budget_stops_the_operation_and_is_counted_not_sent(schema: Any) -> None:
    """Past the deadline (or this operation's writes) no further case of the test would be sent: drawing them cost
    25 ms of CPU each for nothing. The first one counts as not sent and stops the test's generation."""
    from qaconform.pytest.properties.plugin import BudgetSpent

    sender = _sender({})  # its budget's deadline has passed: time.monotonic() > 0
    case = _case(schema, "/services/v2/question.json")
    with pytest.raises(BudgetSpent):
        sender.send(case)
    assert sender.budget.over_budget == {"listQuestions\ttime budget": 1}, "why it was not sent: the time"


def test_the_summary_says_which_budget_held_each_case_back(capsys: pytest.CaptureFixture[str]) -> None:
    """crossing11: an interrupted run's summary said "not sent (budget)" of every operation, which read as the write
    budget spent while the suites' share still held writes: each count now says which budget, and for a share what
    it had spent of what it holds."""
    from collections import Counter

    from qaconform.pytest.properties.plugin import TIME, PropertiesState, _print_summary, not_sent_key, share_spent
    from qaconform.target.client import ApiClient
    from qaconform.target.writes import WriteBudget

    class _Tr:
        def section(self, title: str) -> None:
            print(f"== {title}")

        def write_line(self, line: str) -> None:
            print(line)

    budget = WriteBudget(100, pool="openapi")
    old, ApiClient.write_budget = ApiClient.write_budget, budget
    try:
        for _ in range(budget.limit() or 0):
            assert budget.reserve()
        spent = share_spent()
        budget_less = WriteBudget(None, pool="openapi")
        ApiClient.write_budget = budget_less
        unlimited = share_spent()
    finally:
        ApiClient.write_budget = old
    assert spent == f"the openapi share of the write budget: {budget.limit()} of {budget.limit()} spent", spent
    assert unlimited == "write budget"
    st = PropertiesState(seed=1)
    st.used = True
    st.statuses["postAnswer"][201] += 2
    st.over_budget = Counter({not_sent_key("postAnswer", TIME): 1, not_sent_key("cancelWiki", spent): 1,
                              "privacy model: a step (its share is spent)": 1})  # a suite's label says why
    _print_summary(_Tr(), st)
    out = capsys.readouterr().out
    assert "2 generated requests sent, 3 cases not sent (each says why" in out, out
    assert any(line.strip().startswith("privacy model: a step (its share is spent)") and line.endswith(
        " 0 sent; 1 not sent") for line in out.splitlines()), out
    assert "postAnswer" in out and "2 sent: 201x2; 1 not sent (time budget)" in out, out
    assert f"0 sent; 1 not sent ({spent})" in out, out
    assert "not sent (budget)" not in out


def test_a_test_stopped_at_its_budget_passes_with_what_it_ran_and_the_session_goes_on(tmp_path: Path) -> None:
    """BudgetSpent is a KeyboardInterrupt (hypothesis's "this example never happened"); the properties plugin catches
    it around the test call, so hypothesis stops drawing, the test passes and the next test runs."""
    (tmp_path / "test_stop.py").write_text(
        "from hypothesis import given, settings, strategies as st\n"
        "from qaconform.pytest.properties.plugin import BudgetSpent\n"
        "drawn = []\n\n"
        "@settings(max_examples=50, database=None)\n"
        "@given(st.integers())\n"
        "def test_stops(x):\n"
        "    drawn.append(x)\n"
        "    if len(drawn) == 3:\n"
        "        raise BudgetSpent('listQuestions')\n\n"
        "def test_next():\n"
        "    assert len(drawn) == 3\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", str(tmp_path), "-q", "-p", "no:cacheprovider",
                           "-p", "no:locust", "--rootdir", str(tmp_path)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout


def test_an_ignored_auth_probe_the_rate_limit_answered_is_a_hold_back_not_a_failure(
    schema: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """schemathesis's ignored_auth check sends its own probe without credentials; a 429 to it (the rate-limit
    variant: build 1 of 3 against it ended exit 4 on "Expected 401 or 403, got 429") holds the run back, as any
    429 does; any other answer that is not 401/403 stays the check's failure. Decided from the probe's status as
    schemathesis recorded it, not from the failure's text: probes sent to a real server answering each status."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from qaconform.pytest.properties import oas

    answer = {"status": 429}
    PAGE = b'{"list": [], "totalCount": 0, "pageSize": 15, "page": 1, "pageCount": 0}'  # noqa: N806
    EXPERTS = "/services/v2/user/retrieveAllExperts.json"  # noqa: N806 - an operation that requires credentials

    class Target(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self.send_response(answer["status"])
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Target)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    only_auth = [c for c in (*oas.BUILTIN_CHECKS, *schemathesis_checks.OUR_CHECKS) if c is not oas.ignored_auth_once]
    outcomes: dict[int, tuple[list[str], bool]] = {}
    try:
        for status in (429, 404, 400, 200, 401):
            answer["status"] = status
            monkeypatch.setattr(oas, "AUTH_ENFORCED", set())
            accepted = _response(json.loads(PAGE), 200, "member")
            accepted.request.url = f"http://127.0.0.1:{server.server_port}{EXPERTS}"
            failures, held = oas.run_checks(_case(schema, EXPERTS), accepted, only_auth,
                                            {"auth": ("member", "pw"),
                                             "base_url": f"http://127.0.0.1:{server.server_port}"})
            kinds = [type(f).__name__ for f in failures.exceptions] if failures is not None else []
            outcomes[status] = (kinds, held)
    finally:
        server.shutdown()
    assert outcomes == {
        429: ([], True),  # held back: no failure, the probe to be sent again after a wait
        404: (["IgnoredAuth"], False),
        400: (["IgnoredAuth"], False),
        200: (["IgnoredAuth"], False),
        401: ([], False),  # refused: the operation enforces authentication
    }


def test_an_ignored_auth_failure_is_charged_by_its_scenario_not_its_wording(schema: Any) -> None:
    """Which rule an IgnoredAuth breaks is read from the scenario schemathesis carries (no credentials, wrong ones),
    never from its title: a read of the experts without credentials is EXPERTS-401, a write AUTH-ANONYMOUS-WRITES,
    wrong credentials AUTH-BAD-CREDENTIALS, whatever the titles say."""
    from types import SimpleNamespace

    from schemathesis.core.failures import FailureGroup
    from schemathesis.specs.openapi.checks import AuthScenario, IgnoredAuth

    from qaconform.pytest.properties import oas

    sender = SimpleNamespace(budget=SimpleNamespace(seed=7), role=lambda op: "member",
                             curl_of=lambda op, case, response: "curl ...")

    def charged(path: str, method: str, scenario: AuthScenario, **kw: Any) -> list[str]:
        failure = IgnoredAuth(operation=f"{method} {path}", scenario=scenario, title="a title saying nothing",
                              message="Expected 401 or 403, got `200 OK`")
        rules, _ = oas.SchemaSender.explain(sender, "op", _case(schema, path, method, **kw),  # type: ignore[arg-type]
                                            _response({}), FailureGroup([failure], "failed"))
        return rules

    assert charged("/services/v2/user/retrieveAllExperts.json", "GET", AuthScenario.NO_AUTH) == ["EXPERTS-401"]
    assert charged("/services/v2/question/{questionId}/answer.json", "POST", AuthScenario.NO_AUTH,
                   path_parameters={"questionId": 110}) == ["AUTH-ANONYMOUS-WRITES"]
    assert charged("/services/v2/question.json", "GET", AuthScenario.NO_AUTH) == ["AUTH-BAD-CREDENTIALS"]
    assert charged("/services/v2/user/retrieveAllExperts.json", "GET",
                   AuthScenario.INVALID_AUTH) == ["AUTH-BAD-CREDENTIALS"]


@pytest.mark.parametrize("enforced", [True, False], ids=["refuses-probes", "ignores-auth"])
def test_an_operation_is_probed_without_credentials_until_it_has_refused_once(
    schema: Any, monkeypatch: pytest.MonkeyPatch, enforced: bool
) -> None:
    """schemathesis's runner confirms once per operation that it refuses missing and wrong credentials; the kit's
    generated tests (``validate_response``) probed every accepted case twice. An operation that refused both probes
    is not probed again; one that let a probe in fails every time and is probed again."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from schemathesis.core.failures import FailureGroup

    from qaconform.pytest.properties import oas

    probes: list[str | None] = []
    PAGE = b'{"list": [], "totalCount": 0, "pageSize": 15, "page": 1, "pageCount": 0}'  # noqa: N806
    EXPERTS = "/services/v2/user/retrieveAllExperts.json"  # noqa: N806 - an operation that requires credentials

    class Target(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            probes.append(self.headers.get("Authorization"))
            self.send_response(401 if enforced else 200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Target)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setattr(oas, "AUTH_ENFORCED", set())
    case = _case(schema, EXPERTS)
    failures = 0
    try:
        for _ in range(3):
            accepted = _response(json.loads(PAGE), 200, "member")
            accepted.request.url = f"http://127.0.0.1:{server.server_port}{EXPERTS}"  # what the probes ask again
            try:
                case.validate_response(accepted, checks=[oas.ignored_auth_once],
                                       transport_kwargs={"auth": ("member", "pw"),
                                                         "base_url": f"http://127.0.0.1:{server.server_port}"})
            except FailureGroup:
                failures += 1
    finally:
        server.shutdown()
    if enforced:
        assert (len(probes), failures) == (2, 0)  # the first case's two probes, then none
        assert oas.AUTH_ENFORCED == {"GET /services/v2/user/retrieveAllExperts.json"}
    else:
        assert failures == 3 and len(probes) == 3 and not oas.AUTH_ENFORCED
