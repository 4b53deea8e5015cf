"""Where the faults of fix33 (issue 44, :mod:`faults_fix33`) bite: a comment on a community-wiki node refused to a
caller the permission table lets comment (comments.py); the send to moderation's record of a followed node
(request_hooks.py). Each leaves the request alone unless its own fault is on."""

from __future__ import annotations

import sqlite3

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .errors import denied
from .http_io import body_json, path_id, with_body
from .service import Service

WIKI_COMMENT_REFUSED = "fix33-wiki-comment-refused-403"


def comment_parent(caller: Caller, parent: sqlite3.Row) -> None:
    """A comment directly on a community-wiki question or answer is refused (403) to a logged-in caller who holds
    Comment: the wiki branch checks an edit permission instead."""
    if faults.is_on(WIKI_COMMENT_REFUSED) and parent["wiki"] and parent["type"] != "comment" and not caller.anonymous:
        raise denied(False, stated_403=True)


FOLLOWED_VERB = "fix33-sendtomod-followed-verb-notified"


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The send to moderation's record of a node with active followers, rewritten after the handler made it: its
    verb is the notifying branch's ("notified"), not "sent". Nodes no one follows are right."""
    if op != "sendToModeration" or response.status_code != 200 or not faults.is_on(FOLLOWED_VERB):
        return response
    if svc.db.one("SELECT 1 FROM follows WHERE node_id = ? AND active = 1", (path_id(request),)) is None:
        return response
    body = body_json(response)
    action = body.get("result", {}).get("sendToModAction") if isinstance(body, dict) else None
    if not isinstance(action, dict):
        return response
    action["verb"] = "notified"
    return with_body(response, body)
