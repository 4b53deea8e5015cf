"""Where the faults of blind round 36 bite (issue 44; the entries are in :mod:`faults_blind_round36`).

Each function leaves the call as it is unless its own fault is on (``faults.is_on`` with the fault's literal name),
so with no fault on this module costs nothing but the calls. Hooks run from request_hooks.HOOKS; the one ownership
fault is asked by actions.lock (:func:`lock_owner`).
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .errors import ApiError, denied
from .fragments import JSON_TYPE
from .http_io import body_json, is_id, json_response, with_body, with_query, with_raw_body
from .service import Service

KEPT_S = 5.0
"""How long round36-user-answers-kept-after-read keeps a user's answer list after a read."""
TRACKER_CACHE_S = 3.0
"""How long round36-issuetypes-refetch-203 answers from the tracker client's cache."""

_kept_answers: dict[tuple[str, int], tuple[float, bytes]] = {}
_last_issue_types: list[float] = []
_FORM = "application/x-www-form-urlencoded"


def _node(svc: Service, request: Request, key: str = "node_id") -> sqlite3.Row | None:
    raw = request.path_params.get(key, "")
    if not is_id(str(raw)):
        return None
    return svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),))


def _is_form(request: Request) -> bool:
    return request.headers.get("content-type", "").split(";")[0].strip().lower() == _FORM


async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Any) -> Response | None:
    """Refusals decided before the handler, the kept answer list, and the form body read ahead (for admitted)."""
    q = request.query_params
    page = q.get("page", "")
    if (op == "listActiveExperts" and caller.role == "novice" and page.isdecimal() and int(page) >= 2
            and faults.is_on("round36-active-experts-novice-page2-403")):
        raise denied(caller.anonymous)
    if (op == "listUserQuestions" and caller.role == "novice" and "include" in q
            and faults.is_on("round36-user-questions-novice-include-403")):
        raise denied(caller.anonymous)
    if op == "cancelWiki" and caller.role == "moderator" and faults.is_on(
            "round36-cancelwiki-moderator-refused-other-space"):
        node = _node(svc, request)
        first = svc.db.one("SELECT MIN(id) FROM spaces")
        if node is not None and first is not None and node["space_id"] != first[0]:
            raise denied(caller.anonymous)
    if op == "postAnswer" and _is_form(request) and faults.is_on("round36-answer-form-nonascii-latin1"):
        await request.body()  # kept by Starlette on the request: admitted rewrites it
    if op == "listUserAnswers" and faults.is_on("round36-user-answers-kept-after-read"):
        kept = _kept_answers.get((str(request.url), caller.id))
        if kept is not None and time.monotonic() - kept[0] < KEPT_S:
            return Response(kept[1], media_type=JSON_TYPE)
    return None


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    """The request as the broken branch reads it: a form body decoded as Latin-1, a sorted comment list's size."""
    if op == "postAnswer" and _is_form(request) and faults.is_on("round36-answer-form-nonascii-latin1"):
        raw = vars(request).get("_body")
        if isinstance(raw, bytes) and raw:
            try:
                pairs = parse_qsl(raw.decode("ascii"), keep_blank_values=True, encoding="latin-1")
            except UnicodeDecodeError:
                return request
            return with_raw_body(request, urlencode(pairs, encoding="utf-8").encode("ascii"))
    q = request.query_params
    if (op == "listAnswerComments" and "pageSize" in q and "sort" in q
            and faults.is_on("round36-answer-comments-sorted-pagesize-echo-only")):
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "pageSize"])
    return request


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The handler's response as the broken server serves it."""
    if response.status_code >= 300 or not faults.active():
        return response
    if op == "listUserQuestions" and faults.is_on("round36-user-questions-marked-string"):
        return _marked_as_text(response)
    if op == "postComment" and faults.is_on("round36-comment-location-private-missing"):
        return _private_without_location(response)
    if op == "listIssueTypes":
        return _issue_types(caller, response)
    if op == "lockNode" and faults.is_on("round36-lock-answer-actiondate-iso-t"):
        node = _node(svc, request)
        if node is not None and node["type"] == "answer":
            return _lock_date_iso(response)
    if op == "listAnswerComments" and (faults.is_on("round36-answer-comments-sorted-pagesize-echo-only")
                                       or faults.is_on("round36-private-comment-listed-once-replied")):
        return _answer_comments(svc, request, caller, response)
    if op == "listUserAnswers" and faults.is_on("round36-user-answers-kept-after-read"):
        _kept_answers[(str(request.url), caller.id)] = (time.monotonic(), bytes(response.body))
    return response


