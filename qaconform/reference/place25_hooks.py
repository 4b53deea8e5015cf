"""Where the place25 faults bite (faults_place25.py, issue 44): novice's answer to its own question published in one
form; admin's send of an answer with wrap refused. member's own lock with wrap is a route-table override (no hook).
Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import PERMISSION_MESSAGE
from .hook_kit import handled_with, media, path_node
from .http_io import json_response
from .service import Service

_OWN_QUESTION_FORMS = {"place25-novice-json-answer-own-question-published": "application/json",
                       "place25-novice-form-answer-own-question-moderation-skipped":
                           "application/x-www-form-urlencoded"}
"""Each own-question fault and the body media type (with no body parameter) it publishes."""


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postAnswer" and "body" not in request.query_params \
            and caller.can(auth.ANSWER) and not caller.can(auth.PUBLISH_ANSWER) \
            and any(faults.is_on(n) and media(request) == m for n, m in _OWN_QUESTION_FORMS.items()):
        question = path_node(svc, request, "question_id")
        if question is not None and question["type"] == "question" and question["author_id"] == caller.id:
            return await handled_with(auth.PUBLISH_ANSWER, svc, request, caller, handler)
    if op == "sendToModeration" and faults.is_on("place25-admin-send-answer-wrap-refused") \
            and "wrap" in request.query_params and caller.can(auth.EDIT_USERS_AND_GROUPS):
        node = path_node(svc, request)
        if node is not None and node["type"] == "answer":
            return json_response({"errors": {"message": PERMISSION_MESSAGE}}, 403)
    return None
