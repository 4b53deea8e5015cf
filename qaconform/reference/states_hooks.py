"""Where the planted faults of :mod:`faults_states` bite (issue 44, states): a node action on a PRIVATE comment
(visibility not full). ``before`` answers the send to moderation instead of the handler; ``after`` rewrites an
accepted lock as the broken server serves it. Each checks ``faults.is_on`` first."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import after_by_op, path_node, result_action, with_action
from .http_io import body_json, json_response
from .service import Service

NODE_PARENT = "states-lock-private-comment-node-parent"
USER_NULL = "states-lock-private-comment-user-null"
SEND_500 = "states-sendtomod-private-comment-500"
MADE_PUBLIC = "states-lock-private-comment-made-public"


def _private_comment(svc: Service, request: Request) -> Any:
    """The path's node when it is a comment whose visibility is not full, else None."""
    node = path_node(svc, request)
    if node is None or node["type"] != "comment" or node["visibility"] == "full":
        return None
    return node


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    """states-sendtomod-private-comment-500: an allowed send of a private comment answered 500, nothing changed."""
    if op != "sendToModeration" or not faults.is_on(SEND_500) or caller.anonymous:
        return None
    if _private_comment(svc, request) is None:
        return None
    return json_response({"errors": {"message": "Internal server error"}}, 500)


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """An accepted lock of a private comment: its record (node.id the parent, user null) or its privacy dropped."""
    if not any(faults.is_on(n) for n in (NODE_PARENT, USER_NULL, MADE_PUBLIC)):
        return response
    node = _private_comment(svc, request)
    if node is None or result_action(body_json(response), "lockAction") is None:
        return response
    if faults.is_on(MADE_PUBLIC):
        with svc.tx("lock") as conn:
            conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (node["id"],))
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (node["id"],))
    if faults.is_on(NODE_PARENT) and node["parent_id"] is not None:
        return with_action(response, "lockAction", lambda a: a.update(
            node={**(a.get("node") or {}), "id": node["parent_id"]}))
    if faults.is_on(USER_NULL):
        return with_action(response, "lockAction", {"user": None})
    return response


after = after_by_op({"lockNode": _lock})
