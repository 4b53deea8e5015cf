"""The two lists that are bare JSON arrays (19 issue types, 8 a user's content) read by every account in every request
form (blind12, issue 44).

test_operation_shapes.py reads each of them as admin, with Accept application/json; their response sentences state
no condition ("Response: 200, a JSON array of objects with name (string).", "Response: 200, a JSON array of User
content entries"), so they hold for every caller the target lets in and whatever Accept the request carries ("Each
path ends in .json, which selects the JSON format"). A server that serves one account from another serializer (a
cached list of names for callers without the admin roles) breaks the shape for that account only, which one reader
cannot show. Derived, not listed: the readers are spec/dimensions.yaml ``reader``, the forms its ``path_form``; each
reader takes one form, in a rotation the run's seed shifts (every form each run, every reader-form pair over three
seeds), so a run reads each list once per reader. Who may call them is not shown ("Permissions for operation 19:
not shown beyond the need to configure the integration first"; 8: "not shown beyond a reference to a separate plugin
description"): a 401 or 403 is not judged (a skip that says so), every 200 is.

The user content list's path names a user, and its entries are the posts of the user it names: a server that serves
one kind of user from another query (a moderator's content from the moderation log's pager, an administrator's
from an audit table) breaks the shape for that user only. So beside the readers' rows, which read member's content,
admin reads every other account of spec/dimensions.yaml ``writer`` (round29, issue 44: the content list was read for
member here and admin in test_operation_shapes.py only; the user lists 4 and 15 read every account since blind9,
list_responses.every_owner), in JSON.
"""

from __future__ import annotations

from typing import Any

import pytest
from list_responses import HEADERS
from rule_assertions import assert_schema

from qaconform.contract import load_contract, path
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.properties.plugin import STATE
from qaconform.target.client import ApiClient, ApiResponse, TargetError

pytestmark = pytest.mark.contract

BARE_ARRAYS = {
    "listIssueTypes": ("SHAPE-LIST-ISSUE-TYPES", "LIST-ARRAY-ISSUETYPES"),
    "listUserContent": ("SHAPE-LIST-USER-CONTENT", "LIST-ARRAY-CONTENT"),
}
"""list -> (its shape rule, its bare-array rule)."""
_MARKS = {
    "listIssueTypes": pytest.mark.rule("SHAPE-LIST-ISSUE-TYPES", "LIST-ARRAY-ISSUETYPES", "ISSUETYPES-ARRAY",
                                       "CONV-JSON-EXTENSION"),
    "listUserContent": pytest.mark.rule("SHAPE-LIST-USER-CONTENT", "LIST-ARRAY-CONTENT", "SHAPE-CONTENT-ACTIONDATE",
                                        "CONV-JSON-EXTENSION", "SHAPE-DATES-MILLIS", "SHAPE-DATE-FORMATTED"),
}
"""The rules judged on each list's rows, written out so that tests/test_rule_coverage.py reads them statically."""
SUBJECT = "member"
"""Whose content the user content rows read: an account with content in every run (it posts answers)."""


OWNER_READER = "admin"
"""Who reads the other accounts' content (the one reader every target the kit knows lets in: Manage data
protection is a Site Administration permission on the reference)."""
OWNERS = "writer"
"""The dimension whose values are the profile's accounts (each has posts, so its content has entries)."""


def rows(seed: int) -> list[tuple[str, str, str, str]]:
    """(list, reader, path form, whose content): every reader of spec/dimensions.yaml on each list, the forms in a
    rotation the seed shifts, reading member's content; then admin reading every other account's content in JSON."""
    dims = load_contract().dimensions
    readers, forms = dims.values["reader"], dims.values["path_form"]
    by_reader = [(op, reader, forms[(i + seed) % len(forms)], SUBJECT) for op in BARE_ARRAYS
                 for i, reader in enumerate(readers)]
    by_owner = [("listUserContent", OWNER_READER, "accept_json", owner) for owner in dims.values[OWNERS]
                if owner != SUBJECT]
    return by_reader + by_owner


def _row_id(row: tuple[str, str, str, str]) -> str:
    """The readers' rows keep their ids (list-reader-form); the owners' rows say whose content they read."""
    return "-".join(row[:3]) + ("" if row[3] == SUBJECT else f"-of-{row[3]}")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "bare_row" not in metafunc.fixturenames:
        return
    config = metafunc.config
    seed = config.stash[STATE].seed if STATE in config.stash else 0
    metafunc.parametrize("bare_row", [pytest.param(r, id=_row_id(r), marks=_MARKS[r[0]]) for r in rows(seed)])


def _path(op: str, owner: str, require_fixture: Any, user_ids: dict[str, int]) -> str:
    if op == "listIssueTypes":
        return path(op, tracker=require_fixture("issue_tracker"))
    if owner not in user_ids:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: {owner}'s user id is unknown ([accounts.{owner}] id), so "
                                       "its content path cannot be read", fixtures=[f"accounts.{owner}.id"])
    return path(op, userId=user_ids[owner])


