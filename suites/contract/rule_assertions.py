"""Assertions of the contract suite that name the rule they enforce at the start of their message.

A test that checks several rules (status, Content-Type, schema, dates ...) fails in the report only for the rules
its failure names (ARCHITECTURE.md), so each failure here is a ``RuleFailure`` carrying the rules that broke (its
text starts ``[CONV-CONTENT-TYPE-JSON] ...``).
Schema violations are sorted by where they occur (``contract.schema_errors``: the path and the keyword as data, never
the message's wording): a date field breaks a date rule, an envelope field the envelope rule, anything else the
operation's shape rule.
"""

from __future__ import annotations

import json
import re
from typing import Any

from qaconform.contract import SchemaError, envelope
from qaconform.invariants import DATE_KEYS, is_json_content_type, millis_problems
from qaconform.pytest.outcomes import RuleFailure, expect, fail
from qaconform.target.client import ApiResponse


def assert_status(resp: ApiResponse, status: int, what: str, rule: str | tuple[str, ...]) -> None:
    """The documented status; a 404 also breaks VERSION-PATH (the operation is not served under /services/v2)."""
    if resp.status != status:
        named = [rule] if isinstance(rule, str) else list(rule)
        rules = [*named, "VERSION-PATH"] if resp.status == 404 else named
        fail(rules, f"{what}: expected {status}, got {resp.status}", resp)


def assert_json_body(resp: ApiResponse, what: str) -> Any:
    """A JSON Content-Type and a body that parses: a .json path selects the JSON format."""
    if not is_json_content_type(resp.content_type):
        fail(["CONV-CONTENT-TYPE-JSON"], f"{what}: a .json path answers with Content-Type application/json, got "
             f"{resp.content_type!r}", resp)
    try:
        return json.loads(resp.content)
    except ValueError:
        raise RuleFailure(["CONV-JSON-EXTENSION"], f"{what}: the body of a .json path is not JSON", resp) from None


def assert_json_response(resp: ApiResponse, status: int, what: str, rule: str | tuple[str, ...]) -> Any:
    assert_status(resp, status, what, rule)
    return assert_json_body(resp, what)


def in_items(error: SchemaError) -> bool:
    """Whether a violation is inside an item of the page (``$.list[0]...``), not in the list's envelope."""
    return len(error.path) >= 2 and error.path[0] == "list" and isinstance(error.path[1], int)


def rules_for_schema_error(error: SchemaError, shape_rule: str, *, is_list: bool,
                           field_rules: dict[str, str]) -> list[str]:
    """Which rule a schema violation (``$.list[0].creationDate: ...``) breaks."""
    required = error.keyword == "required"
    field = error.field
    top_level = not in_items(error)
    if field in field_rules:
        return [field_rules[field]]
    if field in DATE_KEYS and not required:
        # round93 (issue 44): a date of the wrong TYPE (a string of digits) is the item's shape too: "default-mode
        # items are User items", and the schema says integer; an integer that is no millisecond is the date rule's
        return ["SHAPE-DATES-MILLIS", shape_rule] if error.keyword == "type" else ["SHAPE-DATES-MILLIS"]
    if field == "creationDateFormatted" and not required:
        return ["SHAPE-DATE-FORMATTED"]
    if is_list and top_level and (field in envelope().fields or (error.path == () and not required)):
        return ["PAGING-ENVELOPE"]
    if is_list and field == "type" and not top_level:
        return ["LIST-ITEM-TYPE", shape_rule]
    return [shape_rule]


def assert_schema(contract: Any, op: str, status: int, body: Any, resp: ApiResponse, shape_rule: str,
                  field_rules: dict[str, str] | None = None) -> None:
    """The body matches the schema spec/openapi.yaml documents for ``op`` and ``status`` (rule 1: spec/ holds the
    field list), and its dates are epoch milliseconds. ``field_rules`` maps a field to a more specific rule."""
    name = contract.operation(op).response_schema(status)
    assert name, f"spec/openapi.yaml documents no schema for {op} {status}: the kit's spec is incomplete"
    errors = contract.schema_errors(name, body)
    is_list = isinstance(body, dict) and "list" in body
    if errors:
        rules: list[str] = []
        for e in errors:
            rules.extend(rules_for_schema_error(e, shape_rule, is_list=is_list, field_rules=field_rules or {}))
        shown = "\n  ".join(e.line for e in errors[:15])
        fail(rules, f"{op} {status} body does not match {name} ({len(errors)} error(s)):\n  {shown}", resp)
    dates = millis_problems(body)
    if dates:
        fail(["SHAPE-DATES-MILLIS"], f"{op}: dates are not epoch milliseconds: {dates}", resp)


def assert_location_names(resp: ApiResponse, new: int, what: str, rule: str) -> None:
    """The Location header holds the URL of the new item: present, a URL, and naming the new id."""
    location = resp.headers.get("location", "")
    expect(location, rule, f"{what}: a 201 carries a Location header with the new item's URL; none came", resp)
    expect(location.startswith(("http://", "https://", "/")), rule,
           f"{what}: Location {location!r} is not a URL (absolute, or an absolute path)", resp)
    expect(re.search(rf"(?<!\d){new}(?!\d)", location), rule,
           f"{what}: Location {location!r} does not name the new item {new}", resp)
