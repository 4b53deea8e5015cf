"""Planted faults of the kinds place25 closes (issue 44, twenty-fifth session): a write the run makes anyway that
reached its fault's path on some seeds only, or under one relation only.

- **novice's answers over relations** (round93-novice-answer-own-question-published's kind): novice's answers (no
  Publish answer) go under its own question (the fixture question: the JSON one always, one parameter form a run) and
  under other accounts' questions (placements); the answer form matrix judged a form answer only where member saw it
  and not novice's JSON one, so an own-question answer published (the JSON one) was never judged.
- **which shared call carries the stated options** (round90-sendtomod-moderator-v1-refused's kind): the shared locks
  and sends alternate between every stated option and none by the seed's parity, now the named seed draw
  ``shared call options`` (qaconform/pytest/seed_draws.py), so a fault on one account's call with an option runs at a
  seed that draws it.

Each quotes the sentence it breaks, was measured missed on the base (``qaconform selftest --fault NAME --no-clean
--jobs 1``) and caught after. Part of the registry (fault_list18.py); wired through :mod:`place25_hooks` and
access.py (the override).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

EVEN_CARRIERS = "shared call options=moderator's send, admin's and member's locks"
"""The draw of the seeds whose shared calls 0 and 2 carry the options (even seeds)."""

_ALL: tuple[Fault, ...] = (
    Fault(
        "place25-novice-json-answer-own-question-published", "PERM-ANSWER-PUBLISH",
        "An answer by a caller with Answer questions but without Publish answer (novice), sent as a JSON body, to a "
        "question the caller ASKED is published directly (the JSON binder's draft takes the thread's author as the "
        "publisher); answers in other forms, and to others' questions, go to moderation: breaks 'Publish answer "
        "(Standard Roles) to publish directly; otherwise the answer goes to moderation.' for a JSON answer to the "
        "caller's own question only.",
    ),
    Fault(
        "place25-novice-form-answer-own-question-moderation-skipped", "ANSWER-MODERATION",
        "An answer by a caller without Publish answer (novice) whose body is FORM-ENCODED (no body parameter), to a "
        "question the caller asked, skips the moderation queue and is published (the form binder's own-thread "
        "shortcut); JSON and query answers, and form answers to others' questions, are queued: breaks '| Caller has "
        "Answer questions but not Publish answer | In the moderation queue | Answer is created. |' for a form-encoded "
        "answer to the caller's own question only.",
        draws=("novice own-question form=form",),
    ),
    Fault(
        "place25-member-own-lock-wrap-refused", "PERM-LOCK-OWN",
        "A lock asked with wrap=true refuses member 403 on its OWN node (the wrapping controller checks Lock comments "
        "on posts, not the own-posts permission); member's bare locks of its own nodes, and moderator's and admin's "
        "locks with wrap, are served: breaks '| 13 Lock | Lock comments on posts; for the caller's own node, Lock "
        "comments on own posts (Moderation Roles). |' for member's own node with wrap only.",
        overrides=(Override(("lockNode",), "member", Effect.DENY, when=("wrap",)),),
        draws=(EVEN_CARRIERS,),
    ),
    Fault(
        "place25-admin-send-answer-wrap-refused", "PERM-SENDTOMOD",
        "A send to moderation of an ANSWER asked with wrap=true refuses admin 403 (the wrapped answer controller "
        "checks the moderation-queue role by its legacy name, which admin's role lacks); admin's bare sends, its "
        "sends of comments with wrap, and moderator's are served: breaks '| 12 Send to moderation | Send already "
        "published question to moderation (Moderation Roles). |' for admin's send of an answer with wrap only.",
        draws=(EVEN_CARRIERS,),
    ),
)

_MISSED_REASONS: dict[str, str] = {}

PLACE25, PLACE25_MISSED = split_missed(_ALL, _MISSED_REASONS)
