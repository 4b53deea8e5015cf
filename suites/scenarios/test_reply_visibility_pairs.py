"""Comment rule 4 crossed with the parent's visibility: a reply to a private comment of EVERY option, asking for
every other visibility, is a 400 with the inherited message.

Why a module of its own: test_comment_privacy.py asks each other visibility under one parent, its comment private to
recipients. A server that judges rule 4 per pair (blind7, issue 44: a reply to an op comment asking for recipients
is refused by the recipients validator, with its own message) passes there. The parents here are the run's shared
private comments of member (to_original_poster, to_moderators: suites/conftest.py ``private_comment_of``, which the
permission table and the observations read too), so nothing is posted but the refused replies: no accepted write
when the target conforms. The group option is not asked: member lacks it, and rule 7's 403 comes first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from comment_reads import INHERITED_MESSAGE, bodies_containing, body_strings, comments_as, unique_text

from qaconform.pytest.outcomes import SkipKind, expect, skip
from qaconform.pytest.support import new_id, post_comment
from qaconform.target.client import ApiClient
from qaconform.target.profile import VisibilityOptions

pytestmark = [pytest.mark.comments, pytest.mark.writes]

ASKED = ("full", "recipients", "to_original_poster", "to_moderators")
"""What member asks for on its reply (the options member holds, full, and recipients with a recipient)."""


@pytest.mark.rule("COMMENT-4", "COMMENT-400-MESSAGE")
@pytest.mark.parametrize("parent_option", ["to_original_poster", "to_moderators"])
def test_reply_to_a_private_comment_of_each_option_asking_another_visibility_is_400_with_the_message(
        parent_option: str, api: dict[str, ApiClient], run_tag: str, created: Any, vis: VisibilityOptions,
        user_ids: dict[str, int], private_comment_of: Callable[[str, str], Any]) -> None:
    member = api["member"]
    parent_value = getattr(vis, parent_option)
    if parent_value is None or vis.recipients is None:
        skip(SkipKind.OTHER, f"the profile's [visibility] gives no wire value for {parent_option} or recipients")
    shared = private_comment_of("member", parent_option)
    if shared.resp.status != 201 or shared.node is None:
        skip(SkipKind.MISSING_FIXTURE, f"not judged: the run's shared {parent_option} comment of member was not "
             f"created ({shared.resp.status}); rule 7 and COMMENT-2 judge that post")
    parent = new_id(shared.resp)
    asked = [(o, getattr(vis, o)) for o in ASKED if o != parent_option and getattr(vis, o) is not None]
    markers: list[str] = []
    for option, value in asked:
        recipients = [user_ids["moderator"]] if option == "recipients" and "moderator" in user_ids else None
        marker = unique_text(f"{option} on a {parent_option} reply")
        markers.append(marker)
        resp = post_comment(member, parent, run_tag, created, text=marker, visibility=value, recipients=recipients)
        where = f"a reply to member's {parent_option} comment {parent} asking visibility {value!r}"
        expect(resp.status == 400, "COMMENT-4",
               f"{where} must be refused with 400 (rule 4: a reply to a private comment with different visibility); "
               "member holds the option, so 403 is not expected", resp)
        texts = [s.strip() for s in body_strings(resp)]
        expect(resp.status != 400 or INHERITED_MESSAGE in texts, "COMMENT-400-MESSAGE",
               f"the 400 of {where} must carry the message {INHERITED_MESSAGE!r}; the body's strings are "
               f"{texts[:10]}", resp)
    listed = comments_as(member, shared.node)
    made = [m for m in markers if bodies_containing(listed, m)]
    expect(not made, "COMMENT-4", f"refused replies must not be created, but member's comment list of answer "
           f"{shared.node} holds {made}")
