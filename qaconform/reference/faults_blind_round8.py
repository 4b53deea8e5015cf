"""Planted faults of the eighth blind round (issue 44, blind8), written from the description alone on rules that had
only two planted faults each: each breaks one stated rule on one path only (one account, one relation, one input
form, one node kind, one state, one page, one parameter combination). Part of the registry (:mod:`faults`); the code
that bites is in :mod:`blind8_paths`, reached from one line in each handler (or the dispatch's hooks before and after
a handler), so a handler carries one line per fault.

The quoted sentence of interface-v2.md each one breaks is in its description."""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

_F = Fault
BLIND8: tuple[Fault, ...] = (
    # --- conventions: parameters and body fields
    _F("blind8-reply-json-body-wins-over-param", "CONV-PARAM-WINS-COMMENT",
       "on a reply (the node commented on is a comment) with a JSON body, the body's 'body' wins over the body"
       " parameter (the reply branch re-reads the JSON body); 'When both are given, the parameter wins.'"),
    # --- sorts
    _F("blind8-topics-invalid-sort-later-pages-newest", "SORT-FALLBACK-TOPICS",
       "with an invalid sort name the topic list falls back to the default on page 1 only; later pages are read"
       " newest first (the paged query's own default); 'On the space, topic and group lists an invalid sort name"
       " makes the request fall back to the default sort.'"),
    _F("blind8-earned-experts-recent-refused", "SORT-EXPERTS-VALUES",
       "the earned expert list refuses sort=recent with 400 (its sort table was copied from an older version); 'sort"
       " must be one of reputation, username, realname, recent, oldest, default'"),
    # --- envelope and shapes
    _F("blind8-follower-relations-envelope-no-sort", "PAGING-ENVELOPE",
       "the follower list with details=true returns an envelope without its sort field (the relation serializer"
       " builds its own envelope); 'Every list endpoint returns this object.'"),
    _F("blind8-spaces-admin-locale-null", "SHAPE-LIST-SPACES",
       "listed to admin, a space without a locale carries locale null (the administrators' view writes every"
       " configured field); '| locale | string | Optional. |' and 'Response: 200, paged list of Space items.'"),
    # --- permissions of the writes
    _F("blind8-anonymous-form-comment-redirected", "PERM-DENIED-STATUS",
       "an anonymous comment posted as a form-encoded body (a browser's form) is refused with 302 to a login page"
       " instead of a 4xx; 'Every operation requires the permissions below.'"),
    # --- data-protection jobs
    _F("blind8-gdpr-csv-string-unchecked", "GDPR-CSV-MISSING",
       "a csvFileId given as a string (a JSON string, a request parameter or a form field) is not looked up: a file"
       " that does not exist is accepted; '{error: The requested file does not exist}'"),
    # --- answers
    _F("blind8-answer-own-question-no-parent-author", "ANSWER-PARENT-FIELDS",
       "an answer to the caller's own question carries no parentAuthor (the field is filled by the code that notifies"
       " the question's author, skipped for oneself); 'parentAuthor ... Present on a newly posted answer.'"),
    _F("blind8-novice-second-pending-answer-409", "ANSWER-MODERATION",
       "a caller without Publish answer who already has an answer in moderation under the question gets 409 for the"
       " next one; 'Caller has Answer questions but not Publish answer | In the moderation queue | Answer is"
       " created.'"),
    # --- comments and permissions of lists
    _F("blind8-comment-option-param-unchecked", "COMMENT-7-NO-OPTION-PERMISSION",
       "visibility given as a request parameter is checked for Use Private Comments only, not for the option's own"
       " permission (member posts 'to own groups'); 'or lacks the permission for that option, gives 403.'"),
    _F("blind8-topics-search-refused-novice", "PERM-TOPICS",
       "the topic list with q (a search) is refused to novice; '| 14 Topics | View users list (Anonymous Roles). |'",
       (Override(("listTopics",), "novice", Effect.DENY, when=("q",)),)),
)
"""The faults of blind round 8 kept in the registry (11 of the 15 written), in the order of the description's parts;
the four no test can catch within the description and the write budget are in /work/notes/s5/blind-round8.md."""
