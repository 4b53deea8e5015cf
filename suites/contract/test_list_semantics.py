"""What the items of a list mean: whose questions and answers a user list holds, answers and comments without
titles, the follower list's details and active defaults, and the private-comment fields of version 2.16.0.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pytest
from listops import Fetch, items_of

from qaconform.contract import envelope
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.support import find_listed, list_all, new_id, present
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile, VisibilityOptions

pytestmark = pytest.mark.contract


def _authors(items: list[Any]) -> list[tuple[Any, Any]]:
    return [(i.get("id"), (i.get("author") or {}).get("id") if isinstance(i.get("author"), dict) else None)
            for i in items if isinstance(i, dict)]


_OWNER_PAGE_SIZE = 2
_OWNER_MAX_PAGES = 6


def _pages(client: ApiClient, path: str) -> list[tuple[int, list[Any], str]]:
    """Pages 1.. of ``path`` at pageSize 2 (at most 6): (page, items, the response described)."""
    out = []
    for page in range(1, _OWNER_MAX_PAGES + 1):
        resp = client.get(path, params={"page": page, "pageSize": _OWNER_PAGE_SIZE})
        items = items_of(resp, f"{client.role} lists {path} page {page}")
        out.append((page, items, resp.describe()))
        if len(items) < _OWNER_PAGE_SIZE:
            break
    return out


@pytest.mark.rule("LIST-USER-QUESTIONS-OWNER")
@pytest.mark.parametrize("role", ["admin", "novice"])
def test_a_users_question_list_holds_only_questions_that_user_asked(
    role: str, fetch: Fetch, list_paths: dict[str, str], question_author_id: int, api: dict[str, ApiClient]
) -> None:
    resp = fetch(role, list_paths["listUserQuestions"])
    items = items_of(resp, f"{role} lists the questions of user {question_author_id}")
    if role == "admin":
        assert items, f"user {question_author_id} authored a question on page 1 of the question list, yet their " \
                      f"question list is empty\n{resp.describe()}"
    # every item: page 1 as served by default, then every page of a small page size (a later page is often built
    # by another query)
    for page, page_items, shown in [(1, items, resp.describe()), *_pages(api[role], list_paths["listUserQuestions"])]:
        foreign = [(n, a) for n, a in _authors(page_items) if a != question_author_id]
        assert not foreign, f"questions by other users (id, author.id) in user {question_author_id}'s list, page " \
                            f"{page}: {foreign[:5]}\n{shown}"


@pytest.mark.rule("LIST-USER-ANSWERS-OWNER", "NODE-TITLE-ANSWERS-COMMENTS")
@pytest.mark.parametrize("role", ["member", "novice"])
def test_a_users_answer_list_holds_only_that_users_answers_without_titles(
    role: str, fetch: Fetch, list_paths: dict[str, str], user_ids: dict[str, int], read_only: bool,
    api: dict[str, ApiClient]
) -> None:
    member_id = user_ids["member"]
    resp = fetch(role, list_paths["listUserAnswers"])
    items = items_of(resp, f"{role} lists member's answers",
                     blame=("LIST-USER-ANSWERS-OWNER", "NODE-TITLE-ANSWERS-COMMENTS"))
    if read_only and not items:
        skip(SkipKind.SAFETY, "--read-only and member has no answers on this target: nothing to check")
    expect(items, "LIST-USER-ANSWERS-OWNER",
           f"member posted an answer in this run, yet {role} sees an empty answer list", resp)
    for page, page_items, shown in [(1, items, resp.describe()), *_pages(api[role], list_paths["listUserAnswers"])]:
        foreign = [(n, a) for n, a in _authors(page_items) if a != member_id]
        expect(not foreign, "LIST-USER-ANSWERS-OWNER",
               f"answers by other users (id, author.id) in member {member_id}'s list, page {page}: "
               f"{foreign[:5]}\n{shown}")
    titled = [(i.get("id"), i.get("title")) for i in items if isinstance(i, dict) and i.get("title") is not None]
    expect(not titled, "NODE-TITLE-ANSWERS-COMMENTS", f"answers carry no title (absent or null): {titled[:5]}", resp)


@pytest.mark.rule("NODE-TITLE-ANSWERS-COMMENTS")
def test_comments_carry_no_title(fetch: Fetch, list_paths: dict[str, str], read_only: bool) -> None:
    resp = fetch("member", list_paths["listAnswerComments"])
    items = items_of(resp, "member lists the comments of its answer")
    if read_only and not items:
        skip(SkipKind.SAFETY, "--read-only and the listed answer has no comments on this target: nothing to check")
    assert items, f"the suite posted three comments on this answer, yet the list is empty\n{resp.describe()}"
    titled = [(i.get("id"), i.get("title")) for i in items if isinstance(i, dict) and i.get("title") is not None]
    assert not titled, f"comments carry no title (absent or null): {titled[:5]}\n{resp.describe()}"


def follower_type_rules(items: list[Any]) -> list[str]:
    """Which rule the non-user items of a follower list break: an item that is no User at all (no username: a
    follower relation) means details were on by default (FOLLOWERS-DETAILS-DEFAULT); a User whose type is not
    ``user`` breaks the item type of the list (LIST-ITEM-TYPE)."""
    rules = []
    for i in items:
        if isinstance(i, dict) and i.get("type") == "user":
            continue
        rules.append("LIST-ITEM-TYPE" if isinstance(i, dict) and "username" in i else "FOLLOWERS-DETAILS-DEFAULT")
    return sorted(set(rules))


@pytest.mark.rule("FOLLOWERS-DETAILS-DEFAULT", "LIST-ITEM-TYPE")
@pytest.mark.parametrize("details", [None, "false"], ids=["details-omitted", "details-false"])
def test_follower_items_are_users_unless_details_are_asked_for(
    details: str | None, fetch: Fetch, list_paths: dict[str, str], admin: ApiClient
) -> None:
    """On the fixture question, or on the most followed question when it has none (see _followed_node)."""
    params = {} if details is None else {"details": details}
    path = _followed_node(fetch, list_paths, admin, active_only=True)
    resp = fetch("member", path, **params)
    items = items_of(resp, f"member lists {path}", blame=("FOLLOWERS-DETAILS-DEFAULT", "LIST-ITEM-TYPE"))
    expect(items, "FOLLOWERS-DETAILS-DEFAULT", f"{path} reports active followers, yet lists none", resp)
    wrong = [(i.get("id"), i.get("type")) for i in items if not (isinstance(i, dict) and i.get("type") == "user")]
    if wrong:
        fail(follower_type_rules(items),
             f"without details follower items are User items (type user); these are not: {wrong[:5]}", resp)


def _followed_node(fetch: Fetch, list_paths: dict[str, str], admin: ApiClient, active_only: bool = False) -> str:
    """The follower path of a node with follower relations (active ones with ``active_only``): the fixture
    question's, else that of the first question sorted by followers (a name of the question list's sorts array)
    that has any; skips with the reason if none."""
    query = {"active": "true"} if active_only else {"active": "false"}

    def followed(path: str) -> bool:
        body = fetch("member", path, **query).json()
        return isinstance(body, dict) and bool(body.get("totalCount"))

    path = list_paths["listNodeFollowers"]
    if followed(path):
        return path
    resp = admin.get("question.json", params={"sort": "followers", "pageSize": 5, "includeOnly": "id"})
    for item in items_of(resp, "admin lists questions by followers") if resp.status == 200 else []:
        other = f"node/{item.get('id')}/followers.json"
        if followed(other):
            return other
    skip(SkipKind.MISSING_FIXTURE,
         "not checked: no follower relation found (the fixture question and the 5 most followed questions "
         "have none); needs fixture: a question with followers")


@pytest.mark.rule("FOLLOWERS-ACTIVE-DEFAULT")
def test_follower_list_shows_active_relations_by_default_and_all_with_active_false(
    fetch: Fetch, list_paths: dict[str, str], admin: ApiClient, member: ApiClient
) -> None:
    """Compared item by item (every page), not only by totalCount: the items without active are those of
    active=true, and each of them is among those of active=false."""
    path = _followed_node(fetch, list_paths, admin)
    totals: dict[str, Any] = {}
    ids: dict[str, list[Any]] = {}
    complete: dict[str, bool] = {}
    shown = []
    for label, params in (("omitted", {}), ("true", {"active": "true"}), ("false", {"active": "false"})):
        resp = fetch("member", path, **params)
        items_of(resp, f"followers with active {label}")
        totals[label] = resp.json().get("totalCount")
        shown.append(resp.describe())
        # one page without a page parameter (follower pages may be numbered from 0 or 1): the first 100 at most
        ids[label] = sorted(str(i.get("id")) for i in items_of(fetch("member", path, pageSize=100, **params),
                                                               f"followers with active {label}, pageSize 100"))
        complete[label] = isinstance(totals[label], int) and totals[label] <= len(ids[label])
    assert totals["omitted"] == totals["true"], (
        f"active defaults to true, so omitting it gives the totalCount of active=true; got {totals}\n"
        + "\n".join(shown[:2]))
    assert isinstance(totals["false"], int) and totals["false"] >= totals["true"], (
        f"active=false returns all relations, inactive ones included, so its totalCount is at least that of "
        f"active=true; got {totals}\n" + "\n".join(shown[1:]))
    assert ids["omitted"] == ids["true"] or not (complete["omitted"] and complete["true"]), (
        f"active defaults to true, so without it the followers are those of active=true; omitted lists "
        f"{ids['omitted'][:20]}, active=true lists {ids['true'][:20]}\n" + "\n".join(shown[:2]))
    missing = sorted(set(ids["true"]) - set(ids["false"])) if complete["false"] else []
    assert not missing, (f"active=false returns all relations, so every follower of active=true is among them; "
                         f"missing {missing[:20]}\n" + "\n".join(shown[1:]))


@pytest.mark.rule("VERSION-PRIVATE-COMMENTS-2160")
@pytest.mark.comments
@pytest.mark.writes
def test_a_2_16_target_accepts_and_returns_visibility_and_recipients(
    member: ApiClient, shared_answer: int, user_ids: dict[str, int], vis: VisibilityOptions,
    private_comment_on_answer: Any
) -> None:
    """Under the run's shared answer (suites/conftest.py): the comment is found by its id, so the other comments
    there change nothing, and no answer of its own is written (issue 44: one accepted write less). The comment is the
    run's shared one private to moderator (histories3, issue 44: comment privacy's thread sent the same request)."""
    moderator_id = user_ids["moderator"]
    resp = private_comment_on_answer.resp
    assert resp.status == 201, f"member (Use Private Comments) posts a comment private to moderator\n{resp.describe()}"
    comment_id = new_id(resp)
    item = find_listed(member, f"answer/{shared_answer}/comment.json", comment_id, until=present)
    assert item is not None, f"the author does not see its own private comment {comment_id} in the answer's list"
    assert item.get("visibility") == vis.recipients, (
        f"the comment reads back with visibility {item.get('visibility')!r}, expected {vis.recipients!r}")
    recipients = item.get("recipients")
    ids = {str(r.get("id")) for r in recipients if isinstance(r, dict)} if isinstance(recipients, list) else set()
    assert str(moderator_id) in ids, f"the comment reads back with recipients {recipients!r}, expected moderator " \
                                     f"{moderator_id} among them"


@pytest.mark.rule("NODE-ORIGINAL-PARENT-ID")
@pytest.mark.parametrize("op", ["listUserAnswers", "listAnswerComments"])
def test_answers_and_comments_carry_an_integer_original_parent_id(
    op: str, fetch: Fetch, list_paths: dict[str, str], read_only: bool
) -> None:
    """"originalParentId: Present on answers and comments": every listed answer and comment has it."""
    resp = fetch("member", list_paths[op])
    items = items_of(resp, f"member lists {op}", blame=("NODE-ORIGINAL-PARENT-ID",))
    if not items:
        reason = "--read-only and the list is empty" if read_only else "the list the suite wrote to is empty"
        skip(SkipKind.SAFETY if read_only else SkipKind.OTHER,
             f"not checked: {reason}, so no answer or comment can be looked at")
    wrong = [(i.get("id"), i.get("originalParentId")) for i in items if not isinstance(i, dict)
             or not isinstance(i.get("originalParentId"), int) or isinstance(i.get("originalParentId"), bool)]
    assert not wrong, (f"every answer and comment carries originalParentId, an integer; these do not (id, value): "
                       f"{wrong[:5]}\n{resp.describe()}")


ANSWER_PAGES = 100
"""Pages of each account's answer list read for its accepted answers (until totalCount is reached). Five were read
until user14: on a site capping pageSize at 20, the answers earlier CI builds left (about 20 a build) pushed the
seed's accepted answer past them by the sixth build, and the rule read "needs fixture" from then on."""


