"""Our response checks, registered the schemathesis way, and the one generation hook they need.

Each check is a function ``(ctx, response, case)`` named for what it checks; schemathesis runs it on every response
of a generated test, and the function name selects or excludes it (``--checks``, ``--exclude-checks``, the
``[checks]`` table of schemathesis.toml). The invariants themselves live in :mod:`qaconform.invariants`, shared with
the hand-written suites, so a generated test and a scenario can never disagree about what a rule means.

Importing this module registers the checks and the hook process-wide. The stock CLI imports it through
``hooks = "qaconform.pytest.schemathesis_checks"`` in schemathesis.toml; suites/properties imports it directly.

Every failure message starts with the rule id of spec/rules.yaml it breaks, in brackets.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from typing import Any

import schemathesis
from schemathesis import Case, CheckContext, HookContext, Response

from qaconform.contract import envelope
from qaconform.invariants import (
    envelope_problems,
    envelope_type_problems,
    is_json_content_type,
    millis_problems,
    projection_problems,
)
from qaconform.target.profile import VisibilityOptions

SHAPE_FLAG = "x-qaconform-changes-shape"
"""Marks parameters whose effect on the response shape the description does not show (spec/openapi.yaml)."""

FULL_VISIBILITY = {None, "", "full"}
"""Values that mean full visibility under the stock CLI (no profile); a run's profile replaces this with VISIBILITY."""
VISIBILITY: VisibilityOptions | None = None
"""The target's visibility values (set by suites/properties): ``reads_as_full`` judges a comment's visibility."""
RECIPIENTS = "recipients"
ACCOUNT_IDS: dict[str, int] = {}
"""username -> user id of the accounts a run uses; lets no_private_comment_leak judge authenticated callers.
Filled by suites/properties; empty under the stock CLI, where only anonymous listings are judged."""

KEEP_PROJECTION: list[str] = []
"""Values that generated includeOnly parameters may take (set by suites/properties, which then skips the schema
check on projected lists); empty means includeOnly is left out of generated requests like the other shape
parameters."""


# ---- generation ----------------------------------------------------------------------------------------------


@schemathesis.hook
def before_load_schema(context: HookContext, raw_schema: dict[str, Any]) -> None:
    """Leave out parameters that change the response shape in ways not shown (wrap, v1, include, details ...).

    The response schemas describe the default shape, so a generated ``wrap=x`` would only produce false schema
    failures. includeOnly is kept, with a few real field lists, when KEEP_PROJECTION says so.
    """
    components = raw_schema.get("components", {}).get("parameters", {})

    def resolve(param: Any) -> Any:
        ref = param.get("$ref", "") if isinstance(param, dict) else ""
        if ref.startswith("#/components/parameters/"):
            return components.get(ref.rsplit("/", 1)[1], param)
        return param

    for item in raw_schema.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or "parameters" not in operation:
                continue
            kept: list[Any] = []
            for param in operation["parameters"]:
                resolved = resolve(param)
                if not (isinstance(resolved, dict) and resolved.get(SHAPE_FLAG)):
                    kept.append(param)
                elif resolved.get("name") == "includeOnly" and KEEP_PROJECTION:
                    kept.append({**{k: v for k, v in resolved.items() if k != "schema"},
                                 "schema": {"type": "string", "enum": list(KEEP_PROJECTION)}})
            operation["parameters"] = kept


# ---- helpers -------------------------------------------------------------------------------------------------


def _json_body(response: Response) -> Any:
    """The body of a 2xx JSON response, else None (other checks judge statuses and content types)."""
    if not 200 <= response.status_code < 300:
        return None
    if not is_json_content_type((response.headers.get("content-type") or [""])[0]):
        return None
    try:
        return json.loads(response.content)
    except ValueError:
        return None


