"""Write handler of a comment (1) and the comment rules 1-7 of the description: defaults, inheritance from a
private parent comment, the 400s, and the permissions of the private options.

Order of checks: who is calling (401) and what they may do (403, the route table), what they sent (400/413/415),
which node (404), then the comment rules. The one exception the description fixes: the 403 of a private option
comes before the 400s of comment rules 4 and 6.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import (
    auth,
    blind7_paths,
    blind8_paths,
    blind_perms,
    blind_round10,
    blind_round11,
    blind_round12,
    blind_round13,
    blind_round16,
    blind_round20,
    blind_round26,
    blind_round30,
    blind_round31,
    blind_round32,
    blind_round33,
    blind_round38,
    blind_round40,
    blind_round41,
    blind_round42,
    blind_round45,
    combos2_paths,
    faults,
    fix32_paths,
    fix33_paths,
    histories2_faults,
    histories3_faults,
    histories4_paths,
    histories5_paths,
    history_faults,
    reads16_paths,
    recip_paths,
    refusals2_paths,
    variants,
)
from .auth import Caller
from .bodies import read_fields, stored_body, structured, text_field
from .db import as_id
from .errors import bad_request, conflict, denied
from .http_io import created_location, json_response, path_id
from .service import Service, now_ms
from .visibility import internal_name

INHERITED_MESSAGE = "Visibility on comment can't be defined since it's inherited"


async def post_comment(svc: Service, request: Request, caller: Caller) -> Response:
    fields = await read_fields(request)
    combos2_paths.note_fields(request, fields)  # combos2 (issue 44)
    refusals2_paths.body_fields("postComment", request, fields)  # refusals2 (issue 44)
    if faults.is_on("comment-params-ignored"):
        fields = {k: v for k, v in fields.items() if k not in request.query_params}
    kinds: tuple[str, ...] = ("question", "answer", "comment")
    if faults.is_on("comment-on-comment-refused"):
        kinds = ("question", "answer")
    parent = svc.visible_node(caller, path_id(request), kinds)
    blind_perms.comment_admits(caller, parent)  # blindp (issue 44): the door let anonymous in
    blind7_paths.comment_parent(parent)  # blind7 (issue 44)
    blind_round12.comment_parent(caller, parent)  # round12 (issue 44)
    fix33_paths.comment_parent(caller, parent)  # fix33 (issue 44): a comment on a wiki node refused
    blind_round38.explicit_full_refused(caller, parent, fields)  # round38 (issue 44): full named
    blind_round41.comment_parent(svc.db, parent)  # round41 (issue 44): a reply under a question's comment
    if parent["locked"] and not caller.anonymous and variants.is_on("locked-node-refuses-posts"):
        raise conflict(f"node {parent['id']} is locked: it takes no new comments")
    required = blind_round13.body_required(parent, _body_required(request))  # round13 (issue 44)
    required = blind_round16.comment_body_required(fields, required)  # round16 (issue 44)
    required = blind_round33.comment_body_required(caller, required)  # round33 (issue 44)
    required = blind_round42.comment_body_required(parent, fields, required)  # round42 (issue 44): null
    body = stored_body(text_field(fields, "body", required=required) or "")
    if faults.is_on("comment-body-astral-dropped"):
        body = "".join(ch for ch in body if ord(ch) <= 0xFFFF)
    body = histories4_paths.comment_body(request, caller, body)  # histories4 (issue 44): one path's non-ASCII
    visibility, recipients = _privacy(svc, blind_perms.privacy_caller(request, caller), parent, fields,
                                      frozenset(request.query_params))  # blindp (issue 44): the form path
    form_body = request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded")
    author = int(parent["author_id"]) if form_body and faults.is_on(
        "blind5-comment-form-author-is-parent-author") else caller.id  # blind5 (issue 44)
    comment_id = _insert_comment(svc, caller, parent, body, visibility, recipients, author)
    blind_round42.comment_posted(parent, fields, comment_id)  # round42 (issue 44): recipient ids as text
    reads16_paths.comment_posted(parent, fields, comment_id)  # reads16 (issue 44 item 2): the first recipient
    item = svc.render.nodes_json(svc.render.nodes_by_ids([comment_id]), caller)[0]
    shown_id = comment_id
    if parent["type"] == "comment" and faults.is_on("blind5-reply-location-names-parent"):  # blind5 (issue 44)
        shown_id = int(parent["id"])
    location = created_location(request, "comment", shown_id, parent["question_id"])
    form = request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded")  # writecross
    dropped = faults.is_on("comment-location-missing") or (form and faults.is_on("comment-location-missing-form"))
    headers = {} if dropped else {"Location": location}
    both_ways = "body" in request.query_params and "json" in request.headers.get("content-type", "")
    status = 200 if faults.is_on("comment-created-200") or (
        both_ways and faults.is_on("comment-param-wins-created-200")) else 201
    if variants.is_on("comment-201-empty"):
        return Response(b"", status_code=status, headers=headers)
    if variants.is_on("comment-201-id-only"):
        return json_response({"id": str(comment_id)}, status, headers)
    return json_response(item, status, headers)


def _body_required(request: Request) -> bool:
    """Whether a missing body is refused: always, but for the planted faults that forget it (in every form, or in a
    form-encoded request only)."""
    if faults.is_on("comment-body-optional"):
        return False
    form = request.headers.get("content-type", "").split(";")[0].strip().lower() == "application/x-www-form-urlencoded"
    return not (form and faults.is_on("comment-form-body-optional"))


def _last_privacy_faults(parent: sqlite3.Row, caller: Caller, fields: dict[str, Any],
                         privacy: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """The planted faults that change the privacy every rule has decided, in their order (a step of its own so that
    ``_privacy`` stays one screen: tests/reference/test_reference_layout.py)."""
    visibility, recipients = blind_round33.own_answer_default(parent, caller, fields, privacy)  # round33 (issue 44)
    recipients = blind_round13.reply_recipients(parent, fields, visibility, recipients)  # round13
    recipients = recipients[:1] if faults.is_on("comment-recipients-first-only") else recipients
    return blind_round32.locked_answer_privacy(parent, visibility, recipients)  # round32 (issue 44)


def _privacy_fields(parent: sqlite3.Row, fields: dict[str, Any]) -> dict[str, Any]:
    """The fields the privacy rules read, as the site's variant and the faults that drop or refuse them leave them."""
    if faults.is_on("comment-privacy-fields-refused") and ("visibility" in fields or "recipients" in fields):
        raise bad_request("unknown field 'visibility' or 'recipients'")
    if variants.is_on("no-private-comments"):
        fields = {k: v for k, v in fields.items() if k not in ("visibility", "recipients")}
    fields = blind_round20.reply_fields(parent, fields)  # round20 (issue 44): recipients dropped under a reply
    fields = recip_paths.question_recipients(parent, fields)  # recip (issue 44): a mixed list under a question
    return blind_round38.reply_fields(parent, fields)  # round38 (issue 44): string ids on a public reply


