"""round49 (issue 44): the Content-Type of the placed shared writes' JSON bodies is drawn by the run's seed (bare
application/json, or with a charset parameter). The self-test's own seed keeps the bare type every run sent before;
the faults that bite on the charset form only name the draw and the self-test runs them at a seed that draws it."""

from __future__ import annotations

from typing import Any

from qaconform.commands import selftest_seeds
from qaconform.commands.selftest import DEFAULT_SEED
from qaconform.pytest.seed_draws import JSON_MEDIA_TYPES, draws_at, json_media_type_for_seed
from qaconform.reference import faults
from qaconform.target.client import JSON_MEDIA_TYPE, _encode_body

CHARSET_FAULTS = ("round49-comment-json-charset-privacy-dropped", "round49-kind-charset-recipients-not-listed")


def test_the_selftest_seed_keeps_the_bare_media_type() -> None:
    assert json_media_type_for_seed(DEFAULT_SEED) == "bare"


def test_sixteen_consecutive_seeds_draw_both_media_types() -> None:
    for start in (0, 5, DEFAULT_SEED, 2**31 - 16):
        assert {json_media_type_for_seed(s) for s in range(start, start + 16)} == set(JSON_MEDIA_TYPES), start


def test_each_charset_fault_names_the_draw_and_runs_at_a_seed_that_draws_it() -> None:
    for name in CHARSET_FAULTS:
        assert faults.FAULTS[name].draws == ("json media type=charset",), name
        at = selftest_seeds.fault_seed(name, DEFAULT_SEED)
        assert json_media_type_for_seed(at) == "charset" and draws_at(faults.FAULTS[name].draws, at), (name, at)


def test_a_json_body_takes_the_media_type_of_its_context_unless_one_is_given() -> None:
    def content_type(given: dict[str, str]) -> str:
        headers = dict(given)
        _encode_body({"body": "x"}, None, headers)
        return headers["Content-Type"]

    assert content_type({}) == "application/json"
    token = JSON_MEDIA_TYPE.set("application/json; charset=UTF-8")
    try:
        assert content_type({}) == "application/json; charset=UTF-8"
        assert content_type({"Content-Type": "application/json"}) == "application/json"
    finally:
        JSON_MEDIA_TYPE.reset(token)
    assert content_type({}) == "application/json"


def test_placed_writes_send_their_json_bodies_under_the_drawn_media_type() -> None:
    from suites.placed_forms import JSON_CHARSET, sent_as

    seen: list[Any] = []

    def send(form: str) -> Any:
        seen.append((form, JSON_MEDIA_TYPE.get()))
        return "response"

    assert sent_as(send, "query", JSON_CHARSET) == "response"
    assert sent_as(send, "json", None) == "response"
    assert seen == [("query", JSON_CHARSET), ("json", "application/json")]
    assert JSON_MEDIA_TYPE.get() == "application/json"
