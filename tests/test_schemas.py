"""spec/schemas accept every real response in ../shared/samples and reject each kind of wrong body.

The samples are facts about deployed servers, so a schema that rejects one is wrong, not the sample. The hand-made
invalid bodies prove the schemas are not so loose that they accept anything: each starts from a valid body and
breaks exactly one thing, and the valid body is checked first so that a rejection is for the planted reason.
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from qaconform.contract import Contract, ContractError, load_contract

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "spec" / "schemas"
SAMPLES = Path(__file__).parents[1].parent / "shared" / "samples"

SAMPLE_SCHEMAS = {
    "question-list.json": "question-list.json",
    "node-followers.json": "follower-list.json",
    "node-lock.json": "lock-result.json",
    "error-permission-401.json": "errors.json",
}
"""Which schema each shared sample is an instance of (see ../shared/samples/README.md)."""

SCHEMA_FILES = sorted(p.name for p in SCHEMAS.glob("*.json"))


@pytest.fixture(scope="module")
def contract() -> Contract:
    """Shadows the root fixture on purpose: these tests need spec/ only, never a target profile."""
    return load_contract(ROOT / "spec")


def _sample(name: str) -> Any:
    path = SAMPLES / name
    if not path.is_file():
        pytest.fail(f"sample {path} is missing; the kit expects ../shared/samples next to the checkout")
    return json.loads(path.read_text(encoding="utf-8"))


def _walk(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        found.append(node)
        for value in node.values():
            found.extend(_walk(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_walk(value))
    return found


# ---- the schema files themselves ---------------------------------------------------------------------------


def test_the_schema_directory_holds_the_agreed_files() -> None:
    expected = {
        "envelope.json", "node.json", "question.json", "answer.json", "comment.json", "posted-answer.json",
        "user.json", "group.json", "topic.json", "space.json", "action.json", "favorite-result.json",
        "wikify-result.json", "sendtomod-result.json", "lock-result.json", "content-entry.json", "content-list.json",
        "gdpr-job-request.json", "gdpr-job-response.json", "issue-type.json", "issue-type-list.json", "error.json",
        "errors.json", "follower-list.json", "question-list.json", "answer-list.json", "comment-list.json",
        "user-list.json", "group-list.json", "topic-list.json", "space-list.json",
    }  # fmt: skip
    missing = expected - set(SCHEMA_FILES)
    assert not missing, f"spec/schemas lacks {sorted(missing)}"


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_schema_is_valid_draft_2020_12_with_its_file_name_as_id(name: str) -> None:
    doc = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(doc)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert doc["$id"] == name, "refs between files use the file name, so $id must equal it"


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_schema_never_forbids_unknown_fields(name: str) -> None:
    """Real servers add fields (emailHash, attachment items ...); a closed object would fail them for nothing."""
    doc = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    closed = [
        n for n in _walk(doc) if n.get("additionalProperties") is False or n.get("unevaluatedProperties") is False
    ]
    assert not closed, f"{name} closes an object: {closed[0]}"


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_every_ref_of_a_schema_resolves(contract: Contract, name: str) -> None:
    resolver = contract.schemas.registry.resolver(base_uri=name)
    refs = [n["$ref"] for n in _walk(contract.schema(name)) if isinstance(n.get("$ref"), str)]
    for ref in refs:
        resolved = resolver.lookup(ref)
        assert isinstance(resolved.contents, dict), f"{name}: $ref {ref} resolves to {resolved.contents!r}"


# ---- the real samples --------------------------------------------------------------------------------------


def test_every_shared_sample_has_a_schema() -> None:
    names = sorted(p.name for p in SAMPLES.glob("*.json"))
    assert names, f"no samples found in {SAMPLES}"
    unmapped = [n for n in names if n not in SAMPLE_SCHEMAS]
    assert not unmapped, f"add these samples to SAMPLE_SCHEMAS with the schema they are an instance of: {unmapped}"


@pytest.mark.parametrize(("sample", "schema"), sorted(SAMPLE_SCHEMAS.items()))
def test_shared_sample_validates_against_its_schema(contract: Contract, sample: str, schema: str) -> None:
    contract.assert_valid(schema, _sample(sample), what=f"../shared/samples/{sample}")


def test_question_sample_items_are_questions_with_their_quirks(contract: Contract) -> None:
    """The quirks of samples/README.md stay accepted: absent or empty realname, answerCount != len(answers)."""
    body = _sample("question-list.json")
    authors = [q["author"] for q in body["list"]]
    assert any("realname" not in a for a in authors) and any(a.get("realname") == "" for a in authors)
    assert any(q["answerCount"] != len(q["answers"]) for q in body["list"])
    for item in body["list"]:
        contract.assert_valid("question.json", item, what=f"question {item['id']}")
        contract.assert_valid("node.json", item, what=f"question {item['id']}")


def test_follower_sample_items_are_users_with_string_group_ids(contract: Contract) -> None:
    user = _sample("node-followers.json")["list"][0]
    assert isinstance(user["groups"][0]["id"], str)
    contract.assert_valid("user.json", user, what="follower")
    broken = copy.deepcopy(user)
    broken["groups"][0]["id"] = 3
    assert any("groups[0].id" in e for e in contract.validate("user.json", broken))


# ---- valid bodies built from the samples, used as the base of every negative case --------------------------


def _question() -> dict[str, Any]:
    return copy.deepcopy(_sample("question-list.json")["list"][0])


def _answer() -> dict[str, Any]:
    node = _question()
    for key in ("title", "primaryContainerId", "slug", "answers", "answerCount"):
        node.pop(key)
    node.update(id=864, type="answer", originalParentId=861, depth=1)
    return node


def _comment() -> dict[str, Any]:
    node = _answer()
    node.update(id=905, type="comment", originalParentId=864, visibility="recipients", recipients=[{"id": 7}])
    return node


def _posted_answer() -> dict[str, Any]:
    node = _answer()
    node.update(id="950", parentId=861, parentAuthor={"username": "demo3", "realname": None}, plug=None, reportCount=0)
    return node


def _action(**extra: Any) -> dict[str, Any]:
    action = copy.deepcopy(_sample("node-lock.json")["result"]["lockAction"])
    action.update(extra)
    return action


def _canceled(verb: str) -> dict[str, Any]:
    return _action(
        verb=verb,
        extra=None,
        canceled=True,
        canceledByUser={"id": 108, "username": "admin", "avatarUrl": "https://example.invalid/a.png"},
        canceledDate="Thu Feb 07 10:00:00 UTC 2019",
    )


def _list_of(item: dict[str, Any], **extra: Any) -> dict[str, Any]:
    body = {"name": "", "sort": "", "page": 1, "pageSize": 15, "pageCount": 1, "listCount": 1, "totalCount": 1,
            "list": [item]}  # fmt: skip
    body.update(extra)
    return body


def _group() -> dict[str, Any]:
    return {"id": 3, "type": "group", "creationDate": 1425419929000, "creationDateFormatted": "03/03/2015 09:58 PM",
            "modificationDate": 1450716555000, "name": "Users"}  # fmt: skip


def _space() -> dict[str, Any]:
    return {"id": 11, "type": "space", "name": "Admin", "prefix": "admin", "creationDate": 1545231736000,
            "active": True, "parentId": 7}  # fmt: skip


def _gdpr(**fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "individual", "user": {"id": 42}, "operations": ["anonymize"],
                            "scheduleDate": {"formatted": "12/31/2030 23:59"}}  # fmt: skip
    body.update(fields)
    return body


VALID: dict[str, Callable[[], Any]] = {
    "question": lambda: ("question.json", _question()),
    "answer": lambda: ("answer.json", _answer()),
    "comment": lambda: ("comment.json", _comment()),
    "posted answer": lambda: ("posted-answer.json", _posted_answer()),
    "answer list": lambda: ("answer-list.json", _list_of(_answer())),
    "comment list": lambda: ("comment-list.json", _list_of(_comment(), sorts=["active", "newest"])),
    "user": lambda: ("user.json", copy.deepcopy(_sample("node-followers.json")["list"][0])),
    "user list": lambda: ("user-list.json", _list_of(copy.deepcopy(_sample("node-followers.json")["list"][0]))),
    "group list": lambda: ("group-list.json", _list_of(_group())),
    "space list": lambda: ("space-list.json", _list_of(_space())),
    "topic list": lambda: ("topic-list.json", _list_of(copy.deepcopy(_question()["topics"][0]))),
    "action (textual date)": lambda: ("action.json", _action()),
    "action (YYYY-MM-DD date)": lambda: ("action.json", _action(actionDate="2019-02-06 15:01:00.0")),
    "favorite result": lambda: (
        "favorite-result.json",
        {"success": True, "result": {"favoriteAction": _canceled("favorited"), "favoriteCount": 0}},
    ),
    "wikify result": lambda: (
        "wikify-result.json",
        {"success": True, "result": {"wikifyAction": _canceled("wikified")}},
    ),
    "sendtomod result": lambda: (
        "sendtomod-result.json",
        {
            "success": True,
            "result": {
                "sendToModAction": _action(
                    verb="sent", private=True, extra=None, realUser={"id": 1, "username": "a", "avatarUrl": "u"}
                )
            },
        },
    ),
    "content list": lambda: (
        "content-list.json",
        [
            {
                "actionType": "answered",
                "canceled": False,
                "actionDate": "2019-02-27 17:26:26.0",
                "node": {"id": 864, "title": None, "body": "<p>x</p>", "type": "answer", "accepted": False},
            },
            {"actionType": "joined", "canceled": False, "actionDate": "2019-02-27 17:20:00.123"},
        ],
    ),
    "gdpr request (individual)": lambda: ("gdpr-job-request.json", _gdpr()),
    "gdpr request (bulk)": lambda: (
        "gdpr-job-request.json",
        {
            "type": "bulk",
            "csvFileId": 12,
            "operations": ["suspend", "anonymize", "delete", "anon-delete"],
            "reassignUser": {"id": 5},
        },
    ),
    "gdpr response": lambda: ("gdpr-job-response.json", {"jobId": 17}),
    "issue types": lambda: ("issue-type-list.json", [{"name": "Bug"}, {"name": "Bug"}]),
    "error": lambda: ("error.json", {"error": "Invalid User Id"}),
    "comment request": lambda: (
        "comment-request.json",
        {"body": "hi", "visibility": "recipients", "recipients": [{"id": 7}, {"id": "8"}]},
    ),
}


@pytest.mark.parametrize("case", sorted(VALID))
def test_hand_made_valid_body_is_accepted(contract: Contract, case: str) -> None:
    schema, body = VALID[case]()
    contract.assert_valid(schema, body, what=case)


def _drop(path: tuple[Any, ...]) -> Callable[[Any], None]:
    def apply(body: Any) -> None:
        for key in path[:-1]:
            body = body[key]
        del body[path[-1]]

    return apply


def _put(path: tuple[Any, ...], value: Any) -> Callable[[Any], None]:
    def apply(body: Any) -> None:
        for key in path[:-1]:
            body = body[key]
        body[path[-1]] = value

    return apply


INVALID: list[tuple[str, str, Callable[[Any], None], str]] = [
    # (id, valid case to start from, mutation, text expected in one error)
    ("question list item without type", "question", _drop(("type",)), "'type' is a required property"),
    ("question author as a string", "question", _put(("author",), "demo3"), "is not of type 'object'"),
    ("question list item id as string", "question", _put(("id",), "861"), "is not of type 'integer'"),
    ("creationDate in epoch seconds", "question", _put(("creationDate",), 1550762618), "less than the minimum"),
    ("lastActiveDate in epoch seconds", "answer", _put(("lastActiveDate",), 1552681443), "less than the minimum"),
    (
        "creationDateFormatted in ISO form",
        "question",
        _put(("creationDateFormatted",), "2019-02-21 15:23"),
        "does not match",
    ),
    (
        "creationDateFormatted in 24-hour form",
        "question",
        _put(("creationDateFormatted",), "02/21/2019 15:23 PM"),
        "does not match",
    ),
    ("marked as a string", "question", _put(("marked",), "false"), "is not of type 'boolean'"),
    ("revisionIds holding strings", "question", _put(("revisionIds",), ["951"]), "is not of type 'integer'"),
    ("unknown node type", "question", _put(("type",), "article"), "article"),
    ("question typed answer", "question", _put(("type",), "answer"), "'question' was expected"),
    ("answer originalParentId as string", "answer", _put(("originalParentId",), "861"), "is not of type 'integer'"),
    ("comment visibility as a list", "comment", _put(("visibility",), ["op"]), "is not of type 'string'"),
    ("comment recipients as an object", "comment", _put(("recipients",), {"id": 5}), "is not of type 'array'"),
    ("comment recipient without id", "comment", _put(("recipients",), [{"name": "x"}]), "'id' is a required"),
    ("posted answer with integer id", "posted answer", _put(("id",), 950), "is not of type 'string'"),
    ("posted answer without parentAuthor", "posted answer", _drop(("parentAuthor",)), "'parentAuthor' is a required"),
    ("posted answer with a plug", "posted answer", _put(("plug",), "x"), "is not of type 'null'"),
    ("posted answer without reportCount", "posted answer", _drop(("reportCount",)), "'reportCount' is a required"),
    ("envelope without totalCount", "answer list", _drop(("totalCount",)), "'totalCount' is a required property"),
    ("envelope page as string", "answer list", _put(("page",), "1"), "is not of type 'integer'"),
    ("list item id as string", "answer list", _put(("list", 0, "id"), "864"), "is not of type 'integer'"),
    ("comment list without sorts", "comment list", _drop(("sorts",)), "'sorts' is a required property"),
    ("user typed group", "user", _put(("type",), "group"), "'user' was expected"),
    ("user modificationDate in seconds", "user", _put(("modificationDate",), 1458070203), "less than the minimum"),
    ("group without name", "group list", _drop(("list", 0, "name")), "'name' is a required property"),
    ("space active as string", "space list", _put(("list", 0, "active"), "true"), "is not of type 'boolean'"),
    ("topic without usedCount", "topic list", _drop(("list", 0, "usedCount")), "'usedCount' is a required"),
    (
        "actionDate as MM/DD/YYYY",
        "action (textual date)",
        _put(("actionDate",), "02/06/2019 03:01 PM"),
        "not valid under any",
    ),
    ("actionDate as epoch", "action (textual date)", _put(("actionDate",), 1549465260000), "not valid under any"),
    (
        "actionDate with an invented weekday",
        "action (textual date)",
        _put(("actionDate",), "Wdn Feb 06 15:01:00 UTC 2019"),
        "not valid under any",
    ),
    (
        "actionDate ISO with T and no fraction",
        "action (textual date)",
        _put(("actionDate",), "2019-02-06T15:01:00"),
        "not valid under any",
    ),
    ("action without verb", "action (textual date)", _drop(("verb",)), "'verb' is a required property"),
    ("action user without username", "action (textual date)", _drop(("user", "username")), "'username' is a required"),
    (
        "canceled action without canceledByUser",
        "action (textual date)",
        _put(("canceled",), True),
        "'canceledByUser' is a required property",
    ),
    (
        "unfavorite not canceled",
        "favorite result",
        _put(("result", "favoriteAction", "canceled"), False),
        "True was expected",
    ),
    (
        "unfavorite without favoriteCount",
        "favorite result",
        _drop(("result", "favoriteCount")),
        "'favoriteCount' is a required",
    ),
    (
        "unwikify not canceled",
        "wikify result",
        _put(("result", "wikifyAction", "canceled"), False),
        "True was expected",
    ),
    (
        "sendToMod without realUser",
        "sendtomod result",
        _drop(("result", "sendToModAction", "realUser")),
        "'realUser' is a required property",
    ),
    (
        "sendToMod not private",
        "sendtomod result",
        _put(("result", "sendToModAction", "private"), False),
        "True was expected",
    ),
    (
        "content entry with textual date",
        "content list",
        _put((0, "actionDate"), "Wed Feb 06 15:01:00 UTC 2019"),
        "does not match",
    ),
    ("content entry node without accepted", "content list", _drop((0, "node", "accepted")), "'accepted' is a required"),
    ("individual job without user", "gdpr request (individual)", _drop(("user",)), "'user' is a required property"),
    ("bulk job without csvFileId", "gdpr request (bulk)", _drop(("csvFileId",)), "'csvFileId' is a required property"),
    ("job without type", "gdpr request (bulk)", _drop(("type",)), "'type' is a required property"),
    (
        "job with five operations",
        "gdpr request (bulk)",
        _put(("operations",), ["suspend", "anonymize", "delete", "anon-delete", "delete"]),
        "is too long",
    ),
    ("job with no operations", "gdpr request (bulk)", _put(("operations",), []), "should be non-empty"),
    ("job with an unknown operation", "gdpr request (bulk)", _put(("operations",), ["purge"]), "is not one of"),
    (
        "job user named two ways",
        "gdpr request (individual)",
        _put(("user",), {"email": "a@example.invalid", "id": 3}),
        "is valid under each of",
    ),
    (
        "job reassignUser named two ways",
        "gdpr request (bulk)",
        _put(("reassignUser",), {"username": "a", "id": 3}),
        "is valid under each of",
    ),
    (
        "job date in 12-hour form",
        "gdpr request (individual)",
        _put(("scheduleDate",), {"formatted": "12/31/2030 11:59 PM"}),
        "does not match",
    ),
    ("job response without jobId", "gdpr response", _drop(("jobId",)), "'jobId' is a required property"),
    ("issue type without name", "issue types", _drop((0, "name")), "'name' is a required property"),
    ("error body without error", "error", _drop(("error",)), "'error' is a required property"),
    ("comment request without body", "comment request", _drop(("body",)), "'body' is a required property"),
]


@pytest.mark.parametrize(("case", "base", "mutate", "expected"), INVALID, ids=[c[0] for c in INVALID])
def test_hand_made_invalid_body_is_rejected(
    contract: Contract, case: str, base: str, mutate: Callable[[Any], None], expected: str
) -> None:
    schema, body = VALID[base]()
    assert contract.validate(schema, body) == [], f"the base body {base!r} must be valid before it is broken"
    mutate(body)
    errors = contract.validate(schema, body)
    assert errors, f"{schema} accepted {case}"
    assert any(expected in e for e in errors), f"{case}: expected an error mentioning {expected!r}, got {errors}"


def test_lock_result_requires_success_and_a_string_extra(contract: Contract) -> None:
    body = _sample("node-lock.json")
    no_success = copy.deepcopy(body)
    del no_success["success"]
    assert contract.validate("lock-result.json", no_success) == ["$: 'success' is a required property"]
    null_extra = copy.deepcopy(body)
    null_extra["result"]["lockAction"]["extra"] = None
    assert any("extra" in e for e in contract.validate("lock-result.json", null_extra))


def test_bare_array_lists_reject_the_envelope(contract: Contract) -> None:
    _, entries = VALID["content list"]()
    assert any("is not of type 'array'" in e for e in contract.validate("content-list.json", _list_of(entries[0])))
    assert any("is not of type 'array'" in e for e in contract.validate("issue-type-list.json", {"list": []}))


def test_errors_body_needs_a_message_object(contract: Contract) -> None:
    assert contract.validate("errors.json", {"errors": {"message": "Please login"}}) == []
    assert contract.validate("errors.json", {"errors": "Please login"}) == [
        "$.errors: 'Please login' is not of type 'object'"
    ]
    assert contract.validate("errors.json", {"error": "Please login"}) == ["$: 'errors' is a required property"]


# ---- the Contract API --------------------------------------------------------------------------------------


def test_validate_reports_json_paths_and_assert_valid_says_whose_body(contract: Contract) -> None:
    body = _sample("question-list.json")
    body["list"][2]["creationDate"] = 1550762618
    errors = contract.validate("question-list", body)
    assert errors == ["$.list[2].creationDate: 1550762618 is less than the minimum of 100000000000"]
    with pytest.raises(AssertionError, match=r"GET /question.json does not match question-list.json \(1 error"):
        contract.assert_valid("question-list.json", body, what="GET /question.json")


def test_schema_errors_are_data_naming_each_absent_field_and_the_keyword(contract: Contract) -> None:
    """Which rule a violation breaks is decided from these fields (issue 47), so they must say the same as the lines:
    one violation per absent name, each naming its own, two absent at one path included."""
    body = _sample("question-list.json")
    del body["totalCount"]
    del body["list"][1]["type"], body["list"][1]["id"]
    body["list"][2]["creationDate"] = 1550762618
    body["list"][0]["author"] = "admin"
    errors = contract.schema_errors("question-list", body)
    assert [e.line for e in errors] == contract.validate("question-list", body)
    assert [(e.path, e.keyword, e.missing, e.field) for e in errors] == [
        ((), "required", "totalCount", "totalCount"),
        (("list", 0, "author"), "type", None, "author"),
        (("list", 1), "required", "type", "type"),
        (("list", 1), "required", "id", "id"),
        (("list", 2, "creationDate"), "minimum", None, "creationDate"),
    ]
    assert str(errors[0]) == "$: 'totalCount' is a required property"


def test_a_schema_error_names_the_innermost_field_before_array_indices(contract: Contract) -> None:
    _, entries = VALID["content list"]()
    errors = contract.schema_errors("content-list.json", [entries[0], "not an entry"])
    assert [(e.path, e.keyword, e.field) for e in errors] == [((1,), "type", None)]
    user = {"list": [{"id": 1, "username": "x", "groups": ["not a group"]}]}
    fields = {(e.path, e.field) for e in contract.schema_errors("user-list", user)}
    assert (("list", 0, "groups", 0), "groups") in fields


def test_unknown_schema_name_lists_the_known_ones(contract: Contract) -> None:
    with pytest.raises(ContractError, match="no schema 'nodes.json'.*known: action.json"):
        contract.validate("nodes.json", {})


def test_load_contract_is_cached_per_directory() -> None:
    assert load_contract(ROOT / "spec") is load_contract(str(ROOT / "spec"))
    assert load_contract().spec_dir == ROOT / "spec"


def test_contract_without_rules_yaml_has_no_rules_and_says_so(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(ROOT / "spec" / "schemas", spec / "schemas")
    shutil.copy(ROOT / "spec" / "openapi.yaml", spec / "openapi.yaml")
    contract = load_contract(spec)
    assert contract.rules == {}
    assert len(contract.operations) == 19
    with pytest.raises(ContractError, match="unknown rule 'COMMENT-4'.*rules.yaml does not exist yet"):
        contract.rule("COMMENT-4")


def test_contract_rejects_a_schema_whose_id_is_not_its_file_name(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(ROOT / "spec" / "schemas", spec / "schemas")
    shutil.copy(ROOT / "spec" / "openapi.yaml", spec / "openapi.yaml")
    doc = json.loads((spec / "schemas" / "node.json").read_text())
    doc["$id"] = "https://example.invalid/node.json"
    (spec / "schemas" / "node.json").write_text(json.dumps(doc))
    with pytest.raises(ContractError, match=r"node.json: \$id is .*set it to 'node.json'"):
        load_contract(spec)


# ---- the compiled validator asked first (issue 44, speed4) --------------------------------------------------------


def _both(contract: Contract, schema: str, body: Any) -> tuple[bool, bool]:
    """(jsonschema-rs finds it valid, jsonschema finds it valid), for one body."""
    return contract.schemas.compiled_valid(schema, body), not list(contract.validator(schema).iter_errors(body))


@pytest.mark.parametrize("case", sorted(VALID))
def test_the_compiled_validator_accepts_what_jsonschema_accepts(contract: Contract, case: str) -> None:
    """A body jsonschema accepts must be accepted by the validator asked first, or every valid body would pay both."""
    schema, body = VALID[case]()
    assert _both(contract, schema, body) == (True, True), f"{case}: the compiled validator refused a valid body"


@pytest.mark.parametrize(("case", "base", "mutate", "expected"), INVALID, ids=[c[0] for c in INVALID])
def test_the_compiled_validator_refuses_what_jsonschema_refuses(
    contract: Contract, case: str, base: str, mutate: Callable[[Any], None], expected: str
) -> None:
    """schema_errors trusts a "valid" from the compiled validator without asking jsonschema: it must never accept a
    body jsonschema refuses (a fault would pass unseen)."""
    schema, body = VALID[base]()
    mutate(body)
    assert _both(contract, schema, body) == (False, False), f"{case}: the compiled validator accepted a broken body"


def test_the_samples_are_judged_alike_by_both_validators(contract: Contract) -> None:
    for sample, schema in SAMPLE_SCHEMAS.items():
        assert _both(contract, schema, _sample(sample)) == (True, True), sample


def test_a_body_the_compiled_validator_cannot_read_goes_to_jsonschema(contract: Contract) -> None:
    """A value that is not JSON (here a set) is no "valid" from the compiled validator: jsonschema decides, and
    schema_errors still names the violation."""
    body = {"error": {"not", "a", "string"}}
    assert contract.schemas.compiled_valid("error.json", body) is False
    assert [e.keyword for e in contract.schema_errors("error.json", body)] == ["type"]