def _privacy(svc: Service, caller: Caller, parent: sqlite3.Row, fields: dict[str, Any],
             from_query: frozenset[str] = frozenset()) -> tuple[str, list[int]]:
    """The visibility and recipients the new comment gets (comment rules 1-7), recipients checked to exist."""
    fields = _privacy_fields(parent, fields)
    visibility = _visibility(fields)
    recipients = _recipients(fields)
    if not (_blind_permission_skipped(caller, parent, visibility)
            or history_faults.permission_skipped(parent, caller)  # blindh (issue 44)
            or blind8_paths.option_check_skipped(caller, from_query)  # blind8 (issue 44)
            or blind_round10.option_check_skipped(caller, parent, visibility)  # blind10 (issue 44)
            or blind_round11.private_check_skipped(caller, from_query)  # round11 (issue 44)
            or combos2_paths.option_check_skipped(caller, parent, visibility)  # combos2 (issue 44)
            or blind_round30.option_check_skipped(caller, parent, visibility)  # round30 (issue 44)
            or blind_round40.option_check_skipped(svc, caller, parent, visibility)):  # round40 (issue 44)
        _check_private_permission(blind_round11.option_checked_for(svc.db, caller, parent), visibility)  # round11
    blind7_paths.mod_option_refused(caller, parent, visibility)  # blind7 (issue 44)
    blind_round13.private_reply_refused(caller, parent, visibility)  # round13 (issue 44)
    visibility = _blind_reply_before(svc, parent, fields, visibility, recipients)
    if (parent["type"] == "comment" and parent["visibility"] != "full" and _has_string_id(fields)
            and faults.is_on("blind-reply-same-recipients-string-refused")):  # blindw (issue 44): ids as strings
        raise bad_request(INHERITED_MESSAGE)
    if ("visibility" in from_query and parent["type"] == "comment" and parent["visibility"] != "full"
            and faults.is_on("comment-reply-visibility-param-unchecked")):
        visibility = None  # the parameter dropped for a reply: it inherits, as if no visibility were given
    histories2_faults.same_fields_refused(parent, visibility, recipients)  # histories2 (issue 44)
    visibility = histories2_faults.reply_visibility(parent, visibility)  # histories2 (issue 44)
    visibility = histories3_faults.reply_checked(parent, visibility, recipients)  # histories3 (issue 44)
    recipients = blind_round26.admin_recipients(caller, visibility, recipients)  # round26 (issue 44)
    final_visibility, final_recipients = _effective_privacy(svc, parent, visibility, recipients)
    if faults.is_on("comment-privacy-ignored"):
        final_visibility, final_recipients = "full", []  # a server from before 2.16.0: the fields mean nothing
    if final_visibility == "full" and visibility is None and caller.role == "moderator" and faults.is_on(
        "comment-default-visibility-by-role"
    ):
        final_visibility = "mod"
    plain = "visibility" not in fields and "recipients" not in fields  # writecross (issue 44): the query form only
    if plain and "body" in from_query and faults.is_on("comment-query-default-op"):
        final_visibility = "op"
    if plain and parent["locked"] and faults.is_on("blind-locked-node-comment-default-mod"):  # budget (issue 44)
        final_visibility = "mod"
    final_visibility, final_recipients = _blind_reply_after(svc, caller, parent, visibility, final_visibility,
                                                            final_recipients)
    final_visibility, final_recipients = history_faults.comment_privacy(  # blindh (issue 44)
        parent, visibility, recipients, (final_visibility, final_recipients))
    final_visibility, final_recipients = blind_round11.reply_default_privacy(  # round11 (issue 44)
        parent, "visibility" in fields or "recipients" in fields, (final_visibility, final_recipients))
    final_visibility, final_recipients = _stored_privacy_faults(svc, parent, (final_visibility, final_recipients))
    final_visibility, final_recipients = blind_round40.deep_reply_privacy(  # round40 (issue 44): a reply to a reply
        svc, parent, (final_visibility, final_recipients))
    final_visibility, final_recipients = _last_privacy_faults(parent, caller, fields,
                                                              (final_visibility, final_recipients))
    missing = [r for r in final_recipients if not svc.user_exists(r)]
    if missing:
        raise bad_request(f"recipient {missing[0]} is not a user; give ids of existing users")
    return final_visibility, final_recipients


