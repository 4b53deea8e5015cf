"""The planted faults' hooks of the rounds added from the twenty-sixth session on, as data: each round's name and
its functions by stage (the keyword arguments of :class:`request_hooks.Hook`). request_hooks.py appends them to
``HOOKS`` at its end, in this tuple's order.

Why a second module: request_hooks.py reached the package's 600-line limit, one four-line block per round. Here a
round adds one entry (append at the END: the file merges as a union, like fault_list18.py), and this module imports
nothing of request_hooks, so there is no import cycle; dispatch.py still imports none of the rounds' modules
(tests/reference/test_request_hooks.py reads this file's imports too).
"""

from __future__ import annotations

from typing import Any

from . import (
    blind_round97,
    blind_round98,
    blind_round99,
    blind_round100,
    blind_round101,
    blind_round102,
    hist26_hooks,
)

STAGES: tuple[tuple[str, dict[str, Any]], ...] = (
    # blind round 98 (issue 44): drawn must-rules (seed 20261214) + eight outside kinds, measured blind
    ("round98", {"before": blind_round98.before, "admitted": blind_round98.admitted, "after": blind_round98.after}),
    # blind round 97 (issue 44): drawn must-rules (seed 20261214) + eight outside kinds, measured blind
    ("round97", {"before": blind_round97.before, "admitted": blind_round97.admitted, "after": blind_round97.after}),
    # blind round 99 (issue 44): drawn must-rules (seed 20261214) + eight outside kinds, measured blind
    ("round99", {"before": blind_round99.before, "admitted": blind_round99.admitted, "after": blind_round99.after}),
    # hist26 (issue 44): a private reply refused in an unwikified thread; ownership from a comment under an answer
    ("hist26", {"before": hist26_hooks.before}),
    # blind round 101 (issue 44): drawn must-rules (seed 20261215) + eight outside kinds, measured blind
    ("round101", {"before": blind_round101.before, "admitted": blind_round101.admitted,
                  "after": blind_round101.after}),
    # blind round 100 (issue 44): drawn must-rules (seed 20261215) + eight outside kinds, measured blind
    ("round100", {"before": blind_round100.before, "after": blind_round100.after,
                  "refusal": blind_round100.refusal, "refusal_body": blind_round100.refusal_body}),
    # blind round 102 (issue 44): drawn must-rules (seed 20261215) + eight outside kinds, measured blind
    ("round102", {"before": blind_round102.before, "admitted": blind_round102.admitted,
                  "refusal": blind_round102.refusal, "after": blind_round102.after}),
)
"""(round name, its functions by stage), in the order the rounds were added."""
