"""Metamorphic relations over every list operation: two requests that differ only in a parameter that must not change
*which* items a caller sees must list the same items.

Hand-written tests check a rule in the circumstances someone thought of; a server that breaks it on another path (a
filter skipped above some page size, a projection that bypasses a privacy check, a count that ignores a filter, ties
ordered anew on each request) passes them. Here hypothesis draws the parameters (page size, sort, filter,
projection) within a bounded number of examples, seeded from the run's ``--seed`` (the same seed draws the same
requests), and each relation is checked for every account (and anonymous where the site serves it):

- *paging is a partition* (PAGING-TOTALCOUNT-UNION, PAGING-SAME-ITEMS): every page at any page size and accepted sort
  lists each item once, totalCount of them, the same set as at any other page size;
- *the count is what is listed* (PAGING-TOTALCOUNT-UNION, PAGING-PAGECOUNT): under every filter the list takes;
- *projection never changes which items* (PROJ-SAME-ITEMS, PROJ-ONLY-VISIBLE, PROJ-INCLUDEONLY), and a projected walk is
  a partition too (PAGING-TOTALCOUNT-UNION);
- *privacy is parameter-free* (COMMENT-PRIVACY-LIST, COMMENT-PRIVACY-IDS, PAGING-SAME-ITEMS): the comments a caller
  sees do not depend on page size, sort or projection, and never include one private to others;
- *filters are consistent* (FILTER-SPACEID, LIST-USER-*-OWNER, FOLLOWERS-ACTIVE-DEFAULT): a filtered list is the part
  of the unfiltered one that meets the filter, as far as its items show it.

The draws never depend on what the server answers (the strategies are fixed before the first example), so
hypothesis only draws the examples and they are checked side by side afterwards; a violation is never raised inside
hypothesis: the first one in the order of the examples is kept and the test fails with it (no shrinking replays
that a list changed by another test could turn flaky). Walks are shared (list_walks.py).

A list longer than a window (list_walks.WINDOW) is walked as its first pages and its last, so a target holding ten
times the data, or lists the kit's earlier runs grew, costs about the same; a relation that needs a whole list there
is "not checked (list too long)" (SkipKind.LIST_TOO_LONG), never held.
"""

from __future__ import annotations

import functools
import threading
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import hypothesis
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from list_walks import (
    Params,
    Unsteady,
    Violation,
    Walk,
    Walks,
    boundary_size,
    effective_size,
    params_of,
)
from listops import LIST_OPS
from privacy_thread import Thread
from relation_checks import (
    NODE_SORTS,
    Audience,
    count_violation,
    followers_violation,
    owner_violation,
    partition_violation,
    privacy_ids_violation,
    privacy_list_violation,
    projected_walk_violation,
    space_violation,
)

from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.properties.plugin import STATE, option
from qaconform.target import fanout
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = pytest.mark.contract

EXAMPLES = 2
"""Drawn parameter combinations per relation, list and account (``--max-examples`` sets it for a run)."""
BASE_SIZE = 10
"""Page size of the walk every relation of a list and account compares with."""
SIZES = st.one_of(st.integers(1, 6), st.sampled_from((9, 10, 16, 25, 40, 60, 100)))
"""Small sizes (many pages, many page boundaries) and large ones (where a server may take another path)."""
NAMED_SORTS = (None, "name", "newest", "oldest", "popularity", "qcNoSuchSort")
"""Space, topic and group lists: any sort name is accepted (an invalid one falls back to the default)."""
EXPERT_SORTS = (None, "reputation", "username", "realname", "recent", "oldest", "default")
PERMISSION_RULE = {"listQuestions": "PERM-LIST-QUESTIONS", "listUserAnswers": "PERM-USER-ANSWERS",
                   "listActiveExperts": "PERM-EXPERTS", "listEarnedExperts": "PERM-EXPERTS",
                   "listSpaces": "PERM-SPACES", "listTopics": "PERM-TOPICS", "listUserQuestions": "PERM-USER-QUESTIONS",
                   "listNodeFollowers": "PERM-FOLLOWERS", "listGroups": "PERM-GROUPS",
                   "listAnswerComments": "PERM-ANSWER-COMMENTS"}
