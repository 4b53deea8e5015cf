"""The rows of the list response matrix that name another node kind in a node list's ``type`` parameter (fix25,
issue 44, blind round 25), added beside the covering array of list_responses.py, which keeps its rows and ids.

The sections state their items' type whatever the search ("paged list envelope with Node items of type question"),
and the meaning of ``type`` is not shown ("Meaning and value format of q, type, lang: not shown"), so a client may
send any node kind there; the covering array sent only the list's own kind, and a server that put the parameter in the
node-type condition (the question list asked with type=answer listing answers) went unseen. A refused value, or a 404
saying nothing matched, is excused as every search value is (list_responses.excused).
"""

from __future__ import annotations

from covering import Combination
from list_responses import JSON_FORM, SWEEP_READER, SWEPT_ITEMS, Row
from listops import LIST_OPS

from qaconform.contract import Contract

TYPE_SEARCH = "search"
"""The list dimension whose values carry the ``type`` parameter (spec/dimensions.yaml ``search``)."""


def every_other_kind(op: str, contract: Contract) -> list[Row]:
    """One row per node kind other than the list's own (list_responses.SWEPT_ITEMS) given as ``type``, read by admin
    (who sees every item) with no other parameter; none for a list that takes no search or holds no nodes."""
    want = LIST_OPS[op].item_type
    if TYPE_SEARCH not in contract.dimensions.of_list(op) or want not in SWEPT_ITEMS:
        return []
    return [Row(Combination(op, SWEEP_READER, ((TYPE_SEARCH, f"type={kind}"),)), JSON_FORM)
            for kind in SWEPT_ITEMS if kind != want]
