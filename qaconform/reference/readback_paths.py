"""Where readback's faults bite (faults_readback.py, issue 44): an accepted answer or comment the server takes (201)
but keeps out of the lists where the description says it appears, on one path each. The hooks run around the
handler (request_hooks.HOOKS runs these stages); every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import after_by_op, form_fields, kept_body, path_node, sent_fields
from .http_io import body_json
from .service import Service

_READS_BODY = ("readback-form-answer-wiki-moderated", "readback-query-answer-wiki-moderated",
               "readback-form-comment-unlisted", "readback-query-comment-scripts-unlisted")


# --- before: keep the body for the after stage -----------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postAnswer", "postComment") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the handler reads it again
    return None


# --- after: the new node held out of the lists ------------------------------------------------------------------
def _new_id(response: Response) -> int | None:
    body = body_json(response)
    raw = body.get("id") if isinstance(body, dict) else None
    try:
        return int(raw) if raw is not None else None
    except (TypeError, ValueError):
        return None


def _hold(svc: Service, node_id: int) -> None:
    """The node in the moderation queue: its author and the moderators still see it, nobody else does."""
    with svc.tx("readback") as conn:
        conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (node_id,))


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    new = _new_id(response)
    if new is None or not caller.can(auth.PUBLISH_ANSWER):
        return response
    held = False
    if faults.is_on("readback-form-answer-wiki-moderated") and "wiki" in form_fields(request):
        held = True  # the form controller reads wiki as a request to convert, which it queues for review
    if faults.is_on("readback-query-answer-wiki-moderated") and "body" in request.query_params \
            and "wiki" in request.query_params:
        held = True  # the parameter binder reads wiki as a request to convert, which it queues for review
    if held:
        _hold(svc, new)
    return response


def _comment(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    new = _new_id(response)
    parent = path_node(svc, request)
    if new is None or parent is None or parent["type"] != "answer" or caller.sees_moderation \
            or str(sent_fields(request).get("visibility", "full")) != "full" \
            or str(sent_fields(request).get("body", "")).isascii():
        return response
    if faults.is_on("readback-form-comment-unlisted") and form_fields(request):
        _hold(svc, new)  # the form decoder's non-ASCII path saves the comment as a draft of the answer's thread
    elif faults.is_on("readback-query-comment-scripts-unlisted") and "body" in request.query_params \
            and not kept_body(request).strip() \
            and len({_script(c) for c in request.query_params["body"] if not c.isascii()}) >= 3:
        _hold(svc, new)  # the parameter decoder's mixed-script check flags the comment as spam
    return response


def _script(char: str) -> str:
    """A character's script, as far as its Unicode name's first word tells it (LATIN, CYRILLIC, CJK ...)."""
    try:
        return unicodedata.name(char).split()[0]
    except ValueError:
        return ""


after = after_by_op({"postAnswer": _answer, "postComment": _comment})
