"""Where blind round 88's faults bite (faults_blind_round88.py, issue 44): one path each, around the handler
(request_hooks.HOOKS runs these stages). Every function leaves the call as it is unless its own fault is on.
"""

from __future__ import annotations

import dataclasses
import time
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .bodies import structured
from .comments import INHERITED_MESSAGE
from .errors import ApiError
from .hook_kit import (
    after_by_op,
    each_item,
    form_fields,
    id_as_string,
    kept_json_object,
    list_items,
    path_node,
    result_action,
    sent_fields,
    with_action,
)
from .http_io import body_json, json_response, with_body, with_query
from .service import Service

KEPT_S = 5.0
"""How long round88-questions-next-page-cursor-shared keeps a question list page's last question."""
_cursors: dict[tuple[str, int], tuple[float, int, Any, str]] = {}
"""(the URL without its page, page) -> (when, reader's id, the page's last item's id, reader's role)."""
_READS_BODY = ("round88-gdpr-scheduledate-param-past", "round88-kind-gdpr-operations-param-ignored",
               "round88-gdpr-user-id-reassign-id-refused",
               "round88-reply-to-locked-public-private-refused")
OTHER_LISTS_SORTS = frozenset({"popularity", "active", "votes", "hottest", "reputation", "viewCount", "usedCount",
                               "answerCount", "commentCount", "favoriteCount", "followers", "reportCount"})
"""Sort names of the question, topic and expert lists that the space list does not take."""
REASSIGN_INVALID = "The provided 'reassignUser' is/are invalid"
PAST = "The desired date is in the past and is it not eligible."


def _only_key(value: Any, key: str) -> bool:
    return isinstance(value, dict) and [k for k in value if value.get(k) not in (None, "")] == [key]


# --- before: a response instead of the handler's --------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Any) -> Response | None:
    if op in ("postComment", "scheduleGdprJob") and any(faults.is_on(n) for n in _READS_BODY):
        await request.body()  # kept by Starlette: the later stages and the handler read it again
    q = request.query_params
    if op == "listUserAnswers" and faults.is_on("round88-user-answers-exclude-novice-hidden-shown") \
            and "exclude" in q and svc.visibility.spaces_hidden_from(caller):
        response: Response = await handler(svc, request, dataclasses.replace(caller, role="member"))
        return response
    if op == "scheduleGdprJob":
        return _job_before(request)
    if op in CURSOR_FAULTS and faults.is_on(CURSOR_FAULTS[op]):
        return await _page_after_cursor(svc, op, request, caller, handler)
    if op == "postComment" and faults.is_on("round88-reply-to-locked-public-private-refused"):
        parent = path_node(svc, request)
        visibility = sent_fields(request).get("visibility")
        if parent is not None and parent["type"] == "comment" and parent["visibility"] == "full" \
                and parent["locked"] and visibility not in (None, "", "full"):
            return json_response({"error": INHERITED_MESSAGE}, 400)
    return None


def _job_before(request: Request) -> Response | None:
    fields = sent_fields(request)
    if faults.is_on("round88-gdpr-scheduledate-param-past") and "scheduleDate" in request.query_params:
        body = kept_json_object(request) or form_fields(request)
        if body and "scheduleDate" not in body:
            return json_response({"error": PAST}, 400)
    if faults.is_on("round88-kind-gdpr-operations-param-ignored") and "operations" in request.query_params:
        sent = kept_json_object(request)
        if sent and "operations" not in sent:
            return json_response({"error": "The provided 'operations' is/are invalid"}, 400)
    if faults.is_on("round88-gdpr-user-id-reassign-id-refused") and fields.get("type") == "individual":
        try:
            user = structured(fields, "user") if "user" in fields else None
            reassign = structured(fields, "reassignUser") if "reassignUser" in fields else None
        except Exception:  # noqa: BLE001 - the handler gives the clear message
            return None
        if _only_key(user, "id") and _only_key(reassign, "id"):
            return json_response({"error": "The provided 'user' is/are invalid"}, 400)
    return None


# --- admitted: the request as the handler reads it ------------------------------------------------------------
def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    q = request.query_params
    if op == "listQuestions" and faults.is_on("round88-questions-spaceid-lang-ignored") \
            and "spaceId" in q and "lang" in q:
        return with_query(request, [(k, v) for k, v in q.multi_items() if k != "spaceId"])
    return request


# --- after: the handler's response as the broken server serves it ----------------------------------------------
def _status(response: Response, status: int) -> Response:
    headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
    return Response(bytes(response.body), status_code=status, headers=headers)


def _question(svc: Service, request: Request) -> Any:
    return path_node(svc, request, "question_id")


