"""Where the planted faults of :mod:`faults_accept23` bite (issue 44, accept23): the lock of a wiki node, a
to-moderators comment in a child space. ``after`` rewrites the stored record or node as the broken server leaves it
(``before`` keeps the comment's body for it); each checks ``faults.is_on`` first."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import after_by_op, path_node, result_action, sent_fields
from .http_io import body_json, with_body
from .service import Service

EXTRA_NULL = "accept23-kind-lock-wiki-node-extra-null"
MOD_STORED_FULL = "accept23-kind-comment-mod-option-child-space-stored-full"


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and faults.is_on(MOD_STORED_FULL):
        await request.body()  # kept by Starlette: the handler and ``after`` read it again
    return None


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """An accepted lock of a wiki node stores and returns extra null."""
    if not faults.is_on(EXTRA_NULL):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "lockAction")
    if node is None or not node["wiki"] or action is None:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action.get("id"),))
    action["extra"] = None
    return with_body(response, body)


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """A created to-moderators comment under a node of a child space is stored with full visibility."""
    if not faults.is_on(MOD_STORED_FULL) or response.status_code != 201:
        return response
    if sent_fields(request).get("visibility") != "mod":
        return response
    parent = path_node(svc, request)
    space = None if parent is None else svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (parent["space_id"],))
    if space is None or space["parent_id"] is None:
        return response
    new = svc.db.one("SELECT id FROM nodes WHERE type = 'comment' AND parent_id = ? AND author_id = ? ORDER BY id DESC"
                     " LIMIT 1", (parent["id"], caller.id))
    if new is not None:
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (new["id"],))
    return response


after = after_by_op({"lockNode": _lock, "postComment": _comment})
