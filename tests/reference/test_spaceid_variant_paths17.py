"""paths17 (issue 44 item 4): spaceId and child spaces. "spaceId (integer; restricts to one space)" beside a
question's "containerIds | Ids of the containers (space and its parent)": whether a parent space's filter lists its
child spaces' questions is left open, so the reference server offers it as the allowed variant
spaceid-takes-child-spaces (the suites pass on it: ``qaconform selftest --variant all``), and the default server
lists the space's own questions only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from ref_helpers import Ref, start_ref

from qaconform.reference.seed_people import SPACES
from qaconform.reference.variants import VARIANTS

PARENT, CHILD = next((s[4], s[0]) for s in SPACES if s[4] is not None)


@pytest.fixture(scope="module")
def child_spaces() -> Iterator[Ref]:
    yield from start_ref(variants=("spaceid-takes-child-spaces",))


def _spaces(srv: Ref, space: int) -> list[tuple[Any, Any]]:
    page = srv.ok("GET", "/question.json", "admin", params={"spaceId": space, "pageSize": 100})
    return [(q.get("primaryContainerId"), q.get("containerIds")) for q in page["list"]]


def test_the_variant_is_registered_with_the_sentence_it_reads() -> None:
    assert "restricts to one space" in VARIANTS["spaceid-takes-child-spaces"].leaves_open


def test_a_parent_space_lists_its_child_spaces_questions_under_the_variant_only(child_spaces: Ref, ref: Ref) -> None:
    assert CHILD in {p for p, _ in _spaces(ref, CHILD)}, "the reference data holds no question in the child space"
    plain = _spaces(ref, PARENT)
    assert {p for p, _ in plain} <= {PARENT}, plain
    varied = _spaces(child_spaces, PARENT)
    assert CHILD in {p for p, _ in varied}, varied
    assert all(PARENT in (c or []) or p == PARENT for p, c in varied), "a child's question names its parent"
