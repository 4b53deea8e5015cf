"""Blind round 37 (issue 44): fifteen faults written from the interface description and spec/rules.yaml alone, by
someone who had not read the suites. Eight break the must-rules drawn for the round (seed 20261207); seven break
rules of the author's choice, one of each kind the outside rounds catch us on. Each breaks one stated rule on one
path only and quotes the rule's sentence; where they bite: :mod:`blind_round37` (and one line of actions.py).

``BLIND_round37`` is registered in faults.py; ``BLIND_round37_MISSED`` holds the faults the suites did not catch
when measured, left out of the registry with their reasons (``_MISSED_REASONS``, docs/blind-rounds.md)."""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_F = Fault
_ALL: tuple[Fault, ...] = (
    # --- the eight drawn rules
    _F("round37-comment-v1-drops-privacy", "COMMENT-8",
       "'Private comments were introduced in version 2.16.0.': a comment posted with the v1 option goes through the "
       "pre-2.16.0 code path, which drops visibility and recipients (the comment is stored public); without v1 the "
       "privacy fields are kept"),
    _F("round37-novice-op-on-own-parent", "COMMENT-7-NO-PRIVATE-PERMISSION",
       "'used by a caller who lacks the permission to use private comments, or lacks the permission for that "
       "option, gives 403.': a caller without Use Private Comments who writes visibility op under a node it wrote "
       "itself is let through (201, stored private: 'to the original poster' is taken as 'to myself')"),
    _F("round37-sendtomod-v1-redirects-v1", "VERSION-PATH",
       "'The version is part of the path: every endpoint lives under /services/v2.': send to moderation with the "
       "v1 option answers 307 to the same path under /services/v1 (the v1 option routed to a v1 endpoint); every "
       "other call and send to moderation without v1 are served under /services/v2"),
    _F("round37-lock-comment-wrapper", "SHAPE-LOCK-NODE",
       "'Response: 200 with {success: boolean, result: {lockAction: <Action record>}}.': locking a comment "
       "answers with the record under result.lockCommentAction (a separate comment-lock controller); questions "
       "and answers are wrapped right"),
    _F("round37-followers-inactive-total-text", "PAGING-ENVELOPE",
       "'Every list endpoint returns this object.' (totalCount: integer): the follower list with active=false "
       "reports totalCount as a string of digits (a count of the union query); active=true and the default are "
       "right"),
    _F("round37-user-answers-votes-title", "NODE-TITLE-ANSWERS-COMMENTS",
       "'Absent or null for answers and comments.': a user's answer list sorted by votes carries the question's "
       "title on each answer (the join used to order by votes leaks the question's columns); other sorts are "
       "right"),
    _F("round37-admin-comments-24h", "SHAPE-DATE-FORMATTED",
       "'Pattern MM/DD/YYYY hh:mm AM or PM.': an answer's comment list read by an administrator formats "
       "creationDateFormatted in the 24-hour form without AM/PM (the administrator's locale preference); every "
       "other reader and list is right"),
    _F("round37-moderated-answer-location-question", "ANSWER-LOCATION",
       "'The Location header holds the new item's URL.': an answer that goes to moderation (caller without "
       "Publish answer) gets a Location naming its question's URL (the answer has no public URL yet); published "
       "answers are right"),
    # --- seven of the author's choice, one of each kind
    _F("round37-groups-wrap-moderator", "PERM-GROUPS",
       "(a permission with an optional parameter) 'Edit users and groups (Site Administration Roles).': the group "
       "list with the wrap option lets a moderator in (200); without wrap the moderator is refused",
       (Override(("listGroups",), "moderator", Effect.ALLOW, when=("wrap",)),)),
    _F("round37-lock-own-commenter", "PERM-LOCK-OWN",
       "(ownership on the wrong relation) 'for the caller's own node, Lock comments on own posts': a caller with "
       "only Lock comments on own posts may lock an answer it commented on (own taken from the node's "
       "commenters); its own nodes and other answers are judged right"),
    _F("round37-sendtomod-answer-public", "ACTION-SENDTOMOD-PRIVATE",
       "(an effect on one node kind) 'Returns an action record with verb sent and private true.': sending an "
       "answer to moderation returns private false; questions and comments are right"),
    _F("round37-earned-oldest-as-recent", "SORT-EXPERTS-ORDER",
       "(a parameter's effect vs its echo) 'sort must be one of reputation, username, realname, recent, oldest, "
       "default': the earned-expert list with sort=oldest echoes oldest but orders newest first (as recent); the "
       "active-expert list and the other sorts are right"),
    _F("round37-gdpr-email-reassign-refused", "GDPR-USER-FORMS",
       "(a data-protection form of the user) 'Exactly one of username, email, id.': an individual job whose user "
       "is given by email and that has a reassignUser is refused with 400 'The provided 'reassignUser' is/are "
       "invalid' (the reassign user looked up by the user's key); by username or id, or without reassignUser, "
       "it is taken"),
    _F("round37-depth3-reply-recipients-lost", "COMMENT-3",
       "(a history at depth 3) 'A reply to a private comment without privacy fields, or with the same ones, "
       "inherits the parent's settings: 201.': a reply to a reply of a comment (third comment level) inherits the "
       "visibility but not the recipients (an empty list); replies at the first two levels inherit both"),
    _F("round37-comments-mod-view-cached", "COMMENT-PRIVACY-LIST",
       "(read order and caches) a private comment is 'private to those recipients': an answer's comment list read "
       "by a caller who sees the moderation queue is kept 3 s by URL, and any other caller reading the same URL "
       "in that time gets that list, private comments included; reads in another order are right"),
)

_MISSED_REASONS: dict[str, str] = {
    "round37-comment-v1-drops-privacy":
        "missed when measured blind (no test naming COMMENT-8 failed): no private comment is posted with the v1 "
        "option, the one parameter of the operation's convention list the comment writes never try. closea (twenty-"
        "second session): a reading the description allows, not a miss to close: 'Other options accepted by most "
        "endpoints: wrap, v1. Values and effect of wrap and v1: not shown.' Neither the value to send nor what v1 "
        "does is stated, so a v1 request served by the pre-2.16.0 path breaks no stated sentence",
    "round37-sendtomod-v1-redirects-v1":
        "missed when measured blind (no test naming VERSION-PATH failed): send to moderation is never called with "
        "its stated v1 option, or a 3xx to another version's path is not judged. closea (twenty-second session): a "
        "reading the description allows: 'Values and effect of wrap and v1: not shown.' (the request's value of v1 "
        "and its effect, a v1 routing among them, are not stated); the endpoint itself stays under /services/v2",
    "round37-gdpr-email-reassign-refused":
        "missed when measured blind: the refusal was seen (test_gdpr_forms' user-by-email with reassign-by-username) "
        "but charged to GDPR-REASSIGN-FORMS, not GDPR-USER-FORMS. The same behaviour is registered as r23-, round32- "
        "and r11- faults under GDPR-REASSIGN-FORMS; charging by which form decided it (a second refused send with "
        "the user by id) would catch this one and miss those, so it stays out as a duplicate under another rule. "
        "closea (twenty-second session): still so; test_job_form_matrix.py's user rows send no reassignUser (a "
        "reassignUser beside an individual job's user is the reassign rows' premise, not the user form's)",
}
"""Faults the suites did not catch when measured (before the fixes), with why they were not closed."""

BLIND_round37, BLIND_round37_MISSED = split_missed(_ALL, _MISSED_REASONS)
