"""Blind round 22 (issue 44): fifteen faults written from the description alone, one on each of fifteen must-rules
drawn at random, each on one path a real server's bug would take. Code: :mod:`blind_round22` (request_hooks.HOOKS).

Two tuples, as the round's measurement wants them: :data:`BLIND_round22` (caught by the suites of the day they were
written) and :data:`BLIND_round22_MISSED` (missed that day, still planted: the integrator measures them again on the
session's final suites). Each docstring quotes the sentence of interface-v2.md the fault breaks.
"""

from __future__ import annotations

from .fault_model import Fault, allow

_F = Fault
USER_ANSWERS_IDS_TEXT: str = "r22-user-answers-ids-text-past-page-1"
CSV_UNCHECKED_WITH_REASSIGN: str = "r22-gdpr-bulk-csv-unchecked-with-reassign"
ADMIN_EXPERT_FLAGS_TEXT: str = "r22-admin-expert-flags-text"
REPLY_SAME_OPTION_REFUSED: str = "r22-reply-same-option-refused"
NOVICE_OWN_NODE_COMMENT: str = "r22-novice-comment-on-own-node-refused"
EMAIL_USER_ANON_DELETE: str = "r22-gdpr-email-user-with-anon-delete-refused"
REASSIGN_ID_TEXT: str = "r22-reassign-id-text-not-looked-up"
OWNER_CHANGES_VISIBILITY: str = "r22-reply-owner-changes-private-visibility"
CONTENT_LOCKED_DATE_MILLIS: str = "r22-content-locked-node-date-millis"
SPACE_FILTER_DATE_SECONDS: str = "r22-space-filter-active-date-seconds"
ANONYMOUS_UNFAVORITE: str = "r22-anonymous-unfavorite-favorited-node"
GROUPS_FALLBACK_WRAPPED: str = "r22-groups-fallback-sort-items-wrapped"
FOLLOWERS_INACTIVE_PAGESIZE: str = "r22-followers-inactive-pagesize-lookahead"
ANSWER_COMMENTS_PRIVATE_REFUSED: str = "r22-answer-comments-private-refused-novice"
ISSUE_TYPES_CACHED: str = "r22-issue-types-cached-as-map"

