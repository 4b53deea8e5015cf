"""Where the planted faults of :mod:`faults_closeb` bite (issue 44, closeb): a send to moderation in a child space, an
unwikify of an accepted wiki question, a send of an answered question. ``before`` lets a caller in as the broken server
does, ``after`` rewrites the send's record; each checks ``faults.is_on`` first."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import denied
from .hook_kit import after_by_op, path_node, result_action
from .http_io import body_json, with_body
from .service import Service

CHILD_NOT_PRIVATE = "closeb-kind-sendtomod-child-space-not-private"
ACCEPTED_ANY = "closeb-kind-cancelwiki-accepted-wiki-question-any-caller"
ANSWERED_NODE = "closeb-kind-sendtomod-answered-question-no-node-id"


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    """A caller with neither wiki permission (the fault's override lets novice through the door) refused as before
    but on a wiki question holding another account's accepted answer."""
    if op != "cancelWiki" or not faults.is_on(ACCEPTED_ANY) or caller.anonymous \
            or caller.can(auth.MARK_WIKI) or caller.can(auth.CONVERT_OWN_TO_WIKI):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != "question" or not node["wiki"] or node["author_id"] == caller.id \
            or svc.db.one("SELECT 1 FROM nodes WHERE parent_id = ? AND type = 'answer' AND marked = 1"
                          " AND author_id != ?", (node["id"], caller.id)) is None:
        raise denied(caller.anonymous)
    return None


def _sendtomod(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not (faults.is_on(CHILD_NOT_PRIVATE) or faults.is_on(ANSWERED_NODE)):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "sendToModAction")
    if node is None or action is None:
        return response
    if faults.is_on(CHILD_NOT_PRIVATE):
        space = svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (node["space_id"],))
        if space is None or space["parent_id"] is None:
            return response
        action["private"] = False
        return with_body(response, body)
    answer = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND type = 'answer' ORDER BY id DESC LIMIT 1",
                        (node["id"],)) if node["type"] == "question" else None
    if answer is None or not isinstance(action.get("node"), dict):
        return response
    action["node"] = {**action["node"], "id": answer["id"], "type": "answer"}
    return with_body(response, body)


after = after_by_op({"sendToModeration": _sendtomod})