@pytest.mark.rule("MARKED-ACCEPTED-QUESTION")
def test_the_question_of_an_accepted_answer_is_marked(api: dict[str, ApiClient], user_ids: dict[str, int],
                                                      profile: Profile) -> None:
    """"marked: true on an accepted answer and on the question that has it": the accepted answers of the profile's
    accounts and of ``[fixtures] accepted_answer_user_id`` (marked true in their answer lists) and their questions,
    looked up in the question list."""
    accepted: list[dict[str, Any]] = []
    users = [user_ids[r] for r in ("member", "moderator", "admin", "novice") if r in user_ids]
    if profile.fixtures.accepted_answer_user_id is not None:
        users.insert(0, profile.fixtures.accepted_answer_user_id)
    at_once = fanout.width(profile)
    listed: list[dict[str, Any]] = []
    for items in _ahead([functools.partial(list_all, api["admin"], f"user/{uid}/answer.json", page_size=100,
                                           max_pages=ANSWER_PAGES) for uid in dict.fromkeys(users)], at_once):
        listed += _taken(items)
    accepted = [i for i in listed if i.get("marked") is True]
    _some_answer_of_a_marked_question_is_marked(api["admin"], listed, profile.fixtures.question_id, at_once)
    if not accepted:
        skip(SkipKind.MISSING_FIXTURE,
             "not checked: none of the profile's accounts has an accepted answer (needs fixture "
             "accepted_answer_user_id: a user one of whose answers is accepted)", fixtures=("accepted_answer_user_id",))
    judged: set[int] = set()
    wanted = [q for q in (a.get("parentId") or a.get("originalParentId") for a in accepted[:5]) if isinstance(q, int)]
    found = dict(zip(wanted, _ahead([functools.partial(find_listed, api["admin"], "question.json", q)
                                     for q in wanted], at_once), strict=True))
    for answer in accepted[:5]:
        question_id = answer.get("parentId") or answer.get("originalParentId")
        assert isinstance(question_id, int), (
            f"accepted answer {answer.get('id')} names no question (parentId/originalParentId): {answer}")
        question = _taken(found[question_id])
        if question is None:
            continue  # not listed to admin within the pages read: nothing to compare
        assert question.get("marked") is True, (
            f"answer {answer.get('id')} is accepted (marked true), so its question {question_id} has an accepted "
            f"answer and is marked true too; the question list shows marked={question.get('marked')!r}\n"
            f"Reproduce with: {api['admin'].url('question.json')}")
        if question_id not in judged:
            judged.add(question_id)
            _marked_under_every_sort(api["admin"], question_id, answer.get("id"), question.get("primaryContainerId"),
                                     at_once, question.get("title"), _readers(api),
                                     (question.get("author") or {}).get("id"))


