"""Blind round 87 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261210, a new cycle: 21 drawn from all 147 must-rules, seven dealt to each of rounds 86, 87 and 88); eight
break rules of the kinds the outside rounds catch us on (a permission with an optional parameter, ownership on the
wrong relation, an input form, an effect on one node kind or state, a filter's effect beside another parameter, a
data-protection form of the user, a history after a state change, a list a cache keeps by its URL). Each bites on one
path only; the hooks are in :mod:`blind_round87`.

Registered: the faults the self-test catches (``BLIND_round87``); the others stay wired but out of the registry
(``BLIND_round87_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS`` (docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round87-answer-form-original-parent-string", "NODE-ORIGINAL-PARENT-ID",
        "An answer posted with a form-encoded body (application/x-www-form-urlencoded) is answered with "
        "originalParentId as a string (the form binder copies the question id from the path segment as text); a "
        "JSON body, or parameters alone, give the integer: breaks '| originalParentId | integer | Present on "
        "answers and comments. |' on the posted answer of a form-encoded post only.",
    ),
    Fault(
        "round87-issuetypes-epic-name-object", "ISSUETYPES-ARRAY",
        "The issue-type list renders an Epic type (the tracker's hierarchy level above stories) with name as an "
        "object {value, hierarchyLevel} (the tracker client maps hierarchy types through another DTO); Bug, Task and "
        "Story are plain: breaks 'Object with name (string).' on the Epic item only.",
    ),
    Fault(
        "round87-moderated-answer-comment-default-mod", "COMMENT-1",
        "A comment posted without visibility and recipients on an ANSWER that is in moderation (a novice's answer "
        "awaiting approval) is stored with visibility mod (the moderation queue's thread defaults its comments to "
        "moderators); on published nodes it is full: breaks 'Without visibility and recipients the comment has "
        "full visibility and no recipients, and a later GET returns exactly that.' under a moderated answer only.",
    ),
    Fault(
        "round87-accepted-answer-comments-novice-refused", "PERM-ANSWER-COMMENTS",
        "The comment list of an ACCEPTED answer (marked true) refuses novice 403 (the accepted answer's thread is "
        "served by the solution controller, which asks for Publish answer); other answers are listed to novice, and "
        "the accepted one to other accounts: breaks '| 18 Answer's comments | View answers in the question page "
        "and View the question page (Anonymous Roles). |' for novice on an accepted answer only.",
    ),
    Fault(
        "round87-earned-oldest-sized-by-username", "SORT-EXPERTS-ORDER",
        "The earned expert list asked with sort=oldest AND a pageSize orders each page by username (the "
        "sized query maps the date sorts to the login column), while echoing oldest; without pageSize "
        "oldest is right: breaks 'sort must be one of reputation, username, realname, recent, oldest, default' "
        "(the list ordered by creation date) for oldest with a pageSize on the earned list only.",
    ),
    Fault(
        "round87-reply-public-string-recipients-dropped", "COMMENT-5",
        "A reply to a PUBLIC comment with visibility recipients whose recipients give their ids as strings "
        "('Each item has id (integer or string)') is stored with full visibility and no recipients (the reply "
        "validator reads integer ids only and drops the privacy settings it cannot resolve); integer ids, and "
        "comments on answers or questions, keep them: breaks 'A reply to a public comment may set its own "
        "visibility and recipients: 201.' for string recipient ids on a reply only.",
        draws=("public reply recipient form=string",),  # close2 (issue 44): the shared reply's id form, seed-drawn
    ),
    Fault(
        "round87-questions-search-ids-unfiltered", "COMMENT-PRIVACY-IDS",
        "The question list asked with q (a search) serves each question's commentIds and childrenIds from the "
        "search index, which stores every comment id, private ones included, for every reader; without q the ids "
        "are filtered: breaks 'the comment is private to those recipients' (a private comment's id in its "
        "question's ids as another caller reads them) on a searched question list only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round87-user-answers-wrap-moderator-refused", "PERM-USER-ANSWERS",
        "A user's answer list asked with the wrap option refuses moderator 403 (the wrapped controller checks Edit "
        "users and groups for callers holding a Moderation Roles permission); without wrap, and for other accounts, "
        "it is served: breaks '| 4 User's answers | View the questions list and View answers in the question page "
        "(Anonymous Roles). |' with wrap for moderator only.",
        overrides=(Override(("listUserAnswers",), "moderator", Effect.DENY, when=("wrap",)),),
    ),
    Fault(
        "round87-lock-own-by-accepted-answerer", "PERM-LOCK-OWN",
        "A caller with Lock comments on own posts only (member) may lock ANOTHER account's QUESTION whose accepted "
        "answer the caller wrote (the own check reads the question's solution author, taken as the thread's "
        "owner); 200 and the lock is stored: breaks '| 13 Lock | Lock comments on posts; for the caller's own node, "
        "Lock comments on own posts (Moderation Roles). |' for the accepted answer's author only.",
    ),
    Fault(
        "round87-comment-form-charset-privacy-dropped", "COMMENT-2",
        "A comment whose form-encoded body comes under a Content-Type with a parameter "
        "(application/x-www-form-urlencoded; charset=UTF-8) loses visibility and recipients given in the form (the "
        "charset-aware form reader binds body only) and is stored public; a plain form, a JSON body and parameters "
        "keep them: breaks 'When visibility is recipients and recipients lists ids, the comment is private to those "
        "recipients and a GET returns the given settings.' for that input form only.",
    ),
    Fault(
        "round87-lock-child-space-question-extra-null", "ACTION-LOCK-EXTRA",
        "Locking a QUESTION of a child space (a space with a parent: Product Help under Products) returns and stores "
        "the lock action with extra null (the child space's moderation settings write the record without the "
        "prompt); questions of top-level spaces, answers and comments keep it: breaks 'The prompt is stored as "
        "extra of the returned lock action.' for questions of a child space only.",
    ),
    Fault(
        "round87-questions-spaceid-ignored-with-lang", "FILTER-SPACEID",
        "The question list asked with lang beside spaceId lists the questions of every space (the localized query "
        "is built from the search parameters only); spaceId alone, or with other parameters, restricts the list: "
        "breaks 'spaceId (integer; restricts to one space)' when lang is given too only.",
    ),
    Fault(
        "round87-gdpr-form-user-id-refused", "GDPR-USER-FORMS",
        "An individual job sent as a form-encoded body whose user is given by id is refused 400 \"The provided "
        "'user' is/are invalid\" (the form binder leaves the id a string and the lookup by id compares integers); by "
        "email in a form, and by id in a JSON body or as parameters, it is taken: breaks 'Exactly one of username, "
        "email, id.' for the id form in a form-encoded job only.",
    ),
    Fault(
        "round87-reply-after-sendtomod-other-visibility-accepted", "COMMENT-4",
        "Once the answer or question a private comment is under has been sent to moderation, a reply to that "
        "private comment asking another visibility is accepted 201 with the parent's settings (the moderation "
        "thread's reply path inherits silently instead of refusing); before the send it is 400: breaks 'A reply "
        "to a private comment with different visibility gives 400' after a send to moderation of its node only.",
    ),
    Fault(
        "round87-user-content-kept-by-url", "COMMENT-PRIVACY-CONTENT",
        "A user's content list (data protection) is kept 3 s by its URL, whoever reads it: a read within 3 s of "
        "another account's read gets that account's list (a recipient's read right before a non-recipient's shows "
        "the private comment to the latter): breaks 'the comment is private to those recipients' in that read "
        "order only.",
    ),
    # --- written after the blind measure, each a miss's kind on another path (missed before its closing)
    Fault(
        "round87-kind-questions-lang-ids-unfiltered", "COMMENT-PRIVACY-IDS",
        "The kind of round87-questions-search-ids-unfiltered (a searched question list built on another path) with "
        "another search parameter: the question list asked with lang serves each question's commentIds and "
        "childrenIds from the localized index, every comment id, private ones included, for every reader: breaks "
        "'the comment is private to those recipients' on a question list asked with lang only.",
    ),
    Fault(
        "round87-kind-deep-reply-after-sendtomod-other-visibility-accepted", "COMMENT-4",
        "The kind of round87-reply-after-sendtomod-other-visibility-accepted (rule 4's refusal skipped once the "
        "thread's node was sent to moderation) at another depth alone: a reply asking another visibility to a "
        "private REPLY (a comment whose parent is a comment) under an answer sent to moderation is accepted 201 with "
        "the parent's settings; replies to a top-level private comment, and any reply before the send, are 400: "
        "breaks 'A reply to a private comment with different visibility gives 400' at depth 2 and below after a "
        "send to moderation only.",
    ),
)
"""The round's fifteen faults, as written (before the measure), and the two kinds' proofs written after it."""

_MISSED_REASONS: dict[str, str] = {
    "round87-comment-form-charset-privacy-dropped":
        "a repeat, found after the measure: the path of round54-comment-form-charset-privacy-dropped, registered by "
        "forms25 (twenty-fifth session: member's form-encoded private comment, its recipients in the encoding the "
        "target takes, under the charset draw's Content-Type at seed 20260801); caught there too (forms25's "
        "measure), kept out as a repeat of a registered path",
    "round87-lock-child-space-question-extra-null":
        "a node kind no accepted lock of the run acts on (the measure: no test naming the rule failed): every allowed "
        "lock of the run acts on a node the run created (the shared answers, a comment) or on a one-shot of the "
        "profile (member_wiki_node_id, a root-space question); the run's child-space nodes are admin's answer and "
        "moderator's sent answer (closeb), and the one child-space question the run knows is found by reads "
        "(found_nodes.child_space_question), an account's node the site owns. close2 looked: moving member's shared "
        "lock (its own answer) onto that question would lock a node the run did not create, which no allowed call "
        "of the run does (found_relations changes nothing on the site); a lock of admin's answer there acts on an "
        "answer, not a question. Closing needs a one-shot question in a child "
        "space named by the profile ([fixtures], one accepted write), or a trade of the suites' share",
    "round87-gdpr-form-user-id-refused":
        "a reading the description allows: user is an object, and how an object field travels in a form-encoded body "
        "or as a parameter is not shown ('each body field may also be given as a request or query parameter' names "
        "no encoding; the reference server takes JSON text); the kit sends the job's user in the JSON body in every "
        "stated form (username, email, id, id as text), and those are taken",
    "round87-user-content-kept-by-url":
        "unreachable on the reference server: permissions of operation 8 are not shown, and the reference grants the "
        "content list to admin alone, so no second account's read meets what a cache kept by URL holds. The privacy "
        "model already reads each content URL by every account back to back, privileged first "
        "(suites/properties/subtree_views.py), which catches it on a target where two accounts may read the list",
}

BLIND_round87, BLIND_round87_MISSED = split_missed(_ALL, _MISSED_REASONS)
