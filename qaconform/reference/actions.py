"""Write handlers of the node actions: unmark favorite (10), cancel wiki (11), send to moderation (12), lock (13).

Each answers ``{"success": true, "result": {"<kind>Action": <action record>}}``. Who may act is the route table's
(app.py); lock and cancel wiki also admit a caller to their own posts only (:func:`access.require_owner`).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import (
    access,
    auth,
    blind7_paths,
    blind_perms,
    blind_round11,
    blind_round13,
    blind_round14,
    blind_round15,
    blind_round31,
    blind_round32,
    blind_round33,
    blind_round34,
    blind_round35,
    blind_round36,
    blind_round37,
    blind_round38,
    blind_round41,
    blind_round42,
    blind_round43,
    blind_round44,
    blind_round45,
    blind_round46,
    combos_perms,
    faults,
    fix32_paths,
    histories5_paths,
    histories6_paths,
    history_faults,
    paths13_paths,
    paths15_paths,
    variants,
)
from .auth import Caller
from .errors import ApiError, bad_request, conflict, denied, not_found
from .http_io import client_ip, json_response, path_id
from .service import Service, now_ms

ACTION_SHAPE_FAULTS = {
    "favoriteAction": ("unfavorite-action-id-missing", "id"),
    "wikifyAction": ("cancelwiki-action-private-missing", "private"),
    "sendToModAction": ("sendtomod-action-extra-missing", "extra"),
    "lockAction": ("lock-action-canceled-missing", "canceled"),
}
"""Planted shape bugs of one action response each (faults.py): the record lacks the named field."""


def _record_action(
    conn: sqlite3.Connection,
    verb: str,
    caller: Caller,
    node_id: int,
    ip: str,
    *,
    extra: str | None = None,
    private: bool = False,
    real_user: bool = False,
) -> int:
    cur = conn.execute(
        "INSERT INTO actions(verb, user_id, real_user_id, node_id, ip, action_date, extra, private)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (verb, caller.id, caller.id if real_user else None, node_id, ip, now_ms(), extra, int(private)),
    )
    return int(cur.lastrowid or 0)


def _last_action(svc: Service, verb: str, node_id: int, user_id: int | None, canceled: bool = False) -> int | None:
    """The newest ``verb`` action on the node (by ``user_id`` when given), for the repeat variants."""
    row = svc.db.one(
        "SELECT id FROM actions WHERE verb = ? AND node_id = ? AND (? IS NULL OR user_id = ?) AND canceled = ?"
        " ORDER BY id DESC LIMIT 1",
        (verb, node_id, user_id, user_id, int(canceled)),
    )
    return None if row is None else int(row[0])


def _result(svc: Service, key: str, action_id: int, node: sqlite3.Row, success: bool = True,
            drop: str | None = None, **extra: Any) -> Response:
    row = svc.db.one("SELECT * FROM actions WHERE id = ?", (action_id,))
    assert row is not None
    action = svc.render.action_json(row, node["type"])
    if drop is not None:  # blinda (issue 44): a field one path's record lacks
        action.pop(drop, None)
    _blind_record(svc, key, node, action)
    blind_round45.sendtomod_record(svc, key, node, row["user_id"], action)  # round45 (issue 44): a question
    blind_round32.lock_record(key, node, action)  # round32 (issue 44): one node kind's record
    blind_round33.lock_record(key, node, action)  # round33 (issue 44): an answer's lock record
    blind_round38.action_record(key, row, node, action)  # round38 (issue 44): a cancel by another, a comment
    if (key == "wikifyAction" and row["canceled_by"] is not None and row["canceled_by"] != node["author_id"]
            and faults.is_on("blind5-cancelwiki-node-id-action-id")):  # blind5 (issue 44)
        action["node"]["id"] = action_id
    if node["type"] == "comment" and faults.is_on("action-node-type-comment"):
        action["node"]["type"] = "answer"
    if node["type"] == "comment" and faults.is_on("action-record-no-ip-on-comments"):
        action.pop("ip", None)
    user_fault = {"answer": "action-user-answer", "comment": "action-user-comment"}.get(node["type"])
    if user_fault is not None and faults.is_on(user_fault):
        author = svc.render.users_by_id({node["author_id"]})[node["author_id"]]
        action["user"] = svc.render.action_user_json(author)
    fault, field = ACTION_SHAPE_FAULTS[key]
    if faults.is_on(fault):
        del action[field]
    lock_of_comment = key == "lockAction" and node["type"] == "comment"  # writecross (issue 44): one path each
    if lock_of_comment and faults.is_on("lock-actiondate-epoch-on-comments"):
        action["actionDate"] = str(row["action_date"])
    if lock_of_comment and faults.is_on("lock-private-string-on-comments"):
        action["private"] = str(action["private"]).lower()
    if faults.is_on("action-success-missing") or (lock_of_comment and faults.is_on("lock-success-missing-on-comments")):
        return json_response({"result": {key: action, **extra}})
    return json_response({"success": success, "result": {key: action, **extra}})


def _blind_record(svc: Service, key: str, node: sqlite3.Row, action: dict[str, Any]) -> None:
    """blinda (issue 44, faults_blind_actions.py): the record of one node kind or state built wrongly."""
    moderated = node["in_moderation"] and node["type"] != "question"
    if key == "lockAction" and moderated and faults.is_on("blind-lock-moderated-names-question"):
        action["node"]["id"] = node["question_id"]
    if key == "sendToModAction" and node["type"] == "answer" and faults.is_on("blind-sendtomod-realuser-answer-author"):
        author = svc.render.users_by_id({node["author_id"]})[node["author_id"]]
        action["realUser"] = svc.render.action_user_json(author)


def _noop_repeat() -> bool | None:
    """How a repeat that finds the earlier action answers: 200 with it (repeat-is-noop: success true; the variant
    repeat-is-success-false: success false, nothing changed), or None when neither variant is on."""
    if variants.is_on("repeat-is-noop"):
        return True
    return False if variants.is_on("repeat-is-success-false") else None


def _refuse_repeat(message: str) -> None:
    """Raise the refusal of the active repeat-is-400/409/422 variant, if one is on."""
    if variants.is_on("repeat-is-400"):
        raise ApiError(400, {"error": message})
    if variants.is_on("repeat-is-409"):
        raise conflict(message)
    if variants.is_on("repeat-is-422"):
        raise ApiError(422, {"error": message})


def _repeat(svc: Service, verb: str, key: str, node: sqlite3.Row, message: str) -> Response | None:
    """An action repeated on a node already in its state: 200 with a new action by default (None here), the
    earlier action under the variant repeat-is-noop, 400/409/422 under repeat-is-400/409/422."""
    earlier = _last_action(svc, verb, node["id"], None)
    success = _noop_repeat()
    if success is not None and earlier is not None:
        return _result(svc, key, earlier, node, success)
    _refuse_repeat(message)
    return None


def _question_author(svc: Service, node: sqlite3.Row) -> int | None:
    """The author of the question a node is under (the question's own for a question): what the relation faults
    take for the node's owner."""
    row = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node["question_id"],))
    return None if row is None else int(row["author_id"])


