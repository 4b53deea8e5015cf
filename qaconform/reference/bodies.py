"""Request bodies of POST operations: JSON or form fields, overridden by query parameters.

The description lets every body field also come as a request parameter, the parameter winning. A body that does
not parse as its Content-Type is a 400, an unsupported Content-Type with a body a 415, a body over 1 MB a 413.
Never a 5xx on bad input.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request

from . import blind_round30, blind_round32, blind_round33, faults, variants
from .errors import ApiError, bad_request

MAX_BODY_BYTES = 1024 * 1024


async def read_fields(request: Request) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdecimal() and int(declared) > MAX_BODY_BYTES:
        raise _too_large()
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _too_large()
        chunks.append(chunk)
    raw = b"".join(chunks)
    fields: dict[str, Any] = {}
    if raw.strip():
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media == "application/json" or media.endswith("+json"):
            if faults.is_on("answer-json-latin1") and request.url.path.endswith("/answer.json"):
                raw = raw.decode("latin-1").encode("utf-8")  # a raw UTF-8 body read as Latin-1 (escapes survive)
            fields = _json_object(raw)
        elif media == "application/x-www-form-urlencoded":
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise bad_request("the form body is not UTF-8; encode it as UTF-8") from None
            fields = dict(parse_qsl(text, keep_blank_values=True))
            fields = blind_round32.form_fields(request.url.path, text, fields)  # round32 (issue 44)
            fields = blind_round33.form_fields(request.url.path, text, fields)  # round33 (issue 44)
            fields = _planted_form_fields(request.url.path, fields)
        else:
            shown = media or "none"
            raise ApiError(
                415,
                {
                    "error": f"unsupported Content-Type {shown[:60]!r}; send application/json or"
                    " application/x-www-form-urlencoded"
                },
            )
    body_wins = (faults.is_on("comment-body-wins-over-param") and request.url.path.endswith("/comment.json")) or (
        faults.is_on("answer-body-wins-over-param") and request.url.path.endswith("/answer.json")
    )
    form = request.headers.get("content-type", "").split(";")[0].strip().lower() == "application/x-www-form-urlencoded"
    body_wins = body_wins or (form and request.url.path.endswith("/answer.json")
                              and faults.is_on("blind-answer-form-body-wins-over-param"))  # blindw (issue 44)
    comment = request.url.path.endswith("/comment.json")
    for key, value in request.query_params.items():
        if comment and key == "visibility":
            if faults.is_on("comment-visibility-param-ignored"):
                continue
            if key in fields and faults.is_on("comment-visibility-body-wins"):
                continue
        if comment and faults.is_on("comment-param-latin1"):
            value = value.encode("utf-8").decode("latin-1")
        if comment and blind_round30.recipients_body_wins(key, fields):
            continue  # round30 (issue 44): the body's recipients kept
        if not (body_wins and key in fields):
            fields[key] = value
    return fields


def _planted_form_fields(path: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The form-encoded fields a planted fault drops (faults.py); the fields themselves when none is on."""
    if faults.is_on("comment-visibility-form-field-ignored") and path.endswith("/comment.json"):
        fields.pop("visibility", None)
    if faults.is_on("answer-body-form-field-ignored") and path.endswith("/answer.json"):
        fields.pop("body", None)
    return fields


def _too_large() -> ApiError:
    return ApiError(413, {"error": f"the request body is larger than {MAX_BODY_BYTES // 1024} KB; send less"})


def _json_object(raw: bytes) -> dict[str, Any]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise bad_request("the JSON body is not UTF-8; encode it as UTF-8") from None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        if faults.is_on("malformed-json-500"):
            raise RuntimeError("unparsed JSON body") from None
        if variants.is_on("malformed-json-422"):
            raise ApiError(422, {"message": "the body is not valid JSON"}) from None
        raise bad_request("the body is not valid JSON; send a JSON object") from None
    if not isinstance(value, dict):
        raise bad_request(f"the JSON body must be an object, not {type(value).__name__}")
    _require_unicode(value, "the JSON body")
    return value


def _require_unicode(value: Any, what: str) -> None:
    """JSON escapes can spell lone surrogates (\\ud800), which no database or encoder accepts: a 400, not a 500."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise bad_request(f"{what} holds an unpaired surrogate (\\ud800-\\udfff); send valid Unicode") from None


def structured(fields: dict[str, Any], name: str) -> Any:
    """A field that is an object or array in JSON; as a form field or parameter it is JSON text."""
    value = fields.get(name)
    if isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in ("{", "["):
            try:
                parsed = json.loads(stripped)
            except (ValueError, RecursionError):
                raise bad_request(f"'{name}' is not valid JSON") from None
            _require_unicode(parsed, f"'{name}'")
            return parsed
    return value


def text_field(fields: dict[str, Any], name: str, required: bool = True) -> str | None:
    """A string field; missing or blank is a 400 when required, a non-string always."""
    value = fields.get(name)
    if value is None:
        if required:
            raise bad_request(f"'{name}' is required")
        return None
    if not isinstance(value, str):
        if not variants.is_on("body-any-type"):
            raise bad_request(f"'{name}' must be a string, not {type(value).__name__}")
        value = json.dumps(value) if isinstance(value, (bool, list, dict)) else str(value)
    if required and not value.strip():
        raise bad_request(f"'{name}' must not be empty")
    return value


_TAG = re.compile(r"<[A-Za-z/!]")
_PLAIN_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def stored_body(text: str) -> str:
    """The body of a posted answer or comment as this server stores and returns it.

    As posted, unless variant body-html-equivalent: the description calls a body "HTML content", so a server may keep
    the text in an equivalent HTML form. Plain text (no tag) is escaped and wrapped in ``<p>``; in text that already
    holds tags only non-ASCII characters become character references (``é`` -> ``&#233;``).
    """
    if not variants.is_on("body-html-equivalent"):
        return text
    if _TAG.search(text):
        return "".join(c if ord(c) < 128 else f"&#{ord(c)};" for c in text)
    escaped = "".join(_PLAIN_ESCAPES.get(c, c if ord(c) < 128 else f"&#{ord(c)};") for c in text)
    return f"<p>{escaped}</p>"
