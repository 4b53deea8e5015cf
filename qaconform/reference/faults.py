"""Planted bugs of the reference server, switched on by name.

The kit tests itself by running its suites against a reference server with exactly one fault on and checking
that the suite for the broken rule fails (architecture rule 5). Every fault lives in this registry and is checked
with :func:`is_on` at the one place in the code it breaks, so a fault costs a frozenset lookup when off.

Adding a fault is a two-line change: one ``Fault(...)`` entry below and one ``if is_on("name"):`` where it bites.
A fault that only changes who may call an operation needs no code at all: its ``overrides`` change rows of the
route table (app.py), which :mod:`access` applies when the fault is on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum


class Effect(Enum):
    """What an override does to the callers it names (:class:`Override`)."""

    ALLOW = "allow"
    """Let them in whatever the row requires."""
    DENY = "deny"
    """Refuse them though the row lets them in (401 anonymous, 403 logged in)."""
    DENY_401 = "deny-401"
    """Refuse them with 401, as if their credentials were wrong."""
    REFUSE_AS_403 = "refuse-as-403"
    """When refused, answer 403 even to an anonymous caller (who should get 401)."""
    REFUSE_PLAIN_403 = "refuse-plain-403"
    """When refused, answer 403 with the body ``{"error": ...}`` instead of ``{"errors": {"message": ...}}``."""
    REFUSE_AS_500 = "refuse-as-500"
    """When refused, fail with a server error (500)."""


@dataclass(frozen=True)
class Override:
    """A planted permission bug as a change to rows of the route table: ``effect`` for the callers ``who`` names
    (a role, ``anonymous``, ``signed-in`` for every caller who logged in, or ``everyone``) on ``operations``.
    ``at`` is the check it changes: ``enter`` (the row's permissions) or ``own`` (the check that a permission
    limited to one's own posts is used on one's own node, made once the handler knows the node)."""

    operations: tuple[str, ...]
    who: str
    effect: Effect
    at: str = "enter"

    def names(self, role: str, anonymous: bool) -> bool:
        """Whether the override applies to a caller of this role."""
        if self.who == "everyone" or self.who == role:
            return True
        return self.who == ("anonymous" if anonymous else "signed-in")


@dataclass(frozen=True)
class Fault:
    """One planted bug: its name (used on the command line), the rule id it breaks, what it does, and (for a
    bug that only changes who may call an operation) the overrides of the route table that make it."""

    name: str
    rule: str
    description: str
    overrides: tuple[Override, ...] = ()


def _allow(who: str, *operations: str, at: str = "enter") -> tuple[Override, ...]:
    return (Override(operations, who, Effect.ALLOW, at),)


def _deny(who: str, *operations: str, at: str = "enter") -> tuple[Override, ...]:
    return (Override(operations, who, Effect.DENY, at),)


_F = Fault
_ALL: tuple[Fault, ...] = (
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
    # --- comments (comments.py, render.py, node_lists.py)
    _F(
        "comment-private-leaks-in-answer-list",
        "COMMENT-PRIVACY-LIST",
        "the answer's comment list shows private comments to every caller",
    ),
    _F("comment-private-ids-leak", "COMMENT-PRIVACY-IDS", "commentIds/childrenIds list private comments to everyone"),
    _F(
        "render-cache-shared-across-callers",
        "COMMENT-PRIVACY-IDS",
        "the list path's cache keeps every node once for all callers: the first caller's childrenIds are everyone's",
    ),
    _F(
        "comment-private-in-content",
        "COMMENT-PRIVACY-CONTENT",
        "a user's content list shows that user's private comments to every caller",
    ),
    _F("comment-full-has-recipient", "COMMENT-1", "a full-visibility comment reads back with its author as recipient"),
    _F("comment-recipients-dropped", "COMMENT-2", "the recipients of a visibility=recipients comment are not stored"),
    _F("comment-reply-not-inherited", "COMMENT-3", "a reply to a private comment without fields gets full visibility"),
    _F("reply-to-reply-loses-privacy", "COMMENT-3",
       "a reply to a reply of a private comment (depth 2) gets full visibility; found only by the privacy model"),
    _F(
        "comment-reply-other-visibility-accepted",
        "COMMENT-4",
        "a reply to a private comment may set a different visibility (201)",
    ),
    _F("comment-inherited-message-wrong", "COMMENT-400-MESSAGE", "the inherited-visibility 400 has another message"),
    _F("comment-reply-to-public-refused", "COMMENT-5", "a reply to a public comment may not set its own visibility"),
    _F(
        "comment-recipients-without-visibility-accepted",
        "COMMENT-6",
        "recipients without visibility recipients are accepted (201)",
    ),
    _F(
        "comment-private-without-permission",
        "COMMENT-7-NO-PRIVATE-PERMISSION",
        "callers without Use Private Comments may post private comments",
    ),
    _F(
        "comment-option-permission-ignored",
        "COMMENT-7-NO-OPTION-PERMISSION",
        "Use Private Comments alone allows every private option",
    ),
    _F("comment-privacy-fields-absent", "COMMENT-8", "comments are returned without visibility and recipients"),
    _F(
        "comment-recipients-not-returned",
        "COMMENT-VISIBILITY-RETURNED",
        "a private comment reads back with an empty recipients list",
    ),
    _F("comment-privacy-ignored", "COMMENT-8",
       "the 2.16.0 server acts as an older one: visibility and recipients are accepted and ignored (stored full)"),
    _F("comment-recipients-first-only", "COMMENT-2", "of several recipients only the first is stored"),
    _F("comment-default-visibility-by-role", "COMMENT-1",
       "a moderator's comment without privacy fields gets visibility mod (member's gets full)"),
    _F("comment-recipients-with-mod-accepted", "COMMENT-6", "recipients are accepted with visibility mod"),
    _F("comment-reply-to-public-only-recipients", "COMMENT-5",
       "a reply to a public comment may set visibility recipients but not op or mod (400)"),
    _F("comment-private-leaks-on-later-pages", "COMMENT-PRIVACY-LIST",
       "an answer's comment list hides private comments on page 1 only"),
    _F("comment-location-missing", "COMMENT-201-LOCATION", "a created comment has no Location header"),
    _F("comment-created-200", "SHAPE-POST-COMMENT", "a created comment is answered 200, not 201"),
    _F("comment-body-optional", "COMMENT-BODY-REQUIRED", "a comment without body is created with an empty body"),
    _F("comment-on-comment-refused", "COMMENT-PARENT-KINDS", "a comment on a comment is a 404"),
    _F("comment-on-answer-unlinked", "COMMENT-LISTED", "a comment on an answer is not in its comment list"),
    # --- answers (answers.py)
    _F("answer-id-integer", "ANSWER-ID-STRING", "the posted answer's id is an integer, not a string"),
    _F("answer-plug-missing", "ANSWER-PLUG-NULL", "the posted answer has no plug field"),
    _F("answer-parent-author-missing", "ANSWER-PARENT-FIELDS", "the posted answer has no parentAuthor"),
    _F("answer-location-missing", "ANSWER-LOCATION", "a created answer has no Location header"),
    _F("answer-created-200", "ANSWER-201", "a created answer is answered 200, not 201"),
    _F("answer-body-truncated", "ANSWER-BODY-KEPT", "the answer body is cut to its first 12 characters"),
    _F(
        "answer-author-is-question-author",
        "AUTH-ACTING-USER",
        "a new answer's author is the question's author, not the caller",
    ),
    _F("answer-body-ascii-only", "ANSWER-BODY-KEPT", "non-ASCII characters of an answer body become '?'"),
    _F("answer-author-is-first-poster", "AUTH-ACTING-USER",
       "every answer's author is the first account that posted one since the server started"),
    _F("cancelwiki-stale-in-user-lists", "ACTION-CANCELWIKI-NOT-WIKI",
       "after cancelwiki a user's question and answer lists still show wiki true (the question list is right)"),
    _F("answer-publish-ignored", "PERM-ANSWER-PUBLISH", "every answer goes to moderation, even with Publish answer"),
    _F("answer-unpublished-refused", "ANSWER-MODERATION", "no Publish answer: 403 instead of moderation"),
    # --- permissions, both ways: overrides of the route table (access.py applies them), a few in handlers
    _F("groups-allowed-without-permission", "PERM-GROUPS", "any authenticated caller may list groups",
       _allow("signed-in", "listGroups")),
    _F("groups-denied-to-admin", "PERM-GROUPS", "admin (Edit users and groups) is refused the group list",
       _deny("admin", "listGroups")),
    _F("groups-denied-body-plain", "PERM-DENIED-BODY", "a denied group list has body {error} instead of {errors}",
       (Override(("listGroups",), "everyone", Effect.REFUSE_PLAIN_403),)),
    _F("comment-denied-to-novice", "PERM-COMMENT", "novice (Comment) is refused a plain comment",
       _deny("novice", "postComment")),
    _F("comment-private-denied-to-member", "PERM-COMMENT-PRIVATE", "member is refused every private option"),
    _F("comment-allowed-anonymous", "PERM-COMMENT", "anonymous callers may post comments",
       _allow("anonymous", "postComment")),
    _F("questions-denied-to-novice", "PERM-LIST-QUESTIONS", "novice is refused the question list",
       _deny("novice", "listQuestions")),
    _F("user-answers-denied-to-member", "PERM-USER-ANSWERS", "member is refused a user's answer list",
       _deny("member", "listUserAnswers")),
    _F("experts-denied-to-novice", "PERM-EXPERTS", "novice is refused the earned expert list (403)",
       _deny("novice", "listActiveExperts", "listEarnedExperts")),
    _F("answer-denied-to-member", "PERM-ANSWER", "member (Answer questions) is refused posting an answer",
       _deny("member", "postAnswer")),
    _F("answer-allowed-anonymous", "AUTH-ANONYMOUS-WRITES", "anonymous callers may post answers",
       _allow("anonymous", "postAnswer")),
    _F("spaces-denied-to-member", "PERM-SPACES", "member is refused the space list",
       _deny("member", "listSpaces")),
    _F("spaces-show-hidden", "PERM-SPACES-PER-SPACE", "the space list shows every space to every caller"),
    _F("unfavorite-allowed-novice", "PERM-UNFAVORITE",
       "novice (no Mark as favorite) is let in: 200 though it has no favorite",
       _allow("novice", "unmarkFavorite")),
    _F("unfavorite-denied-to-member", "PERM-UNFAVORITE", "member (Mark as favorite) is refused unfavorite",
       _deny("member", "unmarkFavorite")),
    _F("cancelwiki-allowed-novice", "PERM-CANCELWIKI", "novice (neither wiki permission) passes the permission check",
       _allow("novice", "cancelWiki") + _allow("novice", "cancelWiki", at="own")),
    _F("cancelwiki-denied-to-moderator", "PERM-CANCELWIKI", "moderator (Mark as community wiki) is refused cancelwiki",
       _deny("moderator", "cancelWiki")),
    _F("cancelwiki-own-any-node", "PERM-CANCELWIKI-OWN", "Convert own posts to community wiki allows any node",
       _allow("everyone", "cancelWiki", at="own")),
    _F("cancelwiki-own-denied", "PERM-CANCELWIKI-OWN", "member is refused cancelwiki on its own node",
       _deny("member", "cancelWiki", at="own")),
    _F("sendtomod-allowed-member", "PERM-SENDTOMOD", "member may send nodes to moderation",
       _allow("member", "sendToModeration")),
    _F("sendtomod-denied-to-moderator", "PERM-SENDTOMOD", "moderator is refused send to moderation",
       _deny("moderator", "sendToModeration")),
    _F("lock-allowed-novice", "PERM-LOCK", "novice may lock any node",
       _allow("novice", "lockNode") + _allow("novice", "lockNode", at="own")),
    _F("lock-denied-to-moderator", "PERM-LOCK", "moderator (Lock comments on posts) is refused lock",
       _deny("moderator", "lockNode")),
    _F("lock-own-any-node", "PERM-LOCK-OWN", "Lock comments on own posts allows locking any node",
       _allow("everyone", "lockNode", at="own")),
    _F("lock-own-denied", "PERM-LOCK-OWN", "member is refused locking its own node",
       _deny("member", "lockNode", at="own")),
    _F("topics-denied-to-novice", "PERM-TOPICS", "novice is refused the topic list",
       _deny("novice", "listTopics")),
    _F("user-questions-denied-to-novice", "PERM-USER-QUESTIONS", "novice is refused a user's question list",
       _deny("novice", "listUserQuestions")),
    _F("followers-denied-to-member", "PERM-FOLLOWERS", "member is refused a node's follower list",
       _deny("member", "listNodeFollowers")),
    _F("answer-comments-denied-to-novice", "PERM-ANSWER-COMMENTS", "novice is refused an answer's comment list",
       _deny("novice", "listAnswerComments")),
    _F("unfavorite-member-refused-as-404", "PERM-UNFAVORITE",
       "member's unfavorite answers 404 not-a-favorite even on its favorite (a refusal not dressed as 401/403)"),
    _F("cancelwiki-moderator-refused-as-409", "PERM-CANCELWIKI",
       "moderator's cancelwiki answers 409 not-a-wiki even on a wiki node"),
    _F("denied-unfavorite-still-removes", "PERM-DENIED-NO-EFFECT",
       "a refused unfavorite (no Mark as favorite) first deletes every favorite of the node"),
    _F("denied-cancelwiki-still-unwikifies", "PERM-DENIED-NO-EFFECT",
       "a refused cancelwiki (neither wiki permission) first makes the node not wiki"),
    _F("denied-answer-still-created", "PERM-DENIED-NO-EFFECT",
       "an answer refused for a wrong password is stored under the named user before the password is judged"),
    _F("denied-lock-is-500", "PERM-DENIED-STATUS", "a refused lock is answered 500",
       (Override(("lockNode",), "everyone", Effect.REFUSE_AS_500),
        Override(("lockNode",), "everyone", Effect.REFUSE_AS_500, "own"))),
    _F(
        "denied-sendtomod-still-moderates",
        "PERM-DENIED-NO-EFFECT",
        "a refused send to moderation still puts the node in moderation",
    ),
    # --- authentication (auth.py; overrides of the route table)
    _F("wrong-password-accepted", "AUTH-BAD-CREDENTIALS", "a known username with a wrong password is let in"),
    _F("experts-anonymous-403", "EXPERTS-401", "the expert lists answer 403, not 401, without credentials",
       (Override(("listActiveExperts", "listEarnedExperts"), "anonymous", Effect.REFUSE_AS_403),)),
    _F("spaces-refuse-valid-credentials", "AUTH-BASIC", "the space list answers 401 to valid Basic credentials",
       (Override(("listSpaces",), "signed-in", Effect.DENY_401),)),
    # --- node actions: record and effect (actions.py, render.py)
    _F("lock-extra-not-prompt", "ACTION-LOCK-EXTRA", "the lock action's extra is null instead of the prompt"),
    _F("lock-verb-wrong", "ACTION-VERBS", "the lock action's verb is lock, not locked"),
    _F("action-success-missing", "ACTION-WRAPPERS", "action responses lack success"),
    _F("action-record-no-ip", "ACTION-RECORD-SHAPE", "action records lack ip"),
    _F("action-node-id-wrong", "ACTION-NODE-ID", "an action record's node.id is off by one"),
    _F("action-canceled-no-canceler", "ACTION-CANCELED-FIELDS", "a canceled action record lacks canceledByUser"),
    _F("unfavorite-not-canceled", "ACTION-UNFAVORITE-CANCELED", "the returned favorite action is not canceled"),
    _F("unfavorite-count-stale", "ACTION-UNFAVORITE-COUNT", "favoriteCount is not lowered by unfavorite"),
    _F(
        "unfavorite-first-users-favorite",
        "ACTION-UNFAVORITE-PER-USER",
        "unfavorite removes the node's first favorite (maybe another user's), not the caller's",
    ),
    _F("cancelwiki-not-canceled", "ACTION-CANCELWIKI-CANCELED", "the returned wiki action is not canceled"),
    _F("cancelwiki-stays-wiki", "ACTION-CANCELWIKI-NOT-WIKI", "cancelwiki answers 200 but the node stays wiki"),
    _F("sendtomod-verb-wrong", "ACTION-SENDTOMOD-VERB", "the send-to-moderation action's verb is moderated"),
    _F("sendtomod-not-private", "ACTION-SENDTOMOD-PRIVATE", "the send-to-moderation action has private false"),
    _F("sendtomod-no-real-user", "ACTION-SENDTOMOD-REALUSER", "the send-to-moderation action lacks realUser"),
    # --- data protection (gdpr_jobs.py, node_lists.py)
    _F("gdpr-past-date-accepted", "GDPR-PAST-DATE", "a data-protection job may be scheduled in the past"),
    _F("gdpr-individual-no-user-message", "GDPR-INDIVIDUAL-NO-USER", "individual without user: another message"),
    _F("gdpr-bulk-no-csv-message", "GDPR-BULK-NO-CSV", "bulk without csvFileId: another message"),
    _F("gdpr-csv-missing-accepted", "GDPR-CSV-MISSING", "a csvFileId naming no file is accepted"),
    _F("gdpr-time-frame-ignored", "GDPR-TIME-FRAME", "two jobs may share a time frame"),
    _F("gdpr-five-operations-accepted", "GDPR-OPERATIONS-INVALID", "operations may hold 5 elements"),
    _F(
        "gdpr-reassign-ambiguous-unnoticed",
        "GDPR-REASSIGN-AMBIGUOUS",
        "reassignUser with username and id gives the invalid-user message",
    ),
    _F("gdpr-reassign-invalid-accepted", "GDPR-REASSIGN-INVALID", "a reassignUser that does not exist is accepted"),
    _F("gdpr-reassign-invalid-id-accepted", "GDPR-REASSIGN-INVALID",
       "a reassignUser given by an id that names no user is accepted (by username it is refused)"),
    _F("gdpr-no-type-is-individual", "GDPR-BULK-NO-TYPE", "a job without type is taken as individual"),
    _F("gdpr-error-body-message", "GDPR-ERROR-BODY", "job errors have body {message} instead of {error}"),
    _F("gdpr-formatted-date-refused", "GDPR-DATE-FORMATTED", "scheduleDate.formatted is refused as invalid"),
    _F("gdpr-jobid-missing", "GDPR-201-JOBID", "a scheduled job is answered {id} instead of {jobId}"),
    _F("gdpr-params-ignored", "CONV-PARAM-AS-BODY-FIELD-GDPR", "job fields given as query parameters are ignored"),
    _F("content-invalid-user-404", "GDPR-CONTENT-422", "the content list of an invalid user id is a 404, not 422"),
    _F("content-enveloped", "LIST-ARRAY-CONTENT", "the user content list comes in the paged envelope"),
    # --- one stated form of an input, or one side of a stated limit, refused or ignored (gdpr_jobs.py, comments.py,
    #     answers.py, bodies.py, actions.py, node_lists.py, auth.py): each on a path the older tests never took
    _F("gdpr-user-by-email-refused", "GDPR-USER-FORMS",
       "an individual job naming its user by email is refused as an invalid user (by id it is taken)"),
    _F("gdpr-reassign-by-id-refused", "GDPR-REASSIGN-FORMS",
       "a reassignUser given by the id of an existing user is refused as invalid (by username it is taken)"),
    _F("gdpr-reassign-by-username-refused", "GDPR-REASSIGN-FORMS",
       "a reassignUser given by the username of an existing user is refused as invalid (by id it is taken)"),
    _F("gdpr-four-operations-refused", "GDPR-OPERATIONS-RANGE",
       "a job with exactly 4 operations is refused as invalid ('at most 4' read as fewer than 4)"),
    _F("gdpr-anon-delete-refused", "GDPR-OPERATIONS-RANGE", "the operation anon-delete is refused as invalid"),
    _F("gdpr-timestamp-ignored", "GDPR-DATE-TIMESTAMP",
       "scheduleDate.timeStamp is ignored: the job is dated now, so a past timeStamp is scheduled"),
    _F("gdpr-past-within-a-day-accepted", "GDPR-PAST-DATE",
       "a date less than a day in the past is not refused (a day's grace)"),
    _F("gdpr-next-day-refused-as-past", "GDPR-PAST-DATE",
       "a date less than a day ahead is refused as in the past (dates compared by day)"),
    _F("gdpr-csv-param-ignored", "CONV-PARAM-AS-BODY-FIELD-GDPR",
       "csvFileId given as a query parameter is ignored (type as a parameter counts)"),
    _F("comment-recipient-string-id-refused", "COMMENT-RECIPIENT-ID-FORMS",
       "a recipient id given as a string (\"3\") is a 400; as an integer it is taken"),
    _F("comment-visibility-form-field-ignored", "CONV-PARAM-AS-BODY-FIELD",
       "visibility given as a form-encoded request parameter is ignored (JSON body and query count)"),
    _F("answer-body-form-field-ignored", "CONV-PARAM-AS-BODY-FIELD",
       "an answer body given as a form-encoded request parameter is ignored (the answer is refused: no body)"),
    _F("answer-other-node-fields-refused", "ANSWER-OTHER-NODE-FIELDS",
       "an answer posted with a Node field besides body (wiki, topics ...) is a 400 unknown field"),
    _F("comment-body-astral-dropped", "TEXT-NON-ASCII",
       "characters beyond the Basic Multilingual Plane (emoji) are dropped from comment bodies (3-byte UTF-8)"),
    _F("comment-param-latin1", "TEXT-NON-ASCII",
       "a comment field given as a query parameter is decoded as Latin-1 (non-ASCII mangled; in JSON it is right)"),
    _F("content-body-mojibake", "TEXT-NON-ASCII",
       "the user content list shows node bodies UTF-8 encoded twice (the comment and answer lists are right)"),
    _F("answer-json-latin1", "TEXT-NON-ASCII",
       "an answer's JSON body is decoded as Latin-1: raw UTF-8 text is mangled (\\u escapes survive)"),
    _F("lock-prompt-ascii-only", "ACTION-LOCK-EXTRA", "non-ASCII characters of a lock prompt become '?' in extra"),
    _F("auth-colon-password-refused-on-experts", "AUTH-BASIC",
       "the expert lists split Basic credentials at the last colon: an account whose password holds one is refused"),
    _F("auth-password-latin1-on-writes", "AUTH-BASIC",
       "writes decode Basic credentials as Latin-1: an account with a non-ASCII password is refused on POST and PUT"),
    _F("auth-empty-password-accepted", "AUTH-BAD-CREDENTIALS",
       "a known username with an empty password is let in"),
    # --- a validation skipped for one input form (bodies.py, comments.py, gdpr_jobs.py): each refusal holds when the
    #     fields arrive as a JSON body, and is forgotten for one other stated form (issue 33, the input-form matrix)
    _F("comment-form-body-optional", "COMMENT-BODY-REQUIRED",
       "a form-encoded comment without body is created with an empty body (JSON and query requests are refused)"),
    _F("comment-reply-visibility-param-unchecked", "COMMENT-4",
       "a reply to a private comment whose visibility comes as a query parameter inherits the parent's settings "
       "(201) instead of the 400; in the body the change is refused"),
    _F("gdpr-individual-with-csv-taken-as-bulk", "GDPR-INDIVIDUAL-NO-USER",
       "an individual job without user but with a csvFileId beside is judged as a bulk job (the file is checked, "
       "not the missing user)"),
    # --- request conventions (bodies.py, listing.py, comments.py, site_lists.py)
    _F("comment-params-ignored", "CONV-PARAM-AS-BODY-FIELD", "comment fields given as parameters are ignored"),
    _F("comment-visibility-param-ignored", "CONV-PARAM-AS-BODY-FIELD",
       "visibility given as a parameter is ignored (body and the other fields count)"),
    _F("comment-visibility-body-wins", "CONV-PARAM-WINS-COMMENT",
       "visibility in the body beats the visibility parameter (body does not)"),
    _F("comment-body-wins-over-param", "CONV-PARAM-WINS-COMMENT", "a comment field in the body beats the parameter"),
    _F("answer-body-wins-over-param", "CONV-PARAM-WINS-ANSWER", "an answer field in the body beats the parameter"),
    _F("malformed-json-500", "CONV-BODY-FORMAT", "a body that is not JSON is a 500"),
    _F("bad-page-size-500", "CONV-NO-SERVER-ERROR", "a non-integer page or pageSize is a 500"),
    _F("topics-text-plain", "CONV-CONTENT-TYPE-JSON", "the topic list is sent as text/plain"),
    _F("spaces-not-json", "CONV-JSON-EXTENSION", "the space list body is not JSON (a comment line after it)"),
    # --- effects, not echoes (issue 44 item 4: suites/contract/test_list_effects.py): a stated parameter whose
    #     echo or shape is right and whose effect is not (site_lists.py, node_lists.py)
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
    _F("topic-invalid-sort-by-name-when-projected", "SORT-FALLBACK-TOPICS",
       "an unknown sort on the topic list sorts by name, not the default, when include, exclude or includeOnly is "
       "given"),
)
"""The registry, grouped by area. Each fault names the one rule of spec/rules.yaml it breaks."""

FAULTS: dict[str, Fault] = {f.name: f for f in _ALL}
"""Every known fault by name."""

_active: frozenset[str] = frozenset()
_overrides: dict[tuple[str, str], tuple[Override, ...]] = {}


class UnknownFaultError(ValueError):
    """A fault name that is not in the registry."""


def activate(names: Iterable[str]) -> None:
    """Switch on exactly these faults (all others off). Unknown names raise with the list of known ones."""
    global _active
    wanted = frozenset(names)
    unknown = sorted(wanted - FAULTS.keys())
    if unknown:
        raise UnknownFaultError(
            f"unknown fault {unknown[0]!r}; run with --list-faults to see the {len(FAULTS)} known faults"
        )
    global _overrides
    _active = wanted
    by_row: dict[tuple[str, str], list[Override]] = {}
    for name in sorted(wanted):
        for override in FAULTS[name].overrides:
            for operation in override.operations:
                by_row.setdefault((operation, override.at), []).append(override)
    _overrides = {key: tuple(found) for key, found in by_row.items()}


def overrides(operation: str, at: str = "enter") -> tuple[Override, ...]:
    """The overrides of the faults switched on for one check (``at``) of one operation; empty when none is on."""
    return _overrides.get((operation, at), ())


def is_on(name: str) -> bool:
    """Whether the named fault is switched on. Called where the fault breaks the server."""
    return name in _active


def closed_site() -> bool:
    """Whether a closed-site fault is on: the site then grants anonymous no Anonymous Roles (and says so in the
    profile it writes), so that the one read each such fault leaves open is a broken rule."""
    return any(name.startswith("closed-site-") for name in _active)


def active() -> frozenset[str]:
    return _active


def describe() -> str:
    """The registry as text, one fault a line, for --list-faults."""
    width = max(len(n) for n in FAULTS)
    rwidth = max(len(f.rule) for f in FAULTS.values())
    return "\n".join(f"{f.name:<{width}}  {f.rule:<{rwidth}}  {f.description}" for f in FAULTS.values())
