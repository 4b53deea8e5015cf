"""Where the planted faults of :mod:`faults_placements` bite (issue 44, placements: a write on a parent kind or
relation the run's writes did not reach). ``before`` keeps a comment's body for the later stages, ``admitted``
drops what the broken server drops, ``after`` changes a new answer's 201; each checks ``faults.is_on`` first."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .hook_kit import after_by_op, kept_json_object, path_node
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

OTHERS_PARENT_ID = "placements-moderated-answer-others-question-parent-id-null"
CHILD_NO_LOCATION = "placements-moderated-answer-child-space-no-location"
REPLY_QUERY_VISIBILITY = "placements-reply-visibility-param-beside-json-dropped"
REPLY_BODY_VISIBILITY_WINS = "placements-reply-json-visibility-wins-over-param"
_REPLIES = (REPLY_QUERY_VISIBILITY, REPLY_BODY_VISIBILITY_WINS)


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op == "postComment" and any(faults.is_on(n) for n in _REPLIES):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    return None


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """A reply's (a comment on a comment's) visibility parameter beside a JSON body: dropped (the reply binder reads
    the JSON body alone), or, where the JSON body names a visibility too, the body's kept (the parameter loses)."""
    if op != "postComment" or not any(faults.is_on(n) for n in _REPLIES) or "visibility" not in request.query_params:
        return request
    parent = path_node(svc, request)
    body = kept_json_object(request)
    if parent is None or parent["type"] != "comment" or body is None:
        return request
    dropped = [(k, v) for k, v in request.query_params.multi_items() if k != "visibility"]
    if faults.is_on(REPLY_QUERY_VISIBILITY) and "visibility" not in body:
        return with_query(request, dropped)
    if faults.is_on(REPLY_BODY_VISIBILITY_WINS) and "visibility" in body:
        return with_query(request, dropped)
    return request


def _moderated_question(svc: Service, request: Request, caller: Caller) -> Any:
    """The question a caller without Publish answer (but with Answer questions) answers, or None."""
    if caller.anonymous or not caller.can(auth.ANSWER) or caller.can(auth.PUBLISH_ANSWER):
        return None
    question = path_node(svc, request, "question_id")
    return question if question is not None and question["type"] == "question" else None


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    question = _moderated_question(svc, request, caller)
    if question is None or not 200 <= response.status_code < 300:
        return response
    if faults.is_on(OTHERS_PARENT_ID) and question["author_id"] != caller.id:
        body = body_json(response)
        if isinstance(body, dict) and "parentId" in body:
            body["parentId"] = None
            return with_body(response, body)
    if faults.is_on(CHILD_NO_LOCATION):
        space = svc.db.one("SELECT parent_id FROM spaces WHERE id = ?", (question["space_id"],))
        if space is not None and space["parent_id"] is not None:
            headers = {k: v for k, v in response.headers.items()
                       if k.lower() not in ("location", "content-length", "content-type")}
            return json_response(body_json(response), response.status_code, headers)
    return response


after = after_by_op({"postAnswer": _answer})
