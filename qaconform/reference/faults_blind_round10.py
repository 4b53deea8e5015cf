"""Planted faults of the tenth blind round (issue 44, blind10): one fault on each of fifteen must-rules drawn at random
(seed 202611291810), each on one path a real server could get wrong while passing the obvious tests (one account,
one relation, one parameter combination or value, one node kind or state, one page, one depth). Written from the
interface description alone; where each bites is :mod:`blind_round10` (and one line in the comment handler). Part of
the registry (:mod:`faults`).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

_F = Fault
BLIND_ROUND10: tuple[Fault, ...] = (
    # "| originalParentId | integer | Present on answers and comments. |"
    _F("blind10-reply-originalparentid-string", "NODE-ORIGINAL-PARENT-ID",
       "an answer's comment list renders originalParentId of a reply (a comment on a comment) as a string: the"
       " thread walker carries the id it read from the reply's path"),
    # "When visibility is recipients and recipients lists ids, the comment is private to those recipients and a GET
    #  returns the given settings."
    _F("blind10-recipient-reads-empty-recipients", "COMMENT-2",
       "an answer's comment list scrubs the recipients of a recipients comment for every reader but its author (the"
       " scrub meant for other users' ids): a recipient reads recipients []"),
    # blind10-sendtomod-question-realuser-author (ACTION-SENDTOMOD-REALUSER) removed after phase 1: a default run
    # never sends a question to moderation (an accepted write no interface undoes; notes/s5/blind-round10.md)
    # "| 18 Answer's comments | View answers in the question page and View the question page (Anonymous Roles). |"
    _F("blind10-answer-comments-own-answer-novice-refused", "PERM-ANSWER-COMMENTS",
       "the comments of an answer the caller wrote go through the author's dashboard, which needs Publish answer:"
       " novice is refused (403) on its own answers' comments"),
    # "| 17 Groups | Edit users and groups (Site Administration Roles). |"
    _F("blind10-groups-pagesize-moderator-let-in", "PERM-GROUPS",
       "the group list with pageSize given goes through the paged directory route, which lets a moderator in",
       (Override(("listGroups",), "moderator", Effect.ALLOW, when=("pageSize",)),)),
    # "Sort criterion in effect"
    _F("blind10-earned-experts-later-page-echo-default", "PAGING-SORT-ECHO",
       "the earned expert list reports the configured default sort (reputation) in the envelope of every page after"
       " the first, whatever sort was asked"),
    # "Present on question and comment lists."
    _F("blind10-questions-spaceid-no-sorts", "PAGING-SORTS-QUESTIONS",
       "the question list restricted to one space (spaceId) is built by the space browser's envelope, without sorts"),
    # "used by a caller who lacks the permission to use private comments, or lacks the permission for that option,
    #  gives 403."
    _F("blind10-option-permission-skipped-public-reply", "COMMENT-7-NO-OPTION-PERMISSION",
       "a reply to a public comment checks Use Private Comments but not the option's own permission: member may"
       " send a reply to own groups"),
    # "Response: 200 with {success: boolean, result: {favoriteAction: <Action record>, favoriteCount: integer}}."
    _F("blind10-unfavorite-last-favorite-no-action", "SHAPE-UNMARK-FAVORITE",
       "when the last favorite of a node goes (favoriteCount 0) the result lacks favoriteAction: the record is"
       " joined through the node's remaining favorites"),
    # "Either JSON {errors: {message: <text saying the caller lacks permission and should log in as another user>}}
    #  or an HTML error page titled HTTP Status 401 - Bad credentials"
    _F("blind10-earned-experts-unknown-user-404", "EXPERTS-401",
       "the earned expert list looks the Basic user up before verifying: a username that does not exist is answered"
       " 404 (no such user) instead of 401"),
    # blind10-novice-answer-child-space-500 (ANSWER-MODERATION) removed after phase 1: the reference seed holds no
    # question of the profile's accounts in a nested space to answer (notes/s5/blind-round10.md)
    # "| totalCount | integer | Total number of items. |"
    _F("blind10-topics-sorted-page-offset-back-one", "PAGING-TOTALCOUNT-UNION",
       "the topic list with a sort given computes the offset of pages after the first one item short: each such page"
       " repeats the previous page's last topic and the last topic is never listed"),
    # "Response: 200, paged list of User items. Errors: 401."
    _F("blind10-earned-experts-username-sort-reputation-string", "SHAPE-LIST-EARNED-EXPERTS",
       "the earned expert list sorted by username gives each user's reputation as a string (the name-sorted query"
       " reads it from a text index)"),
    # "Returns an action record with verb sent and private true."
    _F("blind10-sendtomod-locked-node-verb-locked", "ACTION-SENDTOMOD-VERB",
       "sending a locked node to moderation returns a record whose verb is the node's lock verb (locked): the verb"
       " is read from the node's status"),
    # blind10-unfavorite-answer-count-of-question (ACTION-UNFAVORITE-COUNT) removed after phase 1: the seed holds no
    # favorite on an answer or comment, and the interface cannot mark one (notes/s5/blind-round10.md)
)
