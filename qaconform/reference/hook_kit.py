"""What every blind round's hook module needs around its own faults (issue 44): the path's node row, the body
``before`` already read, an action record or a list's items in a handler's answer, the ``after`` stage as a table
by operation. A new round's hook module imports these instead of writing them again: rounds 47 to 59 had each
copied them, and ``duplicates`` listed the copies as most of the tree's repeated lines.

Only helpers live here: none reads ``faults.is_on``, so whether and where a fault bites stays in its round's module.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import Response

from .auth import Caller
from .http_io import body_json, is_id, with_body, with_json_body, with_query, with_raw_body
from .service import Service

Fix = Callable[[Service, Request, Caller, Response], Response]
"""One operation's rewrite in an ``after`` table: the handler's successful answer as the broken server serves it."""
After = Callable[[Service, str, Request, Caller, Response], Response]
"""The ``after`` stage's signature (``request_hooks.Hook.after``)."""


def node_row(svc: Service, raw: str) -> Any:
    """The node whose id is ``raw`` (a path segment), or None when it is no id or no node."""
    return svc.db.one("SELECT * FROM nodes WHERE id = ?", (int(raw),)) if is_id(raw) else None


def path_node(svc: Service, request: Request, key: str = "node_id") -> Any:
    """The node the path parameter ``key`` names, or None (a hook runs before the handler has refused a bad id)."""
    return node_row(svc, request.path_params.get(key, ""))


def media(request: Request) -> str:
    """The request's media type: its Content-Type without parameters, lower case ("" when it sent none)."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


def kept_body(request: Request) -> bytes:
    """The body ``before`` read (``await request.body()``, which Starlette keeps), b"" when it read none: the later
    stages run without awaiting."""
    return bytes(vars(request).get("_body") or b"")


def parse_json(raw: bytes) -> Any:
    """The JSON ``raw`` holds, None when it is not JSON."""
    try:
        return json.loads(raw)
    except ValueError:
        return None


def kept_json(request: Request, *, loose: bool = False) -> Any:
    """The JSON of the kept body when the request says it is JSON, else None. The media type must be
    application/json; with ``loose``, any Content-Type that starts with it counts (the test rounds 46 to 54 wrote,
    kept so that their faults bite exactly where they did)."""
    if loose:
        if not request.headers.get("content-type", "").lower().startswith("application/json"):
            return None
    elif media(request) != "application/json":
        return None
    return parse_json(kept_body(request))


def kept_json_object(request: Request, *, loose: bool = False) -> dict[str, Any] | None:
    """:func:`kept_json` when it is a JSON object, else None."""
    body = kept_json(request, loose=loose)
    return body if isinstance(body, dict) else None


def form_fields(request: Request) -> dict[str, str]:
    """The kept body's form-encoded fields ({} when the request is not application/x-www-form-urlencoded)."""
    if media(request) != "application/x-www-form-urlencoded":
        return {}
    return dict(parse_qsl(kept_body(request).decode("utf-8", "replace"), keep_blank_values=True))


def sent_fields(request: Request) -> dict[str, Any]:
    """The fields the client sent, in the kept body (a JSON object or form-encoded) and as parameters (the parameter
    wins): what a round's fault reads of a write whatever form it came in (rounds 59, 60, 62)."""
    return {**(kept_json_object(request) or form_fields(request)), **dict(request.query_params)}


def result_action(body: Any, key: str) -> dict[str, Any] | None:
    """The action record ``result[key]`` of a node action's answer (None when the body has another form)."""
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get(key) if isinstance(result, dict) else None
    return action if isinstance(action, dict) else None


def list_items(response: Response) -> tuple[Any, list[Any]]:
    """A list answer's body and its ``list`` (empty when it has none): a rewriter changes the items in place, then
    serves the body with ``with_body``."""
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    return body, items if isinstance(items, list) else []


