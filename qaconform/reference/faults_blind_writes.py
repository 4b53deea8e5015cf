"""Planted faults of a blind round on writes (issue 44): written from the interface description and the reference
server's code alone, by someone who had not read the suites, the way an outside team plants faults in a server it
did not write. Each breaks ONE stated rule on ONE path only (one parent kind, one depth, one state reached by an
earlier write, one role or relation to the node, one input form), the sentence it breaks quoted above it.

Part of the registry (:mod:`faults`), wired with ``faults.is_on("name")`` where it bites. What each one is and
whether the suites caught it: the session's notes, blind-writes.md (phase 1 of the blind round: 5 of 15 caught; phase
2: the 13 kept all caught). Two faults of phase 1 were taken out with their code and reason kept there: a plain
comment on a locked node given another default visibility, which no budgeted write of the run met (back since the
budget session: a shared plain comment now goes on a locked node), and a reassignUser object given as a request
parameter, whose value format the description does not state.
"""

from __future__ import annotations

from .fault_model import Fault, allow

_F = Fault
BLIND_WRITES: tuple[Fault, ...] = (
    # --- comment privacy by parent kind, depth, read path and an earlier state change (comments.py, render.py,
    #     node_lists.py)
    # "A reply to a private comment without privacy fields, or with the same ones, inherits the parent's settings"
    _F("blind-question-thread-reply-public", "COMMENT-3",
       "a reply without privacy fields to a private comment that sits on a QUESTION gets full visibility (the "
       "inheritance looks the thread up by its answer, and a thread under a question has none); replies under "
       "answers inherit right"),
    # "A reply to a private comment without privacy fields, or with the same ones, inherits the parent's settings:
    #  201." with "recipients ... Each item has id (integer or string)."
    _F("blind-reply-same-recipients-string-refused", "COMMENT-3",
       "a reply to a private comment that repeats the parent's visibility and recipients with the ids as STRINGS "
       "is refused with the 400 of rule 4 (the comparison with the inherited ids is made before the ids are "
       "parsed); the same reply with integer ids, or without fields, inherits"),
    # "Both visibility and recipients are returned when a comment is retrieved"
    _F("blind-list-recipients-missing-on-replies", "COMMENT-VISIBILITY-RETURNED",
       "the answer's comment list returns recipients [] on a private REPLY (a comment whose parent is a comment, "
       "depth 3 and below): the list loads recipients for the answer's direct comments only; the comment read "
       "alone, and comments directly on the answer, are right"),
    # "Only items the caller may see are returned." / a private comment is "private to those recipients"
    _F("blind-comment-childrenids-private-replies", "COMMENT-PRIVACY-IDS",
       "a COMMENT's childrenIds lists its private replies to every caller (its commentIds, and the ids of answers "
       "and questions, are filtered right)"),
    # "When visibility is recipients and recipients lists ids, the comment is private to those recipients"
    _F("blind-moderated-answer-comments-unfiltered", "COMMENT-PRIVACY-LIST",
       "the comment list of an answer IN MODERATION (after send to moderation) skips the private-comment filter: "
       "the moderation view shows every comment to whoever may see the answer (its author, moderators)"),
    # --- node actions by role and relation to the node, and across two accounts (actions.py, answers.py)
    # "Wikified node (wiki true) | PUT cancelwiki | ... | Not wiki (closed for editing)"
    _F("blind-cancelwiki-not-author-stays-wiki", "ACTION-CANCELWIKI-NOT-WIKI",
       "an unwikify by a caller who is NOT the node's author (a moderator with Mark as community wiki) returns "
       "the canceled action but leaves the node wiki; the author's own unwikify clears it"),
    # "Returns the favorite action with canceled true and the updated favoriteCount. Favorites are per user"
    _F("blind-unfavorite-count-zeroed", "ACTION-UNFAVORITE-COUNT",
       "unfavoriting sets the node's favoriteCount to 0 instead of lowering it by one: wrong only while ANOTHER "
       "account still holds a favorite of the node (the fixture favorite is held by two)"),
    # "Published node | PUT sendToMod | Caller has Send already published question to moderation | In moderation"
    _F("blind-sendtomod-moderator-own-refused", "PERM-SENDTOMOD",
       "a moderator may not send its OWN node to moderation (403, a conflict-of-interest check the description "
       "does not have); other nodes, and admin on its own, are right"),
    # "13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts"
    _F("blind-lock-novice-own-node", "PERM-LOCK",
       "novice (neither lock permission) may lock a node it wrote: the own-node branch admits an author without "
       "asking for Lock comments on own posts; novice on another's node is refused right",
       allow("novice", "lockNode")),
    # "(new answer) | POST answer | Caller has Answer questions and Publish answer | Published"
    _F("blind-answer-own-question-moderated", "ANSWER-PUBLISHED",  # phase 1 said PERM-ANSWER-PUBLISH: not its quote
       "an answer by a caller holding Publish answer to a question it wrote itself goes to moderation (self-answers "
       "held for review); answers to another's question are published"),
    # --- input forms (bodies.py, gdpr_jobs.py)
    # "each body field may also be given as a request or query parameter of the same name. When both are given,
    #  the parameter wins."
    _F("blind-answer-form-body-wins-over-param", "CONV-PARAM-WINS-ANSWER",
       "an answer whose field comes both in a FORM-ENCODED body and as a request parameter keeps the form's value "
       "(form fields merged after the query); with a JSON body the parameter wins"),
    # "| 400 | Schedule job | Another job already exists for that time frame | {error: There is a job already
    #  scheduled for that time frame.} |" with "user ... Exactly one of username, email, id."
    _F("blind-gdpr-user-id-time-frame-unchecked", "GDPR-TIME-FRAME",
       "an individual job whose user is given by ID skips the time-frame check (a second job for a taken time "
       "frame is scheduled); users given by username or email are checked"),
    # "Some state-changing operations record both the effective user (user) and the real authenticated user
    #  (realUser)." / "realUser | object | Same shape as user. Present on send-to-moderation."
    _F("blind-sendtomod-realuser-missing-admin", "ACTION-SENDTOMOD-REALUSER",
       "an ADMIN's send-to-moderation record lacks realUser (the administrator's path records the effective user "
       "only); a moderator's record carries it"),
    # --- budget (issue 44): brought back once a budgeted write reaches its path (suites/conftest.py
    #     COMMENT_ON_LOCKED: moderator's shared plain comment goes on the answer member locked)
    # "Without visibility and recipients the comment has full visibility and no recipients, and a later GET returns
    #  exactly that."
    _F("blind-locked-node-comment-default-mod", "COMMENT-1",
       "a comment without privacy fields posted directly on a LOCKED node gets visibility mod (the lock is taken "
       "for a hold on new comments); on an unlocked node, and with privacy fields given, it is right"),
)
