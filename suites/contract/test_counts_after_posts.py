"""Every paging field of the lists a post lands in, read just before and right after the post (fix23, issue 44 item
6: "a count read again right after a write"; blind round 23's r23-user-answers-pagecount-cached).

Each shared post the run makes anyway (every account's answer, every account's plain comment) is wrapped by
suites/counts_after_posts.py: the writer reads the lists that show the new node (its answer list; the answer's comment
list) at ``pageSize=1`` just before the post and right after it, so the post crosses a page boundary. A count kept
from the first read (per list, caller or page size) is off on the second. Judged on every read, each field by its
rule: "pageCount | Total number of pages" (ceil(totalCount / pageSize)), "listCount | Number of items in this page"
(and no more items than pageSize), "pageSize | Items per page" (the 1 asked for), "page | Current page. The default
is 1" (no page is sent). Whether the new node is listed at once is the listing tests' (a settle window applies).

Cost: no write (the posts are the run's shared ones), two reads per list and post.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from qaconform.invariants import envelope_type_problems, listcount_problems, pagecount_problem
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.target.profile import ROLES

pytestmark = [pytest.mark.contract, pytest.mark.writes]  # wraps the run's shared posts

PAGE_SIZE = 1
"""The page size of the reads (suites/counts_after_posts.py ``PAGE_SIZE``)."""


def _problems(body: dict[str, Any]) -> list[tuple[str, str]]:
    """(rule, what is wrong) for each paging field of a read at pageSize=1 with no page."""
    out: list[tuple[str, str]] = []
    if body.get("pageSize") != PAGE_SIZE:
        out.append(("PAGING-PAGESIZE-ECHO", f"pageSize is {body.get('pageSize')!r}, not the {PAGE_SIZE} asked for"))
    if body.get("page") != 1:
        out.append(("PAGING-DEFAULT-PAGE", f"page is {body.get('page')!r}; without a page parameter it is 1"))
    out += [("PAGING-LISTCOUNT", p) for p in listcount_problems(body)]
    problem = pagecount_problem(body)
    if problem:
        out.append(("PAGING-PAGECOUNT", problem))
    return out


@pytest.mark.rule("PAGING-PAGECOUNT", "PAGING-LISTCOUNT", "PAGING-PAGESIZE-ECHO", "PAGING-DEFAULT-PAGE")
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("kind", ["answer", "comment"])
def test_paging_fields_of_the_lists_a_post_lands_in_read_just_before_and_right_after_it(
        kind: str, role: str, answer_of: Callable[[str], Any], comment_of: Callable[[str], Any],
        reads_around_post: Callable[[str], dict[str, Any] | None]) -> None:
    posted = answer_of(role) if kind == "answer" else comment_of(role)
    if not 200 <= posted.resp.status < 300:
        skip(SkipKind.OTHER, f"not judged: {role}'s shared {kind} was answered {posted.resp.status} (its own tests "
             "judge that), so no read follows it")
    reads = reads_around_post(posted.key)
    if not reads or not reads.get("after"):
        skip(SkipKind.OTHER, f"not judged: no list read was made around {role}'s shared {kind} (its writer's user id "
             "is unknown, or the post was answered before the reads were wrapped around it)")
    for when in ("before", "after"):
        for read in reads[when]:
            body, reader = read.get("body"), read.get("reader", role)
            if read.get("status") != 200 or envelope_type_problems(body):
                skip(SkipKind.OTHER, f"not judged: GET {read.get('path')}?pageSize={PAGE_SIZE} as {reader} {when} "
                     f"the {kind} answered {read.get('status')} without the envelope (the list's own tests judge it)")
            wrong = _problems(body)
            if wrong:
                fail(sorted({r for r, _ in wrong}), f"GET {read.get('path')}?pageSize={PAGE_SIZE} as {reader}, read "
                     f"{'right after' if when == 'after' else 'just before'} its {kind} {posted.id} was posted: "
                     f"{'; '.join(p for _, p in wrong)} (totalCount {body.get('totalCount')!r})")