def test_a_bare_array_list_keeps_its_shape_for_every_reader_in_every_request_form(
    bare_row: tuple[str, str, str, str], api: dict[str, ApiClient], require_fixture: Any, user_ids: dict[str, int],
    contract: Any,
) -> None:
    op, reader, form, owner = bare_row
    shape_rule, array_rule = BARE_ARRAYS[op]
    whose = f" ({owner}'s content)" if op == "listUserContent" else ""
    what = f"{op}{whose} read by {reader} with the headers {HEADERS[form]}"
    resp: ApiResponse = api[reader].get(_path(op, owner, require_fixture, user_ids),
                                        headers=HEADERS[form])
    if resp.status in (401, 403):
        skip(SkipKind.OTHER, f"not judged: {what} is refused ({resp.status}); who may call {op} is not shown")
    if resp.status == 406 and form != "accept_json":
        skip(SkipKind.OTHER, f"not judged: {what} answers 406 (a refusal of that Accept is not judged)")
    if resp.status != 200:
        fail([shape_rule], f"{what}: \"Response: 200\"; got {resp.status}", resp)
    try:
        body = resp.json()
    except TargetError:
        fail(["CONV-JSON-EXTENSION"], f"{what}: \"Each path ends in .json, which selects the JSON format\": the 200 "
                                      f"is not JSON (Content-Type {resp.content_type or 'missing'})", resp)
    # both rules quote the sentence "Response: 200, a JSON array of ..." of the list's section: a reader served
    # another shape breaks each (readers, issue 44: the shape rule was judged on admin's read only)
    expect(isinstance(body, list), (array_rule, shape_rule), f"{what}: the list is a bare JSON array, not the paged "
                                                             f"envelope; got {type(body).__name__}", resp)
    if op == "listIssueTypes":
        nameless = [i for i in body if not (isinstance(i, dict) and isinstance(i.get("name"), str))]
        expect(not nameless, ("ISSUETYPES-ARRAY", shape_rule),  # "a JSON array of objects with name (string)"
               f"{what}: every issue type is an object with a string name; these are not: {nameless[:5]}", resp)
        assert_schema(contract, op, 200, body, resp, shape_rule)
    else:
        assert_schema(contract, op, 200, body, resp, shape_rule, {"actionDate": "SHAPE-CONTENT-ACTIONDATE"})


UNDONE_READER = "admin"
"""Who reads member's content after member's unfavorite (the reader the owners' rows use, :data:`OWNER_READER`)."""


@pytest.mark.writes  # member's one-shot unfavorite, when it is the first to ask for it
@pytest.mark.rule("SHAPE-LIST-USER-CONTENT", "LIST-ARRAY-CONTENT", "SHAPE-CONTENT-ACTIONDATE", "SHAPE-DATES-MILLIS",
                  "SHAPE-DATE-FORMATTED")
def test_the_content_list_of_a_user_who_undid_an_action_is_still_a_bare_array(
    unfavorite_once: ApiResponse, api: dict[str, ApiClient], user_ids: dict[str, int], contract: Any,
) -> None:
    """blind94 (issue 44): member's content read after member's own unfavorite (the run's one-shot, shared: no write
    more). The response sentence states no condition on the user's history ("Response: 200, a JSON array of User
    content entries ... Not wrapped in the paged envelope."), so a user with an undone action of its own (a canceled
    favorite, a canceled wiki state) is served the same shape: a server that takes such a history through another
    pager (an audit of undone actions) breaks it for that user only, after the cancel only. The rows above may run
    before the unfavorite; this one runs after it in every selection that includes it."""
    if SUBJECT not in user_ids:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: {SUBJECT}'s user id is unknown ([accounts.{SUBJECT}] id), so "
                                       "its content path cannot be read", fixtures=[f"accounts.{SUBJECT}.id"])
    undone = ("after its unfavorite of favorite_node_id" if unfavorite_once.status == 200 else
              f"after its unfavorite of favorite_node_id (answered {unfavorite_once.status})")
    what = f"listUserContent ({SUBJECT}'s content, {undone}) read by {UNDONE_READER}"
    resp = api[UNDONE_READER].get(path("listUserContent", userId=user_ids[SUBJECT]), headers=HEADERS["accept_json"])
    if resp.status in (401, 403):
        skip(SkipKind.OTHER, f"not judged: {what} is refused ({resp.status}); who may call it is not shown")
    if resp.status != 200:
        fail(["SHAPE-LIST-USER-CONTENT"], f"{what}: \"Response: 200\"; got {resp.status}", resp)
    body = resp.json()
    expect(isinstance(body, list), ("LIST-ARRAY-CONTENT", "SHAPE-LIST-USER-CONTENT"),
           f"{what}: the list is a bare JSON array, not the paged envelope; got {type(body).__name__}", resp)
    assert_schema(contract, "listUserContent", 200, body, resp, "SHAPE-LIST-USER-CONTENT",
                  {"actionDate": "SHAPE-CONTENT-ACTIONDATE"})
