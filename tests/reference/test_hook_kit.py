"""The helpers every hook module imports (qaconform/reference/hook_kit.py) do what the rounds' own copies did: the
stage table passes refusals on, the two JSON body tests differ only where the older rounds' did, a list rewriter
leaves a body without a list alone."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from qaconform.reference import hook_kit
from qaconform.reference.http_io import json_response


def _request(content_type: str, body: bytes) -> Request:
    scope = {"type": "http", "method": "POST", "path": "/", "query_string": b"", "path_params": {},
             "headers": [(b"content-type", content_type.encode())]}
    request = Request(scope)
    request._body = body  # noqa: SLF001 - what ``await request.body()`` leaves, as ``before`` reads it
    return request


def test_after_by_op_rewrites_successes_only_unless_the_op_is_named() -> None:
    seen: list[str] = []

    def fix(svc: Any, request: Any, caller: Any, response: Response) -> Response:
        seen.append(str(response.status_code))
        return json_response({"fixed": True}, response.status_code)

    after = hook_kit.after_by_op({"lockNode": fix, "scheduleGdprJob": fix}, refused_too=("scheduleGdprJob",))
    refused = json_response({"error": "no"}, 403)
    assert after(None, "lockNode", None, None, refused) is refused  # type: ignore[arg-type]
    other = json_response({}, 200)
    assert after(None, "listTopics", None, None, other) is other  # type: ignore[arg-type]
    assert json.loads(bytes(after(None, "lockNode", None, None, json_response({})).body)) == {"fixed": True}  # type: ignore[arg-type]
    assert after(None, "scheduleGdprJob", None, None, json_response({}, 400)).status_code == 400  # type: ignore[arg-type]
    assert seen == ["200", "400"]


def test_kept_json_loose_accepts_what_starts_with_application_json() -> None:
    body = b'{"type": "bulk"}'
    assert hook_kit.kept_json_object(_request("application/json; charset=UTF-8", body)) == {"type": "bulk"}
    suffixed = _request("application/json-patch+json", body)
    assert hook_kit.kept_json(suffixed) is None
    assert hook_kit.kept_json(suffixed, loose=True) == {"type": "bulk"}
    assert hook_kit.kept_json_object(_request("application/json", b"[1]")) is None
    assert hook_kit.kept_json(_request("application/json", b"not json")) is None
    assert hook_kit.kept_json(_request("application/x-www-form-urlencoded", body)) is None
    assert hook_kit.media(_request(" Application/JSON ; charset=x", b"")) == "application/json"


def test_each_item_changes_object_items_and_leaves_other_bodies() -> None:
    listed = json_response({"list": [{"id": 1}, "x", {"id": "2"}], "totalCount": 3})
    changed = hook_kit.each_item(listed, hook_kit.id_as_string)
    assert json.loads(bytes(changed.body))["list"] == [{"id": "1"}, "x", {"id": "2"}]
    bare = json_response([{"id": 1}])
    assert hook_kit.each_item(bare, hook_kit.id_as_string) is bare
    body, items = hook_kit.list_items(bare)
    assert body == [{"id": 1}] and items == []


def test_result_action_reads_only_an_object_record() -> None:
    assert hook_kit.result_action({"result": {"lockAction": {"verb": "lock"}}}, "lockAction") == {"verb": "lock"}
    assert hook_kit.result_action({"result": {"lockAction": "lock"}}, "lockAction") is None
    assert hook_kit.result_action([], "lockAction") is None


def test_sent_fields_reads_a_json_object_or_a_form_body_and_the_parameter_wins() -> None:
    as_json = _request("application/json", b'{"body": "from json", "visibility": "op"}')
    as_json.scope["query_string"] = b"visibility=full"
    assert hook_kit.sent_fields(as_json) == {"body": "from json", "visibility": "full"}
    as_form = _request("application/x-www-form-urlencoded; charset=utf-8", b"body=from+form&recipients=")
    assert hook_kit.form_fields(as_form) == {"body": "from form", "recipients": ""}
    assert hook_kit.sent_fields(as_form) == {"body": "from form", "recipients": ""}
    assert hook_kit.form_fields(as_json) == {}  # not form-encoded: none, whatever the body holds
    assert hook_kit.sent_fields(_request("text/plain", b"body=x")) == {}