READERS = ("anonymous", "novice", "member", "moderator")
"""The readers besides admin each of whom reads the accepted answer's question in its space (round40, issue 44)."""


def _readers(api: dict[str, ApiClient]) -> dict[str, ApiClient]:
    return {name: api[name] for name in READERS if name in api}


def _marked_under_every_sort(admin: ApiClient, question_id: int, answer_id: Any, space: Any, at_once: int,
                             title: Any = None, readers: dict[str, ApiClient] | None = None,
                             asker: Any = None) -> None:
    """The question of an accepted answer under every sort name the question list's sorts array shows, within its
    space (spaceId: "restricts to one space", so each sort is a page or two), and under each other stated parameter
    of the list (:func:`_stated_parameters`): marked is the question's, not the order's or the query's (blind6, issue
    44: a sort served by a query that reads marked from a column it does not select; round 28: a search index without
    the accepted state). A sort or parameter the target refuses, or under which it does not list the question, is
    not judged (accepted sort values, the meaning of q, type, lang: not shown). The lists are read a few at once
    (each its pages in turn) and judged in the order named.

    ``readers``: every other reader (anonymous and each account) reads the question's space too, with and without
    spaceId (round40, issue 44: marked false only on anonymous's question list; marked is the question's, not the
    reader's), and every reader, admin too, reads it in its asker's user question list (``asker``: the author's id;
    paths15, issue 44: the same field on listUserQuestions, which round40 did not read). A reader the list refuses,
    or that does not see the question, judges nothing."""
    names = list(envelope().sorts_seen)
    within = {"spaceId": space} if isinstance(space, int) else {}
    params = [{"sort": name, **within} for name in names] + _stated_parameters(title, within)
    asks: list[tuple[str, ApiClient, dict[str, Any], str]] = [("admin", admin, p, "question.json") for p in params]
    asks += [(name, client, p, "question.json") for name, client in (readers or {}).items()
             for p in ([{}, within] if within else [{}])]
    if isinstance(asker, int) and not isinstance(asker, bool):
        asks += [(name, client, {}, f"user/{asker}/question.json")
                 for name, client in {"admin": admin, **(readers or {})}.items()]
    walks = _ahead([functools.partial(_listed_under, client, p, question_id, path) for _, client, p, path in asks],
                   at_once)
    for (reader, _, asked, path), walk in zip(asks, walks, strict=True):
        found = _taken(walk)
        if found is None:
            continue
        hit, resp = found
        if "marked" in hit and hit.get("marked") is not True:
            shown = "&".join(f"{k}={v}" for k, v in asked.items()) or "no parameter"
            fail(["MARKED-ACCEPTED-QUESTION"], f"answer {answer_id} is accepted, so its question "
                 f"{question_id} is marked true whatever the list is asked with and whoever reads it; listed to "
                 f"{reader} in {path} with {shown} it shows marked={hit.get('marked')!r}. Check the query behind that "
                 f"parameter and that reader's index for the accepted state", resp)


