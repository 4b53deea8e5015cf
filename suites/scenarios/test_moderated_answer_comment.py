"""A plain comment on an answer in moderation reads back as one (budget24, issue 44; suites/moderated_history.py).

"Without visibility and recipients the comment has full visibility and no recipients, and a later GET returns exactly
that." names no parent state. novice's comment on its own answer, held in moderation, is read back from the answer's
comment list by its author and by moderator (who may see the moderation queue): each reader that lists it must read
full visibility and no recipients. Which accounts list the comments of an answer in moderation is not shown, so a
reader refused the list, or not listing the comment within the settle window, judges nothing; a refused comment is
not judged either (the state table's "(new comment)" row names a public node or a question).
"""

from __future__ import annotations

from typing import Any

import pytest
from comment_reads import is_full_visibility, recipient_ids

from qaconform.contract import path
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.support import find_listed, new_id, present
from qaconform.target.client import ApiClient
from qaconform.target.profile import VisibilityOptions

pytestmark = [pytest.mark.comments, pytest.mark.writes]

READERS = ("novice", "moderator")
"""The answer's author (the comment's too) and an account holding the moderation permissions."""


@pytest.mark.rule("COMMENT-1", "CONV-NO-SERVER-ERROR")
def test_a_plain_comment_on_an_answer_in_moderation_reads_back_with_full_visibility_and_no_recipients(
        api: dict[str, ApiClient], vis: VisibilityOptions, comment_on_moderated_answer: Any) -> None:
    sent = comment_on_moderated_answer
    if sent is None:
        skip(SkipKind.OTHER, "not checked: novice's shared answer (held in moderation) was not created")
    resp, answer = sent.resp, sent.node
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"novice's plain comment on its answer {answer} in moderation was answered "
                                       f"{resp.status}", resp)
    if resp.status != 201:
        skip(SkipKind.OTHER, f"not judged: novice's plain comment on its answer {answer} in moderation was answered "
                             f"{resp.status}; whether an answer in moderation takes comments is not shown (the "
                             "state table's \"(new comment)\" row names a public node or a question)")
    comment = new_id(resp)
    list_path = path("listAnswerComments", answerId=answer)
    judged = []
    for role in READERS:
        first = api[role].get(list_path, params={"page": 1, "pageSize": 100})
        if first.status != 200:
            continue  # who lists an answer in moderation is not shown
        item = find_listed(api[role], list_path, comment, until=present)
        if item is None:
            continue
        judged.append(role)
        expect(is_full_visibility(item.get("visibility"), vis) and not recipient_ids(item), "COMMENT-1",
               f"novice's comment {comment} on its answer {answer} in moderation was sent without visibility and "
               f"recipients, so it has full visibility and no recipients; {role} reads it back with visibility "
               f"{item.get('visibility')!r} and recipients {item.get('recipients')!r}", resp)
    if not judged:
        skip(SkipKind.OTHER, f"not judged: neither {' nor '.join(READERS)} lists comment {comment} under answer "
                             f"{answer} in moderation within the settle window (where such comments are listed is "
                             "not shown)")
