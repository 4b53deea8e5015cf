"""A count read right after a write counts it (issue 44: reads in an order a cache gets wrong).

"totalCount | Total number of items": a server that keeps a user's count for a few seconds (per user, per caller, or
per URL) answers a read made right after an answer with the count from before it, while the items, read fresh, hold
the answer. Tests that read a count long after the last write, or only its items, never see it. Here the author's
answer list is read (which is what fills such a cache), an answer is posted, and the same list is read again at once.

What must appear (the new answer) is read again within the profile's settle window (support.settle: a target that
declares that its lists lag); the count is judged on the response that shows it, at once: a page that holds every
item of the list must report their number as totalCount.

The same read judges a flag derived from another node of the question written to (blind round on histories, issue
44): "marked | boolean | true on an accepted answer and on the question that has it". A server that recomputes the
question's flag on each new answer (from the newest answer, never accepted) unmarks it on the first answer after the
acceptance; tests that read the question before the run's answers never see it. Where the writer's answers listed
right after hold an accepted one under the question written to, that question is looked up in the question list at
once (a few pages at most) and must be marked.

On a site where earlier runs left more of the writer's answers than one page holds (CI's hundredth build against
one staging server: every run leaves its answers there unless the profile names the delete action), the count is
not dropped (user14): the pages are walked before and after the write, and the count read right after it must reach
the lower bound every conforming server meets: the answers listed before and still listed after, plus the new one
(what another build adds or deletes meanwhile can only lower that bound, never raise it). A count kept from before
the write is one short of it.

Cost: one accepted write (member's answer, published directly: member holds Publish answer), from the suites'
share of the write budget; a spent budget skips the test as "not checked: write budget spent".
"""

from __future__ import annotations

from typing import Any

import pytest

from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.support import answer_posted, find_listed, post_answer, settle
from qaconform.target.client import ApiClient, ApiResponse

pytestmark = [pytest.mark.contract, pytest.mark.paging]

WRITER = "member"
"""Holds Answer questions and Publish answer: the answer is listed to everyone at once (the permission table)."""
PAGE_SIZE = 100
"""One page that holds a user's every answer on a test site (where it does not, the count is not judged)."""


def _ids(resp: ApiResponse) -> list[str]:
    if resp.status != 200:
        return []
    body = resp.json()
    items = body.get("list") if isinstance(body, dict) else None
    return [str(i.get("id")) for i in items or [] if isinstance(i, dict)]


MAX_WALK_PAGES = 100
"""Pages of the writer's answer list a walk reads at most (10,000 answers at 100 a page, 2,000 at a cap of 20);
a longer list is not judged (list too long)."""

QUESTION_PAGES = 5
"""Pages of the question list (of 100) read to find the question written to."""


def _served_size(resp: ApiResponse) -> int:
    """The page size the target served for a request of PAGE_SIZE: a site may cap pageSize (its maximum is not
    shown) and says so in the envelope."""
    served = resp.json().get("pageSize") if isinstance(resp.json(), dict) else None
    return min(PAGE_SIZE, served) if isinstance(served, int) and not isinstance(served, bool) and served > 0 \
        else PAGE_SIZE


def _items(resp: ApiResponse) -> list[dict[str, Any]]:
    body = resp.json() if resp.status == 200 else None
    items = body.get("list") if isinstance(body, dict) else None
    return [i for i in items or [] if isinstance(i, dict)]


def _walk_rest(client: ApiClient, path: str, first: ApiResponse) -> dict[str, dict[str, Any]] | None:
    """Every item of the list whose first page is ``first``, by id, reading pages 2, 3 ... until a page is short or
    empty (never trusting totalCount to stop: a kept count would stop the walk early); None past MAX_WALK_PAGES or
    when a page is not a 200. Items shifted across a page boundary meanwhile are missed, which only lowers the bound."""
    items = {str(i.get("id")): i for i in _items(first)}
    size = _served_size(first)
    last = len(_ids(first))
    for page in range(2, MAX_WALK_PAGES + 1):
        if last < size:
            return items
        resp = client.get(path, params={"page": page, "pageSize": PAGE_SIZE})
        if resp.status != 200:
            return None
        found = _items(resp)
        items.update((str(i.get("id")), i) for i in found)
        last = len(found)
    return items if last < size else None


def _unmarked_question(client: ApiClient, listed: list[dict[str, Any]], question_id: int) -> str | None:
    """What is wrong with the question written to, read right after the write, or None: when an answer under it that
    the writer's list shows is accepted (marked true), the question must be marked true in the question list.
    ``listed``: the writer's answers read right after the write, and those walked before it on a list longer than a
    page (an accepted answer the kit's own answers pushed past page 1 still counts: user14)."""
    accepted = [str(i.get("id")) for i in listed if i.get("marked") is True
                and question_id in (i.get("parentId"), i.get("originalParentId"))]
    if not accepted:
        return None
    question = find_listed(client, contract_path("listQuestions"), question_id, max_pages=QUESTION_PAGES)
    if question is None or question.get("marked") is True:
        return None
    return (f"{WRITER}'s answer {accepted[0]} under question {question_id} is accepted (marked true), yet read right "
            f"after {WRITER}'s new answer to that question, the question list shows it marked="
            f"{question.get('marked')!r} (\"true on an accepted answer and on the question that has it\")")


