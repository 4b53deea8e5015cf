"""Planted faults of refusals at depth 2 and 3 (issue 44, refusals3): each lets ONE refused combination of caller,
operation and node through, or answers it with another status, only where the node in the path is a public reply (a
comment under a comment: depth 2, or a reply to a reply: depth 3), published (neither locked nor in moderation) or
written by another account; under a question, an answer or a first-level comment, and on the caller's own reply,
the same call gets the service's refusal. The permission table and operation 1's rules hold at every depth. Wired in
:mod:`refusals3_paths` (one entry of request_hooks.HOOKS); part of the registry (:mod:`faults`)."""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
REFUSALS3: tuple[Fault, ...] = (
    # --- operation 1 under a reply
    _F("refusals3-member-own-groups-under-others-reply-accepted", "COMMENT-7-NO-OPTION-PERMISSION",
       "member's comment private to its OWN GROUPS posted under a public REPLY (depth 2 or 3) ANOTHER account wrote "
       "is answered 201 as if posted (the refusal swallowed); under answers, first-level comments and its own reply "
       "it gets 403; 'or lacks the permission for that option, gives 403.'"),
    _F("refusals3-wrong-password-comment-on-published-reply-accepted", "AUTH-BAD-CREDENTIALS",
       "a comment sent with a WRONG PASSWORD under a published public REPLY (depth 2 or 3) is answered 201 (the "
       "credentials checked only for top-level threads); at depth 1, and under a locked reply, it gets 401; "
       "'Requests are authenticated with HTTP Basic authentication.'"),
    _F("refusals3-anonymous-comment-on-published-reply-500", "AUTH-ANONYMOUS-WRITES",
       "an ANONYMOUS comment under a published public REPLY (depth 2 or 3) fails with 500 (the refusal built from "
       "the reply's missing answer); at depth 1, and under a locked reply, it gets the service's 401; 'Every "
       "operation requires the permissions below.'"),
    # --- node actions on a reply
    _F("refusals3-member-lock-of-others-reply-allowed", "PERM-LOCK-OWN",
       "member's LOCK of a public REPLY (depth 2 or 3) ANOTHER account wrote is answered 200 as if locked (the "
       "own-node check made on the thread's first comment); on answers and first-level comments of others it gets "
       "403; 'for the caller's own node, Lock comments on own posts.'"),
    _F("refusals3-member-sendtomod-of-others-reply-allowed", "PERM-SENDTOMOD",
       "member's SEND TO MODERATION of a public REPLY (depth 2 or 3) ANOTHER account wrote is answered 200 as if "
       "sent; elsewhere it gets 403; 'Send already published question to moderation (Moderation Roles).'"),
    _F("refusals3-anonymous-lock-of-published-reply-allowed", "PERM-LOCK",
       "an ANONYMOUS lock of a published public REPLY (depth 2 or 3) is answered 200 as if locked; at depth 1 and "
       "on a locked reply it gets 401; 'Every operation requires the permissions below.'"),
    _F("refusals3-anonymous-unfavorite-of-published-reply-redirected", "PERM-DENIED-STATUS",
       "an ANONYMOUS unfavorite of a published public REPLY (depth 2 or 3) is answered with 302 to "
       "/users/login.html instead of the service's refusal; on other nodes it gets 401; 'Every operation requires "
       "the permissions below.'"),
)
"""The refusals let through under a reply (refusals3): each breaks one rule at one combination, at depth 2 and 3
only, caught where the depth-2 refusals are sent (suites/contract/test_deep_refusals.py)."""