_PROJECTED = "id,marked"
"""includeOnly naming the judged field (and the id that finds the question): a projected query must keep marked."""


def _stated_parameters(title: Any, within: dict[str, Any]) -> list[dict[str, Any]]:
    """The question list's stated parameters besides sort ("Search parameters on question and topic lists: q, type,
    lang"; "Projection parameters: include, exclude, includeOnly"), each a list the accepted answer's question is
    looked up in (fix28, issue 44: round28-search-questions-unmarked, marked false only on a search with q). q is the
    longest word of the question's own title, so that a search may list it; what q, type and lang match is not
    shown, so a list without the question judges nothing."""
    words = sorted(re.findall(r"[A-Za-z]{3,}", title) if isinstance(title, str) else [], key=lambda w: -len(w))
    searched = [{"q": words[0].lower()}, {"q": words[0].lower(), "includeOnly": _PROJECTED}] if words else []
    return [*searched, {"type": "question", **within}, {"includeOnly": _PROJECTED, **within}]


def _listed_under(admin: ApiClient, params: dict[str, Any], question_id: int, path: str = "question.json"
                  ) -> tuple[dict[str, Any], ApiResponse] | None:
    """The question as the question list (or ``path``, a user question list) shows it under ``params`` (within its
    first three pages of 100) and the page's response, or None.

    blind74 (issue 44): found at the n-th place (n >= 1) of the first page, it is read again as the first item of page
    2 at pageSize n (a later page's query, which a small site's lists never reach at 100 a page); that view is the one
    returned when it does not show marked true (the field is the question's, not the page's)."""
    for page in range(1, 4):
        resp = admin.get(path, params={**params, "page": page, "pageSize": 100})
        body = resp.json() if resp.status == 200 else None
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list) or not items:
            return None
        place = next((n for n, i in enumerate(items) if isinstance(i, dict) and str(i.get("id")) == str(question_id)),
                     None)
        if place is not None:
            later = _on_page_two(admin, path, params, question_id, place) if page == 1 and place >= 1 else None
            return later if later is not None and later[0].get("marked") is not True else (items[place], resp)
    return None


