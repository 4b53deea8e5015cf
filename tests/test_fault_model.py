"""The split of a round's planted faults into the registered and the left out (:func:`fault_model.split_missed`)."""

from __future__ import annotations

import pytest

from qaconform.reference.fault_model import Fault, split_missed

_ROUND = (Fault("r-a", "RULE-A", "a"), Fault("r-b", "RULE-B", "b"), Fault("r-c", "RULE-C", "c"))


def test_the_missed_names_are_left_out_and_the_rest_registered_in_order() -> None:
    registered, left_out = split_missed(_ROUND, {"r-b": "why"})
    assert [f.name for f in registered] == ["r-a", "r-c"]
    assert [f.name for f in left_out] == ["r-b"]


def test_a_reason_kept_for_a_name_that_is_no_fault_of_the_round_is_refused() -> None:
    with pytest.raises(ValueError, match="r-renamed"):
        split_missed(_ROUND, frozenset({"r-renamed"}))
