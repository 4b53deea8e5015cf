"""Where the faults of blind round 30 (issue 44, :mod:`faults_blind_round30`) bite: hooks around the call
(:mod:`request_hooks`, entry ``round30``) and four small checks the comment, body, job and content code ask.

Each function leaves the call as it is unless its own fault is on (``faults.is_on``), so with no fault on this
module changes nothing.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .db import as_id
from .errors import ApiError
from .http_io import body_json, json_object_body, path_id, with_body, with_query
from .service import Service

Handler = Any
"""The handler a ``before`` hook may call (request_hooks.Handler; not imported: request_hooks imports this module)."""

KEPT_COUNT_S = 5.0
"""How long round30-unfavorite-count-kept-5s keeps a node's favoriteCount."""
_kept_counts: dict[int, tuple[float, int]] = {}
_unwikified: set[int] = set()
"""Nodes unwikified since the last read of a user's question list (round30-user-questions-wiki-first-read)."""
_GROUP_SORTS = frozenset({"name", "newest", "oldest"})
"""The group list's sort names (site_lists.NAMED_SORTS): any other is invalid and falls back to name."""


# --- small checks asked by the handlers --------------------------------------------------------------------
def option_check_skipped(caller: Caller, parent: Any, visibility: str | None) -> bool:
    """round30-group-option-reply-to-own-comment: the group option let through on a reply to one's own comment."""
    return (visibility == "group" and parent["type"] == "comment" and parent["author_id"] == caller.id
            and caller.can(auth.USE_PRIVATE_COMMENTS)
            and faults.is_on("round30-group-option-reply-to-own-comment"))


def recipients_body_wins(key: str, fields: dict[str, Any]) -> bool:
    """round30-comment-recipients-body-wins: recipients given both ways are taken from the body."""
    return key == "recipients" and key in fields and faults.is_on("round30-comment-recipients-body-wins")


def csv_lookup_skipped(fields: dict[str, Any]) -> bool:
    """round30-gdpr-csv-missing-with-reassign-id: the file is not looked up when reassignUser is given by id."""
    if not faults.is_on("round30-gdpr-csv-missing-with-reassign-id"):
        return False
    reassign = fields.get("reassignUser")
    return isinstance(reassign, dict) and reassign.get("id") not in (None, "")


def content_clause(clause: str) -> str:
    """round30-content-private-under-locked-parent: comments under a locked parent pass the privacy filter."""
    if not faults.is_on("round30-content-private-under-locked-parent"):
        return clause
    return (f"({clause} OR (n.type = 'comment' AND EXISTS (SELECT 1 FROM nodes p WHERE p.id = n.parent_id"
            " AND p.locked = 1)))")


# --- hooks around the call ---------------------------------------------------------------------------------
async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    if op == "scheduleGdprJob" and (faults.is_on("round30-gdpr-string-user-id-error-body")
                                    or faults.is_on("round30-gdpr-email-user-200")):
        body = await json_object_body(request)  # read once: Starlette keeps it for the handler
        user = body.get("user") if body else None
        if isinstance(user, dict):
            request.state.round30_user_id_string = isinstance(user.get("id"), str) and user["id"].strip() != ""
            request.state.round30_user_email = user.get("email") not in (None, "")
        return None
    if op == "cancelWiki" and faults.is_on("round30-member-cancelwiki-other-still-unwikified"):
        _unwikify_before_own_check(svc, request, caller)
        return None
    if op == "listUserAnswers" and "sort" in request.query_params and faults.is_on(
            "round30-user-answers-sorted-page-overfull"):
        return await _overfull_page(svc, request, caller, handler)
    return None


def _unwikify_before_own_check(svc: Service, request: Request, caller: Caller) -> None:
    if caller.can(auth.MARK_WIKI) or not caller.can(auth.CONVERT_OWN_TO_WIKI):
        return
    node_id = as_id(request.path_params.get("node_id"))
    node = svc.db.one("SELECT author_id, wiki FROM nodes WHERE id = ?", (node_id,))
    if node is not None and node["wiki"] and node["author_id"] != caller.id:
        with svc.tx("wiki") as conn:
            conn.execute("UPDATE nodes SET wiki = 0 WHERE id = ?", (node_id,))


