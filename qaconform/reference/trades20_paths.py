"""Where the planted faults of :mod:`faults_trades20` bite (issue 44, trades20): a refusal answered off the table's
form on the one relation an own-node cell of the permission table refuses (member on an administrator's answer).
``refusal`` answers the handler's refusal as the broken server does; it checks ``faults.is_on`` first."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from . import faults
from .errors import ApiError
from .http_io import is_id

CANCELWIKI_200 = "trades20-member-cancelwiki-admins-node-200"


def _node(svc: Any, request: Request) -> Any:
    raw = request.path_params.get("node_id", "")
    return svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),)) if is_id(raw) else None


def _admins_answer(svc: Any, request: Request) -> Any:
    node = _node(svc, request)
    if node is None:
        return None
    author = svc.db.one("SELECT role FROM users WHERE id = ?", (node["author_id"],))
    return node if author is not None and author["role"] == "admin" and node["type"] == "answer" else None


def refusal(svc: Any, op: str, request: Request, caller: Any, exc: ApiError) -> Response | None:
    """member's refused unwikify of a published answer an administrator wrote (not wiki, not locked, not in
    moderation) as a 200."""
    if caller is None or not 400 <= exc.status < 500:
        return None
    if op == "cancelWiki" and caller.role == "member" and faults.is_on(CANCELWIKI_200):
        node = _admins_answer(svc, request)
        if node is not None and not (node["wiki"] or node["locked"] or node["in_moderation"]):
            return JSONResponse({"success": True}, status_code=200)
    return None