def with_sent_field(request: Request, name: str, value: Any) -> Request:
    """The request with its field ``name`` replaced by ``value`` where the caller sent it: a query parameter (as JSON
    text) or a JSON body's field; the request as it is when neither holds it (the rewriters that read a field one
    way and store it another)."""
    q = request.query_params
    if name in q:
        return with_query(request, [*[(k, v) for k, v in q.multi_items() if k != name], (name, json.dumps(value))])
    body = kept_json_object(request)
    if body is not None and name in body:
        return with_json_body(request, {**body, name: value})
    return request


def with_items_added(response: Response, body: dict[str, Any], items: list[Any], added: list[Any]) -> Response:
    """A list answer served with ``added`` appended to its ``items`` (the body's list) and its counts made to agree
    (listCount, totalCount, pageCount): the rewriters that list what the rule keeps out, so that only the listing,
    never a count that disagrees with it, breaks the rule."""
    items.extend(added)
    body["listCount"] = len(items)
    if isinstance(body.get("totalCount"), int):
        body["totalCount"] += len(added)
        size = body.get("pageSize")
        if isinstance(size, int) and size > 0:
            body["pageCount"] = -(-body["totalCount"] // size)
    return with_body(response, body)


def each_item(response: Response, change: Callable[[dict[str, Any]], None]) -> Response:
    """A list answer with ``change`` applied to each of its object items, in place (the answer as it is when its body
    has no list): the rewriters that change one field of every item."""
    body = body_json(response)
    if not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return response
    for item in body["list"]:
        if isinstance(item, dict):
            change(item)
    return with_body(response, body)


def id_as_string(item: dict[str, Any]) -> None:
    """An item's integer id as a string (rounds 46 and 47 each plant it under their own path)."""
    if isinstance(item.get("id"), int):
        item["id"] = str(item["id"])


def after_by_op(table: Mapping[str, Fix], *, refused_too: Iterable[str] = ()) -> After:
    """The ``after`` stage of a round whose rewrites are one per operation: a successful answer (status below 300)
    goes to ``table[op]``, every other answer passes as it is; an operation in ``refused_too`` has its refusals
    rewritten as well. Assign it after the table: ``after = after_by_op(_AFTER)``."""
    also = frozenset(refused_too)

    def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
        if response.status_code >= 300 and op not in also:
            return response
        fix = table.get(op)
        return response if fix is None else fix(svc, request, caller, response)

    return after


async def handled_with(permission: str, svc: Service, request: Request, caller: Caller, handler: Any) -> Response:
    """The handler's answer to ``caller`` granted ``permission`` too: how an "own" fault lets in someone who does
    not own the node (the door has let the caller in with the permission for their own posts)."""
    let_in = dataclasses.replace(caller, permissions=caller.permissions | {permission})
    response: Response = await handler(svc, request, let_in)
    return response


async def let_in_through(svc: Service, request: Request, caller: Caller, handler: Any, *, kind: str, own: str,
                         granted: str, through: tuple[str, ...]) -> Response | None:
    """"Own" taken from the author of another node: a caller who may act on their own posts (``own``) but not on
    every post (``granted``), and who did not write the ``kind`` node the path names but wrote the node its first set
    ``through`` column names (its question, its parent), is let in with ``granted``. None (the call goes on as it
    is) for everyone else: the planted "own" faults of lock and cancel wiki."""
    if caller.anonymous or caller.can(granted) or not caller.can(own):
        return None
    node = path_node(svc, request)
    if node is None or node["type"] != kind or node["author_id"] == caller.id:
        return None
    owner = svc.db.one("SELECT author_id FROM nodes WHERE id = ?", (next((node[c] for c in through if node[c]), None),))
    if owner is None or owner["author_id"] != caller.id:
        return None
    return await handled_with(granted, svc, request, caller, handler)


def ids_cached(kept: dict[int, tuple[float, int, Any, Any]], seconds: float, caller: Caller,
               response: Response) -> Response:
    """A question list's commentIds and childrenIds as another reader's read within ``seconds`` saw them: a node
    cache keyed without the reader (``kept``, the fault's own), so a private comment's id reaches the next reader."""
    body = body_json(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return response
    now = time.monotonic()
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        last = kept.get(item["id"])
        if last is not None and now - last[0] < seconds and last[1] != caller.id:
            for key, value in (("commentIds", last[2]), ("childrenIds", last[3])):
                if key in item and value is not None:
                    item[key] = value
        else:
            kept[item["id"]] = (now, caller.id, item.get("commentIds"), item.get("childrenIds"))
    return with_body(response, body)


def uncanceled(action: dict[str, Any]) -> None:
    """An action record as if its cancel had not happened (canceled false, no canceller, no date): the record a
    broken cancel answers with, which rounds 35 to 75 each planted under their own path."""
    action["canceled"] = False
    action.pop("canceledByUser", None)
    action.pop("canceledDate", None)


def kept_by_url(kept: dict[str, tuple[float, Response]], seconds: float, request: Request,
                response: Response) -> Response:
    """The answer an earlier read of the same URL got within ``seconds``: a response cache keyed by the URL alone
    (``kept``, the fault's own), so one account's list reaches the next reader of that URL, whoever it is."""
    now, key = time.monotonic(), str(request.url)
    last = kept.get(key)
    if last is None or now - last[0] >= seconds:
        kept[key] = (now, response)
        return response
    return Response(bytes(last[1].body), status_code=200,
                    headers={k: v for k, v in last[1].headers.items() if k.lower() != "content-length"})


def counts_kept_by_path(kept: dict[str, tuple[float, int, Any, Any]], seconds: float, request: Request,
                        caller: Caller, response: Response) -> Response:
    """A list's totalCount and pageCount as another reader's read of the same path within ``seconds`` counted them:
    a count cache keyed by the path without the reader or the query (``kept``, the fault's own)."""
    body = body_json(response)
    if not isinstance(body, dict) or "totalCount" not in body:
        return response
    now, key = time.monotonic(), request.url.path
    last = kept.get(key)
    if last is None or now - last[0] >= seconds or last[1] == caller.id:
        kept[key] = (now, caller.id, body.get("totalCount"), body.get("pageCount"))
        return response
    body["totalCount"], body["pageCount"] = last[2], last[3]
    return with_body(response, body)


def with_action(response: Response, key: str,
                change: Callable[[dict[str, Any]], None] | Mapping[str, Any]) -> Response:
    """The answer with its result's ``key`` action record changed: by ``change`` called on it, or with the fields
    of a mapping set (``{"extra": None}``). An answer without that record passes as it is: the shape of most
    rounds' wrong action records, which they each wrote out before."""
    body = body_json(response)
    action = result_action(body, key)
    if action is None:
        return response
    if callable(change):
        change(action)
    else:
        action.update(change)
    return with_body(response, body)


def without_fields(request: Request, names: tuple[str, ...], *, query: bool = True) -> Request:
    """The request without the fields ``names`` wherever they came (the query unless ``query`` is False, a JSON
    object body, a form-encoded body)."""
    q = request.query_params
    if query and any(n in q for n in names):
        request = with_query(request, [(k, v) for k, v in q.multi_items() if k not in names])
    body = kept_json_object(request)
    if body is not None and any(n in body for n in names):
        request = with_json_body(request, {k: v for k, v in body.items() if k not in names})
    form = form_fields(request)
    if media(request) == "application/x-www-form-urlencoded" and any(n in form for n in names):
        request = with_raw_body(request, urlencode([(k, v) for k, v in form.items() if k not in names]).encode())
    return request


def has_string_recipient_ids(fields: dict[str, Any]) -> bool:
    """Whether a comment's recipients name any user by an id given as a string (a stated form the handlers take)."""
    from .bodies import structured  # here: bodies imports hook modules that import this one

    try:
        recipients = structured(fields, "recipients")
    except Exception:  # noqa: BLE001 - the handler gives the clear message
        return False
    return isinstance(recipients, list) and any(isinstance(r, dict) and isinstance(r.get("id"), str)
                                                for r in recipients)