def int_value(value: Any) -> int | None:
    """A generated parameter as the integer it stands for: an int, or a string of at most 11 digits (not a bool)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdecimal() and len(value) < 12:
        return int(value)
    return None


def _int_param(query: Any, name: str) -> int | None:
    return int_value(query.get(name)) if isinstance(query, dict) else None


def _fail(rule: str, problems: Iterable[str]) -> None:
    found = list(problems)
    if found:
        raise AssertionError(f"[{rule}] " + "; ".join(found))


def _caller(response: Response) -> str | None:
    """Username of the Basic credentials the request carried, or None when it was anonymous."""
    raw = response.request.headers.get("Authorization", "")
    header = raw.decode("latin-1") if isinstance(raw, bytes) else str(raw)
    if not header.lower().startswith("basic "):
        return None
    try:
        return base64.b64decode(header[6:]).decode("utf-8", "replace").split(":", 1)[0]
    except ValueError:
        return None


# ---- checks --------------------------------------------------------------------------------------------------


@schemathesis.check
def envelope_invariants(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """A paged list's own arithmetic: listCount, pageCount, and the echo of page and small pageSize requests.

    Every broken invariant is reported, each with its rule; echoes come first, because a wrong pageSize echo also
    makes pageCount look wrong.
    """
    body = _json_body(response)
    if not isinstance(body, dict) or envelope().items not in body:
        return None
    _fail("PAGING-ENVELOPE", envelope_type_problems(body))
    problems = envelope_problems(body)
    found: list[str] = []
    page, size = _int_param(case.query, "page"), _int_param(case.query, "pageSize")
    followers = case.operation.path.endswith("/followers.json")  # "A follower list shows 0": its page is not echoed
    if page is not None and 1 <= page <= max(1, body["pageCount"]) and body["page"] != page and not followers:
        found.append(f"[PAGING-PAGE-ECHO] page {page} was asked for, the envelope says page {body['page']}")
    if size is not None and 1 <= size <= 10 and body["pageSize"] != size:
        found.append(f"[PAGING-PAGESIZE-ECHO] pageSize {size} was asked for, the envelope says {body['pageSize']}")
    if page is None and not followers and body["page"] != 1:
        found.append(f"[PAGING-DEFAULT-PAGE] no page was asked for, the envelope says page {body['page']} (not 1)")
    found += [f"[PAGING-LISTCOUNT] {p}" for p in problems if "listCount" in p or "more than pageSize" in p]
    found += [f"[PAGING-PAGECOUNT] {p}" for p in problems if "pageCount" in p]
    if found:
        raise AssertionError("; ".join(found))
    return None


@schemathesis.check
def projection_honoured(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """includeOnly=a,b limits every returned item to (a subset of) those fields."""
    fields = case.query.get("includeOnly") if isinstance(case.query, dict) else None
    body = _json_body(response)
    if not isinstance(fields, str) or not isinstance(body, dict) or not isinstance(body.get("list"), list):
        return None
    wanted = [f.strip() for f in fields.split(",") if f.strip()]
    if wanted:
        _fail("PROJ-INCLUDEONLY", projection_problems(body["list"], wanted))
    return None


@schemathesis.check
def no_private_comment_leak(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """A private comment is listed only to callers it is meant for.

    Judged where the description leaves no doubt: an anonymous caller is nobody's recipient, original poster,
    moderator or group member, so it sees no private comment at all; an account (ACCOUNT_IDS) sees a
    ``recipients`` comment only as its author or one of its recipients, unless the comment is a reply that may have
    inherited its settings: who besides its author and recipients reads such a reply (the author of the private
    comment it answers, earlier authors of the thread) is not stated. A comment is judged as such a reply unless its
    parent is the listed answer itself or a full-visibility comment listed with it.
    """
    body = _json_body(response)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return None
    username = _caller(response)
    me = ACCOUNT_IDS.get(username) if username else None
    if username is not None and me is None:
        return None
    leaks = []
    listed = {str(i.get("id")): i for i in items if isinstance(i, dict)}
    answer = case.path_parameters.get("answerId") if isinstance(case.path_parameters, dict) else None
    for item in items:
        if not isinstance(item, dict) or item.get("type") not in ("comment", None):
            continue
        visibility = item.get("visibility")
        if (VISIBILITY.reads_as_full(visibility) if VISIBILITY is not None else visibility in FULL_VISIBILITY):
            continue
        author = (item.get("author") or {}).get("id")
        recipients = {str(r.get("id")) for r in item.get("recipients") or [] if isinstance(r, dict)}
        if username is None:
            leaks.append(f"comment {item.get('id')} ({visibility}) listed to an anonymous caller")
        elif visibility == RECIPIENTS and str(me) not in recipients | {str(author)} and not _may_have_inherited(
                item, listed, answer):
            leaks.append(f"comment {item.get('id')} (recipients {sorted(recipients)}, author {author}) listed to "
                         f"{username} (id {me})")
    _fail("COMMENT-PRIVACY-LIST", leaks[:5])
    return None


def _may_have_inherited(item: dict[str, Any], listed: dict[str, Any], answer: Any) -> bool:
    """Whether a listed comment may be a reply that inherited a private comment's settings: its parent is neither
    the answer whose comments these are nor a full-visibility comment listed with it."""
    parent = item.get("parentId", item.get("originalParentId"))
    if parent is None or (answer is not None and str(parent) == str(answer)):
        return False
    above = listed.get(str(parent))
    return not (isinstance(above, dict) and above.get("visibility") in FULL_VISIBILITY)


@schemathesis.check
def dates_in_milliseconds(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """creationDate, modificationDate, lastActiveDate: integers of epoch milliseconds, never seconds."""
    body = _json_body(response)
    if body is not None:
        _fail("SHAPE-DATES-MILLIS", millis_problems(body))
    return None


OUR_CHECKS = (envelope_invariants, projection_honoured, no_private_comment_leak, dates_in_milliseconds)