"""The rule that lets each account read a list: a refused walk blocks the relations on that rule."""
PROJECTED = ("listQuestions", "listUserAnswers", "listSpaces", "listTopics", "listUserQuestions", "listNodeFollowers",
             "listGroups")
"""The lists whose query takes include, exclude and includeOnly (the description's operations 3, 4, 9, 14-17)."""


def sorts_of(op: str) -> tuple[str | None, ...]:
    if op in ("listActiveExperts", "listEarnedExperts"):
        return EXPERT_SORTS
    if op in ("listSpaces", "listTopics", "listGroups"):
        return NAMED_SORTS
    if op == "listNodeFollowers":
        return (None,)
    return NODE_SORTS


def cases(ops: tuple[str, ...] = tuple(LIST_OPS)) -> list[Any]:
    """(op, account) for every list and every account the description lets read it, anonymous too (the site
    decides whether it serves anonymous: a refusal skips)."""
    out = []
    for op in ops:
        roles = LIST_OPS[op].roles
        if op not in ("listActiveExperts", "listEarnedExperts", "listGroups"):
            roles = (*roles, "anonymous")
        out += [pytest.param(op, role, id=f"{op}-{role}") for role in roles]
    return out


# --- fixtures ---------------------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def walks(api: dict[str, ApiClient], list_paths: dict[str, str], profile: Profile) -> Walks:
    """The run's walks, shared by every relation (one per account, list, parameters and page size)."""
    w = Walks(api, float(getattr(profile, "settle_s", 0.0)), getattr(profile, "max_page_size", None),
              at_once=fanout.width(profile))
    w.zero_based_paths.add(list_paths["listNodeFollowers"])
    return w


@dataclass
class Explorer:
    """Runs one relation over drawn parameters: seeded per test from the run's seed, at most ``examples`` draws,
    the first violation in the order of the examples kept.

    The examples are drawn first (hypothesis only draws them: the draws never depend on an answer), then checked
    side by side, at most ``at_once`` together (the walks' own slots bound the requests in flight): against a
    target 25 ms away a relation's walks take the round trips of its longest one, not of all of them in turn."""

    seed: int
    examples: int
    at_once: int = 1
    found: Violation | None = None
    judged: int = 0
    notes: list[str] = field(default_factory=list)
    too_long: list[str] = field(default_factory=list)
    """Why draws were not judged because a list was longer than a window and the relation needs all of it."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def run(self, strategy: st.SearchStrategy[Any], check: Callable[[Any], Violation | None],
            explicit: Sequence[Any] = ()) -> None:
        """``check`` on the ``explicit`` examples (boundaries chosen from the plain walk, before any draw), then on
        ``examples`` drawn ones; the first violation in that order is kept."""
        drawn: list[Any] = []

        def example(value: Any) -> None:
            drawn.append(value)

        for chosen in explicit:
            example = hypothesis.example(chosen)(example)
        run = hypothesis.seed(self.seed)(settings(
            max_examples=self.examples, database=None, deadline=None, phases=(Phase.explicit, Phase.generate),
            suppress_health_check=list(HealthCheck), report_multiple_bugs=False)(given(strategy)(example)))
        run()
        for found in fanout.settled([functools.partial(check, value) for value in drawn], self.at_once):
            if isinstance(found, Exception):  # where a check in turn would have stopped with it
                raise found
            if found is not None:
                self.found = found
                break

    def judge(self, violation: Violation | Unsteady | None) -> Violation | None:
        """Count a judged example (a walk the server served) and pass its verdict through; an example whose lists
        never held still while they were walked is not judged (a note says why)."""
        if isinstance(violation, Unsteady):
            self.notes.append(violation.why)
            return None
        with self._lock:
            self.judged += 1
        return violation

    def verdict(self, what: str) -> None:
        """Fail with the kept violation, or skip when no drawn request was served (nothing was judged)."""
        if self.found is not None:
            fail(self.found.rules, self.found.message, self.found.response)
        if not self.judged and self.too_long:
            skip(SkipKind.LIST_TOO_LONG, f"not checked: {what}: {self.too_long[0]}")
        if not self.judged:
            skip(SkipKind.OTHER, f"not checked: {what}: none of the {self.examples} drawn requests could be judged "
                                 f"({'; '.join(self.notes[:2]) or 'the target refused each'})")


@pytest.fixture
def explorer(request: pytest.FixtureRequest, walks: Walks) -> Explorer:
    config = request.config
    seed = zlib.crc32(f"{config.stash[STATE].seed}|{request.node.nodeid}".encode())
    return Explorer(seed=seed, examples=max(1, option(config, "max_examples", int, EXAMPLES)), at_once=walks.at_once)


def base_walk(walks: Walks, role: str, op: str, path: str, params: Params = ()) -> Walk:
    """The walk every relation of this list and account compares with; skips or blocks when it cannot be taken."""
    w = walks.get(role, path, params, BASE_SIZE)
    if w.refused is not None and not w.pages:
        if role == "anonymous":
            skip(SkipKind.OTHER, f"this site does not serve {op} to anonymous callers ({w.refused.status}): "
                                 "the site's configuration (OBS-ANONYMOUS-READS)")
        fail([PERMISSION_RULE[op]], f"{role} may read {op}, yet {w.request()} was refused", w.refused)
    return w


def two_pages(base: Walk) -> int:
    """The page size that splits the plain walk's items into two pages, the second one not full when the count
    is odd (of a list longer than a window, a size whose last page is short): every relation also takes this
    boundary besides the drawn sizes."""
    return boundary_size(base.total)


def in_order_with(walks: Walks, w: Walk, base: Walk, sort: str | None) -> Walk:
    """The walk ``w`` is compared with: the plain walk, or, when either is a window (its first items only), the
    walk at the base size in ``w``'s sort (two windows hold the same first items only in one order)."""
    if sort is None or (w.complete and base.complete):
        return base
    return walks.get(base.role, base.path, params_of(sort=sort), BASE_SIZE)


