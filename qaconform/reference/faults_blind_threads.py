"""Planted faults of the second blind round on comment threads (issue 44, blindt): privacy histories, replies at
depth 2 and 3, the lists that show a thread, counts and caches read in an order, and one account's action seen by
another. Written from the description alone, without reading the suites: each entry breaks one stated rule (its
docstring-like description quotes the sentence) on one path only, so the self-test measures how much of the kind
of path the suites cover, not whether they cover the paths someone listed. Part of the registry (:mod:`faults`);
each is wired with ``faults.is_on("name")`` where it bites (comments.py, node_lists.py, render.py, actions.py).
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
BLIND_THREADS: tuple[Fault, ...] = (
    # --- comment rules 3-7 on one kind of parent, one depth, one caller (comments.py)
    _F("blindt-reply-same-recipients-reordered-400", "COMMENT-3",
       "\"A reply to a private comment without privacy fields, or with the same ones, inherits the parent's "
       "settings: 201.\" A reply repeating the parent's visibility and recipients in another order than stored is "
       "refused with the inherited-visibility 400 (the recipients compared as lists, not as sets)"),
    _F("blindt-reply-under-question-not-inherited", "COMMENT-3",
       "\"A reply to a private comment without privacy fields ... inherits the parent's settings\": a reply without "
       "fields to a private comment in a question's own thread (not under an answer) gets full visibility"),
    _F("blindt-reply-by-recipient-back-to-sender", "COMMENT-3",
       "\"Comment inherits the parent's visibility and recipients\": a reply without fields by someone other than "
       "the parent's author to a recipients comment gets the parent's author as its only recipient"),
    _F("blindt-reply-explicit-full-inherits", "COMMENT-4",
       "\"A reply to a private comment with different visibility gives 400\": visibility full given explicitly on a "
       "reply to a private comment is taken as absent (inherits, 201)"),
    _F("blindt-reply-to-public-reply-drops-visibility", "COMMENT-5",
       "\"A reply to a public comment may set its own visibility and recipients: 201.\" A reply to a public comment "
       "that is itself a reply (depth 2 of the thread) is stored with full visibility and no recipients"),
    _F("blindt-recipients-with-op-on-question-accepted", "COMMENT-6",
       "\"recipients given while visibility is not recipients gives 400\": a comment on a question with visibility "
       "op and recipients is accepted (201, recipients dropped); on answers and comments it is refused"),
    _F("blindt-member-group-on-reply-accepted", "COMMENT-7-NO-OPTION-PERMISSION",
       "\"... or lacks the permission for that option, gives 403\": a caller with Use Private Comments but without "
       "Send private comments to own groups may use the group option on a reply to a public comment"),
    _F("blindt-novice-private-on-question-accepted", "COMMENT-7-NO-PRIVATE-PERMISSION",
       "\"A private visibility option ... used by a caller who lacks the permission to use private comments ... "
       "gives 403\": a signed-in caller without Use Private Comments may post a private comment on a question "
       "(answers and comments are checked)"),
    # --- the lists that show a thread (node_lists.py, render.py). Taken out in phase 2 (notes/s3/blind-threads.md):
    #     blindt-recipients-empty-in-comment-list-v1 (the effect of v1 is not shown: an allowed reading) and
    #     blindt-content-cache-by-url (only admin may read a content list: no second account meets the cache)
    _F("blindt-private-reply-to-public-shown-in-list", "COMMENT-PRIVACY-LIST",
       "\"the comment is private to those recipients\": the answer's comment list shows a private reply to a "
       "public comment to everyone who sees its parent (a reply's privacy taken from its parent)"),
    _F("blindt-comment-children-unfiltered", "COMMENT-PRIVACY-IDS",
       "\"the comment is private to those recipients\": a comment's own childrenIds and commentIds list its private "
       "replies to every caller (the ids of answers and questions are filtered)"),
    _F("blindt-locked-node-ids-leak", "COMMENT-PRIVACY-IDS",
       "\"the comment is private to those recipients\": once a node is locked, its childrenIds and commentIds list "
       "its private comments to every caller (the lock's path renders the ids unfiltered)"),
    # --- counts cached across accounts (node_lists.py)
    _F("blindt-comment-list-count-shared", "PAGING-TOTALCOUNT-UNION",
       "\"totalCount: Total number of items.\" The answer's comment list keeps its totalCount for 2 s per answer "
       "whoever asks: a caller reading right after a privileged one gets that caller's count"),
    # --- one account's action seen by another (actions.py)
    _F("blindt-unfavorite-count-callers-only", "ACTION-UNFAVORITE-COUNT",
       "\"Returns the favorite action with canceled true and the updated favoriteCount.\" favoriteCount counts "
       "the caller's own favorites of the node (0) while other accounts still hold a favorite of it"),
)
