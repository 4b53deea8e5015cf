"""spec/openapi.yaml is a valid OpenAPI 3.1 document that schemathesis can drive, and it agrees with rules.yaml.

The suites and load tests find operations by operationId and the report joins rules to operations, so a typo in
either file would silently drop coverage; these tests turn such a typo into a failure with the name to fix.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

from qaconform.contract import Contract, load_contract

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "spec"
OPENAPI = SPEC / "openapi.yaml"
SAMPLES = Path(__file__).parents[1].parent / "shared" / "samples"

AGREED = {
    "postComment": ("POST", "/node/{nodeId}/comment.json"),
    "scheduleGdprJob": ("POST", "/jobs/gdpr/schedule.json"),
    "listQuestions": ("GET", "/question.json"),
    "listUserAnswers": ("GET", "/user/{userId}/answer.json"),
    "listActiveExperts": ("GET", "/user/retrieveAllExperts.json"),
    "listEarnedExperts": ("GET", "/user/retrieveEarnedExperts.json"),
    "postAnswer": ("POST", "/question/{questionId}/answer.json"),
    "listUserContent": ("GET", "/users/gdpr/{userId}/content.json"),
    "listSpaces": ("GET", "/space.json"),
    "unmarkFavorite": ("PUT", "/node/{nodeId}/unmarkfavorite.json"),
    "cancelWiki": ("PUT", "/node/{nodeId}/cancelwiki.json"),
    "sendToModeration": ("PUT", "/node/{nodeId}/sendToMod.json"),
    "lockNode": ("PUT", "/node/{nodeId}/lock.json"),
    "listTopics": ("GET", "/topic.json"),
    "listUserQuestions": ("GET", "/user/{userId}/question.json"),
    "listNodeFollowers": ("GET", "/node/{nodeId}/followers.json"),
    "listGroups": ("GET", "/group.json"),
    "listAnswerComments": ("GET", "/answer/{answerId}/comment.json"),
    "listIssueTypes": ("GET", "/tracker/issuetype.json"),
}
"""The operationId table of ARCHITECTURE.md: the agreement every folder relies on."""

ANONYMOUS_OK = {"listQuestions", "listUserAnswers", "listSpaces", "listTopics", "listUserQuestions",
                "listNodeFollowers", "listAnswerComments"}  # fmt: skip
"""Operations whose permissions are all Anonymous Roles in the description's permission table."""