LARGE = 100
"""A page size above any small list, also taken besides the drawn sizes (a server may take another path there)."""

TIE_SORTS = ("reportCount", "favoriteCount", "followers", "commentCount", "answerCount", "votes")
"""Sorts by a count that most items share (0 reports, 0 favorites ...): the sort with the most ties. "ties may be
ordered any way, but consistently across the pages of one walk" is only tested where there are ties, so the
partition relation always takes one such walk besides the drawn ones (two drawn examples may both miss every
tie-heavy sort: a server that orders ties anew on every request went uncaught at the self-test's seed)."""


def tie_sort(op: str) -> str | None:
    """The first count sort the list's sorts offer, None for a list with none (experts, spaces ...)."""
    return next((s for s in TIE_SORTS if s in sorts_of(op)), None)


def spread_sorts(op: str, role: str, named: str | None) -> tuple[str, ...]:
    """The list's other named sorts, dealt over the accounts that read it (each walked past its first page once a
    run, by one account): round61 (issue 44): a server whose continuation query dropped one sort (votes) from page 2
    on, while every page echoed it, went unseen, for the relation walked one named sort past the first page only."""
    readers = LIST_OPS[op].roles
    if role not in readers:
        return ()
    others = [s for s in sorts_of(op) if s is not None and s != named]
    return tuple(s for k, s in enumerate(others) if k % len(readers) == readers.index(role))


# --- 1 paging is a partition ------------------------------------------------------------------------------------

@pytest.mark.rule("PAGING-TOTALCOUNT-UNION", "PAGING-SAME-ITEMS", "PAGING-PAGESIZE-ECHO")
@pytest.mark.paging
@pytest.mark.parametrize(("op", "role"), cases())
def test_paging_is_a_partition_at_any_page_size_and_sort(
    op: str, role: str, walks: Walks, list_paths: dict[str, str], explorer: Explorer
) -> None:
    """Every page of one walk, at any drawn page size and accepted sort, lists each item once and totalCount of them
    ("totalCount: Total number of items"; ties may be ordered any way, but consistently across the pages of one
    walk), and the same items as the walk at pageSize 10."""
    path = list_paths[op]
    base = base_walk(walks, role, op, path)

    def check(drawn: tuple[int, str | None]) -> Violation | None:
        size, sort = drawn
        w = walks.get(role, path, params_of(sort=sort), effective_size(size, base.total))
        other = in_order_with(walks, w, base, sort) if w.refused is None else base
        if w.refused is not None or other.refused is not None:
            explorer.notes.append(f"{w.request()} answered {(w.refused or other.refused).status}")  # type: ignore
            return None
        return explorer.judge(walks.confirmed(partition_violation, w, other))

    # blind10 (issue 44): a list without a tie sort walks the boundary in its first named sort instead, so that every
    # list taking a sort is walked past its first page in a sort given (an offset computed apart on the sorted path)
    named = tie_sort(op) or next((s for s in sorts_of(op) if s is not None), None)
    explorer.run(st.tuples(SIZES, st.sampled_from(sorts_of(op))), check,
                 [(two_pages(base), None), (LARGE, None), *([(two_pages(base), named)] if named else []),
                  *((two_pages(base), other) for other in spread_sorts(op, role, named))])
    if role != "admin" and explorer.found is None:  # round88: page N right after admin's page N-1
        found = explorer.judge(after_another_walk(walks, base, path, "admin"))
        explorer.found = explorer.found or found
    explorer.verdict(f"{op} as {role} at drawn page sizes and sorts")


