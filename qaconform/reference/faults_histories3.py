"""Planted faults of the histories that need the run's own accepted writes (issue 44, Build item 5; histories3):
each breaks one stated rule only at depth 3 of a private thread under an answer (a reply to a reply to a reply of a
private comment), or only on a reply to such a reply. Part of the registry (:mod:`faults`); each is wired through
:mod:`histories3_faults` at the one place it bites (comments.py, node_lists.py, dispatch's ``after`` chain).

Depth is counted as the privacy model counts it: 0 for a comment on the answer, 1 for a reply to it, 2 for a reply
to a reply, 3 for a reply to that (stored depth 5: the question 0, the answer 1).
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
HISTORIES3: tuple[Fault, ...] = (
    # --- posting at depth 3 under an answer (comments.py)
    _F("h3-answer-depth3-reply-public", "COMMENT-3",
       "\"A reply to a private comment without privacy fields, or with the same ones, inherits the parent's "
       "settings: 201.\" A reply to a depth-2 reply under an answer (depth 3) is stored with full visibility and no "
       "recipients; at depths 1 and 2, and under a question, it inherits"),
    _F("h3-answer-depth3-same-fields-refused", "COMMENT-3",
       "\"A reply to a private comment without privacy fields, or with the same ones, inherits the parent's "
       "settings: 201.\" A reply with the same visibility and recipients to a depth-2 reply under an answer is "
       "refused 400 as another visibility; without fields, or at depths 1 and 2, it inherits"),
    _F("h3-answer-depth4-rule4-skipped", "COMMENT-4",
       "\"A reply to a private comment with different visibility gives 400.\" A reply to a depth-3 reply under an "
       "answer that asks another visibility is taken as inheriting (201); at depths 1 to 3 it is refused"),
    # --- what every reader is shown of a depth-3 reply (node_lists.py, dispatch's after chain)
    _F("h3-answer-depth3-recipients-not-returned", "COMMENT-VISIBILITY-RETURNED",
       "\"Both visibility and recipients are returned when a comment is retrieved\": a reply at depth 3 under an "
       "answer is read back at its Location without recipients (visibility kept)"),
    _F("h3-answer-depth3-list-settings-dropped", "COMMENT-VISIBILITY-RETURNED",
       "\"Both visibility and recipients are returned when a comment is retrieved\": the answer's comment list "
       "gives its depth-3 replies an empty recipients list (visibility kept; read at their Location they carry it)"),
    _F("h3-answer-depth3-content-leak", "COMMENT-PRIVACY-CONTENT",
       "\"When visibility is recipients and recipients lists ids, the comment is private to those recipients\": a "
       "user's content list shows the author's private replies at depth 3 under an answer to every reader (the "
       "content query filters depths 0 to 2 only)"),
    _F("h3-answer-depth3-listed-to-all", "COMMENT-PRIVACY-LIST",
       "\"... the comment is private to those recipients\": the answer's comment list shows its private replies at "
       "depth 3 to every reader (the list filters depths 0 to 2 only)"),
    _F("h3-answer-depth3-totalcount-skipped", "PAGING-TOTALCOUNT-UNION",
       "\"totalCount | integer | Total number of items.\" An answer's comment list counts its comments and their "
       "replies down to depth 2 only: once a reply at depth 3 exists, totalCount is less than the items its pages "
       "hold"),
    # --- a private comment that is then locked (node_lists.py, comments.py, dispatch's after chain)
    _F("h3-locked-private-comment-listed-to-all", "COMMENT-PRIVACY-LIST",
       "\"... the comment is private to those recipients\": once a private comment on an answer is itself locked, "
       "the answer's comment list shows it to every reader (the list filters the privacy of unlocked comments only; "
       "a locked answer's comments are filtered)"),
    _F("h3-locked-private-comment-content-leak", "COMMENT-PRIVACY-CONTENT",
       "\"... the comment is private to those recipients\": a user's content list shows the author's private comments "
       "that are themselves locked to every reader"),
    _F("h3-locked-private-comment-recipients-dropped", "COMMENT-VISIBILITY-RETURNED",
       "\"Both visibility and recipients are returned when a comment is retrieved\": the answer's comment list gives "
       "a private comment that is itself locked an empty recipients list (visibility kept)"),
    _F("h3-locked-private-comment-rule4-skipped", "COMMENT-4",
       "\"A reply to a private comment with different visibility gives 400.\" A reply asking another visibility of "
       "a private comment that is itself locked is taken as inheriting (201): the lock's path skips rule 4"),
)
"""Histories at depth 3 (issue 44, histories3): each missed by the suites before the privacy model's opening posted
an accepted reply at depth 3 under its answer."""