def _stored_privacy_faults(svc: Service, parent: sqlite3.Row, final: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """The settings a reply is stored with, as the history faults change them (each a no-op unless its fault is on)."""
    final = histories2_faults.stored_privacy(parent, final)  # histories2 (issue 44)
    final = histories3_faults.stored_privacy(parent, final)  # histories3 (issue 44)
    final = histories5_paths.stored_privacy(svc.db, parent, final)  # histories5 (issue 44)
    final = blind_round38.stored_privacy(parent, final)  # round38 (issue 44): a moderated private parent
    return fix32_paths.stored_privacy(parent, final)  # fix32 (issue 44): a question's own thread


def _insert_comment(
    svc: Service, caller: Caller, parent: sqlite3.Row, body: str, visibility: str, recipients: list[int],
    author: int | None = None,
) -> int:
    """Stores the comment and its recipients, counts it on its parent, its question and its author."""
    created = now_ms()
    answer_id = parent["id"] if parent["type"] == "answer" else parent["answer_id"]
    if (parent["type"] == "answer" and parent["author_id"] == caller.id
            and faults.is_on("blind5-own-answer-comment-unlisted")):  # blind5 (issue 44)
        answer_id = None
    if parent["type"] == "answer" and faults.is_on("comment-on-answer-unlinked"):
        answer_id = None
    with svc.tx("comment") as conn:
        cur = conn.execute(
            "INSERT INTO nodes(type, parent_id, question_id, answer_id, space_id, author_id, body, creation_date,"
            " last_active_date, last_active_user_id, depth, visibility) VALUES"
            " ('comment', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (parent["id"], parent["question_id"], answer_id, parent["space_id"],
             caller.id if author is None else author, body, created, created,
             caller.id, parent["depth"] + 1, visibility),
        )
        comment_id = int(cur.lastrowid or 0)
        svc.list_later(conn, comment_id, "comment")
        conn.executemany(
            "INSERT INTO comment_recipients(comment_id, user_id) VALUES (?, ?)",
            [] if faults.is_on("comment-recipients-dropped") else [(comment_id, r) for r in recipients],
        )
        conn.execute("UPDATE nodes SET comment_count = comment_count + 1 WHERE id = ?", (parent["id"],))
        conn.execute(
            "UPDATE nodes SET last_active_date = ?, last_active_user_id = ?, hot = hot + 1 WHERE id = ?",
            (created, caller.id, parent["question_id"]),
        )
        conn.execute("UPDATE users SET post_count = post_count + 1 WHERE id = ?", (caller.id,))
    return comment_id


