"""paths19 (issue 44 items 2 and 5): a fault of a kind last session's blind rounds left out, on another path (where
it bites: :mod:`paths19_paths`, one ``request_hooks.Hook``), missed on the branch before paths19's change of its kind
and caught after (``qaconform selftest --fault NAME --no-clean --jobs 1``; ARCHITECTURE.md, paths19):

- a cache whose catch depended on timing (round49-question-ids-cached-per-node's kind): a node's ids kept a few
  seconds without the reader in the key leak only when the recipient's read filled the cache; the recipient's read
  right before each viewer's is now read again within the settle window until it shows its own view (a private id),
  so the viewer reads right after a fill by the recipient, whatever another reader's read filled before.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    _F("paths19-kind-user-questions-ids-cached", "COMMENT-PRIVACY-IDS",
       "'the comment is private to those recipients': a user's question list keeps each question's commentIds "
       "and childrenIds 3 s per question, keyed without the reader, and serves them to whoever reads next; a "
       "comment private to the recipient shows in the question's commentIds to a caller reading right after the "
       "recipient"),
)

_MISSED_REASONS: dict[str, str] = {
}
"""Missed after paths19's change, with why it stays out: none."""

PATHS19, PATHS19_MISSED = split_missed(_ALL, _MISSED_REASONS)
