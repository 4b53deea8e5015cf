"""Planted faults of what the lists answer: envelope and paging, the circumstances of a list (page, size, sort,
parameters, read order), a list's permission and visibility, projection, sorts, filters, shapes and dates. Part of
the registry (:mod:`faults`): each entry breaks one rule, wired with ``faults.is_on("name")`` where it bites."""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, allow

_allow = allow  # the registry's short names
_F = Fault
READS: tuple[Fault, ...] = (
    # --- envelope and paging (listing.py, pages.py, node_lists.py)
    _F("envelope-listcount-wrong", "PAGING-LISTCOUNT", "listCount is one more than the items in the page"),
    _F("envelope-pagecount-floor", "PAGING-PAGECOUNT", "pageCount is totalCount / pageSize rounded down"),
    _F("envelope-default-page-zero", "PAGING-DEFAULT-PAGE", "a list asked without page reports page 0"),
    _F("envelope-page-always-one", "PAGING-PAGE-ECHO", "the envelope reports page 1 whatever page was served"),
    _F("envelope-pagesize-max", "PAGING-PAGESIZE-ECHO", "the envelope reports pageSize 1000, not the size used"),
    _F("envelope-name-missing", "PAGING-ENVELOPE", "the envelope has no name field"),
    _F("paging-pages-overlap", "PAGING-TOTALCOUNT-UNION", "page N > 1 starts one item early (overlap)"),
    _F("question-list-no-sorts", "PAGING-SORTS-QUESTIONS", "question lists carry no sorts array"),
    _F("comment-list-no-sorts", "PAGING-SORTS-COMMENTS", "the comment list of an answer carries no sorts array"),
    # --- ... only in some circumstances: a later page, another page size, a sort given (listing.py, *_lists.py)
    _F("listcount-full-on-last-page", "PAGING-LISTCOUNT", "on the last page (page > 1) listCount reports pageSize"),
    _F("pagecount-floor-on-later-pages", "PAGING-PAGECOUNT", "pages after the first report pageCount rounded down"),
    _F("page-echo-off-by-one-from-3", "PAGING-PAGE-ECHO", "page 3 and later report page N - 1"),
    _F("includeonly-ignored-after-page-1", "PROJ-INCLUDEONLY", "includeOnly is applied on page 1 only"),
    _F("user-answers-others-on-later-pages", "LIST-USER-ANSWERS-OWNER",
       "a user's answer list holds everyone's answers from page 2 on"),
    _F("user-questions-others-on-later-pages", "LIST-USER-QUESTIONS-OWNER",
       "a user's question list holds everyone's questions from page 2 on"),
    _F("spaceid-ignored-with-sort", "FILTER-SPACEID", "spaceId is ignored when a sort is given too"),
    _F("followers-default-items-include-inactive", "FOLLOWERS-ACTIVE-DEFAULT",
       "without active the follower items include inactive relations (totalCount still counts active ones)"),
    _F("experts-sort-echo-default", "PAGING-SORT-ECHO", "the expert lists' envelope says reputation whatever sort"),
    _F("experts-sort-echo-page-1", "PAGING-SORT-ECHO", "the expert lists' envelope says reputation from page 2 on"),
    # --- ... only on a path the metamorphic relations of the list suite take (suites/contract/test_list_relations.py):
    #     another page size, a sort with ties, a filter, a projection, a later page
    _F("ties-reordered-per-request", "PAGING-TOTALCOUNT-UNION",
       "question lists order the ties of a sort anew on every request, so pages of one walk repeat and skip items"),
    _F("keyset-skips-ties-at-page-boundary", "PAGING-TOTALCOUNT-UNION",
       "the page after a remembered position starts after every item tied with it (> instead of >=): tied items "
       "at a page boundary are never listed"),
    _F("hidden-space-questions-above-page-size-50", "PAGING-SAME-ITEMS",
       "with pageSize above 50 the question list (items and count) forgets the spaces hidden from the caller"),
    _F("totalcount-ignores-spaceid", "PAGING-TOTALCOUNT-UNION",
       "with spaceId the question list's totalCount counts every space's questions (the items obey the filter)"),
    _F("totalcount-ignores-unanswered", "PAGING-TOTALCOUNT-UNION",
       "with unanswered=true the question list's totalCount counts answered questions too"),
    _F("pagecount-ignores-topics", "PAGING-PAGECOUNT",
       "with topics the question list's pageCount is that of the list without the filter"),
    _F("followers-count-ignores-active-false", "PAGING-TOTALCOUNT-UNION",
       "with active=false the follower list's totalCount counts only the active relations it lists"),
    _F("projection-orders-by-id", "PROJ-SAME-ITEMS",
       "a node list asked with includeOnly or exclude lists the page's items by id, not in the sort's order"),
    _F("exclude-shows-hidden-space-questions", "PROJ-ONLY-VISIBLE",
       "a question list asked with exclude lists the questions of spaces hidden from the caller"),
    # --- ... only in one combination of the circumstances a list takes (issue 33: suites/contract/test_matrix.py
    #     crosses reader x list x optional parameters pairwise)
    _F("search-shows-hidden-items", "PROJ-ONLY-VISIBLE",
       "a question list asked with q (a search text) lists the matching questions of spaces hidden from the caller"),
    _F("listcount-wrong-with-include", "PAGING-LISTCOUNT",
       "a list asked with include or exclude reports listCount one more than the items in the page"),
    _F("sort-echo-wrong-on-one-expert-list", "PAGING-SORT-ECHO",
       "the earned-experts list asked with a sort but no pageSize reports sort reputation, not the sort in effect"),
    _F("includeonly-ignored-with-three-fields", "PROJ-INCLUDEONLY",
       "includeOnly naming three fields or more is ignored (items keep every field)"),
    _F("comment-private-leaks-with-includeonly", "COMMENT-PRIVACY-LIST",
       "an answer's comment list asked with includeOnly shows private comments to every caller"),
    _F("comment-private-leaks-with-sort", "COMMENT-PRIVACY-LIST",
       "an answer's comment list asked with a sort shows private comments to every caller"),
    _F("commentids-private-leak-when-projected", "COMMENT-PRIVACY-IDS",
       "in a node list asked with includeOnly or exclude, commentIds and childrenIds list private comments"),
    _F("spaceid-ignored-above-page-size-50", "FILTER-SPACEID", "spaceId is ignored when pageSize is above 50"),
    _F("user-answers-any-author-when-sorted", "LIST-USER-ANSWERS-OWNER",
       "a user's answer list asked with a sort holds everyone's answers"),
    _F("followers-inactive-on-later-pages", "FOLLOWERS-ACTIVE-DEFAULT",
       "without active=false the follower list shows inactive relations too after its first page"),
    # --- ... only for one kind of node or one relation of the caller to it (issue 33: suites/contract/
    #     test_action_matrix.py crosses caller x node kind x node state pairwise; actions.py)
    _F("lock-own-decided-by-parent-on-comments", "PERM-LOCK-OWN",
       "the own-node check of a lock on a comment looks at the author of the node the comment is under, not the "
       "comment's (answers and questions are judged right)"),
    _F("sendtomod-granted-to-own-node", "PERM-SENDTOMOD",
       "send to moderation is granted to a node's author without the permission, as if it had an own-node clause",
       _allow("signed-in", "sendToModeration")),
    _F("lock-extra-dropped-on-comments", "ACTION-LOCK-EXTRA",
       "a lock of a comment returns extra null, not the prompt (answers and questions keep it)"),
    # --- lists: a permission or visibility decided differently once an optional parameter is given, or by the
    #     order of reads (issue 44; suites/contract/test_list_access.py crosses every list permission with every
    #     stated parameter and a privileged read of the same URL right before)
    _F("groups-projection-open", "PERM-GROUPS",
       "the group list answers any signed-in caller 200 (items included) when include, exclude or includeOnly is "
       "given", (Override(("listGroups",), "signed-in", Effect.ALLOW, when=("include", "exclude", "includeOnly")),)),
    _F("experts-sort-open", "PERM-EXPERTS",
       "the active-experts list serves a caller without credentials when sort or pageSize is given",
       (Override(("listActiveExperts",), "anonymous", Effect.ALLOW, when=("sort", "pageSize")),)),
    _F("followers-own-params-closed", "PERM-FOLLOWERS",
       "the follower list refuses member and novice (403) when details or active is given",
       (Override(("listNodeFollowers",), "member", Effect.DENY, when=("details", "active")),
        Override(("listNodeFollowers",), "novice", Effect.DENY, when=("details", "active")))),
    _F("answer-comments-wrap-closed", "PERM-ANSWER-COMMENTS",
       "an answer's comment list refuses novice (403) when wrap or v1 is given",
       (Override(("listAnswerComments",), "novice", Effect.DENY, when=("wrap", "v1")),)),
    _F("user-questions-cache-by-url", "PROJ-ONLY-VISIBLE",
       "a user's question list is kept a second by URL and served to whoever asks next (novice right after admin is "
       "shown the user's question in the space hidden from it)"),
    _F("spaces-cache-by-url", "PERM-SPACES-PER-SPACE",
       "the space list's response is kept a second by URL and served to whoever asks next (a novice right after "
       "admin is shown the hidden space)"),
    _F("questions-cache-by-url", "PROJ-ONLY-VISIBLE",
       "the question list's response to a request with parameters is kept a second by URL and served to whoever "
       "asks next (novice right after admin is shown the questions of the space hidden from it)"),
    _F("user-answer-count-cached", "PAGING-TOTALCOUNT-UNION",
       "a user's answer list reports the totalCount it counted for that user and caller up to 3 s ago (an answer "
       "posted since is listed, not counted)"),
    # --- a site closed to anonymous (no Anonymous Roles; the written profile says so in [lacks]) that still
    #     serves anonymous one read (auth.py; overrides of the route table): the deny half of the read permissions
    _F("closed-site-questions-open", "PERM-LIST-QUESTIONS", "on a site closed to anonymous, anonymous still lists "
       "questions",
       _allow("anonymous", "listQuestions")),
    _F("closed-site-user-answers-open", "PERM-USER-ANSWERS", "on a site closed to anonymous, anonymous still lists "
       "a user's answers",
       _allow("anonymous", "listUserAnswers")),
    _F("closed-site-spaces-open", "PERM-SPACES", "on a site closed to anonymous, anonymous still lists spaces",
       _allow("anonymous", "listSpaces")),
    _F("closed-site-topics-open", "PERM-TOPICS", "on a site closed to anonymous, anonymous still lists topics",
       _allow("anonymous", "listTopics")),
    _F("closed-site-user-questions-open", "PERM-USER-QUESTIONS", "on a site closed to anonymous, anonymous still "
       "lists a user's questions",
       _allow("anonymous", "listUserQuestions")),
    _F("closed-site-followers-open", "PERM-FOLLOWERS", "on a site closed to anonymous, anonymous still lists a "
       "node's followers",
       _allow("anonymous", "listNodeFollowers")),
    _F("closed-site-answer-comments-open", "PERM-ANSWER-COMMENTS", "on a site closed to anonymous, anonymous still "
       "lists an answer's comments",
       _allow("anonymous", "listAnswerComments")),
    # --- projection, sorts, filters, list semantics (listing.py, node_lists.py, site_lists.py, app.py)
    _F("includeonly-ignored", "PROJ-INCLUDEONLY", "includeOnly is ignored: items keep every field"),
    _F("projected-spaces-show-hidden", "PROJ-ONLY-VISIBLE", "with includeOnly the space list shows hidden spaces too"),
    _F("space-invalid-sort-400", "SORT-FALLBACK-SPACES", "an unknown sort on the space list is a 400, not the default"),
    _F("topic-invalid-sort-by-name", "SORT-FALLBACK-TOPICS", "an unknown sort on the topic list sorts by name"),
    _F("group-invalid-sort-400", "SORT-FALLBACK-GROUPS", "an unknown sort on the group list is a 400, not the default"),
    _F("experts-sort-realname-refused", "SORT-EXPERTS-VALUES", "the expert lists refuse sort=realname with a 400"),
    _F("spaceid-ignored", "FILTER-SPACEID", "spaceId does not restrict the question list"),
    _F("user-questions-any-author", "LIST-USER-QUESTIONS-OWNER", "a user's question list holds everyone's questions"),
    _F("user-answers-any-author", "LIST-USER-ANSWERS-OWNER", "a user's answer list holds everyone's answers"),
    _F("issuetypes-enveloped", "LIST-ARRAY-ISSUETYPES", "the issue-type list comes in the paged envelope"),
    _F("followers-details-by-default", "FOLLOWERS-DETAILS-DEFAULT", "followers default to details=true (relations)"),
    _F("followers-inactive-by-default", "FOLLOWERS-ACTIVE-DEFAULT", "followers default to active=false"),
    _F("group-items-wrong-type", "LIST-ITEM-TYPE", "group list items have type usergroup"),
    _F("issuetypes-under-v1", "VERSION-PATH", "the issue-type list is served under /services/v1, not /services/v2"),
    _F("answer-listed-only-for-author", "ANSWER-PUBLISHED",
       "a published new answer is in its author's answer list for the author only, not for other users"),
    # --- one operation's shape each (pages.py, site_lists.py, render.py, answers.py, actions.py, gdpr_jobs.py)
    _F("question-list-score-string", "SHAPE-LIST-QUESTIONS", "question list items' score is a string"),
    _F("user-answers-viewcount-string", "SHAPE-LIST-USER-ANSWERS", "a user's answer list gives viewCount as a string"),
    _F("user-questions-answercount-string", "SHAPE-LIST-USER-QUESTIONS",
       "a user's question list gives answerCount as a string"),
    _F("answer-comments-depth-string", "SHAPE-LIST-ANSWER-COMMENTS", "comment list items give depth as a string"),
    _F("earned-experts-moderator-string", "SHAPE-LIST-EARNED-EXPERTS", "earned experts' moderator is a string"),
    _F("space-active-string", "SHAPE-LIST-SPACES", "spaces' active is the string \"true\""),
    _F("group-id-string", "SHAPE-LIST-GROUPS", "group ids are strings"),
    _F("followers-reputation-string", "SHAPE-LIST-NODE-FOLLOWERS", "followers' reputation is a string"),
    _F("issuetypes-unavailable-503", "SHAPE-LIST-ISSUE-TYPES", "the issue-type list answers 503 though it is set up"),
    _F("answer-reportcount-missing", "SHAPE-POST-ANSWER", "the posted answer has no reportCount"),
    _F("unfavorite-action-id-missing", "SHAPE-UNMARK-FAVORITE", "the favoriteAction record lacks id"),
    _F("cancelwiki-action-private-missing", "SHAPE-CANCEL-WIKI", "the wikifyAction record lacks private"),
    _F("sendtomod-action-extra-missing", "SHAPE-SEND-TO-MODERATION", "the sendToModAction record lacks extra"),
    _F("lock-action-canceled-missing", "SHAPE-LOCK-NODE", "the lockAction record lacks canceled"),
    _F("gdpr-created-200", "SHAPE-SCHEDULE-GDPR-JOB", "a scheduled data-protection job is answered 200, not 201"),
    _F("comment-privacy-fields-refused", "VERSION-PRIVATE-COMMENTS-2160",
       "the 2.16.0 server acts as an older one: a comment with visibility or recipients is a 400"),
    # --- dates and shapes (render.py, node_lists.py)
    _F("node-dates-in-seconds", "SHAPE-DATES-MILLIS", "node creationDate is epoch seconds, not milliseconds"),
    _F("date-formatted-24h", "SHAPE-DATE-FORMATTED", "creationDateFormatted is MM/DD/YYYY HH:mm without AM/PM"),
    _F("action-date-iso", "SHAPE-ACTIONDATE", "an action record's actionDate is ISO 8601 (2019-02-06T15:01:00Z)"),
    _F("content-date-no-fraction", "SHAPE-CONTENT-ACTIONDATE", "user content actionDate has no .S fraction"),
    _F("comment-original-parent-missing", "NODE-ORIGINAL-PARENT-ID",
       "comments lack originalParentId (answers have it)"),
    _F("question-never-marked", "MARKED-ACCEPTED-QUESTION", "a question with an accepted answer reads marked false"),
    _F("answer-has-title", "NODE-TITLE-ANSWERS-COMMENTS", "answers carry a title (Re: <question title>)"),
    _F("topic-usedcount-string", "SHAPE-LIST-TOPICS", "topic usedCount is a string"),
    _F("active-experts-reputation-string", "SHAPE-LIST-ACTIVE-EXPERTS", "active experts' reputation is a string"),
    _F("content-entry-canceled-missing", "SHAPE-LIST-USER-CONTENT", "user content entries lack canceled"),
    _F("issuetypes-title-not-name", "ISSUETYPES-ARRAY", "issue types carry title instead of name"),
    # --- histories (issue 44 item 5): a privacy rule a list breaks only after a state change, under a question, or
    # for the reader right after another (node_lists.py)
    _F("lock-exposes-private", "COMMENT-PRIVACY-LIST",
       "once an answer is locked, its comment list shows the private comments under it to every reader"),
    _F("question-comment-private-leak", "COMMENT-PRIVACY-CONTENT",
       "a private reply in a thread under a question (not under an answer) is in its author's content list for "
       "every reader of that list (the comment on the question itself is filtered)"),
    _F("comment-list-cache-by-url", "COMMENT-PRIVACY-LIST",
       "an answer's comment list is cached by URL for a second: the caller right after another is shown the first "
       "caller's view"),
    # --- effects, not echoes (issue 44 item 4: suites/contract/test_matrix.py, list_effects.py): a stated parameter
    #     whose echo or shape is right and whose effect is not (site_lists.py, node_lists.py)
    _F("experts-sort-echo-only", "SORT-EXPERTS-ORDER",
       "both expert lists echo the sort asked for (username, realname, recent, oldest ...) but list in the default "
       "order (by reputation)"),
    _F("earned-experts-oldest-reversed", "SORT-EXPERTS-ORDER",
       "the earned-experts list asked with sort=oldest lists the newest users first (the active experts are right)"),
    _F("spaceid-ignored-with-paging", "FILTER-SPACEID",
       "spaceId is ignored when pageSize comes with a projection (include, exclude or includeOnly)"),
    _F("followers-active-ignored", "FOLLOWERS-ACTIVE-DEFAULT",
       "active=false returns what active=true does (the active relations only) unless details=true is asked"),
    _F("followers-details-when-sorted", "FOLLOWERS-DETAILS-DEFAULT",
       "without details a follower list asked with a sort lists follower relations, as if details were true"),
    # --- a shape broken only in one combination of the stated parameters (issue 44: test_matrix.py crosses
    #     PAGING-ENVELOPE, LIST-ITEM-TYPE and SHAPE-DATES-MILLIS with them; listing.py)
    _F("envelope-totalcount-string-when-excluding", "PAGING-ENVELOPE",
       "a list asked with exclude and pageSize reports totalCount as a string"),
    _F("items-type-wrong-when-sorted-and-sized", "LIST-ITEM-TYPE",
       "a list asked with sort and pageSize gives its items type node"),
    _F("dates-seconds-on-later-sorted-pages", "SHAPE-DATES-MILLIS",
       "a later page of a sorted list gives creationDate in seconds"),
    _F("topic-invalid-sort-by-name-when-projected", "SORT-FALLBACK-TOPICS",
       "an unknown sort on the topic list sorts by name, not the default, when include, exclude or includeOnly is "
       "given"),
    # --- listcross (issue 44): a rule judged on a list's response broken in one combination of its circumstances
    #     only: a filter, a search, a projection, a reader, the request's Accept (response_faults.py)
    _F("formatted-dates-24h-when-unanswered", "SHAPE-DATE-FORMATTED",
       "the question list asked with unanswered gives creationDateFormatted as YYYY-MM-DD HH:MM"),
    _F("pagesize-echo-default-with-q", "PAGING-PAGESIZE-ECHO",
       "the question and topic lists asked with q and pageSize report the default pageSize (pageCount to match)"),
    _F("novice-space-count-one-more-unsized", "PAGING-TOTALCOUNT-UNION",
       "the space list read by novice without pageSize counts one space more than it can list (the hidden one)"),
    _F("space-active-string-on-any-accept", "SHAPE-LIST-SPACES",
       "the space list asked with an Accept other than application/json (the .json path alone selecting JSON) "
       "gives active as a string"),
    _F("earned-experts-slug-missing-when-paged-and-sorted", "SHAPE-LIST-EARNED-EXPERTS",
       "the earned-experts list asked with page and sort gives users without slug"),
    _F("follower-reputation-string-when-inactive", "SHAPE-LIST-NODE-FOLLOWERS",
       "the follower list asked with active=false (without details) gives the users' reputation as a string"),
    _F("page-echo-one-with-include", "PAGING-PAGE-ECHO", "a later page asked with include reports page 1"),
    _F("default-page-zero-with-topics", "PAGING-DEFAULT-PAGE",
       "the question list asked with topics and without page reports page 0"),
    _F("answer-title-when-sorted", "NODE-TITLE-ANSWERS-COMMENTS",
       "a user's answer list asked with a sort gives its answers a title"),
    _F("user-questions-other-author-with-exclude", "LIST-USER-QUESTIONS-OWNER",
       "a user's question list asked with exclude names another user as the questions' author"),
    _F("question-sorts-missing-with-type", "PAGING-SORTS-QUESTIONS",
       "the question list asked with type carries no sorts array"),
    _F("answer-parent-id-missing-at-page-size-1", "NODE-ORIGINAL-PARENT-ID",
       "a user's answer list asked with pageSize=1 gives answers without originalParentId"),
    _F("expert-oldest-refused-when-paged", "SORT-EXPERTS-VALUES",
       "both expert lists refuse sort=oldest with 400 when page is given too"),
    # --- commentcross (issue 44): a comment rule broken for one reader or under one option of the comment list, a
    #     Basic login refused or a rule of a list's own parameters broken in one combination only (node_lists.py,
    #     subtree_faults.py, overrides of the route table)
    _F("comment-private-to-novice-under-v1", "COMMENT-PRIVACY-LIST",
       "an answer's comment list asked with v1 shows novice the private comments under the answer"),
    _F("comment-recipients-ignored-under-wrap", "COMMENT-2",
       "an answer's comment list asked with wrap ignores recipients: every caller is shown every private comment"),
    _F("reply-privacy-dropped-under-v1", "COMMENT-3",
       "an answer's comment list asked with v1 shows every reply to a private comment to every caller, as if a reply "
       "did not inherit the private settings of the comment it answers"),
    _F("reply-own-privacy-ignored-on-any-accept", "COMMENT-5",
       "an answer's comment list asked with an Accept other than application/json shows a reply to a public comment "
       "to every caller, whatever visibility and recipients it was given"),
    _F("comment-recipients-dropped-for-admin", "COMMENT-VISIBILITY-RETURNED",
       "an answer's comment list read by admin gives private comments without recipients"),
    _F("comment-full-named-for-anonymous", "COMMENT-1",
       "an answer's comment list read without credentials gives full-visibility comments their author as recipient"),
    _F("comment-body-empty-for-admin", "COMMENT-LISTED",
       "an answer's comment list read by admin gives the full-visibility comments an empty body"),
    _F("comment-body-latin1-for-novice", "TEXT-NON-ASCII",
       "an answer's comment list read by novice gives bodies as UTF-8 bytes read as Latin-1 (mojibake)"),
    _F("spaces-basic-refused-when-projected", "AUTH-BASIC",
       "the space list answers 401 to valid Basic credentials when include, exclude or includeOnly is given",
       (Override(("listSpaces",), "signed-in", Effect.DENY_401, when=("include", "exclude", "includeOnly")),)),
    _F("groups-wrong-password-let-in-when-sorted", "AUTH-BAD-CREDENTIALS",
       "the group list asked with a sort lets a known username in with a wrong password (planted.py)"),
    _F("user-answers-404-when-sorted", "VERSION-PATH",
       "a user's answer list asked with a sort answers 404, as if no operation were served at its path"),
    _F("includeonly-keeps-score-with-spaceid", "PROJ-INCLUDEONLY",
       "the question list asked with spaceId and includeOnly gives its items score too, a field includeOnly did not "
       "name"),
    _F("followers-relations-when-inactive-asked", "FOLLOWERS-DETAILS-DEFAULT",
       "without details the follower list asked with active=false lists relations (type follow), not User items"),
)