def _visibility(fields: dict[str, Any]) -> str | None:
    if "visibility" not in fields:
        return None
    value = fields["visibility"]
    if not isinstance(value, str):
        raise bad_request(f"'visibility' must be a string, not {type(value).__name__}")
    internal = internal_name(value)
    if internal is None:
        raise bad_request(f"'visibility' {value[:40]!r} names no visibility option of this site")
    return internal


def _recipients(fields: dict[str, Any]) -> list[int]:
    if "recipients" not in fields:
        return []
    raw = fields["recipients"]
    if isinstance(raw, str) and raw.strip().startswith(("[", "{")) and variants.is_on("recipients-param-id-list"):
        raise bad_request("'recipients' as a parameter is a comma-separated list of ids, like 5,7")  # forms25
    value = structured(fields, "recipients")
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list):
        raise bad_request("'recipients' must be an array of objects with an id, like [{\"id\": 5}]")
    ids: list[int] = []
    for item in blind7_paths.recipients_typed_by_first(value):  # blind7 (issue 44)
        raw = item.get("id") if isinstance(item, dict) else item
        if isinstance(raw, str) and isinstance(item, dict) and faults.is_on("comment-recipient-string-id-refused"):
            raise bad_request(f"recipient id {raw[:20]!r} must be a number")
        ident = as_id(raw)
        if ident is not None:
            ids.append(ident)
        else:
            raise bad_request(f'each recipient needs a numeric id, like {{"id": 5}}; got {str(item)[:60]!r}')
    return sorted(set(ids))


def _has_string_id(fields: dict[str, Any]) -> bool:
    """Whether the recipients sent hold an id given as a string (planted fault blind-reply-same-recipients-string-
    refused, faults_blind_writes.py)."""
    value = structured(fields, "recipients") if "recipients" in fields else None
    return isinstance(value, list) and any(isinstance(i, dict) and isinstance(i.get("id"), str) for i in value)