_ENTRIES: dict[str, Fault] = {f.name: f for f in (
    # "Response: 200, paged list of Node items of type answer." (4) -- ids as text from page 2 on
    _F(USER_ANSWERS_IDS_TEXT, "SHAPE-LIST-USER-ANSWERS",
       "a user's answer list from page 2 on gives each item's id as a string (a search index serves later pages)"),
    # "{error: The requested file does not exist}" -- the bulk branch with reassignUser forgets the file
    _F(CSV_UNCHECKED_WITH_REASSIGN, "GDPR-CSV-MISSING",
       "a bulk job with a reassignUser is taken though its csvFileId names no file (JSON body)"),
    # "Response: 200, paged list of User items." (5) -- the administrators' serializer
    _F(ADMIN_EXPERT_FLAGS_TEXT, "SHAPE-LIST-ACTIVE-EXPERTS",
       "to an administrator, the active expert list gives active, suspended and deactivated as \"true\"/\"false\""),
    # "A reply to a private comment without privacy fields, or with the same ones, inherits the parent's settings: 201."
    _F(REPLY_SAME_OPTION_REFUSED, "COMMENT-3",
       "a reply to a private comment of visibility op (or mod, group) repeating that visibility is refused with 400"),
    # "| 1 Post comment | Comment (Other Standard Roles); ..." -- novice refused on own node
    _F(NOVICE_OWN_NODE_COMMENT, "PERM-COMMENT",
       "novice is refused a full-visibility comment on a node novice wrote (a 'comment on own posts' check)"),
    # "user | object | Required when type is individual. Exactly one of username, email, id."
    _F(EMAIL_USER_ANON_DELETE, "GDPR-USER-FORMS",
       "an individual job naming its user by email is refused when operations hold anon-delete"),
    # "{error: The provided 'reassignUser' is/are invalid}" -- an id given as text is never looked up
    _F(REASSIGN_ID_TEXT, "GDPR-REASSIGN-INVALID",
       "a reassignUser {id: \"<digits>\"} (id as text) naming no user is taken (only integer ids are looked up)"),
    # "A reply to a private comment with different visibility gives 400" -- the thread owner's branch
    _F(OWNER_CHANGES_VISIBILITY, "COMMENT-4",
       "the author of a private comment replying to it with another visibility gets 201 (inherits) instead of 400"),
    # "Response: 200, a JSON array of User content entries" + "actionDate | string | YYYY-MM-DD HH:MM:SS.S"
    _F(CONTENT_LOCKED_DATE_MILLIS, "SHAPE-LIST-USER-CONTENT",
       "a user's content entry for a locked node carries actionDate as epoch milliseconds (an integer)"),
    # "lastActiveDate | integer | Epoch time in milliseconds." -- the space-filtered query
    _F(SPACE_FILTER_DATE_SECONDS, "SHAPE-DATES-MILLIS",
       "the question list with spaceId gives lastActiveDate in epoch seconds"),
    # "| 10 Unfavorite | Mark as favorite (Standard Roles) and View the question page (Anonymous Roles). |"
    _F(ANONYMOUS_UNFAVORITE, "PERM-UNFAVORITE",
       "anonymous may unfavorite a node someone favorited (200, favorite looked up by node); 401 on other nodes",
       overrides=allow("anonymous", "unmarkFavorite")),
    # "Response: 200, paged list of Group items." + "id | integer" -- the invalid-sort fallback
    _F(GROUPS_FALLBACK_WRAPPED, "SHAPE-LIST-GROUPS",
       "the group list with a sort it does not know (the fallback) gives items as {group: <Group>}"),
    # "| pageSize | integer | Items per page. |" -- the follower list with active=false
    _F(FOLLOWERS_INACTIVE_PAGESIZE, "PAGING-PAGESIZE-ECHO",
       "the follower list with active=false reports pageSize one more than asked (its look-ahead limit)"),
    # "| 18 Answer's comments | View answers in the question page and View the question page (Anonymous Roles). |"
    _F(ANSWER_COMMENTS_PRIVATE_REFUSED, "PERM-ANSWER-COMMENTS",
       "an answer's comment list is refused to callers without Use Private Comments when it holds a private comment"),
    # "Response: 200, a JSON array of objects with name (string)." (19) -- a cache of names
    _F(ISSUE_TYPES_CACHED, "SHAPE-LIST-ISSUE-TYPES",
       "the issue-type list after its first call is served from a cache: an object keyed by name, not an array"),
)}

_MISSED_NAMES: tuple[str, ...] = ()
"""Missed by the suites of the day the round was written (measured: docs in /work/notes/s8/blind-round22.md).
Caught since fix22 (issue 44), so in :data:`BLIND_round22`: CSV_UNCHECKED_WITH_REASSIGN (each job refusal row crossed
with the optional fields of a valid job, test_gdpr_kinds.py) and REASSIGN_ID_TEXT (each numeric id edge as text in
every user field of a job, test_gdpr_forms.py) and REPLY_SAME_OPTION_REFUSED (a reply repeating each private option
of its parent, test_reply_visibility_pairs.py). NOVICE_OWN_NODE_COMMENT was missed: novice's one accepted comment of
a default run was blind9's reply to admin's comment (suites/conftest.py COMMENT_AS_REPLY); caught since trade (issue
44): novice's shared comment on a question novice wrote (suites/conftest.py comment_on_own_node), paid by a trade of
writes (/work/notes/s8/trade.md)."""

BLIND_round22: tuple[Fault, ...] = tuple(f for n, f in _ENTRIES.items() if n not in _MISSED_NAMES)
BLIND_round22_MISSED: tuple[Fault, ...] = tuple(_ENTRIES[n] for n in _MISSED_NAMES)
