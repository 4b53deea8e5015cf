"""The id of what a 201 created is read one way by the suites, the client's recorder and the load users."""

from __future__ import annotations

from typing import Any

import pytest

from qaconform.target.created_id import created_id


@pytest.mark.parametrize("location", [
    "http://127.0.0.1:8080/services/v2/node/123.json",
    "/services/v2/node/123.json",
    "https://qa.example.com/questions/7/123.html",
    "https://qa.example.com/node/123/",
    "https://qa.example.com/node/123?sort=active#c",
])
def test_the_location_forms_the_reference_variants_send_give_the_new_id(location: str) -> None:
    assert created_id(None, location) == 123


@pytest.mark.parametrize("body", [{"id": "123"}, {"id": 123}])
def test_the_body_id_wins_whether_string_or_integer(body: dict[str, Any]) -> None:
    assert created_id(body, "/services/v2/node/999.json") == 123


@pytest.mark.parametrize("body", [{"id": True}, {"id": "abc"}, {"id": None}, [], "123"])
def test_a_body_without_a_usable_id_falls_back_to_the_location(body: Any) -> None:
    assert created_id(body, "/node/5.json") == 5


@pytest.mark.parametrize("location", [None, "", "/node/comment.json", "/node/12/comment.json", "/node/12x"])
def test_no_id_anywhere_is_none(location: str | None) -> None:
    assert created_id({}, location) is None