@pytest.mark.writes
@pytest.mark.rule("PAGING-TOTALCOUNT-UNION", "MARKED-ACCEPTED-QUESTION")
def test_a_users_answer_count_read_right_after_an_answer_counts_it(
        api: dict[str, ApiClient], user_ids: dict[str, int], question_id: int, run_tag: str, created: Any) -> None:
    client = api[WRITER]
    if user_ids.get(WRITER) is None:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: {WRITER}'s user id is not known on this target")
    path = contract_path("listUserAnswers", userId=user_ids[WRITER])
    params = {"page": 1, "pageSize": PAGE_SIZE}
    before = client.get(path, params=params)  # the count a cache would keep from now on
    if before.status != 200:
        skip(SkipKind.OTHER, f"not judged: {WRITER}'s answer list is answered {before.status} before the write")
    listed_before: dict[str, dict[str, Any]] | None = None
    if len(_ids(before)) >= _served_size(before):  # longer than a page (earlier runs' answers): walked, read again
        listed_before = _walk_rest(client, path, before)
        if listed_before is None:
            skip(SkipKind.LIST_TOO_LONG, f"not judged: {WRITER}'s answers fill more than {MAX_WALK_PAGES} pages",
                 detail=f"page 1 of {path} held {len(_ids(before))} at pageSize {_served_size(before)}")
        before = client.get(path, params=params)
    new = str(answer_posted(post_answer(client, question_id, run_tag, created,
                                        text="answer counted right after"),
                            "whose count is read right after"))
    counted = _count_of(before)
    first, after = settle(client, f"GET {path} as {WRITER}, looking for {new}",
                          lambda: _read_showing(client, path, new, counted), lambda r: new in _ids(r[1]))
    if new not in _ids(after):
        skip(SkipKind.OTHER, f"not judged: {WRITER}'s new answer is on neither the first nor the last page of its "
             "answer list within the settle window (ANSWER-PUBLISHED's to judge where it is listed), so no read "
             "shows the count after it", detail=f"answer {new}; {path}")
    unmarked = _unmarked_question(client, _items(after) + list((listed_before or {}).values()), question_id)
    if unmarked:
        fail(["MARKED-ACCEPTED-QUESTION"], unmarked, after)
    body = after.json()
    items = body.get("list") or []
    if listed_before is not None or len(items) >= _served_size(after) or after is not first:
        _judge_count_over_pages(client, path, before, first, after, new, listed_before)
        return
    if body.get("totalCount") != len(items):
        old = before.json().get("totalCount") if isinstance(before.json(), dict) else None
        fail(["PAGING-TOTALCOUNT-UNION"], f"{path}: read right after {WRITER}'s answer {new}, the page holds all "
             f"{len(items)} of {WRITER}'s answers (the new one among them), yet totalCount (\"Total number of "
             f"items\") is {body.get('totalCount')!r}; before the answer it was {old!r}", after)


def _count_of(resp: ApiResponse) -> int | None:
    count = resp.json().get("totalCount") if isinstance(resp.json(), dict) else None
    return count if isinstance(count, int) and not isinstance(count, bool) else None


def _read_showing(client: ApiClient, path: str, new: str, counted: int | None) -> tuple[ApiResponse, ApiResponse]:
    """(page 1, the page that shows ``new``, else page 1) read right after the write. The order of a user's answers
    is not stated: on a list longer than a page the new answer is on the first page (newest first) or on the last
    (oldest first, the page the count before the write plus one puts it on)."""
    first = client.get(path, params={"page": 1, "pageSize": PAGE_SIZE})
    size = _served_size(first)
    if new in _ids(first) or len(_ids(first)) < size or counted is None or counted + 1 <= size:
        return first, first
    last = client.get(path, params={"page": (counted + size) // size, "pageSize": PAGE_SIZE})
    return first, (last if new in _ids(last) else first)


def _judge_count_over_pages(client: ApiClient, path: str, before: ApiResponse, first: ApiResponse,
                            after: ApiResponse, new: str, walked: dict[str, dict[str, Any]] | None) -> None:
    """The count read right after the write, on a list longer than a page: at least the answers listed before the
    write and still listed after it (walked), plus the new one. Every one of them existed when the count was read
    (``after``, the read that shows the new answer)."""
    # one page before the write, more than one after: the page before was the whole list
    listed_before = set(_ids(before)) if walked is None else set(walked)
    listed_after = _walk_rest(client, path, first)
    if listed_after is None:
        skip(SkipKind.LIST_TOO_LONG, f"not judged: {WRITER}'s answers fill more than {MAX_WALK_PAGES} pages after "
             "the write", detail=f"page 1 of {path} held {len(_ids(after))} at pageSize {_served_size(after)}")
    bound = len((listed_before & set(listed_after)) | {new})
    count = _count_of(after)
    if count is None or count < bound:
        old = before.json().get("totalCount") if isinstance(before.json(), dict) else None
        fail(["PAGING-TOTALCOUNT-UNION"], f"{path}: read right after {WRITER}'s answer {new}, totalCount (\"Total "
             f"number of items\") is {count!r}, yet {bound} of {WRITER}'s answers existed then: the new one and "
             f"{bound - 1} listed both before the write and after it (pages walked); before the answer it was "
             f"{old!r}", after)
