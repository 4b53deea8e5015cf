"""Every id in a path or a body field at its edges (issue 44, Build item 3, refusals2): zero, a negative id, an id no
one holds, one past 32 bits, one that is not a number, one too large for a 64-bit integer (spec/dimensions.yaml
``id_edge``).

Where the Errors table states the answer for an id that names nothing, that answer is judged where the rule lives:
the content list's userId ("422 | User content query | Invalid user id | {error: Invalid User Id}"), a bulk job's
csvFileId and reassignUser's id (suites/scenarios/test_gdpr_forms.py). Everywhere else the description states no
status for such an id ("Path parameter: nodeId (integer)", "recipients (array of objects with id ...)"), so no status
is judged here: a client's bad id is a client matter (2xx or 4xx), never a 5xx (CONV-NO-SERVER-ERROR). The id-bearing
path segments come from the contract (spec/openapi.yaml ``path_ids``), not from a list kept by hand; the content list
is left to its stated 422.

Writes: every POST here goes to a node that does not exist, or leaves out the comment's required body, so a
conforming target refuses it (no accepted write; what a target that accepts one created is registered as the run's).
The actions (PUT) on a node that does not exist may be answered 200 with success false (the description is silent,
test_observations_contract.py records it for an unknown id); their unknown edge is left to that observation.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from qaconform.contract import load_contract
from qaconform.pytest.id_edges import past_32_bits
from qaconform.pytest.outcomes import fail
from qaconform.pytest.support import new_id
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract]

STATED_ELSEWHERE = {"listUserContent": "its 422 {error: Invalid User Id} is judged by test_gdpr_forms.py"}
"""Operations whose id edges have a stated answer, judged where the rule lives."""
LEFT_TO_OBSERVATION = {"unknown"}
"""Edges not sent to an action (PUT): a 200 with success false may answer an id naming nothing (not shown)."""
TOO_LARGE = 2**63
"""One past the largest 64-bit integer: a number, yet one no server's id type holds."""

_rng = random.Random()


def id_edges() -> tuple[str, ...]:
    return tuple(load_contract().dimensions.values["id_edge"])


def edge_value(edge: str) -> int | str:
    """The id an edge sends; ``unknown`` is one near the top of a 32-bit id that no seed holds, ``past_32_bits`` one
    a 64-bit id holds and a 32-bit one does not (:func:`past_32_bits`)."""
    values: dict[str, int | str] = {"zero": 0, "negative": -1 - _rng.randint(0, 1000), "not_a_number": "qc-nan",
                                    "unknown": 2_147_000_000 + _rng.randint(0, 400_000),
                                    "past_32_bits": past_32_bits(_rng), "too_large": TOO_LARGE}
    return values[edge]


def _path_cases() -> list[Any]:
    cases = []
    for op in sorted(load_contract().operations.values(), key=lambda o: o.operation_id):
        if not op.path_ids or op.operation_id in STATED_ELSEWHERE:
            continue
        for name in sorted(op.path_ids):
            for edge in id_edges():
                if op.method.upper() == "PUT" and edge in LEFT_TO_OBSERVATION:
                    continue
                marks = [pytest.mark.writes, pytest.mark.refused_writes] if op.method.upper() != "GET" else []
                cases.append(pytest.param(op.operation_id, name, edge, marks=marks,
                                          id=f"{op.operation_id}-{name}-{edge}"))
    return cases


def _registered(resp: ApiResponse, created: Any, kind: str) -> None:
    """What a target that accepted a POST created, registered as the run's (cleanup, report)."""
    if 200 <= resp.status < 300:
        try:
            created.add(kind, new_id(resp), "admin")
        except (AssertionError, ValueError, KeyError, TypeError):
            pass


@pytest.mark.rule("CONV-NO-SERVER-ERROR")
@pytest.mark.parametrize(("op_id", "name", "edge"), _path_cases())
def test_an_id_at_each_edge_in_a_path_never_gives_a_server_error(
        op_id: str, name: str, edge: str, admin: ApiClient, created: Any, run_tag: str) -> None:
    """admin (every permission, so the id is what the target meets) calls the operation with the path id at its
    edge; a POST carries a valid body, a lock its prompt, so the id is the request's only fault."""
    op = load_contract().operations[op_id]
    ident = edge_value(edge)
    method = op.method.upper()
    body = {"body": f"id edge {edge} [{run_tag}] {uuid.uuid4().hex[:8]}"} if method == "POST" else None
    params = {"prompt": f"id edge [{run_tag}]"} if op_id == "lockNode" else None
    resp = admin.request(method, op.path_with({name: ident}), params=params, json=body, operation=op_id)
    _registered(resp, created, "answer" if op_id == "postAnswer" else "comment")
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"{op_id} with {name} {ident!r} ({edge.replace('_', ' ')}): an id that names "
                                       f"nothing is the client's matter (a 2xx or a 4xx), never a 5xx; got "
                                       f"{resp.status}", resp)


@pytest.mark.rule("CONV-NO-SERVER-ERROR", "COMMENT-BODY-REQUIRED")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.refused_writes
@pytest.mark.parametrize("edge", id_edges())
def test_a_recipient_id_at_each_edge_never_gives_a_server_error(
        edge: str, admin: ApiClient, shared_answer: int, profile: Profile, created: Any) -> None:
    """"recipients (array of objects with id, used with visibility recipients)": admin (every private option)
    comments to the shared answer, private to one recipient whose id is at its edge. The comment has no body
    ("body (string, the comment text, required)"), so a conforming target refuses it whatever it makes of the id:
    no accepted write; what is judged is that reading the id is never a 5xx."""
    ident = edge_value(edge)
    fields = {"visibility": profile.visibility.recipients, "recipients": [{"id": ident}]}
    resp = admin.post(load_contract().operations["postComment"].path_with({"nodeId": shared_answer}), json=fields,
                      operation="postComment")
    _registered(resp, created, "comment")
    if 200 <= resp.status < 300:
        fail(["COMMENT-BODY-REQUIRED"], f"a comment without body (private to recipient id {ident!r}) must be "
                                        f"refused; got {resp.status}", resp)
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"a comment private to recipient id {ident!r} ({edge.replace('_', ' ')}), "
                                       f"without body: a bad recipient id is the client's matter, never a 5xx; got "
                                       f"{resp.status}", resp)
