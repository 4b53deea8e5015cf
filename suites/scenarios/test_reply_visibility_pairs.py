"""Comment rule 4 crossed with the parent's visibility: a reply to a private comment of EVERY option, asking for
every other visibility, is a 400 with the inherited message.

Why a module of its own: test_comment_privacy.py asks each other visibility under one parent, its comment private to
recipients. A server that judges rule 4 per pair (blind7, issue 44: a reply to an op comment asking for recipients
is refused by the recipients validator, with its own message) passes there. The parents here are the run's shared
private comments of member (to_original_poster, to_moderators: suites/conftest.py ``private_comment_of``, which the
permission table and the observations read too), so nothing is posted but the refused replies: no accepted write
when the target conforms. The group option (member lacks it, and rule 7's 403 would come first) is asked by admin
under admin's own shared group comment (round102, issue 44: a server whose group branch words its own refusal).

Rule 3 crossed the same way (fix22, issue 44: a reply repeating an op, mod or group parent's option was never sent):
admin's and moderator's shared comments of the private options (the permission table's cells) are posted as replies
to another account's shared comment of the same option (suites/option_forms.py ``REPEATS_OPTION_OF``), so the repeat
costs no write. Rule 3's 201 for "the same ones" is judged here; a refusal other than a 400 (who may reply to
another's op, mod or group comment is not described) is not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from comment_reads import INHERITED_MESSAGE, bodies_containing, body_strings, comments_as, unique_text
from question_thread import at_location

from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.support import find_item, new_id, post_comment
from qaconform.target.client import ApiClient
from qaconform.target.profile import VisibilityOptions

pytestmark = [pytest.mark.comments, pytest.mark.writes]

ASKED = ("full", "recipients", "to_original_poster", "to_moderators")
"""What the replier asks for on its reply (the options member holds, full, and recipients with a recipient)."""


@pytest.mark.rule("COMMENT-4", "COMMENT-400-MESSAGE")
@pytest.mark.refused_writes  # fix30 (issue 44): its replies are refusals; the parent is the run's shared comment
@pytest.mark.parametrize(("role", "parent_option"), [
    pytest.param("member", "to_original_poster", id="to_original_poster"),
    pytest.param("member", "to_moderators", id="to_moderators"),
    pytest.param("admin", "to_own_groups", id="to_own_groups-by-admin")])
def test_reply_to_a_private_comment_of_each_option_asking_another_visibility_is_400_with_the_message(
        role: str, parent_option: str, api: dict[str, ApiClient], run_tag: str, created: Any, vis: VisibilityOptions,
        user_ids: dict[str, int], private_comment_of: Callable[[str, str], Any]) -> None:
    member = api[role]  # the replier: member, or admin under its own group comment (round102)
    parent_value = getattr(vis, parent_option)
    if parent_value is None or vis.recipients is None:
        skip(SkipKind.OTHER, f"the profile's [visibility] gives no wire value for {parent_option} or recipients")
    shared = private_comment_of(role, parent_option)
    if shared.resp.status != 201 or shared.node is None:
        skip(SkipKind.MISSING_FIXTURE, f"not judged: the run's shared {parent_option} comment of {role} was not "
             f"created ({shared.resp.status}); rule 7 and COMMENT-2 judge that post")
    parent = new_id(shared.resp)
    asked = [(o, getattr(vis, o)) for o in ASKED if o != parent_option and getattr(vis, o) is not None]
    markers: list[str] = []
    for option, value in asked:
        recipients = [user_ids["moderator"]] if option == "recipients" and "moderator" in user_ids else None
        marker = unique_text(f"{option} on a {parent_option} reply")
        markers.append(marker)
        resp = post_comment(member, parent, run_tag, created, text=marker, visibility=value, recipients=recipients)
        where = f"a reply to {role}'s {parent_option} comment {parent} asking visibility {value!r}"
        expect(resp.status == 400, "COMMENT-4",
               f"{where} must be refused with 400 (rule 4: a reply to a private comment with different visibility); "
               f"{role} holds the option, so 403 is not expected", resp)
        texts = [s.strip() for s in body_strings(resp)]
        expect(resp.status != 400 or INHERITED_MESSAGE in texts, "COMMENT-400-MESSAGE",
               f"the 400 of {where} must carry the message {INHERITED_MESSAGE!r}; the body's strings are "
               f"{texts[:10]}", resp)
    listed = comments_as(member, shared.node)
    made = [m for m in markers if bodies_containing(listed, m)]
    expect(not made, "COMMENT-4", f"refused replies must not be created, but {role}'s comment list of answer "
           f"{shared.node} holds {made}")


REPEATED = (("admin", "to_original_poster"), ("moderator", "to_moderators"), ("admin", "to_own_groups"))
"""(replier, option): every private option with no recipients a parent may carry (recipients' repeat is
test_comment_privacy.py's), as suites/option_forms.py ``REPEATS_OPTION_OF`` posts the replier's shared comment."""


@pytest.mark.rule("COMMENT-3")
@pytest.mark.parametrize(("role", "option"), [pytest.param(r, o, id=f"{o}-by-{r}") for r, o in REPEATED])
def test_reply_to_a_private_comment_of_each_option_repeating_it_inherits_it(
        request: pytest.FixtureRequest, role: str, option: str, api: dict[str, ApiClient], vis: VisibilityOptions,
        question_id: int, private_comment_of: Callable[[str, str], Any]) -> None:
    """"A reply to a private comment without privacy fields, or with the same ones, inherits the parent's settings:
    201": a reply repeating its parent's option (a server comparing the fields given with the stored (visibility,
    recipients) pair, where recipients is stored empty and given absent, refuses it with rule 4's 400)."""
    value = getattr(vis, option)
    if value is None:
        skip(SkipKind.OTHER, f"not checked: the profile's [visibility] gives no wire value for {option}")
    shared = private_comment_of(role, option)
    if shared.repeats is None:
        skip(SkipKind.MISSING_FIXTURE, f"not judged: the run's shared {option} comment the reply repeats was not "
                                       "created; rule 7 and the permission table judge that post")
    where = f"{role}'s reply with visibility {value!r} to the {option} comment {shared.repeats}"
    # a skip's reason names no id (each build's are its own: CI compares the reasons between builds); ids go in detail
    said = f"{role}'s reply with visibility {value!r} to the shared {option} comment"
    if shared.refused is not None:
        if shared.refused.status == 400 and not _reads_parent(api[role], shared):
            # qa21: a target that answers an id the caller cannot see with 400 (unknown-node-400), to an admin the
            # profile names no reader of private comments, refused no repeated option: not rule 4's 400
            skip(SkipKind.OTHER, f"not judged: {said} was refused with 400, and {role} does not read the parent in "
                                 "its answer's comment list; who reads another account's private comment is the "
                                 "site's", detail=where)
        if shared.refused.status == 400:
            fail(["COMMENT-3"], f"{where} repeats the parent's option: it inherits the parent's settings (201), yet "
                                "it was refused with 400", shared.refused)
        skip(SkipKind.OTHER, f"not judged: {said} was refused with {shared.refused.status}; who may reply to "
                             f"another account's {option} comment is not described", detail=where)
    reply = new_id(shared.resp)
    if shared.node == question_id:  # round64: the parent is moderator's drawn option comment on the question
        item = at_location(api[role], request, shared.resp)
        if item is None:
            skip(SkipKind.OTHER, f"not judged: {said} (201) on the question is not served at its Location "
                                 "(LOCATION-READABLE, a should), and no list gives a question's comments",
                 detail=f"{where}: comment {reply} under question {shared.node}")
    else:
        item = find_item(comments_as(api[role], int(shared.node or 0), showing=[reply]), reply)
    if item is None:
        skip(SkipKind.OTHER, f"not judged: {said} (201) is not in the comment list of its answer as {role} reads "
                             "it; whether replies are listed is not described",
             detail=f"{where}: comment {reply} under answer {shared.node}")
    expect(item.get("visibility") == value, "COMMENT-3",
           f"{where} (201) must inherit the parent's settings (visibility {value!r}); {role} reads "
           f"{item.get('visibility')!r}", shared.resp)



def _reads_parent(client: ApiClient, shared: Any) -> bool:
    """Whether the replier reads the parent its repeating reply went to (suites/option_forms.py ``REPEATS_OPTION_OF``'s
    account's shared comment), in the comment list of the answer it is under, as the replier reads it (the parent
    was created before the reply: no settle wait)."""
    if shared.repeats_under is None or shared.repeats is None:
        return True  # nothing to read: the 400 stays the reply's
    return find_item(comments_as(client, int(shared.repeats_under)), int(shared.repeats)) is not None
