"""Blind round 91 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261212, the third draw of the new cycle, dealt seven to each of rounds 91, 92, 93); eight break rules of the
kinds the outside rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an
input form, an effect on one node state, a sort whose echo is right, a data-protection form of the user, a rule after
a state change, a list a cache keeps by its URL). Each bites on one path only; the hooks are in :mod:`blind_round91`.

Registered: the faults the self-test catches (``BLIND_round91``); the others stay wired but out of the registry
(``BLIND_round91_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS`` (docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round91-answer-comments-recipients-cut-to-two", "COMMENT-VISIBILITY-RETURNED",
        "An answer's comment list gives a comment private to THREE or more recipients only its first two recipients "
        "(the list's recipient join is paged with the preview size of two); comments with one or two recipients are "
        "right: breaks 'Both visibility and recipients are returned when a comment is retrieved' for three "
        "recipients or more only.",
    ),
    Fault(
        "round91-wiki-question-answer-json-body-wins", "CONV-PARAM-WINS-ANSWER",
        "An answer to a COMMUNITY-WIKI question (wiki true) whose body comes both in a JSON body and as a request "
        "parameter is stored with the JSON body's text (the wiki question's answer binder reads the body after the "
        "parameters); under other questions the parameter wins: breaks 'When both are given, the parameter wins.' "
        "under a wiki question only.",
    ),
    Fault(
        "round91-comment-recipients-param-beside-json-ignored", "CONV-PARAM-AS-BODY-FIELD",
        "A comment whose JSON body holds body and visibility but whose recipients come as a request parameter "
        "(JSON text) is handled without them (the JSON binder merges scalar parameters only, and recipients is an "
        "array); recipients in the body, or every field as parameters, count: breaks 'each body field may also be "
        "given as a request or query parameter of the same name' for recipients beside a JSON body only.",
    ),
    Fault(
        "round91-lock-accepted-answer-verb-accepted", "ACTION-VERBS",
        "Locking an ACCEPTED answer (marked true) answers its lockAction with verb accepted (the record's verb is "
        "taken from the node's state label before the lock's own); other answers, questions and comments give "
        "locked: breaks the lock's verb locked (sample node-lock.json; '| verb | string | Values seen: favorited, "
        "wikified, sent, locked. |') on accepted answers only.",
    ),
    Fault(
        "round91-active-experts-email-login-wrong-password", "AUTH-BAD-CREDENTIALS",
        "The active expert list takes Basic credentials whose user part is an account's EMAIL address through the "
        "e-mail login branch, which checks that the account is active but not the password: a wrong password is let "
        "in as that account (200); a username with a wrong password gets 401: breaks '| 401 | Expert lists | "
        "Missing or bad credentials |' for the email form of the user only. (After the measure the hook, which "
        "had let in the four profile accounts only, lets in every seeded account with a password, the "
        "data-protection target too, as 'an account's EMAIL address' says.)",
    ),
    Fault(
        "round91-user-answers-includeonly-keeps-marked", "PROJ-INCLUDEONLY",
        "A user's answer list asked with includeOnly not naming marked gives its ACCEPTED answers (marked true) the "
        "field marked too (the acceptance badge is added after the projection); other answers carry only the fields "
        "named: breaks 'includeOnly takes a comma-separated list of field names and limits the returned items to "
        "those fields' on accepted answers only.",
    ),
    Fault(
        "round91-spaces-include-anonymous-401", "PERM-SPACES",
        "The space list asked with the include projection parameter refuses an anonymous caller 401 (the expanding "
        "projection reads the caller's profile); without include, and for signed-in callers, it is served: breaks "
        "'| 9 Spaces | Use site (Anonymous Roles);' with include for anonymous only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round91-answer-comments-page-member-403", "PERM-ANSWER-COMMENTS",
        "An answer's comment list asked with the page parameter refuses a signed-in caller without View the "
        "moderation queue (member, novice) 403 (the paged thread browser is the moderators' one); without page, and "
        "for staff and anonymous, it is served: breaks '| 18 Answer's comments | View answers in the question page "
        "and View the question page (Anonymous Roles). |' with page only.",
    ),
    Fault(
        "round91-novice-private-under-own-questions-answer", "COMMENT-7-NO-PRIVATE-PERMISSION",
        "A caller without Use Private Comments (novice) may post a private comment (any private visibility) on an "
        "ANSWER to a question the caller asked (the original poster's thread grants the private options); elsewhere "
        "it is 403: breaks 'A private visibility option (...) used by a caller who lacks the permission to use "
        "private comments, or lacks the permission for that option, gives 403.' under answers to the caller's own "
        "questions only.",
    ),
    Fault(
        "round91-form-comment-recipients-dropped", "COMMENT-2",
        "A comment sent as a FORM-ENCODED body (application/x-www-form-urlencoded) with visibility recipients and "
        "its recipients (JSON text) in the form is stored with visibility recipients and no recipient (the form "
        "binder keeps scalar fields only); JSON bodies and parameters keep them: breaks 'When visibility is "
        "recipients and recipients lists ids, the comment is private to those recipients and a GET returns the given "
        "settings.' for a form-encoded comment only.",
    ),
    Fault(
        "round91-cancelwiki-unanswered-question-not-canceled", "ACTION-CANCELWIKI-CANCELED",
        "Unwikifying a wiki QUESTION that has no answer (answerCount 0) unwikifies it but answers the wiki action "
        "as read before the cancel (canceled false, no canceledByUser, no canceledDate: the empty thread's path "
        "re-reads no record); answered questions and answers are right: breaks '| Wikified node (wiki true) | PUT "
        "cancelwiki | ... | Returns the wiki action with canceled true. |' on unanswered questions only.",
    ),
    Fault(
        "round91-topics-invalid-sort-sized-reversed", "SORT-FALLBACK-TOPICS",
        "The topic list asked with an invalid sort name AND pageSize echoes the default sort but lists each page in "
        "the reverse of the default order (the sized query's fallback flips the direction); without pageSize the "
        "fallback is right: breaks 'On the space, topic and group lists an invalid sort name makes the request fall "
        "back to the default sort.' with pageSize only.",
    ),
    Fault(
        "round91-reassign-string-id-refused", "GDPR-REASSIGN-FORMS",
        "A job whose reassignUser names an EXISTING user by an id given as a string of digits ({\"id\": \"3\"}) is "
        "refused 400 \"The provided 'reassignUser' is/are invalid\" (the string is looked up as a username); an "
        "integer id, or a username, is taken: breaks '| reassignUser | object | Optional. Identifies the user to "
        "whom content is reassigned, by exactly one of username or id. |' for the string id form only.",
    ),
    Fault(
        "round91-comment-after-unwikify-non-author-403", "PERM-COMMENT",
        "A full-visibility comment on a node that was UNWIKIFIED before (its wiki action canceled) by a caller who "
        "is not the node's author is refused 403 (the 'only the node's author can edit it' guard of an unwikified "
        "node is applied to new comments); on other nodes, and by the author, it is created: breaks '| 1 Post "
        "comment | Comment (Other Standard Roles); ...' after an unwikify only.",
    ),
    Fault(
        "round91-answer-comments-sorted-kept-by-url", "COMMENT-PRIVACY-LIST",
        "An answer's comment list asked WITH the sort parameter is kept 3 s by its URL, whoever reads it (the sorted "
        "thread cache): a reader of that URL right after a recipient or a moderator gets their list, private "
        "comments included; unsorted lists are built per reader: breaks 'When visibility is recipients and "
        "recipients lists ids, the comment is private to those recipients' in that read order only.",
    ),
    # --- kind proofs (after the measure; each missed on the suites as measured, caught after the round's closing)
    Fault(
        "round91-kind-three-recipients-stored-first-two", "COMMENT-2",
        "The kind of round91-answer-comments-recipients-cut-to-two (a recipients list longer than two): a comment "
        "private to THREE or more recipients is stored private to the first two only (the recipient insert is "
        "bounded by the notification batch of two); one or two recipients are stored: breaks 'When visibility is "
        "recipients and recipients lists ids, the comment is private to those recipients and a GET returns the given "
        "settings.' for three recipients or more only.",
    ),
    Fault(
        "round91-kind-earned-experts-email-login-wrong-password", "EXPERTS-401",
        "The kind of round91-active-experts-email-login-wrong-password (a user named by email in the credentials) on "
        "the other expert list: the earned expert list's e-mail login branch checks that the account is active but "
        "not the password, so an account's email address with a wrong password is let in (200); a username with a "
        "wrong password gets 401: breaks '| 401 | Expert lists | Missing or bad credentials |' for the email form "
        "only (EXPERTS-401: AUTH-BAD-CREDENTIALS names the active list, not the earned one).",
    ),
)
"""The round's fifteen faults, as written (before the measure), and the two kind proofs written after it."""

