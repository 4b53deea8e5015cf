"""Blind round 85 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261209, seven drawn from the must-rules rounds 83 and 84 did not take); eight break rules of the kinds the
outside rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form,
an effect on one node state, a sort whose echo is right, a data-protection form of the user, a reply deeper in a
thread, a count a cache keeps by its path). Each bites on one path only; the hooks are in :mod:`blind_round85`.

Registered: the faults the self-test catches (``BLIND_round85``); the others stay wired but out of the registry
(``BLIND_round85_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS`` (docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round85-groups-last-page-listcount-pagesize", "PAGING-LISTCOUNT",
        "The group list asked with a pageSize for page 2 or later reports listCount as min(pageSize, totalCount) "
        "(the count is computed from the request, not from the rows read), so a short LAST page says it holds "
        "pageSize items while its list holds fewer: breaks '| listCount | integer | Number of items in this "
        "page. |' on a short later page of the group list only.",
    ),
    Fault(
        "round85-spaces-member-wrap-refused", "PERM-SPACES",
        "The space list asked with the wrap option refuses member 403 (the wrapping controller checks a Standard "
        "Roles permission member's role configuration leaves to the group list's row); other accounts, and member "
        "without wrap, are served: breaks '| 9 Spaces | Use site (Anonymous Roles);' with wrap for member only.",
        overrides=(Override(("listSpaces",), "member", Effect.DENY, when=("wrap",)),),
    ),
    Fault(
        "round85-active-oldest-type-expert", "SHAPE-LIST-ACTIVE-EXPERTS",
        "The active expert list sorted by oldest gives each user's type as 'expert' (the oldest sort's native query "
        "selects the expert table's discriminator into type); other sorts, and the earned list, say user: breaks "
        "'Response: 200, paged list of User items.' (User type 'Always user') with sort=oldest only.",
    ),
    Fault(
        "round85-moderated-answer-no-original-parent", "NODE-ORIGINAL-PARENT-ID",
        "An answer posted by a caller without Publish answer (novice: the answer goes to the moderation queue) is "
        "answered without originalParentId (the moderation queue's serializer writes parentId only); a published "
        "answer carries it: breaks '| originalParentId | integer | Present on answers and comments. |' on the "
        "posted answer of an account whose answers are moderated only.",
    ),
    Fault(
        "round85-cancelwiki-own-after-other-write-refused", "PERM-CANCELWIKI-OWN",
        "A caller with Convert own posts to community wiki only (member) is refused 403 on its OWN wiki node once "
        "another account answered or commented under it (own read from the node's lastActiveUserId, the last "
        "writer of the thread); before that it is served: breaks '| 11 Unwikify | Mark as community wiki; for the "
        "caller's own node, Convert own posts to community wiki. |' after another account's write on the node only.",
    ),
    Fault(
        "round85-sendtomod-comment-realuser-parent-author", "ACTION-SENDTOMOD-REALUSER",
        "Sending a COMMENT to moderation returns a record whose realUser names the author of the node the comment "
        "is on (the comment branch resolves the real user through the thread's parent) when that is not the "
        "caller; questions and answers name the caller: breaks 'Some state-changing operations record both the "
        "effective user (user) and the real authenticated user (realUser).' for comments only.",
    ),
    Fault(
        "round85-gdpr-formatted-frame-held-by-timestamp-free", "GDPR-TIME-FRAME",
        "A job dated by scheduleDate.formatted for a time frame held only by jobs dated by timeStamp is scheduled "
        "201, replacing them (the formatted form's frame lookup reads the frame keys the formatted jobs wrote); a "
        "frame held by a formatted job is refused, and so is a timeStamp job anywhere taken: breaks '{error: There "
        "is a job already scheduled for that time frame.}' for a formatted date on a timeStamp job's frame only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round85-answer-comments-wrap-member-refused", "PERM-ANSWER-COMMENTS",
        "An answer's comment list asked with the wrap option refuses member 403 (the wrapped controller asks for "
        "View the moderation queue on top of the stated permissions); without wrap, or for other accounts, it is "
        "served: breaks '| 18 Answer's comments | View answers in the question page and View the question page "
        "(Anonymous Roles). |' with wrap for member only.",
        overrides=(Override(("listAnswerComments",), "member", Effect.DENY, when=("wrap",)),),
    ),
    Fault(
        "round85-unfavorite-no-own-cancels-oldest-holder", "ACTION-UNFAVORITE-PER-USER",
        "An unfavorite by a caller who holds no favorite of the node cancels the node's OLDEST holder's favorite "
        "(the favorite row is looked up by node when none is the caller's) and answers 200 with that action "
        "canceled by the caller; a caller holding a favorite cancels its own: breaks 'Favorites are per user; the "
        "user is taken from the credentials.' for a caller without a favorite of a favorited node only.",
    ),
    Fault(
        "round85-comment-form-privacy-params-dropped", "CONV-PARAM-AS-BODY-FIELD",
        "A comment whose body comes form-encoded (application/x-www-form-urlencoded) and whose visibility and "
        "recipients come as request parameters is stored with full visibility and no recipients (the form binder "
        "reads the privacy fields from the form only); in a JSON body, or all as parameters, they count: breaks "
        "'each body field may also be given as a request or query parameter of the same name.' for that mix only.",
        draws=("form privacy carrier=split",),  # types (issue 44): moderator's form-carrier visibility comment split
    ),
    Fault(
        "round85-lock-private-comment-extra-null", "ACTION-LOCK-EXTRA",
        "Locking a PRIVATE comment (visibility not full) returns the lock action with extra null (the private "
        "comments plugin writes the action record without the prompt); public nodes keep it: breaks 'The prompt "
        "is stored as extra of the returned lock action.' on private comments only.",
    ),
    Fault(
        "round85-earned-reputation-page-param-ascending", "SORT-EXPERTS-ORDER",
        "The earned expert list asked with sort=reputation AND an explicit page parameter lists the users by "
        "reputation ASCENDING (the paged query's ORDER BY takes the default direction) while echoing reputation; "
        "without page the order is highest first: breaks 'sort must be one of reputation, username, realname, "
        "recent, oldest, default' (reputation ordered highest first) when page is given only.",
    ),
    Fault(
        "round85-gdpr-staff-email-user-refused", "GDPR-USER-FORMS",
        "An individual job naming its user by EMAIL is refused 400 \"The provided 'user' is/are invalid\" when the "
        "user is a staff account (administrator or moderator: the e-mail lookup reads the community directory, "
        "which lists no staff); staff by username or id, and others by email, are taken: breaks 'Exactly one of "
        "username, email, id.' for staff by email only.",
    ),
    Fault(
        "round85-reply-to-reply-recipients-unchecked", "COMMENT-6",
        "A comment on a REPLY (a comment whose parent is itself a comment's reply: the third comment level) that "
        "gives recipients while visibility is not recipients is accepted 201 with the recipients dropped (the "
        "deep-thread branch skips the privacy validator); on answers, questions and first-level comments it is "
        "400: breaks 'recipients given while visibility is not recipients gives 400.' at that depth only.",
    ),
    Fault(
        "round85-spaces-totalcount-kept-by-path", "PAGING-TOTALCOUNT-UNION",
        "The space list keeps its totalCount and pageCount 3 s by its path, whoever reads it: a read within 3 s of "
        "another account's read reports that account's count (novice after admin: the Staff Room counted); the "
        "items are right: breaks '| totalCount | integer | Total number of items. |' in that read order only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {
    "round85-cancelwiki-own-after-other-write-refused":
        "a history the run never makes: member's own unwikify is one call (suites/one_shot_calls.py "
        "cancelwiki_own_once) on member_wiki_node_id, whose only write under it before the call is member's own answer "
        "(wiki_own_question.answer_first, accept22) and, on the seeds drawing 'before its unwikify', admin's send to "
        "moderation (no node under it): lastActiveUserId is still member when member unwikifies. The action matrix's "
        "PERM-CANCELWIKI-OWN cells act on pool nodes, none of them wiki. Closing: answer_first by another account "
        "(moderator's published answer, say) instead of member's, so the one own unwikify follows another's write "
        "under the node; no accepted write more",
    "round85-gdpr-formatted-frame-held-by-timestamp-free":
        "no frame of a budgeted run is held by a job dated by timeStamp: 'Format of the timeStamp form of "
        "scheduleDate: not shown', so the judged jobs (main, second) are dated by formatted and "
        "suites/scenarios/taken_frames.py restates them in every form (timeStamp included) against frames a formatted "
        "job holds; the one timeStamp job is test_gdpr_timestamp_job.py's observation, a write the default budget "
        "does not plan. Closing: where that observation's job was taken, restate it by formatted (refusals only, in "
        "test_gdpr_timestamp_job.py); at the default budget it needs one accepted write more",
    "round85-gdpr-staff-email-user-refused":
        "a path the kit rightly never takes: every job names [safety] gdpr_user (job_forms.user_value), never a staff "
        "account (a data-protection job on admin or moderator of a real target is not the kit's to schedule, even "
        "dated years ahead); a past-dated probe naming a staff e-mail cannot judge it either, since which check comes "
        "first (the date or the user) is not stated. Only a profile whose gdpr_user is a moderator would reach it",
}

BLIND_round85, BLIND_round85_MISSED = split_missed(_ALL, _MISSED_REASONS)
