"""Who a reply names as its author (blind95, issue 44): the replies test_comment_privacy.py posts and reads back for
their privacy (COMMENT-3, COMMENT-5) read back once more by their recipient, moderator, and judged on their author
(AUTH-ACTING-USER). Apart from test_comment_privacy.py so that each module stays under 600 lines
(tests/package/test_module_size.py); the replies are the scenarios' conftest fixtures, posted once.
"""

from __future__ import annotations

import pytest
from comment_reads import read_back

from qaconform.pytest.outcomes import expect
from qaconform.pytest.support import new_id
from qaconform.target.client import ApiClient, ApiResponse

pytestmark = [pytest.mark.comments, pytest.mark.writes]  # as test_comment_privacy.py: the shared comments it asks for

@pytest.mark.rule("AUTH-ACTING-USER")
def test_each_reply_of_the_module_reads_back_under_the_account_that_posted_it(
        member: ApiClient, moderator: ApiClient, thread_answer: int, inherited_reply: int,
        recipient_reply: ApiResponse, private_reply_to_public: int) -> None:
    """"The acting user is taken from the credentials.": every reply the module reads back (member's reply inheriting
    its private comment's settings, moderator's inheriting reply as its recipient, member's private reply to a public
    comment) names as its author the account that posted it. Each is private to moderator, so moderator reads them
    all (a recipient reads the comment whoever its author became: COMMENT-3's and COMMENT-5's reads). blind95 (issue
    44): the plain comments' authors were judged (comment_responses.py), the replies' only on their privacy, so a
    server that copied the parent's row, author included, into a reply went unseen. Reads only: three requests."""
    replies = [(member, inherited_reply, "COMMENT-3", "member's reply without privacy fields to its private comment"),
               (member, private_reply_to_public, "COMMENT-5", "member's reply private to moderator under a public "
                                                                "comment")]
    if recipient_reply.status == 201:  # its status is test_recipient_replying_...'s (COMMENT-3) to judge
        replies.append((moderator, new_id(recipient_reply), "COMMENT-3",
                        "moderator's (the recipient's) reply without privacy fields to a private comment"))
    for poster, cid, rule, what in replies:
        item = read_back(moderator, thread_answer, cid, (rule,))
        author = item.get("author")
        expect(isinstance(author, dict) and author.get("username") == poster.username, "AUTH-ACTING-USER",
               f"{what} ({cid}) was posted with {poster.role}'s credentials, so {poster.username!r} is its author; "
               f"moderator reads author {author!r}")
