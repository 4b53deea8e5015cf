"""Every integer or enum query parameter of every list at its edges inside the text of a parameter (edges, issue 44):
the empty string and a whitespace-only one (value_edges.py ``query_edges``, derived from the
operations' parameters in spec/openapi.yaml: page, pageSize, spaceId, the expert lists' sort).

"Paging parameters: page (integer, default 1), pageSize (integer, default is a configurable system page size)": the
description states no answer for a blank one (a default, a 400: both are the server's choice), so no status is
judged but a server error: a client's value is the client's matter, never a 5xx (CONV-NO-SERVER-ERROR). admin reads
(every permission, so the parameter is the request's only oddity); reads only.
"""

from __future__ import annotations

from typing import Any

import pytest
from value_edges import BLANK, query_edges

from qaconform import contract
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.target.client import ApiClient

pytestmark = [pytest.mark.contract]


def _cases() -> list[Any]:
    return [pytest.param(op, name, edge, id=f"{op}-{name}-{edge}") for op, name, edge in query_edges()]


@pytest.mark.rule("CONV-NO-SERVER-ERROR")
@pytest.mark.parametrize(("op_id", "name", "edge"), _cases())
def test_a_list_parameter_at_an_edge_of_its_text_never_gives_a_server_error(
        op_id: str, name: str, edge: str, admin: ApiClient, question_id: int) -> None:
    op = contract.load_contract().operations[op_id]
    ids = {"userId": admin.user_id, "nodeId": question_id}
    if any(ids.get(k) is None for k in op.path_ids):
        skip(SkipKind.OTHER, f"not judged: no id known for the path of {op_id} ({', '.join(sorted(op.path_ids))})")
    value = "" if edge == "empty" else BLANK
    resp = admin.get(op.path_with({k: ids[k] for k in op.path_ids}), params={name: value}, operation=op_id)
    if resp.status >= 500:
        fail(["CONV-NO-SERVER-ERROR"], f"{op_id} with {name}={value!r} ({edge}): a client's value is the client's "
                                       f"matter (a default or a 4xx), never a 5xx; got {resp.status}", resp)
