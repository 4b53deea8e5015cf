"""Planted faults of a private reply under a public comment (issue 44 items 2 and 5, histories5): each breaks one
stated rule only on a reply whose own settings were set under a public comment (rule 5), or only on a reply that
inherited its settings through such a reply (rule 3 one level further down). Part of the registry (:mod:`faults`);
each is wired through :mod:`histories5_paths` at the one place it bites (comments.py, node_lists.py).

Before histories5 the run posted one private reply under a public comment (comment privacy's, read by its author
and its recipient in the answer's comment list and by the accounts outside it there and in admin's read of the
author's content) and no reply under it; the privacy model had no public parent at all.
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
HISTORIES5: tuple[Fault, ...] = (
    # "A reply to a private comment without privacy fields, or with the same ones, inherits the parent's settings:
    # 201." (operation 1, rule 3)
    _F("h5-reply-under-public-parent-stored-public", "COMMENT-3",
       "\"A reply to a private comment without privacy fields, or with the same ones, inherits the parent's "
       "settings: 201.\" A reply to a private reply whose own parent is a public comment is stored with full "
       "visibility and no recipients (inheritance decided by the thread's public top comment); a reply to a private "
       "top comment inherits"),
    # "When visibility is recipients and recipients lists ids, the comment is private to those recipients."
    _F("h5-inherited-reply-under-public-listed-to-all", "COMMENT-PRIVACY-LIST",
       "\"... the comment is private to those recipients\": the answer's comment list shows every reader a reply that "
       "inherited its settings from a private reply whose own parent is public (the list's filter looks up the "
       "thread's top comment, which is public)"),
    _F("h5-inherited-reply-under-public-content-leak", "COMMENT-PRIVACY-CONTENT",
       "\"... the comment is private to those recipients\": a user's content list shows every caller who may read it "
       "the author's replies that inherited their settings from a private reply whose own parent is public (the "
       "content query filters a reply by the thread's top comment); the private reply itself is filtered"),
)
"""A private reply under a public comment and its replies (issue 44, histories5): each missed by the suites before
the privacy model read the run's shared private reply under a public comment and placed a reply under it."""