def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """A refusal answered off the interface: novice's lock of an answer as a failed action, an unknown username on
    the earned expert list as a 404."""
    header = request.headers.get("authorization")
    if (op == "listEarnedExperts" and exc.status == 401 and header
            and faults.is_on("round36-earned-experts-unknown-user-404")
            and svc.authenticator.named(header) is None):
        return json_response({"error": "user not found"}, 404)
    if op == "lockNode" and exc.status in (401, 403) and faults.is_on("round36-lock-novice-answer-denied-200"):
        who = caller
        if who is None:
            try:
                who = svc.caller(request)
            except ApiError:
                return None
        node = _node(svc, request)
        if who.role == "novice" and node is not None and node["type"] == "answer":
            return json_response({"success": False, "result": {}})
    return None


def lock_owner(db: Any, node: sqlite3.Row, caller: Caller) -> bool:
    """round36-lock-own-from-child-author: 'own' taken from having written a direct child of the node."""
    if not faults.is_on("round36-lock-own-from-child-author") or not caller.can(auth.LOCK_OWN):
        return False
    return db.one("SELECT 1 FROM nodes WHERE parent_id = ? AND author_id = ? LIMIT 1",
                  (node["id"], caller.id)) is not None


def _marked_as_text(response: Response) -> Response:
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    changed = False
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("marked") is True:
            item["marked"] = "true"
            changed = True
    return with_body(response, body) if changed else response


def _private_without_location(response: Response) -> Response:
    body = body_json(response)
    if response.status_code != 201 or not isinstance(body, dict):
        return response
    if body.get("visibility") in (None, "full", "public") or "location" not in response.headers:
        return response
    headers = {k: v for k, v in response.headers.items()
               if k.lower() not in ("content-length", "content-type", "location")}
    return json_response(body, response.status_code, headers)


def _issue_types(caller: Caller, response: Response) -> Response:
    if faults.is_on("round36-issuetypes-localized-name-non-admin") and caller.role != "admin":
        body = body_json(response)
        if isinstance(body, list):
            return with_body(response, [{**t, "name": {"value": t.get("name")}} if isinstance(t, dict) else t
                                        for t in body])
    if faults.is_on("round36-issuetypes-refetch-203"):
        now = time.monotonic()
        cached = bool(_last_issue_types) and now - _last_issue_types[-1] < TRACKER_CACHE_S
        _last_issue_types[:] = [now]
        if cached:
            headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
            return Response(bytes(response.body), 203, headers=headers)
    return response


def _lock_date_iso(response: Response) -> Response:
    body = body_json(response)
    action = body.get("result", {}).get("lockAction") if isinstance(body, dict) else None
    if isinstance(action, dict) and isinstance(action.get("actionDate"), str):
        action["actionDate"] = action["actionDate"].replace(" ", "T", 1)
        return with_body(response, body)
    return response


def _answer_comments(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    q = request.query_params
    body = body_json(response)
    if not isinstance(body, dict):
        return response
    if "pageSize" in q and "sort" in q and faults.is_on("round36-answer-comments-sorted-pagesize-echo-only"):
        body["pageSize"] = int(q["pageSize"]) if q["pageSize"].isdecimal() else body.get("pageSize")
        return with_body(response, body)
    if faults.is_on("round36-private-comment-listed-once-replied"):
        return _replied_private_listed(svc, request, caller, response, body)
    return response


def _replied_private_listed(svc: Service, request: Request, caller: Caller, response: Response,
                            body: dict[str, Any]) -> Response:
    """Private comments of the answer with a reply posted since the server started, added where they are missing."""
    raw = request.path_params.get("answer_id", "")
    items = body.get("list")
    if not is_id(str(raw)) or not isinstance(items, list) or (request.query_params.get("page") or "1") != "1":
        return response
    shown = {i.get("id") for i in items if isinstance(i, dict)}
    ids = [int(r[0]) for r in svc.db.all(
        "SELECT DISTINCT p.id FROM nodes p JOIN nodes c ON c.parent_id = p.id AND c.type = 'comment'"
        " WHERE p.answer_id = ? AND p.type = 'comment' AND p.visibility != 'full' AND c.id > ? ORDER BY p.id",
        (int(raw), svc.seeded_max_node_id))]
    missing = [i for i in ids if i not in shown]
    if not missing:
        return response
    items.extend(svc.render.nodes_json(svc.render.nodes_by_ids(missing), caller))
    body["listCount"] = len(items)
    if isinstance(body.get("totalCount"), int):
        body["totalCount"] += len(missing)
    return with_body(response, body)
