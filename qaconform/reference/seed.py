"""Deterministic demo data, sized by a number of nodes.

The same size always gives the same database (a fixed random seed), so a failure seen once can be seen again.
A fixed part holds everything the target profile points at (fixture question, wiki nodes, favorite, hidden space,
private comments of every kind, followers, a CSV upload); a generated part scales questions, answers and comments
up to the requested number of nodes. Rows are built in memory and inserted with executemany before the indexes
exist, which keeps a million nodes well under a minute.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from . import seed_found, seed_generated, variants
from .db import Database
from .seed_people import ACCOUNTS, BASE_MS, DAY_MS, GDPR_USER, HIDDEN_SPACE_ID, seed_people

__all__ = ["ACCOUNTS", "GDPR_USER", "ISSUE_TRACKER", "SeedFixtures", "parse_size", "seed", "stored_fixtures"]

SMALL_SIZE = 60
"""Number of nodes of the "small" size: a few dozen, fast to start."""

MAX_SIZE = 1_000_000
ISSUE_TRACKER = "tracker"

SPACE_PARENT = {4: 2}
FIXTURE_SPACE_ID = 1
TOPIC_NAMES = ("api", "billing", "install", "security", "performance", "ui", "mobile", "search", "export", "admin")
ISSUE_TYPES = ("Bug", "Task", "Story", "Epic", "Bug")
CSV_FILE_ID = 7


@dataclass(frozen=True)
class SeedFixtures:
    """Ids the profile's [fixtures] table points at."""

    question_id: int
    space_id: int
    member_wiki_node_id: int
    wiki_node_id: int
    favorite_node_id: int
    hidden_space_id: int
    gdpr_csv_file_id: int
    answer_id: int
    issue_tracker: str = ISSUE_TRACKER
    locked_question_id: int | None = None
    wiki_answer_id: int | None = None  # wiki21: seed_found.unwikified_answer; None in a database seeded before it
    accepted_wiki_question_id: int | None = None  # wiki21: seed_found.accepted_wiki_question
    """A question locked by admin (:func:`_seed_locked_question`); None in a database seeded before it existed."""
    pools: dict[str, list[int]] = field(default_factory=dict)
    """Under the variant one-shot-pools: each one-shot fixture's pool, in the order the profile lists it."""
    consumed: dict[str, list[int]] = field(default_factory=dict)
    """The one-shot nodes an earlier run consumed (variants one-shots-consumed, one-shot-pools), by fixture."""


NODE_COLUMNS = (
    "id, type, parent_id, question_id, answer_id, space_id, author_id, title, body, creation_date, last_active_date,"
    " last_active_user_id, score, up_votes, down_votes, view_count, answer_count, comment_count, favorite_count,"
    " follower_count, report_count, hot, depth, wiki, marked, closed, locked, in_moderation, visibility, slug"
)
_NODE_INSERT = f"INSERT INTO nodes({NODE_COLUMNS}) VALUES ({', '.join('?' * 30)})"