def _favorite_count(svc: Service, node_id: int) -> int:
    count = svc.db.one("SELECT favorite_count FROM nodes WHERE id = ?", (node_id,))
    return count[0] if count else 0


# --- 10 Unmark favorite -------------------------------------------------------------------------------------
async def unfavorite_state_first(svc: Service, request: Request, caller: Caller) -> None:
    """Under the variant state-before-permission: a node that is not the caller's favorite is a 404 before the
    permission check."""
    node = svc.visible_node(caller, path_id(request))
    mine = svc.db.one("SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"]))
    if mine is None:
        raise not_found(f"node {node['id']} is not a favorite of yours; nothing to unmark")


async def unmark_favorite(svc: Service, request: Request, caller: Caller) -> Response:
    node = svc.visible_node(caller, path_id(request))
    combos_perms.refuse_at_cell(svc, "unmarkFavorite", caller, node)  # combos (issue 44)
    fav = svc.db.one("SELECT * FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"]))
    if caller.role == "member" and faults.is_on("unfavorite-member-refused-as-404"):
        fav = None
    if fav is None and caller.role == "novice" and faults.is_on("unfavorite-allowed-novice"):
        # let in, and answered as if it had worked: a refusal by state (404) would be an allowed order of checks
        return json_response({"success": True, "result": {"favoriteCount": _favorite_count(svc, node["id"])}})
    if fav is None:
        message = f"node {node['id']} is not a favorite of {caller.username}; nothing to unmark"
        earlier = _last_action(svc, "favorited", node["id"], caller.id, canceled=True)
        success = _noop_repeat()
        if success is not None and earlier is not None:
            return _result(svc, "favoriteAction", earlier, node, success,
                           favoriteCount=_favorite_count(svc, node["id"]))
        _refuse_repeat(message)
        raise not_found(message)
    fav = blind_round38.unfavorite_row(svc.db, node, fav)  # round38 (issue 44): the newest holder's
    if faults.is_on("unfavorite-first-users-favorite"):
        first = svc.db.one("SELECT * FROM favorites WHERE node_id = ? ORDER BY user_id LIMIT 1", (node["id"],))
        fav = first or fav
    with svc.tx("favorite") as conn:
        conn.execute("DELETE FROM favorites WHERE user_id = ? AND node_id = ?", (fav["user_id"], node["id"]))
        if faults.is_on("unfavorite-clears-everyone"):
            conn.execute("DELETE FROM favorites WHERE node_id = ?", (node["id"],))
            conn.execute("UPDATE nodes SET favorite_count = 1 WHERE id = ?", (node["id"],))
        if not faults.is_on("unfavorite-not-canceled") and history_faults.unfavorite_cancels(conn, node["id"]):
            other = node["author_id"] != caller.id and faults.is_on("blind5-unfavorite-canceledby-node-author")
            conn.execute(
                "UPDATE actions SET canceled = 1, canceled_by = ?, canceled_date = ? WHERE id = ?",
                (node["author_id"] if other else caller.id, now_ms(), fav["action_id"]),  # blind5 (issue 44)
            )
        if faults.is_on("blind-unfavorite-count-zeroed"):  # blindw (issue 44): wrong while another holds one
            conn.execute("UPDATE nodes SET favorite_count = 0 WHERE id = ?", (node["id"],))
        elif not faults.is_on("unfavorite-count-stale"):
            conn.execute("UPDATE nodes SET favorite_count = MAX(favorite_count - 1, 0) WHERE id = ?", (node["id"],))
    count = _favorite_count(svc, node["id"])
    if faults.is_on("blindt-unfavorite-count-callers-only"):  # blindt: the caller's own favorites, not the node's
        mine = svc.db.one("SELECT COUNT(*) FROM favorites WHERE node_id = ? AND user_id = ?", (node["id"], caller.id))
        count = mine[0] if mine else 0
    count = history_faults.favorite_count(node["id"], count)  # blindh (issue 44)
    count = blind_round33.unfavorite_count(node, count)  # round33 (issue 44)
    return _result(svc, "favoriteAction", fav["action_id"], node, blind_round13.unfavorite_success(count),
                   favoriteCount=count)  # round13 (issue 44): success


