"""Where the faults of :mod:`faults_paths16` bite (issue 44): one :class:`request_hooks.Hook` (``after``: an
administrator's unwikify that leaves the node wiki, the record of a question comment's send to moderation). Each
function leaves the response as it is unless its own fault is on (``faults.is_on``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, with_body
from .service import Service
from .visibility import wire_name


def _node_id(request: Request) -> int | None:
    raw = str(request.path_params.get("node_id", ""))
    return int(raw) if raw.isascii() and raw.isdecimal() and len(raw) < 19 else None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The response as the broken paths serve it (:func:`admin_unwikify_keeps_wiki`, :func:`question_comment_type`)."""
    if response.status_code != 200:
        return response
    if op == "cancelWiki":
        admin_unwikify_keeps_wiki(svc, request, caller)
    if op == "sendToModeration":
        return question_comment_type(svc, request, response)
    if op == "listAnswerComments":
        return own_thread_reply_listed_public(svc, response)
    return response


def admin_unwikify_keeps_wiki(svc: Service, request: Request, caller: Caller) -> None:
    """paths16-cancelwiki-admin-stays-wiki: the administrator's accepted unwikify sets the node's wiki flag back (a
    200 unwikify is only answered for a node that was wiki: actions.py refuses the others with 409)."""
    node = _node_id(request)
    if node is None or caller.role != "admin" or not faults.is_on("paths16-cancelwiki-admin-stays-wiki"):
        return
    with svc.tx("wiki") as conn:
        conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node,))


def question_comment_type(svc: Service, request: Request, response: Response) -> Response:
    """paths16-sendtomod-question-comment-type-table: the record of a comment directly on a question typed by its
    storage table's name."""
    node_id = _node_id(request)
    if node_id is None or not faults.is_on("paths16-sendtomod-question-comment-type-table"):
        return response
    node = svc.db.one("SELECT type, parent_id, question_id FROM nodes WHERE id = ?", (node_id,))
    if node is None or node["type"] != "comment" or node["parent_id"] != node["question_id"]:
        return response
    body: Any = body_json(response)
    record = ((body or {}).get("result") or {}).get("sendToModAction") if isinstance(body, dict) else None
    if not isinstance(record, dict) or not isinstance(record.get("node"), dict):
        return response
    record["node"]["type"] = "question_comment"
    return with_body(response, body)


def own_thread_reply_listed_public(svc: Service, response: Response) -> Response:
    """paths16-own-public-reply-listed-full: in an answer's comment list, a private reply whose writer also wrote the
    public comment it answers is shown with full visibility and no recipients (stored as set, listed as its
    thread's top comment is)."""
    if not faults.is_on("paths16-own-public-reply-listed-full"):
        return response
    body: Any = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    changed = False
    for item in body["list"]:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        row = svc.db.one("SELECT c.visibility AS v FROM nodes c JOIN nodes p ON p.id = c.parent_id WHERE c.id = ? "
                         "AND c.type = 'comment' AND p.type = 'comment' AND p.author_id = c.author_id "
                         "AND p.visibility = 'full'", (item["id"],))
        if row is None or row["v"] == "full":
            continue
        shown = wire_name("full")
        if shown is None:
            item.pop("visibility", None)
            item.pop("recipients", None)
        else:
            item["visibility"], item["recipients"] = shown, []
        changed = True
    return with_body(response, body) if changed else response
