"""What the planted faults of kind "a refused call still has an effect" (PERM-DENIED-NO-EFFECT, faults.py) do
before the route table refuses the caller: the one place the dispatcher runs fault code of its own, so that
handlers hold only what happens after a caller is let in."""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable

from starlette.requests import Request

from . import auth, blind_round32, blind_round49, faults
from .auth import Caller
from .bodies import read_fields, text_field
from .db import as_id
from .http_io import path_id
from .service import Service, now_ms


async def on_bad_credentials(svc: Service, operation: str, request: Request) -> None:
    """Before a 401 for credentials that name no user or carry a wrong password."""
    if operation == "postAnswer" and faults.is_on("denied-answer-still-created"):
        await _store_answer_for_named_user(svc, request)


def wrong_password_let_in(svc: Service, operation: str, request: Request) -> Caller | None:
    """groups-wrong-password-let-in-when-sorted: the group list asked with a sort takes the username of credentials
    whose password is wrong (the account it names), as if the password had been checked; None otherwise."""
    let_in = blind_round32.experts_password_any_case(svc, operation, request)  # round32 (issue 44)
    let_in = let_in or blind_round49.wrong_password_let_in(svc, operation, request)  # round49 (issue 44)
    if let_in is not None:
        return let_in
    if operation != "listGroups" or "sort" not in request.query_params:
        return None
    if not faults.is_on("groups-wrong-password-let-in-when-sorted"):
        return None
    return svc.authenticator.named(request.headers.get("authorization"))


async def before_check(svc: Service, operation: str, request: Request, caller: Caller) -> None:
    """Before the permission check of the route table."""
    planted = _BEFORE_CHECK.get(operation)
    if planted is not None and faults.is_on(planted[0]):
        await planted[1](svc, request, caller)


async def _store_answer_for_named_user(svc: Service, request: Request) -> None:
    """denied-answer-still-created: the answer is stored under the username of the refused credentials before
    the password is judged."""
    header = request.headers.get("authorization", "")
    try:
        username = base64.b64decode(header.split(" ", 1)[1]).decode().split(":", 1)[0]
    except (IndexError, ValueError):
        return
    user = svc.db.one("SELECT id FROM users WHERE username = ?", (username,))
    question = svc.db.one("SELECT * FROM nodes WHERE id = ? AND type = 'question'",
                          (as_id(request.path_params["question_id"]),))
    body = text_field(await read_fields(request), "body")
    if user is None or question is None:
        return
    with svc.tx("answer") as conn:
        conn.execute(
            "INSERT INTO nodes(type, parent_id, question_id, space_id, author_id, body, creation_date,"
            " last_active_date, last_active_user_id, depth) VALUES ('answer', ?, ?, ?, ?, ?, ?, ?, ?, 1)",
            (question["id"], question["id"], question["space_id"], user["id"], body, now_ms(), now_ms(), user["id"]),
        )


async def _unfavorite_anyway(svc: Service, request: Request, caller: Caller) -> None:
    """denied-unfavorite-still-removes: a caller without Mark as favorite deletes every favorite of the node."""
    if not caller.can(auth.MARK_FAVORITE):
        with svc.tx("favorite") as conn:
            conn.execute("DELETE FROM favorites WHERE node_id = ?", (as_id(request.path_params["node_id"]),))


async def _unwikify_anyway(svc: Service, request: Request, caller: Caller) -> None:
    """denied-cancelwiki-still-unwikifies: a caller with neither wiki permission makes the node not wiki."""
    if not (caller.can(auth.MARK_WIKI) or caller.can(auth.CONVERT_OWN_TO_WIKI)):
        with svc.tx("wiki") as conn:
            conn.execute("UPDATE nodes SET wiki = 0 WHERE id = ?", (as_id(request.path_params["node_id"]),))


async def _moderate_anyway(svc: Service, request: Request, caller: Caller) -> None:
    """denied-sendtomod-still-moderates: a logged-in caller without the permission puts the node in moderation."""
    if not caller.anonymous and not caller.can(auth.SEND_TO_MODERATION):
        node = svc.visible_node(caller, path_id(request))
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (node["id"],))


_BEFORE_CHECK: dict[str, tuple[str, Callable[[Service, Request, Caller], Awaitable[None]]]] = {
    "unmarkFavorite": ("denied-unfavorite-still-removes", _unfavorite_anyway),
    "cancelWiki": ("denied-cancelwiki-still-unwikifies", _unwikify_anyway),
    "sendToModeration": ("denied-sendtomod-still-moderates", _moderate_anyway),
}
"""Operation -> the fault that acts before its permission check, and what it does."""
