"""Allowed variants of the reference server, switched on by name: the dual of the fault registry (faults.py).

The suites and this server were written side by side, so wherever the interface description leaves a choice the
suites risk asserting what *this* server happens to do. Each variant here switches the server to another plausible
behaviour that still obeys every statement of the description and the samples in ../shared/samples/. A suite test
that fails against a variant is a false positive: it asserts something the description does not state.
``qaconform selftest`` runs the suites against every variant and against all of them at once.

A variant is checked with :func:`is_on` at the one place in the code where it changes behaviour, like a fault.
Where the choice is site configuration (visibility wire values, default page size, pageSize cap, who reads
private comments, service version), the variant also says what the target profile the server writes declares
(:func:`profile_settings`), because a real site's QA lead would write it into their profile the same way.

Adding a variant: one ``Variant(...)`` entry below (``leaves_open`` names what the description leaves open, in
its own words where possible) and one ``if variants.is_on("name"):`` where it bites.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Variant:
    """One allowed behaviour: its name, what the description leaves open, what this server then does.

    ``choice``: variants naming the same choice are alternatives (two pageSize caps); ``--variants all`` takes the
    first of each. ``profile``: what the written target profile declares under this variant (site configuration).
    """

    name: str
    leaves_open: str
    behaviour: str
    choice: str | None = None
    profile: dict[str, Any] = field(default_factory=dict)


LIST_LAG_MS = 300
"""How long after its 201 a new answer or comment shows in lists under the variant lists-lag-writes: well inside
the kit's default settle window (target-profile ``settle_s``), well above a request's round trip."""

_V = Variant
_ALL: tuple[Variant, ...] = (
    # --- node fields: which of the Node fields each type carries (render.py)
    _V("node-title-null", "title: 'Absent or null for answers and comments'",
       "answers and comments carry title null instead of leaving it out"),
    _V("node-sparse-fields", "Node fields: the table lists fields for nodes in general; few are stated per type",
       "answers and comments leave out lastEditedAction, activeRevisionId, revisionIds, topics, attachments, "
       "viewCount, upVoteCount, downVoteCount, score"),
    _V("node-extra-fields", "the samples show fields the description does not list (emailHash, attachment items)",
       "nodes carry extra fields (locale, plug null, bodyAsText), authors carry emailHash"),
    _V("author-realname-empty", "author realname: 'optionally realname (string or null)'; samples show empty",
       "authors and users carry realname \"\" when they have none, nodes' authors realname null"),
    _V("node-depth-absent-on-questions", "depth: no statement of which types carry it",
       "questions leave out depth"),
    # --- comment privacy fields (render.py, comments.py, profile)
    _V("visibility-full-public", "visibility: 'Default is full visibility' (its wire value is not shown)",
       "full visibility is written and read as \"public\"", choice="full-visibility-wire",
       profile={"visibility.full": "public"}),
    _V("public-comment-no-privacy-fields", "whether a public comment carries visibility/recipients at all",
       "a comment with full visibility carries neither visibility nor recipients", choice="full-visibility-wire",
       profile={"visibility.full": None}),
    _V("visibility-options-named", "'The complete list of values: not shown' (three private options)",
       "the moderator and group options are \"moderators\" and \"groups\" on the wire",
       profile={"visibility.to_moderators": "moderators", "visibility.to_own_groups": "groups"}),
    _V("recipients-id-string", "recipients: 'Each item has id (integer or string)'",
       "recipients are returned as [{\"id\": \"5\"}]"),
    _V("recipients-param-id-list", "recipients as a request or query parameter or a form field: 'each body field may "
       "also be given as a request or query parameter of the same name' (no encoding of an array of objects shown)",
       "recipients given as a parameter or a form field is read as a comma-separated id list (5,7) only; JSON "
       "text there ([{\"id\": 5}]) is a 400 (forms25)"),
    _V("no-private-comments", "'Private comments were introduced in version 2.16.0': an older server",
       "a 2.15 server: comments carry no visibility/recipients and the fields are ignored when posted; its profile "
       "says service_version 2.15.0 and keeps the [visibility] full value a QA lead copies from the example",
       choice="full-visibility-wire", profile={"service_version": "2.15.0"}),
    _V("private-readable-by-admins", "who besides author and recipients reads a private comment (admins?)",
       "administrators read every private comment", choice="private-readers",
       profile={"visibility.readers": ["admin"]}),
    _V("private-readable-by-moderators", "who besides author and recipients reads a private comment (moderators?)",
       "administrators and moderators read every private comment", choice="private-readers",
       profile={"visibility.readers": ["admin", "moderator"]}),
    _V("reply-readable-by-thread-authors", "who besides a reply's author and the recipients it inherits reads it: "
       "'inherits the parent's settings' (the parent's author, earlier authors of the thread?)",
       "a reply under a private comment is also read by the authors of the private comments above it"),
    # --- authentication and permission failures (dispatch.py, errors.py)
    _V("bad-credentials-html", "401 body: 'Either JSON ... or an HTML error page' (shown for the expert lists)",
       "bad or missing credentials that are refused get the HTML 401 page on every operation"),
    _V("denied-as-401", "denial status of a logged-in caller: 'The status for this body: not shown'",
       "a logged-in caller lacking a permission gets 401 with {errors:{message}} (as the sample), except the "
       "private-comment options (403 stated)"),
    _V("denied-body-error", "'Error bodies of endpoints other than those above: not shown'",
       "permission failures outside the group and expert lists have body {error: message}"),
    # --- error bodies the description does not give (bodies.py, dispatch.py, service.py, actions.py)
    _V("malformed-json-422", "status of a malformed JSON body: not given",
       "a body that is not JSON is a 422 with body {message}"),
    _V("unknown-node-400", "status of an unknown node id: not given",
       "an id naming no node is a 400 with body {errors:{message}}"),
    _V("lock-no-prompt-422", "'Status and body when prompt is missing: not shown'",
       "lock without prompt is a 422 with an empty body"),
    # --- order of checks, repeats (actions.py, the route table's state_first)
    _V("state-before-permission", "order of the state and permission checks",
       "unfavorite of a node that is not a favorite is a 404 and cancelwiki of a node that is not wiki a 400, "
       "both before the permission check"),
    # A refusing repeat comes first, so that `all` (and the generated tests' seeds on it) meets one: a second send
    # to moderation refused with 400 was once charged as "undocumented status" by the generated tests.
    _V("repeat-is-400", "answer to a repeated unfavorite, cancelwiki, lock, send to moderation ('Reverse moves ...: "
       "not shown'; the state table has one row per move from one state)",
       "repeats (and unfavorite of a node that is no favorite) answer 400 {error}", choice="repeat"),
    _V("repeat-is-noop", "answer to a repeated unfavorite, cancelwiki, lock, send to moderation",
       "repeats answer 200 with the earlier action and change nothing", choice="repeat"),
    _V("repeat-is-success-false", "answer to a repeated unfavorite, cancelwiki, lock, send to moderation ('200 "
       "with {success: boolean, ...}')", "repeats answer 200 {success: false, result: <the earlier action>} and "
       "change nothing (as a site a CI build met: an unfavorite of a node an earlier build unfavorited)",
       choice="repeat"),
    _V("repeat-is-409", "answer to a repeated unfavorite, cancelwiki, lock, send to moderation",
       "repeats answer 409 {error}", choice="repeat"),
    _V("repeat-is-422", "answer to a repeated unfavorite, cancelwiki, lock, send to moderation",
       "repeats (and unfavorite of a node that is no favorite) answer 422 {error}", choice="repeat"),
    _V("moderated-hidden-from-author", "who sees a node in moderation ('In moderation': its visibility is not shown)",
       "a node in moderation is a 404 to its author too (only moderators and administrators see it), so locking it, "
       "commenting on it or listing its comments is refused"),
    # --- ids and Location of new comments and answers (comments.py, answers.py, http_io.py, app.py)
    _V("location-relative", "format of the Location header", "Location is a relative URL (/services/v2/...)",
       choice="location"),
    _V("location-other-path", "format of the Location header",
       "Location is an absolute URL of another path (/questions/<q>/<id>.html)", choice="location"),
    _V("location-not-readable", "whether the Location URL can be read with GET (not shown)",
       "GET on the Location of a new comment or answer is a 404: the URL names the item but serves nothing"),
    _V("comment-201-empty", "'Response body: not shown' (post comment)", "a new comment's 201 has an empty body",
       choice="comment-body"),
    _V("comment-201-id-only", "'Response body: not shown' (post comment)",
       "a new comment's 201 body is {\"id\": \"<id>\"} (id as a string)", choice="comment-body"),
    _V("moderated-answer-202", "status of an answer that goes to moderation: 'Answer is created.'",
       "an answer that goes to moderation is answered 202 with {id} and no Location"),
    # --- paging and sorts (listing.py, pages.py, node_lists.py, site_lists.py, profile)
    _V("page-size-cap-20", "'Rate limits, maximum pageSize ...: not shown'", "pageSize is capped at 20",
       choice="page-size-cap", profile={"max_page_size": 20}),
    _V("page-size-cap-100", "'Rate limits, maximum pageSize ...: not shown'", "pageSize is capped at 100",
       choice="page-size-cap", profile={"max_page_size": 100}),
    _V("default-page-size-20", "'pageSize default: configurable system default'", "lists default to 20 items",
       profile={"default_page_size": 20}),
    _V("followers-zero-based", "'A follower list shows 0': whether page 0 or 1 is the first follower page",
       "follower pages are numbered from 0: page 1 is the second page"),
    _V("followers-page-shown-from-0", "'A follower list shows 0': which page number the follower envelope reports",
       "the follower envelope counts pages from 0: page=1 (the first page) reports page 0, page=2 reports 1"),
    _V("page-zero-refused", "what page=0 does outside the follower list", "page=0 is a 400 outside followers"),
    _V("default-sorts-newest", "'default sort: configurable'",
       "question and comment lists default to newest, topics to name, expert lists to username"),
    _V("unknown-sort-400", "'Accepted sort values for lists other than the expert lists: not shown'",
       "an unknown sort on question, comment and follower lists is a 400 (space, topic, group lists fall back)"),
    _V("ties-by-title", "the order of items a sort ranks equal (the description gives sort names only)",
       "question lists order the ties of a sort by title, then id ascending (a stable key of the server's choosing)"),
    _V("envelope-sort-empty", "envelope sort: 'values seen: ... empty string'",
       "every envelope reports sort \"\""),
    _V("sorts-everywhere", "sorts: 'Present on question and comment lists' (silent elsewhere)",
       "every paged list carries a sorts array"),
    # --- bodies and lists that settle (bodies.py, answers.py, comments.py, visibility.py)
    _V("body-html-equivalent", "body: 'HTML content' (whether the text posted comes back character for character)",
       "a posted body is stored in an equivalent HTML form: plain text wrapped in <p>, &, <, >, quotes and "
       "non-ASCII characters as character references"),
    _V("lists-lag-writes", "when a new answer or comment shows in lists (lists served from a search index)",
       f"a new answer or comment appears in lists (and in childrenIds, commentIds, answers) {LIST_LAG_MS} ms after "
       "its 201; reading it by its Location and acting on it work at once"),
    # --- filters and list contents (node_lists.py, site_lists.py)
    _V("topics-all-of", "'Meaning and value format of q, type, lang, topics and unanswered: not shown'",
       "topics=a,b lists questions tagged with all of them (not any)"),
    _V("unknown-param-400", "whether an unknown query parameter is refused or ignored",
       "a query parameter the operation does not list is a 400 on the question list"),
    _V("q-wildcards", "meaning of q", "q takes * as a wildcard"),
    _V("moderated-answers-listed", "whether answers/childrenIds list answers still in moderation",
       "a question's answers and childrenIds list answers in moderation to every caller"),
    _V("content-oldest-first", "user content order: 'newest first in the sample'", "user content oldest first"),
    _V("action-date-textual", "actionDate: 'Either YYYY-MM-DD HH:MM:SS.S or a textual form'",
       "action records use the textual form Wed Feb 06 15:01:00 UTC 2019"),
    # paths17 (issue 44 item 4): 'spaceId (integer; restricts to one space)' beside containerIds 'Ids of the
    # containers (space and its parent)': whether a space's questions include those its child spaces contain
    _V("spaceid-takes-child-spaces", "'spaceId (integer; restricts to one space)': whether a question of a child "
       "space, whose containerIds name the parent ('Ids of the containers (space and its parent)'), is in the "
       "parent's", "the question list filtered by a space that has child spaces lists their questions too"),
    _V("space-root-parent-zero", "parentId of a space with no parent", "a root space has parentId 0"),
    # --- data protection (gdpr_jobs.py, node_lists.py)
    _V("gdpr-user-by-username-refused", "'Why a sample with only a username user object ... is labeled "
       "incorrect: not shown'", "an individual job naming its user by username alone is a 400"),
    _V("gdpr-timestamp-seconds", "'Format of the timeStamp form of scheduleDate: not shown'",
       "scheduleDate.timeStamp is epoch seconds"),
    _V("gdpr-time-frame-hour", "the width of a 'time frame'", "two jobs in the same hour share a time frame"),
    # --- the profile a QA lead writes and the state a staging site is in (profile_out.py, seed.py)
    _V("profile-without-ids", "[accounts.<role>] id: 'optional: the kit discovers it when absent' (the profile's "
       "own definition); which lists show a user: not shown", "the written profile gives no account id: the kit "
       "finds them in the lists (the novice is no expert: only the question list shows it)"),
    _V("one-shots-consumed", "one-shot fixtures: 'consumed by a run' (the profile's definition); the state a site "
       "is in after an earlier run", "the profile names wiki nodes an earlier run unwikified (the interface shows "
       "wiki false) and a favorite it removed (its record lies beside the profile: no read shows favorites)",
       choice="one-shot-state"),
    _V("one-shot-pools", "one-shot fixtures given as pools (lists): each run takes the first still in its state",
       "each one-shot fixture is a pool of three nodes, the first consumed by an earlier run (as one-shots-consumed)",
       choice="one-shot-state"),
    # --- a gateway in front of the site (rate_limit.py, dispatch.py)
    _V("rate-limit-20rps", "nothing: the description states no rate limit, and a staging site sits behind a gateway "
       "that may answer 429 with Retry-After", "beyond about 20 requests a second per account (a token bucket per "
       "Authorization header, one for anonymous callers) the answer is 429 with Retry-After: seconds for accounts, "
       "an HTTP-date for anonymous callers"),
    # --- the expert sorts' readings (issue 44 item 4, effects not echoes: site_lists.py)
    _V("experts-sorts-other-direction", "the direction and collation of the expert sorts reputation, username and "
       "realname ('sort must be one of ...': the names only)", "the expert lists sort reputation lowest first, and "
       "username and realname case-folded, Z to A"),
    # --- lenient input (bodies.py): issue 46
    _V("body-any-type", "an answer's or a comment's body of another JSON type than string: 'body (string, the "
       "comment text, required)' states the type and a refusal only when the body is missing",
       "a body given as false, a number, an array or an object is taken as its text (false -> 'false'); only a "
       "missing or blank body is refused"),
    # --- what a lock does to new posts (comments.py, answers.py): the budget session, issue 44
    _V("locked-node-refuses-posts", "States and transitions > Unlocked node: the lock's effect on new comments and "
       "answers is not shown ('Lock comments on posts')", "a comment or an answer posted directly on a locked node "
       "is refused with 409 {error}, whoever posts it (replies deeper in its thread are taken)"),
)
"""The registry. Each variant obeys every statement of the description and the samples."""

VARIANTS: dict[str, Variant] = {v.name: v for v in _ALL}
"""Every known variant by name."""

ALL = "all"
"""``--variants all``: every variant that composes (the first of each choice)."""

_active: frozenset[str] = frozenset()


class UnknownVariantError(ValueError):
    """A variant name that is not in the registry, or two alternatives of one choice."""


def composable() -> tuple[str, ...]:
    """The variants ``all`` switches on: each one without a choice and the first of each choice."""
    seen: set[str] = set()
    out = []
    for v in _ALL:
        if v.choice is not None:
            if v.choice in seen:
                continue
            seen.add(v.choice)
        out.append(v.name)
    return tuple(out)


def expand(names: Iterable[str]) -> tuple[str, ...]:
    """Names with ``all`` replaced by :func:`composable`; unknown names and clashing alternatives raise."""
    out: list[str] = []
    for n in names:
        for m in composable() if n == ALL else (n,):
            if m not in out:
                out.append(m)
    unknown = [n for n in out if n not in VARIANTS]
    if unknown:
        raise UnknownVariantError(
            f"unknown variant {unknown[0]!r}; run with --list-variants to see the {len(VARIANTS)} known variants"
        )
    chosen: dict[str, str] = {}
    for n in out:
        choice = VARIANTS[n].choice
        if choice is not None and chosen.setdefault(choice, n) != n:
            raise UnknownVariantError(f"variants {chosen[choice]!r} and {n!r} are alternatives ({choice}); pick one")
    return tuple(out)


def activate(names: Iterable[str]) -> None:
    """Switch on exactly these variants (``all`` allowed); others off."""
    global _active
    _active = frozenset(expand(names))


def is_on(name: str) -> bool:
    """Whether the named variant is switched on. Called where the variant changes the server."""
    return name in _active


def active() -> frozenset[str]:
    return _active


def profile_settings() -> dict[str, Any]:
    """What the active variants make the site's configuration: dotted profile keys (``visibility.full``)."""
    out: dict[str, Any] = {}
    for v in _ALL:
        if v.name in _active:
            out.update(v.profile)
    return out


def describe() -> str:
    """The registry as text for --list-variants: one a line, name then what the description leaves open."""
    width = max(len(n) for n in VARIANTS)
    return "\n".join(f"{v.name:<{width}}  {v.leaves_open} -> {v.behaviour}" for v in VARIANTS.values())
