"""Planted faults of the second blind round on writes (issue 44, area "actions"): node actions, the state table,
relations, answers and data-protection jobs, written from the interface description alone, before reading the
suites. Each breaks one stated rule on one path only (one role, one relation, one node kind or state, one input
form, one edge of an id) and is wired with ``faults.is_on("name")`` where it bites (actions.py, answers.py,
gdpr_jobs.py). Part of the registry (:mod:`faults`). Two more of the round are kept out of the registry, with their
code and why, in /work/notes/s3/blind-actions.md: an unwikify of a locked wiki node (the run locks none: the
interface cannot create one and a lock is not undone; a profile would need a pool of locked wiki nodes), and one that
behaves on every input a run can judge as an allowed reading. Two were out and are back (the budget session): a
send-to-moderation record of an answer naming its author as realUser (admin's shared send of an answer of member's)
and an answer to a locked question held in moderation (the profile's locked_question_id)."""

from __future__ import annotations

from .fault_model import Fault, allow

_F = Fault
BLIND_ACTIONS: tuple[Fault, ...] = (
    # --- node actions: the permission table and its "own" clauses on the wrong node, for one role
    # "12 Send to moderation | Send already published question to moderation (Moderation Roles)"
    _F("blind-sendtomod-parent-author-comments", "PERM-SENDTOMOD",
       "member may send a comment to moderation when member wrote the comment's parent (moderation of replies "
       "delegated to the parent's author); every other node and role is judged right",
       allow("member", "sendToModeration")),
    # --- the action record's stated fields on one node kind, state or role
    # "The prompt is stored as extra of the returned lock action."
    _F("blind-lock-extra-truncated-64", "ACTION-LOCK-EXTRA",
       "the lock prompt is stored cut to 64 characters (a VARCHAR(64) column): a longer prompt comes back shortened"),
    # "canceledDate | string | Textual date. Present when canceled is true."
    _F("blind-cancelwiki-canceleddate-missing-member", "ACTION-CANCELED-FIELDS",
       "the wiki action canceled by member (own node, Convert own posts to community wiki) lacks canceledDate "
       "(a moderator's cancel carries it)"),
    # "node | object | id (integer), type (string)." of the record about the node of the path
    _F("blind-lock-moderated-names-question", "ACTION-NODE-ID",
       "the lock record of an answer or comment in moderation names its question in node.id (published nodes are "
       "named right)"),
    # --- the state table for an action on a node already in another state
    # "Published node | PUT sendToMod | Caller has Send already published question to moderation | In moderation"
    _F("blind-sendtomod-locked-comment-refused", "SHAPE-SEND-TO-MODERATION",
       "sending a locked comment to moderation is refused with 409 (a locked question or answer is sent)"),
    # --- answers: published vs moderated by relation, the response's fields in one input form
    # "parentId | integer | Present on a newly posted answer." (the question the answer is under)
    _F("blind-answer-form-parentid-self", "ANSWER-PARENT-FIELDS",
       "an answer sent as a form-encoded body gets parentId equal to its own id (JSON body and query parameter "
       "forms give the question id)"),
    # --- data-protection jobs
    # "operations | array of string | At least one and at most 4 elements, from suspend, anonymize, delete, ..."
    # "reassignUser | object | Optional."
    _F("blind-gdpr-delete-needs-reassign", "GDPR-OPERATIONS-RANGE",
       "operations holding delete without a reassignUser are refused as invalid operations (anon-delete and every "
       "list with a reassignUser are taken)"),
    # "reassignUser does not exist | {error: The provided 'reassignUser' is/are invalid}"
    _F("blind-gdpr-reassign-id-zero-ignored", "GDPR-REASSIGN-INVALID",
       "a reassignUser with id 0 (integer or string) is taken as no reassignUser and the job is scheduled "
       "(other unknown ids are refused)"),
    # "Errors: 400 with {error: <message>}"
    _F("blind-gdpr-timeframe-error-key", "GDPR-ERROR-BODY",
       "the time-frame 400 (a job already scheduled for that time frame) has the body {message: ...} instead of "
       "{error: ...}; every other refusal is right"),
    # --- budget (issue 44): brought back once a budgeted write reaches its path (suites/conftest.py
    #     answer_sent_to_mod_by_admin: admin sends an answer of member's to moderation)
    # "realUser | object | Same shape as user. Present on send-to-moderation." / "Some state-changing operations
    #  record both the effective user (user) and the real authenticated user (realUser)."
    _F("blind-sendtomod-realuser-answer-author", "ACTION-SENDTOMOD-REALUSER",
       "the record of a send to moderation of an ANSWER names the answer's author as realUser (comments and "
       "questions name the caller); right whenever the caller sends its own answer"),
    # "(new answer) | POST answer | Caller has Answer questions and Publish answer | Published" (the profile's
    #  locked_question_id: moderator's shared answer goes under it)
    _F("blind-answer-to-locked-question-moderated", "ANSWER-PUBLISHED",
       "an answer by a caller holding Publish answer to a LOCKED question is held in moderation; answers to "
       "unlocked questions are published"),
)
"""Second blind round on writes (blinda): each breaks one rule on one path."""
