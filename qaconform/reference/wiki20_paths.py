"""Where the faults of :mod:`faults_wiki20` bite (issue 44 items 2 and 5): one :class:`request_hooks.Hook` (``after``:
the record of an answer's unwikify, of a wiki node's send to moderation). Each function leaves the response as it is
unless its own fault is on (``faults.is_on``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, with_body
from .service import Service


def _node_id(request: Request) -> int | None:
    raw = str(request.path_params.get("node_id", ""))
    return int(raw) if raw.isascii() and raw.isdecimal() and len(raw) < 19 else None


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The response as the broken paths serve it (:func:`answer_unwikify_names_question`)."""
    if response.status_code != 200:
        return response
    if op == "cancelWiki":
        return answer_unwikify_names_question(svc, request, response)
    if op == "sendToModeration":
        return wiki_send_not_private(svc, request, response)
    return response


def answer_unwikify_names_question(svc: Service, request: Request, response: Response) -> Response:
    """wiki20-kind-cancelwiki-answer-node-is-question: the wiki action of an answer's accepted unwikify names the
    answer's question as its node."""
    node_id = _node_id(request)
    if node_id is None or not faults.is_on("wiki20-kind-cancelwiki-answer-node-is-question"):
        return response
    node = svc.db.one("SELECT type, question_id FROM nodes WHERE id = ?", (node_id,))
    if node is None or node["type"] != "answer":
        return response
    body: Any = body_json(response)
    record = ((body or {}).get("result") or {}).get("wikifyAction") if isinstance(body, dict) else None
    if not isinstance(record, dict) or not isinstance(record.get("node"), dict):
        return response
    record["node"]["id"] = node["question_id"]
    record["node"]["type"] = "question"
    return with_body(response, body)


def wiki_send_not_private(svc: Service, request: Request, response: Response) -> Response:
    """wiki20-kind-sendtomod-wiki-not-private: the record of a send to moderation of a node that is wiki (the
    reference keeps the flag when a node goes to moderation) says private false."""
    node_id = _node_id(request)
    if node_id is None or not faults.is_on("wiki20-kind-sendtomod-wiki-not-private"):
        return response
    node = svc.db.one("SELECT wiki FROM nodes WHERE id = ?", (node_id,))
    if node is None or not node["wiki"]:
        return response
    body: Any = body_json(response)
    record = ((body or {}).get("result") or {}).get("sendToModAction") if isinstance(body, dict) else None
    if not isinstance(record, dict):
        return response
    record["private"] = False
    return with_body(response, body)
