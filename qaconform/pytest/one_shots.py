"""A one-shot call whose precondition proves false when it is sent: whose fault that is.

The state table's triggers need the node in its state ("Node marked favorite by the caller", "Wikified node (wiki
true)"). When the doctor could not tell that state before the run (a favorite no read shows and no record speaks
of: a CI build from a fresh checkout), an unfavorite answering ``success: false`` or a state refusal may simply
meet a node an earlier build consumed: the tests that need the call are "not checked: fixture not in its state"
(``SkipKind.FIXTURE_STATE``), never a failed rule. When the doctor knew the node in its state (a list showed it
wiki, the record said it was renewed), the same answer stays the rule's failure: that is how the self-test's
planted faults (a refused unfavorite that removes member's favorite, member's unfavorite refused as 404) are caught.

One place: suites/conftest.py's one-shot fixtures hand every owner's call through :func:`held`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from qaconform.contract import load_contract
from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.seed_draws import SHARED_OPTION_CARRIERS, shared_call_options_for_seed
from qaconform.target.client import ApiClient, ApiResponse, TargetError
from qaconform.target.doctor import Diagnosis
from qaconform.target.fixture_state import FixtureState, wiki_shown

STATE_REFUSALS = frozenset({400, 404, 409, 410, 422})
"""Statuses a server may give a call on a node not in its state (the description shows none): never 401/403 (a
permission answer is judged as such) nor 5xx."""


def doctor_state(diagnosis: Diagnosis, name: str) -> FixtureState:
    """What the doctor knew of the node this run took for ``name`` (unknown when it did not examine it)."""
    shot = diagnosis.one_shots.get(name)
    return shot.state if shot is not None else FixtureState.UNKNOWN


def refused_by_state(resp: ApiResponse) -> bool:
    """A 200 whose ``success`` is false, or a 4xx a server gives a node not in its state. A 200 without
    ``success`` is not one (that is ACTION-WRAPPERS' to judge)."""
    if resp.status == 200:
        try:
            body = resp.json()
        except (TargetError, ValueError):
            return False
        return isinstance(body, dict) and body.get("success") is False
    return resp.status in STATE_REFUSALS


def held(resp: ApiResponse, name: str, node: int, state: FixtureState,
         wiki_now: Callable[[], bool | None]) -> ApiResponse:
    """``resp`` when the call's tests may judge it; a FIXTURE_STATE skip when the answer says the node was not in
    its state and the doctor could not know it was. A wiki node is read once more (bounded: ``wiki_now``): only a
    node the target still shows wiki makes the refusal the server's."""
    if state is FixtureState.IN_STATE or not refused_by_state(resp):
        return resp
    answered = f"{resp.status}" + (" with success: false" if resp.status == 200 else "")
    if name == "favorite_node_id":
        seen = "no read shows a favorite"
    else:
        wiki = wiki_now()
        if wiki is True:
            return resp  # the node is wiki: the refusal is the server's to answer for
        seen = "a read now shows it wiki: false" if wiki is False else "no bounded read shows it"
    skip(SkipKind.FIXTURE_STATE,
         f"not checked: fixture not in its state: {name} node {node} answered {answered} ({seen}), and the doctor "
         f"could not tell its state before the run ({state}): an earlier run may have consumed it. Renew it and "
         "say so in the record beside the profile (an entry with \"state\": \"fresh\": docs/profile.md)",
         met=(name, node))


def wiki_reader(admin: ApiClient, accounts: Mapping[str, int | None], node: int) -> Callable[[], bool | None]:
    """The bounded read of ``node``'s ``wiki`` the doctor makes (fixture_state), deferred until a refusal asks."""
    ids = {role: uid for role, uid in accounts.items() if uid is not None}
    return lambda: wiki_shown(admin, ids, [node]).get(node)


WIKI_LOCK_PROMPT = "locked by its unwikifier right before the unwikify"
"""accept23: the prompt of the drawn unwikifier's lock of the node it unwikifies (suites/one_shot_calls.py
``wiki_locked_first``), followed by `` [<run tag>]``; test_locked_wiki.py reads it to judge extra."""

COMMON_OPTIONS = ("wrap", "v1")
"""'Other options accepted by most endpoints: wrap, v1.' (Endpoints > Conventions): round60 (issue 44) sends both
with the refused calls of every action, whether or not the action's own section names them (the refusals cost no
write)."""


def stated_options(operation: str) -> dict[str, str]:
    """Every optional query parameter the description states for ``operation`` (an action's options: wrap, and v1
    where given), each ``true``, read from the contract (an option the description adds is sent too).

    round47 (issue 44): of the two accepted calls of each one-shot action, one carries these and the other goes bare:
    admin's unfavorite of favorite_node_id (member's is bare) and moderator's unwikify of wiki_node_id (member's own
    is bare). The options were tried only on refusals (test_action_matrix.py's option rows), so an accepted call's
    record built on another code path when an option is given ("Option wrap": its effect is not shown, the stated
    response is the same) was never read. No write more."""
    return {p.name: "true" for p in load_contract().operation(operation).parameters
            if p.location == "query" and not p.required}


def drawn_options(operation: str, index: int, seed: int) -> dict[str, str]:
    """:func:`stated_options` for the accepted call ``index`` of ``operation`` when ``index + seed`` is even, else
    none: the run's accepted calls of one operation alternate between every option the description states and none,
    and the next seed swaps them (two calls: each carries them on every other seed).

    paths17 (issue 44, round47's options beyond the one-shot actions): the shared locks (admin's, moderator's and
    member's of their answers, admin's of a comment: 0-3) and sends to moderation (moderator's own answer, admin's
    locked comment, admin's of member's answer, moderator's of novice's comment: 0-3) were all sent bare, so a
    record built on another path when wrap or v1 is given (the stated response is the same) was never read on an
    accepted call. No write more.

    place25 (issue 44): which calls carry them is the named seed draw ``shared call options``
    (qaconform/pytest/seed_draws.py ``shared_call_options_for_seed``: the seed's parity, as before), so a fault on one
    account's call with an option names the draw and the self-test runs it at a seed that draws it."""
    carriers = SHARED_OPTION_CARRIERS.index(shared_call_options_for_seed(seed))  # 0: the even calls carry them
    return stated_options(operation) if index % 2 == carriers else {}


SHARED_CALLS: dict[str, tuple[str, ...]] = {
    "lockNode": ("admin", "moderator", "member", "admin's of a comment"),
    "sendToModeration": ("moderator", "admin", "admin's of member's answer", "moderator's of a comment"),
}
"""The shared accepted calls of each operation (suites/conftest.py), in the order :func:`drawn_options` indexes."""


def call_options(config: Any, operation: str, call: str) -> dict[str, str]:
    """:func:`drawn_options` for the shared call ``call`` of :data:`SHARED_CALLS` at the run's seed (0 without one)."""
    from qaconform.pytest.properties.plugin import STATE

    seed = config.stash[STATE].seed if STATE in config.stash else 0
    return drawn_options(operation, SHARED_CALLS[operation].index(call), seed)


def act(client: ApiClient, config: Any, operation: str, call: str, node: int, prompt: str | None = None) -> ApiResponse:
    """PUT the shared call ``call`` of ``operation`` (:data:`SHARED_CALLS`) on ``node`` as ``client``: the lock's
    ``prompt`` where given, and the options :func:`call_options` draws for it."""
    from qaconform.contract import path

    params = {"prompt": prompt} if prompt is not None else {}
    params.update(call_options(config, operation, call))
    return client.put(path(operation, nodeId=node).lstrip("/"), params=params or None, operation=operation)


def run_seed(config: Any) -> int:
    """The run's seed (0 without one), as the seeded draws read it (qaconform.pytest.seed_draws)."""
    from qaconform.pytest.properties.plugin import STATE

    return int(config.stash[STATE].seed) if STATE in config.stash else 0


def followers_read(client: ApiClient, node: int) -> dict[str, Any]:
    """One read of ``node``'s active followers ("active (boolean, default true)"), the first 100: ``status``, ``total``
    (its totalCount, None when the 200 held none) and ``ids`` (the first page's). Made right before admin's send of
    member_wiki_node_id, whichever order the seed draws (suites/contract/unwikified_node.py, one_shot_calls.py)."""
    from qaconform.contract import path

    resp = client.get(path("listNodeFollowers", nodeId=node), params={"pageSize": 100},
                      operation="listNodeFollowers")
    body: Any = None
    if resp.status == 200:
        try:
            body = resp.json()
        except (AssertionError, ValueError, TargetError):
            body = None
    total = body.get("totalCount") if isinstance(body, dict) else None
    items = body.get("list") if isinstance(body, dict) else None
    ids = [i.get("id") for i in items if isinstance(i, dict)] if isinstance(items, list) else []
    return {"status": resp.status, "total": total if isinstance(total, int) else None, "ids": ids}