def after_another_walk(walks: Walks, base: Walk, path: str, other: str) -> Violation | Unsteady | None:
    """round88 (issue 44, round88-questions-next-page-cursor-shared's kind): where ``other``'s plain walk of the list
    holds more items than the reader's, the reader's walk at the smallest size a walk takes (MAX_PAGES pages: the most
    boundaries, so that one lies past an item only ``other`` sees) whose every page after the first is read right
    after ``other``'s read of the page before (list_walks ``before``), judged a partition like the others: a server
    that keeps where a page ended by URL, not by reader, starts the reader's next page where ``other``'s ended. Reads
    only: one walk page by page and ``other``'s pages; none where the other sees no more."""
    theirs = walks.get(other, path, (), BASE_SIZE)
    if theirs.refused is not None or not isinstance(theirs.total, int) or not isinstance(base.total, int) \
            or theirs.total <= base.total:
        return None
    w = walks.get(base.role, path, (), effective_size(1, base.total), before=other)
    return None if w.refused is not None else walks.confirmed(partition_violation, w, base)


# --- 2 the count is what is listed ------------------------------------------------------------------------------

COUNTED = ("listQuestions", "listNodeFollowers", "listTopics")
"""The lists that take a filter: questions (spaceId, unanswered, topics), followers (active), topics (q)."""


@pytest.fixture(scope="session")
def filter_values(walks: Walks, profile: Profile) -> dict[str, tuple[str, ...]]:
    """Values the filters are drawn from, read once as admin: the space ids, topic ids and names, and fragments
    of topic names (the strategies are fixed before the first example, so draws never depend on an answer)."""
    spaces = walks.get("admin", contract_path("listSpaces"), (), 100)
    topics = walks.get("admin", contract_path("listTopics"), (), 100)
    space_ids = sorted({str(i) for i in spaces.ids} | {str(profile.fixtures.space_id)})
    names = sorted({str(t.get("name")) for t in topics.items if isinstance(t, dict) and t.get("name")})
    return {"spaceId": tuple(space_ids), "topics": tuple(names[:6]) + tuple(str(i) for i in topics.ids[:3]),
            "q": tuple(sorted({n[:2] for n in names[:6]})) or ("a",)}


def filters_of(op: str, values: dict[str, tuple[str, ...]]) -> st.SearchStrategy[dict[str, str]]:
    """At least one filter of the list, drawn from ``values``."""
    if op == "listNodeFollowers":
        return st.fixed_dictionaries({"active": st.sampled_from(("true", "false"))})
    if op == "listTopics":
        return st.fixed_dictionaries({"q": st.sampled_from(values["q"])})
    optional = {"spaceId": st.sampled_from(values["spaceId"]), "unanswered": st.sampled_from(("true", "false"))}
    if values["topics"]:
        optional["topics"] = st.sampled_from(values["topics"])
    return st.fixed_dictionaries({}, optional=optional).filter(bool)  # type: ignore[arg-type]


