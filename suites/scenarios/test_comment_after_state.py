"""Every comment the run posts right after a node's state changed, judged by one model (unwiki25, issue 44;
suites/contract/comment_after_state.py): who may post it, the settings it is read back with, its Location.

Blind rounds 91-93 each wrote a fault on a comment posted after an unwikify (a non-author refused, a plain comment
stored "to the original poster"), and no comment of the run went on a node after its unwikify. The histories:
"unwikified question" (novice's plain comment and member's private one, the option the seed draws since after25, on
member_wiki_node_id (hist26: on the seeds drawing it, member's is a reply to novice's public comment, judged by
COMMENT-5 too), right after member's unwikify: suites/contract/unwikified_node.py ``commented_after_unwikify``)
and "answer in moderation" (novice's plain comment on its answer held in moderation: budget24's, no write more; its
comment-list read stays test_moderated_answer_comment.py's).
"""

from __future__ import annotations

from typing import Any

import pytest
from comment_after_state import (
    CONTENT_NON_RECIPIENTS,
    HISTORIES,
    PLAIN,
    READERS_OF,
    History,
    Posted,
    allowed_rule,
    settings_rule,
)
from comment_reads import is_full_visibility, location_names_the_new_comment, recipient_ids
from question_thread import at_location
from unwikified_node import commented_after_unwikify

from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.support import new_id, private_reader_skip
from qaconform.target.client import ApiClient
from qaconform.target.profile import VisibilityOptions

pytestmark = [pytest.mark.comments, pytest.mark.writes]


def _history(name: str, request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Any,
             user_ids: dict[str, int]) -> History:
    """The history ``name`` as the run made it (a skip saying why where it was not made)."""
    if name == "unwikified question":
        return commented_after_unwikify(request, api, profile, user_ids)
    sent = request.getfixturevalue("comment_on_moderated_answer")
    if sent is None:
        skip(SkipKind.OTHER, "not checked: novice's shared answer (held in moderation) was not created")
    return History(name, int(sent.node), "Caller has Answer questions but not Publish answer | ... | In the "
                   "moderation queue", stated=False, why_not="whether an answer in moderation takes comments is not "
                   "shown (the state table's \"(new comment)\" row names a public node or a question)",
                   comments=(Posted("novice", PLAIN, None, sent.resp),))


def _what(history: History, posted: Posted) -> str:
    kind = "plain comment" if posted.option is PLAIN else f"comment {posted.option} ({posted.value!r})"
    where = f"reply to {posted.reply_to}'s public comment in the thread of" if posted.reply_to else "on"
    return f"{posted.writer}'s {kind} {where} node {history.node} right after its state change ({history.name}: " \
           f"{history.change})"


def _created(history: History) -> list[Posted]:
    """The history's comments answered 201 (a 5xx fails CONV-NO-SERVER-ERROR here; held-back or refused ones are
    the permission test's); a skip naming each where none was created."""
    created = []
    for posted in history.comments:
        if posted.resp is not None and posted.resp.status >= 500:
            fail(["CONV-NO-SERVER-ERROR"], f"{_what(history, posted)} was answered {posted.resp.status}", posted.resp)
        if posted.resp is not None and posted.resp.status == 201:
            created.append(posted)
    if not created:
        skip(SkipKind.OTHER, f"not judged: no comment of the history {history.name!r} was created ("
             + "; ".join(f"{p.writer}: {p.held or p.resp.status if p.resp is not None else p.held}"
                         for p in history.comments) + ")")
    return created


@pytest.mark.rule("PERM-COMMENT", "PERM-COMMENT-PRIVATE", "COMMENT-5", "CONV-NO-SERVER-ERROR")
@pytest.mark.parametrize("name", HISTORIES)
def test_a_caller_the_table_lets_in_may_comment_right_after_a_state_change(
        name: str, request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Any,
        user_ids: dict[str, int]) -> None:
    """'| 1 Post comment | Comment (Other Standard Roles); ... For visibility and recipients: Use Private Comments
    plus one of ...' names no node state: on a question or a published node (the "(new comment)" row) a writer the
    table lets in is not refused after the change."""
    history = _history(name, request, api, profile, user_ids)
    judged = 0
    for posted in history.comments:
        if posted.resp is None:
            continue  # held back by the write budget, or no wire value for its option
        if posted.resp.status >= 500:
            fail(["CONV-NO-SERVER-ERROR"], f"{_what(history, posted)} was answered {posted.resp.status}", posted.resp)
        if not history.stated:
            continue
        judged += 1
        expect(posted.resp.status not in (401, 403), allowed_rule(posted),
               f"{_what(history, posted)} was refused {posted.resp.status}: the permission table lets "
               f"{posted.writer} post it, and no row of the state table closes a question to new comments",
               posted.resp)
    if not judged:
        skip(SkipKind.OTHER, f"not judged: {history.why_not or 'no comment of the history was sent'} ("
             + "; ".join(f"{p.writer}: {p.held or p.resp.status if p.resp is not None else p.held}"
                         for p in history.comments) + ")")


