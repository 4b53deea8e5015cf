"""Planted faults of the actors round (issue 44, Build items 1, 3 and 5): an action's effect wrong for one account
the permission table grants it to, and a posted answer's field derived from the content of its text (a link, markup,
an @mention, a long text). The entries are :mod:`faults_actors`; this module is their code, run after the handler
through ``request_hooks.HOOKS``. One is a blind round's miss re-planted (round16-answer-plug-link-preview:
/work/notes/s6/blind-round16.md); the two unwikify ones of rounds 16 and 17 and an "own by answering" one are not
registered: no run can catch them within its writes yet (/work/notes/s7/actors.md).

Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .http_io import body_json, is_id, with_body
from .service import Service

PREFIXES = ("actors-", "round16-answer-plug-link-preview")
"""The faults this module plays (the re-planted ones keep the names their blind round gave them)."""

_URL = re.compile(r"https?://\S+")
_MENTION = re.compile(r"@([A-Za-z0-9_.-]+)")
_INLINE_TAG = re.compile(r"<(/?)(b|i|em|strong|code)>")
LONG = 500
"""Where actors-answer-long-body-truncated cuts a body (a column of 500 characters)."""


def _mine() -> bool:
    return any(name.startswith(PREFIXES) for name in faults.active())


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The handler's response as the broken server serves it."""
    if not _mine() or response.status_code not in (200, 201):
        return response
    if op == "unmarkFavorite" and caller.role == "admin":
        if faults.is_on("actors-unfavorite-admin-not-canceled"):
            # ACTION-UNFAVORITE-CANCELED: admin's branch answers the favorite action as it was.
            return _action_field(response, "favoriteAction", "canceled", False)
        if faults.is_on("actors-unfavorite-admin-node-id-action-id"):
            # ACTION-NODE-ID: admin's branch renders the action's own id as the node's
            return _action_node_id(response)
        if faults.is_on("actors-unfavorite-admin-canceleddate-missing"):
            # ACTION-CANCELED-FIELDS: admin's branch leaves canceledDate out.
            return _action_field(response, "favoriteAction", "canceledDate", None, drop=True)
    if op == "postAnswer" and response.status_code == 201:
        return _posted_answer(svc, caller, response)
    return response


def _action_field(response: Response, key: str, field: str, value: Any, drop: bool = False) -> Response:
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get(key) if isinstance(result, dict) else None
    if not isinstance(action, dict):
        return response
    if drop:
        action.pop(field, None)
    else:
        action[field] = value
    return with_body(response, body)


def _action_node_id(response: Response) -> Response:
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get("favoriteAction") if isinstance(result, dict) else None
    if not isinstance(action, dict) or not isinstance(action.get("node"), dict) or "id" not in action:
        return response
    action["node"]["id"] = action["id"]
    return with_body(response, body)


def _posted_answer(svc: Service, caller: Caller, response: Response) -> Response:
    """A posted answer's fields derived from the content of its text."""
    body = body_json(response)
    text = body.get("body") if isinstance(body, dict) else None
    if not isinstance(text, str):
        return response
    assert isinstance(body, dict)
    if faults.is_on("round16-answer-plug-link-preview") and (link := _URL.search(text)) is not None:
        body["plug"] = link.group(0)  # ANSWER-PLUG-NULL: a link preview fills the plug
        return with_body(response, body)
    if faults.is_on("actors-answer-link-held-for-review") and caller.can(auth.PUBLISH_ANSWER) and _URL.search(text) \
            and is_id(str(body.get("id", ""))):
        # ANSWER-PUBLISHED: a spam filter holds an answer with a link for review, whoever wrote it
        with svc.tx() as conn:
            conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (int(body["id"]),))
        return response
    if faults.is_on("actors-answer-markup-escaped") and _INLINE_TAG.search(text):
        body["body"] = _INLINE_TAG.sub(r"&lt;\1\2&gt;", text)  # ANSWER-BODY-KEPT: inline markup escaped
        return with_body(response, body)
    if faults.is_on("actors-answer-mention-stripped") and _MENTION.search(text):
        body["body"] = _MENTION.sub("", text)  # ANSWER-BODY-KEPT: @mentions taken out as notifications
        return with_body(response, body)
    if faults.is_on("actors-answer-long-body-truncated") and len(text) > LONG:
        body["body"] = text[:LONG]  # ANSWER-BODY-KEPT: a text column of 500 characters
        return with_body(response, body)
    if faults.is_on("actors-answer-long-location-missing") and len(text) > LONG:
        # ANSWER-LOCATION: a long body goes through the deferred indexing path, whose 201 names no new URL
        headers = {k: v for k, v in response.headers.items()
                   if k.lower() not in ("location", "content-length", "content-type")}
        return Response(bytes(response.body), 201, headers=headers, media_type=response.media_type)
    return response
