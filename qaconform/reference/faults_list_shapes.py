"""Planted faults of a list in one shape only (issue 44, lists): each breaks one rule judged on a page, on one list,
only when the page has one shape relative to its list and pageSize: the list empty, shorter than a page, exactly one
full page, longer than a page (its last page short), or a page past the end.

Why: ten blind rounds kept finding a rule broken only where the list has a shape the run never read (an empty
follower list, a last page that is short, a page past the end). A server's paging code has its branches there: the
empty-list serializer, ``total // size + 1``, a clamp of the page number. Each entry names the one rule it breaks and
quotes the sentence; :mod:`shape_faults` rewrites the JSON body the list handler made (wired through
:mod:`response_faults`, the one place list bodies are rewritten), so the handlers carry none of them.
"""

from __future__ import annotations

from .fault_model import Fault

LIST_SHAPES: tuple[Fault, ...] = (
    Fault("shapes-user-questions-empty-sorts-missing", "PAGING-SORTS-QUESTIONS",
          "a user's question list with no questions carries no sorts array (the empty-list serializer of that list);"
          " 'sorts | array of strings | Present on question and comment lists.'"),
    Fault("shapes-followers-empty-totalcount-one", "PAGING-TOTALCOUNT-UNION",
          "the follower list of a node no one follows, in the default mode (no details), reports totalCount 1 (the"
          " count query's COUNT(*) over an outer join counts the node's own row); '| totalCount | integer | Total"
          " number of items. |'"),
    Fault("shapes-groups-past-end-totalcount-zero", "PAGING-TOTALCOUNT-UNION",
          "the group list asked for a page past its last reports totalCount 0 and pageCount 0 (the count is taken"
          " over the page's window, not the list); '| totalCount | integer | Total number of items. |'"),
    Fault("shapes-spaces-exact-page-pagecount-two", "PAGING-PAGECOUNT",
          "the space list whose items exactly fill the one page asked for (totalCount == pageSize > 1) reports"
          " pageCount 2 (total // size + 1); '| pageCount | integer | Total number of pages. |'"),
    Fault("shapes-topics-last-short-page-echo-previous", "PAGING-PAGE-ECHO",
          "the topic list's last page, when it is shorter than pageSize and not the first, reports the page before"
          " it (the page number derived from the offset of the last full page); '| page | integer | Current page.'"),
    Fault("shapes-active-experts-short-page-formatted-day-first", "SHAPE-DATE-FORMATTED",
          "the active-expert list asked for a pageSize larger than the whole list (one short page) formats"
          " creationDateFormatted day first (the single-page query's own row mapper); 'Pattern MM/DD/YYYY hh:mm AM"
          " or PM.'"),
    Fault("shapes-followers-default-users-untyped-on-last-page", "LIST-ITEM-TYPE",
          "in the default mode (User items), the follower list's last page, when it is not the first and shorter"
          " than pageSize, serves its users without their type (the tail page's own query); 'Response: 200, paged"
          " list (default-mode items are User items).'"),
)
"""The faults of this area, registered in their own block of :mod:`faults`."""
