"""fix32 (issue 44): faults of the kinds earlier blind rounds left out of the registry, planted on neighbouring paths
to prove each widening closes its kind, not its one fault (docs/blind-rounds.md, "fix32"). Hooks in
:mod:`fix32_paths`.

- each comment rule under every parent kind's thread (round31: a private reply to a public comment refused in a
  question's own thread; here such a reply stored without its own settings);
- a node action on a published answer of another's written before the run, under a question an account wrote
  (histories6: novice's lock and send, member's send; here member's lock);
- ownership on the wrong relation (round31: "own" from lastActiveUserId; here from having written under the
  question).
"""

from __future__ import annotations

from .fault_model import Fault

FIX32: tuple[Fault, ...] = (
    Fault("fix32-reply-public-question-thread-settings-dropped", "COMMENT-5",
          "'A reply to a public comment may set its own visibility and recipients: 201.' -> a reply to a public"
          " comment of a question's own thread (a comment posted on the question, not under an answer) that sets a"
          " private visibility is created, but stored public (full, no recipients): the thread's settings are"
          " taken from the question; under answers it keeps its own"),
    Fault("fix32-lock-member-old-answer-allowed", "PERM-LOCK-OWN",
          "\"| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation"
          " Roles). |\" -> member may lock a published ANSWER of another's, under a question it did not write,"
          " written before the server started (the warm permission cache grants the own-node clause on it); every"
          " node written since is judged right"),
    Fault("fix32-lock-own-contributor", "PERM-LOCK-OWN",
          "\"| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation"
          " Roles). |\" -> ownership on the wrong relation: a caller with Lock comments on own posts only (member)"
          " may lock a question another user wrote once it wrote a comment directly on it (\"own\" read from the"
          " question's contributors)"),
)
