"""refusedrun (refusals2, issue 44, twenty-third session): a refused comment of the comment refusal matrix
(suites/contract/test_comment_refusal_matrix.py, outside the permission matrix) stored before its refusal, each on
one parent kind and state (PERM-DENIED-NO-EFFECT: "Every operation requires the permissions below.", a denied write
changes nothing). Written before the judge that catches them by kind (the run's ledger of refused writes,
qaconform.pytest.readback); the hooks are in :mod:`refusedrun_hooks`. Registered: those the judge catches
(``REFUSEDRUN``); the others stay wired, out of the registry, with the reason (``REFUSEDRUN_MISSED``).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    Fault(
        "refusedrun-novice-recipients-comment-on-locked-answer-stored", "PERM-DENIED-NO-EFFECT",
        "novice's comment with recipients (novice lacks Use Private Comments) on a LOCKED answer is refused 403, "
        "but stored first as a public comment (the locked-parent path saves before the option check): breaks 'Every "
        "operation requires the permissions below.' (a denied write changes nothing) under a locked answer only.",
    ),
    Fault(
        "refusedrun-member-group-comment-on-moderated-comment-stored", "PERM-DENIED-NO-EFFECT",
        "member's comment with visibility to_own_groups (member lacks Send private comments to own groups) on a "
        "COMMENT held in moderation is refused 403, but stored first as a public reply: breaks 'Every operation "
        "requires the permissions below.' (a denied write changes nothing) under a moderated comment only.",
    ),
    Fault(
        "refusedrun-novice-mod-comment-under-locked-question-stored", "PERM-DENIED-NO-EFFECT",
        "novice's comment with visibility to_moderators (novice lacks Use Private Comments) on an answer whose "
        "QUESTION is locked is refused 403, but stored first as a public comment: breaks 'Every operation requires "
        "the permissions below.' (a denied write changes nothing) under a locked question's answers only.",
    ),
)

_MISSED_REASONS: dict[str, str] = {}

REFUSEDRUN, REFUSEDRUN_MISSED = split_missed(_ALL, _MISSED_REASONS)
