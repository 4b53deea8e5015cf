"""Planted faults of the kinds recip closed (issue 44): a stated alternative form of a comment field tried under one
parent kind only, a private comment one level below a public reply, and the first read of a comment list after a
write. Each breaks one stated rule on one path only, quotes the rule's sentence, and was missed by the suites before
recip (``qaconform selftest --fault NAME --no-clean`` on main's suites) and caught after. Part of the registry
(:mod:`faults`); each is wired through :mod:`recip_paths` where it bites (comments.py, node_lists.py, the round
hooks of request_hooks.py).
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
RECIP: tuple[Fault, ...] = (
    # "Each item has id (integer or string)." (Resources > Node > recipients)
    _F("recip-question-comment-mixed-forms-strings-dropped", "COMMENT-RECIPIENT-ID-FORMS",
       "\"Each item has id (integer or string).\": on a comment posted directly on a question, a recipients list "
       "that mixes the forms is typed by its first item, so string ids after an integer one are dropped (lists of "
       "one form, and every list under an answer or a comment, are right)"),
    # "When visibility is recipients and recipients lists ids, the comment is private to those recipients ..."
    _F("recip-private-under-public-reply-listed-to-all", "COMMENT-PRIVACY-LIST",
       "\"... the comment is private to those recipients\": the answer's comment list shows every reader a private "
       "comment whose parent is a public reply (a public comment that is itself a reply): the list's filter looks "
       "one level up for a public top comment; a private reply to a public top comment is filtered"),
    # "| author | object | id (integer), username (string), reputation (integer), ..." (Node)
    _F("recip-fresh-reply-author-id-string", "SHAPE-LIST-ANSWER-COMMENTS",
       "\"author | object | id (integer), username (string), reputation (integer)\": the first read of an answer's "
       "comment list right after a reply (a comment on a comment) was posted under it serves that reply from the "
       "write-through cache with its author's id as a string; later reads, and comments on the answer, are right"),
)