def _answer(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    question = _question(svc, request)
    if question is None:
        return response
    if faults.is_on("round88-answer-wiki-question-id-integer") and question["wiki"]:
        body = body_json(response)
        if isinstance(body, dict) and isinstance(body.get("id"), str) and body["id"].isdecimal():
            body["id"] = int(body["id"])
            response = with_body(response, body)
    if faults.is_on("round88-answer-accepted-question-200") and question["marked"] and response.status_code == 201:
        response = _status(response, 200)
    return response


def _spaces(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on("round88-spaces-anonymous-id-string") and caller.anonymous:
        response = each_item(response, id_as_string)
    if faults.is_on("round88-spaces-invalid-sort-other-list-name") \
            and request.query_params.get("sort") in OTHER_LISTS_SORTS:
        body, items = list_items(response)
        counts = {r["space_id"]: r["n"] for r in svc.db.all(
            "SELECT space_id, COUNT(*) AS n FROM nodes WHERE type = 'question' GROUP BY space_id", ())}
        if len(items) > 1:
            items.sort(key=lambda s: -counts.get(s.get("id") if isinstance(s, dict) else None, 0))
            response = with_body(response, body)
    return response


def _formatted_seconds(item: dict[str, Any]) -> None:
    if item.get("marked") is True and isinstance(item.get("creationDate"), int):
        when = datetime.fromtimestamp(item["creationDate"] / 1000, tz=UTC)
        item["creationDateFormatted"] = when.strftime("%m/%d/%Y %I:%M:%S %p")


def _user_answers(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if faults.is_on(CURSOR_FAULTS["listUserAnswers"]):
        response = _cursor_kept(svc, request, caller, response)
    if not faults.is_on("round88-user-answers-accepted-formatted-seconds"):
        return response
    return each_item(response, _formatted_seconds)


def _unfavorite(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on("round88-unfavorite-wrap-canceled-date-missing") or "wrap" not in request.query_params:
        return response
    return with_action(response, "favoriteAction", lambda a: a.pop("canceledDate", None))


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    node = path_node(svc, request)
    if not faults.is_on("round88-lock-accepted-question-extra-null") or node is None \
            or node["type"] != "question" or not node["marked"]:
        return response
    action = result_action(body_json(response), "lockAction")
    if action is None:
        return response
    if isinstance(action.get("id"), int):
        with svc.tx("lock") as conn:
            conn.execute("UPDATE actions SET extra = NULL WHERE id = ?", (action["id"],))
    return with_action(response, "lockAction", {"extra": None})


def _cursor_key(request: Request) -> str:
    return request.url.path + "?" + "&".join(sorted(f"{k}={v}" for k, v in request.query_params.multi_items()
                                                    if k != "page"))


def _page(request: Request) -> int:
    raw = request.query_params.get("page") or "1"
    return int(raw) if raw.isdecimal() else 0


CURSOR_FAULTS = {"listQuestions": "round88-questions-next-page-cursor-shared",
                 "listUserAnswers": "round88-kind-user-answers-next-page-cursor-shared"}


def _cursor_kept(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """The cursor faults: the last item each page was served with, kept by the URL without its page."""
    _, items = list_items(response)
    if _page(request) >= 1 and items and isinstance(items[-1], dict) and "id" in items[-1]:
        _cursors[(_cursor_key(request), _page(request))] = (time.monotonic(), caller.id, items[-1]["id"],
                                                            caller.role)
    return response


def _questions(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    if not faults.is_on(CURSOR_FAULTS["listQuestions"]):
        return response
    return _cursor_kept(svc, request, caller, response)


async def _page_after_cursor(svc: Service, op: str, request: Request, caller: Caller,
                             handler: Any) -> Response | None:
    """round88-questions-next-page-cursor-shared (and its kind on the user's answers): page N+1 after another
    reader's page N starts after that reader's last item in that reader's order (a keyset cursor)."""
    page = _page(request)
    last = _cursors.get((_cursor_key(request), page - 1)) if page >= 2 else None
    if last is None or last[1] == caller.id or time.monotonic() - last[0] >= KEPT_S:
        return None
    raw = request.query_params.get("pageSize") or ""
    size = int(raw) if raw.isdecimal() and int(raw) > 0 else svc.page_size
    pairs = [(k, v) for k, v in request.query_params.multi_items() if k not in ("page", "pageSize")]
    wide = with_query(request, [*pairs, ("page", "1"), ("pageSize", str(size * (page + 1) + 50))])
    _, mine = list_items(await handler(svc, wide, caller))
    _, theirs = list_items(await handler(svc, wide, dataclasses.replace(caller, id=last[1], role=last[3])))
    order = {(i.get("id") if isinstance(i, dict) else None): n for n, i in enumerate(theirs)}
    if last[2] not in order:
        return None
    start = next((n for n, i in enumerate(mine) if isinstance(i, dict) and order.get(i.get("id"), -1) > order[last[2]]),
                 len(mine))
    response: Response = await handler(svc, request, caller)
    body = body_json(response)
    if response.status_code != 200 or not isinstance(body, dict):
        return response
    body["list"] = mine[start:start + size]
    body["listCount"] = len(body["list"])
    return with_body(response, body)


def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    """round88-gdpr-reassign-invalid-error-object: the reassignUser-invalid refusal's message in an object."""
    if faults.is_on("round88-gdpr-reassign-invalid-error-object") and exc.status == 400 \
            and request.url.path.endswith("/jobs/gdpr/schedule.json") and body.get("error") == REASSIGN_INVALID:
        return {**body, "error": {"code": 400, "message": REASSIGN_INVALID}}
    return body


_AFTER = {
    "postAnswer": _answer,
    "listSpaces": _spaces,
    "listUserAnswers": _user_answers,
    "unmarkFavorite": _unfavorite,
    "lockNode": _lock,
    "listQuestions": _questions,
}
after = after_by_op(_AFTER)