@pytest.mark.rule("PAGING-TOTALCOUNT-UNION", "PAGING-PAGECOUNT", "PAGING-PAGESIZE-ECHO")
@pytest.mark.paging
@pytest.mark.parametrize(("op", "role"), cases(COUNTED))
def test_the_count_is_what_a_filtered_walk_lists(
    op: str, role: str, walks: Walks, list_paths: dict[str, str], explorer: Explorer,
    filter_values: dict[str, tuple[str, ...]]
) -> None:
    """Under every filter the list takes, totalCount is the number of distinct items its pages list and pageCount
    is ceil(totalCount / pageSize) on every page."""
    path = list_paths[op]
    base = base_walk(walks, role, op, path)
    boundary = two_pages(base)

    def check(drawn: tuple[dict[str, str], int]) -> Violation | None:
        filters, size = drawn
        w = walks.get(role, path, params_of(**filters), effective_size(size, base.total))
        if w.refused is not None:
            explorer.notes.append(f"{w.request()} answered {w.refused.status}")
            return None
        found = explorer.judge(walks.confirmed(count_violation, w))
        narrowed = _own_boundary(w) if size == boundary and found is None else None
        if narrowed is None:
            return found
        again = walks.get(role, path, params_of(**filters), narrowed)
        return explorer.judge(walks.confirmed(count_violation, again)) if again.refused is None else None

    each = {"listNodeFollowers": [{"active": "false"}],
            "listTopics": [{"q": q} for q in filter_values["q"]]}.get(op) or [
        {name: filter_values[name][0]} for name in ("spaceId", "topics") if filter_values[name]] + [
        {"unanswered": "true"}]
    explorer.run(st.tuples(filters_of(op, filter_values), SIZES), check, [(f, boundary) for f in each])
    explorer.verdict(f"{op} as {role} under drawn filters")


def _own_boundary(w: Walk) -> int | None:
    """blindc (issue 44): the boundary size of what a filter left, when the filtered walk at the plain list's
    boundary fit on one page: a filter that narrows the list must cross a page boundary too (the first page of a
    search is often right where its later pages are computed apart), so the explicit examples walk it again at its
    own boundary. None when it spans pages already or holds too few items for a short last page."""
    if not w.complete or len(w.pages) != 1 or not isinstance(w.total, int) or isinstance(w.total, bool) \
            or w.total < 3:
        return None
    return boundary_size(w.total)


# --- 3 projection never changes which items ---------------------------------------------------------------------

def projections(fields: tuple[str, ...]) -> st.SearchStrategy[tuple[str, tuple[str, ...]]]:
    """(form, fields): includeOnly always names id; include and exclude name one to three fields (never id)."""
    named = st.lists(st.sampled_from(fields), min_size=1, max_size=3, unique=True).map(tuple)
    return st.tuples(st.sampled_from(("includeOnly", "include", "exclude")), named)


HELD_AUTHOR = "novice"
"""The account whose answers are held for review ("Caller has Answer questions but not Publish answer | In the
moderation queue"): the user answer list a projection is judged on besides member's (list_paths), so that the list
holds items some readers may not see (blind round 53: a projected query built without the moderation filter)."""


def projected_cases() -> list[Any]:
    """:func:`cases` of :data:`PROJECTED`, and every reader of the answer list of :data:`HELD_AUTHOR`."""
    held = [pytest.param(op, role, id=f"{op}-{role}-held_author") for op, role in
            (p.values for p in cases(("listUserAnswers",)))]
    return [*cases(PROJECTED), *held]


