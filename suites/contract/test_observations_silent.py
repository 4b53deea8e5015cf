"""What real clients of the service are seen to depend on where the description is silent: recorded
with ``observe(rule, **facts)``, never judged. Plus LOCATION-READABLE, a should-level check: a well-behaved server
lets a client read back the URL its 201 names, though no sentence of the description says so.

Requests read lists, or write only answers and comments tagged with the run tag under the profile's question.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import pytest

from qaconform.contract import envelope
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.support import find_listed, list_all, new_id
from qaconform.pytest.support import location_path as support_location_path
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract]

Observe = Any

NODE_FIELDS = (
    "id", "type", "creationDate", "creationDateFormatted", "title", "body", "bodyAsHTML", "author",
    "lastEditedAction", "activeRevisionId", "revisionIds", "lastActiveUserId", "lastActiveDate", "parentId",
    "parentAuthor", "originalParentId", "attachments", "childrenIds", "commentIds", "marked", "topics",
    "primaryContainerId", "containerIds", "slug", "plug", "wiki", "score", "depth", "viewCount", "upVoteCount",
    "downVoteCount", "reportCount", "nodeStates", "answers", "answerCount", "visibility", "recipients",
)
"""The fields the description's Node table lists (for nodes in general)."""


def _json(resp: ApiResponse) -> Any:
    try:
        return json.loads(resp.content)
    except ValueError:
        return None


def _ids(resp: ApiResponse) -> list[Any] | None:
    body = _json(resp)
    items = body.get("list") if isinstance(body, dict) else None
    return [i.get("id") for i in items if isinstance(i, dict)] if isinstance(items, list) else None


@pytest.mark.observation
@pytest.mark.writes  # shared_answer
@pytest.mark.rule("OBS-NODE-FIELDS")
def test_record_which_node_fields_each_type_carries(
        member: ApiClient, question_id: int, user_ids: dict[str, int], shared_answer: int, observe: Observe) -> None:
    lists = {"question": ("question.json", {"pageSize": 5}),
             "answer": (f"user/{user_ids['member']}/answer.json", {"pageSize": 5}),
             "comment": (f"answer/{shared_answer}/comment.json", {"pageSize": 5})}
    for kind, (path, params) in lists.items():
        items = [i for i in (_json(member.get(path, params=params)) or {}).get("list") or [] if isinstance(i, dict)]
        if not items:
            observe("OBS-NODE-FIELDS", type=kind, items=0)
            continue
        always = set.intersection(*(set(i) for i in items))
        observe("OBS-NODE-FIELDS", type=kind, items=len(items),
                listed_missing=[f for f in NODE_FIELDS if f not in always],
                extra=sorted(always - set(NODE_FIELDS)))


@pytest.mark.observation
@pytest.mark.writes  # the one-shot unfavorite and unwikify of the run
@pytest.mark.actions
@pytest.mark.rule("OBS-ACTION-VERBS")
def test_record_the_verbs_of_the_favorite_and_wiki_actions(
        unfavorite_once: ApiResponse, cancelwiki_once: ApiResponse, observe: Observe) -> None:
    for resp, key in ((unfavorite_once, "favoriteAction"), (cancelwiki_once, "wikifyAction")):
        body = _json(resp)
        result = body.get("result") if isinstance(body, dict) else None
        action = result.get(key) if isinstance(result, dict) else None
        observe("OBS-ACTION-VERBS", action=key, status=resp.status,
                verb=action.get("verb") if isinstance(action, dict) else None)


@pytest.mark.observation
@pytest.mark.rule("OBS-TOPICS-ALL-OR-ANY")
def test_record_whether_two_topics_mean_all_or_any(member: ApiClient, observe: Observe) -> None:
    questions = list_all(member, "question.json", max_pages=4)
    tagged: dict[str, set[Any]] = {}
    for q in questions:
        for t in q.get("topics") or []:
            if isinstance(t, dict) and isinstance(t.get("name"), str):
                tagged.setdefault(t["name"], set()).add(q.get("id"))
    names = sorted(tagged, key=lambda n: -len(tagged[n]))[:2]
    if len(names) < 2:
        observe("OBS-TOPICS-ALL-OR-ANY", meaning="unknown: fewer than two topics on the first pages")
        return
    resp = member.get("question.json", params={"topics": ",".join(names), "pageSize": 100})
    got = set(_ids(resp) or [])
    both, either = tagged[names[0]] & tagged[names[1]], tagged[names[0]] | tagged[names[1]]
    meaning = ("all" if got and got <= both else "any" if got - both else "no match" if not got else "unclear")
    observe("OBS-TOPICS-ALL-OR-ANY", topics=names, status=resp.status, listed=len(got), tagged_both=len(both),
            tagged_either=len(either), meaning=meaning)


