"""Where the planted faults of refusals2 bite (issue 44; the entries and the sentences they break are in
:mod:`faults_refusals2`): one id edge of one path answered with a 500, and two stated refusals turned into a
redirect to a login page. Called from the dispatch (path ids, refusals) and from the comment and job handlers (body
fields); with no such fault on each returns at its first test.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .errors import ApiError
from .http_io import json_response
from .service import Service

_PATH_EDGES: dict[str, tuple[str, str, str]] = {
    # fault name: (operation, path parameter, edge)
    "refusals2-comment-node-zero-500": ("postComment", "node_id", "zero"),
    "refusals2-answer-question-negative-500": ("postAnswer", "question_id", "negative"),
    "refusals2-lock-node-not-a-number-500": ("lockNode", "node_id", "not_a_number"),
    "refusals2-user-questions-too-large-500": ("listUserQuestions", "user_id", "too_large"),
    "refusals2-followers-node-negative-500": ("listNodeFollowers", "node_id", "negative"),
    "refusals2-answer-comments-zero-500": ("listAnswerComments", "answer_id", "zero"),
}
NO_BODY_REDIRECTED = "refusals2-comment-without-body-redirected"
NO_TYPE_REDIRECTED = "refusals2-gdpr-no-type-redirected"
COLON_ADDED_REDIRECTED = "refusals2-comment-colon-added-password-redirected"
MODERATED_REDIRECTED = "refusals2-wrong-password-comment-on-moderated-answer-redirected"
UNWIKIFY_REDIRECTED = "refusals2-wrong-password-unwikify-of-wiki-node-redirected"


class PlantedServerError(RuntimeError):
    """A planted crash on a body field at its edge: the server's catch-all answers it with a 500."""


def edge_of(raw: str) -> str:
    """Which edge of spec/dimensions.yaml ``id_edge`` a raw id is (``plain`` for an ordinary positive id)."""
    text = raw.strip()
    digits = text.lstrip("-")
    if not (digits.isascii() and digits.isdecimal()):
        return "not_a_number"
    value = int(text)
    if value == 0:
        return "zero"
    if value < 0:
        return "negative"
    return "too_large" if value >= 2**63 else "plain"


def path_edge(op_id: str, request: Request) -> Response | None:
    """A 500 for the one path id edge a refusals2 fault breaks; None otherwise."""
    for name, (op, key, edge) in _PATH_EDGES.items():
        if op == op_id and faults.is_on(name) and edge_of(str(request.path_params.get(key, "1"))) == edge:
            return json_response({"error": "internal error (planted: refusals2)"}, 500)
    return None


def body_fields(op_id: str, request: Request, fields: dict[str, Any]) -> None:
    """Crash on the one body field edge a refusals2 fault breaks; keep what :func:`refusal` needs to know."""
    if not faults.active():
        return
    if op_id == "postComment":
        request.state.refusals2_no_body = "body" not in fields
        recipients = fields.get("recipients")
        if faults.is_on("refusals2-comment-recipient-not-a-number-500") and isinstance(recipients, list) and any(
                isinstance(r, dict) and edge_of(str(r.get("id", "1"))) == "not_a_number" for r in recipients):
            raise PlantedServerError("recipient id is not a number")
    if op_id == "scheduleGdprJob":
        request.state.refusals2_no_type = fields.get("type") in (None, "")
    user = fields.get("user")
    if op_id == "scheduleGdprJob" and faults.is_on("refusals2-gdpr-user-id-negative-500") and isinstance(
            user, dict) and user.get("id") is not None and edge_of(str(user["id"])) == "negative":
        raise PlantedServerError("user id is negative")


def refusal(svc: Service, op_id: str, request: Request, exc: ApiError) -> Response | None:
    """The refusal ``exc`` as a 302 to the login page when a refusals2 fault is on for this call; else None."""
    if not 400 <= exc.status < 500:
        return None
    if op_id == "postComment" and faults.is_on(NO_BODY_REDIRECTED) and getattr(
            request.state, "refusals2_no_body", False) and _kind(svc, request) == "question":
        return _to_login(request)
    if op_id == "scheduleGdprJob" and faults.is_on(NO_TYPE_REDIRECTED) and getattr(
            request.state, "refusals2_no_type", False):
        return _to_login(request)
    if op_id == "postComment" and exc.status == 401 and faults.is_on(COLON_ADDED_REDIRECTED) and _colon_added(
            request):
        return _to_login(request)
    if op_id == "postComment" and exc.status == 401 and faults.is_on(MODERATED_REDIRECTED) and (
            "authorization" in request.headers) and _node(svc, request, "in_moderation") == (1, "answer"):
        return _to_login(request)
    if op_id == "cancelWiki" and exc.status == 401 and faults.is_on(UNWIKIFY_REDIRECTED) and (
            "authorization" in request.headers):
        wiki = _node(svc, request, "wiki")
        if wiki is not None and bool(wiki[0]):
            return _to_login(request)
    return None


def _colon_added(request: Request) -> bool:
    """Whether the request's Basic password holds a colon (the form "the right one with ':<more>' added")."""
    scheme, _, encoded = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return False
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return False
    username, sep, password = decoded.partition(":")
    return bool(username) and bool(sep) and ":" in password


def _kind(svc: Service, request: Request) -> str | None:
    """The type of the node in the path (None when there is no such node)."""
    found = _node(svc, request, "type")
    return None if found is None else str(found[1])


def _node(svc: Service, request: Request, column: str) -> tuple[Any, str] | None:
    """``column`` and the type of the node in the path (None when there is no such node)."""
    raw = str(request.path_params.get("node_id", ""))
    if edge_of(raw) != "plain":
        return None
    row = svc.db.one(f"SELECT {column}, type FROM nodes WHERE id = ?", (int(raw),))
    return None if row is None else (row[0], str(row["type"]))


def _to_login(request: Request) -> Response:
    return Response(b"", status_code=302, headers={"Location": "/users/login.html?next=" + request.url.path})