# --- 11 Cancel wiki -----------------------------------------------------------------------------------------
async def cancelwiki_state_first(svc: Service, request: Request, caller: Caller) -> None:
    """Under the variant state-before-permission: a node that is not wiki is a 400 before the permission check."""
    if not svc.visible_node(caller, path_id(request))["wiki"]:
        raise bad_request("the node is not a community wiki; there is nothing to cancel")


async def cancel_wiki(svc: Service, request: Request, caller: Caller) -> Response:
    node = svc.visible_node(caller, path_id(request))
    try:  # blindp (issue 44): the any-node permission and the refusal as the planted faults decide them
        access.require_owner("cancelWiki", caller, node["author_id"] == caller.id or (  # round41 (issue 44)
            blind_round41.cancelwiki_owns(svc.db, caller, node) or blind_round42.cancelwiki_owns(svc.db, caller, node)
            or blind_round43.cancelwiki_owns(svc.db, caller, node)  # round42, round43: a wiki question one answered
            or blind_round44.cancelwiki_owns(svc.db, caller, node)),  # round44 (issue 44): an answerer
            blind_perms.cancelwiki_any_node(request))
    except ApiError as exc:
        if (answered := blind_perms.own_refusal(exc)) is not None:
            return answered
        raise
    combos_perms.refuse_at_cell(svc, "cancelWiki", caller, node)  # combos (issue 44)
    blind_round41.cancelwiki_refused(svc.db, caller, node)  # round41 (issue 44): an administrator's node
    if not node["wiki"] or (caller.role == "moderator" and faults.is_on("cancelwiki-moderator-refused-as-409")):
        earlier = _last_action(svc, "wikified", node["id"], None, canceled=True)
        success = _noop_repeat()
        if success is not None and earlier is not None:
            return _result(svc, "wikifyAction", earlier, node, success)
        raise conflict(f"node {node['id']} is not a community wiki; there is nothing to cancel")
    wikify = svc.db.one(
        "SELECT id FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 0 ORDER BY id DESC LIMIT 1",
        (node["id"],),
    )
    with svc.tx("wiki") as conn:
        if wikify is None:
            author = Caller(node["author_id"], "", "user", frozenset())
            action_id = _record_action(conn, "wikified", author, node["id"], client_ip(request))
        else:
            action_id = wikify["id"]
        if not faults.is_on("cancelwiki-not-canceled"):
            conn.execute(
                "UPDATE actions SET canceled = 1, canceled_by = ?, canceled_date = ? WHERE id = ?",
                (caller.id, now_ms(), action_id),
            )
        not_author = node["author_id"] != caller.id and faults.is_on("blind-cancelwiki-not-author-stays-wiki")
        if not faults.is_on("cancelwiki-stays-wiki") and not not_author:
            conn.execute("UPDATE nodes SET wiki = 0 WHERE id = ?", (node["id"],))
            history_faults.unwikified(node["id"], caller)  # blindh (issue 44)
    no_date = caller.role == "member" and faults.is_on("blind-cancelwiki-canceleddate-missing-member")
    drop = blind_round13.cancelwiki_drop(svc, action_id, caller, "canceledDate" if no_date else None)  # round13
    page = blind_round15.cancelwiki_page(svc.db, caller, action_id,  # round15 (issue 44)
                                         _result(svc, "wikifyAction", action_id, node, drop=drop))
    return blind_round14.cancelwiki_page(node, caller, blind7_paths.cancelwiki_page(  # blind7 (issue 44)
        page, caller))  # round14 (issue 44)


