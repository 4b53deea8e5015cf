"""The input form of each shared write that had none (forms9, issue 44 item 3: "every write in every stated form"):
the run's answers and comments that were posted as JSON only now draw their form from the run's seed, so the
success path of every stated form (spec/dimensions.yaml ``input_form``: JSON body, query parameters, form-encoded
body, a parameter winning over the body) reaches each operation under parents and relations the account forms
(``answer_of``, ``comment_of``) never take: an answer to a question member wrote, answers that are then sent to
moderation, a comment directly on a question, a reply to one's own comment. No write is added: each slot is a write
the run made already.

The slots and the form each takes for a seed: suites/contract/placed_slots.py (pure). A form the target refuses
with a 4xx is posted again as JSON under the same key (what every test reading the write needs is the node);
test_write_forms.py judges the refusal against the same form taken by the run's other writes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from qaconform import contract
from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.support import new_id, post_comment
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

from .contract.placed_slots import JSON, SLOTS, form_of
from .one_shot_calls import once_per_target


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


def post_private(client: ApiClient, node: int, tag: str, created: Any, text: str, profile: Profile,
                 recipients: list[Any], form: str) -> ApiResponse:
    """A comment private to ``recipients`` whose visibility travels in ``form`` (placed_slots.PRIVATE_FORMS):
    ``query`` body and visibility as query parameters beside a JSON body of the recipients (an array of objects: no
    parameter form shown); ``param_wins`` visibility also a query parameter, winning over the body's full visibility
    (else the original-poster option: a value that, with recipients, the description refuses: rule 6)."""
    visibility = profile.visibility.recipients
    losing = profile.visibility.full or profile.visibility.to_original_poster or "full"
    if form == JSON:
        return post_comment(client, node, tag, created, text=text, visibility=visibility, recipients=recipients)
    body: dict[str, Any] = {"recipients": [{"id": r} for r in recipients]}
    params: dict[str, Any] = {"visibility": visibility, "body": f"{text} [{tag}]"}
    if form == "param_wins":
        body.update(body=params.pop("body"), visibility=losing)
    resp = client.post(contract.path("postComment", nodeId=node), params=params, json=body, operation="postComment")
    if resp.status == 201 and created is not None:
        created.add("comment", new_id(resp), client.role)
    return resp
