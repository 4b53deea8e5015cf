"""noeffect (issue 44, twenty-third session): a refused write that still leaves its effect, on paths the permission
matrix reaches but judged only by status before (PERM-DENIED-NO-EFFECT: "Every operation requires the permissions
below.", a denied write changes nothing). Written before the judge that catches them by kind (the ledger of refused
writes, suites/scenarios/refused_ledger.py); the hooks are in :mod:`noeffect_hooks`. Each bites on one path only.
Registered: those the judge catches (``NOEFFECT``); the others stay wired, out of the registry, with the reason
(``NOEFFECT_MISSED``).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    Fault(
        "noeffect-member-group-comment-query-stored-before-403", "PERM-DENIED-NO-EFFECT",
        "A comment with visibility to_own_groups by a caller without Send private comments to own groups (member) "
        "whose fields all come as request parameters (no body) is refused 403, but stored first as a public comment "
        "(the parameter binder's path saves before the option check); in a JSON body nothing is stored: breaks 'Every "
        "operation requires the permissions below.' (a denied write changes nothing) for parameters only.",
    ),
    Fault(
        "noeffect-novice-mod-comment-on-comment-stored-before-403", "PERM-DENIED-NO-EFFECT",
        "novice's comment with visibility to_moderators (novice lacks Use Private Comments) on a COMMENT (a reply) "
        "is refused 403, but stored first as a public reply (the reply path saves, then checks the option): breaks "
        "'Every operation requires the permissions below.' (a denied write changes nothing) for replies only.",
    ),
    Fault(
        "noeffect-novice-group-comment-on-question-stored-private", "PERM-DENIED-NO-EFFECT",
        "novice's comment with visibility to_own_groups on a QUESTION is refused 403, but stored first with that "
        "visibility (private to the groups: only staff read it): breaks 'Every operation requires the permissions "
        "below.' (a denied write changes nothing) for that option on questions only.",
    ),
    Fault(
        "noeffect-sendtomod-v1-moves-before-403", "PERM-DENIED-NO-EFFECT",
        "A send to moderation with the option v1 by a caller without Send to moderation (novice) is refused 403, "
        "but the v1 route moved the node into moderation first (it is no longer listed to those who do not "
        "moderate); without v1 nothing moves: breaks 'Every operation requires the permissions below.' (a denied "
        "write changes nothing) with v1 only.",
    ),
)

_MISSED_REASONS = {
    "noeffect-novice-group-comment-on-question-stored-private":
        "no reader: a comment stored private to its author's groups on a QUESTION shows only to the author and that "
        "group's members; the ledger's readers are admin's read of the caller's content (admin is in none of "
        "novice's groups on the reference server) and an answer's comment list (a question's comments are in none), "
        "and novice may not read its own content (Manage data protection). Closing: a read of the question's "
        "commentIds as the refused caller before its first refusal and after the last cell, judged against the "
        "comments the run itself posted on the question (every worker's: the write ledger across xdist workers)",
}

NOEFFECT, NOEFFECT_MISSED = split_missed(_ALL, _MISSED_REASONS)