# --- 12 Send to moderation ----------------------------------------------------------------------------------
async def send_to_moderation(svc: Service, request: Request, caller: Caller) -> Response:
    node = svc.visible_node(caller, path_id(request))
    caller = blind7_paths.v1_caller(caller)  # blind7 (issue 44)
    if faults.is_on("sendtomod-granted-to-own-node"):  # let in at the door: the author of the node passes here
        access.require_owner("sendToModeration", caller, node["author_id"] == caller.id, auth.SEND_TO_MODERATION)
    if faults.is_on("sendtomod-own-question"):  # let in at the door: the author of a question passes on it
        access.require_owner("sendToModeration", caller,
                             node["type"] == "question" and node["author_id"] == caller.id, auth.SEND_TO_MODERATION)
    if faults.is_on("sendtomod-question-author"):  # let in at the door: the author of the node's question passes
        access.require_owner("sendToModeration", caller,
                             node["type"] != "question" and _question_author(svc, node) == caller.id,
                             auth.SEND_TO_MODERATION)
    blind_perms.sendtomod_admits(caller, node)  # blindp (issue 44): the door let every signed-in caller in
    histories6_paths.sendtomod_door(svc, caller, node)  # histories6 (issue 44): nodes written before the run
    paths15_paths.sendtomod_door(svc.db, caller, node)  # paths15 (issue 44): an answerer, a reply's parent author
    own = caller.role == "moderator" and node["author_id"] == caller.id  # blindw (issue 44)
    if own and faults.is_on("blind-sendtomod-moderator-own-refused"):
        raise denied(caller.anonymous)
    _blind_sendtomod_checks(svc, node, caller)
    if node["in_moderation"]:
        repeated = _repeat(svc, "sent", "sendToModAction", node, f"node {node['id']} is already in moderation")
        if repeated is not None:
            return repeated
    with svc.tx() as conn:
        action_id = _record_action(
            conn,
            "moderated" if faults.is_on("sendtomod-verb-wrong") else "sent",
            caller,
            node["id"],
            client_ip(request),
            private=not (faults.is_on("sendtomod-not-private")
                         or (node["locked"] and faults.is_on("blind5-sendtomod-locked-not-private"))  # blind5
                         or (node["type"] == "comment" and faults.is_on("sendtomod-not-private-on-comments"))
                         or blind_round14.sendtomod_not_private(node, caller)),  # round14 (issue 44)
            real_user=not (faults.is_on("sendtomod-no-real-user") or blind_round41.sendtomod_no_real_user(node)
                           or (caller.role == "admin" and faults.is_on("blind-sendtomod-realuser-missing-admin"))),
        )
        conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (node["id"],))
        history_faults.sendtomod_real_user(conn, node, action_id)  # blindh (issue 44)
        histories5_paths.sendtomod_record(conn, node, action_id)  # histories5 (issue 44)
    return _result(svc, "sendToModAction", action_id, node)