def _check_private_permission(caller: Caller, visibility: str | None) -> None:
    """Comment rule 7: a private option needs Use Private Comments and the option's own permission (403)."""
    if visibility in (None, "full"):
        return
    if caller.role == "member" and faults.is_on("comment-private-denied-to-member"):
        raise denied(caller.anonymous)
    if not caller.can(auth.USE_PRIVATE_COMMENTS):
        if faults.is_on("comment-private-without-permission"):
            return
        raise denied(caller.anonymous, stated_403=True)
    if faults.is_on("comment-option-permission-ignored"):
        return
    if visibility == "recipients":
        if not any(caller.can(p) for p in auth.PRIVATE_OPTION_PERMISSION.values()):
            raise denied(caller.anonymous, stated_403=True)
    elif not caller.can(auth.PRIVATE_OPTION_PERMISSION[str(visibility)]):
        raise denied(caller.anonymous, stated_403=True)


def _parent_is_reply(svc: Service, parent: sqlite3.Row) -> bool:
    grand = svc.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
    return grand is not None and grand["type"] == "comment"


def _depth_below_private(svc: Service, parent: sqlite3.Row) -> int:
    """How deep a reply to ``parent`` sits below the first private comment of its chain (1: a reply to it)."""
    depth, node = 0, parent  # type: tuple[int, sqlite3.Row | None]
    while node is not None and node["type"] == "comment" and node["visibility"] != "full":
        depth += 1
        node = svc.db.one("SELECT * FROM nodes WHERE id = ?", (node["parent_id"],))
    return depth


def _effective_privacy(
    svc: Service, parent: sqlite3.Row, visibility: str | None, recipients: list[int]
) -> tuple[str, list[int]]:
    """Comment rules 1-6: defaults, inheritance from a private parent comment, and the 400s."""
    if blind_round45.locked_thread_reply(svc.db, parent, visibility):  # round45 (issue 44): under a locked answer
        return str(visibility), recipients
    if parent["type"] == "comment" and parent["visibility"] != "full":
        return _inherited_privacy(svc, parent, visibility, recipients)
    blind_round31.public_reply_refused(parent, visibility)  # round31 (issue 44)
    if parent["type"] == "comment" and visibility is not None and faults.is_on("comment-reply-to-public-refused"):
        raise bad_request(INHERITED_MESSAGE)
    if (parent["type"] == "comment" and visibility not in (None, "full", "recipients")
            and faults.is_on("comment-reply-to-public-only-recipients")):
        raise bad_request(INHERITED_MESSAGE)
    if (recipients and visibility == "op" and parent["type"] == "question"
            and faults.is_on("blindt-recipients-with-op-on-question-accepted")):
        return "op", []
    if recipients and visibility == "mod" and faults.is_on("comment-recipients-with-mod-accepted"):
        return "mod", recipients
    if recipients and visibility == "full" and faults.is_on("blind5-recipients-with-explicit-full-accepted"):
        return "full", []  # blind5 (issue 44): only an absent visibility was thought of as "not recipients"
    if recipients and visibility != "recipients" and faults.is_on("comment-recipients-without-visibility-accepted"):
        return visibility or "full", []
    if recipients and visibility != "recipients":
        raise bad_request("'recipients' may only be given with visibility 'recipients'")
    if visibility == "recipients" and not recipients:
        raise bad_request("visibility 'recipients' needs at least one recipient, like [{\"id\": 5}]")
    return visibility or "full", recipients


