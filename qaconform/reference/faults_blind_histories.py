"""Planted faults of the blind round on histories (issue 44, blindh): the state table after one transition (lock,
send to moderation, unwikify, unfavorite while another account holds a favorite), counts and flags derived from
other nodes after one kind of write, caches keyed wrongly or read in one order, and the comment rules after a state
change of the parent. Written from the interface description alone, before reading the suites: each entry quotes
the sentence it breaks and breaks it on one path only. Part of the registry (:mod:`faults`); each is wired through
:mod:`history_faults` at the one place it bites (comments.py, answers.py, actions.py, node_lists.py, render.py,
dispatch.py).
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
BLIND_HISTORIES: tuple[Fault, ...] = (
    # --- comment rules after a state change of the parent or the thread (comments.py)
    _F("blindh-locked-answer-comment-moderators-only", "COMMENT-1",
       "\"Without visibility and recipients the comment has full visibility and no recipients, and a later GET "
       "returns exactly that.\" A comment without privacy fields on a locked answer is stored visible to moderators "
       "only (a locked thread taken as moderator-only); on an unlocked answer, a question or a comment it is public"),
    # One more of the round (a reply without fields to a private comment under a locked answer, not inherited) is
    # kept out: a default run posts no reply under a locked answer. Its code and why: notes s4/blind-histories.md
    _F("blindh-private-option-on-moderated-parent", "COMMENT-7-NO-PRIVATE-PERMISSION",
       "\"A private visibility option ... used by a caller who lacks the permission to use private comments ... "
       "gives 403.\" Under a node in moderation (novice's own answer) the permission check of rule 7 is skipped: "
       "novice's private comment there is created"),
    # --- counts and flags derived from other nodes after one kind of write (node_lists.py, answers.py, actions.py)
    _F("blindh-comment-totalcount-skips-deep-replies", "PAGING-TOTALCOUNT-UNION",
       "\"totalCount | integer | Total number of items.\" An answer's comment list counts its comments and their "
       "direct replies only (depth up to 3): once a reply to a reply exists, totalCount is less than the items "
       "its pages hold"),
    _F("blindh-answer-post-unmarks-question", "MARKED-ACCEPTED-QUESTION",
       "\"marked | boolean | true on an accepted answer and on the question that has it.\" Posting an answer "
       "recomputes the question's accepted flag from the newest answer: the question of an accepted answer reads "
       "as not marked after any new answer to it"),
    _F("blindh-favorite-count-kept-per-node", "ACTION-UNFAVORITE-COUNT",
       "\"Returns the favorite action with canceled true and the updated favoriteCount.\" The count an unfavorite "
       "returns is kept per node for two seconds: a second account unfavoriting the same node right after the "
       "first gets the count as it was after the first"),
    _F("blindh-author-moderated-holds-next-answers", "ANSWER-PUBLISHED",
       "\"Caller has Answer questions and Publish answer | Published\": once a node of the author was sent to "
       "moderation, the author's next answers are held in moderation (a per-user watch flag), Publish answer or "
       "not; before that, answers are published"),
    # --- privacy of the lists after a state change, and caches read in one order (node_lists.py, dispatch.py)
    _F("blindh-content-private-under-locked-parent", "COMMENT-PRIVACY-CONTENT",
       "\"When visibility is recipients and recipients lists ids, the comment is private to those recipients\": a "
       "user's content list judges a comment under a locked node by its parent, so a private comment under a "
       "locked answer or comment is listed to every reader"),
    _F("blindh-comment-list-cached-per-staff-flag", "COMMENT-PRIVACY-LIST",
       "\"... the comment is private to those recipients\": an answer's comment list is kept for two seconds by URL "
       "and whether the reader holds a Moderation Roles permission (a render cache per class of reader, not per "
       "account): member and novice, or admin and moderator, reading the same list back to back see what the first "
       "one may see"),
    _F("blindh-user-answers-anonymous-gets-signed-in-copy", "COMMENT-PRIVACY-IDS",
       "\"... the comment is private to those recipients\": a public cache in front of a user's answer list keeps "
       "what a signed-in reader got and serves it to an anonymous reader of the same URL within two seconds, "
       "private comment ids in childrenIds and commentIds included"),
    _F("blindh-locked-thread-recipients-hidden", "COMMENT-VISIBILITY-RETURNED",
       "\"Both visibility and recipients are returned when a comment is retrieved\": once an answer is locked, its "
       "comment list is rendered read-only and its private comments come without recipients (visibility kept)"),
    _F("blindh-cancelwiki-stale-for-other-readers", "ACTION-CANCELWIKI-NOT-WIKI",
       "\"Wikified node (wiki true) | PUT cancelwiki | ... | Not wiki\": after an unwikify, the question lists "
       "render the node afresh for the account that unwikified it only; every other reader still reads wiki true"),
    # --- the action record and the node's state after an action in another state (actions.py)
    _F("blindh-lock-extra-dropped-in-moderation", "ACTION-LOCK-EXTRA",
       "\"The prompt is stored as extra of the returned lock action.\" Locking a node that is in moderation puts "
       "the prompt on the moderation queue's note: the lock record's extra is null"),
    _F("blindh-sendtomod-realuser-lock-holder", "ACTION-SENDTOMOD-REALUSER",
       "\"Some state-changing operations record both the effective user (user) and the real authenticated user "
       "(realUser).\" Sending a locked node to moderation records the lock's holder as realUser"),
    _F("blindh-unfavorite-canceled-while-others-hold", "ACTION-UNFAVORITE-CANCELED",
       "\"Returns the favorite action with canceled true ... Favorites are per user\": the caller's favorite action "
       "is marked canceled only when nobody else holds a favorite of the node, so unfavoriting while another "
       "account holds one returns the action with canceled false"),
)
"""The blind round on histories, in the order of the kinds of issue 44's build items 5 and 6 (14 of its 15: see the
note above the third)."""
