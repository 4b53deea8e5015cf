"""Where the noeffect faults bite (faults_noeffect.py, issue 44): a refused write whose effect is stored before the
permission check refuses it. A ``before`` and an ``ahead_of_auth`` stage (request_hooks.HOOKS); every branch leaves
the call as it is unless its own fault is on, and the handler then refuses the call as it would anyway.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError
from .hook_kit import kept_json_object, path_node, sent_fields
from .service import Service
from .visibility import internal_name

_COMMENTS = ("noeffect-member-group-comment-query-stored-before-403",
             "noeffect-novice-mod-comment-on-comment-stored-before-403",
             "noeffect-novice-group-comment-on-question-stored-private")


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and any(faults.is_on(n) for n in _COMMENTS):
        await request.body()  # kept by Starlette: the handler reads it again
        _comment_stored(svc, request, caller)
    return None  # the handler refuses (403)


def ahead_of_auth(svc: Service, op: str, request: Request) -> None:
    """noeffect-sendtomod-v1-moves-before-403: the v1 route moves the node before the permission check refuses."""
    if op != "sendToModeration" or "v1" not in request.query_params \
            or not faults.is_on("noeffect-sendtomod-v1-moves-before-403"):
        return
    try:
        caller = svc.caller(request)
    except ApiError:
        return  # no caller: the row refuses it as it would anyway
    node = path_node(svc, request)
    if caller.anonymous or caller.can(auth.SEND_TO_MODERATION) or node is None or node["type"] == "question":
        return
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (node["id"],))


def _comment_stored(svc: Service, request: Request, caller: Caller) -> None:
    """The refused comment stored first, on the one path its fault names (the handler then refuses it)."""
    fields = sent_fields(request)
    value = fields.get("visibility")
    visibility = internal_name(value) if isinstance(value, str) else None
    body = fields.get("body")
    parent = path_node(svc, request)
    if caller.anonymous or parent is None or not isinstance(body, str) or not body.strip():
        return
    query_only = "body" in request.query_params and kept_json_object(request) is None
    stored = None
    if faults.is_on(_COMMENTS[0]) and visibility == "group" and query_only \
            and not caller.can(auth.PRIVATE_TO_GROUPS):
        stored = "full"
    elif caller.can(auth.USE_PRIVATE_COMMENTS):
        return
    elif faults.is_on(_COMMENTS[1]) and visibility == "mod" and parent["type"] == "comment":
        stored = "full"
    elif faults.is_on(_COMMENTS[2]) and visibility == "group" and parent["type"] == "question":
        stored = "group"
    if stored is not None:
        from .comments import _insert_comment  # the handler's own insert, as the broken path saves first

        _insert_comment(svc, caller, parent, body, stored, [])
