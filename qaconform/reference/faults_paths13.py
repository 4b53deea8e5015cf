"""paths13 (issue 44): faults on paths the next blind round would find, one for each kind of path closed (where they
bite: :mod:`paths13_doors`, wired in request_hooks.HOOKS, and :mod:`paths13_paths`, one call in actions.lock). Each
breaks one stated rule on one path only and was missed by the suites before the change that catches it
(ARCHITECTURE.md, paths13):

- anonymous on a node found with reads, in a state the action matrix never gave anonymous (a question after an
  unwikify: anonymous's lock and unwikify of a published question found with reads were already tried by
  test_found_relations.py);
- "own" taken from a relation the found-relations walk never told apart (the caller wrote a comment under the node):
  the walk now tells it apart (found_relations.COMMENTER); the reference target held no such answer among the
  nodes the accounts wrote until paths14 seeded member's public comment under moderator's answer to novice's
  question (seed.py ``_seed_answered_novices_question``): caught and registered since.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    _F("paths13-anonymous-lock-once-wiki", "PERM-LOCK",
       "'| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation "
       "Roles). |' (anonymous holds neither): an anonymous lock of a question that was wiki once and is no longer "
       "is carried out (recorded as the question's author's); anonymous's lock of any other node is refused"),
    _F("paths13-anonymous-cancelwiki-once-wiki", "PERM-CANCELWIKI",
       "'| 11 Unwikify | Mark as community wiki; for the caller's own node, Convert own posts to community wiki "
       "(Moderation Roles). |' (anonymous holds neither): anonymous's unwikify of a node that was wiki once and is "
       "no longer is answered 200 with the earlier, canceled wikify record (the 'nothing to cancel' path skips the "
       "permission check); on a node never wiki, or still wiki, anonymous is refused"),
    _F("paths13-lock-own-from-comment-under-it", "PERM-LOCK-OWN",
       "'Lock comments on posts; for the caller's own node, Lock comments on own posts' (ownership on the wrong "
       "relation): an answer under which the caller wrote a comment counts as its own, so member locks another's "
       "answer it commented on; an answer it wrote or did not comment on, and every other kind, is decided right"),
)

_MISSED_REASONS: dict[str, str] = {}
"""Missed after paths13's change (``qaconform selftest --fault NAME --no-clean``), with why it stays out."""

# PATHS13: Missed on main before paths13's change and caught after it: registered in faults.py.
# PATHS13_MISSED: Not registered, still wired (paths13_paths.lock_owns), reasons in :data:`_MISSED_REASONS`.
PATHS13, PATHS13_MISSED = split_missed(_ALL, _MISSED_REASONS)
