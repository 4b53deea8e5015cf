"""Rows to the JSON resources of the description (Node, User, Group, Topic, Space, Action record).

Related data of a page (authors, topics, visible children, recipients) is loaded in one query per kind for the
whole page, so a page costs a fixed number of queries whatever its size.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from . import blind_round41, blind_round45, faults, variants
from .auth import Caller
from .db import Database
from .fragments import FragmentCache, Viewer, dumps
from .visibility import Visibility, wire_name


def _dt(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


@functools.lru_cache(maxsize=65_536)
def formatted(ms: int) -> str:
    """``MM/DD/YYYY hh:mm AM``, the creationDateFormatted pattern (UTC)."""
    return _dt(ms).strftime("%m/%d/%Y %H:%M" if faults.is_on("date-formatted-24h") else "%m/%d/%Y %I:%M %p")


def _blinde_hour_00(text: str, ms: int) -> str:
    """blinde-group-dates-hour-00 (faults_blind_edges.py): the hour written as hour % 12 (00 at midnight, noon)."""
    if faults.is_on("blinde-group-dates-hour-00") and _dt(ms).hour in (0, 12):
        return f"{text[:11]}00{text[13:]}"
    return text


def action_date(ms: int) -> str:
    """``YYYY-MM-DD HH:MM:SS.S``."""
    d = _dt(ms)
    return f"{d:%Y-%m-%d %H:%M:%S}.{d.microsecond // 100_000}"


def textual_date(ms: int) -> str:
    """``Wed Feb 06 15:01:00 UTC 2019``."""
    return _dt(ms).strftime("%a %b %d %H:%M:%S UTC %Y")


@functools.lru_cache(maxsize=65_536)
def avatar(email: str | None, uid: int) -> str:
    digest = hashlib.sha256((email or str(uid)).encode()).hexdigest()
    return f"https://secure.gravatar.com/avatar/{digest[:32]}?d=identicon&r=PG"


IN_IDS = "IN (SELECT value FROM json_each(?))"
"""Ids as one bound parameter (see :func:`_ids_param`): the statement text stays the same whatever the ids, so
SQLite's statement cache prepares it once. Ids written into the SQL made each page a new statement to prepare
(30-80 us per query, most of a cold render)."""


def _ids_param(ids: Iterable[int]) -> str:
    return json.dumps([int(i) for i in ids])


def _ids(joined: str | None) -> list[int]:
    """Ids from ``group_concat``, ascending (SQLite 3.40 cannot order inside an aggregate)."""
    return sorted(map(int, joined.split(","))) if joined else []


Rendered = dict[int, tuple[bytes, Viewer | None]]
"""Freshly encoded rows: id -> (JSON, the viewer it is kept for; None: for everybody)."""


def _cached(
    cache: FragmentCache, ids: Sequence[int], render: Callable[[list[int]], Rendered], viewer: Viewer | None = None
) -> list[bytes]:
    """``ids`` encoded, in that order: from ``cache`` (as ``viewer`` sees them), rendering only the misses."""
    found = [cache.get(i, viewer) for i in ids]
    missing = [i for i, cached in zip(ids, found, strict=True) if cached is None]
    if not missing:
        return found  # type: ignore[return-value]  # no None left
    fresh = render(missing)
    for i, (encoded, kept_for) in fresh.items():
        cache.put(i, kept_for, encoded)
    out = []
    for i, cached in zip(ids, found, strict=True):
        data = cached if cached is not None else fresh[i][0] if i in fresh else None
        if data is not None:
            out.append(data)
    return out


SPARSE_FIELDS = (
    "lastEditedAction", "activeRevisionId", "revisionIds", "topics", "attachments", "viewCount", "upVoteCount",
    "downVoteCount", "score",
)
"""Node fields the description states for no particular type: answers and comments leave them out under the
variant node-sparse-fields."""


@dataclass(frozen=True)
class Children:
    """The child ids of a node a caller may see, ascending: all of them, the comments, the answers."""

    every: list[int]
    comments: list[int]
    answers: list[int]



class Renderer:
    def __init__(self, db: Database, visibility: Visibility) -> None:
        self.db = db
        self.visibility = visibility
        self.space_parent: dict[int, int | None] = {
            r["id"]: r["parent_id"] for r in db.all("SELECT id, parent_id FROM spaces")
        }
        self.fragments = FragmentCache("node")
        """Encoded nodes (Node resources)."""
        self.user_fragments = FragmentCache("user")
        """Encoded users (User resources, as in the expert and follower lists)."""
        self.topic_fragments = FragmentCache("topic")
        """Encoded topics: topics never change after seeding, so only a change of kind "all" drops them."""
        self.content_fragments = FragmentCache("node")
        """Encoded entries of the data-protection content list, one per node."""
        for cache in (self.fragments, self.user_fragments, self.topic_fragments, self.content_fragments):
            db.watch_changes(cache.changed)

    # --- users -------------------------------------------------------------------------------------------
    def users_by_id(self, ids: Iterable[int]) -> dict[int, sqlite3.Row]:
        wanted = set(ids)
        if not wanted:
            return {}
        return {r["id"]: r for r in self.db.all(f"SELECT * FROM users WHERE id {IN_IDS}", [_ids_param(wanted)])}

    def author_json(self, u: sqlite3.Row | None, uid: int) -> dict[str, Any]:
        if u is None:
            return {"id": uid, "username": "$$ANON_USER$$", "reputation": 0}
        out: dict[str, Any] = {"id": u["id"], "username": u["username"], "reputation": u["reputation"]}
        if u["realname"] is not None:
            out["realname"] = u["realname"]
        elif variants.is_on("author-realname-empty"):
            out["realname"] = None
        out["avatar"] = avatar(u["email"], u["id"])
        if variants.is_on("node-extra-fields"):
            out["emailHash"] = hashlib.sha256((u["email"] or "").encode()).hexdigest()
        return out

    def action_user_json(self, u: sqlite3.Row) -> dict[str, Any]:
        return {"id": u["id"], "username": u["username"], "avatarUrl": avatar(u["email"], u["id"])}

    def user_groups(self, ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
        wanted = set(ids)
        out: dict[int, list[dict[str, Any]]] = {i: [] for i in wanted}
        if not wanted:
            return out
        rows = self.db.all(
            "SELECT ug.user_id, g.* FROM user_groups ug JOIN groups g ON g.id = ug.group_id"
            f" WHERE ug.user_id {IN_IDS} ORDER BY g.id",
            [_ids_param(wanted)],
        )
        for r in rows:
            out[r["user_id"]].append(
                {
                    "id": str(r["id"]),
                    "creationDate": r["creation_date"],
                    "creationDateFormatted": formatted(r["creation_date"]),
                    "modificationDate": r["modification_date"],
                    "name": r["name"],
                }
            )
        return out

    def users_encoded(self, ids: Sequence[int]) -> list[bytes]:
        """Users ``ids`` as encoded JSON, in that order, from the cache; only the misses are read and rendered."""

        def render(missing: list[int]) -> Rendered:
            rows = self.rows_by_ids(missing, "users")
            return {r["id"]: (dumps(u), None) for r, u in zip(rows, self.users_json(rows), strict=True)}

        return _cached(self.user_fragments, ids, render)

    def topics_encoded(self, ids: Sequence[int]) -> list[bytes]:
        def render(missing: list[int]) -> Rendered:
            rows = self.rows_by_ids(missing, "topics")
            return {r["id"]: (dumps(t), None) for r, t in zip(rows, self.topics_json(rows), strict=True)}

        return _cached(self.topic_fragments, ids, render)

    def content_encoded(
        self, ids: Sequence[int], entries: Callable[[list[sqlite3.Row]], list[dict[str, Any]]]
    ) -> list[bytes]:
        """Data-protection content entries of nodes ``ids`` (built by ``entries`` from node rows), encoded."""

        def render(missing: list[int]) -> Rendered:
            rows = self.nodes_by_ids(missing)
            return {r["id"]: (dumps(e), None) for r, e in zip(rows, entries(rows), strict=True)}

        return _cached(self.content_fragments, ids, render)

    def users_json(self, rows: Sequence[sqlite3.Row]) -> list[dict[str, Any]]:
        groups = self.user_groups(r["id"] for r in rows)
        return [self.user_json(r, groups[r["id"]]) for r in rows]

    @staticmethod
    def user_json(u: sqlite3.Row, groups: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": u["id"],
            "type": "user",
            "creationDate": u["creation_date"],
            "creationDateFormatted": formatted(u["creation_date"]),
            "modificationDate": u["modification_date"],
            "username": u["username"],
        }
        if u["realname"] is not None:
            out["realname"] = u["realname"]
        elif variants.is_on("author-realname-empty"):
            out["realname"] = ""
        out.update(
            {
                "slug": u["username"].lower(),
                "gold": u["gold"],
                "silver": u["silver"],
                "bronze": u["bronze"],
                "reputation": u["reputation"],
                "moderator": u["role"] in ("admin", "moderator"),
                "superuser": u["role"] == "admin",
                "avatar": avatar(u["email"], u["id"]),
                "postCount": u["post_count"],
                "followerCount": u["follower_count"],
                "followCount": u["follow_count"],
                "userFollowCount": u["user_follow_count"],
                "active": bool(u["active"]),
                "suspended": bool(u["suspended"]),
                "deactivated": bool(u["deactivated"]),
                "groups": groups,
            }
        )
        return out

    # --- groups, spaces, topics --------------------------------------------------------------------------
    @staticmethod
    def group_json(g: sqlite3.Row) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(g["id"]) if faults.is_on("group-id-string") else g["id"],
            "type": "usergroup" if faults.is_on("group-items-wrong-type") else "group",
            "creationDate": g["creation_date"],
            "creationDateFormatted": _blinde_hour_00(formatted(g["creation_date"]), g["creation_date"]),
            "modificationDate": g["modification_date"],
            "name": g["name"],
        }
        if g["description"] is not None:
            out["description"] = g["description"]
        return out

    @staticmethod
    def space_json(s: sqlite3.Row) -> dict[str, Any]:
        out: dict[str, Any] = {"id": s["id"], "type": "space", "name": s["name"], "prefix": s["prefix"]}
        if s["locale"] is not None:
            out["locale"] = s["locale"]
        out["creationDate"] = s["creation_date"]
        out["active"] = str(bool(s["active"])).lower() if faults.is_on("space-active-string") else bool(s["active"])
        root = 0 if variants.is_on("space-root-parent-zero") else -1
        out["parentId"] = s["parent_id"] if s["parent_id"] is not None else root
        return out

    def topics_json(self, rows: Sequence[sqlite3.Row]) -> list[dict[str, Any]]:
        authors = self.users_by_id(r["author_id"] for r in rows)
        return [self.topic_json(r, authors.get(r["author_id"])) for r in rows]

    def topic_json(self, t: sqlite3.Row, author: sqlite3.Row | None) -> dict[str, Any]:
        return {
            "id": t["id"],
            "creationDate": t["creation_date"],
            "creationDateFormatted": formatted(t["creation_date"]),
            "name": t["name"],
            "author": self.author_json(author, t["author_id"]),
            "usedCount": str(t["used_count"]) if faults.is_on("topic-usedcount-string") else t["used_count"],
            "getImmediateChildren": [],
            "getParents": [],
        }

    # --- nodes ------------------------------------------------------------------------------------------
    def nodes_by_ids(self, ids: Sequence[int]) -> list[sqlite3.Row]:
        return self.rows_by_ids(ids, "nodes")

    def rows_by_ids(self, ids: Sequence[int], table: str) -> list[sqlite3.Row]:
        """Rows of ``table`` (nodes, users, topics) in the order of ``ids``."""
        if not ids:
            return []
        rows = {r["id"]: r for r in self.db.all(f"SELECT * FROM {table} WHERE id {IN_IDS}", [_ids_param(ids)])}
        return [rows[i] for i in ids if i in rows]

    def nodes_encoded(self, ids: Sequence[int], caller: Caller) -> list[bytes]:
        """The nodes ``ids`` as encoded JSON, in that order: from the fragment cache, rendering only the misses."""
        viewer = (caller.id, caller.role)

        def render(missing: list[int]) -> Rendered:
            rows = self.nodes_by_ids(missing)
            restricted = self.with_restricted_children(missing)
            if faults.is_on("render-cache-shared-across-callers"):
                restricted = set()
            return {
                row["id"]: (dumps(node), viewer if row["id"] in restricted else None)
                for row, node in zip(rows, self.nodes_json(rows, caller), strict=True)
            }

        return _cached(self.fragments, ids, render, viewer)

    def with_restricted_children(self, ids: Sequence[int]) -> set[int]:
        """Those of ``ids`` with a child not everybody who sees the node sees: its JSON then depends on the caller."""
        return {
            r[0]
            for r in self.db.all(
                "SELECT DISTINCT c.parent_id FROM nodes c JOIN nodes p ON p.id = c.parent_id"
                f" WHERE c.parent_id {IN_IDS}"
                f" AND (c.in_moderation <> 0 OR {blind_round45.restricted_visibility()} OR c.space_id <> p.space_id)",
                [_ids_param(ids)],
            )
        }

    def nodes_json(self, rows: Sequence[sqlite3.Row], caller: Caller, leak: bool = False) -> list[dict[str, Any]]:
        """The nodes as dicts for ``caller``; ``leak``: a planted bug lists private comments among the children."""
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        authors = self.users_by_id(r["author_id"] for r in rows)
        clause, params = self.visibility.clause(
            caller,
            "n",
            comments=not (leak or faults.is_on("comment-private-ids-leak")),
            moderation=not variants.is_on("moderated-answers-listed"),
        )
        children: dict[int, Children] = {}
        # one row per parent with its child ids as text: a question with thousands of answers costs a string
        # split, not thousands of row objects
        for parent, every, comments, answers in self.db.conn.execute(
            "SELECT n.parent_id, group_concat(n.id), group_concat(CASE WHEN n.type = 'comment' THEN n.id END),"
            " group_concat(CASE WHEN n.type = 'answer' THEN n.id END)"
            f" FROM nodes n WHERE n.parent_id {IN_IDS} AND {clause} GROUP BY n.parent_id",
            [_ids_param(ids), *params],
        ):
            children[parent] = Children(_ids(every), _ids(comments), _ids(answers))
        children.update(self._blind_unfiltered_children(rows))
        for nid, unfiltered in blind_round41.locked_comment_ids(self.db, rows).items():  # round41 (issue 44)
            kept = children.get(nid) or Children([], [], [])
            children[nid] = Children(kept.every, unfiltered, kept.answers)
        if faults.is_on("blind-comment-childrenids-private-replies"):  # blindw (issue 44): a comment's childrenIds
            self._unfiltered_reply_ids(rows, children)
        topics: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
        question_ids = [r["id"] for r in rows if r["type"] == "question"]
        if question_ids:
            trows = self.db.all(
                "SELECT nt.node_id, t.* FROM node_topics nt JOIN topics t ON t.id = nt.topic_id"
                f" WHERE nt.node_id {IN_IDS} ORDER BY t.id",
                [_ids_param(question_ids)],
            )
            tauthors = self.users_by_id(t["author_id"] for t in trows)
            for t in trows:
                topics[t["node_id"]].append(self.topic_json(t, tauthors.get(t["author_id"])))
        recipients: dict[int, list[dict[str, Any]]] = {}
        private_ids = [r["id"] for r in rows if r["visibility"] == "recipients"]
        if private_ids:
            for rr in self.db.all(
                "SELECT comment_id, user_id FROM comment_recipients"
                f" WHERE comment_id {IN_IDS} ORDER BY user_id",
                [_ids_param(private_ids)],
            ):
                recipients.setdefault(rr["comment_id"], []).append({"id": rr["user_id"]})
        return [
            self.node_json(
                r,
                authors.get(r["author_id"]),
                children.get(r["id"]) or Children([], [], []),
                topics[r["id"]],
                recipients.get(r["id"], []),
            )
            for r in rows
        ]

    def _blind_unfiltered_children(self, rows: Sequence[sqlite3.Row]) -> dict[int, Children]:
        """Planted bugs of the second blind round (blindt): the children of comments, or of locked nodes, listed
        without the privacy filter."""
        on_comments = faults.is_on("blindt-comment-children-unfiltered")
        on_locked = faults.is_on("blindt-locked-node-ids-leak")
        leaky = [r["id"] for r in rows if (r["type"] == "comment" and on_comments) or (r["locked"] and on_locked)]
        if not leaky:
            return {}
        return {
            parent: Children(_ids(every), _ids(comments), _ids(answers))
            for parent, every, comments, answers in self.db.conn.execute(
                "SELECT n.parent_id, group_concat(n.id), group_concat(CASE WHEN n.type = 'comment' THEN n.id END),"
                " group_concat(CASE WHEN n.type = 'answer' THEN n.id END)"
                f" FROM nodes n WHERE n.parent_id {IN_IDS} AND n.in_moderation = 0 GROUP BY n.parent_id",
                [_ids_param(leaky)],
            )
        }
    def _unfiltered_reply_ids(self, rows: Sequence[sqlite3.Row], children: dict[int, Children]) -> None:
        """Planted fault blind-comment-childrenids-private-replies: a comment's childrenIds unfiltered."""
        for r in rows:
            if r["type"] == "comment":
                every = self.db.ids("SELECT id FROM nodes WHERE parent_id = ? ORDER BY id", (r["id"],))
                kept = children.get(r["id"]) or Children([], [], [])
                children[r["id"]] = Children(every, kept.comments, kept.answers)

    def node_json(
        self,
        n: sqlite3.Row,
        author: sqlite3.Row | None,
        children: Children,
        topics: list[dict[str, Any]],
        recipients: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """One node in the field order of the description's samples."""
        kind = n["type"]
        out = _node_head(n)
        out.update(
            {
                "body": n["body"],
                "bodyAsHTML": n["body"],
                "author": self.author_json(author, n["author_id"]),
                "lastEditedAction": n["id"],
                "activeRevisionId": n["id"],
                "revisionIds": [n["id"]],
                "lastActiveUserId": n["last_active_user_id"],
                "lastActiveDate": n["last_active_date"],
            }
        )
        if kind != "question":
            out["parentId"] = n["parent_id"]
            if not (kind == "comment" and faults.is_on("comment-original-parent-missing")):
                out["originalParentId"] = n["parent_id"]
        out.update(
            {
                "attachments": [],
                "childrenIds": children.every,
                "commentIds": children.comments,
                "marked": bool(n["marked"]) and not (kind == "question" and faults.is_on("question-never-marked")),
                "topics": topics,
            }
        )
        self._node_place(out, n)
        out.update(_node_counts(n))
        if kind == "question":
            out["answers"] = children.answers
            out["answerCount"] = n["answer_count"]
        if kind == "comment":
            _comment_privacy(out, n, recipients)
        _node_variants(out, n)
        return out

    def _node_place(self, out: dict[str, Any], n: sqlite3.Row) -> None:
        """primaryContainerId (questions), containerIds (the space and its parent), slug (questions)."""
        space = n["space_id"]
        parent_space = self.space_parent.get(space)
        if n["type"] == "question":
            out["primaryContainerId"] = space
        out["containerIds"] = [parent_space, space] if parent_space else [space]
        if n["type"] == "question":
            out["slug"] = n["slug"]

    # --- actions ----------------------------------------------------------------------------------------
    def action_json(self, a: sqlite3.Row, node_type: str) -> dict[str, Any]:
        ids = {a["user_id"]} | ({a["real_user_id"]} if a["real_user_id"] else set())
        if a["canceled_by"]:
            ids.add(a["canceled_by"])
        users = self.users_by_id(ids)
        out: dict[str, Any] = {
            "id": a["id"],
            "ip": a["ip"],
            "user": self.action_user_json(users[a["user_id"]]),
        }
        if faults.is_on("action-record-no-ip"):
            del out["ip"]
        if a["real_user_id"]:
            out["realUser"] = self.action_user_json(users[a["real_user_id"]])
        when = _dt(a["action_date"]).strftime("%Y-%m-%dT%H:%M:%SZ") if faults.is_on("action-date-iso") else None
        if variants.is_on("action-date-textual") and when is None:
            when = textual_date(a["action_date"])
        out.update({"actionDate": when or action_date(a["action_date"]), "canceled": bool(a["canceled"])})
        if a["canceled"] and not faults.is_on("action-canceled-no-canceler"):
            out["canceledByUser"] = self.action_user_json(users[a["canceled_by"]])
            out["canceledDate"] = textual_date(a["canceled_date"])
        out.update(
            {
                "extra": a["extra"],
                "private": bool(a["private"]),
                "verb": a["verb"],
                "node": {"id": a["node_id"] + int(faults.is_on("action-node-id-wrong")), "type": node_type},
            }
        )
        return out


def _node_head(n: sqlite3.Row) -> dict[str, Any]:
    """id, type, creation dates and the title (questions only, unless a fault or variant gives others one)."""
    kind = n["type"]
    out: dict[str, Any] = {
        "id": n["id"],
        "type": kind,
        "creationDate": n["creation_date"] // 1000 if faults.is_on("node-dates-in-seconds") else n["creation_date"],
        "creationDateFormatted": formatted(n["creation_date"]),
    }
    if kind == "question":
        out["title"] = n["title"]
    elif kind == "answer" and faults.is_on("answer-has-title"):
        out["title"] = f"Re: question {n['question_id']}"
    elif variants.is_on("node-title-null"):
        out["title"] = None
    return out


def _node_counts(n: sqlite3.Row) -> dict[str, Any]:
    """wiki, score, depth, the counts and nodeStates."""
    states = []
    if n["closed"]:
        states.append("closed")
    if n["marked"] and n["type"] == "question":
        states.append("accepted")
    return {
        "wiki": bool(n["wiki"]),
        "score": n["score"],
        "depth": n["depth"],
        "viewCount": n["view_count"],
        "upVoteCount": n["up_votes"],
        "downVoteCount": n["down_votes"],
        "reportCount": n["report_count"],
        "nodeStates": states,
    }


def _comment_privacy(out: dict[str, Any], n: sqlite3.Row, recipients: list[dict[str, Any]]) -> None:
    """A comment's visibility (wire name) and recipients (since 2.16.0)."""
    wire = wire_name(n["visibility"])
    if faults.is_on("comment-privacy-fields-absent") or wire is None:
        return
    out["visibility"] = wire
    out["recipients"] = recipients
    if n["visibility"] == "full" and faults.is_on("comment-full-has-recipient"):
        out["recipients"] = [{"id": n["author_id"]}]
    elif faults.is_on("comment-recipients-not-returned"):
        out["recipients"] = []
    elif variants.is_on("recipients-id-string"):
        out["recipients"] = [{"id": str(r["id"])} for r in recipients]


def _node_variants(out: dict[str, Any], n: sqlite3.Row) -> None:
    """The fields the allowed node-shape variants leave out or add (variants.py)."""
    kind = n["type"]
    if kind != "question" and variants.is_on("node-sparse-fields"):
        for key in SPARSE_FIELDS:
            out.pop(key, None)
    if kind == "question" and variants.is_on("node-depth-absent-on-questions"):
        del out["depth"]
    if variants.is_on("node-extra-fields"):
        out.update({"locale": "en", "plug": None, "bodyAsText": n["body"]})
