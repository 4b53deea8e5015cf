"""Blind round 21 (issue 44): fifteen faults written from the interface description alone, without reading the
suites, of the kinds the outside team's rounds caught us on. Each breaks one stated rule on one path; the code is in
:mod:`blind_round21`. ``BLIND_round21`` holds the ones today's suites catch, ``BLIND_round21_MISSED`` the ones they
miss (still planted: the integrator measures them again on the session's final suites).
"""

from __future__ import annotations

from .fault_model import Fault

_P = "round21-"

_ALL: dict[str, Fault] = {f.name: f for f in (
    # a permission decided by an optional parameter
    Fault(_P + "topics-includeonly-novice-403", "PERM-TOPICS",
          "GET topic.json with includeOnly refuses novice 403 (the projection branch checks another permission);"
          " 'Every operation requires the permissions below ... 14 Topics | View users list (Anonymous Roles).'"),
    Fault(_P + "followers-details-admin-only", "PERM-FOLLOWERS",
          "GET node/{id}/followers.json?details=true refuses every caller but admin with 403 (the relation view"
          " checks Edit users and groups); '16 Followers | View users list (Anonymous Roles).'"),
    # ownership from the wrong relation
    Fault(_P + "unfavorite-newest-favorite", "ACTION-UNFAVORITE-PER-USER",
          "PUT unmarkfavorite cancels the node's newest favorite (another account's) when the caller's is older;"
          " 'Favorites are per user; the user is taken from the credentials.'"),
    Fault(_P + "user-questions-accepted-answers", "LIST-USER-QUESTIONS-OWNER",
          "GET user/{id}/question.json (first page) also lists others' questions whose accepted answer the user"
          " wrote; '15 | GET | /services/v2/user/{userId}/question.json | List questions posted by a user'"),
    # an input form on an operation it is rarely tried on
    Fault(_P + "answer-param-body-ignored-beside-fields", "CONV-PARAM-AS-BODY-FIELD",
          "POST question/{id}/answer.json with body as a query parameter and a JSON body of other Node fields (no"
          " body) gives 400; 'each body field may also be given as a request or query parameter of the same name.'"),
    # comment-json-recipients-win (CONV-PARAM-WINS-COMMENT) left out by fix3: recipients, an array of objects, has
    # no parameter form the description states (JSON text in a parameter is nowhere shown); code: notes/s7/fix3-notes.md
    # a stated effect on one account's branch or one node kind
    Fault(_P + "admin-sendtomod-not-private", "ACTION-SENDTOMOD-PRIVATE",
          "PUT sendToMod by admin returns private false (admin's branch builds its own record); 'Returns an action"
          " record with verb sent and private true.'"),
    Fault(_P + "lock-comment-node-is-parent", "ACTION-NODE-ID",
          "PUT lock.json on a comment returns lockAction.node.id of the comment's parent; 'node | object | id"
          " (integer), type (string).' of the record of the locked node"),
    # a parameter's effect, not its echo
    Fault(_P + "followers-active-false-paged-inactive-only", "FOLLOWERS-ACTIVE-DEFAULT",
          "GET followers.json?active=false&pageSize=N lists only inactive relations (totalCount below the default);"
          " 'when false all relations, including inactive ones.'"),
    Fault(_P + "groups-v1-invalid-sort-by-id", "SORT-FALLBACK-GROUPS",
          "GET group.json?v1=... with an invalid sort orders by id (the v1 branch's own fallback), not as the"
          " default sort; 'Invalid sort falls back to the default.'"),
    # a data-protection rule through one stated form of the user or date
    Fault(_P + "gdpr-email-past-timestamp", "GDPR-DATE-TIMESTAMP",
          "POST schedule.json, individual with user by email: a past scheduleDate.timeStamp is scheduled (201);"
          " 'Date in the past | {error: The desired date is in the past and is it not eligible.}'"),
    Fault(_P + "gdpr-reassign-unknown-with-user-id", "GDPR-REASSIGN-INVALID",
          "POST schedule.json, individual with user by id: a reassignUser by an unknown username is taken (201);"
          " 'reassignUser does not exist | {error: The provided 'reassignUser' is/are invalid}'"),
    # a history: one account's action changes another's state
    Fault(_P + "unfavorite-after-other-account", "ACTION-UNFAVORITE-CANCELED",
          "PUT unmarkfavorite after another account unfavorited the same node returns canceled false; 'Returns the"
          " favorite action with canceled true and the updated favoriteCount.'"),
    # a read order a cache gets wrong (a count read right after a write)
    Fault(_P + "comment-pagecount-lags-post", "PAGING-PAGECOUNT",
          "GET answer/{id}/comment.json within 5 s of a comment posted on that answer reports pageCount from the"
          " count before it (totalCount fresh); 'pageCount | integer | Total number of pages.'"),
    # the posted text's content
    Fault(_P + "comment-text-cut-at-quote", "COMMENT-LISTED",
          "GET answer/{id}/comment.json serves a comment's body up to its first double quote; 'body (string, the"
          " comment text, required)' and 'List comments of an answer'"),
)}

MISSED: tuple[str, ...] = ()
"""Faults today's suites miss (measured with ``qaconform selftest --fault``); the rest are caught. fix3 (issue 44)
closed the two left: answer-param-body-ignored-beside-fields (the answer form matrix's query form carries other Node
fields in a JSON body) and comment-text-cut-at-quote (the shared comments' texts: suites/posted_texts.py)."""

BLIND_round21: tuple[Fault, ...] = tuple(f for n, f in _ALL.items() if n not in MISSED)
BLIND_round21_MISSED: tuple[Fault, ...] = tuple(_ALL[n] for n in MISSED)
