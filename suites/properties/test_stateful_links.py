"""Chains of calls along the OpenAPI links of spec/openapi.yaml, run as schemathesis's state machine.

The links say what a posted answer leads to: a comment on it, its comment list, locking it, sending it to
moderation. The state machine strings them together in random orders and lengths, so a server whose answer ids
do not work as node ids, or whose comment list breaks after a lock or a moderation move, fails here although every
single call was fine on its own.
"""

from __future__ import annotations

from typing import Any

import hypothesis
import pytest
from hypothesis import HealthCheck, Phase, settings

from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.properties.oas import SchemaSender
from qaconform.pytest.properties.plugin import SHARES

CHAIN = ["postAnswer", "postComment", "listAnswerComments", "lockNode", "sendToModeration"]
"""postAnswer and the four operations its links lead to."""

STEPS = 6


@pytest.mark.properties
@pytest.mark.writes
@pytest.mark.rule("ANSWER-ID-STRING", "CONV-NO-SERVER-ERROR", "SHAPE-POST-ANSWER", "SHAPE-POST-COMMENT",
                  "SHAPE-LIST-ANSWER-COMMENTS", "SHAPE-LOCK-NODE", "SHAPE-SEND-TO-MODERATION", "COMMENT-PRIVACY-LIST",
                  "OBS-GENERATED-STATUS", "OBS-LOCK-TWICE", "OBS-SENDTOMOD-TWICE")
def test_a_posted_answer_can_be_commented_listed_locked_and_sent_to_moderation_in_any_order(
    openapi_schema: Any, sender: SchemaSender
) -> None:
    machine = openapi_schema.include(operation_id=CHAIN).as_state_machine()
    links = [name for name in dir(machine) if "__201_Answer" in name]
    assert len(links) == 4, f"schemathesis sees {links} as the postAnswer links; expected 4 (spec/openapi.yaml)"

    class Chains(machine):  # type: ignore[misc, valid-type]
        def step(self, input: Any) -> Any:
            # Past this test's share of --time-budget: stop the run (BudgetSpent), never skip a step (hypothesis
            # would see the same choices draw differently before and after the deadline).
            # Likewise when its share of the write budget cannot take what the step may have accepted.
            linked = input.transition is not None and any(name == "nodeId" for _, name in input.applied_parameters)
            op = sender.operation_id(input.case)
            sender.budget.check(op, writes=sender.writes_needed(op, input.case, linked))
            sender.linked_case = input.case if linked else None
            return super().step(input)

        def before_call(self, case: Any) -> None:
            sender.make_safe(case)

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return sender.call_kwargs(case)

        def call(self, case: Any, **kwargs: Any) -> Any:
            return sender.transmit(case)

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            sender.judge(case, response, kwargs)

    budget = sender.budget
    hypothesis.seed(budget.seed)(Chains)  # run_state_machine_as_test reads the seed from the machine class
    run = Chains.TestCase
    # No shrinking: every replay re-creates answers over the network, and a failing chain is at most STEPS calls.
    run.settings = settings(max_examples=max(2, budget.max_examples // 2), stateful_step_count=STEPS, deadline=None,
                            suppress_health_check=list(HealthCheck), database=None,
                            phases=[Phase.explicit, Phase.reuse, Phase.generate])
    # The clock starts here, not when the fixtures were set up: building the state machine takes seconds on a busy
    # machine, and the chains' share of --time-budget is for sending.
    budget.begin(SHARES["test_stateful_links.py"])
    finished = budget.run_machine(run().runTest)
    if not finished and not any(budget.statuses.values()) and not budget.writes_left():
        skip(SkipKind.WRITE_BUDGET, f"write budget spent: the link chains' share ({budget.share_text()}) was used up "
                                    f"before their first request (seed {budget.seed}); a larger --write-budget, or "
                                    "--thorough, runs them")
    if not finished and not any(budget.statuses.values()):
        skip(SkipKind.CONFIGURATION, f"the time budget of the link chains ran out before their first request "
                                     f"(seed {budget.seed}): raise --time-budget")
