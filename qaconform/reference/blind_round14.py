"""Where the faults of the fourteenth blind round bite (issue 44, round14; entries in faults_blind_round14.py).

Each hook is a no-op unless its fault is on: the handlers call them at the one place the planted bug lives.
"""

from __future__ import annotations

import html
import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .db import Database
from .errors import denied
from .http_io import PREFIX, json_response

CONTENT_PAGED_FROM = 9
"""round14-content-enveloped-from-nine-entries: node entries from which the content list is paged (the seed gives
admin 9)."""
GROUPED_FROM = 1000
"""round14-earned-experts-reputation-grouped: reputations from which a thousands separator is written."""


def _body(resp: Response) -> Any:
    return json.loads(bytes(resp.body))


def _again(resp: Response, body: Any) -> Response:
    headers = {k: v for k, v in resp.headers.items() if k.lower() not in ("content-length", "content-type")}
    return json_response(body, resp.status_code, headers)


def content_enveloped(node_entries: int) -> bool:
    """Whether the content list is wrapped in the envelope (a long list through the paged serializer)."""
    return node_entries >= CONTENT_PAGED_FROM and faults.is_on("round14-content-enveloped-from-nine-entries")


def answer_comments(request: Request, page: Response) -> Response:
    """round14-reply-original-parent-null: replies to comments lose their originalParentId in the list."""
    if page.status_code != 200 or not faults.is_on("round14-reply-original-parent-null"):
        return page
    body = _body(page)
    answer = str(request.path_params.get("answer_id"))
    for item in body.get("list") or []:
        if isinstance(item, dict) and "originalParentId" in item and str(item["originalParentId"]) != answer:
            item["originalParentId"] = None
    return _again(page, body)


def user_questions_refused(db: Database, caller: Caller, user_id: int) -> None:
    """round14-user-questions-staff-hidden-from-anonymous: a staff user's questions refused to anonymous."""
    if not (caller.anonymous and faults.is_on("round14-user-questions-staff-hidden-from-anonymous")):
        return
    row = db.one("SELECT role FROM users WHERE id = ?", (user_id,))
    if row is not None and row["role"] in ("admin", "moderator"):
        raise denied(True)


def user_questions_page(page: Response) -> Response:
    """round14-empty-user-questions-no-sort: an empty page's envelope without sort."""
    if page.status_code != 200 or not faults.is_on("round14-empty-user-questions-no-sort"):
        return page
    body = _body(page)
    if body.get("list") == []:
        body.pop("sort", None)
        return _again(page, body)
    return page


def user_answers_moved(request: Request) -> Response | None:
    """round14-user-answers-wrap-redirects-to-v1: the wrap option answered by a redirect to /services/v1."""
    if "wrap" not in request.query_params or not faults.is_on("round14-user-answers-wrap-redirects-to-v1"):
        return None
    path = request.url.path.replace(f"{PREFIX}/", "/services/v1/", 1)
    query = f"?{request.url.query}" if request.url.query else ""
    return Response(b"", status_code=301, headers={"Location": f"{path}{query}"})


def earned_experts(page: Response) -> Response:
    """round14-earned-experts-reputation-grouped: large reputations as grouped strings."""
    if page.status_code != 200 or not faults.is_on("round14-earned-experts-reputation-grouped"):
        return page
    body = _body(page)
    for item in body.get("list") or []:
        rep = item.get("reputation") if isinstance(item, dict) else None
        if isinstance(rep, int) and rep >= GROUPED_FROM:
            item["reputation"] = f"{rep:,}"
    return _again(page, body)


def lock_page(node: sqlite3.Row, page: Response) -> Response:
    """round14-lock-moderated-node-success-missing: a moderated node's lock answered without success."""
    if page.status_code != 200 or not node["in_moderation"] or not faults.is_on(
            "round14-lock-moderated-node-success-missing"):
        return page
    body = _body(page)
    body.pop("success", None)
    return _again(page, body)


def lock_extra(extra: str | None) -> str | None:
    """round14-lock-extra-html-escaped: the prompt stored escaped."""
    if extra is None or not faults.is_on("round14-lock-extra-html-escaped"):
        return extra
    return html.escape(extra, quote=True)


def followers_page(db: Database, node_id: int, only_active: bool, page: Response) -> Response:
    """round14-followers-pagecount-counts-inactive: pageCount of every relation when the list is of active ones."""
    if page.status_code != 200 or not only_active or not faults.is_on("round14-followers-pagecount-counts-inactive"):
        return page
    body = _body(page)
    row = db.one("SELECT COUNT(*) FROM follows f WHERE f.node_id = ?", (node_id,))
    every = int(row[0]) if row is not None else 0
    size = body.get("pageSize")
    if isinstance(size, int) and size > 0:
        body["pageCount"] = -(-every // size) if every else 0
    return _again(page, body)


def spaces_page(db: Database, body: dict[str, Any]) -> None:
    """round14-restricted-space-active-missing: a restricted space's item without active."""
    if not faults.is_on("round14-restricted-space-active-missing"):
        return
    restricted = set(db.ids("SELECT DISTINCT space_id FROM space_denied", []))
    for item in body.get("list") or []:
        if isinstance(item, dict) and item.get("id") in restricted:
            item.pop("active", None)


def cancelwiki_page(node: sqlite3.Row, caller: Caller, page: Response) -> Response:
    """round14-cancelwiki-own-node-success-string: the own-post path answers success as a string."""
    if page.status_code != 200 or node["author_id"] != caller.id or not faults.is_on(
            "round14-cancelwiki-own-node-success-string"):
        return page
    body = _body(page)
    if isinstance(body.get("success"), bool):
        body["success"] = str(body["success"]).lower()
    return _again(page, body)


def sendtomod_not_private(node: sqlite3.Row, caller: Caller) -> bool:
    """round14-sendtomod-own-node-not-private: one's own node sent to moderation recorded as not private."""
    return node["author_id"] == caller.id and faults.is_on("round14-sendtomod-own-node-not-private")