@pytest.mark.rule("PROJ-SAME-ITEMS", "PROJ-ONLY-VISIBLE", "PROJ-INCLUDEONLY", "PAGING-TOTALCOUNT-UNION")
@pytest.mark.parametrize(("op", "role"), projected_cases())
def test_a_projection_lists_the_plain_lists_items_in_its_order(
    op: str, role: str, walks: Walks, list_paths: dict[str, str], user_ids: dict[str, int], explorer: Explorer,
    request: pytest.FixtureRequest
) -> None:
    """includeOnly (with id), include and exclude give the items of the plain request, in its order, each the
    plain item restricted to the fields kept; includeOnly keeps no other field ("limits the returned items to
    those fields"); no item the plain list does not show ("Only items the caller may see are returned"). A list
    the reader sees empty is judged too, with the fields admin's items show. The projected walk's pages list each
    item once, totalCount of them (round92: "Total number of items" under a projection as under any parameter)."""
    path = list_paths[op]
    if request.node.callspec.id.endswith("-held_author"):
        if HELD_AUTHOR not in user_ids:
            skip(SkipKind.OTHER, f"not checked: {HELD_AUTHOR}'s user id is unknown on this target")
        path = contract_path(op, userId=user_ids[HELD_AUTHOR])
    base = base_walk(walks, role, op, path)
    shown = base.items if base.items or role == "admin" else walks.get("admin", path, (), BASE_SIZE).items
    fields = tuple(sorted({k for item in shown[:5] if isinstance(item, dict) for k in item} - {"id"}))
    if not fields:
        skip(SkipKind.OTHER, f"not checked: {op} holds no item for {role} on this target, so no projection can be "
                             "compared with it")

    def check(drawn: tuple[tuple[str, tuple[str, ...]], int, str | None]) -> Violation | None:
        (form, named), size, sort = drawn
        size = effective_size(size, base.total)
        chosen = ("id", *named) if form == "includeOnly" else named
        plain = walks.get(role, path, params_of(sort=sort), size)
        params = params_of(sort=sort, **{form: ",".join(chosen)})
        if role != "admin":
            # Read order (issue 44): the privileged read of the same URL right before this reader's, so a page kept
            # by URL alone (the first caller's page served to every caller) shows items this reader may not see.
            walks.get("admin", path, params, size, fresh=True)
        projected = walks.get(role, path, params, size, fresh=role != "admin")
        if plain.refused is not None or projected.refused is not None:
            explorer.notes.append(f"{projected.request()} was refused")
            return None
        return explorer.judge(walks.confirmed(
            lambda p, q: projected_walk_violation(p, q, form, chosen), projected, plain))

    explorer.run(st.tuples(projections(fields), SIZES, st.sampled_from(sorts_of(op))), check,
                 [(("includeOnly", fields[:2]), two_pages(base), None), (("exclude", fields[:1]), LARGE, None)])
    explorer.verdict(f"{op} as {role} with drawn projections")


# --- 4 privacy is parameter-free --------------------------------------------------------------------------------

def comment_projections() -> st.SearchStrategy[dict[str, str]]:
    """No projection, includeOnly with id, or exclude of the body."""
    return st.sampled_from(({}, {"includeOnly": "id"}, {"includeOnly": "id,body,visibility"}, {"exclude": "body"},
                            {"includeOnly": "id,commentIds,childrenIds"}))


@pytest.mark.rule("COMMENT-PRIVACY-LIST", "COMMENT-PRIVACY-IDS", "PAGING-SAME-ITEMS")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize(("op", "role"), cases(("listAnswerComments", "listUserAnswers")))
def test_the_comments_a_caller_sees_do_not_depend_on_the_parameters(
    op: str, role: str, walks: Walks, explorer: Explorer, privacy_thread: Thread, profile: Profile,
    user_ids: dict[str, int]
) -> None:
    """The comments of an answer, and the ids its commentIds and childrenIds list, are those the caller may see
    ("the comment is private to those recipients") at every drawn page size, sort and projection."""
    audience = Audience.of(profile, role, user_ids.get(role), privacy_thread.private)
    answer = privacy_thread.answer_id
    path = contract_path(op, **({"answerId": answer} if op == "listAnswerComments" else {"userId": user_ids["member"]}))
    base = base_walk(walks, role, op, path)

    def check(drawn: tuple[int, str | None, dict[str, str]]) -> Violation | None:
        size, sort, projection = drawn
        w = walks.get(role, path, params_of(sort=sort, **projection), effective_size(size, base.total))
        if w.refused is not None:
            explorer.notes.append(f"{w.request()} answered {w.refused.status}")
            return None
        if op == "listAnswerComments":
            other = in_order_with(walks, w, base, sort)
            return explorer.judge(walks.confirmed(lambda a, b: privacy_list_violation(a, b, audience), w, other))
        if not w.complete and str(answer) not in {str(i) for i in [*w.ids, *w.tail_ids]}:
            explorer.too_long.append(f"answer {answer} is on neither the first pages nor the last of the {w.total} "
                                     f"items of {w.request()}")
            return None
        return explorer.judge(walks.confirmed(lambda a: privacy_ids_violation(a, answer, audience), w))

    explorer.run(st.tuples(SIZES, st.sampled_from(NODE_SORTS), comment_projections()), check,
                 [(two_pages(base), None, {"includeOnly": "id"})])
    explorer.verdict(f"{op} as {role} at drawn page sizes, sorts and projections")


# --- 5 filters are consistent -----------------------------------------------------------------------------------

FILTERED = ("listQuestions", "listUserQuestions", "listUserAnswers", "listNodeFollowers")


