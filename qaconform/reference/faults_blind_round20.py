"""Twentieth blind round (issue 44, round20): one fault on each of fifteen must-rules drawn at random
(random.Random(202611300100)), written from the interface description alone, each on the one path a real server's
bug would most plausibly take. Where each bites: :mod:`blind_round20`.

``BLIND_round20`` holds the faults today's suites catch, ``BLIND_round20_MISSED`` the ones they missed when the round
was measured (still planted: the integrator measures them again on the session's final suites).
"""

from __future__ import annotations

from .fault_model import Fault, deny, split_missed

_ALL: tuple[Fault, ...] = (
    Fault(
        "blind20-reassign-string-id-beside-username", "GDPR-REASSIGN-AMBIGUOUS",
        "reassignUser with a username and an id given as text ({\"id\": \"12\"}) is not seen as two ways: the "
        "ambiguity test counts a JSON number only; the job is scheduled (201). Breaks \"{error: The request "
        "contains more than one reassignUser eligible configuration}\" (input form).",
    ),
    Fault(
        "blind20-topics-past-end-empty-body", "CONV-JSON-EXTENSION",
        "A page of the topic list past the last one is a 200 with an empty body (the template writes nothing for "
        "no items). Breaks \"Each path ends in .json, which selects the JSON format.\" (page past the end).",
    ),
    Fault(
        "blind20-earned-reputation-sorted-as-text", "SORT-EXPERTS-ORDER",
        "The earned-expert list with sort=reputation orders reputation as text (\"800\" before \"2500\"): the "
        "earned list reads it from a text column. Breaks \"sort must be one of reputation, username, realname, "
        "recent, oldest, default\" ordering by the key (a value's type on one list).",
    ),
    Fault(
        "blind20-content-joined-no-fraction", "SHAPE-CONTENT-ACTIONDATE",
        "The joined entry of a user's content list (dated from the user record, another formatter) has an "
        "actionDate without the fraction of a second. Breaks \"| actionDate | string | Pattern YYYY-MM-DD "
        "HH:MM:SS.S. |\" (one kind of entry).",
    ),
    Fault(
        "blind20-followers-includeonly-ignored-inactive", "PROJ-INCLUDEONLY",
        "includeOnly is ignored on a node's follower list with active=false (the all-relations branch builds "
        "whole items). Breaks \"includeOnly takes a comma-separated list of field names and limits the returned "
        "items to those fields\" (a parameter combination).",
    ),
    Fault(
        "blind20-cancelwiki-moderator-wiki-key", "SHAPE-CANCEL-WIKI",
        "moderator's unwikify answers result.wikiAction instead of result.wikifyAction (the moderation branch "
        "writes its own result). Breaks \"Response: 200 with {success: boolean, result: {wikifyAction: <Action "
        "record>}}.\" (a role branch).",
        draws=("unwikifier=moderator",),  # paths16: wiki_node_id's unwikifier is drawn by the seed
    ),
    Fault(
        "blind20-active-experts-member-refused", "PERM-EXPERTS",
        "member (USE API and View User's Profile) is refused the active-expert list only (that list's row asks "
        "for a moderation permission). Breaks \"| 5, 6 Experts | USE API role and View User's Profile (Anonymous "
        "Roles). |\" (one role on one of the two lists).",
        deny("member", "listActiveExperts"),
    ),
    Fault(
        "blind20-issuetypes-envelope-without-json-accept", "LIST-ARRAY-ISSUETYPES",
        "The issue-type list is wrapped in the paged envelope when the request's Accept does not name "
        "application/json (the legacy renderer picked by the header, not the .json extension). Breaks "
        "\"Response: 200, a JSON array of objects with name (string).\" (a request form).",
    ),
    Fault(
        "blind20-user-answers-cache-without-user", "LIST-USER-ANSWERS-OWNER",
        "A user's answer list is cached by its query string and reader but not by userId: after one user's list, "
        "another user's list read with the same parameters is the first user's. Breaks \"List answers posted by a "
        "user\" (read order).",
    ),
    Fault(
        "blind20-gdpr-ops-over-limit-error-list", "GDPR-ERROR-BODY",
        "A job with more than four operations is refused with {\"error\": [message]} (the message in a list) by "
        "the limit's own check. Breaks \"Errors: 400 with {error: <message>}; see Errors.\" (the edge past the "
        "stated limit).",
    ),
    Fault(
        "blind20-groups-fallback-sort-page-zero", "PAGING-DEFAULT-PAGE",
        "The group list with an invalid sort and no page reports page 0 (the fallback-to-default branch rebuilds "
        "the paging zero-based). Breaks \"Current page. The default is 1.\" (a parameter's fallback path).",
    ),
    Fault(
        "blind20-moderator-own-questions-refused", "PERM-USER-QUESTIONS",
        "moderator listing its own questions is refused 403 (the own-profile branch for staff asks for Edit users "
        "and groups). Breaks \"| 15 User's questions | View the questions list (Anonymous Roles). |\" (one role "
        "in one relation).",
    ),
    Fault(
        "blind20-reply-recipients-with-op", "COMMENT-6",
        "A reply to a public comment with recipients and a visibility other than recipients is accepted (201): "
        "the reply branch drops the recipients before rule 6 is checked. Breaks \"recipients given while "
        "visibility is not recipients gives 400.\" (depth 2).",
    ),
    Fault(
        "blind20-spaceid-dropped-with-unanswered", "FILTER-SPACEID",
        "The question list with unanswered given ignores spaceId (the unanswered branch builds its own query). "
        "Breaks \"spaceId (integer; restricts to one space)\" (a parameter combination).",
    ),
    Fault(
        "blind20-admin-unfavorite-canceler-null", "ACTION-CANCELED-FIELDS",
        "admin's unfavorite answers canceledByUser null in the canceled favorite action (the admin branch resolves "
        "the canceler through impersonation and finds none). Breaks \"Present when canceled is true.\" (a role "
        "branch).",
    ),
)

_MISSED_NAMES: frozenset[str] = frozenset({
    # fix2jobs (issue 44): blind20-reassign-string-id-beside-username caught (test_gdpr_kinds.py)
    # blind20-admin-unfavorite-canceler-null: caught on the session's final suites (actors judges admin's
    # unfavorite like member's), written without seeing it
})
"""The faults today's suites missed (``qaconform selftest --fault``, 2026-11-30: 12 of 15 caught;
fix2nodes, issue 44: blind20-spaceid-dropped-with-unanswered caught since, by the filters crossed beside spaceId)."""

BLIND_round20, BLIND_round20_MISSED = split_missed(_ALL, _MISSED_NAMES)
