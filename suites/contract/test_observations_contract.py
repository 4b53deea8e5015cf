"""Where the description is silent (paging bounds, defaults, wrap, v1, search parameters, unknown ids, limits), these
tests record what the target does with ``observe(rule, **facts)``. They never fail on what the target answers;
they fail only when the kit cannot make the request at all. Requests are built so they can change nothing that
matters: unknown ids, answers the run created, read-only lists.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from typing import Any

import pytest
from listops import LIST_OPS, Fetch

from qaconform.contract import envelope
from qaconform.invariants import not_an_envelope
from qaconform.pytest.support import new_id, post_answer
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.observation, pytest.mark.contract]

Observe = Any
_UNKNOWN_ID = 987654321


def _body(resp: ApiResponse) -> Any:
    """The parsed body, or None when it is not JSON (an observation records that rather than failing)."""
    try:
        return json.loads(resp.content)
    except ValueError:
        return None


def _facts(resp: ApiResponse, **extra: Any) -> dict[str, Any]:
    """Status, Content-Type and a compact summary of the body (envelope numbers, keys, or the first characters)."""
    body = _body(resp)
    facts: dict[str, Any] = {"status": resp.status, "content_type": resp.content_type}
    if not_an_envelope(body) is None:
        facts.update({k: body.get(k) for k in (*envelope().counts, "sort")})
    elif isinstance(body, dict):
        facts["keys"] = sorted(body)[:20]
        if "error" in body or "errors" in body:
            facts["error"] = body.get("error") or body.get("errors")
    elif isinstance(body, list):
        facts["array_length"] = len(body)
    else:
        facts["body_start"] = resp.text[:160]
    facts.update(extra)
    return facts


@pytest.mark.rule("PAGING-DEFAULT-PAGESIZE", "OBS-DEFAULT-SORT")
@pytest.mark.paging
def test_record_the_default_page_size_and_sort_of_every_list(
    fetch: Fetch, list_paths: dict[str, str], profile: Profile, observe: Observe
) -> None:
    for lo, resp in zip(LIST_OPS.values(), _plain_reads(fetch, list_paths, profile), strict=True):
        body = _body(resp)
        env = body if isinstance(body, dict) else {}
        observe("PAGING-DEFAULT-PAGESIZE", operation=lo.op, status=resp.status, pageSize=env.get("pageSize"),
                profile_default_page_size=profile.default_page_size)
        observe("OBS-DEFAULT-SORT", operation=lo.op, status=resp.status, sort=env.get("sort"))


@pytest.mark.rule("PAGING-FOLLOWERS-PAGE-ZERO")
@pytest.mark.paging
def test_record_the_page_a_follower_list_reports(
    fetch: Fetch, list_paths: dict[str, str], observe: Observe, profile: Profile
) -> None:
    """"A follower list shows 0": whether page 0 is the first page, and which page number page=1 and page=2 report
    (the page asked for, or the page counted from 0), is what this records; nothing else states it. The pages are
    read a few at once (speed7, issue 44: no read depends on another), recorded in this order."""
    path = list_paths["listNodeFollowers"]
    asked: tuple[tuple[str, dict[str, Any]], ...] = (
        ("page omitted", {}), ("page=0", {"page": 0}), ("page=1", {"page": 1}),
        ("page=1, pageSize=1", {"page": 1, "pageSize": 1}), ("page=2, pageSize=1", {"page": 2, "pageSize": 1}))
    pages = fanout.gather([functools.partial(fetch, "member", path, **params) for _, params in asked],
                          fanout.width(profile))
    for (label, _), resp in zip(asked, pages, strict=True):
        observe("PAGING-FOLLOWERS-PAGE-ZERO", request=label, **_facts(resp))


def _plain_reads(fetch: Fetch, list_paths: dict[str, str], profile: Profile) -> list[ApiResponse]:
    """Every list read plainly by the first account the description lets read it, in the order of ``LIST_OPS``, a
    few at once (speed7, issue 44: nine reads that do not depend on one another; ``fetch`` keeps them for the
    process, so the second test that records them sends nothing)."""
    return fanout.gather([functools.partial(fetch, lo.roles[0], list_paths[lo.op]) for lo in LIST_OPS.values()],
                         fanout.width(profile))


_ODD_SIZES = [
    pytest.param("OBS-PAGESIZE-ZERO", 0, marks=pytest.mark.rule("OBS-PAGESIZE-ZERO"), id="zero"),
    pytest.param("OBS-PAGESIZE-NEGATIVE", -1, marks=pytest.mark.rule("OBS-PAGESIZE-NEGATIVE"), id="negative"),
    pytest.param("OBS-PAGESIZE-HUGE", 100000, marks=pytest.mark.rule("OBS-PAGESIZE-HUGE"), id="huge"),
]


@pytest.mark.paging
@pytest.mark.parametrize(("rule", "size"), _ODD_SIZES)
@pytest.mark.parametrize("op", ["listQuestions", "listSpaces", "listActiveExperts"])
def test_record_what_an_odd_page_size_gives(
    rule: str, size: int, op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe
) -> None:
    observe(rule, operation=op, pageSize_asked=size, **_facts(fetch("member", list_paths[op], pageSize=size)))


@pytest.mark.rule("OBS-PAGE-BEYOND-END")
@pytest.mark.paging
@pytest.mark.parametrize("op", ["listQuestions", "listSpaces", "listGroups"])
def test_record_what_a_page_past_the_end_gives(
    op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe
) -> None:
    role = LIST_OPS[op].roles[0]
    first = _body(fetch(role, list_paths[op], pageSize=2))
    page_count = first.get("pageCount") if isinstance(first, dict) else None
    page = (page_count if isinstance(page_count, int) else 0) + 5
    observe("OBS-PAGE-BEYOND-END", operation=op, page_asked=page, page_count_before=page_count,
            **_facts(fetch(role, list_paths[op], pageSize=2, page=page)))


@pytest.mark.rule("OBS-MAX-PAGESIZE")
@pytest.mark.paging
@pytest.mark.parametrize("op", ["listQuestions", "listSpaces", "listTopics"])
def test_record_the_largest_page_size_honoured(
    op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe, profile: Profile
) -> None:
    reported = {}
    sizes = (50, 100, 500, 1000, 5000)  # read a few at once (speed7, issue 44): no read depends on another
    pages = fanout.gather([functools.partial(fetch, "member", list_paths[op], pageSize=size) for size in sizes],
                          fanout.width(profile))
    for size, resp in zip(sizes, pages, strict=True):
        body = _body(resp)
        reported[str(size)] = body.get("pageSize") if isinstance(body, dict) else None
    honoured = [int(k) for k, v in reported.items() if v == int(k)]
    observe("OBS-MAX-PAGESIZE", operation=op, reported_by_asked=reported,
            largest_honoured=max(honoured) if honoured else None)


@pytest.mark.rule("OBS-SORT-INVALID-OTHER")
@pytest.mark.parametrize(
    "op", ["listQuestions", "listUserAnswers", "listUserQuestions", "listNodeFollowers", "listAnswerComments"])
def test_record_what_other_lists_do_with_an_unknown_sort(
    op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe
) -> None:
    default = _body(fetch("member", list_paths[op]))
    observe("OBS-SORT-INVALID-OTHER", operation=op,
            default_sort=default.get("sort") if isinstance(default, dict) else None,
            **_facts(fetch("member", list_paths[op], sort="qcNoSuchSort")))


@pytest.mark.rule("SORT-EXPERTS-INVALID")
@pytest.mark.parametrize("op", ["listActiveExperts", "listEarnedExperts"])
def test_record_what_an_expert_list_does_with_a_sort_outside_the_six(
    op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe
) -> None:
    observe("SORT-EXPERTS-INVALID", operation=op, **_facts(fetch("member", list_paths[op], sort="qcNoSuchSort")))


@pytest.mark.rule("PROJ-EXCLUDE")
@pytest.mark.parametrize("op", ["listQuestions", "listSpaces", "listTopics"])
def test_record_what_include_and_exclude_do_to_item_fields(
    op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe
) -> None:
    def fields(**params: Any) -> tuple[int, list[str]]:
        resp = fetch("member", list_paths[op], pageSize=3, **params)
        body = _body(resp)
        items = body.get("list") if isinstance(body, dict) else None
        first = items[0] if isinstance(items, list) and items and isinstance(items[0], dict) else {}
        return resp.status, sorted(first)

    status, plain = fields()
    field = "name" if "name" in plain else "title"
    ex_status, excluded = fields(exclude=field)
    in_status, included = fields(include="qcNoSuchField")
    observe("PROJ-EXCLUDE", operation=op, plain_fields=plain, exclude=field, exclude_status=ex_status,
            removed_by_exclude=sorted(set(plain) - set(excluded)), include_status=in_status,
            added_by_include=sorted(set(included) - set(plain)), plain_status=status)


@pytest.mark.rule("OBS-PATH-WITHOUT-JSON")
@pytest.mark.parametrize("path", ["question", "space"])
def test_record_what_a_path_without_the_json_extension_gives(
    path: str, member: ApiClient, observe: Observe
) -> None:
    observe("OBS-PATH-WITHOUT-JSON", path=path, **_facts(member.get(path)))


@pytest.mark.rule("OBS-WRAP", "OBS-V1")
@pytest.mark.parametrize("op", ["listQuestions", "listSpaces", "listAnswerComments"])
def test_record_what_wrap_and_v1_do_to_a_list(
    op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe, api: dict[str, ApiClient]
) -> None:
    plain = fetch("member", list_paths[op])
    plain_keys = sorted(_body(plain)) if isinstance(_body(plain), dict) else None
    for rule, option in (("OBS-WRAP", "wrap"), ("OBS-V1", "v1")):
        if rule == "OBS-WRAP" and op == "listAnswerComments":
            continue
        resp = fetch("member", list_paths[op], **{option: "true"})
        body = _body(resp)
        same = _same_as_plain(api["member"], list_paths[op], option, resp, plain)
        observe(rule, operation=op, option=f"{option}=true", status=resp.status, plain_status=plain.status,
                keys=sorted(body) if isinstance(body, dict) else type(body).__name__, plain_keys=plain_keys,
                same_body=same)


WRAP_TRIES = 3
"""How many times a list read with an option is framed by plain reads before its difference is taken as moved."""


def _same_as_plain(member: ApiClient, path: str, option: str, resp: ApiResponse, plain: ApiResponse) -> bool | str:
    """Whether the option's body is the plain body. Other tests and workers write into these lists while this reads
    (``plain`` may come from the session's cache), so a body that differs is framed by a plain read right before and
    one right after it: equal to either, the option changed nothing; both plain reads equal and the option's body
    not, the option did; the list moving between them, the frame is read again (a CI run once recorded false for
    wrap on the question list, a list that moved, and `qaconform diff` took it for a change)."""
    if resp.content == plain.content:
        return True
    for _ in range(WRAP_TRIES):
        before = member.get(path).content
        optioned = member.get(path, params={option: "true"}).content
        after = member.get(path).content
        if optioned in (before, after):
            return True
        if before == after:
            return False
    return "unknown: the list moved under every read"


@pytest.mark.accepted_writes(4)
@pytest.mark.rule("OBS-WRAP", "OBS-V1")
@pytest.mark.writes
def test_record_what_wrap_and_v1_do_to_writes(
    api: dict[str, ApiClient], question_id: int, run_tag: str, created: Any, observe: Observe
) -> None:
    member, moderator = api["member"], api["moderator"]
    wrapped = post_answer(member, question_id, run_tag, created, text="wrap=true answer", wrap="true")
    observe("OBS-WRAP", operation="postAnswer", option="wrap=true", **_facts(wrapped))
    target = post_answer(member, question_id, run_tag, created, text="answer for wrap/v1 on actions")
    if target.status != 201:
        observe("OBS-WRAP", operation="lockNode", skipped="member's answer to act on was refused", **_facts(target))
        return
    answer_id = new_id(target)
    lock = moderator.put(f"node/{answer_id}/lock.json", params={"prompt": f"wrap [{run_tag}]", "wrap": "true"},
                         operation="lockNode")
    observe("OBS-WRAP", operation="lockNode", option="wrap=true", **_facts(lock))
    send = moderator.put(f"node/{answer_id}/sendToMod.json", params={"v1": "true"}, operation="sendToModeration")
    observe("OBS-V1", operation="sendToModeration", option="v1=true", **_facts(send))


_DEPRECATION_HEADERS = ("deprecation", "sunset", "warning", "link")


@pytest.mark.rule("OBS-V1-OPTION")
def test_record_deprecation_signals_with_and_without_v1(fetch: Fetch, observe: Observe) -> None:
    for label, params in (("plain", {}), ("v1=true", {"v1": "true"})):
        resp = fetch("member", "question.json", **params)
        observe("OBS-V1-OPTION", request=label, status=resp.status,
                headers={h: resp.headers[h] for h in _DEPRECATION_HEADERS if h in resp.headers})


@pytest.mark.rule("OBS-Q-FORMAT")
@pytest.mark.parametrize(("op", "params"), [
    ("listQuestions", {"q": "password"}), ("listQuestions", {"q": "qcNoSuchWordAnywhere"}),
    ("listQuestions", {"type": "question"}), ("listQuestions", {"lang": "en"}),
    ("listQuestions", {"topics": "api"}), ("listQuestions", {"unanswered": "true"}),
    ("listTopics", {"q": "a"}), ("listTopics", {"type": "topic"}), ("listTopics", {"lang": "en"}),
], ids=lambda v: v if isinstance(v, str) else "-".join(f"{k}={x}" for k, x in v.items()))
def test_record_how_search_parameters_change_a_list(
    op: str, params: dict[str, str], fetch: Fetch, list_paths: dict[str, str], observe: Observe, profile: Profile
) -> None:
    plain_read, searched = fanout.gather([functools.partial(fetch, "member", list_paths[op]),  # together (speed7)
                                          functools.partial(fetch, "member", list_paths[op], **params)],
                                         fanout.width(profile))
    plain = _body(plain_read)
    observe("OBS-Q-FORMAT", operation=op, params=params,
            plain_totalCount=plain.get("totalCount") if isinstance(plain, dict) else None, **_facts(searched))


_MAY_ANSWER_2XX = [pytest.mark.writes, pytest.mark.accepted_writes(1)]
"""An action on a node that does not exist: a server may answer 200 with success false (the description is silent), a
2xx the write budget counts as accepted, so the observations' plan makes room for it."""


@pytest.mark.rule("OBS-NOT-FOUND")
@pytest.mark.parametrize(("op", "method", "path"), [
    pytest.param("postComment", "POST", f"node/{_UNKNOWN_ID}/comment.json", marks=pytest.mark.writes),
    pytest.param("postAnswer", "POST", f"question/{_UNKNOWN_ID}/answer.json", marks=pytest.mark.writes),
    ("listUserAnswers", "GET", f"user/{_UNKNOWN_ID}/answer.json"),
    ("listUserQuestions", "GET", f"user/{_UNKNOWN_ID}/question.json"),
    ("listNodeFollowers", "GET", f"node/{_UNKNOWN_ID}/followers.json"),
    ("listAnswerComments", "GET", f"answer/{_UNKNOWN_ID}/comment.json"),
    pytest.param("unmarkFavorite", "PUT", f"node/{_UNKNOWN_ID}/unmarkfavorite.json", marks=_MAY_ANSWER_2XX),
    pytest.param("cancelWiki", "PUT", f"node/{_UNKNOWN_ID}/cancelwiki.json", marks=_MAY_ANSWER_2XX),
    pytest.param("sendToModeration", "PUT", f"node/{_UNKNOWN_ID}/sendToMod.json", marks=_MAY_ANSWER_2XX),
    pytest.param("lockNode", "PUT", f"node/{_UNKNOWN_ID}/lock.json?prompt=qc", marks=_MAY_ANSWER_2XX),
], ids=lambda v: v if isinstance(v, str) and "/" not in v and v not in ("GET", "PUT", "POST") else None)
def test_record_what_an_id_naming_nothing_gives(
    op: str, method: str, path: str, admin: ApiClient, run_tag: str, observe: Observe
) -> None:
    body = {"body": f"to nothing [{run_tag}]"} if method == "POST" else None
    resp = admin.request(method, path, json=body, operation=op)
    observe("OBS-NOT-FOUND", operation=op, **_facts(resp))


@pytest.mark.rule("OBS-RATE-LIMITS")
def test_record_rate_limit_signals_in_a_short_burst(member: ApiClient, observe: Observe) -> None:
    statuses: Counter[int] = Counter()
    headers: dict[str, str] = {}
    for _ in range(30):
        resp = member.get("question.json", params={"pageSize": 1}, operation="listQuestions")
        statuses[resp.status] += 1
        headers.update({k: v for k, v in resp.headers.items()
                        if k.startswith(("x-ratelimit", "ratelimit", "retry-after", "x-rate-limit"))})
    observe("OBS-RATE-LIMITS", requests=30, statuses=dict(statuses), rate_limit_headers=headers,
            got_429=statuses.get(429, 0))


@pytest.mark.accepted_writes(1)
@pytest.mark.rule("OBS-MAX-BODY")
@pytest.mark.writes
def test_record_what_a_one_megabyte_body_gives(
    api: dict[str, ApiClient], fresh_answer: int, question_id: int, run_tag: str, created: Any, observe: Observe
) -> None:
    text = f"[{run_tag}] " + "x" * (1024 * 1024)
    comment = api["member"].post(f"node/{fresh_answer}/comment.json", json={"body": text}, operation="postComment")
    if comment.status == 201:
        created.add("comment", new_id(comment), "member")
    observe("OBS-MAX-BODY", operation="postComment", bytes=len(text), **_facts(comment))
    # admin's answer list is read by no other test, so a 1 MB answer there slows nobody down.
    answer = api["admin"].post(f"question/{question_id}/answer.json", json={"body": text}, operation="postAnswer")
    if answer.status == 201:
        created.add("answer", new_id(answer), "admin")
    observe("OBS-MAX-BODY", operation="postAnswer", bytes=len(text), **_facts(answer))


@pytest.mark.rule("OBS-ANSWERCOUNT-MISMATCH")
@pytest.mark.parametrize("op", ["listQuestions", "listUserQuestions"])
def test_record_questions_whose_answer_count_differs_from_their_answers(
    op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe
) -> None:
    body = _body(fetch("admin", list_paths[op], pageSize=50))
    items = body.get("list") if isinstance(body, dict) else []
    mismatched = [
        {"id": q.get("id"), "answerCount": q.get("answerCount"), "answers": len(q["answers"])}
        for q in items or [] if isinstance(q, dict) and isinstance(q.get("answers"), list)
        and q.get("answerCount") != len(q["answers"])
    ]
    observe("OBS-ANSWERCOUNT-MISMATCH", operation=op, questions=len(items or []), mismatched=mismatched[:10])


@pytest.mark.rule("OBS-FOLLOWERS-DETAILS-SHAPE")
def test_record_the_item_fields_of_a_detailed_follower_list(
    fetch: Fetch, list_paths: dict[str, str], observe: Observe
) -> None:
    resp = fetch("member", list_paths["listNodeFollowers"], details="true")
    body = _body(resp)
    items = body.get("list") if isinstance(body, dict) else None
    first = items[0] if isinstance(items, list) and items and isinstance(items[0], dict) else {}
    observe("OBS-FOLLOWERS-DETAILS-SHAPE", item_fields=sorted(first),
            nested={k: sorted(v) for k, v in first.items() if isinstance(v, dict)}, **_facts(resp))


@pytest.mark.rule("OBS-ISSUETYPES-PAGING", "ISSUETYPES-NAMES-MAY-REPEAT")
def test_record_paging_and_repeated_names_of_the_issue_type_list(
    fetch: Fetch, require_fixture: Any, observe: Observe
) -> None:
    tracker = require_fixture("issue_tracker")
    plain = fetch("admin", f"{tracker}/issuetype.json")
    body = _body(plain)
    names = [i.get("name") for i in body if isinstance(i, dict)] if isinstance(body, list) else []
    repeated = {n: c for n, c in Counter(names).items() if c > 1}
    observe("ISSUETYPES-NAMES-MAY-REPEAT", names=len(names), repeated=repeated)
    paged = fetch("admin", f"{tracker}/issuetype.json", page=2, pageSize=1)
    observe("OBS-ISSUETYPES-PAGING", request="page=2&pageSize=1", plain_length=len(names),
            same_body=paged.content == plain.content, **_facts(paged))


@pytest.mark.rule("OBS-ISSUETYPES-NOT-CONFIGURED")
def test_record_the_issue_type_list_of_a_tracker_that_is_not_set_up(
    admin: ApiClient, profile: Profile, observe: Observe
) -> None:
    # With no tracker in the profile the described path is the unconfigured one; with one, another name is.
    segment = "tracker" if profile.fixtures.issue_tracker is None else "qcnotracker"
    observe("OBS-ISSUETYPES-NOT-CONFIGURED", segment=segment,
            profile_names_tracker=profile.fixtures.issue_tracker is not None,
            **_facts(admin.get(f"{segment}/issuetype.json", operation="listIssueTypes")))


@pytest.mark.rule("OBS-AUTH-OTHER-SCHEMES")
@pytest.mark.parametrize("path", ["question.json", "user/retrieveAllExperts.json"])
def test_record_what_a_bearer_token_gives(path: str, anonymous: ApiClient, observe: Observe) -> None:
    bearer = anonymous.get(path, headers={"Authorization": "Bearer qc-not-a-token"})
    plain = anonymous.get(path)
    observe("OBS-AUTH-OTHER-SCHEMES", path=path, bearer_status=bearer.status, anonymous_status=plain.status,
            www_authenticate=bearer.headers.get("www-authenticate") or plain.headers.get("www-authenticate"))


@pytest.mark.rule("OBS-ENVELOPE-NAME")
def test_record_the_name_each_list_envelope_carries(
    fetch: Fetch, list_paths: dict[str, str], observe: Observe, profile: Profile
) -> None:
    for lo, resp in zip(LIST_OPS.values(), _plain_reads(fetch, list_paths, profile), strict=True):
        body = _body(resp)
        env = body if isinstance(body, dict) else {}
        observe("OBS-ENVELOPE-NAME", operation=lo.op, status=resp.status, has_name="name" in env,
                name=env.get("name"), name_type=type(env.get("name")).__name__)


@pytest.mark.rule("OBS-ACCEPT-HEADER")
@pytest.mark.parametrize("path", ["question.json", "space.json"])
def test_record_what_a_json_path_gives_to_other_accept_headers(
    path: str, member: ApiClient, observe: Observe
) -> None:
    for accept in ("text/html", "*/*"):
        resp = member.get(path, params={"pageSize": 1}, headers={"Accept": accept})
        observe("OBS-ACCEPT-HEADER", path=path, accept=accept, body_is_json=_body(resp) is not None,
                **_facts(resp))


@pytest.mark.rule("OBS-MARKED-ACCEPTED")
@pytest.mark.parametrize("op", ["listQuestions", "listUserQuestions"])
def test_record_whether_marked_agrees_with_the_accepted_state(
    op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe
) -> None:
    body = _body(fetch("admin", list_paths[op], pageSize=50))
    items = [q for q in (body.get("list") or [] if isinstance(body, dict) else []) if isinstance(q, dict)]
    disagreeing = [
        {"id": q.get("id"), "marked": q.get("marked"), "nodeStates": q.get("nodeStates")}
        for q in items
        if bool(q.get("marked")) != ("accepted" in (q.get("nodeStates") or []))
    ]
    observe("OBS-MARKED-ACCEPTED", operation=op, questions=len(items),
            marked=sum(1 for q in items if q.get("marked") is True),
            accepted=sum(1 for q in items if "accepted" in (q.get("nodeStates") or [])),
            disagreeing=disagreeing[:10])


@pytest.mark.rule("OBS-OTHER-VERSION-PATH")
@pytest.mark.parametrize("version", ["v1", "v3"])
def test_record_what_the_question_list_gives_under_another_version_path(
    version: str, member: ApiClient, profile: Profile, observe: Observe
) -> None:
    url = f"{profile.base_url.rstrip('/')}/services/{version}/question.json"
    resp = member.get(url, params={"pageSize": 1}, operation="listQuestions")
    observe("OBS-OTHER-VERSION-PATH", path=f"/services/{version}/question.json", **_facts(resp))


@pytest.mark.rule("OBS-ERROR-BODIES")
@pytest.mark.parametrize("op", ["listQuestions", "listSpaces", "listAnswerComments"])
def test_record_the_error_body_of_a_non_numeric_paging_parameter(
    op: str, fetch: Fetch, list_paths: dict[str, str], observe: Observe
) -> None:
    for param in ("page", "pageSize"):
        resp = fetch("member", list_paths[op], **{param: "qcNotANumber"})
        observe("OBS-ERROR-BODIES", operation=op, request=f"{param}=qcNotANumber",
                body_is_json=_body(resp) is not None, **_facts(resp))


@pytest.mark.rule("OBS-ERROR-BODIES")
@pytest.mark.writes
def test_record_the_error_body_of_a_malformed_json_answer(
    member: ApiClient, question_id: int, run_tag: str, created: Any, observe: Observe
) -> None:
    resp = member.post(f"question/{question_id}/answer.json", data=f'{{"body": "[{run_tag}] unterminated',
                       headers={"Content-Type": "application/json"}, operation="postAnswer")
    if resp.status == 201:
        created.add("answer", new_id(resp), "member")
    observe("OBS-ERROR-BODIES", operation="postAnswer", request="malformed JSON body",
            body_is_json=_body(resp) is not None, **_facts(resp))
