"""Planted faults of the blind round on read paths (issue 44, blind6), written from the description alone: each
breaks one stated rule on one path only (one parameter or combination, one value form, one node kind or state, one
order of reads). Part of the registry (:mod:`faults`); each is wired with ``faults.is_on("name")`` where it bites,
and the few that rewrite a served page do it through :mod:`blind6_reads`, so the handlers carry one line each.

The quoted sentence of interface-v2.md each one breaks is in its description."""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
BLIND6: tuple[Fault, ...] = (
    _F("blind6-spaceid-child-adds-parent-space", "FILTER-SPACEID",
       "spaceId naming a child space also lists the questions of its parent space (the filter compares against the"
       " wrong node of the space tree); 'spaceId (integer; restricts to one space)'"),
    _F("blind6-user-answers-projected-by-question-author", "LIST-USER-ANSWERS-OWNER",
       "with includeOnly, a user's answer list also holds the answers others wrote to that user's questions (the"
       " projected query joins the question's author); 'List answers posted by a user'"),
    _F("blind6-includeonly-single-field-ignored", "PROJ-INCLUDEONLY",
       "includeOnly naming one field (no comma) is ignored: the parser splits only a list; 'includeOnly takes a"
       " comma-separated list of field names and limits the returned items to those fields'"),
    _F("blind6-projected-named-hidden-space", "PROJ-ONLY-VISIBLE",
       "the question list with includeOnly and a spaceId trusts the named space: a novice asking for the hidden"
       " space by id gets its questions; 'Only items the caller may see are returned.'"),
    _F("blind6-follower-relations-page-overfull", "PAGING-LISTCOUNT",
       "with details=true the follower list reads pageSize + 1 relations (to know whether a next page exists) and"
       " serves them all; '| pageSize | integer | Items per page. |'"),
    _F("blind6-topics-search-default-page-zero", "PAGING-DEFAULT-PAGE",
       "the topic list with q and no page reports page 0 (the search branch counts pages from 0);"
       " 'Current page. The default is 1.'"),
    _F("blind6-earned-experts-pagecount-default-size", "PAGING-PAGECOUNT",
       "the earned-expert list with a pageSize reports pageCount computed with the system page size;"
       " '| pageCount | integer | Total number of pages. |'"),
    _F("blind6-child-space-date-seconds", "SHAPE-DATES-MILLIS",
       "spaces with a parent (migrated from the old space tree) carry creationDate in seconds;"
       " 'Epoch milliseconds.' (Space creationDate)"),
    _F("blind6-newest-questions-unmarked", "MARKED-ACCEPTED-QUESTION",
       "the question list sorted newest reads marked from a column the newest query does not select: every"
       " question false; 'true on an accepted answer and on the question that has it.'"),
    _F("blind6-active-experts-formatted-day-first", "SHAPE-DATE-FORMATTED",
       "the active-expert list formats creationDateFormatted day first (DD/MM/YYYY, the locale of its serializer);"
       " 'Pattern MM/DD/YYYY hh:mm AM or PM.'"),
    _F("blind6-reply-typed-ideacomment", "LIST-ITEM-TYPE",
       "in an answer's comment list, replies (comments whose parent is a comment) carry type ideacomment;"
       " 'paged list of Node items of type comment'"),
    _F("blind6-auth-cache-by-username", "AUTH-BAD-CREDENTIALS",
       "the credentials cache is keyed by the username: once an account has logged in, a wrong password for it is"
       " accepted; '| 401 | Expert lists | Missing or bad credentials |'"),
    _F("blind6-issuetypes-repeated-name-null", "ISSUETYPES-ARRAY",
       "an issue type whose name repeats an earlier one is served with name null (a de-duplicating map);"
       " 'Object with name (string).'"),
    _F("blind6-empty-comment-list-no-sorts", "PAGING-SORTS-COMMENTS",
       "the comment list of an answer with no comments carries no sorts array (the empty-list serializer);"
       " 'Present on question and comment lists.'"),
    _F("blind6-locked-answer-comments-denied", "PERM-ANSWER-COMMENTS",
       "the comment list of a locked answer (or of an answer of a locked question) is refused to callers without"
       " Lock comments on posts; '| 18 Answer's comments | View answers in the question page and View the"
       " question page (Anonymous Roles). |'"),
)

