"""The run's ledger of accepted writes and its late reader's place (readback, issue 44): what an exchange is noted
as, that the reader's tests go last in a process, and that the scheduler starts its unit after every other."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from qaconform.pytest import parallel
from qaconform.pytest.readback import BODY_KEEP, Ledger, is_reader, origin, parse, pytest_collection_modifyitems
from qaconform.target.recording import Exchange

BASE = "http://127.0.0.1:5000/services/v2"


def _ex(method: str, path: str, status: int | None, body: str | None = None, media: str = "application/json",
        response: str = "{}", location: str | None = None) -> Exchange:
    headers = {"Content-Type": media} if body is not None else {}
    return Exchange(role="member", method=method, url=BASE + path, status=status, request_headers=headers,
                    request_body=body, response_headers={"Location": location} if location else {},
                    response_body=response, elapsed_ms=1.0, curl="")


def test_a_created_answer_is_noted_with_its_parent_fields_and_form() -> None:
    w = parse(_ex("POST", "/question/7/answer.json", 201, '{"body": "b", "title": "t", "wiki": false}',
                  response='{"id": 41}'), "t::x")
    assert w is not None and (w.kind, w.node, w.parent, w.form, w.by, w.test) == ("answer", 41, 7, "json", "member",
                                                                                    "t::x")
    assert w.fields == {"body": "b", "title": "t", "wiki": False}


def test_a_comment_whose_body_is_a_parameter_is_noted_as_query_and_the_parameter_wins() -> None:
    w = parse(_ex("POST", "/node/84/comment.json?body=p%C3%A9", 201, "body=lost&visibility=full",
                  media="application/x-www-form-urlencoded", location="/services/v2/node/99.json"))
    assert w is not None and (w.kind, w.node, w.parent, w.form) == ("comment", 99, 84, "query")
    assert w.fields == {"body": "pé", "visibility": "full"}


def test_a_body_cut_by_the_exchange_is_not_kept_as_the_text() -> None:
    w = parse(_ex("POST", "/node/84/comment.json", 201, "body=" + "x" * BODY_KEEP,
                  media="application/x-www-form-urlencoded", response='{"id": 5}'))
    assert w is not None and "body" not in w.fields


def test_actions_are_noted_as_acted_and_reads_other_refusals_and_other_paths_are_not_noted() -> None:
    acted = parse(_ex("PUT", "/node/89/sendToMod.json", 200))
    assert acted is not None and (acted.kind, acted.node, acted.action) == ("acted", 89, "sendToMod.json")
    assert parse(_ex("GET", "/answer/3/comment.json", 200)) is None
    assert parse(_ex("POST", "/question/7/answer.json", 400, '{"body": "b"}')) is None  # no denial (refusals2)
    assert parse(_ex("PUT", "/node/7/lock.json", 409)) is None
    assert parse(_ex("POST", "/question/7/answer.json", None)) is None
    assert parse(_ex("POST", "/question/7/answer.json", 200, response='{"id": 3}')) is None  # no 201: no creation
    assert parse(_ex("POST", "/gdpr/schedule.json", 201)) is None


def test_one_process_keeps_its_writes_in_memory() -> None:
    ledger = Ledger()
    ledger.watch(_ex("POST", "/question/7/answer.json", 201, '{"body": "b"}', response='{"id": 41}'))
    ledger.watch(_ex("GET", "/user/3/answer.json", 200))
    assert [w.node for w in ledger.writes()] == [41]


def test_the_reader_goes_after_every_other_test_of_its_process() -> None:
    items: list[Any] = [SimpleNamespace(nodeid=n) for n in (
        "suites/contract/test_readback.py::test_a", "suites/contract/test_x.py::test_b",
        "suites/scenarios/test_y.py::test_c")]
    pytest_collection_modifyitems(items)
    assert [i.nodeid for i in items][-1] == "suites/contract/test_readback.py::test_a"
    assert is_reader("suites/contract/test_readback.py::test_a") and not is_reader("suites/test_readback.py::t")


def test_the_scheduler_ranks_the_readers_unit_after_every_other() -> None:
    assert parallel.group_of("suites/contract/test_readback.py::test_a") == parallel.LAST
    last = parallel._rank(parallel.LAST)
    for scope in ("relations:listQuestions", "suites/properties/test_privacy_model.py::t", "one-shot",
                  "suites/contract/test_x.py::test_b"):
        assert parallel._rank(scope) < last


def test_a_denied_write_is_noted_refused_with_the_fields_it_sent_and_its_status() -> None:
    """refusals2: a 401 or 403 to a write on a node or a question, whatever it would have made."""
    w = parse(_ex("POST", "/node/84/comment.json", 403, '{"body": "t", "visibility": "to_moderators"}'), "t::y")
    assert w is not None and (w.kind, w.node, w.parent, w.action, w.status, w.form, w.test) == (
        "refused", 84, None, "comment.json", 403, "json", "t::y")
    assert w.fields == {"body": "t", "visibility": "to_moderators"}
    put = parse(_ex("PUT", "/node/89/cancelwiki.json", 401))
    assert put is not None and (put.kind, put.action, put.status, put.fields) == ("refused", "cancelwiki.json", 401, {})


def test_only_the_writes_sent_to_the_readers_target_are_its_to_judge() -> None:
    """q19 CI: the kit's own tests start servers of their own in the process that runs the suites; their writes
    (another port) were judged against the run's target, which never had them."""
    ledger = Ledger()
    ledger.watch(_ex("POST", "/question/7/answer.json", 201, '{"body": "b"}', response='{"id": 41}'))
    other = _ex("POST", "/question/7/answer.json", 201, '{"body": "c"}', response='{"id": 42}')
    ledger.watch(Exchange(**{**vars(other), "url": "http://127.0.0.1:5001/services/v2/question/7/answer.json"}))
    assert [w.node for w in ledger.writes()] == [41, 42]
    assert [w.node for w in ledger.writes(origin("http://127.0.0.1:5000/services/v2/"))] == [41]
    assert [w.node for w in ledger.writes(origin("HTTP://127.0.0.1:5001/"))] == [42]
