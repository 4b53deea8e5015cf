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

from qaconform.reference.db import Database
from qaconform.reference.fragments import FragmentCache
from qaconform.reference.keyset import Bookmarks, ListQuery, SortKey
from qaconform.reference.seed import seed

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


def _true_positions(db: Database, query: ListQuery) -> dict[SortKey, int]:
    order = f"n.{query.column} {query.direction}, n.id DESC"
    rows = db.all(f"SELECT n.id, n.{query.column} FROM nodes n WHERE {query.where} ORDER BY {order}", query.params)
    return {(r[1], r[0]): i + 1 for i, r in enumerate(rows)}


def test_pages_read_between_random_writes_equal_the_whole_list(ref: Ref) -> None:
    """Oracle over HTTP: after each write (an answer moving a question to the top, a comment, sendToMod), pages
    asked in random order equal the same slice of the whole list read in one page."""
    rng = random.Random(20261122)
    fixture = ref.profile.fixtures.question_id  # later tests need it visible: never sent to moderation here
    qids = [q["id"] for q in ref.questions("member") if q["id"] != fixture]
    for step in range(60):
        target = rng.choice(qids)
        kind = rng.choice(["answer", "answer", "comment", "sendToMod"])
        if kind == "answer":
            ref.ok("POST", f"/question/{target}/answer.json", "admin", status=201, json={"body": f"step {step}"})
        elif kind == "comment":
            ref.ok("POST", f"/node/{target}/comment.json", "admin", status=201, json={"body": f"step {step}"})
        else:
            ref.call("PUT", f"/node/{target}/sendToMod.json", "moderator")
        sort, size = rng.choice(["active", "votes", "answerCount"]), rng.choice([3, 4])  # lists first read later
        whole = [q["id"] for q in ref.questions("member", sort=sort)]
        for page in rng.sample(range(1, 9), 4):
            body = ref.ok("GET", "/question.json", "member", params={"page": page, "pageSize": size, "sort": sort})
            got = [q["id"] for q in body["list"]]
            assert got == whole[(page - 1) * size : page * size], f"step {step} ({kind}), {sort}, page {page}"


@pytest.mark.parametrize(
    ("where", "column", "direction"),
    [
        ("n.type = 'question'", "last_active_date", "DESC"),
        ("n.type = 'question' AND (n.in_moderation = 0 OR n.author_id = 3)", "score", "DESC"),
        ("n.type = 'question' AND n.answer_count = 0", "answer_count", "ASC"),
    ],
)
def test_bookmarks_follow_every_kind_of_change_to_the_list(where: str, column: str, direction: str) -> None:
    """Oracle: after random updates, inserts and deletes, every bookmark still in use names its row's true
    position. Several lists (page sizes) are read at different rates, so some catch up over many changes, after
    others had the change log pruned."""
    db = Database(":memory:")
    seed(db, 400)
    marks = Bookmarks(db)
    rng = random.Random(f"{where}{column}")
    ids = [r[0] for r in db.all("SELECT id FROM nodes WHERE type = 'question'")]
    checked = 0
    for step in range(150):
        sizes = [5, 7] if step % 4 == 0 else [5]
        if step % 25 == 0:
            sizes.append(9 + step)  # a list first read now
        truth = _true_positions(db, ListQuery(where, (), column, direction, 5))
        for size in sizes:
            for row, pos in rng.sample(sorted(truth.items(), key=lambda kv: kv[1]), min(3, len(truth))):
                marks.remember(ListQuery(where, (), column, direction, size), pos, row)
        action = rng.choice(["top", "bottom", "score", "moderate", "answered", "insert", "delete", "other-kind"])
        target = rng.choice(ids)
        if action == "top":
            db.conn.execute("UPDATE nodes SET last_active_date = last_active_date + 9999999999 WHERE id = ?", (target,))
        elif action == "bottom":
            db.conn.execute("UPDATE nodes SET last_active_date = 0, score = -50 WHERE id = ?", (target,))
        elif action == "score":
            db.conn.execute("UPDATE nodes SET score = score + ? WHERE id = ?", (rng.randint(-3, 3), target))
        elif action == "moderate":
            db.conn.execute("UPDATE nodes SET in_moderation = 1 - in_moderation WHERE id = ?", (target,))
        elif action == "answered":
            db.conn.execute("UPDATE nodes SET answer_count = answer_count + 1 WHERE id = ?", (target,))
        elif action == "insert":
            db.conn.execute(
                "INSERT INTO nodes(type, space_id, author_id, body, creation_date, last_active_date,"
                " last_active_user_id, score) VALUES ('question', 1, 3, 'new', 1, ?, 3, ?)",
                (rng.randint(0, 2_000_000_000_000), rng.randint(-2, 5)),
            )
            ids.append(int(db.one("SELECT max(id) FROM nodes")[0]))
        elif action == "delete":
            db.conn.execute("DELETE FROM nodes WHERE id = ?", (target,))
            ids.remove(target)
        else:
            answer = "SELECT max(id) FROM nodes WHERE type = 'answer'"
            db.conn.execute(f"UPDATE nodes SET score = score + 1 WHERE id = ({answer})")
        if step % 3 == 0:
            continue  # several changes pile up before the next read
        truth = _true_positions(db, ListQuery(where, (), column, direction, 5))
        for size in [5, 7] if step % 4 == 1 else [5]:
            query = ListQuery(where, (), column, direction, size)
            for offset in range(0, len(truth) + 5, 7):
                found = marks.nearest(query, offset)
                if found is not None:
                    pos, row = found
                    assert pos <= offset and truth.get(row) == pos, (size, step, action, offset, found, truth.get(row))
                    checked += 1
    assert checked > 200, "the oracle compared too few bookmarks to mean anything"


def test_a_bookmark_moves_when_a_row_passes_it_and_goes_when_its_own_row_moves() -> None:
    db = Database(":memory:")
    seed(db, 200)
    marks = Bookmarks(db)
    query = ListQuery("n.type = 'question'", (), "last_active_date", "DESC", 3)
    rows = sorted(_true_positions(db, query).items(), key=lambda kv: kv[1])
    third, sixth, eighth = rows[2][0], rows[5][0], rows[7][0]
    marks.remember(query, 3, third)
    marks.remember(query, 6, sixth)
    assert marks.nearest(query, 5) == (3, third)
    assert marks.nearest(query, 2) is None
    db.conn.execute("UPDATE nodes SET last_active_date = ? WHERE id = ?", (rows[0][0][0] + 1, eighth[1]))
    assert marks.nearest(query, 5) == (4, third), "the 8th row moved to the top: one more row before the 3rd"
    assert marks.nearest(query, 7) == (7, sixth)
    db.conn.execute("UPDATE nodes SET last_active_date = 0 WHERE id = ?", (third[1],))
    assert marks.nearest(query, 5) is None, "the bookmarked row itself moved: its bookmark must go"
    assert marks.nearest(query, 6) == (6, sixth), "the 3rd row moved behind the 6th: one row fewer before it"


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