@pytest.mark.rule("COMMENT-201-LOCATION")
@pytest.mark.parametrize("name", HISTORIES)
def test_a_comment_right_after_a_state_change_names_itself_in_its_location(
        name: str, request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Any,
        user_ids: dict[str, int]) -> None:
    """"The Location response header holds the URL of the new comment", whatever the parent went through."""
    history = _history(name, request, api, profile, user_ids)
    for posted in _created(history):
        assert posted.resp is not None
        location_names_the_new_comment(posted.resp, new_id(posted.resp), _what(history, posted))


@pytest.mark.rule("COMMENT-1", "COMMENT-2", "COMMENT-VISIBILITY-RETURNED", "COMMENT-5")
@pytest.mark.parametrize("name", HISTORIES)
def test_a_comment_right_after_a_state_change_reads_back_with_the_settings_it_was_sent_with(
        name: str, request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Any, vis: VisibilityOptions,
        user_ids: dict[str, int]) -> None:
    """COMMENT-1 ("Without visibility and recipients the comment has full visibility and no recipients, and a later
    GET returns exactly that") and COMMENT-VISIBILITY-RETURNED ("Both visibility and recipients are returned when a
    comment is retrieved"), read at the 201's Location by each of the model's readers; a reader the Location is not
    served to judges nothing (LOCATION-READABLE's, a should; a node in moderation may be hidden)."""
    history = _history(name, request, api, profile, user_ids)
    judged = []
    for posted in _created(history):
        assert posted.resp is not None
        comment = new_id(posted.resp)
        named = {str(user_ids[r]) for r in posted.recipients if r in user_ids}
        roles = [r for reader in READERS_OF[posted.option]
                 for r in ((posted.writer,) if reader == "writer" else posted.recipients if reader == "recipient"
                           else (reader,))]
        for role in roles:
            item = at_location(api[role], request, posted.resp)
            if item is None:
                continue
            judged.append(f"{role} read {comment}")
            if posted.option is PLAIN:
                ok = is_full_visibility(item.get("visibility"), vis) and not recipient_ids(item)
                stated = "full visibility and no recipients"
            elif posted.option == "recipients":  # COMMENT-2: "a GET returns the given settings"
                ok = item.get("visibility") == posted.value and recipient_ids(item) == named
                stated = f"visibility {posted.value!r} and recipients {sorted(named)}"
            else:
                ok = item.get("visibility") == posted.value  # recipients of an option: not shown
                stated = f"visibility {posted.value!r}"
            expect(ok, settings_rule(posted),
                   f"{_what(history, posted)}: {role} reads comment {comment} back at its Location with visibility "
                   f"{item.get('visibility')!r} and recipients {item.get('recipients')!r}; it was sent to have "
                   f"{stated}", posted.resp)
    if not judged:
        skip(SkipKind.OTHER, f"not judged: no created comment of the history {history.name!r} was served at its "
                             "Location to its readers (LOCATION-READABLE's to judge)")