def slugify(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "question"


def stored_fixtures(db: Database) -> SeedFixtures:
    """The fixtures of a database seeded earlier (a reused --db file)."""
    raw = db.meta("fixtures")
    if raw is None:
        raise ValueError(f"database {db.path} has no seeded fixtures; delete it or pass a new --db path")
    return SeedFixtures(**json.loads(raw))


def parse_size(value: str | int) -> int:
    """``small`` or a node count between 1 and a million."""
    if isinstance(value, int):
        n = value
    elif value == "small":
        return SMALL_SIZE
    else:
        try:
            n = int(value)
        except ValueError:
            raise ValueError(f"size must be 'small' or a number of nodes, not {value!r}") from None
    if not 1 <= n <= MAX_SIZE:
        raise ValueError(f"size must be between 1 and {MAX_SIZE:,} nodes, not {n}")
    return n


class _Builder:
    """Collects rows in memory; node counters are filled in before a question's row is appended."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.next_id = 1
        self.next_action = 1
        self.clock = BASE_MS
        self.nodes: list[tuple[Any, ...]] = []
        self.recipients: list[tuple[int, int]] = []
        self.node_topics: list[tuple[int, int]] = []
        self.follows: list[tuple[int, int, int, int]] = []
        self.favorites: list[tuple[int, int, int]] = []
        self.actions: list[tuple[Any, ...]] = []

    def tick(self) -> int:
        self.clock += self.rng.randint(30_000, 300_000)
        return self.clock

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def action(self, verb: str, user_id: int, node_id: int, date: int, private: int = 0) -> int:
        aid = self.next_action
        self.next_action += 1
        self.actions.append((aid, verb, user_id, None, node_id, "127.0.0.1", date, 0, None, None, None, private))
        return aid

    def question(
        self,
        qid: int,
        space: int,
        author: int,
        title: str,
        *,
        children: list[tuple[Any, ...]],
        topics: tuple[int, ...],
        wiki: int = 0,
        marked: int = 0,
        favorites: int = 0,
        followers: int = 0,
        date: int | None = None,
        views: int = 0,
        score: int = 0,
        in_moderation: int = 0,
        locked: int = 0,
    ) -> None:
        created = date if date is not None else self.tick()
        answers = sum(1 for c in children if c[1] == "answer" and c[27] == 0)
        comments = sum(1 for c in children if c[1] == "comment" and c[2] == qid)
        last = max([created] + [c[9] for c in children])
        last_user = author
        for c in children:
            if c[9] == last:
                last_user = c[6]
        hot = answers * 3 + comments + max(score, 0) * 2 + views // 10
        body = f"<p>{title} (details for question {qid})</p>"
        # in the order of NODE_COLUMNS
        self.nodes.append(
            (qid, "question", None, qid, None, space, author, title, body, created, last, last_user, score,
             max(score, 0), 0, views, answers, comments, favorites, followers, 0, hot, 0, wiki, marked, 0, locked,
             in_moderation, "full", slugify(title))
        )
        self.nodes.extend(children)
        for t in topics:
            self.node_topics.append((qid, t))

    def child(
        self,
        kind: str,
        parent: int,
        question: int,
        answer: int | None,
        space: int,
        author: int,
        body: str,
        *,
        date: int,
        depth: int,
        marked: int = 0,
        visibility: str = "full",
        in_moderation: int = 0,
        score: int = 0,
    ) -> tuple[Any, ...]:
        nid = self.new_id()
        return (
            nid,
            kind,
            parent,
            question,
            answer,
            space,
            author,
            None,
            body,
            date,
            date,
            author,
            score,
            max(score, 0),
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            depth,
            0,
            marked,
            0,
            0,
            in_moderation,
            visibility,
            None,
        )


def seed(db: Database, size: int, rng_seed: int = 20190221) -> SeedFixtures:
    """Fill an empty database with ``size`` nodes (at least the fixed part) and build the indexes."""
    rng = random.Random(rng_seed)
    b = _Builder(rng)
    conn = db.conn
    conn.execute("BEGIN")
    n_extra_users = max(15, size // 400)
    seed_people(db, rng, n_extra_users)
    user_ids = list(range(1, 6 + n_extra_users))
    n_topics = max(len(TOPIC_NAMES), size // 5000)
    topic_ids = list(range(1, n_topics + 1))
    fixtures = _seed_fixed(b)
    seed_generated.generated(b, size, user_ids, topic_ids)
    fixtures = _seed_earlier_run(b, fixtures)
    fixtures = replace(fixtures, locked_question_id=_seed_locked_question(b))
    _seed_child_space_question(b)  # blind12 (issue 44)
    _seed_followed_question(b)  # fix2nodes (issue 44)
    _seed_answered_novices_question(b)  # fix32 (issue 44)
    seed_found.answered_wiki_question(b)  # paths15 (issue 44)
    seed_found.wiki_answers(b)  # round50 (issue 44)
    fixtures = replace(fixtures, wiki_answer_id=seed_found.unwikified_answer(b),  # wiki20, wiki21 (issue 44)
                       accepted_wiki_question_id=seed_found.accepted_wiki_question(b))  # round59, wiki21
    conn.executemany(_NODE_INSERT, b.nodes)
    conn.executemany("INSERT INTO comment_recipients(comment_id, user_id) VALUES (?, ?)", b.recipients)
    conn.executemany("INSERT OR IGNORE INTO node_topics(node_id, topic_id) VALUES (?, ?)", b.node_topics)
    conn.executemany(
        "INSERT OR IGNORE INTO follows(node_id, user_id, active, follow_date) VALUES (?, ?, ?, ?)", b.follows
    )
    conn.executemany("INSERT INTO favorites(user_id, node_id, action_id) VALUES (?, ?, ?)", b.favorites)
    conn.executemany(
        "INSERT INTO actions(id, verb, user_id, real_user_id, node_id, ip, action_date, canceled, canceled_by,"
        " canceled_date, extra, private) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        b.actions,
    )
    _seed_topics(db, rng, n_topics, b.node_topics)
    conn.execute(
        "UPDATE users SET post_count = (SELECT COUNT(*) FROM nodes WHERE nodes.author_id = users.id)"
        if size <= 20_000
        else "UPDATE users SET post_count = 0"
    )
    if size > 20_000:
        counts: dict[int, int] = {}
        for row in b.nodes:
            counts[row[6]] = counts.get(row[6], 0) + 1
        conn.executemany("UPDATE users SET post_count = ? WHERE id = ?", [(v, k) for k, v in counts.items()])
    conn.execute("INSERT INTO csv_files(id, name) VALUES (?, ?)", (CSV_FILE_ID, "users-to-anonymize.csv"))
    conn.executemany("INSERT INTO issue_types(position, name) VALUES (?, ?)", list(enumerate(ISSUE_TYPES)))
    _consume(conn, fixtures.consumed)
    db.set_meta("seeded", str(size))
    db.set_meta("fixtures", json.dumps(asdict(fixtures)))
    conn.execute("COMMIT")
    db.create_indexes()
    return fixtures


def _seed_topics(db: Database, rng: random.Random, n_topics: int, node_topics: list[tuple[int, int]]) -> None:
    used: dict[int, int] = {}
    for _, t in node_topics:
        used[t] = used.get(t, 0) + 1
    rows = []
    for tid in range(1, n_topics + 1):
        name = TOPIC_NAMES[tid - 1] if tid <= len(TOPIC_NAMES) else f"topic-{tid}"
        rows.append((tid, name, 1 + (tid % 5), BASE_MS - 150 * DAY_MS + tid * 3_600_000, used.get(tid, 0)))
    db.conn.executemany(
        "INSERT INTO topics(id, name, author_id, creation_date, used_count) VALUES (?, ?, ?, ?, ?)", rows
    )


def _seed_fixed(b: _Builder) -> SeedFixtures:
    """The nodes the profile's fixtures point at, with every kind of private comment on the fixture answer."""
    q1, a1_id = _seed_fixture_question(b)
    q2, q3, q4 = _seed_wikis_and_favorite(b)
    _seed_restricted_questions(b)
    return SeedFixtures(
        question_id=q1,
        space_id=FIXTURE_SPACE_ID,
        member_wiki_node_id=q2,
        wiki_node_id=q3,
        favorite_node_id=q4,
        hidden_space_id=HIDDEN_SPACE_ID,
        gdpr_csv_file_id=CSV_FILE_ID,
        answer_id=a1_id,
    )


def _seed_fixture_question(b: _Builder) -> tuple[int, int]:
    """The fixture question (by novice, so "to original poster" differs from "to moderators"), its two answers,
    a comment of every visibility on the first answer, and its followers. Returns (question id, answer id)."""
    admin, moderator, member, novice, target = 1, 2, 3, 4, 5
    q1 = b.new_id()
    a1_date = b.tick()
    a1 = b.child("answer", q1, q1, None, 1, member, "<p>Use the reset link on the login page.</p>", date=a1_date,
                 depth=1, marked=1, score=3)
    a2 = b.child("answer", q1, q1, None, 1, moderator, "<p>An administrator can reset it too.</p>", date=b.tick(),
                 depth=1, score=1)
    a1_id = a1[0]

    def comment(parent: int, author: int, body: str, visibility: str = "full", depth: int = 2) -> tuple[Any, ...]:
        return b.child("comment", parent, q1, a1_id, 1, author, body, date=b.tick(), depth=depth, visibility=visibility)

    c1 = comment(a1_id, moderator, "<p>Public comment by moderator.</p>")
    c2 = comment(a1_id, admin, "<p>Private to member, by admin.</p>", "recipients")
    b.recipients.append((c2[0], member))
    c3 = comment(c2[0], member, "<p>Reply to a private comment: inherits its recipients.</p>", "recipients", 3)
    b.recipients.append((c3[0], member))
    c4 = comment(a1_id, member, "<p>To the original poster, by member.</p>", "op")
    c5 = comment(a1_id, member, "<p>To moderators, by member.</p>", "mod")
    c6 = comment(a1_id, moderator, "<p>To own groups (Team A), by moderator.</p>", "group")
    c7 = comment(c1[0], novice, "<p>Public reply by novice.</p>", "full", 3)
    qc = b.child("comment", q1, q1, None, 1, admin, "<p>Public comment on the question.</p>", date=b.tick(), depth=1)
    b.question(q1, FIXTURE_SPACE_ID, novice, "How do I reset my password?",
               children=[a1, a2, c1, c2, c3, c4, c5, c6, c7, qc], topics=(1, 4), marked=1, followers=3,
               date=a1_date - 3_600_000, views=120, score=4)
    for uid, active in ((member, 1), (moderator, 1), (admin, 0), (target, 1)):
        b.follows.append((q1, uid, active, a1_date + uid * 1000))
    return q1, a1_id


def _seed_wikis_and_favorite(b: _Builder) -> tuple[int, int, int]:
    """Community-wiki questions by member and by admin, and a question member and admin marked as favorite (in
    the child space). Returns their ids."""
    admin, moderator, member = 1, 2, 3
    q2 = b.new_id()
    b.question(q2, 1, member, "Community notes on installing the desktop client", children=[], topics=(3,), wiki=1,
               followers=1)
    b.action("wikified", member, q2, b.clock)
    b.follows.append((q2, member, 1, b.clock))  # fix33 (issue 44): its author follows it, as sites do by default
    q3 = b.new_id()
    b.question(q3, 2, admin, "Product glossary (community wiki)", children=[], topics=(10,), wiki=1)
    b.action("wikified", admin, q3, b.clock)
    q4 = b.new_id()
    b.question(q4, 4, moderator, "Which export formats are supported?", children=[], topics=(9,), favorites=2)
    for uid in (member, admin):
        b.favorites.append((uid, q4, b.action("favorited", uid, q4, b.clock + uid)))
    return q2, q3, q4


def _seed_locked_question(b: _Builder) -> int:
    """A question of admin's in the fixture space, locked by admin: the profile's ``locked_question_id`` (budget
    session, issue 44: the interface creates no question and undoes no lock, so a site declares one). Seeded after
    every other node and dated before them, so that no other node's id and no list's first page moves."""
    admin = 1
    qid = b.new_id()
    date = BASE_MS - 30 * DAY_MS
    b.question(qid, FIXTURE_SPACE_ID, admin, "Release notes for version 1.0", children=[], topics=(3,), date=date,
               locked=1)
    b.actions.append((b.next_action, "locked", admin, None, qid, "127.0.0.1", date, 0, None, None,
                      "the release notes are final", 0))
    b.next_action += 1
    return qid


def _seed_child_space_question(b: _Builder) -> int:
    """A question of member's in the child space Product Help (parentId Products), no fixture (blind12, issue 44):
    the run writes under its accounts' questions only, and the one other question of a profile account in a child
    space is the one-shot favorite, so without it no answer of a run could go under a question deeper in the space
    tree. Seeded after every other node and dated before them, so that no other node's id and no list's first page
    moves."""
    member, child_space = 3, 4
    qid = b.new_id()
    b.question(qid, child_space, member, "Where are the export logs kept?", children=[], topics=(9,),
               date=BASE_MS - 31 * DAY_MS)
    return qid


def _seed_earlier_run(b: _Builder, fixtures: SeedFixtures) -> SeedFixtures:
    """What a staging site looks like after an earlier qaconform run (variants one-shots-consumed, one-shot-pools).

    one-shots-consumed: the profile's one-shot nodes were consumed. one-shot-pools: each one-shot fixture is a
    pool of three (its node and two more of the same kind, seeded after the generated part so that no other id
    moves), the first consumed. Default: nothing changes.
    """
    singles = {"member_wiki_node_id": fixtures.member_wiki_node_id, "wiki_node_id": fixtures.wiki_node_id,
               "favorite_node_id": fixtures.favorite_node_id}
    if variants.is_on("one-shots-consumed"):
        return replace(fixtures, consumed={k: [v] for k, v in singles.items()})
    if not variants.is_on("one-shot-pools"):
        return fixtures
    admin, moderator, member = 1, 2, 3
    pools: dict[str, list[int]] = {k: [v] for k, v in singles.items()}
    for n in (1, 2):
        q = b.new_id()
        b.question(q, 1, member, f"Community notes, part {n + 1}", children=[], topics=(3,), wiki=1, followers=1)
        b.action("wikified", member, q, b.clock)
        b.follows.append((q, member, 1, b.clock))  # fix33 (issue 44): followed by its author, as the first
        pools["member_wiki_node_id"].append(q)
        q = b.new_id()
        b.question(q, 2, admin, f"Glossary, volume {n + 1} (community wiki)", children=[], topics=(10,), wiki=1)
        b.action("wikified", admin, q, b.clock)
        pools["wiki_node_id"].append(q)
        q = b.new_id()
        b.question(q, 4, moderator, f"Which import formats are supported (part {n + 1})?", children=[],
                   topics=(9,), favorites=2)
        for uid in (member, admin):
            b.favorites.append((uid, q, b.action("favorited", uid, q, b.clock + uid)))
        pools["favorite_node_id"].append(q)
    return replace(fixtures, pools=pools, consumed={k: v[:1] for k, v in pools.items()})


def _consume(conn: Any, consumed: dict[str, list[int]]) -> None:
    """Unwikify the wiki nodes and remove member's favorite, as an earlier run's one-shot calls did."""
    member, moderator = 3, 2
    when = BASE_MS + 400 * DAY_MS
    for name, nodes in consumed.items():
        for node in nodes:
            if name == "favorite_node_id":
                conn.execute("UPDATE actions SET canceled = 1, canceled_by = ?, canceled_date = ? WHERE id = "
                             "(SELECT action_id FROM favorites WHERE user_id = ? AND node_id = ?)",
                             (member, when, member, node))
                conn.execute("DELETE FROM favorites WHERE user_id = ? AND node_id = ?", (member, node))
                conn.execute("UPDATE nodes SET favorite_count = MAX(favorite_count - 1, 0) WHERE id = ?", (node,))
            else:
                by = member if name == "member_wiki_node_id" else moderator
                conn.execute("UPDATE actions SET canceled = 1, canceled_by = ?, canceled_date = ? "
                             "WHERE node_id = ? AND verb = 'wikified'", (by, when, node))
                conn.execute("UPDATE nodes SET wiki = 0 WHERE id = ?", (node,))


def _seed_followed_question(b: _Builder) -> int:
    """A question of novice's that member follows, no fixture (fix2nodes, issue 44): a node member did not write
    but follows, on which the run tries member's refused lock (found_nodes.novices_question); the one node member
    followed was the fixture question, never locked. Seeded after every other node and dated before them, so that
    no other node's id and no list's first page moves."""
    member, novice = 3, 4
    qid = b.new_id()
    date = BASE_MS - 32 * DAY_MS
    b.question(qid, FIXTURE_SPACE_ID, novice, "Can I follow a whole space?", children=[], topics=(3,), followers=1,
               date=date)
    b.follows.append((qid, member, 1, date + 60_000))
    return qid


def _seed_answered_novices_question(b: _Builder) -> int:
    """A question of novice's with a published answer by moderator, no fixture (fix32, issue 44): the one published
    answer of another's under a question an account wrote that novice reads, so the found-relations walk
    (suites/contract/found_relations.py, which acts only under the accounts' questions) places novice's refused lock
    and send and member's refused send on an answer written before the run (histories6's three faults on old
    answers). Seeded after every other node and dated before them, so that no other node's id and no list's first
    page moves."""
    moderator, member, novice = 2, 3, 4
    qid = b.new_id()
    date = BASE_MS - 33 * DAY_MS
    answer = b.child("answer", qid, qid, None, FIXTURE_SPACE_ID, moderator,
                     "<p>Export it from the space's settings page, then import it in the other site.</p>",
                     date=date + 3_600_000, depth=1)
    b.question(qid, FIXTURE_SPACE_ID, novice, "Can a space be moved to another site?", children=[answer],
               topics=(3,), date=date)
    # paths14 (issue 44 item 3): member's public comment under it, so that member stands to an answer of another's
    # in the relation "commented on it" (found_relations.COMMENTER), the one account that may lock its own posts;
    # added after the question's fields are drawn (its last activity stays the answer's), after every other node
    comment = b.child("comment", answer[0], qid, answer[0], FIXTURE_SPACE_ID, member,
                      "<p>Does that keep the space's topics?</p>", date=date + 7_200_000, depth=2)
    b.nodes.append(comment)
    seed_found.reply_under(b, comment, novice)  # paths15 (issue 44): a reply of novice's under it, the same way
    return qid


def _seed_restricted_questions(b: _Builder) -> None:
    """A question in the space novice may not list, one with a novice answer waiting in moderation, and one by
    the data-protection target."""
    admin, member, novice, target = 1, 3, 4, 5
    q5 = b.new_id()
    h1 = b.child("answer", q5, q5, None, HIDDEN_SPACE_ID, member, "<p>Staff-only answer by member.</p>",
                 date=b.tick(), depth=1)
    h2 = b.child("answer", q5, q5, None, HIDDEN_SPACE_ID, admin, "<p>Staff-only answer by admin.</p>",
                 date=b.tick(), depth=1)
    b.question(q5, HIDDEN_SPACE_ID, member, "Staff rota for the release week", children=[h1, h2], topics=(10,))
    q6 = b.new_id()
    m1 = b.child("answer", q6, q6, None, 1, novice, "<p>Novice answer in moderation.</p>", date=b.tick(), depth=1,
                 in_moderation=1)
    b.question(q6, 1, member, "Is there a dark mode?", children=[m1], topics=(6,))
    q7 = b.new_id()
    t1 = b.child("answer", q7, q7, None, 2, target, "<p>An answer by the data-protection target.</p>",
                 date=b.tick(), depth=1)
    b.question(q7, 2, target, "Billing address change", children=[t1], topics=(2,))
