"""Blind round 70 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261203, 21 must-rules not drawn in rounds 63-69, seven a round); eight break rules of the kinds the outside
rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form rarely
written that way, an effect on one node kind, a sort whose echo is right, a data-protection form of the user, an
account's own earlier write, a list a cache keeps by its URL). Each bites on one path only; the hooks are in
:mod:`blind_round70`.

Registered: the faults the self-test catches (``BLIND_round70``); the others stay wired but out of the registry
(``BLIND_round70_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS``
(docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round70-comment-password-prefix-accepted", "AUTH-BAD-CREDENTIALS",
        "Posting a comment with a wrong password that BEGINS with the account's right one (the right password plus "
        "more characters) is let in as that account (the comment writer's legacy check compares the stored password's "
        "length only): breaks '| 401 | Expert lists | Missing or bad credentials |' / 'Requests are authenticated "
        "with HTTP Basic authentication' on the comment write only.",
    ),
    Fault(
        "round70-sendtomod-answer-realuser-author", "ACTION-SENDTOMOD-REALUSER",
        "Sending an ANSWER to moderation returns a record whose realUser names the answer's author, not the caller "
        "(the answer branch fills realUser from the node's owner): breaks 'realUser | object | Same shape as user. "
        "Present on send-to-moderation.' / 'Some state-changing operations record both the effective user (user) and "
        "the real authenticated user (realUser).' for answers only.",
    ),
    Fault(
        "round70-reply-full-visibility-inherits", "COMMENT-4",
        "A reply to a private comment that sends visibility full (not a private option) is taken as a reply without "
        "privacy fields and posted 201 with the parent's settings: breaks 'A reply to a private comment with "
        "different visibility gives 400' when the different visibility is full only.",
    ),
    Fault(
        "round70-followers-details-inactive-default", "FOLLOWERS-ACTIVE-DEFAULT",
        "The follower list with details=true and no active parameter returns all relations, inactive ones included "
        "(the details query's own default is false): breaks 'active (boolean, default true)' with details=true only.",
    ),
    Fault(
        "round70-gdpr-csvfileid-param-ignored", "CONV-PARAM-AS-BODY-FIELD-GDPR",
        "A job whose csvFileId is given as a query parameter (the rest in the JSON body) is refused 400 \"The bulk "
        "type was selected, but the request is missing the csvFileId field.\" (the parameter reader maps string "
        "fields only): breaks 'On POST endpoints that take a body, each body field may also be given as a request or "
        "query parameter of the same name.' for csvFileId only.",
    ),
    Fault(
        "round70-answer-second-by-same-caller-200", "ANSWER-201",
        "An answer posted by a caller who already has an answer under the same question is created but answered 200 "
        "(the second answer goes through the edit-or-append path): breaks 'Answer is created with 201.' for a "
        "caller's second answer to one question only.",
    ),
    Fault(
        "round70-answer-comments-anonymous-sorted-401", "PERM-ANSWER-COMMENTS",
        "An anonymous read of an answer's comment list that gives the sort parameter is refused 401 (the sorted "
        "query is built by the authenticated list service): breaks '| 18 Answer's comments | View answers in the "
        "question page and View the question page (Anonymous Roles). |' with sort only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round70-lock-wrap-member-any-node", "PERM-LOCK-OWN",
        "With the wrap option, a caller holding Lock comments on own posts (not on every post) locks ANOTHER's node "
        "(the wrapped controller checks the permission, not the ownership): breaks '| 13 Lock | Lock comments on "
        "posts; for the caller's own node, Lock comments on own posts (Moderation Roles). |' with wrap only.",
    ),
    Fault(
        "round70-cancelwiki-answerer-owns-question", "PERM-CANCELWIKI-OWN",
        "A caller holding Convert own posts to community wiki (not Mark as community wiki) unwikifies another's wiki "
        "QUESTION they have ANSWERED (the ownership query reads the user's posts in the thread): breaks 'Mark as "
        "community wiki; for the caller's own node, Convert own posts to community wiki.' for an answerer only.",
    ),
    Fault(
        "round70-comment-json-charset-privacy-lost", "COMMENT-2",
        "A comment sent as JSON with Content-Type application/json; charset=UTF-8 loses visibility and recipients "
        "(the charset body goes through the flat-field reader) and is posted public: breaks 'When visibility is "
        "recipients and recipients lists ids, the comment is private to those recipients and a GET returns the given "
        "settings.' for that Content-Type only.",
    ),
    Fault(
        "round70-lock-answer-extra-null", "ACTION-LOCK-EXTRA",
        "Locking an ANSWER returns a lock action whose extra is null (the answer lock does not store the prompt): "
        "breaks 'The prompt is stored as extra of the returned lock action.' for answers only.",
    ),
    Fault(
        "round70-earned-experts-username-later-pages-by-reputation", "SORT-EXPERTS-ORDER",
        "The earned expert list asked with sort=username serves pages after the first ordered by reputation (the "
        "next-page query drops the ORDER BY); sort is echoed right: breaks 'sort must be one of reputation, username, "
        "realname, recent, oldest, default' (the sort's effect) on page 2 and later only.",
    ),
    Fault(
        "round70-gdpr-user-id-string-refused", "GDPR-USER-FORMS",
        "An individual job naming its user by id given as a STRING (\"id\": \"5\") is refused 400 \"The provided "
        "'user' is invalid\" (the id is looked up as a username): breaks 'Required when type is individual. Exactly "
        "one of username, email, id.' for the string id only.",
    ),
    Fault(
        "round70-comment-own-earlier-private-inherited", "COMMENT-1",
        "A comment posted without privacy fields by an account whose earlier comment on the SAME node was private "
        "gets that earlier comment's visibility and recipients (the composer's last settings are reused): breaks "
        "'Without visibility and recipients the comment has full visibility and no recipients, and a later GET "
        "returns exactly that.' after that account's own private comment there only.",
    ),
    Fault(
        "round70-spaces-kept-by-url", "PERM-SPACES-PER-SPACE",
        "The space list is kept 2 s by its URL whoever reads it: a read within 2 s of another account's read of the "
        "same URL gets that account's list (a space the reader may not view, after a privileged read): breaks 'Only "
        "spaces for which the caller has View the questions list appear.' on that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_KINDS: tuple[Fault, ...] = (
    Fault(
        "round70-kind-active-experts-username-page-starts-at-last-seen", "SORT-EXPERTS-ORDER",
        "The ACTIVE expert list asked with sort=username starts each page after the first at the last user of the "
        "page before (the keyset cursor's bound is inclusive), so that user is listed twice and the last one never; "
        "sort is echoed right and the keys read never go down: breaks 'sort must be one of reputation, username, "
        "realname, recent, oldest, default' (the list ordered by the key, across pages) on page 2 and later only.",
    ),
)
"""The proof of the closed kind (a later page that repeats a user while the keys read still climb): one more fault
of it on the other expert list, missed before the fix and caught after."""

_MISSED_REASONS: dict[str, str] = {
    "round70-gdpr-user-id-string-refused":
        "a reading the description allows, the one round64-gdpr-user-id-string-refused was left out on: the job's "
        "user is 'Exactly one of username, email, id' with no type for the id; a user's id is an integer wherever "
        "the description types it, and where a string is allowed it says so (recipients: 'id (integer or string)')",
}

BLIND_round70, BLIND_round70_MISSED = split_missed(_ALL + _KINDS, _MISSED_REASONS)
