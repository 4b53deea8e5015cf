"""Planted faults of a blind round on the site's catalog (issue 44, blindc): users and their lists, experts, groups,
spaces, topics, data-protection jobs and a user's content, and the issue types. Written from the interface
description and the reference server's code alone, before reading the suites, the way an outside team plants faults
in an independently written server. Each breaks ONE stated rule on ONE path (one parameter, one reader, one node
state, one input form, one id form, one list) and is wired with ``faults.is_on("name")`` where it bites
(node_lists.py, site_lists.py, gdpr_jobs.py). Part of the registry (:mod:`faults`).

Every entry quotes, in its comment, the sentence of interface-v2.md it breaks: the rule is stated there, so a server
doing this is wrong whatever the suites check.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

_F = Fault
BLIND_CATALOG: tuple[Fault, ...] = (
    # --- a user's lists (4, 15) and the user items of other lists
    # "15 ... List questions posted by a user" (Path parameter: userId): the newest-first query is a second
    # repository method that takes the user from the session, not from the path.
    _F("blindc-user-questions-newest-lists-caller", "LIST-USER-QUESTIONS-OWNER",
       "a user's question list asked with sort=newest lists the caller's questions, not the path user's"),
    # "originalParentId | integer | Present on answers and comments.": the accepted answer of a question is
    # rendered from the accepted-answer join, which has no parent column.
    _F("blindc-user-answers-accepted-no-original-parent", "NODE-ORIGINAL-PARENT-ID",
       "in a user's answer list an accepted answer (marked true) has originalParentId null"),
    # "groups | array of object | Each has id (string), ...": the follower list's projected items are rendered by
    # the generic serializer, which keeps the group id as the database integer.
    _F("blindc-followers-projected-group-id-int", "SHAPE-LIST-NODE-FOLLOWERS",
       "a follower list asked with include, exclude or includeOnly gives each user's groups an integer id"),
    # "401 | Expert lists | Missing or bad credentials | ...": the paged branch of the earned-expert list is served
    # by a controller mapped without the security filter.
    _F("blindc-earned-experts-anonymous-when-sized", "EXPERTS-401",
       "the earned-expert list asked with pageSize answers an anonymous caller 200 (without pageSize: 401)",
       (Override(("listEarnedExperts",), "anonymous", Effect.ALLOW, when=("pageSize",)),)),
    # --- groups (17)
    # "pageSize | integer | Items per page.": the group list reports the size of the page it served.
    _F("blindc-group-pagesize-echo-items", "PAGING-PAGESIZE-ECHO",
       "the group list reports pageSize equal to the number of items served (the last or only page says less)"),
    # --- spaces (9)
    # "Only spaces for which the caller has View the questions list appear." with "totalCount | Total number of
    # items.": the count query has no per-space filter.
    _F("blindc-spaces-totalcount-counts-hidden", "PAGING-TOTALCOUNT-UNION",
       "the space list's totalCount (and pageCount) counts the spaces hidden from the caller; the items omit them"),
    # --- topics (14)
    # "Paging parameters: page (integer, default 1), pageSize (...)": the search branch of the topic list computes
    # its offset with the configured page size.
    _F("blindc-topics-search-offset-default-size", "PAGING-TOTALCOUNT-UNION",
       "the topic list asked with q starts page N at (N - 1) x the default page size, whatever pageSize says"),
    # --- data-protection jobs (2)
    # "scheduleDate | object | Either formatted (string, pattern month/day/year hour:minute in 24-hour form ...)":
    # parsed with a 12-hour clock pattern.
    _F("blindc-gdpr-formatted-hour-12h", "GDPR-DATE-FORMATTED",
       "scheduleDate.formatted is parsed with a 12-hour clock: hours 00 and 13 to 23 are refused as invalid, "
       "12 is read as 00"),
    # "operations | array of string | At least one and at most 4 elements": the count is taken after removing
    # repeated names.
    _F("blindc-gdpr-operations-deduped-before-count", "GDPR-OPERATIONS-INVALID",
       "an operations list of more than 4 elements is taken when it holds repeats (counted after de-duplication)"),
    # --- a user's content (8)
    # "422 | User content query | Invalid user id | {error: Invalid User Id}": an id too large for a 64-bit
    # integer reaches the database.
    _F("blindc-usercontent-huge-id-500", "GDPR-CONTENT-422",
       "a user content query with an id of 19 digits or more fails with 500 (integer overflow), not 422"),
    # "actionDate | string | Pattern YYYY-MM-DD HH:MM:SS.S." of a User content entry: comments' entries come from
    # the comment table, whose date is serialized in ISO form.
    _F("blindc-content-comment-actiondate-iso", "SHAPE-CONTENT-ACTIONDATE",
       "in a user's content list the entries of comments (actionType commented) have an ISO actionDate"),
    # --- issue types (19)
    # "Response: 200, a JSON array of objects with name (string).": a paging parameter routes the request through
    # the generic list controller.
    _F("blindc-issuetypes-enveloped-when-paged", "LIST-ARRAY-ISSUETYPES",
       "the issue-type list asked with page or pageSize is wrapped in the paged envelope"),
)
"""Blind round on the catalog (blindc): each breaks one rule on one path. Three of the fifteen are out of the
registry (code and why in /work/notes/s4/blind-catalog.md, docs/blind-rounds.md): a time frame keyed apart per date
form (which instant a formatted date names depends on the site's time zone, not stated), and two twins of the edges
round's faults written at the same time (blinde-gdpr-reassign-agreeing-pair-taken,
blinde-groups-invalid-sort-newest-when-sized), which stay."""