def _on_page_two(client: ApiClient, path: str, params: dict[str, Any], question_id: int, place: int
                 ) -> tuple[dict[str, Any], ApiResponse] | None:
    """The question as page 2 at pageSize ``place`` shows it (the first item there when the order holds), or None."""
    resp = client.get(path, params={**params, "page": 2, "pageSize": place})
    body = resp.json() if resp.status == 200 else None
    items = body.get("list") if isinstance(body, dict) else None
    hit = next((i for i in items or [] if isinstance(i, dict) and str(i.get("id")) == str(question_id)), None)
    return (hit, resp) if hit is not None else None


T = TypeVar("T")


def _ahead(calls: Sequence[Callable[[], T]], at_once: int) -> list[T | Exception]:
    """Reads that do not depend on one another, a few at once (``fanout.width``: within the profile's politeness
    limits, one after another once the target has held the run back), each one's result or exception in the order of
    ``calls`` (speed7, issue 44: this test read 22 pages one after another). Nothing here writes, and no read's
    order is the point: the judging that follows goes through the results in the order a loop would have read them
    (:func:`_taken` raises an exception where the loop would have met it)."""
    return fanout.settled(calls, at_once)


def _taken(result: T | Exception) -> T:
    """A result of :func:`_ahead`, or its exception raised here (where a loop reading in turn would have raised it)."""
    if isinstance(result, Exception):
        raise result
    return result


