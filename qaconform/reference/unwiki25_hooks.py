"""Where unwiki25's faults bite (faults_unwiki25.py, issue 44): a comment on a node whose wiki action was canceled
before, one path each (request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own
fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .errors import forbidden
from .hook_kit import path_node, sent_fields
from .http_io import body_json, json_response
from .service import Service

AUTHOR_403 = "unwiki25-author-private-comment-after-unwikify-403"
STORED_FULL = "unwiki25-private-comment-after-unwikify-stored-full"
LOCATION_NODE = "unwiki25-comment-after-unwikify-location-names-node"
_ALL = (AUTHOR_403, STORED_FULL, LOCATION_NODE)


def _unwikified(svc: Service, request: Request) -> Any:
    """The path's node when its wiki action was canceled before (an unwikify), else None."""
    parent = path_node(svc, request)
    if parent is None or svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1",
                                    (parent["id"],)) is None:
        return None
    return parent


def _private(request: Request) -> bool:
    return sent_fields(request).get("visibility") not in (None, "", "full", "public")


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op != "postComment" or caller.anonymous or not any(faults.is_on(n) for n in _ALL):
        return None
    await request.body()  # kept by Starlette: the later stages and the handler read it again
    if faults.is_on(AUTHOR_403) and _private(request):
        parent = _unwikified(svc, request)
        if parent is not None and parent["author_id"] == caller.id:
            raise forbidden()
    return None


# --- after: the handler's response changed --------------------------------------------------------------------
def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op != "postComment" or response.status_code != 201 or not (faults.is_on(STORED_FULL)
                                                                   or faults.is_on(LOCATION_NODE)):
        return response
    parent = _unwikified(svc, request)
    if parent is None:
        return response
    row = svc.db.one("SELECT id FROM nodes WHERE parent_id = ? AND type = 'comment' AND author_id = ? "
                     "ORDER BY id DESC LIMIT 1", (parent["id"], caller.id))
    if row is None:
        return response
    if faults.is_on(STORED_FULL) and _private(request):
        with svc.tx("comment") as conn:
            conn.execute("UPDATE nodes SET visibility = 'full' WHERE id = ?", (row["id"],))
            conn.execute("DELETE FROM comment_recipients WHERE comment_id = ?", (row["id"],))
    if faults.is_on(LOCATION_NODE):
        location = response.headers.get("location", "")
        if location.endswith(f"/{row['id']}.json"):
            kind = "question" if parent["type"] == "question" else parent["type"]
            head = location[: -len(f"/{row['id']}.json")]
            head = head[: head.rfind("/") + 1] if "/" in head else head
            headers = {k: v for k, v in response.headers.items()
                       if k.lower() not in ("location", "content-length", "content-type")}
            headers["Location"] = f"{head}{kind}/{parent['id']}.json"
            return json_response(body_json(response), response.status_code, headers)
    return response