@pytest.fixture(scope="module")
def contract() -> Contract:
    """Shadows the root fixture on purpose: these tests need spec/ only, never a target profile."""
    return load_contract(SPEC)


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    data = yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _refs(node: Any) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            found.append(node["$ref"])
        for value in node.values():
            found.extend(_refs(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_refs(value))
    return found


def _pointer(doc: Any, pointer: str) -> Any:
    for part in [p for p in pointer.lstrip("/").split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


# ---- the document ------------------------------------------------------------------------------------------


def test_openapi_yaml_passes_openapi_spec_validator() -> None:
    spec, base_uri = read_from_filename(str(OPENAPI))
    validate(spec, base_uri=base_uri)
    assert spec["openapi"] == "3.1.0"


def test_every_ref_of_openapi_yaml_resolves(openapi: dict[str, Any]) -> None:
    refs = _refs(openapi)
    assert any(r.startswith("schemas/") for r in refs), "responses should reference spec/schemas files"
    for ref in refs:
        file_part, _, fragment = ref.partition("#")
        if file_part:
            target = SPEC / file_part
            assert target.is_file(), f"$ref {ref}: {target} does not exist"
            doc = json.loads(target.read_text(encoding="utf-8"))
        else:
            doc = openapi
        try:
            _pointer(doc, fragment)
        except (KeyError, IndexError, ValueError):
            pytest.fail(f"$ref {ref}: the fragment {fragment!r} does not exist")


def test_operation_ids_methods_and_paths_are_the_agreed_ones(contract: Contract) -> None:
    found = {op.operation_id: (op.method, op.api_path) for op in contract.operations.values()}
    assert found == AGREED
    assert all(op.path.startswith("/services/v2/") for op in contract.operations.values())


def test_every_operation_has_a_tag_a_summary_and_documented_success(contract: Contract) -> None:
    for op in contract.operations.values():
        assert op.tags and op.summary, f"{op.operation_id} needs tags and a summary"
        ok = [s for s in op.statuses if s.startswith("2")]
        assert ok == (["201"] if op.method == "POST" else ["200"]), f"{op.operation_id}: success statuses {ok}"


def test_every_referenced_response_schema_exists(contract: Contract) -> None:
    for op in contract.operations.values():
        for status, names in op.responses.items():
            for name in names:
                assert name in contract.schema_names, f"{op.operation_id} {status} references missing {name}"


@pytest.mark.parametrize(
    ("operation_id", "status", "schema"),
    [
        ("postAnswer", "201", "posted-answer.json"),
        ("listQuestions", "200", "question-list.json"),
        ("listUserQuestions", "200", "question-list.json"),
        ("listUserAnswers", "200", "answer-list.json"),
        ("listAnswerComments", "200", "comment-list.json"),
        ("listActiveExperts", "200", "user-list.json"),
        ("listEarnedExperts", "200", "user-list.json"),
        ("listNodeFollowers", "200", "follower-list.json"),
        ("listSpaces", "200", "space-list.json"),
        ("listTopics", "200", "topic-list.json"),
        ("listGroups", "200", "group-list.json"),
        ("listUserContent", "200", "content-list.json"),
        ("listUserContent", "422", "error.json"),
        ("scheduleGdprJob", "201", "gdpr-job-response.json"),
        ("scheduleGdprJob", "400", "error.json"),
        ("unmarkFavorite", "200", "favorite-result.json"),
        ("cancelWiki", "200", "wikify-result.json"),
        ("sendToModeration", "200", "sendtomod-result.json"),
        ("lockNode", "200", "lock-result.json"),
        ("listIssueTypes", "200", "issue-type-list.json"),
        ("listActiveExperts", "401", "errors.json"),
        ("listGroups", "403", "errors.json"),
    ],
)
def test_response_uses_its_schema(contract: Contract, operation_id: str, status: str, schema: str) -> None:
    assert contract.operation(operation_id).response_schema(status) == schema


def test_comment_post_documents_201_with_location_and_its_errors(openapi: dict[str, Any]) -> None:
    op = openapi["paths"]["/services/v2/node/{nodeId}/comment.json"]["post"]
    assert set(op["responses"]) >= {"201", "400", "403"}
    assert op["responses"]["201"]["headers"]["Location"]["required"] is True
    body = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body == "schemas/comment-request.json"


def test_answer_post_documents_location_and_links_to_the_follow_up_operations(openapi: dict[str, Any]) -> None:
    created = openapi["paths"]["/services/v2/question/{questionId}/answer.json"]["post"]["responses"]["201"]
    assert created["headers"]["Location"]["required"] is True
    links = {name: _pointer(openapi, link["$ref"][1:]) for name, link in created["links"].items()}
    targets = {link["operationId"]: link["parameters"] for link in links.values()}
    assert targets == {
        "postComment": {"nodeId": "$response.body#/id"},
        "listAnswerComments": {"answerId": "$response.body#/id"},
        "lockNode": {"nodeId": "$response.body#/id"},
        "sendToModeration": {"nodeId": "$response.body#/id"},
    }


def test_parameters_follow_the_description(contract: Contract) -> None:
    prompt = contract.operation("lockNode").parameter("prompt")
    assert (prompt.location, prompt.required) == ("query", True)
    for op_id in ("listActiveExperts", "listEarnedExperts"):
        sort = contract.operation(op_id).parameter("sort")
        assert sort.schema["enum"] == ["reputation", "username", "realname", "recent", "oldest", "default"]
    for op in contract.operations.values():
        for p in op.parameters:
            if p.location == "path":
                assert p.required and p.schema == {"type": "integer"}, f"{op.operation_id}: path param {p.name}"
    assert {p.name for p in contract.operation("listQuestions").parameters} == {
        "topics", "unanswered", "spaceId", "page", "pageSize", "sort", "q", "type", "lang", "include", "exclude",
        "includeOnly", "wrap", "v1",
    }  # fmt: skip
    followers = {p.name: p for p in contract.operation("listNodeFollowers").parameters}
    assert followers["details"].changes_shape and not followers["active"].changes_shape


def test_security_is_basic_auth_and_optional_only_where_anonymous_roles_suffice(
    openapi: dict[str, Any], contract: Contract
) -> None:
    assert openapi["components"]["securitySchemes"]["basicAuth"] == {
        "type": "http",
        "scheme": "basic",
        "description": openapi["components"]["securitySchemes"]["basicAuth"]["description"],
    }
    assert openapi["security"] == [{"basicAuth": []}]
    anonymous = {op.operation_id for op in contract.operations.values() if op.anonymous_allowed}
    assert anonymous == ANONYMOUS_OK


# ---- schemathesis ------------------------------------------------------------------------------------------


def test_schemathesis_loads_all_19_operations_without_errors() -> None:
    import schemathesis
    from schemathesis.core.result import Err, Ok

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        schema = schemathesis.openapi.from_path(str(OPENAPI))
        results = list(schema.get_all_operations())
    errors = [r.err() for r in results if isinstance(r, Err)]
    assert not errors, f"schemathesis could not load: {errors[0]}"
    labels = sorted(r.ok().label for r in results if isinstance(r, Ok))
    assert labels == sorted(f"{m} /services/v2{p}" for m, p in AGREED.values())


def test_schemathesis_sees_the_answer_links_as_stateful_transitions() -> None:
    import schemathesis

    machine = schemathesis.openapi.from_path(str(OPENAPI)).as_state_machine()
    names = [n for n in dir(machine) if "__201_Answer" in n]
    assert len(names) == 4, f"expected the 4 postAnswer links as transitions, got {names}"


def _response(body: bytes, status: int = 200) -> Any:
    import requests
    from schemathesis.core.transport import Response

    request = requests.Request("GET", "http://127.0.0.1/services/v2/x.json").prepare()
    return Response(status_code=status, headers={"content-type": ["application/json"]}, content=body,
                    request=request, elapsed=0.01, verify=True, message="OK", encoding="utf-8",
                    http_version="1.1")  # fmt: skip


@pytest.mark.parametrize(
    ("path", "method", "sample"),
    [
        ("/services/v2/question.json", "GET", "question-list.json"),
        ("/services/v2/node/{nodeId}/followers.json", "GET", "node-followers.json"),
        ("/services/v2/node/{nodeId}/lock.json", "PUT", "node-lock.json"),
    ],
)
def test_schemathesis_accepts_the_samples_and_rejects_epoch_seconds(path: str, method: str, sample: str) -> None:
    """Proves schemathesis follows the file refs (schemas/*.json and their refs to common.json) itself."""
    import schemathesis
    from schemathesis.core.failures import FailureGroup

    operation = schemathesis.openapi.from_path(str(OPENAPI))[path][method]
    raw = (SAMPLES / sample).read_text(encoding="utf-8")
    operation.validate_response(_response(raw.encode()))
    body = json.loads(raw)
    if "list" in body:
        body["list"][0]["creationDate"] = 1550762618
    else:
        body["result"]["lockAction"]["actionDate"] = "06/02/2019"
    with pytest.raises((AssertionError, FailureGroup)) as raised:
        operation.validate_response(_response(json.dumps(body).encode()))
    assert "Response violates schema" in str(raised.value)


# ---- rules.yaml --------------------------------------------------------------------------------------------


def test_rules_yaml_exists_and_uses_the_agreed_format(contract: Contract) -> None:
    assert contract.rules_path.is_file(), f"{contract.rules_path} is missing; the rules engineer must commit it"
    assert contract.rules, f"{contract.rules_path} holds no rule"
    areas = {"comments", "permissions", "gdpr", "actions", "paging", "contract", "auth", "conventions"}
    for rule in contract.rules.values():
        assert rule.level in ("must", "should", "observed"), f"{rule.id}: level {rule.level!r}"
        assert rule.area in areas, f"{rule.id}: area {rule.area!r} is not one of {sorted(areas)}"
        assert rule.operations, f"{rule.id} names no operation"


def test_every_rule_names_existing_operations(contract: Contract) -> None:
    assert contract.rules_path.is_file(), f"{contract.rules_path} is missing; the rules engineer must commit it"
    unknown = {r.id: sorted(set(r.operations) - set(contract.operations)) for r in contract.rules.values()}
    unknown = {rid: ops for rid, ops in unknown.items() if ops}
    assert not unknown, f"rules name operations that openapi.yaml lacks: {unknown}"


def test_every_operation_has_at_least_one_rule(contract: Contract) -> None:
    assert contract.rules_path.is_file(), f"{contract.rules_path} is missing; the rules engineer must commit it"
    bare = sorted(op for op in contract.operations if not contract.rules_for(op))
    assert not bare, f"operations without any rule in rules.yaml: {bare}"