@pytest.mark.rule("COMMENT-PRIVACY-CONTENT")
@pytest.mark.parametrize("name", HISTORIES)
def test_a_comment_to_recipients_right_after_a_state_change_stays_out_of_its_authors_content_for_others(
        name: str, request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Any,
        user_ids: dict[str, int]) -> None:
    """after25 (issue 44): "When visibility is recipients and recipients lists ids, the comment is private to those
    recipients": a comment to recipients posted right after the node's state change (the option the seed draws for
    member's comment, seed_draws.AFTER_STATE_OPTIONS) is not in its writer's content list as
    each of :data:`CONTENT_NON_RECIPIENTS` reads it (one read right after the comments, as the privacy model reads its
    lists after each step; a refused read, or a reader the profile may let read every private comment, judges
    nothing). Only the option ``recipients`` names its audience."""
    history = _history(name, request, api, profile, user_ids)
    judged = []
    for posted, reader in ((p, r) for p in _created(history) for r in CONTENT_NON_RECIPIENTS):
        assert posted.resp is not None
        if posted.option != "recipients" or reader in posted.recipients or reader == posted.writer \
                or posted.writer not in user_ids or private_reader_skip(profile, reader):
            continue
        comment = str(new_id(posted.resp))
        resp = api[reader].get(f"users/gdpr/{user_ids[posted.writer]}/content.json", operation="listUserContent")
        entries = resp.json() if resp.status == 200 else None
        if not isinstance(entries, list):
            continue  # who may list another account's content is the profile's (OBS-GDPR-PERMISSIONS)
        judged.append(f"{reader} read {posted.writer}'s content")
        shown = {str(e["node"].get("id")) for e in entries if isinstance(e, dict) and isinstance(e.get("node"), dict)}
        expect(comment not in shown, "COMMENT-PRIVACY-CONTENT",
               f"{_what(history, posted)}: {reader}, not a recipient ({list(posted.recipients)}), is shown comment "
               f"{comment} in {posted.writer}'s content list (users/gdpr/{user_ids[posted.writer]}/content.json), "
               "though it is private to those recipients", resp)
    if not judged:
        skip(SkipKind.OTHER, f"not judged: no comment to recipients of the history {history.name!r} was created on "
                             f"this seed (the option drawn: seed_draws.AFTER_STATE_OPTIONS), or no non-recipient of "
                             f"{list(CONTENT_NON_RECIPIENTS)} the profile keeps from private comments was served its "
                             "writer's content list")


FILTERS: tuple[dict[str, str], ...] = ({"unanswered": "true"},)
"""round99 (issue 44): the question list's own filters a question with no answer matches (list_access.own), read
here; spaceId and the search parameters are the privacy model's (subtree_views.read_views). What unanswered means is
not shown: a list that does not show the node judges nothing."""
NON_READERS = ("novice", "anonymous")
"""Who reads none of the after-state private options (none is named a recipient, none is the original poster or a
moderator): each reads the filtered list right after the writer read the same URL."""
PAGE_SIZE, MAX_PAGES = 40, 10


def _named_by(client: ApiClient, node: int, params: dict[str, str]) -> set[str] | None:
    """The ids ``node``'s item names (commentIds, childrenIds) in the question list read with ``params``, page by
    page up to its page (bounded); None when the list is refused or does not show it."""
    for page in range(1, MAX_PAGES + 1):
        resp = client.get("question.json", params={**params, "page": page, "pageSize": PAGE_SIZE},
                          operation="listQuestions")
        try:
            body = resp.json() if resp.status == 200 else None
        except AssertionError:
            return None
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list) or not items:
            return None
        for item in items:
            if isinstance(item, dict) and str(item.get("id")) == str(node):
                return {str(i) for key in ("commentIds", "childrenIds") for i in item.get(key) or []}
        if len(items) < PAGE_SIZE:
            return None
    return None


@pytest.mark.rule("COMMENT-PRIVACY-IDS")
@pytest.mark.parametrize("name", HISTORIES)
def test_a_private_comment_right_after_a_state_change_stays_out_of_filtered_lists_read_after_its_writer(
        name: str, request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Any,
        user_ids: dict[str, int]) -> None:
    """round99 (issue 44): "Nor does its id appear in the parent's commentIds or childrenIds as seen by that caller"
    (COMMENT-PRIVACY-IDS), in a read order a cache keyed by URL gets wrong: a private comment posted on a question
    right after its state change (member's, the option the seed draws) is named in the question's item of the
    question list filtered by :data:`FILTERS` as its writer reads it; each of :data:`NON_READERS` reads the same URL
    right after and must not be shown its id. Reads only."""
    history = _history(name, request, api, profile, user_ids)
    judged = []
    for posted in _created(history):
        assert posted.resp is not None
        if posted.option is PLAIN:
            continue
        comment = str(new_id(posted.resp))
        for params, reader in ((p, r) for p in FILTERS for r in NON_READERS if r not in posted.recipients):
            seen = _named_by(api[posted.writer], history.node, params)
            if seen is None or comment not in seen:
                continue  # the writer's read does not name it: nothing a later reader could be shown from it
            shown = _named_by(api[reader], history.node, params)
            judged.append(f"{reader} after {posted.writer} with {params}")
            expect(shown is None or comment not in shown, "COMMENT-PRIVACY-IDS",
                   f"{_what(history, posted)}: {reader}, right after {posted.writer} read the question list with "
                   f"{params}, is shown comment {comment} in question {history.node}'s commentIds or childrenIds, "
                   "though it may not see it", posted.resp)
    if not judged:
        skip(SkipKind.OTHER, f"not judged: no private comment of the history {history.name!r} was named in a list "
                             f"filtered by {list(FILTERS)} as its writer read it")
