"""qa21: what OBS-SENDTOMOD-LISTED records is moderation's effect on the lists, not a list's lag.

Two CI builds of one server whose lists take a new answer in 300 ms after its 201 (variant lists-lag-writes)
recorded the run's answer sent to moderation as listed to moderator and admin in one build and to nobody in the
other, and ``qaconform diff`` showed a changed observation between two builds of the same server: the observation
ran right after its fixture posted the answer and sent it, before the lists had the answer at all. The fixture now
reads the answer back in the question's ``answers`` before the send (``suites/conftest.listed_before_send``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from qaconform.reference import ReferenceServer
from tests.test_one_shot_state import _alone, _suites

OBSERVATION = ["suites/scenarios/test_node_actions.py", "-k",
               "test_whether_a_node_in_moderation_is_still_listed_is_recorded"]


def _recorded(variants: tuple[str, ...], folder: Path) -> dict[str, Any]:
    """The facts OBS-SENDTOMOD-LISTED records when its test runs alone (right after its fixture's send)."""
    folder.mkdir()
    with ReferenceServer(variants=variants) as srv:
        tests = _suites(_alone(srv, folder), folder, *OBSERVATION)
    facts = [o["facts"] for t in tests for o in t.get("observations") or [] if o["rule"] == "OBS-SENDTOMOD-LISTED"]
    assert len(facts) == 1, tests
    return facts[0]


@pytest.mark.slow
def test_a_lagging_list_records_what_a_list_without_lag_records(tmp_path: Path) -> None:
    plain = _recorded((), tmp_path / "plain")
    lagging = _recorded(("lists-lag-writes",), tmp_path / "lagging")
    assert any(plain["in_authors_answer_list"].values()), plain  # some reader lists it: a lag could hide it
    assert lagging == plain
