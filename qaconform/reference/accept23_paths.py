"""Where the planted faults of :mod:`faults_accept23` bite (issue 44, accept23): an unwikify of a locked wiki node, a
to-moderators comment in a child space. ``after`` rewrites the stored node as the broken server leaves it (``before``
keeps the comment's body for it); each checks ``faults.is_on`` first."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import after_by_op, path_node, result_action, sent_fields
from .http_io import body_json
from .service import Service

STAYS_WIKI = "accept23-kind-cancelwiki-locked-node-stays-wiki"
MOD_STORED_FULL = "accept23-kind-comment-mod-option-child-space-stored-full"


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and faults.is_on(MOD_STORED_FULL):
        await request.body()  # kept by Starlette: the handler and ``after`` read it again
    return None


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """A locked node's accepted unwikify writes the node's wiki flag back (the action still says canceled)."""
    if not faults.is_on(STAYS_WIKI):
        return response
    node = path_node(svc, request)
    if node is None or not node["locked"] or result_action(body_json(response), "wikifyAction") is None:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    return response


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


after = after_by_op({"cancelWiki": _cancel_wiki, "postComment": _comment})