async def _overfull_page(svc: Service, request: Request, caller: Caller, handler: Handler) -> Response:
    page = await handler(svc, request, caller)
    body = body_json(page)
    if page.status_code != 200 or not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return page
    size, number, total = body.get("pageSize"), body.get("page"), body.get("totalCount")
    if not (isinstance(size, int) and isinstance(number, int) and isinstance(total, int)):
        return page
    if len(body["list"]) != size or total <= number * size:
        return page
    pairs = [(k, v) for k, v in request.query_params.multi_items() if k != "page"] + [("page", str(number + 1))]
    following = body_json(await handler(svc, with_query(request, pairs), caller))
    if isinstance(following, dict) and following.get("list"):
        body["list"].append(following["list"][0])
        body["listCount"] = len(body["list"])
    return with_body(page, body)


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    if response.status_code not in (200, 201):
        return response
    if op == "lockNode" and not caller.can(auth.LOCK_ANY) and faults.is_on("round30-lock-own-extra-null"):
        return _edit_action(response, "lockAction", "extra", None)
    if op == "sendToModeration" and faults.is_on("round30-sendtomod-after-unwikify-not-private"):
        node_id = path_id(request)
        if svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1",
                      (node_id,)) is not None:
            return _edit_action(response, "sendToModAction", "private", False)
        return response
    if op == "listGroups" and faults.is_on("round30-groups-invalid-sort-projected-reversed"):
        return _reversed_groups(request, response)
    if op == "scheduleGdprJob" and response.status_code == 201 and faults.is_on("round30-gdpr-email-user-200"):
        if getattr(request.state, "round30_user_email", False):
            response.status_code = 200
        return response
    if op == "unmarkFavorite" and faults.is_on("round30-unfavorite-count-kept-5s"):
        return _kept_count(request, response)
    if op == "cancelWiki" and faults.is_on("round30-user-questions-wiki-first-read"):
        _unwikified.add(path_id(request))
        return response
    if op == "listUserQuestions" and _unwikified and faults.is_on("round30-user-questions-wiki-first-read"):
        return _first_read_wiki(response)
    return response


def _edit_action(response: Response, key: str, field: str, value: Any) -> Response:
    body = body_json(response)
    action = body.get("result", {}).get(key) if isinstance(body, dict) else None
    if not isinstance(action, dict) or field not in action:
        return response
    action[field] = value
    return with_body(response, body)


def _reversed_groups(request: Request, response: Response) -> Response:
    q = request.query_params
    sort = q.get("sort")
    if not sort or sort in _GROUP_SORTS or "includeOnly" not in q:
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    body["list"].reverse()
    return with_body(response, body)


def _kept_count(request: Request, response: Response) -> Response:
    body = body_json(response)
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("favoriteCount"), int):
        return response
    node_id, now = path_id(request), time.monotonic()
    kept = _kept_counts.get(node_id)
    if kept is not None and now - kept[0] < KEPT_COUNT_S:
        result["favoriteCount"] = kept[1]
        return with_body(response, body)
    _kept_counts[node_id] = (now, result["favoriteCount"])
    return response


def _first_read_wiki(response: Response) -> Response:
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return response
    shown = {i["id"] for i in items if isinstance(i, dict) and i.get("id") in _unwikified and "wiki" in i}
    if not shown:
        return response
    for item in items:
        if isinstance(item, dict) and item.get("id") in shown:
            item["wiki"] = True
    _unwikified.difference_update(shown)  # the first read that shows the node only
    return with_body(response, body)


def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    """round30-gdpr-string-user-id-error-body: a job refused while its user id came as a string."""
    if (exc.status == 400 and "error" in body and getattr(request.state, "round30_user_id_string", False)
            and request.url.path.endswith("/jobs/gdpr/schedule.json")
            and faults.is_on("round30-gdpr-string-user-id-error-body")):
        return {"errors": {"message": body["error"]}}
    return body
