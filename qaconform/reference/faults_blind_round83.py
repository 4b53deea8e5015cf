"""Blind round 83 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn for
rounds 83 and 84 (seed 20261208, the 14 must-rules no round of the last two sessions drew, seven a round); eight
break rules of the kinds the outside rounds catch us on (a permission with an optional parameter, ownership on the
wrong relation, an input form, an effect on one node state, a page whose echo is right, a data-protection form of the
user, a history of one account's own writes, a count a cache keeps by node). Each bites on one path only; the hooks
are in :mod:`blind_round83` (and one clause of the answer comment list, node_lists._answer_comments).

Registered: the faults the self-test catches (``BLIND_round83``); the others stay wired but out of the registry
(``BLIND_round83_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS`` (docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round83-question-author-reads-recipients-comments", "COMMENT-PRIVACY-LIST",
        "An answer's comment list read by the author of the answer's QUESTION (the original poster) holds the "
        "comments with visibility recipients that do not name that author (the op branch of the privacy filter "
        "matches visibility IN ('op', 'recipients')); other readers are filtered: breaks 'the comment is private "
        "to those recipients' for the question's author only.",
    ),
    Fault(
        "round83-gdpr-operations-string-message-body", "GDPR-ERROR-BODY",
        "A job whose operations is a JSON string instead of an array (\"operations\": \"delete\") is refused 400 "
        "with the body converter's own error {message: ...} instead of {error: ...}; every other refusal is right: "
        "breaks 'Errors: 400 with {error: <message>}; see Errors.' for that refusal only.",
    ),
    Fault(
        "round83-novice-unfavorite-comment-200", "PERM-DENIED-STATUS",
        "A signed-in caller without Mark as favorite (novice) who unfavorites a COMMENT is answered 200 "
        "{success: false, result: {}} (the comment branch of the favorite controller reports its refusal in the "
        "body); questions and answers are refused 403: breaks 'Every operation requires the permissions below.' "
        "(a denial is a 4xx) on comments only.",
    ),
    Fault(
        "round83-lock-wrap-verb-lock", "ACTION-VERBS",
        "A lock called with the wrap option answers its lockAction with verb lock (the wrapped serializer names the "
        "command, not the sample's verb locked); without wrap the verb is locked: breaks 'Values seen: favorited, "
        "wikified, sent, locked.' (node-lock.json: verb locked) with wrap only.",
    ),
    Fault(
        "round83-second-private-reply-takes-first-recipients", "COMMENT-5",
        "A private reply (visibility recipients) to a PUBLIC comment that already has a private reply is stored "
        "with the recipients of that earlier reply, not its own (the thread's last privacy settings are reused "
        "for the parent): breaks 'A reply to a public comment may set its own visibility and recipients: 201.' "
        "for the second private reply under one public comment only.",
    ),
    Fault(
        "round83-comment-query-op-recipients-201", "COMMENT-6",
        "A comment whose visibility (not recipients) AND recipients both come as request parameters, with no "
        "privacy field in the body, is created 201 with the recipients dropped (the parameter binder reads "
        "recipients only for visibility recipients); in the body it is refused 400: breaks 'recipients given "
        "while visibility is not recipients gives 400.' when both are parameters only.",
    ),
    Fault(
        "round83-novice-op-question-comment-stored-before-403", "PERM-DENIED-NO-EFFECT",
        "A comment with visibility op on a QUESTION by a caller without Use Private Comments (novice) is refused "
        "403, but stored first as a public comment (the question thread saves, then checks the option): breaks "
        "'Every operation requires the permissions below.' (a denied write changes nothing) for that option on "
        "questions only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round83-novice-private-comment-wrap-let-in", "COMMENT-7-NO-PRIVATE-PERMISSION",
        "A private comment (any private visibility) by a caller without Use Private Comments (novice) is created "
        "201 when the wrap option is given (the wrapped route checks Comment only): breaks 'A private visibility "
        "option ... used by a caller who lacks the permission to use private comments ... gives 403.' with wrap "
        "only.",
    ),
    Fault(
        "round83-cancelwiki-answer-by-commenter", "PERM-CANCELWIKI-OWN",
        "A caller with Convert own posts to community wiki but not Mark as community wiki (member) may unwikify a "
        "wiki ANSWER another account wrote when the caller commented on it (own taken from the answer's comment "
        "thread): breaks '| 11 Unwikify | Mark as community wiki; for the caller's own node, Convert own posts to "
        "community wiki. |' for a commenter of the answer only.",
    ),
    Fault(
        "round83-answer-wrap-json-body-wins", "CONV-PARAM-WINS-ANSWER",
        "An answer posted with the wrap option whose body comes both in a JSON body (application/json) and as a "
        "request parameter keeps the JSON body (the wrapped binder reads the JSON first); without wrap the "
        "parameter wins: breaks 'When both are given, the parameter wins.' for a wrapped JSON answer only.",
    ),
    Fault(
        "round83-lock-wiki-node-extra-null", "ACTION-LOCK-EXTRA",
        "Locking a WIKI node (wiki true) returns its lockAction with extra null (the community-wiki lock path "
        "writes the record without the reason); other nodes keep the prompt: breaks 'The prompt is stored as "
        "extra of the returned lock action.' for wiki nodes only.",
    ),
    Fault(
        "round83-user-answers-sorted-later-pages-first", "PAGING-TOTALCOUNT-UNION",
        "A user's answer list read WITH a sort parameter serves page 1's answers on every page while it echoes the "
        "page asked for (the sorted query builds its offset before the page is parsed); unsorted reads page right: "
        "breaks '| totalCount | integer | Total number of items. |' (walking the pages yields each item once) for "
        "sorted reads of that list only.",
    ),
    Fault(
        "round83-gdpr-email-user-timestamp-refused", "GDPR-USER-FORMS",
        "An individual job naming its user by EMAIL whose scheduleDate is given by timeStamp is refused 400 'The "
        "individual type was selected, but the request is missing the user' (the timeStamp branch is the older "
        "path that resolves username and id only); with formatted, or a user by id, it is taken: breaks 'Exactly "
        "one of username, email, id.' for the email form with timeStamp only.",
    ),
    Fault(
        "round83-private-comment-after-own-public-stored-full", "COMMENT-2",
        "A comment with visibility recipients posted on a node by an account whose earlier comment on the SAME node "
        "was public is stored with full visibility and no recipients (the composer's kept state overrides the "
        "new settings); a first comment is right: breaks 'When visibility is recipients and recipients lists ids, "
        "the comment is private to those recipients and a GET returns the given settings.' after the account's "
        "own public comment only.",
    ),
    Fault(
        "round83-unfavorite-count-kept-by-node", "ACTION-UNFAVORITE-COUNT",
        "An unfavorite answers the favoriteCount kept 3 s by node: within 3 s of another account's unfavorite of "
        "the same node it answers the count that unfavorite answered (its own removal not counted); the favorite is "
        "removed: breaks 'Returns the favorite action with canceled true and the updated favoriteCount.' on that "
        "order of two accounts' unfavorites only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {
    "round83-second-private-reply-takes-first-recipients":
        "a history the run does not make: the shared thread (suites/public_threads.py) holds ONE private reply under "
        "member's public comment (to moderator), and the privacy model's a_reply_to_a_public_comment (under its "
        "write budget) did not post a second private reply with other recipients under a public comment that already "
        "had one at seed 20260801 (the fault missed there; its draws were not read further). Closing: steer the "
        "model's draw (privacy_history.py / "
        "test_privacy_model.py a_reply_to_a_public_comment): when the drawn public parent already has a private reply, "
        "draw recipients that differ from it (no write more: the model writes the reply anyway), or the shared "
        "thread's second reply to member's public comment by another account to another recipient (one accepted "
        "write more: a trade)",
}

BLIND_round83, BLIND_round83_MISSED = split_missed(_ALL, _MISSED_REASONS)