def _inherited_privacy(
    svc: Service, parent: sqlite3.Row, visibility: str | None, recipients: list[int]
) -> tuple[str, list[int]]:
    """Comment rules 3 and 4: a reply to a private comment inherits its privacy and may not change it."""
    inherited = svc.db.ids(
        "SELECT user_id FROM comment_recipients WHERE comment_id = ? ORDER BY user_id", (parent["id"],)
    )
    if visibility is None and not recipients:
        if faults.is_on("comment-reply-not-inherited"):
            return "full", []
        if parent["answer_id"] is None and faults.is_on("blindt-reply-under-question-not-inherited"):
            return "full", []
        if faults.is_on("reply-to-reply-loses-privacy") and _parent_is_reply(svc, parent):
            return "full", []
        if parent["answer_id"] is None and faults.is_on("blind-question-thread-reply-public"):  # blindw (issue 44)
            return "full", []
        if blind_round33.locked_parent_public(parent):  # round33 (issue 44): after a lock
            return "full", []
        return parent["visibility"], inherited
    if faults.is_on("comment-reply-other-visibility-accepted") and visibility is not None:
        return visibility, recipients
    if (visibility is not None and visibility != parent["visibility"]
            and faults.is_on("reply-depth3-visibility-accepted") and _depth_below_private(svc, parent) == 3):
        return visibility, recipients
    if visibility == parent["visibility"] and (not recipients or recipients == inherited):
        if faults.is_on("reply-depth2-no-inherit") and _depth_below_private(svc, parent) == 2:
            return "full", []
        return parent["visibility"], inherited
    if visibility is None:
        raise bad_request("'recipients' may only be given with visibility 'recipients'")
    blind7_paths.reply_visibility_refused(parent, visibility)  # blind7 (issue 44)
    blind_round13.inherited_refusal(svc, parent)  # round13 (issue 44)
    blind_round32.inherited_refusal(parent)  # round32 (issue 44): a thread under a question
    if faults.is_on("comment-inherited-message-wrong"):
        raise bad_request("visibility may not be changed on a reply")
    raise bad_request(INHERITED_MESSAGE)


# --- second blind round on comment threads (issue 44, blindt): the planted bugs of faults_blind_threads.py
def _blind_permission_skipped(caller: Caller, parent: sqlite3.Row, visibility: str | None) -> bool:
    """Whether a planted bug skips comment rule 7 for this parent: the group option on a reply to a public comment
    for a caller with Use Private Comments, or any private option on a question for a caller without it."""
    if visibility in (None, "full") or caller.anonymous:
        return False
    if (visibility == "group" and parent["type"] == "comment" and parent["visibility"] == "full"
            and caller.can(auth.USE_PRIVATE_COMMENTS) and faults.is_on("blindt-member-group-on-reply-accepted")):
        return True
    return (parent["type"] == "question" and not caller.can(auth.USE_PRIVATE_COMMENTS)
            and faults.is_on("blindt-novice-private-on-question-accepted"))


def _blind_reply_before(svc: Service, parent: sqlite3.Row, fields: dict[str, Any], visibility: str | None,
                        recipients: list[int]) -> str | None:
    """The planted bugs that judge a reply to a private comment before the rules: recipients compared in the order
    sent (400), or an explicit full visibility taken as absent (the visibility then returned is None)."""
    if parent["type"] != "comment" or parent["visibility"] == "full":
        return visibility
    if visibility == "full" and faults.is_on("blindt-reply-explicit-full-inherits"):
        return None
    if visibility == parent["visibility"] and recipients and faults.is_on("blindt-reply-same-recipients-reordered-400"):
        raw = structured(fields, "recipients")
        ids = [as_id(i.get("id") if isinstance(i, dict) else i) for i in raw] if isinstance(raw, list) else []
        sent = [i for i in ids if i is not None]
        if sent != sorted(sent):
            raise bad_request(INHERITED_MESSAGE)
    return visibility


def _blind_reply_after(svc: Service, caller: Caller, parent: sqlite3.Row, visibility: str | None,
                       final_visibility: str, final_recipients: list[int]) -> tuple[str, list[int]]:
    """The planted bugs that change a reply's privacy once decided: inherited recipients sent back to the parent's
    author, or the own privacy of a reply to a public reply dropped."""
    if parent["type"] != "comment":
        return final_visibility, final_recipients
    if (parent["visibility"] == "recipients" and visibility is None and caller.id != parent["author_id"]
            and faults.is_on("blindt-reply-by-recipient-back-to-sender")):
        return final_visibility, [int(parent["author_id"])]
    if (parent["visibility"] == "full" and final_visibility == "recipients" and visibility == "recipients"
            and faults.is_on("blind5-reply-public-recipients-to-parent-author")):  # blind5 (issue 44)
        return final_visibility, [int(parent["author_id"])]
    if (parent["visibility"] == "full" and final_visibility != "full" and _parent_is_reply(svc, parent)
            and faults.is_on("blindt-reply-to-public-reply-drops-visibility")):
        return "full", []
    return final_visibility, final_recipients