@pytest.mark.rule("FILTER-SPACEID", "LIST-USER-QUESTIONS-OWNER", "LIST-USER-ANSWERS-OWNER", "FOLLOWERS-ACTIVE-DEFAULT")
@pytest.mark.parametrize(("op", "role"), cases(FILTERED))
def test_a_filtered_walk_is_the_part_of_the_unfiltered_one_that_meets_the_filter(
    op: str, role: str, walks: Walks, list_paths: dict[str, str], explorer: Explorer,
    filter_values: dict[str, tuple[str, ...]], user_ids: dict[str, int], question_author_id: int
) -> None:
    """spaceId: the questions of that space (primaryContainerId or containerIds), all of those the unfiltered walk
    shows in it, none other; a user's lists: that user's items; followers: active relations unless active=false,
    which adds the inactive ones."""
    path = list_paths[op]
    base = base_walk(walks, role, op, path)
    check, strategy = _filter_relation(op, role, path, base, walks, explorer, filter_values,
                                       {"listUserAnswers": user_ids["member"],
                                        "listUserQuestions": question_author_id})
    explorer.run(strategy, check, _filter_explicit(op, base, filter_values))
    explorer.verdict(f"{op} as {role} under drawn filters")


def _filter_explicit(op: str, base: Walk, values: dict[str, tuple[str, ...]]) -> list[Any]:
    """The boundaries each filter relation takes besides the drawn examples: a large page (questions), two pages."""
    if op == "listQuestions":
        return [(values["spaceId"][0], LARGE, None)]
    if op == "listNodeFollowers":
        return [(two_pages(base), base.total if isinstance(base.total, int) and base.total > 0 else 1, False)]
    return [(two_pages(base), None)]


def _filter_relation(op: str, role: str, path: str, base: Walk, walks: Walks, explorer: Explorer,
                     values: dict[str, tuple[str, ...]], owners: dict[str, int]
                     ) -> tuple[Callable[[Any], Violation | None], st.SearchStrategy[Any]]:
    """The check of one drawn example and the strategy of the draws, for each kind of filter."""
    def served(*ws: Walk) -> bool:
        refused = [w for w in ws if w.refused is not None]
        explorer.notes += [f"{w.request()} answered {w.refused.status}" for w in refused if w.refused is not None]
        return not refused

    def sized(size: int) -> int:
        return effective_size(size, base.total)

    if op == "listQuestions":
        def by_space(drawn: tuple[str, int, str | None]) -> Violation | None:
            space, size, sort = drawn
            whole = walks.get(role, path, params_of(sort=sort), sized(size))
            part = walks.get(role, path, params_of(sort=sort, spaceId=space), sized(size))
            return explorer.judge(walks.confirmed(lambda p, w: space_violation(p, w, space), part, whole)) \
                if served(whole, part) else None
        return by_space, st.tuples(st.sampled_from(values["spaceId"]), SIZES, st.sampled_from(NODE_SORTS))
    if op in owners:
        rule = "LIST-USER-ANSWERS-OWNER" if op == "listUserAnswers" else "LIST-USER-QUESTIONS-OWNER"

        def by_owner(drawn: tuple[int, str | None]) -> Violation | None:
            w = walks.get(role, path, params_of(sort=drawn[1]), sized(drawn[0]))
            return explorer.judge(walks.confirmed(lambda a: owner_violation(a, owners[op], rule), w)) \
                if served(w) else None
        return by_owner, st.tuples(SIZES, st.sampled_from(NODE_SORTS))

    def by_state(drawn: tuple[int, int, bool]) -> Violation | None:
        size_a, size_b, details = drawn
        extra = {"details": "true"} if details else {}
        ws = [walks.get(role, path, params_of(active=a, **extra), sized(s))
              for a, s in ((None, size_a), ("true", size_b), ("false", size_a))]
        if not served(*ws):
            return None
        long = [w for w in ws if not w.complete]
        if long:  # the follower list takes no sort: only whole lists can be compared as sets
            explorer.too_long.append(f"the follower list holds {long[0].total} items, more than a walk reads "
                                     f"whole ({long[0].request()})")
            return None
        return explorer.judge(walks.confirmed(followers_violation, *ws))
    return by_state, st.tuples(SIZES, SIZES, st.booleans())
