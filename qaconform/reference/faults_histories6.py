"""Planted faults of the node actions on nodes written before the run (issue 44 item 2, histories6): each breaks one
permission rule only on a node the site held before the server started, the way a permission cache warmed at start-up
decides calls on the nodes it holds from a stale entry. The run's own answers and comments never meet them; the nodes
the profile's accounts wrote, found with reads (suites/contract/found_relations.py), do. Part of the registry
(:mod:`faults`); each is wired through :mod:`histories6_paths` at the one place it bites (actions.py).

Before histories6 the action matrix acted on the run's writes and two found questions only: novice's own published
answer, an answer or a comment of another's under a question member did not write, were named unreachable
(spec/dimensions.yaml ``action_cells``).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_F = Fault
_ALL: tuple[Fault, ...] = (
    # "| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation Roles). |"
    _F("h6-lock-novice-old-answer-allowed", "PERM-LOCK",
       "\"13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts\": novice, who holds "
       "neither, may lock a published ANSWER written before the server started (the warm cache's entry for it holds "
       "the grant of Lock comments on posts for every signed-in role); comments, questions and every node written "
       "since are refused right",
       (Override(("lockNode",), "novice", Effect.ALLOW),)),
    _F("h6-lock-member-old-comment-allowed", "PERM-LOCK-OWN",
       "\"for the caller's own node, Lock comments on own posts\": member may lock a public COMMENT of another's, "
       "under an answer and a question it did not write, written before the server started (the warm cache holds no "
       "owner for it and grants the own-node clause); every node written since is judged right"),
    # "| 12 Send to moderation | Send already published question to moderation (Moderation Roles). |"
    _F("h6-sendtomod-member-old-answer-allowed", "PERM-SENDTOMOD",
       "\"12 Send to moderation | Send already published question to moderation (Moderation Roles)\": member may send "
       "to moderation a published ANSWER of another's, under a question it did not write, written before the server "
       "started (the warm cache's report grant); every node written since is refused right",
       (Override(("sendToModeration",), "member", Effect.ALLOW),)),
    # "Every operation requires the permissions below." (a denied write changes nothing)
    _F("h6-refused-sendtomod-novice-old-answer-moved", "PERM-DENIED-NO-EFFECT",
       "\"Every operation requires the permissions below\": novice's send to moderation of a published ANSWER written "
       "before the server started is refused with 403, yet the answer is put in moderation first (the warm cache's "
       "path moves, then checks); every other refusal changes nothing",
       (Override(("sendToModeration",), "novice", Effect.ALLOW),)),
)
"""Every fault of histories6 as planted."""

_MISSED_REASONS: dict[str, str] = {}
"""Left out of the registry, with why (their code stays in histories6_paths.py)."""

# HISTORIES6: Caught by test_found_relations.py, each missed by main's suites (measured with ``qaconform selftest
# --fault NAME --no-clean``).
# HISTORIES6_MISSED: Missed since found answers are only those under the accounts' questions (``_MISSED_REASONS``).
HISTORIES6, HISTORIES6_MISSED = split_missed(_ALL, _MISSED_REASONS)
