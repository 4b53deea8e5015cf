"""hist26 (issue 44 items 2 and 5): kind proofs of the two left-out blind faults hist26 closed (where they bite:
:mod:`hist26_hooks`, one ``request_hooks.Hook``). Each breaks its rule on a path the run took no step of before
hist26, another fault of the same kind as the blind one it proves; measured missed on hist26's base 3c10f467 and
caught after (``qaconform selftest --fault NAME --no-clean --jobs 1``; ARCHITECTURE.md, "hist26").
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    Fault("hist26-kind-private-reply-after-unwikify-refused", "COMMENT-5",
          "Kind proof of round95-reply-public-after-unwikify-privacy-dropped (a reply's own settings after a state "
          "change): 'A reply to a public comment may set its own visibility and recipients: 201.': a reply with a "
          "private visibility to a PUBLIC comment in the thread of a node whose wiki action was canceled before (an "
          "unwikify of its question or answer) is refused 403 (the closed wiki thread takes no reply with settings "
          "of its own); replies without settings, and private replies in threads never wikified, are taken",
          draws=("after-state comment parent=novice's comment",)),
    Fault("hist26-kind-cancelwiki-private-answer-commenter-owns", "PERM-CANCELWIKI-OWN",
          "Kind proof of round94-cancelwiki-thread-commenter-owns (ownership on the wrong relation): a caller holding "
          "Convert own posts to community wiki but not Mark as community wiki (member) may unwikify another account's "
          "wiki QUESTION when it wrote a PRIVATE comment (any visibility but full) under an answer of that question "
          "that another account wrote (the thread's private participants are taken as its editors); public comments, "
          "and comments on the question itself, give nothing: breaks '| 11 Unwikify | Mark as community wiki; for "
          "the caller's own node, Convert own posts to community wiki. |' for such a commenter only."),
)

HIST26, HIST26_MISSED = split_missed(_ALL, {})
