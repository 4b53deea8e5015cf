"""Planted faults of a blind round on the edges (issue 44, blinde): parameters and their effects, paging edges,
ids at the edges the error table states, projections, wrap, content forms, dates in their stated forms and value
lists. Written from the interface description and the reference server's code alone, by someone who had not read
the suites, the way an outside team plants faults in an independently written server. Each breaks ONE stated rule
on ONE path (one list, one parameter combination, one input form, one value at an edge) and is wired with
``faults.is_on("name")`` where it bites. Part of the registry (:mod:`faults`).

Every entry quotes, in its comment, the sentence of interface-v2.md it breaks: the rule is stated there, so a server
doing this is wrong whatever the suites check. The seed data each one needs is named where it is not obvious.
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
BLIND_EDGES: tuple[Fault, ...] = (
    # --- a documented sort or filter: ignored, or keyed wrongly, on one list or with one other parameter
    # "sort must be one of reputation, username, realname, recent, oldest, default": the active list's mapping of
    # sort names to columns sends username to the display-name column (site_lists.py). The seed's active experts
    # order differently by username and by realname (user13 has an empty realname, admin is 'Ada Admin').
    _F("blinde-active-experts-username-by-realname", "SORT-EXPERTS-ORDER",
       "the active expert list asked with sort=username is ordered by realname (the earned list is right)"),
    # "spaceId (integer; restricts to one space)": the query of a later page is built from the bookmark of the
    # page before, without the space condition (node_lists.py). Space 1 holds 8 questions.
    _F("blinde-spaceid-dropped-from-page-2", "FILTER-SPACEID",
       "the question list ignores spaceId from page 2 on (page 1 obeys it)"),
    # "Invalid sort falls back to the default." (17): the paged query's DAO has its own default, newest, used when
    # pageSize is given (site_lists.py). The seed's 4 groups order differently by name and by creation date.
    _F("blinde-groups-invalid-sort-newest-when-sized", "SORT-FALLBACK-GROUPS",
       "the group list asked with an invalid sort and a pageSize is ordered newest first, not as the default"),
    # "When active is true only active relations are returned" with "active (boolean, default true)": the
    # relation query of details=true reads a missing active as "all" (site_lists.py). Node 1 has an inactive
    # follower.
    _F("blinde-followers-details-default-all", "FOLLOWERS-ACTIVE-DEFAULT",
       "the follower list with details=true and no active lists (and counts) inactive relations too"),
    # --- paging edges: an exact last page, a list shorter than a page, a count with the visibility filter
    # "pageCount | integer | Total number of pages.": ceil computed as total // size + 1 on a user's question
    # list, wrong exactly when the last page is full (node_lists.py).
    _F("blinde-user-questions-pagecount-exact", "PAGING-PAGECOUNT",
       "a user's question list reports one page too many when totalCount is a multiple of pageSize"),
    # "pageSize | integer | Items per page.": an answer's comment list that fits in one page reports the number of
    # its items as pageSize (node_lists.py). Answer 2 holds 7 comments.
    _F("blinde-comments-pagesize-shrunk-to-items", "PAGING-PAGESIZE-ECHO",
       "an answer's comment list shorter than the pageSize asked reports pageSize = the items listed"),
    # "totalCount | integer | Total number of items." with "Only items the caller may see are returned": a user's
    # answer list counts with a query that has no space filter (node_lists.py). Admin, moderator and member each
    # have one answer in the hidden space, so a novice reading their lists sees one item fewer than counted.
    _F("blinde-user-answers-count-with-hidden", "PAGING-TOTALCOUNT-UNION",
       "a user's answer list counts the user's answers in spaces hidden from the caller (the items omit them)"),
    # --- ids at the edges the error table states
    # "422 | User content query | Invalid user id | {error: Invalid User Id}": an id that is not a number is
    # refused by the path converter before the handler, with its own 400 (node_lists.py).
    _F("blinde-content-non-numeric-id-400", "GDPR-CONTENT-422",
       "a user's content list asked with a user id that is not a number answers 400 {error: userId must be a "
       "number} (ids that are numbers are right)"),
    # "400 | Schedule job | csvFileId names a file that does not exist | {error: The requested file does not
    # exist}": a falsy test takes csvFileId 0 for a missing field (gdpr_jobs.py).
    _F("blinde-gdpr-csv-zero-read-as-missing", "GDPR-CSV-MISSING",
       "a bulk job with csvFileId 0 is refused with the missing-csvFileId message, not 'The requested file does "
       "not exist'"),
    # --- projections, wrap, content form
    # "includeOnly takes a comma-separated list of field names and limits the returned items to those fields":
    # the topic search (q given) renders its items through a path that never reads includeOnly (site_lists.py).
    _F("blinde-topics-includeonly-ignored-with-q", "PROJ-INCLUDEONLY",
       "the topic list asked with q and includeOnly returns whole items"),
    # "Each path ends in .json, which selects the JSON format.": wrap on the topic list produces a JSONP-style
    # callback(...) body, still labelled application/json (site_lists.py).
    _F("blinde-topics-wrap-callback", "CONV-JSON-EXTENSION",
       "the topic list asked with wrap answers callback(<json>); (not JSON) with Content-Type application/json"),
    # "15 ... Path parameter: userId" (a user's questions): the legacy (wrap) branch takes the user from the
    # credentials instead of the path (node_lists.py).
    _F("blinde-user-questions-wrap-lists-caller", "LIST-USER-QUESTIONS-OWNER",
       "a user's question list asked with wrap lists the caller's questions, not those of the user in the path"),
    # --- dates in their stated forms, value lists in any order, two identifiers where one is allowed
    # "creationDateFormatted | string | Pattern MM/DD/YYYY hh:mm AM or PM.": the group serializer writes the
    # hour as hour % 12, so midnight and noon read 00 (render.py). The seed's groups were created at 00:00 UTC.
    _F("blinde-group-dates-hour-00", "SHAPE-DATE-FORMATTED",
       "a group's creationDateFormatted shows hour 00 (not 12) for times between 00:00 and 00:59 or 12:00 and "
       "12:59"),
    # "operations | array of string | At least one and at most 4 elements, from suspend, anonymize, delete,
    # anon-delete.": the validator compares the list with the documented order (gdpr_jobs.py).
    _F("blinde-gdpr-operations-order-checked", "GDPR-OPERATIONS-RANGE",
       "a job's operations listed in another order than suspend, anonymize, delete, anon-delete are refused as "
       "invalid"),
    # "400 | Schedule job | reassignUser identified in more than one way | {error: The request contains more than
    # one reassignUser eligible configuration}": a username and an id that name the same user are taken as one
    # (gdpr_jobs.py).
    _F("blinde-gdpr-reassign-agreeing-pair-taken", "GDPR-REASSIGN-AMBIGUOUS",
       "a reassignUser given by both username and id is accepted when the two name the same user"),
)
"""The blind round on the edges, in the order of the kinds of issue 44 it covers."""