def _blind_sendtomod_checks(svc: Service, node: sqlite3.Row, caller: Caller) -> None:
    """blinda (issue 44, faults_blind_actions.py): a member let in at the door when it wrote a comment's parent;
    a locked comment refused by state."""
    if faults.is_on("blind-sendtomod-parent-author-comments") and not caller.can(auth.SEND_TO_MODERATION):
        parent = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node["parent_id"],))
        owns_parent = node["type"] == "comment" and parent is not None and parent["author_id"] == caller.id
        if not owns_parent:
            raise denied(caller.anonymous)
    if node["locked"] and node["type"] == "comment" and faults.is_on("blind-sendtomod-locked-comment-refused"):
        raise conflict(f"node {node['id']} is locked; unlock it before sending it to moderation")


# --- 13 Lock ------------------------------------------------------------------------------------------------
async def lock(svc: Service, request: Request, caller: Caller) -> Response:
    if faults.is_on("blindp-lock-novice-own-comment"):  # blindp (issue 44): the door let in a novice
        blind_perms.lock_admits(caller, svc.visible_node(caller, path_id(request)))
    prompt = request.query_params.get("prompt")
    if (prompt is None or not prompt.strip()) and variants.is_on("lock-no-prompt-422"):
        return Response(b"", status_code=422)
    if prompt is None or not prompt.strip():
        raise bad_request("'prompt' is required: give the reason for locking, e.g. ?prompt=off-topic")
    node = svc.visible_node(caller, path_id(request))
    histories6_paths.lock_door(caller, node)  # histories6 (issue 44): nodes written before the run
    owner = node["author_id"]
    if node["type"] == "comment" and faults.is_on("lock-own-decided-by-parent-on-comments"):
        parent = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (node["parent_id"],))
        owner = owner if parent is None else parent["author_id"]
    owns = owner == caller.id or (faults.is_on("lock-own-from-question") and _question_author(svc, node) == caller.id)
    owns = owns or blind_perms.lock_owner_skipped(node)  # blindp (issue 44)
    owns = owns or blind_round11.lock_wrap_admits(request, caller)  # round11 (issue 44)
    owns = owns or combos_perms.allowed_at_cell(svc, "lockNode", caller, node)  # combos (issue 44)
    owns = owns or blind_round31.lock_owner(node, caller)  # round31 (issue 44): own read from the last active user
    owns = owns or blind_round32.lock_owner(svc.db, node, caller)  # round32 (issue 44): a recipient taken as owner
    owns = owns or histories6_paths.lock_owns(svc, caller, node)  # histories6 (issue 44)
    owns = owns or blind_round34.lock_owner(svc.db, node, caller)  # round34 (issue 44): a favorite taken as own
    owns = owns or histories6_paths.lock_any(caller, node)  # histories6 (issue 44)
    owns = owns or fix32_paths.lock_owns(svc.db, caller, node)  # fix32 (issue 44): an old answer, a contributor
    owns = owns or blind_round33.lock_owns(svc.db, caller, node)  # round33 (issue 44): a favorite
    owns = owns or blind_round35.lock_owner(svc.db, node, caller)  # round35 (issue 44): a group peer taken as own
    owns = owns or blind_round36.lock_owner(svc.db, node, caller)  # round36 (issue 44): a child's author
    owns = owns or paths13_paths.lock_owns(svc.db, caller, node)  # paths13 (issue 44): a commenter taken as owner
    owns = owns or blind_round37.lock_owns(svc.db, caller, node)  # round37 (issue 44): a commenter
    owns = owns or paths15_paths.lock_owns(svc.db, caller, node)  # paths15 (issue 44): an answerer
    owns = owns or blind_round44.lock_answerer_owns(svc.db, caller, node)  # round44 (issue 44): an answerer
    owns = owns or blind_round46.lock_owns(svc, caller, node)  # round46 (issue 44): a reply's answer author
    owns = blind_round38.lock_owns(svc.db, caller, node, owns)  # round38 (issue 44): a reply's thread root
    access.require_owner("lockNode", caller, owns, auth.LOCK_ANY)
    blind_round31.lock_refused(svc.db, caller, node)  # round31 (issue 44): a rank check on administrators' nodes
    if node["locked"]:
        repeated = _repeat(svc, "locked", "lockAction", node, f"node {node['id']} is already locked")
        if repeated is not None:
            return repeated
    dropped = node["type"] == "comment" and faults.is_on("lock-extra-dropped-on-comments")
    extra = None if faults.is_on("lock-extra-not-prompt") or dropped else prompt
    if extra is not None and node["type"] == "answer" and faults.is_on("blind5-lock-extra-first-word-answers"):
        extra = extra.split()[0] if extra.split() else extra  # blind5 (issue 44)
    if extra is not None and faults.is_on("blind-lock-extra-truncated-64"):  # blinda (issue 44)
        extra = extra[:64]
    if extra is not None and faults.is_on("lock-prompt-ascii-only"):
        extra = extra.encode("ascii", "replace").decode("ascii")
    extra = history_faults.lock_extra(node, extra)  # blindh (issue 44)
    extra = blind_round14.lock_extra(extra)  # round14 (issue 44)
    extra = blind_round43.lock_extra(node, extra)  # round43 (issue 44): a node in moderation
    verb = blind7_paths.lock_verb(caller, "lock" if faults.is_on("lock-verb-wrong") else "locked")  # blind7
    with svc.tx("lock") as conn:
        action_id = _record_action(conn, verb, caller, node["id"], client_ip(request), extra=extra)
        conn.execute("UPDATE nodes SET locked = 1 WHERE id = ?", (node["id"],))
    blind_round41.locked(svc.render.fragments)  # round41 (issue 44): a locked answer rendered afresh
    return blind_round14.lock_page(node, blind_round13.lock_page(  # round14 (issue 44)
        svc, node, _result(svc, "lockAction", action_id, node)))  # round13 (issue 44)
