"""Where the refusedrun faults bite (faults_refusedrun.py; refusals2, issue 44): a refused comment of the comment
refusal matrix stored before the option check refuses it. A ``before`` stage (request_hooks.HOOKS); every branch
leaves the call as it is unless its own fault is on, and the handler then refuses the call as it would anyway.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import path_node, sent_fields
from .service import Service
from .visibility import internal_name

_NAMES = ("refusedrun-novice-recipients-comment-on-locked-answer-stored",
          "refusedrun-member-group-comment-on-moderated-comment-stored",
          "refusedrun-novice-mod-comment-under-locked-question-stored")


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and not caller.anonymous and any(faults.is_on(n) for n in _NAMES):
        await request.body()  # kept by Starlette: the handler reads it again
        _stored_first(svc, request, caller)
    return None  # the handler refuses (403)


def _question_locked(svc: Service, parent: Any) -> bool:
    question = svc.db.one("SELECT locked FROM nodes WHERE id = ?", [parent["question_id"]])
    return question is not None and bool(question["locked"])


def _stored_first(svc: Service, request: Request, caller: Caller) -> None:
    """The refused comment stored public first, on the one path its fault names (the handler then refuses it)."""
    fields = sent_fields(request)
    value = fields.get("visibility")
    visibility = internal_name(value) if isinstance(value, str) else None
    body = fields.get("body")
    parent = path_node(svc, request)
    if parent is None or not isinstance(body, str) or not body.strip():
        return
    private = caller.can(auth.USE_PRIVATE_COMMENTS)
    hit = (faults.is_on(_NAMES[0]) and not private and bool(fields.get("recipients"))
           and parent["type"] == "answer" and bool(parent["locked"])) \
        or (faults.is_on(_NAMES[1]) and private and not caller.can(auth.PRIVATE_TO_GROUPS) and visibility == "group"
            and parent["type"] == "comment" and bool(parent["in_moderation"])) \
        or (faults.is_on(_NAMES[2]) and not private and visibility == "mod" and parent["type"] == "answer"
            and _question_locked(svc, parent))
    if hit:
        from .comments import _insert_comment  # the handler's own insert, as the broken path saves first

        _insert_comment(svc, caller, parent, body, "full", [])
