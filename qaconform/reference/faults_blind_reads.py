"""Planted faults of a blind round on the reads (issue 44, blindr): written from the interface description and the
reference server's code alone, by someone who had not read the suites, the way an outside team plants faults in an
independently written server. Each breaks ONE stated rule on ONE path (one parameter, one reader, one read order,
one input form, one list) and is wired with ``faults.is_on("name")`` where it bites. Part of the registry
(:mod:`faults`).

Every entry quotes, in its comment, the sentence of interface-v2.md it breaks: the rule is stated there, so a server
doing this is wrong whatever the suites check.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

_F = Fault
BLIND_READS: tuple[Fault, ...] = (
    # --- a list's permission or visibility decided differently on one path
    # "17 Groups | Edit users and groups (Site Administration Roles)": the sorted query is served by a second
    # repository method whose guard checks only that the caller signed in.
    _F("groups-open-when-sorted", "PERM-GROUPS",
       "the group list answers every signed-in caller 200 (items included) when a sort is given",
       (Override(("listGroups",), "signed-in", Effect.ALLOW, when=("sort",)),)),
    # "Only spaces for which the caller has View the questions list appear.": the legacy (wrap / v1) serializer
    # lists every space of the site, without the per-space filter (site_lists.py).
    _F("spaces-hidden-shown-with-wrap", "PERM-SPACES-PER-SPACE",
       "the space list asked with wrap or v1 lists the spaces hidden from the caller too"),
    # "Projection parameters: include, exclude, includeOnly. ... Only items the caller may see are returned.":
    # include is handled by a code path that joins the answers to their questions without the space filter
    # (node_lists.py).
    _F("user-answers-include-shows-hidden-space", "PROJ-ONLY-VISIBLE",
       "a user's answer list asked with include lists the user's answers in spaces hidden from the caller"),
    # --- caches and read order
    # "401 | Expert lists | Missing or bad credentials": a response cache in front of authentication, keyed by the
    # URL, serves the earned-experts page a signed-in caller just read to the next caller without credentials
    # (dispatch.py, response_faults.py).
    _F("earned-experts-cached-ahead-of-auth", "EXPERTS-401",
       "the earned-experts list's 200 is kept 2 s by URL ahead of the credentials check: a caller without "
       "credentials asking the same URL right after a signed-in read gets the 200"),
    # "totalCount | integer | Total number of items.": the comment count of an answer is kept 3 s per answer and
    # caller, so a comment posted since is listed but not counted (node_lists.py).
    _F("answer-comment-count-kept", "PAGING-TOTALCOUNT-UNION",
       "an answer's comment list reports the totalCount it counted for that answer and caller up to 3 s ago (a "
       "comment posted since is listed, not counted)"),
    # --- effects, not echoes
    # "sort must be one of reputation, username, realname, recent, oldest, default": the pages after the first
    # are read by a 'next page' query that forgets the ORDER BY of the sort asked (the echo stays right).
    _F("active-experts-sort-dropped-after-page-1", "SORT-EXPERTS-ORDER",
       "the active-experts list orders pages 2 and later by reputation whatever sort was asked (page 1 obeys it)"),
    # "spaceId (integer; restricts to one space)": with a search text the question list is served from a search
    # query that has no space condition (node_lists.py).
    _F("spaceid-ignored-with-search", "FILTER-SPACEID",
       "the question list asked with q and spaceId ignores spaceId (lists matching questions of every space)"),
    # "totalCount | integer | Total number of items." / "listCount | Number of items in this page": the topic
    # list's last page (page > 1) is read with LIMIT total - offset - 1, an off-by-one that drops its last item.
    _F("topics-last-page-short", "PAGING-TOTALCOUNT-UNION",
       "the topic list's last page, when it is not the first, leaves out its last item (the count still has it)"),
    # "pageSize | integer | Items per page.": a minimum page of 2 rows on the space list, while the envelope
    # echoes the pageSize asked (site_lists.py).
    _F("spaces-pagesize-one-serves-two", "PAGING-LISTCOUNT",
       "the space list asked with pageSize=1 lists two spaces (and listCount 2) while the envelope says pageSize 1"),
    # "totalCount | integer | Total number of items." with "Search parameters on question and topic lists: q":
    # the topic list counts every topic when a search text filters the items.
    _F("topics-totalcount-ignores-q", "PAGING-TOTALCOUNT-UNION",
       "the topic list asked with q reports the totalCount (and pageCount) of every topic, not of the matches"),
    # --- a list stating a field or a default wrongly in one combination
    # "details (boolean, default false) ... When details is false only follower information is returned.":
    # details is read as 'present means true', so details=false returns relations.
    _F("followers-details-false-read-as-true", "FOLLOWERS-DETAILS-DEFAULT",
       "the follower list treats details=false like details=true (any value of details returns relations)"),
    # "type | string | Always user." with "Response: 200, paged list of User items" (experts): the earned-experts
    # list takes a user's type from its staff flag, so a moderator comes out as type moderator (response_faults.py).
    _F("earned-experts-moderator-typed-by-role", "LIST-ITEM-TYPE",
       "the earned-experts list gives a moderator the item type moderator, not user (other experts keep user)"),
    # --- ids at their edges, authentication, content negotiation
    # "422 | User content query | Invalid user id | {error: Invalid User Id}": an id that names no user is not
    # looked up, so the list is just empty (node_lists.py).
    _F("usercontent-unknown-id-empty", "GDPR-CONTENT-422",
       "a user's content list for a positive id that names no user answers 200 with an empty array, not 422"),
    # "Requests are authenticated with HTTP Basic authentication" / "The acting user is taken from the
    # credentials.": on a user's question list a wrong password falls back to the anonymous caller (service.py).
    _F("bad-credentials-anonymous-on-user-questions", "AUTH-BAD-CREDENTIALS",
       "a user's question list asked with a wrong password is served as to an anonymous caller (200), not 401"),
    # "Each path ends in .json, which selects the JSON format.": the user's answer list lets an Accept header
    # that asks for HTML win over the .json extension (node_lists.py).
    _F("user-answers-html-for-browser-accept", "CONV-JSON-EXTENSION",
       "a user's answer list asked with an Accept header naming text/html answers an HTML page, not JSON"),
)
"""The blind round on the reads: 15 faults, one per kind of path (issue 44)."""
