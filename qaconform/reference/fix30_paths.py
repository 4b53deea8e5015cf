"""Where the faults of fix30 (issue 44, :mod:`faults_fix30`) bite: the send to moderation's record of a node that was
unwikified earlier (a canceled wikify action on it), rewritten after the handler made it. Each leaves the response
as it is unless its own fault is on."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, path_id, with_body
from .service import Service

VERB = "fix30-sendtomod-after-unwikify-verb-wikified"
REAL_USER = "fix30-sendtomod-after-unwikify-realuser-author"


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if op != "sendToModeration" or response.status_code != 200 or not (faults.is_on(VERB)
                                                                       or faults.is_on(REAL_USER)):
        return response
    node = svc.db.one("SELECT n.author_id FROM nodes n WHERE n.id = ? AND EXISTS (SELECT 1 FROM actions a"
                      " WHERE a.node_id = n.id AND a.verb = 'wikified' AND a.canceled = 1)", (path_id(request),))
    body = body_json(response)
    action = body.get("result", {}).get("sendToModAction") if isinstance(body, dict) else None
    if node is None or not isinstance(action, dict):
        return response
    if faults.is_on(VERB):
        action["verb"] = "wikified"
    if faults.is_on(REAL_USER):
        author = svc.render.users_by_id({node["author_id"]})[node["author_id"]]
        action["realUser"] = svc.render.action_user_json(author)
    return with_body(response, body)
