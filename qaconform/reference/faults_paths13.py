"""paths13 (issue 44): faults on paths the next blind round would find, one for each kind of path closed (where
they bite: :mod:`paths13_paths`, called from actions.lock and actions.cancel_wiki). Each breaks one stated rule on one
path only and was missed by the suites before the change that catches it (docs/blind-rounds.md, paths13):

- anonymous on a node the run found with reads, in a state the action matrix never gave anonymous (a question as
  published, a question after an unwikify);
- "own" taken from a relation the found-relations walk never told apart (the caller wrote a comment under the node).
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault

PATHS13: tuple[Fault, ...] = (
    _F("paths13-anonymous-lock-question", "PERM-LOCK",
       "'| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation "
       "Roles). |' (anonymous holds neither): an anonymous lock of a question is carried out (the any-node check "
       "is made for answers and comments only); anonymous's lock of an answer or a comment is refused"),
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
