"""The input form of each shared write that had none (forms9, issue 44 item 3: "every write in every stated form"):
the run's answers and comments that were posted as JSON only now draw their form from the run's seed, so the
success path of every stated form (spec/dimensions.yaml ``input_form``: JSON body, query parameters, form-encoded
body, a parameter winning over the body) reaches each operation under parents and relations the account forms
(``answer_of``, ``comment_of``) never take: an answer to a question member wrote, answers that are then sent to
moderation, a comment directly on a question, a reply to one's own comment. No write is added: each slot is a write
the run made already.

The array: within each operation the slots take consecutive offsets, so the four answer slots post every form in
every run (each by another writer and relation, the pairing shifted by the seed), and the two comment slots two
forms per run (every form on a question and on a comment over two seeds, a Latin square over four). Refusals,
which write nothing, take every form on every parent kind in every run (suites/contract/test_write_forms.py).

A form the target refuses with a 4xx is posted again as JSON under the same key (what every test reading the write
needs is the node); test_write_forms.py judges the refusal against the same form taken by the run's other writes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from qaconform import contract
from qaconform.pytest.properties.plugin import STATE
from qaconform.target.client import ApiResponse
from qaconform.target.profile import Profile

from .one_shot_calls import once_per_target

JSON = "json"


@dataclass(frozen=True)
class Slot:
    """One shared write that takes a drawn form: its operation, the parent kind or relation it is posted under (what
    a server may read the form differently for), its writer, and its place in the operation's rotation."""

    operation: str
    parent: str
    writer: str
    offset: int


SLOTS: dict[str, Slot] = {
    "others_answer": Slot("postAnswer", "question novice wrote", "admin", 0),
    "answer_under_members_question": Slot("postAnswer", "question member wrote", "moderator", 1),
    "sent_to_mod_by": Slot("postAnswer", "question novice wrote, then sent to moderation", "moderator", 2),
    "answer_sent_to_mod_by_admin": Slot("postAnswer", "question novice wrote, then sent to moderation", "member", 3),
    "comment_on_own_node": Slot("postComment", "question", "novice", 0),
    "locked_comment": Slot("postComment", "comment (a reply to the writer's own comment)", "member", 2),
}
"""slot (the suites/conftest.py fixture that posts it) -> :class:`Slot`. The parents are those the reference data
gives (the profile's fixture question is novice's there); on another target the relation is what it is."""


def forms() -> tuple[str, ...]:
    return tuple(contract.load_contract().dimensions.values["input_form"])


def form_of(slot: str, seed: int) -> str:
    """The input form ``slot`` posts in for the run's ``seed``."""
    values = forms()
    return values[(SLOTS[slot].offset + seed) % len(values)]


@dataclass(frozen=True)
class Placed:
    """What a slot's post came to: the response every reader uses, the form it travelled in, and the refusal of the
    drawn form when JSON stood in for it."""

    resp: ApiResponse
    form: str
    refused: ApiResponse | None = None


_PLACED = pytest.StashKey[dict[str, Any]]()
"""The session's placed writes, by slot and key."""


def placed(request: pytest.FixtureRequest, profile: Profile, slot: str, key: str,
           send: Callable[[str], ApiResponse]) -> ApiResponse:
    """Post ``slot`` once per run and target under ``key`` in its drawn form (``send(form)``); a 4xx in a form
    other than JSON is kept under ``key as <form>`` and JSON posted under ``key``. The response every reader uses;
    :func:`placed_write` gives test_write_forms.py the whole :class:`Placed`."""
    seed = request.config.stash[STATE].seed if STATE in request.config.stash else 0
    cache: dict[str, Any] = request.session.stash.setdefault(_PLACED, {})
    if key not in cache:
        def shared(k: str, make: Callable[[], ApiResponse]) -> ApiResponse:
            return once_per_target(request, profile, f"shared {k}", make)

        form = form_of(slot, seed)
        if form == JSON:
            cache[key] = Placed(shared(key, lambda: send(JSON)), JSON)
        else:
            resp = shared(f"{key} as {form}", lambda: send(form))
            cache[key] = Placed(shared(key, lambda: send(JSON)), JSON, refused=resp) if 400 <= resp.status < 500 \
                else Placed(resp, form)
        cache[slot] = cache[key]
    placed_: Placed = cache[key]
    return placed_.resp


@pytest.fixture(scope="session")
def placed_write(request: pytest.FixtureRequest) -> Callable[[str], Placed | None]:
    """``placed_write(slot)``: what ``slot``'s post came to, posting it first if this process has not (its fixture,
    called for its writer where it is one per account); None where the fixture posted nothing (no such node)."""

    def get(slot: str) -> Placed | None:
        value = request.getfixturevalue(slot)
        if callable(value):
            value(SLOTS[slot].writer)
        found: Placed | None = request.session.stash.get(_PLACED, {}).get(slot)
        return found

    return get