@pytest.mark.observation
@pytest.mark.rule("OBS-UNKNOWN-PARAM")
def test_record_whether_an_unknown_parameter_is_refused_or_ignored(
        member: ApiClient, profile: Profile, observe: Observe) -> None:
    plain = member.get("question.json", params={"pageSize": 20})
    odd = member.get("question.json", params={"pageSize": 20, "space": profile.fixtures.space_id})
    observe("OBS-UNKNOWN-PARAM", param="space", status=odd.status, plain_status=plain.status,
            same_items=_ids(odd) == _ids(plain), body=None if odd.status == 200 else odd.text[:200])


@pytest.mark.observation
@pytest.mark.rule("OBS-PAGE-ZERO")
@pytest.mark.parametrize("path", ["question.json", "topic.json", "space.json"])
def test_record_what_page_zero_gives_outside_the_follower_list(member: ApiClient, path: str,
                                                               observe: Observe) -> None:
    first = member.get(path, params={"page": 1, "pageSize": 5})
    zero = member.get(path, params={"page": 0, "pageSize": 5})
    body = _json(zero)
    observe("OBS-PAGE-ZERO", path=path, status=zero.status,
            page=body.get("page") if isinstance(body, dict) else None,
            same_items_as_page_1=_ids(zero) == _ids(first) if zero.status == 200 else None,
            body=None if zero.status == 200 else zero.text[:200])


@pytest.mark.observation
@pytest.mark.rule("OBS-Q-WILDCARDS")
def test_record_whether_q_takes_a_wildcard(member: ApiClient, observe: Observe) -> None:
    questions = list_all(member, "question.json", max_pages=2)
    words = [w for q in questions for w in str(q.get("title") or "").split() if len(w) >= 5 and w.isalpha()]
    if not words:
        observe("OBS-Q-WILDCARDS", meaning="unknown: no title word to search for")
        return
    word = words[0]
    exact = member.get("question.json", params={"q": word, "pageSize": 100})
    star = member.get("question.json", params={"q": word[:3] + "*", "pageSize": 100})
    literal = member.get("question.json", params={"q": word[:3], "pageSize": 100})
    observe("OBS-Q-WILDCARDS", word=word, exact_status=exact.status, exact_total=len(_ids(exact) or []),
            star_status=star.status, star_total=len(_ids(star) or []), prefix_total=len(_ids(literal) or []))


@pytest.mark.observation
@pytest.mark.writes
@pytest.mark.rule("OBS-MODERATED-IN-IDS")
def test_record_whether_the_ids_of_a_question_list_an_answer_in_moderation(
        api: dict[str, ApiClient], question_id: int, answer_of: Callable[[str], Any], profile: Profile,
        observe: Observe) -> None:
    """novice's answer (no Publish answer: held in moderation) is the run's shared one (suites/conftest.py)."""
    resp = answer_of("novice").resp
    if not 200 <= resp.status < 300:
        observe("OBS-MODERATED-IN-IDS", status=resp.status, created=False)
        return
    answer = new_id(resp)
    seen: dict[str, Any] = {}
    for role in ("novice", "member", "moderator", "admin"):
        item = find_listed(api[role], "question.json", question_id, {"spaceId": profile.fixtures.space_id},
                           max_pages=10)
        seen[role] = None if item is None else {
            "in_answers": answer in (item.get("answers") or []),
            "in_childrenIds": answer in (item.get("childrenIds") or [])}
    observe("OBS-MODERATED-IN-IDS", status=resp.status, answer=answer, seen_by=seen)


def location_path(profile: Profile, location: str) -> str | None:
    """The path under {base_url}/services/v2 a Location names, or None (:func:`support.location_path`)."""
    return support_location_path(profile.api_root, location)


