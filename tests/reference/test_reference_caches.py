"""The list path's two caches (encoded nodes, page bookmarks) never show what a fresh render would not.

Oracles:
- a list asked with ``exclude=`` a field no node has takes the uncached path (every node rendered for this
  request), so it must equal the cached answer, for every caller, before and after each kind of write;
- the pages of a list visited in a scrambled order, twice, must equal the same list read as one big page (pages
  after the first visit start from a bookmark, the big page by OFFSET 0).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from ref_helpers import ROLES, Ref

from qaconform.reference.fragments import Bookmarks, FragmentCache

CALLERS = (*ROLES, None)
UNCACHED = {"exclude": "noSuchField"}


def cached_and_fresh(ref: Ref, path: str, who: str | None, **params: Any) -> tuple[Any, Any]:
    cached = ref.ok("GET", path, who, params=params)
    fresh = ref.ok("GET", path, who, params={**params, **UNCACHED})
    return cached, fresh


def assert_lists_fresh(ref: Ref, when: str) -> None:
    qid = ref.profile.fixtures.question_id
    paths = {
        "/question.json": {"pageSize": 50},
        f"/user/{ref.user_id('member')}/question.json": {"pageSize": 50},
        f"/user/{ref.user_id('member')}/answer.json": {"pageSize": 50},
        f"/answer/{ref.fixture_answer_id}/comment.json": {"pageSize": 50},
    }
    for who in CALLERS:
        for path, params in paths.items():
            cached, fresh = cached_and_fresh(ref, path, who, **params)
            assert cached == fresh, f"{when}: {path} as {who} differs from a fresh render"
        # the fixture question, whose children change with every write below, is on the first page
        ids = [q["id"] for q in ref.ok("GET", "/question.json", who, params={"pageSize": 50})["list"]]
        assert who == "novice" or qid in ids, f"{when}: fixture question not listed for {who}"


def test_cached_lists_equal_a_fresh_render_before_and_after_every_kind_of_write(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    assert_lists_fresh(ref, "at start")
    assert_lists_fresh(ref, "asked twice")  # now every node comes from the cache

    answer = ref.ok("POST", f"/question/{qid}/answer.json", "member", status=201, json={"body": "cache answer"})
    assert_lists_fresh(ref, "after an answer")
    q = ref.question(qid, "member")
    assert int(answer["id"]) in q["answers"] and int(answer["id"]) in q["childrenIds"]

    private = ref.ok(
        "POST",
        f"/node/{qid}/comment.json",
        "moderator",
        status=201,
        json={"body": "cache private", "visibility": "recipients", "recipients": [ref.user_id("admin")]},
    )
    assert_lists_fresh(ref, "after a private comment")
    assert private["id"] in ref.question(qid, "admin")["commentIds"]
    assert private["id"] not in ref.question(qid, "member")["commentIds"]

    ref.ok("PUT", f"/node/{answer['id']}/sendToMod.json", "moderator")
    assert_lists_fresh(ref, "after sendToMod")
    assert int(answer["id"]) in ref.question(qid, "member")["answers"], "the author still sees it"
    assert int(answer["id"]) in ref.question(qid, "admin")["answers"], "moderators see the moderation queue"
    novice_view = [q for q in ref.questions("novice") if q["id"] == qid]
    assert all(int(answer["id"]) not in q["answers"] for q in novice_view), "a node in moderation leaked"

    ref.ok("PUT", f"/node/{qid}/lock.json", "admin", params={"prompt": "cache lock"})
    assert_lists_fresh(ref, "after lock")


def test_a_posted_answer_is_listed_at_once_even_when_its_question_was_cached(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    for who in ("member", "novice", "admin"):
        ref.ok("GET", "/question.json", who, params={"pageSize": 50})
    before = ref.question(qid, "admin")
    posted = ref.ok("POST", f"/question/{qid}/answer.json", "admin", status=201, json={"body": "seen at once"})
    after = ref.question(qid, "admin")
    assert after["answerCount"] == before["answerCount"] + 1
    assert int(posted["id"]) in after["answers"]


@pytest.mark.parametrize("sort", ["active", "newest", "votes", "answerCount", "answerCountAsc", "reportCount"])
def test_pages_in_any_order_equal_one_big_page(ref: Ref, sort: str) -> None:
    whole = [q["id"] for q in ref.questions("member", sort=sort)]
    size = 3
    pages = list(range(1, len(whole) // size + 3))  # two past the end
    rng = random.Random(sort)
    for attempt in range(2):
        order = pages[:]
        rng.shuffle(order)
        got: dict[int, list[int]] = {}
        for page in order:
            body = ref.ok("GET", "/question.json", "member", params={"sort": sort, "page": page, "pageSize": size})
            got[page] = [q["id"] for q in body["list"]]
        joined = [i for page in pages for i in got[page]]
        assert joined == whole, f"sort={sort}, visit {attempt + 1} in order {order}"


def test_pages_stay_right_after_a_write_reorders_the_list(ref: Ref) -> None:
    """A write drops every bookmark: after a question from page 3 moves to the top, pages are found anew."""
    before = [q["id"] for q in ref.questions("member")]
    for page in (1, 2, 3, 4):
        ref.ok("GET", "/question.json", "member", params={"page": page, "pageSize": 3})
    moved = before[7]
    ref.ok("POST", f"/question/{moved}/answer.json", "admin", status=201, json={"body": "moves it to the top"})
    whole = [q["id"] for q in ref.questions("member")]
    assert whole[0] == moved and whole != before
    for page in (4, 3, 2, 1):
        body = ref.ok("GET", "/question.json", "member", params={"page": page, "pageSize": 3})
        assert [q["id"] for q in body["list"]] == whole[(page - 1) * 3 : page * 3], f"page {page}"


def test_bookmarks_give_the_nearest_page_before_and_forget_on_a_new_generation() -> None:
    marks = Bookmarks()
    key = ("w", (), 15)
    assert marks.before(key, 5, generation=1) is None
    marks.remember(key, 2, ("b", 20), generation=1)
    marks.remember(key, 4, ("d", 40), generation=1)
    assert marks.before(key, 2, 1) is None
    assert marks.before(key, 3, 1) == (2, ("b", 20))
    assert marks.before(key, 1000, 1) == (4, ("d", 40))
    assert marks.before(("other", (), 15), 1000, 1) is None
    assert marks.before(key, 1000, generation=2) is None, "bookmarks of an older generation were used"


def test_fragment_cache_shares_public_nodes_keeps_others_per_viewer_and_drops_on_change() -> None:
    cache = FragmentCache("node")
    cache.put(1, None, b"shared")
    cache.put(2, (7, "member"), b"for 7")
    assert cache.get(1, (8, "novice")) == b"shared"
    assert cache.get(2, (7, "member")) == b"for 7"
    assert cache.get(2, (8, "novice")) is None
    cache.changed("node", 1)
    assert cache.get(1, (7, "member")) is None
    assert cache.get(2, (7, "member")) == b"for 7"
    cache.changed("user", 2)
    assert cache.get(2, (7, "member")) == b"for 7", "a user change dropped a node"
    cache.changed("all", None)
    assert len(cache) == 0


def test_cached_user_and_topic_lists_equal_a_fresh_render_and_follow_a_post(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    paths = (
        "/user/retrieveAllExperts.json",
        "/user/retrieveEarnedExperts.json",
        "/topic.json",
        f"/node/{qid}/followers.json",
    )

    def snapshot(when: str) -> dict[int, int]:
        for path in paths:
            cached, fresh = cached_and_fresh(ref, path, "admin", pageSize=100)
            assert cached == fresh, f"{when}: {path} differs from a fresh render"
        experts = ref.ok("GET", "/user/retrieveAllExperts.json", "admin", params={"pageSize": 100})["list"]
        return {u["id"]: u["postCount"] for u in experts}

    before = snapshot("at start")
    admin_id = ref.user_id("admin")
    assert admin_id in before, "admin is expected among the active experts of the seed"
    ref.ok("POST", f"/question/{qid}/answer.json", "admin", status=201, json={"body": "counts as a post"})
    after = snapshot("after a post")
    assert after[admin_id] == before[admin_id] + 1, "postCount of the cached user did not follow the post"


def test_content_list_shows_a_new_answer_first_after_being_cached(ref: Ref) -> None:
    member = ref.user_id("member")
    first = ref.ok("GET", f"/users/gdpr/{member}/content.json", "admin")
    assert first == ref.ok("GET", f"/users/gdpr/{member}/content.json", "admin"), "the same list twice differs"
    qid = ref.profile.fixtures.question_id
    posted = ref.ok("POST", f"/question/{qid}/answer.json", "member", status=201, json={"body": "content entry"})
    after = ref.ok("GET", f"/users/gdpr/{member}/content.json", "admin")
    assert after[0]["node"]["id"] == int(posted["id"]) and after[0]["node"]["body"] == "content entry"
    assert after[0]["actionType"] == "answered" and after[-1]["actionType"] == "joined"
    assert after[1:] == first[: len(after) - 1], "the older entries changed or moved"
