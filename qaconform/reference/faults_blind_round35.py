"""Blind round 35 (issue 44): fifteen faults written from the interface description alone, each breaking one stated
rule on one path (where they bite: :mod:`blind_round35`, one line in ``actions.lock`` and one in
``gdpr_jobs._check_reassign_user``, and three overrides of the route table). Eight are on the must-rules drawn for
the round (seed 20261205), seven on rules of my choice, one of each kind issue 44 says outside rounds catch us on.
Measured blind on the day's suites: 14 of 15 caught; the miss was closed by kind (:data:`_MISSED_REASONS`), so
:data:`BLIND_round35` holds all fifteen and :data:`BLIND_round35_MISSED` none.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    # --- the eight drawn must-rules
    _F("round35-cancelwiki-cancels-callers-own-wikify-only", "ACTION-CANCELWIKI-CANCELED",
       "'Returns the wiki action with canceled true': the cancel updates the wiki action only where its user is the "
       "caller (the per-user statement of unfavorite copied), so a node someone else wikified is unwikified but its "
       "returned wiki action stays canceled false; a caller unwikifying what it wikified itself is right"),
    _F("round35-unfavorite-novice-own-node", "PERM-UNFAVORITE",
       "'10 Unfavorite | Mark as favorite (Standard Roles) and View the question page': the check is skipped for the "
       "node's author (authors manage their own node's favorites), so novice's unfavorite of a node novice wrote is "
       "200 {success: true} with no favorite action; on any other node novice is refused as before",
       (Override(("unmarkFavorite",), "novice", Effect.ALLOW),)),
    _F("round35-unfavorite-admin-record-before-cancel", "ACTION-UNFAVORITE-CANCELED",
       "'Returns the favorite action with canceled true and the updated favoriteCount': an administrator's unfavorite "
       "(the console's branch) returns the favorite action as read before the cancel, canceled false; the favorite "
       "is removed, and every other account gets the canceled record"),
    _F("round35-spaces-invalid-sort-novice-by-id", "SORT-FALLBACK-SPACES",
       "'On the space, topic and group lists an invalid sort name makes the request fall back to the default sort': "
       "for a caller with a hidden space (novice) the filtered query has its own fallback, by id, not the default by "
       "name; callers who see every space fall back right"),
    _F("round35-spaces-v1-refused-below-moderator", "PERM-SPACES",
       "'9 Spaces | Use site (Anonymous Roles)': the legacy v1 space controller asks for a Moderation Roles "
       "permission, so member's and novice's space list is a 403 once v1 is given; without v1 it is served",
       (Override(("listSpaces",), "member", Effect.DENY, when=("v1",)),
        Override(("listSpaces",), "novice", Effect.DENY, when=("v1",)))),
    _F("round35-cancelwiki-admin-node-result-key", "SHAPE-CANCEL-WIKI",
       "'Response: 200 with {success: boolean, result: {wikifyAction: <Action record>}}': unwikifying a node an "
       "administrator wrote answers result {wikiAction: ...} (the admin content serializer's key); nodes of other "
       "authors are right"),
    _F("round35-answer-moderated-body-wins-over-param", "CONV-PARAM-WINS-ANSWER",
       "'When both are given, the parameter wins': an answer of a caller without Publish answer (the moderation "
       "queue's path) is built from the request body alone, so its body field wins over the body parameter; "
       "published answers are right"),
    _F("round35-unfavorite-count-omitted-at-zero", "ACTION-WRAPPERS",
       "'Response: 200 with {success: boolean, result: {favoriteAction: <Action record>, favoriteCount: "
       "integer}}': the serializer leaves out a zero, so the unfavorite that removes a node's last favorite answers "
       "a result without favoriteCount; while another favorite remains it is there"),
    # --- seven kinds issue 44 names, one each
    # a permission decided differently once an optional parameter is given
    _F("round35-groups-moderator-with-exclude", "PERM-GROUPS",
       "'17 Groups | Edit users and groups (Site Administration Roles)': the projected group query (exclude) checks "
       "View the moderation queue instead, so moderator's group list is served once exclude is given; without it "
       "moderator is refused",
       (Override(("listGroups",), "moderator", Effect.ALLOW, when=("exclude",)),)),
    # ownership taken from the wrong relation
    _F("round35-lock-own-group-peer", "PERM-LOCK-OWN",
       "'13 Lock | ... for the caller's own node, Lock comments on own posts': \"own\" is read as the posts of the "
       "caller's team, so member may lock a node written by an account sharing one of member's groups (moderator, "
       "Team A); nodes of anyone else are refused as before"),
    # a stated effect on one node kind only
    _F("round35-sendtomod-answer-node-type-question", "ACTION-NODE-ID",
       "'| node | object | id (integer), type (string). |' (the record of the node acted on): an answer's "
       "send-to-moderation record gives node.type question (the type of the thread the moderation queue files it "
       "under); questions and comments are right"),
    # a stated parameter's effect, not its echo
    _F("round35-user-questions-sorted-pagesize-ignored", "PAGING-LISTCOUNT",
       "'| pageSize | integer | Items per page. |': a user's question list asked with sort and a pageSize below the "
       "default echoes that pageSize but serves pages of the default size (the sorted query takes its LIMIT from "
       "the configuration); without sort the pageSize is applied"),
    # a data-protection rule through one stated form of the user
    _F("round35-gdpr-bulk-reassign-username-invalid", "GDPR-REASSIGN-FORMS",
       "'Identifies the user to whom content is reassigned, by exactly one of username or id': a bulk job's "
       "reassignUser is looked up by id only, so one named by username is refused \"The provided 'reassignUser' "
       "is/are invalid\"; by id, and either form on an individual job, are right"),
    # a history: a rule after a state change
    _F("round35-lock-after-sendtomod-extra-null", "ACTION-LOCK-EXTRA",
       "'The prompt is stored as extra of the returned lock action': a node sent to moderation earlier keeps its "
       "moderation record's extra (none), so locking it then answers a lock action with extra null; nodes not in "
       "moderation are right"),
    # read order: a read before a write, the same read right after it
    _F("round35-question-lists-cached-through-unwikify", "ACTION-CANCELWIKI-NOT-WIKI",
       "'Not wiki (closed for editing)': the question lists (3, 15) are cached per URL and caller for three seconds "
       "and the cache is dropped on every write but an unwikify, so a list read right before an unwikify and again "
       "right after it still shows the node wiki true; a first read after it is right"),
)

_MISSED_NAMES: frozenset[str] = frozenset()
"""Missed on the day's suites, still left out. Measured blind on main at ``b6a3f37`` with ``qaconform selftest --fault
NAME --no-clean --jobs 2`` (2026-11-30): 14 of 15 caught, round35-spaces-invalid-sort-novice-by-id missed (its reason
below); closed by kind the same day (every reader reads each fallback list with each sort value alone,
``covering.each_reader_alone``), so every fault of the round is registered."""

_MISSED_REASONS: dict[str, str] = {
    "round35-spaces-invalid-sort-novice-by-id":
        "missed blind, closed: no test naming SORT-FALLBACK-SPACES failed, as the fallback was compared with the "
        "default order for novice (whose space list withholds one) only in the pairwise rows that asked a "
        "projection, wrap or paging beside the sort; covering.each_reader_alone adds each reader with the sort "
        "alone, and test_matrix.py's fallback test catches it on listSpaces-novice-no-parameters",
}
"""Why each fault missed on the day's suites got through, by name (kept once a fix closed it, to say how)."""

# BLIND_round35: Caught on the day's suites.
# BLIND_round35_MISSED: Missed on the day's suites, still planted: the integrator measures them again on the session's
# final suites.
BLIND_round35, BLIND_round35_MISSED = split_missed(_ALL, _MISSED_NAMES)
