"""Planted faults of the ninth blind round (issue 44, blind9): one fault on each of fifteen must-rules drawn at random,
each on one path a real server could get wrong while passing the obvious tests (one account, one parameter
combination or value form, one node kind or state, one order of calls). Written from the interface description
alone; where each bites is :mod:`blind_round9` (and one line in the handler that owns the state it needs). Part of
the registry (:mod:`faults`).
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
BLIND_ROUND9: tuple[Fault, ...] = (
    # "includeOnly takes a comma-separated list of field names and limits the returned items to those fields"
    _F("blind9-followers-details-projects-nested-user", "PROJ-INCLUDEONLY",
       "with details=true the follower list applies includeOnly to each relation's user, not to the relation items"),
    # "| 5, 6 Experts | USE API role and View User's Profile (Anonymous Roles). |"
    _F("blind9-earned-experts-name-sort-admin-only", "PERM-EXPERTS",
       "the earned expert list sorted by username or realname refuses (403) every caller without Edit users and"
       " groups: the name-sorted query goes through the user-administration search"),
    # "Caller has Answer questions and Publish answer | Published"
    _F("blind9-second-answer-same-question-moderated", "ANSWER-PUBLISHED",
       "an answer by a caller who already has a published answer on the question goes to moderation (a duplicate"
       " guard), although the caller holds Publish answer"),
    # "spaceId (integer; restricts to one space)"
    _F("blind9-spaceid-ignored-for-anonymous", "FILTER-SPACEID",
       "the question list's anonymous fast path is built from paging and sort only: spaceId is ignored for a"
       " caller who did not sign in"),
    # "| page | integer | Current page."
    _F("blind9-spaces-page-clamped-by-default-size", "PAGING-PAGE-ECHO",
       "the space list reports page min(page, pageCount at the default page size): with a small pageSize a later"
       " page within pageCount reports an earlier page"),
    # "{error: The provided 'reassignUser' is/are invalid}"
    _F("blind9-reassign-checked-only-with-delete", "GDPR-REASSIGN-INVALID",
       "reassignUser is looked up only when operations hold delete (content is reassigned only then): with"
       " suspend, anonymize or anon-delete alone an unknown reassignUser is accepted"),
    # "Returns the favorite action with canceled true and the updated favoriteCount."
    _F("blind9-unfavorite-count-zero-falls-back", "ACTION-UNFAVORITE-COUNT",
       "the updated favoriteCount is read as `new or old`: when the last favorite goes the response reports the"
       " count before the update"),
    # "{error: There is a job already scheduled for that time frame.}"
    _F("blind9-time-frame-keyed-by-user-form", "GDPR-TIME-FRAME",
       "the time frame is looked up per user as written in the request: a second job for the same user named"
       " another way (id, email, username) in a taken frame is accepted"),
    # blind9-reassign-string-id-not-counted (GDPR-REASSIGN-AMBIGUOUS) removed after phase 1: the string form of a
    # reassignUser id is not stated (notes/s5/blind-round9.md)
    # "| 1 Post comment | Comment (Other Standard Roles); View answers in the question page and View the question
    #  page (Anonymous Roles)."
    _F("blind9-reply-needs-private-comments", "PERM-COMMENT",
       "a comment on a comment (a reply) goes through the thread code that checks Use Private Comments: a caller"
       " with Comment but without it (novice) is refused 403 on a public reply"),
    # "Sort criterion in effect"
    _F("blind9-active-experts-recent-echoed-newest", "PAGING-SORT-ECHO",
       "the active expert list sorted by recent reports the internal sort name newest in the envelope"),
    # "paged list envelope with Node items of type question"
    _F("blind9-user-questions-wiki-typed-kbentry", "LIST-ITEM-TYPE",
       "a user's question list types a community-wiki question kbentry (the wiki serializer's type)"),
    # "Favorites are per user; the user is taken from the credentials."
    _F("blind9-unfavorite-node-flag-cleared", "ACTION-UNFAVORITE-PER-USER",
       "after one account unfavorites a node, the node is flagged as nobody's favorite: another account that still"
       " holds it is answered 404 (not a favorite)"),
    # "each body field may also be given as a request or query parameter of the same name"
    _F("blind9-comment-params-need-content-type", "CONV-PARAM-AS-BODY-FIELD",
       "a comment posted with its fields as query parameters and no Content-Type (no body) ignores the parameters:"
       " they are merged only in the body parser's branch"),
    # "Requests are authenticated with HTTP Basic authentication (username and password, sent as
    #  <USERNAME>:<PASSWORD>)."
    _F("blind9-spaces-password-truncated-16", "AUTH-BASIC",
       "the space list's authentication filter cuts the password to 16 characters before verifying it: an account"
       " whose password is longer is refused 401 there"),
)
