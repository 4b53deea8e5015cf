"""Where the planted faults of :mod:`faults_forms9` bite (issue 44 item 3, forms9): a write's input form read wrong
on one parent kind or one relation only. ``before`` reads what it needs (the parent, the JSON body), ``admitted``
passes the request on as the broken server reads it. Every function checks ``faults.is_on`` first, so the hook
costs a set lookup when no fault of its own is on."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .http_io import json_object_body, with_query, with_raw_body

NAMES = ("forms9-question-comment-query-visibility-ignored", "forms9-reply-to-reply-body-visibility-wins",
         "forms9-reply-form-visibility-dropped", "forms9-question-comment-form-body-ignored",
         "forms9-answer-param-loses-on-anothers-question", "forms9-question-comment-body-visibility-wins")
FORM_TYPE = "application/x-www-form-urlencoded"


def _on() -> bool:
    return any(faults.is_on(name) for name in NAMES)


def _parent_kind(svc: Any, raw: str) -> str | None:
    """question, answer, comment (a comment whose parent is not a comment) or reply (one whose parent is)."""
    if not (raw.isdecimal() and len(raw) < 19):
        return None
    row = svc.db.one("SELECT n.type, p.type AS parent_type FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id "
                     "WHERE n.id = ?", (int(raw),))
    if row is None:
        return None
    if row["type"] != "comment":
        return str(row["type"])
    return "reply" if row["parent_type"] == "comment" else "comment"


def _with_form(request: Request, fields: dict[str, str]) -> Request:
    """``request`` carrying ``fields`` form-encoded as its body instead."""
    return with_raw_body(request, urlencode(fields).encode())


async def before(svc: Any, op: str, request: Request, caller: Any, _handler: Any) -> Response | None:
    """Notes, for ``admitted``, the parent's kind (a comment) or whether the caller wrote the question (an answer),
    and the body already read."""
    if op not in ("postComment", "postAnswer") or not _on():
        return None
    form = request.headers.get("content-type", "").split(";")[0].strip().lower() == FORM_TYPE
    if op == "postComment":
        request.state.forms9_kind = _parent_kind(svc, str(request.path_params.get("node_id", "")))
        request.state.forms9_form = dict(parse_qsl((await request.body()).decode("utf-8", "replace"),
                                                   keep_blank_values=True)) if form else None
        request.state.forms9_json = None if form else await json_object_body(request)
        return None
    raw = str(request.path_params.get("question_id", ""))
    row = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (int(raw),)) if raw.isdecimal() and len(raw) < 19 \
        else None
    request.state.forms9_others = row is not None and not caller.anonymous and int(row["author_id"]) != caller.id
    request.state.forms9_json = None if form else await json_object_body(request)
    return None


def admitted(svc: Any, op: str, request: Request, caller: Any) -> Request:
    """The request as the broken server reads it (each fault's docstring in :mod:`faults_forms9`)."""
    if op not in ("postComment", "postAnswer") or not _on():
        return request
    state = request.state
    query = request.query_params
    body = getattr(state, "forms9_json", None)
    if op == "postAnswer":
        if (faults.is_on("forms9-answer-param-loses-on-anothers-question") and getattr(state, "forms9_others", False)
                and "body" in query and isinstance(body, dict) and "body" in body):
            return with_query(request, [(k, v) for k, v in query.multi_items() if k != "body"])
        return request
    kind, form = getattr(state, "forms9_kind", None), getattr(state, "forms9_form", None)
    if faults.is_on("forms9-question-comment-query-visibility-ignored") and kind == "question" \
            and "visibility" in query:
        return with_query(request, [(k, v) for k, v in query.multi_items() if k != "visibility"])
    if faults.is_on("forms9-reply-to-reply-body-visibility-wins") and kind == "reply" and "visibility" in query \
            and isinstance(body, dict) and "visibility" in body:
        return with_query(request, [(k, v) for k, v in query.multi_items() if k != "visibility"])
    if faults.is_on("forms9-reply-form-visibility-dropped") and kind == "comment" and form and "visibility" in form:
        return _with_form(request, {k: v for k, v in form.items() if k != "visibility"})
    if faults.is_on("forms9-question-comment-form-body-ignored") and kind == "question" and form is not None:
        return _with_form(request, {})
    if faults.is_on("forms9-question-comment-body-visibility-wins") and kind == "question" \
            and "visibility" in query and isinstance(body, dict) and "visibility" in body:
        return with_query(request, [(k, v) for k, v in query.multi_items() if k != "visibility"])
    return request
