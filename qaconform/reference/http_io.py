"""HTTP helpers every handler shares: JSON responses, the 401 page, and reading ids, booleans and projections
from a request. Imports nothing of the handlers, so every module of the server may import it."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from . import variants
from .errors import bad_request, not_found
from .fragments import JSON_TYPE, dumps

PREFIX = "/services/v2"
"""The reference server's service prefix (its own: the reference server never imports the kit's contract)."""

HTML_401 = """<!DOCTYPE html>
<html><head><title>HTTP Status 401 - Bad credentials</title></head>
<body><h1>HTTP Status 401 - Bad credentials</h1><hr/>
<p><b>type</b> Status report</p><p><b>message</b> Bad credentials</p>
<p><b>description</b> This request requires HTTP authentication.</p><hr/></body></html>
"""
"""What a servlet container answers to bad credentials; served to callers who ask for HTML."""


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(dumps(body), status_code=status, headers=headers, media_type=JSON_TYPE)


def html_401(headers: dict[str, str]) -> Response:
    return Response(HTML_401, 401, headers=headers, media_type="text/html;charset=UTF-8")


def wants_html(request: Request) -> bool:
    accept = request.headers.get("accept", "").lower()
    return "text/html" in accept and "application/json" not in accept


def is_id(raw: str) -> bool:
    """Whether a path segment is an id: ASCII digits, short enough for SQLite's integer (the one digit check)."""
    return raw.isascii() and raw.isdecimal() and len(raw) < 19


def parse_id(raw: str, what: str) -> int:
    """Path ids are positive integers; anything else names no resource (404)."""
    if is_id(raw):
        return int(raw)
    raise not_found(f"{what} {raw[:40]!r} does not exist; ids are positive integers")


def path_id(request: Request, key: str = "node_id", what: str = "node") -> int:
    """The id in the path parameter ``key`` (404 naming ``what`` when it is not one)."""
    return parse_id(request.path_params[key], what)


def projects(query: Any) -> bool:
    """Whether the request asks for a projection: then items are rendered as dicts, not taken encoded."""
    return "includeOnly" in query or "exclude" in query


def parse_bool(query: Any, name: str, default: bool) -> bool:
    raw = query.get(name)
    if raw is None or raw == "":
        return default
    low = raw.lower()
    if low in ("true", "1"):
        return True
    if low in ("false", "0"):
        return False
    raise bad_request(f"'{name}' must be true or false, not {raw[:40]!r}")


def client_ip(request: Request) -> str:
    return request.client.host if request.client else "127.0.0.1"


def created_location(request: Request, kind: str, node_id: int, question_id: int) -> str:
    """The URL of a new comment or answer, in the form the location variants choose."""
    base = str(request.base_url).rstrip("/")
    if variants.is_on("location-other-path"):
        return f"{base}{PREFIX}/questions/{question_id}/{node_id}.html"
    path = f"{PREFIX}/{kind}/{node_id}.json"
    return path if variants.is_on("location-relative") else base + path


def body_json(response: Response) -> Any:
    """The JSON a handler's answer holds, for a hook that changes it; None when its body is not JSON (or it has
    none). The one copy of what readers_paths, actors_paths and blind rounds 12, 16, 18, 19 and 21 each wrote."""
    try:
        return json.loads(bytes(response.body))
    except (ValueError, TypeError, AttributeError):
        return None


def with_body(response: Response, body: Any) -> Response:
    """``response`` with ``body`` (JSON) in place of its own: the same status and headers, but the length and type
    of the new body."""
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
    return json_response(body, response.status_code, headers)


def with_query(request: Request, pairs: list[tuple[str, str]]) -> Request:
    """``request`` with ``pairs`` as its query instead, the body already read travelling along: what a hook's broken
    branch passes on when it changes a parameter."""
    scope = dict(request.scope)
    scope["query_string"] = urlencode(pairs).encode()
    copy = Request(scope, request.receive)
    if "_body" in vars(request):
        setattr(copy, "_body", vars(request)["_body"])  # noqa: B010 - Starlette's own cache of the read body
    return copy


async def json_object_body(request: Request) -> dict[str, Any] | None:
    """The request's body when it is a JSON object sent as application/json, else None (read once: Starlette keeps
    it for the handler)."""
    if not request.headers.get("content-type", "").lower().startswith("application/json"):
        return None
    try:
        body = json.loads(await request.body())
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def with_json_body(request: Request, body: Any) -> Request:
    """``request`` carrying ``body`` as its JSON body instead, its Content-Length set again: what a hook's broken
    branch passes on when it rewrites the body."""
    return with_raw_body(request, json.dumps(body).encode())


def with_raw_body(request: Request, raw: bytes) -> Request:
    """``request`` carrying ``raw`` as its body, its Content-Length set again (the JSON and form-encoded rewrites)."""
    scope = dict(request.scope)
    scope["headers"] = [(k, v) for k, v in request.scope["headers"] if k.lower() != b"content-length"]
    scope["headers"].append((b"content-length", str(len(raw)).encode()))
    new = Request(scope, request.receive)
    new._body = raw  # noqa: SLF001 - the broken branch rewrites the body it passes on
    return new


def unmark_items(body: Any) -> bool:
    """Turn every list item's marked true into false, in place; says whether one changed. The marked-state faults
    (a question index without the accepted state) each strip it under their own path."""
    items = body.get("list") if isinstance(body, dict) else None
    changed = False
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("marked") is True:
            item["marked"] = False
            changed = True
    return changed
