"""unwiki25 (issue 44, a comment right after an unwikify: round91-93's left-out kind): faults on a comment posted on
a node whose wiki action was canceled before (where they bite: :mod:`unwiki25_hooks`, one ``request_hooks.Hook``).
Each breaks one stated must-rule on one path only, on other paths than rounds 91-93's (a plain comment by a
non-author refused, or stored 'to the original poster'): the author's private comment, its private settings, its
Location. Measured on unwiki25's base 1d93586 (``qaconform selftest --fault NAME --no-clean --jobs 1``) before the
closing (ARCHITECTURE.md, "unwiki25").
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    Fault("unwiki25-author-private-comment-after-unwikify-403", "PERM-COMMENT-PRIVATE",
          "'For visibility and recipients: Use Private Comments plus one of Send private comments to original "
          "poster, Send private comments to moderators, Send private comments to own groups.': a private comment "
          "(any visibility) by the node's OWN AUTHOR on a node that was UNWIKIFIED before (its wiki action "
          "canceled) is refused 403 (the closed-for-editing guard read as 'the author may no longer add private "
          "threads'); on other nodes, and plain comments, it is created"),
    Fault("unwiki25-private-comment-after-unwikify-stored-full", "COMMENT-VISIBILITY-RETURNED",
          "'Both visibility and recipients are returned when a comment is retrieved': a comment with a private "
          "visibility (any option) on a node that was UNWIKIFIED before is stored with full visibility and no "
          "recipients (the unwikified node's new comments are taken as public), while the 201 body echoes what was "
          "sent; on other nodes it is stored as sent"),
    Fault("unwiki25-comment-after-unwikify-location-names-node", "COMMENT-201-LOCATION",
          "'Success: 201. The Location response header holds the URL of the new comment.': a comment created on a "
          "node that was UNWIKIFIED before answers 201 with a Location naming the unwikified node (the parent) "
          "instead of the new comment; on other nodes the Location names the comment"),
)

_MISSED_REASONS: dict[str, str] = {}
"""Missed after unwiki25's change, with why it stays out (none)."""

UNWIKI25, UNWIKI25_MISSED = split_missed(_ALL, _MISSED_REASONS)
