"""Comment privacy: the eight rules of "1. Post a comment", read back through the answer's comment list, and leaks.

Why read back through operation 18 (GET answer/{answerId}/comment.json): the only operation that returns a comment,
so every setting is checked there. Every comment lives under a run's answer: the fixture question is never crowded.

Who may see what (description, rule 2): a comment with visibility ``recipients`` is private to the listed
recipients; its author sees it too. The audience of the ``op`` and ``mod`` options is not spelled out beyond
their names, so who reads them is recorded (OBS-COMMENT-OP-AUDIENCE), never asserted; nor is whether the author of a
private comment reads a reply that inherited its settings without naming it (OBS-REPLY-AUDIENCE). Who is outside an
option's audience under every reading and must not find it in its author's content list: test_option_content_privacy.py.

Lists may lag writes: a read-back of what was just posted is repeated within the profile's settle window until the
comment shows (support.list_all's ``until``); a check that something is *not* listed reads once. Helpers: posting and
reading in comment_reads.py, the observations' facts in comment_observations.py, this module's thread in conftest.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from comment_observations import (
    listed_to,
    question_author_id,
    seen_under,
    statuses_by_visibility_value,
    visibility_read_back,
)
from comment_reads import (
    INHERITED_MESSAGE,
    NOT_ENTITLED,
    PlainComments,
    bodies_containing,
    body_kind,
    body_strings,
    comments_as,
    every_page,
    id_parents,
    is_full_visibility,
    listed_as_items,
    location_names_the_new_comment,
    observe_post,
    own_view_then,
    parameter_won,
    plain_comment,
    read_back,
    read_back_each_option,
    recipient_ids,
    referenced_ids,
    refused_under_every_parent,
    unique_text,
    visible_comments,
)
from question_thread import public_comment_on_question, reply_keeps_own_settings

from qaconform.pytest import named_reads
from qaconform.pytest.outcomes import SkipKind, expect, skip
from qaconform.pytest.refusals import refused as refused_by_service
from qaconform.pytest.refusals import why_not_refused
from qaconform.pytest.support import (
    answer_posted,
    expect_created,
    find_item,
    new_id,
    post_comment,
    private_reader_skip,
    wire_value,
)
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile, VisibilityOptions

pytestmark = [pytest.mark.comments, pytest.mark.writes]


# ---------------------------------------------------------------------------------------------------------- rules 1-8
@pytest.mark.rule("COMMENT-1")
@pytest.mark.parametrize("poster", ["member", "moderator", "admin", "novice"])
def test_comment_without_privacy_fields_has_full_visibility_and_no_recipients(
        api: dict[str, ApiClient], poster: str, novice: ApiClient, thread_answer: int, vis: VisibilityOptions,
        profile: Profile, plain_comments: PlainComments) -> None:
    """Whoever posts it (rule 1 names no caller), on whatever it is under (moderator's on an answer member locked:
    suites/conftest.py ``COMMENT_ON_LOCKED``): an account with private options must not get one by default.

    The visibility read back is a field of version 2.16.0, like the rest of the privacy fields ("Private comments
    were introduced in version 2.16.0"): on an older target only the comment and its lack of recipients are read."""
    author = api[poster]
    posted = plain_comments(poster)
    resp, parent = posted.resp, int(posted.node)
    where = "on the thread" if parent == thread_answer else f"on answer {parent}, which member locked"
    # expect, not assert: the failure is the sentence and the exchange, not pytest's rewrite (user14)
    expect(resp.status == 201, "COMMENT-1", f"a plain comment by {poster} {where} must be created (201); it was "
           f"answered {resp.status}", resp)
    cid = new_id(resp)
    for reader in dict.fromkeys((author, novice)):
        for how, item in read_back_each_option(reader, parent, cid):  # round82: and with each stated option
            expect(not profile.supports("2.16.0") or is_full_visibility(item.get("visibility"), vis), "COMMENT-1",
                   f"a comment posted without visibility must read back with full visibility "
                   f"({vis.full!r} per the profile, or when the profile names none: missing/null/empty or no private "
                   f"option's value, {sorted(vis.private_values())}); {reader.role} "
                   f"read visibility={item.get('visibility')!r} of comment {cid} {where}{how}", resp)
            expect(item.get("recipients") in (None, []), "COMMENT-1",
                   f"a comment posted without recipients must read back with none; {reader.role} read "
                   f"recipients={item.get('recipients')!r} of comment {cid} {where}{how}", resp)


@pytest.mark.rule("COMMENT-2", "COMMENT-VISIBILITY-RETURNED")
def test_comment_with_visibility_recipients_is_private_to_them_and_reads_back_its_settings(
        member: ApiClient, moderator: ApiClient, thread_answer: int, private_comment: int, vis: VisibilityOptions,
        user_ids: dict[str, int]) -> None:
    """The module's private comment (member's, private to moderator; its fixture fails COMMENT-2 unless it is a
    201), read back by its author and its recipient."""
    mod_id = user_ids["moderator"]
    cid = private_comment
    # A setting read back wrong may be one the target did not store (COMMENT-2) or did not return
    # (COMMENT-VISIBILITY-RETURNED): the list shows the same either way, so those failures name both.
    for reader, who in ((member, "the author"), (moderator, "the recipient")):
        item = read_back(reader, thread_answer, cid, blame=("COMMENT-2",))
        expect(item.get("visibility") == vis.recipients, ("COMMENT-2", "COMMENT-VISIBILITY-RETURNED"),
               f"{who} ({reader.role}) must read the comment back with visibility {vis.recipients!r}, got "
               f"{item.get('visibility')!r}: {item}")
        expect(recipient_ids(item) == {str(mod_id)}, ("COMMENT-2", "COMMENT-VISIBILITY-RETURNED"),
               f"{who} ({reader.role}) must read the comment back with exactly the recipients given ([{{id: "
               f"{mod_id}}}]), got {item.get('recipients')!r}")


@pytest.mark.rule("COMMENT-2", "COMMENT-VISIBILITY-RETURNED")
def test_comment_private_to_two_recipients_reads_back_with_each_for_each(
        api: dict[str, ApiClient], thread_answer: int, two_recipients_comment: tuple[ApiResponse, list[int]]) -> None:
    """"recipients lists ids": every one of them, not only the first, is a recipient and sees the comment (the
    module's ``two_recipients_comment``, which COMMENT-3's reply with the same fields answers). Each recipient who
    is not the author reads the whole list as it was set (round38, issue 44: a list trimmed to its reader is
    COMMENT-VISIBILITY-RETURNED's as much as COMMENT-2's: the list shows the same either way, so both are named)."""
    resp, ids = two_recipients_comment
    expect(resp.status == 201, "COMMENT-2",
           f"member holds Use Private Comments: a comment private to {ids} must be created (201)", resp)
    cid = new_id(resp)
    for reader in ("member", "moderator", "novice"):
        item = read_back(api[reader], thread_answer, cid, blame=("COMMENT-2",))
        expect(recipient_ids(item) == {str(i) for i in ids}, ("COMMENT-2", "COMMENT-VISIBILITY-RETURNED"),
               f"{reader} must read the comment back with exactly the recipients given ({ids}), got "
               f"{item.get('recipients')!r}", resp)


@pytest.mark.rule("COMMENT-3", "COMMENT-VISIBILITY-RETURNED")
@pytest.mark.parametrize("same_fields", [False, True], ids=["without-fields", "with-the-same-fields"])
def test_reply_to_private_comment_inherits_visibility_and_recipients(
        request: pytest.FixtureRequest, member: ApiClient, moderator: ApiClient, thread_answer: int,
        private_comment: int, same_fields: bool, run_tag: str, created: Any, vis: VisibilityOptions,
        user_ids: dict[str, int], api: dict[str, ApiClient], profile: Profile) -> None:
    """Without fields: the module's ``inherited_reply`` (a 201 or COMMENT-3 fails); with the same fields, a reply to
    the comment private to two recipients naming them in the other order ("value lists in any order"): it inherits.
    Every account the reply names reads it back, one it does not must not see it (reads16: named_reads.judge_reply)."""
    want = [user_ids["moderator"]]
    if not same_fields:
        cid = int(request.getfixturevalue("inherited_reply"))
        what = f"member's reply {cid} without privacy fields"
    else:
        parent, want = request.getfixturevalue("two_recipients_comment")
        pid = expect_created(parent, "COMMENT-2", "member could not post a comment private to two recipients")
        other = [*want[1:], *want[:1]]  # another order whose first is an account: the third may be no one's login
        resp = post_comment(member, pid, run_tag, created, text="reply to a private comment",
                            visibility=vis.recipients, recipients=other)
        expect(resp.status == 201, "COMMENT-3", f"a reply to private comment {pid} with the same privacy fields (its "
               f"recipients {want} given in the order {other}) must be created (201)", resp)
        cid = new_id(resp)
        what = resp.describe()
    for reader in (member, moderator):  # the author and a recipient who is not: COMMENT-3 and the read (round38)
        item = read_back(reader, thread_answer, cid)
        expect(item.get("visibility") == vis.recipients and recipient_ids(item) == {str(i) for i in want},
               ("COMMENT-3", "COMMENT-VISIBILITY-RETURNED"),
               f"the reply must carry its parent's settings (visibility {vis.recipients!r}, recipients {want}); "
               f"{reader.role} read visibility={item.get('visibility')!r} recipients={item.get('recipients')!r}\n"
               f"{what}")
    named_reads.judge_reply(api, profile, thread_answer, cid, user_ids, want)  # reads16: each named, one not


@pytest.mark.rule("COMMENT-3")
def test_recipient_replying_to_private_comment_without_fields_inherits_its_settings(
        moderator: ApiClient, thread_answer: int, recipient_reply: ApiResponse, vis: VisibilityOptions,
        user_ids: dict[str, int]) -> None:
    resp = recipient_reply
    assert resp.status == 201, f"the recipient's reply to a private comment must be created (201)\n{resp.describe()}"
    item = read_back(moderator, thread_answer, new_id(resp))
    assert item.get("visibility") == vis.recipients and recipient_ids(item) == {str(user_ids["moderator"])}, (
        f"the recipient's reply must inherit visibility {vis.recipients!r} and recipients "
        f"[{user_ids['moderator']}]; read {item.get('visibility')!r} {item.get('recipients')!r}\n{resp.describe()}")


REPLIERS_OF_PRIVATE = (("member", ("to_original_poster", "to_moderators", "full")),
                       ("moderator", ("to_original_poster", "to_moderators", "to_own_groups", "full")))
"""The private comment's author and its recipient, each with every other visibility it holds (round39, issue 44)."""


@pytest.mark.rule("COMMENT-4", "COMMENT-400-MESSAGE")
@pytest.mark.refused_writes  # round39 (issue 44): every reply here is refused when the target conforms
@pytest.mark.parametrize(("replier", "option"), [pytest.param(r, o, id=f"{o}-by-{r}")
                                                 for r, options in REPLIERS_OF_PRIVATE for o in options])
def test_reply_to_private_comment_with_different_visibility_is_400_with_the_inherited_message(
        api: dict[str, ApiClient], thread_answer: int, private_comment: int, replier: str, option: str,
        run_tag: str, created: Any, vis: VisibilityOptions) -> None:
    if (value := getattr(vis, option)) is None or replier not in api:
        skip(SkipKind.OTHER, f"the profile gives no wire value for {option} or no {replier} account to send it")
    client, marker = api[replier], unique_text("different visibility")
    resp = post_comment(client, private_comment, run_tag, created, text=marker, visibility=value)
    who = f"{replier} ({'its author' if replier == 'member' else 'its recipient'})"
    expect(resp.status == 400, "COMMENT-4", f"a reply by {who} to a private comment with visibility {value!r} (the "
           f"parent's is {vis.recipients!r}) must be 400; {replier} holds the {option} option, so not 403", resp)
    expect(INHERITED_MESSAGE in (texts := [s.strip() for s in body_strings(resp)]), "COMMENT-400-MESSAGE",
           f"the 400 to {who} must carry the message {INHERITED_MESSAGE!r}; the body's strings are {texts[:10]}", resp)
    expect(not bodies_containing(comments_as(client, thread_answer), marker), "COMMENT-4", f"the refused reply must "
           f"not be created, but {replier}'s comment list holds it", resp)


@pytest.mark.rule("COMMENT-5")
@pytest.mark.parametrize("option", ["recipients", "to_original_poster"])
def test_reply_to_public_comment_may_set_its_own_visibility_and_recipients(
        request: pytest.FixtureRequest, member: ApiClient, moderator: ApiClient, thread_answer: int,
        public_comment: int, run_tag: str, created: Any, vis: VisibilityOptions, user_ids: dict[str, int],
        option: str) -> None:
    """With recipients (the module's ``private_reply_to_public``, whose fixture fails COMMENT-5 unless it is a 201),
    and with another private option member holds (visibility is its own either way). Rule 5's two cases are crossed
    with the depth of the public parent and the parent kind's thread: recipients under novice's public reply on the
    answer (depth 2), the other option under a public comment in a question's own thread (fix32, issue 44:
    question_thread.py, novice's comment on its question, read back at the reply's Location), else under the
    module's ``public_reply`` (a public comment that is itself a reply)."""
    value = getattr(vis, option)
    parent = public_comment
    on_question = None if option == "recipients" else public_comment_on_question(request)
    if option == "recipients":  # recip (issue 44): under novice's public reply when there is one (public_threads.py)
        cid = int(request.getfixturevalue("private_reply_to_public"))
        parent = request.getfixturevalue("private_reply_to_public_comment")[0]
        what = f"member's reply {cid} to the public comment {parent}, private to moderator"
    else:
        parent = on_question[0] if on_question else int(request.getfixturevalue("public_reply"))
        where = "on a question (its own thread)" if on_question else f"a reply to {public_comment} on the answer"
        resp = post_comment(member, parent, run_tag, created, text=f"own settings ({option}) under a "
                            f"public {'comment on a question' if on_question else 'reply'}", visibility=value)
        assert resp.status == 201, (f"a reply to public comment {parent} ({where}) with visibility {value!r} must be "
                                    f"created (201)\n{resp.describe()}")
        cid = new_id(resp)
        what = resp.describe()
    readers = (member, moderator) if option == "recipients" else (member,)
    expected = {str(user_ids["moderator"])} if option == "recipients" else set()
    if on_question:  # no list returns a question thread's settings: read at the Locations where served
        return reply_keeps_own_settings(member, request, resp, on_question[1], value, vis)
    for reader in readers:
        item = read_back(reader, thread_answer, cid)
        assert item.get("visibility") == value and recipient_ids(item) == expected, (
            f"the reply keeps its own settings (visibility {value!r}, recipients {sorted(expected)}); "
            f"{reader.role} read {item.get('visibility')!r} {item.get('recipients')!r}\n{what}")
    parent_item = read_back(member, thread_answer, parent)
    assert is_full_visibility(parent_item.get("visibility"), vis), (
        f"the public parent {parent} must stay public after a private reply; it reads "
        f"{parent_item.get('visibility')!r}")


@pytest.mark.rule("COMMENT-6", "PERM-COMMENT-PRIVATE")  # a denial of member's own options on one kind of parent
@pytest.mark.parametrize("visibility", ["to_original_poster", "to_moderators", "absent"])
def test_recipients_while_visibility_is_not_recipients_is_400(
        member: ApiClient, thread_answer: int, visibility: str, run_tag: str, created: Any, vis: VisibilityOptions,
        user_ids: dict[str, int], refusal_parents: list[tuple[str, int]], moved_parents: list[tuple[str, int]]
) -> None:
    """On the answer, the question, a public comment and a public reply (``refusal_parents``), and on the run's nodes
    moved through the state table (``moved_parents``)."""
    value = None if visibility == "absent" else getattr(vis, visibility)
    marker = unique_text("recipients without visibility recipients")
    resp = refused_under_every_parent(
        member, refusal_parents, (400,), run_tag, created, marker, value, [user_ids["moderator"]],
        f"recipients given with visibility {value!r} (not {vis.recipients!r})", moved_parents, ("COMMENT-6",
                                                                                             "PERM-COMMENT-PRIVATE"))
    expect(not bodies_containing(comments_as(member, thread_answer), marker), "COMMENT-6",
           "the refused comment must not be created, but member's comment list holds it", resp)


@pytest.mark.rule("COMMENT-7-NO-PRIVATE-PERMISSION")
@pytest.mark.parametrize("option", ["to_original_poster", "to_moderators", "recipients"])
def test_private_option_without_use_private_comments_is_403(
        novice: ApiClient, admin: ApiClient, thread_answer: int, option: str, run_tag: str, created: Any,
        vis: VisibilityOptions, user_ids: dict[str, int], profile: Profile,
        refusal_parents: list[tuple[str, int]], moved_parents: list[tuple[str, int]]) -> None:
    """On the answer, the question, a public comment and a public reply (``refusal_parents``), and on the run's nodes
    moved through the state table (``moved_parents``: novice's own answer held in moderation among them)."""
    value = wire_value(profile, option)
    marker = unique_text(f"novice private {option}")
    recipients = [user_ids["moderator"]] if option == "recipients" else None
    # The description fixes 403 for the three named private options; for visibility recipients the permission
    # table only says Use Private Comments is needed, so any denial (401/403) is accepted there.
    allowed = (403,) if option != "recipients" else (401, 403)
    resp = refused_under_every_parent(novice, refusal_parents, allowed, run_tag, created, marker, value,
                                       recipients, f"novice lacks Use Private Comments: visibility {value!r}",
                                       moved_parents)
    for reader in (novice, admin):
        assert not bodies_containing(comments_as(reader, thread_answer), marker), (
            f"the refused comment must not be created, but {reader.role}'s comment list holds it\n{resp.describe()}")


@pytest.mark.rule("COMMENT-7-NO-OPTION-PERMISSION")
def test_private_option_the_caller_lacks_is_403_though_it_may_use_the_others(
        member: ApiClient, thread_answer: int, run_tag: str, created: Any, vis: VisibilityOptions,
        profile: Profile, member_to_original_poster: ApiResponse | None,
        refusal_parents: list[tuple[str, int]], moved_parents: list[tuple[str, int]]) -> None:
    """On the answer, the question, a public comment and a public reply (``refusal_parents``), and on the run's nodes
    moved through the state table (``moved_parents``)."""
    wire_value(profile, "to_own_groups")
    marker = unique_text("member own groups")
    resp = refused_under_every_parent(
        member, refusal_parents, (403,), run_tag, created, marker, vis.to_own_groups, None,
        f"member lacks 'Send private comments to own groups': visibility {vis.to_own_groups!r}", moved_parents)
    ok = member_to_original_poster
    if ok is None:
        skip(SkipKind.OTHER, "not checked: the profile gives no wire value for to_original_poster, the option member "
                             "holds that shows the 403 is about the option")
    assert ok.status == 201, (
        f"member holds Use Private Comments and 'to original poster': visibility {vis.to_original_poster!r} "
        f"must be created (201), which shows the 403 above is about the option\n{ok.describe()}")
    assert not bodies_containing(comments_as(member, thread_answer), marker), (
        f"the refused comment must not be created, but member's comment list holds it\n{resp.describe()}")


@pytest.mark.rule("COMMENT-8", "VERSION-PRIVATE-COMMENTS-2160")
def test_private_comments_exist_from_2_16_0_so_a_retrieved_comment_carries_both_fields(
        moderator: ApiClient, novice: ApiClient, thread_answer: int, private_comment: int, profile: Profile) -> None:
    """A target at 2.16.0 or later (older ones are reported "disabled by configuration" by the plugin) has private
    comments: the one member made private to moderator is hidden from novice (neither author nor recipient, and no
    site lets its least privileged account read others' private comments), and a retrieved comment carries both
    fields."""
    hidden = [i.get("id") for i in comments_as(novice, thread_answer) if str(i.get("id")) == str(private_comment)]
    expect(not hidden, "COMMENT-8",
           f"a target at {profile.service_version or 'an unstated version (taken as current)'} has private comments, "
           f"yet comment {private_comment}, private to moderator, is listed to novice: the privacy fields were taken "
           "and ignored")
    item = read_back(moderator, thread_answer, private_comment, blame=("COMMENT-2",))
    missing = [k for k in ("visibility", "recipients") if k not in item]
    # Both rules say a 2.16.0 target returns the two fields: a missing one breaks both.
    expect(not missing, ("COMMENT-8", "VERSION-PRIVATE-COMMENTS-2160"),
           f"a target at {profile.service_version or 'an unstated version (taken as current)'} has private comments: a "
           f"retrieved comment returns both visibility and recipients; missing {missing}: {item}")


# ----------------------------------------------------------------------------------------------------------
# leaks: a private comment is invisible to everyone not entitled, in every listing that could show it

@pytest.mark.rule("COMMENT-PRIVACY-LIST")
@pytest.mark.parametrize("page_size", [50, 1], ids=["one-page", "page-size-1"])
@pytest.mark.parametrize("viewer", NOT_ENTITLED)
def test_private_comment_is_not_in_the_answer_comment_list_of_an_account_not_entitled(
        api: dict[str, ApiClient], viewer: str, thread_answer: int, private_ids: set[str],
        public_comment: int, page_size: int, profile: Profile) -> None:
    """On one page, and one comment a page (every page of the thread is a page a leak could be on)."""
    if reason := private_reader_skip(profile, viewer):
        skip(SkipKind.OTHER, reason)
    items, refusal = visible_comments(api[viewer], thread_answer,
                                      showing=[] if viewer == "anonymous" else [public_comment])
    if refusal is None and page_size == 1:
        items = every_page(api[viewer], f"answer/{thread_answer}/comment.json", at_once=fanout.width(profile))
    leaked = {str(i.get("id")) for i in items} & private_ids
    assert not leaked, (
        f"{viewer} is neither author nor recipient, yet the comment list of answer {thread_answer} shows the "
        f"private comments {sorted(leaked)}")
    if refusal is None and viewer != "anonymous":
        assert find_item(items, public_comment) is not None, (
            f"{viewer} must still see the public comment {public_comment} (control: the list is the thread)")


@pytest.mark.rule("COMMENT-PRIVACY-IDS")
@pytest.mark.parametrize("viewer", NOT_ENTITLED)
def test_private_comment_id_is_not_in_the_parents_comment_ids_of_an_account_not_entitled(
        api: dict[str, ApiClient], viewer: str, thread_answer: int, question_id: int, private_ids: set[str],
        user_ids: dict[str, int], profile: Profile) -> None:
    """The recipient reads each list right before the viewer, until its own view shows (own_view_then): a server
    that renders a node once for all callers (a cache keyed without the caller) then shows this viewer the recipient's
    view, private ids included."""
    if reason := private_reader_skip(profile, viewer):
        skip(SkipKind.OTHER, reason)
    client, moderator = api[viewer], api["moderator"]
    comments, _ = own_view_then(moderator, client, "answer comments", lambda c: visible_comments(c, thread_answer),
                                 private_ids)
    leaked = referenced_ids(comments) & private_ids
    assert not leaked, (
        f"{viewer} may not see the private comments, yet commentIds/childrenIds of the comments it is listed "
        f"name {sorted(leaked)}")
    for kind, node, path, params in id_parents(moderator, thread_answer, question_id, user_ids["member"],
                                               profile.fixtures.space_id, viewer):
        items, refused = own_view_then(moderator, client, path, listed_as_items(path, node, params), private_ids)
        if refused:
            assert viewer == "anonymous", f"{viewer} may read {path} (permission table)\n{refused.describe()}"
            continue  # a caller refused the list is shown no ids at all
        assert items or viewer == "anonymous", f"{viewer} must see the {kind} {node} in {path} (it is published)"
        leaked = referenced_ids(items) & private_ids
        assert not leaked, (
            f"{viewer} may not see the private comments, yet the {kind} {node} in {path} ({params}) names them in "
            f"commentIds/childrenIds: {sorted(leaked)}")


@pytest.mark.rule("COMMENT-PRIVACY-CONTENT")
def test_private_comment_is_not_in_its_authors_content_list_as_seen_by_admin(
        admin: ApiClient, private_ids: set[str], user_ids: dict[str, int], profile: Profile) -> None:
    if reason := private_reader_skip(profile, "admin"):
        skip(SkipKind.OTHER, reason)
    resp = admin.get(f"users/gdpr/{user_ids['member']}/content.json", operation="listUserContent")
    assert resp.status == 200, f"admin must be able to list member's content\n{resp.describe()}"
    entries = resp.json()
    assert isinstance(entries, list), f"the content list is a JSON array\n{resp.describe()}"
    leaked = {str(e["node"].get("id")) for e in entries
              if isinstance(e, dict) and isinstance(e.get("node"), dict)} & private_ids
    assert not leaked, (
        f"admin is not a recipient, yet member's content list shows the private comments {sorted(leaked)}\n"
        f"{resp.describe()}")


# ----------------------------------------------------------------------------------------------------------
# other comment rules

@pytest.mark.rule("COMMENT-201-LOCATION", "COMMENT-LISTED")
def test_created_comment_gives_201_with_location_and_is_listed_with_its_body(
        novice: ApiClient, thread_answer: int, run_tag: str, created: Any,
        plain_comments: PlainComments) -> None:
    """novice's plain comment on the thread (COMMENT-1 reads the same one)."""
    resp, marker = plain_comment(plain_comments, novice, thread_answer, run_tag, created)
    expect(resp.status == 201, "COMMENT-201-LOCATION",
           "novice holds Comment: a plain comment must be created (201)", resp)
    location = resp.headers.get("location", "")
    expect(location, "COMMENT-201-LOCATION", "a 201 to a posted comment must carry a Location header", resp)
    found = bodies_containing(comments_as(novice, thread_answer, holding=marker), marker)
    expect(len(found) == 1, "COMMENT-LISTED",
           f"the comment must appear once in the answer's comment list with its body; found ids {found}", resp)
    expect(str(found[0]) in location, "COMMENT-201-LOCATION",
           f"Location must hold the URL of the new comment (id {found[0]}), got {location!r}", resp)


@pytest.mark.rule("COMMENT-BODY-REQUIRED")
def test_comment_without_body_is_refused_and_nothing_is_created(
        member: ApiClient, answer_of: Callable[[str], Any]) -> None:
    """On moderator's shared answer (``answer_of``; no test comments on it or locks it): no answer of its own."""
    quiet = answer_posted(answer_of("moderator").resp, "for member to comment on without a body")
    before = {str(c.get("id")) for c in comments_as(member, quiet)}
    resp = member.post(f"node/{quiet}/comment.json", json={}, operation="postComment")
    # Judged as every COMMENT-BODY-REQUIRED refusal is (suites/contract/test_comment_refusal_paths.py): a redirect to
    # a login page that ends in a 4xx there is no refusal by the interface (qaconform/pytest/refusals.py).
    assert refused_by_service(resp), (
        f"a comment without body must be refused with a 4xx; {why_not_refused(resp)}\n{resp.describe()}")
    new = {str(c.get("id")) for c in comments_as(member, quiet)} - before
    assert not new, f"nothing may be created under answer {quiet}: new comments {sorted(new)}\n{resp.describe()}"


@pytest.mark.rule("COMMENT-PARENT-KINDS", "COMMENT-201-LOCATION", "CONV-PARAM-WINS-COMMENT")
def test_comment_may_be_posted_on_a_question_an_answer_and_a_comment(
        request: pytest.FixtureRequest, member: ApiClient, question_id: int, thread_answer: int, run_tag: str,
        created: Any, plain_comments: PlainComments, created_replies: dict[int, ApiResponse],
        reply_forms: dict[int, str]) -> None:
    """On the answer: member's plain comment on the thread (COMMENT-1 reads the same one); on a comment: the module's
    ``public_reply`` (its fixture fails this rule unless it is a 201; COMMENT-5 and the refusals are tried under it).
    Each 201's Location names its new comment, whatever kind of node it was posted on (blind5, issue 44). The reply's
    body came as a parameter beside a JSON body that says otherwise (conftest.REPLY_FORM): listed under the answer, it
    holds the parameter's text (CONV-PARAM-WINS-COMMENT on a comment whose parent is a comment; blind8, issue 44);
    so does the module's ``inherited_reply``, whose losing body was form-encoded (fix25, issue 44; its fixture fails
    COMMENT-PARENT-KINDS on a 404).
    On the question: member's shared comment on it (suites/conftest.py ``private_comment_on_question``, private to
    moderator; histories3, issue 44: its own plain one was a write that only this test read)."""
    posted: list[tuple[str, ApiResponse]] = []
    for kind, node in (("question", question_id), ("answer", thread_answer)):
        if kind == "answer":
            resp, _ = plain_comment(plain_comments, member, thread_answer, run_tag, created)
        else:
            resp = request.getfixturevalue("private_comment_on_question").resp
        assert resp.status == 201, f"a comment on a {kind} ({node}) must be created (201)\n{resp.describe()}"
        posted.append((kind, resp))
    reply = int(request.getfixturevalue("public_reply"))
    if reply in created_replies:
        posted.append(("comment", created_replies[reply]))
    for kind, resp in posted:
        location_names_the_new_comment(resp, new_id(resp), f"member's comment on a {kind}")
    if reply_forms.get(reply) == "param_wins":
        parameter_won(member, thread_answer, reply, f"comment on a comment [{run_tag}]", created_replies.get(reply))
    inherited = int(request.getfixturevalue("inherited_reply"))  # its losing body form-encoded (fix25, issue 44)
    if reply_forms.get(inherited) == "param_wins":
        parameter_won(member, thread_answer, inherited, f"reply inheriting privacy [{run_tag}]",
                      created_replies.get(inherited))


# ----------------------------------------------------------------------------------------------------------
# observations: where the description is silent, record what the target does

@pytest.mark.observation
@pytest.mark.rule("OBS-COMMENT-OP-AUDIENCE")
def test_who_sees_comments_to_original_poster_and_to_moderators(
        api: dict[str, ApiClient], member: ApiClient, thread_answer: int, question_id: int, run_tag: str,
        created: Any, vis: VisibilityOptions, user_ids: dict[str, int], profile: Profile, observe: Any,
        private_comment_of: Callable[[str, str], Any]) -> None:
    """member's comments of the two options: the run's shared ones (COMMENT-7's control and the permission cells')."""
    posted: dict[str, int | None] = {}
    statuses: dict[str, int] = {}
    under: dict[str, int] = {}  # round51 (issue 44): to_original_poster's is under an answer to member's own question
    for option in ("to_original_poster", "to_moderators"):
        if getattr(vis, option) is None:
            continue  # the profile does not give its wire value
        shared = private_comment_of("member", option)  # the run's shared one (the permission cell's too)
        statuses[option], under[option] = shared.resp.status, int(shared.node or thread_answer)
        posted[option] = new_id(shared.resp) if shared.resp.status == 201 else None
    observe("OBS-COMMENT-OP-AUDIENCE", author="member", post_status=statuses, user_ids=user_ids,
            question_author_id=question_author_id(api["admin"], question_id, profile),
            seen_by=seen_under(api, under, posted),  # where each was posted in words: ids differ from run to run
            under_answer={o: "thread answer" if a == thread_answer else "own question" for o, a in under.items()})


@pytest.mark.observation
@pytest.mark.rule("OBS-REPLY-AUDIENCE")
def test_who_besides_its_recipients_reads_a_reply_that_inherited_private_settings(
        member: ApiClient, moderator: ApiClient, thread_answer: int, recipient_reply: ApiResponse,
        observe: Any) -> None:
    """moderator (the recipient) replies without fields to member's comment private to moderator: the reply inherits
    visibility recipients and recipients [moderator]. Whether member, the author of the private comment it answers
    but not among its recipients, reads it is not stated: recorded."""
    resp = recipient_reply  # the reply COMMENT-3's test reads back too
    observe("OBS-REPLY-AUDIENCE", reply_by="moderator (the recipient)", parent_author="member",
            post_status=resp.status, listed_to_parent_author=listed_to(member, moderator, thread_answer, resp))


@pytest.mark.observation
@pytest.mark.rule("OBS-COMMENT-RESPONSE-BODY")
def test_what_the_201_to_a_posted_comment_carries(
        member: ApiClient, thread_answer: int, run_tag: str, created: Any, observe: Any,
        plain_comments: PlainComments) -> None:
    """member's plain comment on the thread (COMMENT-1 reads the same one)."""
    resp, _ = plain_comment(plain_comments, member, thread_answer, run_tag, created)
    observe("OBS-COMMENT-RESPONSE-BODY", status=resp.status, content_type=resp.content_type, body=body_kind(resp),
            snippet=resp.text[:300])


@pytest.mark.observation
@pytest.mark.rule("OBS-COMMENT-403-BODY")
def test_what_the_403_for_a_private_option_without_permission_carries(
        novice: ApiClient, thread_answer: int, run_tag: str, created: Any, vis: VisibilityOptions,
        observe: Any) -> None:
    resp, _ = observe_post(novice, thread_answer, run_tag, created, text="403 body",
                           visibility=vis.to_moderators or vis.to_original_poster)
    observe("OBS-COMMENT-403-BODY", status=resp.status, content_type=resp.content_type, body=body_kind(resp),
            snippet=resp.text[:300])


@pytest.mark.accepted_writes(2)
@pytest.mark.observation
@pytest.mark.rule("OBS-VISIBILITY-VALUES")
def test_which_visibility_values_the_target_accepts_and_returns(
        admin: ApiClient, thread_answer: int, run_tag: str, created: Any, vis: VisibilityOptions,
        user_ids: dict[str, int], observe: Any, plain_comments: PlainComments,
        private_comment_of: Callable[[str, str], Any]) -> None:
    """The plain comment is admin's on the thread (COMMENT-1 reads the same one); so are admin's comments with the
    private options (the permission table's cells read them too)."""
    plain, _ = plain_comment(plain_comments, admin, thread_answer, run_tag, created)
    full_value = visibility_read_back(admin, thread_answer, plain)
    accepted = statuses_by_visibility_value(admin, thread_answer, run_tag, created, vis, user_ids, private_comment_of)
    observe("OBS-VISIBILITY-VALUES", full_visibility_reads_back_as=full_value, status_by_value=accepted)


@pytest.mark.accepted_writes(1)
@pytest.mark.observation
@pytest.mark.rule("OBS-RECIPIENT-ID-STRING")
def test_whether_recipient_ids_given_as_strings_are_accepted(
        member: ApiClient, thread_answer: int, run_tag: str, created: Any, vis: VisibilityOptions,
        user_ids: dict[str, int], observe: Any) -> None:
    resp, cid = observe_post(member, thread_answer, run_tag, created, text="string recipient id",
                             visibility=vis.recipients, recipients=[str(user_ids["moderator"])])
    read: Any = None
    if cid is not None:
        item = find_item(comments_as(member, thread_answer, showing=[cid]), cid)
        read = None if item is None else {"visibility": item.get("visibility"), "recipients": item.get("recipients")}
    observe("OBS-RECIPIENT-ID-STRING", status=resp.status, read_back=read)


@pytest.mark.accepted_writes(2)
@pytest.mark.observation
@pytest.mark.rule("OBS-LOCKED-COMMENT")
def test_what_a_comment_on_a_locked_node_gets(
        member: ApiClient, novice: ApiClient, locked_by: Callable[[str], Any], run_tag: str, created: Any,
        observe: Any) -> None:
    """On the answer member locked (the run's shared lock of member's own answer, suites/conftest.py)."""
    locked = locked_by("member")
    lock, node = locked.resp, locked.node
    other, _ = observe_post(novice, node, run_tag, created, text="comment by another user on a locked node")
    own, _ = observe_post(member, node, run_tag, created, text="comment by the locker on a locked node")
    observe("OBS-LOCKED-COMMENT", lock_status=lock.status, other_user_comment_status=other.status,
            locker_comment_status=own.status, other_user_body=body_kind(other))


@pytest.mark.accepted_writes(1)
@pytest.mark.observation
@pytest.mark.rule("RECIPIENTS-NO-LIMIT")
def test_what_a_long_recipients_list_gets(
        member: ApiClient, thread_answer: int, run_tag: str, created: Any, vis: VisibilityOptions,
        user_ids: dict[str, int], observe: Any) -> None:
    known = [user_ids[r] for r in ("moderator", "admin", "novice") if r in user_ids]
    recipients = [known[i % len(known)] for i in range(500)]
    resp, _ = observe_post(member, thread_answer, run_tag, created, text="500 recipients",
                           visibility=vis.recipients, recipients=list(recipients))
    observe("RECIPIENTS-NO-LIMIT", recipients=len(recipients), distinct=len(set(recipients)), status=resp.status,
            server_error=resp.status >= 500, body=body_kind(resp))
