"""Where locks25's faults bite (faults_locks25.py, issue 44): a lock or a send to moderation of ANOTHER account's
comment whose parent the caller wrote. ``before`` refuses the send (and the unwikify of such a comment once locked),
``after`` changes the lock's record; each checks
``faults.is_on`` first and leaves every other call as it is.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import PERMISSION_MESSAGE
from .hook_kit import after_by_op, path_node, result_action, with_action
from .http_io import body_json, json_response
from .service import Service

NAMES_PARENT = "locks25-lock-comment-under-own-node-names-parent"
EXTRA_NULL = "locks25-lock-comment-under-own-node-extra-null"
SEND_REFUSED = "locks25-sendtomod-comment-under-own-node-refused"
UNWIKIFY_REFUSED = "locks25-cancelwiki-locked-comment-under-own-node-refused"


def _under_own_node(svc: Service, request: Request, caller: Caller) -> tuple[Any, Any] | None:
    """(the comment, its parent) when the path names ANOTHER account's comment whose parent the caller wrote."""
    if caller.anonymous:
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "comment" or node["author_id"] == caller.id:
        return None
    parent = svc.db.one("SELECT id, type, author_id FROM nodes WHERE id = ?", (node["parent_id"],))
    return (node, parent) if parent is not None and parent["author_id"] == caller.id else None


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "sendToModeration" and faults.is_on(SEND_REFUSED) and caller.can(auth.SEND_TO_MODERATION) \
            and _under_own_node(svc, request, caller) is not None:
        return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    if op == "cancelWiki" and faults.is_on(UNWIKIFY_REFUSED) and caller.can(auth.MARK_WIKI):
        found = _under_own_node(svc, request, caller)
        if found is not None and found[0]["locked"]:
            return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    return None


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on(NAMES_PARENT) or faults.is_on(EXTRA_NULL)):
        return response
    found = _under_own_node(svc, request, caller)
    if found is None:
        return response
    _, parent = found
    if faults.is_on(EXTRA_NULL):
        action = result_action(body_json(response), "lockAction")
        if action is not None and isinstance(action.get("id"), int):
            with svc.tx("lock") as conn:
                conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action["id"],))
        response = with_action(response, "lockAction", {"extra": None})
    if faults.is_on(NAMES_PARENT):
        response = with_action(response, "lockAction", {"node": {"id": parent["id"], "type": parent["type"]}})
    return response


after = after_by_op({"lockNode": _lock})
