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


QUESTION_PAGES = 5
"""Pages of the question list (of 100) read to find the question written to."""


def _unmarked_question(client: ApiClient, after: ApiResponse, question_id: int) -> str | None:
    """What is wrong with the question written to, read right after the write, or None: when an answer under it that
    the writer's list shows is accepted (marked true), the question must be marked true in the question list."""
    body = after.json()
    accepted = [str(i.get("id")) for i in body.get("list") or [] if isinstance(i, dict) and i.get("marked") is True
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
    new = str(answer_posted(post_answer(client, question_id, run_tag, created,
                                        text="answer counted right after"),
                            "whose count is read right after"))
    after = settle(client, f"GET {path} as {WRITER}, looking for {new}",
                   lambda: client.get(path, params=params), lambda r: new in _ids(r))
    if new not in _ids(after):
        skip(SkipKind.OTHER, f"not judged: {WRITER}'s new answer {new} is not in its answer list within the settle "
             "window (ANSWER-PUBLISHED's to judge), so no read shows the count after it")
    unmarked = _unmarked_question(client, after, question_id)
    if unmarked:
        fail(["MARKED-ACCEPTED-QUESTION"], unmarked, after)
    body = after.json()
    items = body.get("list") or []
    served = body.get("pageSize")  # a site may cap pageSize (its maximum is not shown): the page it served
    size = min(PAGE_SIZE, served) if isinstance(served, int) and not isinstance(served, bool) and served > 0 \
        else PAGE_SIZE
    if len(items) >= size:
        skip(SkipKind.LIST_TOO_LONG, f"not judged: {WRITER}'s answers fill the page of {size} the target served, so "
             "the list may be longer than one page")
    if body.get("totalCount") != len(items):
        old = before.json().get("totalCount") if isinstance(before.json(), dict) else None
        fail(["PAGING-TOTALCOUNT-UNION"], f"{path}: read right after {WRITER}'s answer {new}, the page holds all "
             f"{len(items)} of {WRITER}'s answers (the new one among them), yet totalCount (\"Total number of "
             f"items\") is {body.get('totalCount')!r}; before the answer it was {old!r}", after)
