"""A 2xx of one of the 19 operations that is not JSON names its rule on the TargetError (qa15, issue 44).

Oracle: the rule's sentence, "Each path ends in .json, which selects the JSON format." (CONV-JSON-EXTENSION, whose
operations are the 19). A refusal that is not JSON names no rule (which one its body breaks depends on the refusal
the test expected), nor does a request outside the 19 operations (a v1 path, a path without .json).
"""

from __future__ import annotations

import pytest

from qaconform.contract import load_contract
from qaconform.target.client import ApiResponse, Exchange, TargetError

_LOCK = "http://h:1/site/services/v2/node/99/lock.json?prompt=a%22b"


def _answer(method: str, url: str, status: int, body: bytes = b'{"lockAction": {"extra": "a"b"}}') -> ApiResponse:
    exchange = Exchange("member", method, url, status, {}, None, {}, body.decode(), 1.0, "curl -sS -i x")
    return ApiResponse(status, {"content-type": "application/json"}, body, url, exchange)


def test_a_successful_answer_that_is_not_json_names_the_json_rule_and_its_call() -> None:
    with pytest.raises(TargetError) as caught:
        _answer("PUT", _LOCK, 200).json()
    assert caught.value.rules == ("CONV-JSON-EXTENSION",)
    assert caught.value.call == "PUT /site/services/v2/node/99/lock.json as member -> 200"  # the query left out
    assert str(caught.value).startswith("[CONV-JSON-EXTENSION] PUT ")
    assert caught.value.curl == "curl -sS -i x"


@pytest.mark.parametrize(("method", "url", "status"), [
    ("PUT", _LOCK, 403),  # a refusal: its body's rule is the test's to say
    ("GET", "http://h/services/v1/question.json", 200),  # not one of the 19 operations
    ("GET", "http://h/services/v2/question", 200),  # no .json: the rule does not speak of it
    ("POST", "http://h/services/v2/question.json", 200),  # no such operation
])
def test_an_answer_the_rule_does_not_speak_of_names_no_rule(method: str, url: str, status: int) -> None:
    with pytest.raises(TargetError) as caught:
        _answer(method, url, status).json()
    assert caught.value.rules == ()
    assert not str(caught.value).startswith("[")


def test_every_operation_is_found_by_its_method_and_path() -> None:
    contract = load_contract()
    for op in contract.operations.values():
        ids = {name: 7 for name in op.path_ids}
        if op.operation_id == "listIssueTypes":
            ids["tracker"] = "my-tracker"
        url = "http://h/services/v2" + op.path_with(ids) + "?pageSize=1"
        assert contract.operation_at(op.method, url) == op.operation_id, url
