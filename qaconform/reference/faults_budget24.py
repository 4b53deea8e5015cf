"""budget24 (issue 44, histories no accepted write reached): faults on the next write after a node's state changed,
on a relation the run did not make before (where they bite: :mod:`budget24_hooks`, one ``request_hooks.Hook``).
Each breaks one stated must-rule on one path only; measured on budget24's base de705fb (``qaconform selftest
--fault NAME --no-clean --jobs 1``) before the writes the trade freed were spent there (ARCHITECTURE.md, budget24):

- a comment on an answer IN MODERATION (round87-moderated-answer-comment-default-mod's kind): its privacy stored as
  something else than what was sent;
- a comment private to member on another account's WIKI node (round90-cancelwiki-own-by-comment-recipient's kind):
  the recipient relation taken as ownership by another operation, or with an option.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    Fault("budget24-moderated-answer-comment-private-to-author", "COMMENT-1",
          "'Without visibility and recipients the comment has full visibility and no recipients, and a later GET "
          "returns exactly that.': a comment sent without visibility and recipients on an answer IN MODERATION is "
          "stored with visibility recipients and the answer's author as its one recipient (the moderation "
          "queue's thread is private to the answer's writer); on a published answer it is full"),
    Fault("budget24-lock-wiki-by-comment-recipient", "PERM-LOCK-OWN",
          "'| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation "
          "Roles). |': a caller with Lock comments on own posts only (member) may lock ANOTHER account's "
          "community-wiki node when one of the node's comments is private to the caller (own read from the "
          "node's participants, recipients included); other nodes of others are refused"),
    Fault("budget24-cancelwiki-own-by-recipient-with-option", "PERM-CANCELWIKI-OWN",
          "'| 11 Unwikify | Mark as community wiki; for the caller's own node, Convert own posts to community wiki. "
          "|': a caller with Convert own posts to community wiki only (member) may unwikify ANOTHER account's wiki "
          "node when the call carries a query parameter (an option) and one of the node's comments is private to "
          "the caller; the bare call is refused"),
)

_MISSED_REASONS: dict[str, str] = {}
"""Missed after budget24's change, with why it stays out (none)."""

BUDGET24, BUDGET24_MISSED = split_missed(_ALL, _MISSED_REASONS)