_MISSED_REASONS: dict[str, str] = {
    "round91-lock-accepted-answer-verb-accepted":
        "no lock of the run goes to an accepted answer: accepted answers exist only in the data (no operation "
        "accepts one) and the shared locks (suites/conftest.py LOCKS) act on the run's own answers; a lock of the "
        "data's accepted answer is an accepted write more (the suites' share is full) or a move of a shared lock "
        "whose kind other registered lock faults need, as for round75-lock-marked-question-extra-null. locks25 "
        "(twenty-fifth session) found no placement: the run may lock only what it created and the profile's "
        "one-shot fixtures, and none of those is an accepted answer. Closing: a one-shot fixture, a fourth wiki "
        "node kind 'an accepted answer' (an optional profile fixture the doctor checks, as wiki_answer_id and "
        "accepted_wiki_question_id are), which the drawn unwikifier's lock before its unwikify "
        "(suites/one_shot_calls.py wiki_locked_first) would meet on the seeds drawing it, at no write more",
    "round91-reassign-string-id-refused":
        "a reading the description allows, as round58-gdpr-user-id-string-refused: reassignUser identifies the user "
        "'by exactly one of username or id' with no type given to id; the kit takes it as the integer of User.id "
        "(test_gdpr_forms.py sends reassignUser's id as text only at the id edges, where a 5xx is judged); refusing "
        "the digits of an id sent as a JSON string is allowed",
}

BLIND_round91, BLIND_round91_MISSED = split_missed(_ALL, _MISSED_REASONS)
