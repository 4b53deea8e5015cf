"""The ten paged list operations of the description as data, shared by the contract suite's test files.

Described once (which accounts may call each, what item type it holds, which fields a projection keeps, whether the
run leaves it unchanged) so that every test file parametrizes over the same table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from qaconform.pytest.outcomes import expect
from qaconform.target.client import ApiResponse
from qaconform.target.profile import ROLES

ALL_ROLES: tuple[str, ...] = ROLES


@dataclass(frozen=True)
class ListOp:
    """A paged list operation as the description gives it."""

    op: str
    """operationId (ARCHITECTURE.md)."""
    roles: tuple[str, ...]
    """Accounts the description lets call it (target-profile.md table); the others are the permission suite's."""
    item_type: str | None
    """The ``type`` every item carries, or None when the resource has no type field (Topic)."""
    include_only: tuple[str, ...]
    """Two fields the items have, for includeOnly (the description's example is id and name)."""
    stable: bool
    """True when nothing the run does changes its items or their order (needed to walk its pages)."""
    never_empty: bool
    """True when the profile's fixtures guarantee at least one item (or, see ``filled_by_suite``, the suite's own
    writes do), so item checks cannot pass vacuously."""


LIST_OPS: dict[str, ListOp] = {
    lo.op: lo
    for lo in (
        ListOp("listQuestions", ALL_ROLES, "question", ("id", "title"), False, True),
        ListOp("listUserAnswers", ALL_ROLES, "answer", ("id", "body"), False, False),
        ListOp("listActiveExperts", ALL_ROLES, "user", ("id", "username"), True, False),
        ListOp("listEarnedExperts", ALL_ROLES, "user", ("id", "username"), True, False),
        ListOp("listSpaces", ALL_ROLES, "space", ("id", "name"), True, True),
        ListOp("listTopics", ALL_ROLES, None, ("id", "name"), True, False),
        ListOp("listUserQuestions", ALL_ROLES, "question", ("id", "title"), False, True),
        ListOp("listNodeFollowers", ALL_ROLES, "user", ("id", "username"), False, False),
        ListOp("listGroups", ("admin",), "group", ("id", "name"), True, False),
        ListOp("listAnswerComments", ALL_ROLES, "comment", ("id", "body"), True, False),
    )
}
"""The ten paged lists. Spaces/topics/groups/experts are never written by the interface; the comment list is the
suite's own answer (see ``commented_answer``), which no other test writes to."""


def list_params(ops: tuple[str, ...] | None = None, roles: str = "first") -> list[Any]:
    """pytest.param per list op (and per permitted account when ``roles == "all"``), with readable ids."""
    out: list[Any] = []
    for lo in LIST_OPS.values():
        if ops is not None and lo.op not in ops:
            continue
        chosen = lo.roles if roles == "all" else lo.roles[:1]
        for role in chosen:
            out.append(pytest.param(lo.op, role, id=f"{lo.op}-{role}"))
    return out


def items_of(resp: ApiResponse, what: str, blame: tuple[str, ...] = ()) -> list[Any]:
    """The ``list`` of a 200 envelope, failing with the response when it is not one, charged to ``blame`` when given
    (the rule ids of the test that an unreadable list stops), else to the calling test's rules."""
    expect(resp.status == 200, blame, f"{what}: expected 200", resp)
    body = resp.json()
    expect(isinstance(body, dict) and isinstance(body.get("list"), list), blame,
           f"{what}: expected the paged envelope with a 'list' array", resp)
    return list(body["list"])


Fetch = Callable[..., ApiResponse]
RunOnce = Callable[[str, Callable[[], Any]], Any]
"""conftest.run_once: ``run_once(key, make)``, ``make()``'s JSON value made once per run (shared_reads.once)."""
"""``fetch(role, path, **params)``: the session-cached GET of the ``fetch`` fixture."""
