"""Where the faults of :mod:`faults_paths14` bite (issue 44 items 1 and 2), apart from the route-table override
(paths14-groups-projection-alone-moderator-served, applied by access.check): the comment list's privacy clause
(:func:`answer_comments_clause`, node_lists.py) and one :class:`request_hooks.Hook` (``after``, ``refusal``). Each
bites only when its query is the one named (one parameter alone, or none in one request form) for its one reader, or
(item 2) on a lock right after another account's call on the node, and leaves every other call as it is.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .errors import ApiError
from .http_io import body_json, with_body
from .service import Service


def _alone(request: Request, name: str) -> bool:
    """Whether ``name`` is the only parameter of the request's query."""
    return {k for k, _ in request.query_params.multi_items()} == {name}


def answer_comments_clause(request: Request, caller: Caller, clause: str) -> str:
    """paths14-comments-plain-browser-novice-private-shown: novice's plain comment list asked by a browser read
    without the privacy clause (private comments unfiltered)."""
    if (faults.is_on("paths14-comments-plain-browser-novice-private-shown") and caller.role == "novice"
            and not request.query_params and "text/html" in request.headers.get("accept", "").lower()):
        return f"({clause} OR (n.type = 'comment' AND n.visibility <> 'full'))"
    return clause


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The response as the broken paths serve it (:func:`last_caller_record`, :func:`titled_answers`)."""
    return titled_answers(svc, op, request, caller, last_caller_record(svc, op, request, caller, response))


def titled_answers(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """paths14-user-answers-sort-alone-moderator-title: each answer of the page given its question's title."""
    if (op != "listUserAnswers" or response.status_code != 200 or caller.role != "moderator"
            or not _alone(request, "sort") or not faults.is_on("paths14-user-answers-sort-alone-moderator-title")):
        return response
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    for item in body["list"]:
        if isinstance(item, dict) and isinstance(item.get("id"), int):
            row = svc.db.one("SELECT q.title FROM nodes a JOIN nodes q ON q.id = a.question_id WHERE a.id = ?",
                             (item["id"],))
            if row is not None and row[0]:
                item["title"] = row[0]
    return with_body(response, body)


# --- item 2: an action record right after another account's call on the same node ------------------------------
ACTIONS = ("lockNode", "sendToModeration", "cancelWiki", "unmarkFavorite")
_last_caller: dict[tuple[int, int], int] = {}
"""paths14-lock-user-last-caller: (server, node) -> the account whose node action on it came last, refused ones
included (an audit column written at the door, before the permission check)."""


def _node_of(request: Request) -> int | None:
    raw = str(request.path_params.get("node_id", ""))
    return int(raw) if raw.isdecimal() and len(raw) < 19 else None


def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """paths14-lock-user-last-caller: a refused node action still marks its caller as the node's last; the
    refusal itself is answered as the server answers it (None)."""
    if op not in ACTIONS or not faults.is_on("paths14-lock-user-last-caller"):
        return None
    node = _node_of(request)
    try:
        who = caller or svc.caller(request)
    except ApiError:
        return None
    if node is not None and not who.anonymous:
        _last_caller[(id(svc), node)] = who.id
    return None


def last_caller_record(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """paths14-lock-user-last-caller: an accepted lock's record names the node's last caller as its user (the
    audit column read back for the record before the lock's own call is written to it); the caller is then the
    last. Only a lock right after another account's call on the node shows it."""
    node = _node_of(request)
    if op not in ACTIONS or node is None or not faults.is_on("paths14-lock-user-last-caller"):
        return response
    last = _last_caller.get((id(svc), node))
    if response.status_code >= 300:
        return response
    _last_caller[(id(svc), node)] = caller.id
    return lock_record_names(svc, op, caller, response, last)


def lock_record_names(svc: Service, op: str, caller: Caller, response: Response, last: int | None) -> Response:
    """A lock's record naming ``last`` (another account's id) as its user; the response as it is otherwise. Shared
    by the faults whose lock record names the account that acted on the node before (paths14, paths15)."""
    if op != "lockNode" or last is None or last == caller.id:
        return response
    body = body_json(response)
    action = body.get("result", {}).get("lockAction") if isinstance(body, dict) else None
    users = svc.render.users_by_id({last})
    if not isinstance(action, dict) or last not in users:
        return response
    action["user"] = svc.render.action_user_json(users[last])
    return with_body(response, body)