@pytest.fixture(scope="module")
def located(answer_of: Callable[[str], Any], comment_of: Callable[[str], Any]) -> dict[str, ApiResponse]:
    """A new answer and a new comment by member; their 201s name their URLs in Location. They are the run's shared
    ones (suites/conftest.py ``answer_of``, ``comment_of``), whose 201s the shape tests judge too."""
    return {"answer": answer_of("member").resp, "comment": comment_of("member").resp}


@pytest.mark.observation
@pytest.mark.writes
@pytest.mark.rule("OBS-LOCATION-READABLE")
def test_record_what_the_location_of_a_new_item_gives(located: dict[str, ApiResponse], member: ApiClient,
                                                       profile: Profile, observe: Observe) -> None:
    for kind, resp in located.items():
        location = resp.headers.get("location", "")
        path = location_path(profile, location) if location else None
        if path is None:
            observe("OBS-LOCATION-READABLE", item=kind, location=location or None, read=False,
                    why="no Location" if not location else "not under the service root: not read with credentials")
            continue
        got = member.get(path)
        body = _json(got)
        observe("OBS-LOCATION-READABLE", item=kind, location=location, status=got.status,
                content_type=got.content_type, keys=sorted(body)[:12] if isinstance(body, dict) else None)


@pytest.mark.writes
@pytest.mark.rule("LOCATION-READABLE")
@pytest.mark.parametrize("kind", ["answer", "comment"])
def test_the_location_of_a_new_item_can_be_read_back(located: dict[str, ApiResponse], kind: str,
                                                     member: ApiClient, profile: Profile) -> None:
    resp = located[kind]
    if resp.status != 201 or not resp.headers.get("location"):
        skip(SkipKind.OTHER, f"the {kind} was not created with a Location (ANSWER-201/COMMENT-201-LOCATION say why)")
    location = resp.headers["location"]
    path = location_path(profile, location)
    if path is None:
        fail("LOCATION-READABLE", f"the Location of the new {kind} ({location}) is not under {profile.api_root}: a "
                                  "client cannot read it with the same credentials", resp)
    got = member.get(path)
    body = _json(got)
    new = new_id(resp)
    expect(got.status == 200 and isinstance(body, dict) and str(body.get("id")) == str(new), "LOCATION-READABLE",
           f"GET on the Location of the new {kind} must give 200 and the item {new}", got)


ORDER_FIELDS = ("creationDate", "lastActiveDate", "score", "viewCount", "answerCount", "upVoteCount", "downVoteCount",
                "reportCount")
"""Integer fields of question items a sort seen in a sorts array may order by (the description names none)."""


@pytest.mark.rule("OBS-SORT-SEEN-ORDER")
@pytest.mark.paging
def test_record_which_field_each_seen_sort_orders_the_questions_by(
    fetch: Callable[..., ApiResponse], observe: Observe, profile: Profile
) -> None:
    """The names a sorts array shows (newest, votes, viewCount, answerCount ...) carry no stated meaning ("Accepted
    sort values for lists other than the expert lists: not shown"), so no suite asserts their order; this records,
    per name, the fields the first page is monotonic by (ascending or descending, ties allowed, constant fields
    left out) and whether the name is echoed. The sorts are read a few at once (speed7, issue 44: no read depends on
    another), recorded in the order of the sorts array."""
    names = list(envelope().sorts_seen)
    pages = fanout.gather([functools.partial(fetch, "member", "question.json", sort=name, pageSize=20)
                           for name in names], fanout.width(profile))
    for name, resp in zip(names, pages, strict=True):
        body = _json(resp)
        items = [i for i in (body.get("list") or []) if isinstance(i, dict)] if isinstance(body, dict) else []
        ordered = {}
        for field in ORDER_FIELDS:
            values = [i[field] for i in items if isinstance(i.get(field), int) and not isinstance(i.get(field), bool)]
            if len(values) < 2 or len(set(values)) < 2:
                continue
            if values == sorted(values):
                ordered[field] = "ascending"
            elif values == sorted(values, reverse=True):
                ordered[field] = "descending"
        observe("OBS-SORT-SEEN-ORDER", sort=name, status=resp.status, items=len(items),
                echoed=body.get("sort") if isinstance(body, dict) else None, ordered_by=ordered)