MARKED_QUESTIONS_JUDGED = 5
"""Questions of the listed answers looked up in the question list (the fixture question first)."""


def _some_answer_of_a_marked_question_is_marked(admin: ApiClient, listed: list[dict[str, Any]],
                                                fixture_question: Any, at_once: int) -> None:
    """The other direction of "marked: true on an accepted answer and on the question that has it", judged on the
    answers as the user answer lists show them (round19, issue 44: a user answer list that shows the accepted answer
    marked false, where only the answers listed marked true were looked at, so the check skipped). A question the
    question list shows marked has an accepted answer among its ``answers``; when every one of those answers is
    listed in the accounts' answer lists just read, one of them is marked true there. A question with an answer by
    a user whose list was not read is not judged (its accepted answer may be that one)."""
    marked = {str(i.get("id")): i.get("marked") for i in listed}
    questions = [q for q in (i.get("parentId") or i.get("originalParentId") for i in listed) if isinstance(q, int)]
    ordered = sorted(set(questions), key=lambda q: (q != fixture_question, questions.index(q)))
    judged = ordered[:MARKED_QUESTIONS_JUDGED]
    found = _ahead([functools.partial(find_listed, admin, "question.json", q) for q in judged], at_once)
    for question_id, looked_up in zip(judged, found, strict=True):
        question = _taken(looked_up)
        answers = question.get("answers") if question is not None else None
        if question is None or question.get("marked") is not True or not isinstance(answers, list) or not answers:
            continue
        ids = [str(a.get("id") if isinstance(a, dict) else a) for a in answers]
        if all(a in marked for a in ids) and not any(marked[a] is True for a in ids):
            fail(["MARKED-ACCEPTED-QUESTION"], f"question {question_id} is marked true in the question list, so it "
                 f"has an accepted answer among its answers {ids[:10]}; every one of them is listed in its author's "
                 f"answer list, none marked true (marked: {[marked[a] for a in ids][:10]}). Check the user answer "
                 f"list's marked field for the accepted answer. Reproduce with: {admin.url('question.json')}")
