"""Operations that change state: post comment (1), post answer (7), node actions (10-13), data-protection jobs (2),
and the data-protection content listing (8), which shares their admin-only permission.

Order of checks in every handler: who is calling (401), what they may do (403), what they sent (400/413/415),
which node (404), then the operation's own rules. The one exception the description fixes: for a comment, the
403 of a private option comes before the 400s of comment rules 4 and 6.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults, variants
from .auth import Caller
from .bodies import read_fields, structured, text_field
from .db import as_id
from .errors import ApiError, bad_request, conflict, denied, not_found
from .fragments import JSON_TYPE, dumps
from .render import action_date
from .visibility import internal_name

if TYPE_CHECKING:
    from .app import Service

INHERITED_MESSAGE = "Visibility on comment can't be defined since it's inherited"
GDPR_OPERATIONS = frozenset({"suspend", "anonymize", "delete", "anon-delete"})
_FORMATTED_DATE = re.compile(r"^\d{2}/\d{2}/\d{4} \d{2}:\d{2}$")
ACTION_SHAPE_FAULTS = {
    "favoriteAction": ("unfavorite-action-id-missing", "id"),
    "wikifyAction": ("cancelwiki-action-private-missing", "private"),
    "sendToModAction": ("sendtomod-action-extra-missing", "extra"),
    "lockAction": ("lock-action-canceled-missing", "canceled"),
}
"""Planted shape bugs of one action response each (faults.py): the record lacks the named field."""
USER_CONTENT_LIMIT = 1000
"""Newest entries returned by the user content listing (8), which has no paging; "joined" is always added."""


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def _client_ip(request: Request) -> str:
    return request.client.host if request.client else "127.0.0.1"


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


class Writes:
    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.db = svc.db

    @contextmanager
    def tx(self, *kinds: str) -> Iterator[sqlite3.Connection]:
        """One transaction; afterwards cached counts depending on ``kinds`` are dropped (all when none given)."""
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        self.db.wrote(*kinds)

    def _json(self, body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
        from .app import json_response

        return json_response(body, status, headers)

    def _node_id(self, request: Request, key: str = "node_id", what: str = "node") -> int:
        from .app import parse_id

        return parse_id(request.path_params[key], what)

    # --- 1 Post a comment -------------------------------------------------------------------------------
    async def post_comment(self, request: Request) -> Response:
        svc = self.svc
        caller = svc.caller(request)
        if not (caller.anonymous and faults.is_on("comment-allowed-anonymous")):
            svc.require(caller, auth.COMMENT, auth.VIEW_ANSWERS, auth.VIEW_QUESTION_PAGE)
        svc.fault_deny(caller, "comment-denied-to-novice", "novice")
        fields = await read_fields(request)
        if faults.is_on("comment-params-ignored"):
            fields = {k: v for k, v in fields.items() if k not in request.query_params}
        kinds: tuple[str, ...] = ("question", "answer", "comment")
        if faults.is_on("comment-on-comment-refused"):
            kinds = ("question", "answer")
        parent = svc.visible_node(caller, self._node_id(request), kinds)
        body = text_field(fields, "body", required=not faults.is_on("comment-body-optional")) or ""
        if faults.is_on("comment-privacy-fields-refused") and ("visibility" in fields or "recipients" in fields):
            raise bad_request("unknown field 'visibility' or 'recipients'")
        if variants.is_on("no-private-comments"):
            fields = {k: v for k, v in fields.items() if k not in ("visibility", "recipients")}
        visibility = self._visibility(fields)
        recipients = self._recipients(fields)
        self._check_private_permission(caller, visibility)
        final_visibility, final_recipients = self._effective_privacy(parent, visibility, recipients)
        if faults.is_on("comment-privacy-ignored"):
            final_visibility, final_recipients = "full", []  # a server from before 2.16.0: the fields mean nothing
        if final_visibility == "full" and visibility is None and caller.role == "moderator" and faults.is_on(
            "comment-default-visibility-by-role"
        ):
            final_visibility = "mod"
        if faults.is_on("comment-recipients-first-only"):
            final_recipients = final_recipients[:1]
        missing = [r for r in final_recipients if not svc.user_exists(r)]
        if missing:
            raise bad_request(f"recipient {missing[0]} is not a user; give ids of existing users")
        created = now_ms()
        answer_id = parent["id"] if parent["type"] == "answer" else parent["answer_id"]
        if parent["type"] == "answer" and faults.is_on("comment-on-answer-unlinked"):
            answer_id = None
        with self.tx("comment") as conn:
            cur = conn.execute(
                "INSERT INTO nodes(type, parent_id, question_id, answer_id, space_id, author_id, body, creation_date,"
                " last_active_date, last_active_user_id, depth, visibility) VALUES"
                " ('comment', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    parent["id"],
                    parent["question_id"],
                    answer_id,
                    parent["space_id"],
                    caller.id,
                    body,
                    created,
                    created,
                    caller.id,
                    parent["depth"] + 1,
                    final_visibility,
                ),
            )
            comment_id = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT INTO comment_recipients(comment_id, user_id) VALUES (?, ?)",
                [] if faults.is_on("comment-recipients-dropped") else [(comment_id, r) for r in final_recipients],
            )
            conn.execute("UPDATE nodes SET comment_count = comment_count + 1 WHERE id = ?", (parent["id"],))
            conn.execute(
                "UPDATE nodes SET last_active_date = ?, last_active_user_id = ?, hot = hot + 1 WHERE id = ?",
                (created, caller.id, parent["question_id"]),
            )
            conn.execute("UPDATE users SET post_count = post_count + 1 WHERE id = ?", (caller.id,))
        row = svc.render.nodes_by_ids([comment_id])
        item = svc.render.nodes_json(row, caller)[0]
        location = self._location(request, "comment", comment_id, parent["question_id"])
        headers = {} if faults.is_on("comment-location-missing") else {"Location": location}
        status = 200 if faults.is_on("comment-created-200") else 201
        if variants.is_on("comment-201-empty"):
            return Response(b"", status_code=status, headers=headers)
        if variants.is_on("comment-201-id-only"):
            return self._json({"id": str(comment_id)}, status, headers)
        return self._json(item, status, headers)

    @staticmethod
    def _location(request: Request, kind: str, node_id: int, question_id: int) -> str:
        """The URL of a new comment or answer, in the form the location variants choose."""
        if variants.is_on("location-other-path"):
            return f"{_base(request)}/services/v2/questions/{question_id}/{node_id}.html"
        path = f"/services/v2/{kind}/{node_id}.json"
        return path if variants.is_on("location-relative") else _base(request) + path

    async def read_node(self, request: Request) -> Response:
        """GET on the Location of a new comment or answer: the node as the caller sees it (404 under the variant
        location-not-readable, which serves no such URL)."""
        svc = self.svc
        caller = svc.caller(request)
        svc.require(caller, auth.VIEW_QUESTION_PAGE)
        node = svc.visible_node(caller, self._node_id(request))
        return self._json(svc.render.nodes_json([node], caller)[0])

    @staticmethod
    def _visibility(fields: dict[str, Any]) -> str | None:
        if "visibility" not in fields:
            return None
        value = fields["visibility"]
        if not isinstance(value, str):
            raise bad_request(f"'visibility' must be a string, not {type(value).__name__}")
        internal = internal_name(value)
        if internal is None:
            raise bad_request(f"'visibility' {value[:40]!r} names no visibility option of this site")
        return internal

    @staticmethod
    def _recipients(fields: dict[str, Any]) -> list[int]:
        if "recipients" not in fields:
            return []
        value = structured(fields, "recipients")
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list):
            raise bad_request("'recipients' must be an array of objects with an id, like [{\"id\": 5}]")
        ids: list[int] = []
        for item in value:
            raw = item.get("id") if isinstance(item, dict) else item
            ident = as_id(raw)
            if ident is not None:
                ids.append(ident)
            else:
                raise bad_request(f'each recipient needs a numeric id, like {{"id": 5}}; got {str(item)[:60]!r}')
        return sorted(set(ids))

    @staticmethod
    def _check_private_permission(caller: Caller, visibility: str | None) -> None:
        if visibility in (None, "full"):
            return
        if caller.role == "member" and faults.is_on("comment-private-denied-to-member"):
            raise denied(caller.anonymous)
        if not caller.can(auth.USE_PRIVATE_COMMENTS):
            if faults.is_on("comment-private-without-permission"):
                return
            raise denied(caller.anonymous, stated_403=True)
        if faults.is_on("comment-option-permission-ignored"):
            return
        if visibility == "recipients":
            if not any(caller.can(p) for p in auth.PRIVATE_OPTION_PERMISSION.values()):
                raise denied(caller.anonymous, stated_403=True)
        elif not caller.can(auth.PRIVATE_OPTION_PERMISSION[str(visibility)]):
            raise denied(caller.anonymous, stated_403=True)

    def _parent_is_reply(self, parent: sqlite3.Row) -> bool:
        grand = self.db.one("SELECT type FROM nodes WHERE id = ?", (parent["parent_id"],))
        return grand is not None and grand["type"] == "comment"

    def _effective_privacy(
        self, parent: sqlite3.Row, visibility: str | None, recipients: list[int]
    ) -> tuple[str, list[int]]:
        """Comment rules 1-6: defaults, inheritance from a private parent comment, and the 400s."""
        if parent["type"] == "comment" and parent["visibility"] != "full":
            inherited = [
                r[0]
                for r in self.db.all(
                    "SELECT user_id FROM comment_recipients WHERE comment_id = ? ORDER BY user_id", (parent["id"],)
                )
            ]
            if visibility is None and not recipients:
                if faults.is_on("comment-reply-not-inherited"):
                    return "full", []
                if faults.is_on("reply-to-reply-loses-privacy") and self._parent_is_reply(parent):
                    return "full", []
                return parent["visibility"], inherited
            if faults.is_on("comment-reply-other-visibility-accepted") and visibility is not None:
                return visibility, recipients
            if visibility == parent["visibility"] and (not recipients or recipients == inherited):
                return parent["visibility"], inherited
            if visibility is None:
                raise bad_request("'recipients' may only be given with visibility 'recipients'")
            if faults.is_on("comment-inherited-message-wrong"):
                raise bad_request("visibility may not be changed on a reply")
            raise bad_request(INHERITED_MESSAGE)
        if parent["type"] == "comment" and visibility is not None and faults.is_on("comment-reply-to-public-refused"):
            raise bad_request(INHERITED_MESSAGE)
        if (parent["type"] == "comment" and visibility not in (None, "full", "recipients")
                and faults.is_on("comment-reply-to-public-only-recipients")):
            raise bad_request(INHERITED_MESSAGE)
        if recipients and visibility == "mod" and faults.is_on("comment-recipients-with-mod-accepted"):
            return "mod", recipients
        if recipients and visibility != "recipients" and faults.is_on("comment-recipients-without-visibility-accepted"):
            return visibility or "full", []
        if recipients and visibility != "recipients":
            raise bad_request("'recipients' may only be given with visibility 'recipients'")
        if visibility == "recipients" and not recipients:
            raise bad_request("visibility 'recipients' needs at least one recipient, like [{\"id\": 5}]")
        return visibility or "full", recipients

    # --- 7 Post an answer -------------------------------------------------------------------------------
    async def post_answer(self, request: Request) -> Response:
        svc = self.svc
        try:
            caller = svc.caller(request)
        except ApiError as exc:
            if exc.status == 401 and faults.is_on("denied-answer-still-created"):
                await self._store_for_named_user(request)
            raise

        if not (caller.anonymous and faults.is_on("answer-allowed-anonymous")):
            svc.require(caller, auth.ANSWER)
        svc.fault_deny(caller, "answer-denied-to-member", "member")
        if faults.is_on("answer-unpublished-refused") and not caller.can(auth.PUBLISH_ANSWER):
            raise denied(caller.anonymous)
        fields = await read_fields(request)
        question = svc.visible_node(caller, self._node_id(request, "question_id", "question"), ("question",))
        body = text_field(fields, "body")
        if faults.is_on("answer-body-truncated"):
            body = (body or "")[:12]
        if faults.is_on("answer-body-ascii-only"):
            body = (body or "").encode("ascii", "replace").decode("ascii")
        published = caller.can(auth.PUBLISH_ANSWER) and not faults.is_on("answer-publish-ignored")
        author_id = question["author_id"] if faults.is_on("answer-author-is-question-author") else caller.id
        if faults.is_on("answer-author-is-first-poster"):
            self.first_poster = getattr(self, "first_poster", None) or caller.id  # an acting user cached too widely
            author_id = self.first_poster
        created = now_ms()
        with self.tx("answer", "answer_count") as conn:
            cur = conn.execute(
                "INSERT INTO nodes(type, parent_id, question_id, space_id, author_id, body, creation_date,"
                " last_active_date, last_active_user_id, depth, in_moderation) VALUES"
                " ('answer', ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)",
                (
                    question["id"],
                    question["id"],
                    question["space_id"],
                    author_id,
                    body,
                    created,
                    created,
                    caller.id,
                    0 if published else 1,
                ),
            )
            answer_id = int(cur.lastrowid or 0)
            conn.execute(
                "UPDATE nodes SET answer_count = answer_count + ?, hot = hot + ?, last_active_date = ?,"
                " last_active_user_id = ? WHERE id = ?",
                (int(published), 3 * int(published), created, caller.id, question["id"]),
            )
            conn.execute("UPDATE users SET post_count = post_count + 1 WHERE id = ?", (caller.id,))
        item = svc.render.nodes_json(svc.render.nodes_by_ids([answer_id]), caller)[0]
        q_author = svc.render.users_by_id([question["author_id"]]).get(question["author_id"])
        item["id"] = answer_id if faults.is_on("answer-id-integer") else str(answer_id)
        item["parentId"] = question["id"]
        item["parentAuthor"] = {
            "username": q_author["username"] if q_author else "$$ANON_USER$$",
            "realname": q_author["realname"] if q_author else None,
        }
        if faults.is_on("answer-parent-author-missing"):
            del item["parentAuthor"]
        if not faults.is_on("answer-plug-missing"):
            item["plug"] = None
        item["reportCount"] = 0
        if faults.is_on("answer-reportcount-missing"):
            del item["reportCount"]
        item["originalParentId"] = question["id"]
        if not published and variants.is_on("moderated-answer-202"):
            return self._json({"id": str(answer_id)}, 202)
        location = self._location(request, "answer", answer_id, question["id"])
        headers = {} if faults.is_on("answer-location-missing") else {"Location": location}
        return self._json(item, 200 if faults.is_on("answer-created-200") else 201, headers)

    async def _store_for_named_user(self, request: Request) -> None:
        """Planted fault denied-answer-still-created: the answer is stored under the username of the refused
        credentials before the password is judged."""
        import base64

        header = request.headers.get("authorization", "")
        try:
            username = base64.b64decode(header.split(" ", 1)[1]).decode().split(":", 1)[0]
        except (IndexError, ValueError):
            return
        user = self.db.one("SELECT id FROM users WHERE username = ?", (username,))
        question = self.db.one("SELECT * FROM nodes WHERE id = ? AND type = 'question'",
                               (as_id(request.path_params["question_id"]),))
        body = text_field(await read_fields(request), "body")
        if user is None or question is None:
            return
        with self.tx("answer") as conn:
            conn.execute(
                "INSERT INTO nodes(type, parent_id, question_id, space_id, author_id, body, creation_date,"
                " last_active_date, last_active_user_id, depth) VALUES ('answer', ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                (question["id"], question["id"], question["space_id"], user["id"], body, now_ms(), now_ms(),
                 user["id"]),
            )

    # --- 10-13 Node actions -----------------------------------------------------------------------------
    def _record_action(
        self,
        conn: sqlite3.Connection,
        verb: str,
        caller: Caller,
        node_id: int,
        ip: str,
        *,
        extra: str | None = None,
        private: bool = False,
        real_user: bool = False,
    ) -> int:
        cur = conn.execute(
            "INSERT INTO actions(verb, user_id, real_user_id, node_id, ip, action_date, extra, private)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (verb, caller.id, caller.id if real_user else None, node_id, ip, now_ms(), extra, int(private)),
        )
        return int(cur.lastrowid or 0)

    def _last_action(self, verb: str, node_id: int, user_id: int | None, canceled: bool = False) -> int | None:
        """The newest ``verb`` action on the node (by ``user_id`` when given), for the repeat variants."""
        row = self.db.one(
            "SELECT id FROM actions WHERE verb = ? AND node_id = ? AND (? IS NULL OR user_id = ?) AND canceled = ?"
            " ORDER BY id DESC LIMIT 1",
            (verb, node_id, user_id, user_id, int(canceled)),
        )
        return None if row is None else int(row[0])

    def _action(self, action_id: int) -> sqlite3.Row:
        row = self.db.one("SELECT * FROM actions WHERE id = ?", (action_id,))
        assert row is not None
        return row

    def _result(self, key: str, action_id: int, node: sqlite3.Row, **extra: Any) -> Response:
        action = self.svc.render.action_json(self._action(action_id), node["type"])
        fault, field = ACTION_SHAPE_FAULTS[key]
        if faults.is_on(fault):
            del action[field]
        if faults.is_on("action-success-missing"):
            return self._json({"result": {key: action, **extra}})
        return self._json({"success": True, "result": {key: action, **extra}})

    async def unmark_favorite(self, request: Request) -> Response:
        svc = self.svc
        caller = svc.caller(request)
        if faults.is_on("denied-unfavorite-still-removes") and not caller.can(auth.MARK_FAVORITE):
            with self.tx("favorite") as conn:  # the delete runs before the permission check
                conn.execute("DELETE FROM favorites WHERE node_id = ?", (as_id(request.path_params["node_id"]),))
        if variants.is_on("state-before-permission"):
            node = svc.visible_node(caller, self._node_id(request))
            mine = self.db.one("SELECT 1 FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"]))
            if mine is None:
                raise not_found(f"node {node['id']} is not a favorite of yours; nothing to unmark")
        if not (faults.is_on("unfavorite-allowed-novice") and caller.role == "novice"):
            svc.require(caller, auth.MARK_FAVORITE, auth.VIEW_QUESTION_PAGE)
        svc.fault_deny(caller, "unfavorite-denied-to-member", "member")
        node = svc.visible_node(caller, self._node_id(request))
        fav = self.db.one("SELECT * FROM favorites WHERE user_id = ? AND node_id = ?", (caller.id, node["id"]))
        if caller.role == "member" and faults.is_on("unfavorite-member-refused-as-404"):
            fav = None
        if fav is None and caller.role == "novice" and faults.is_on("unfavorite-allowed-novice"):
            # let in, and answered as if it had worked: a refusal by state (404) would be an allowed order of checks
            count = self.db.one("SELECT favorite_count FROM nodes WHERE id = ?", (node["id"],))
            return self._json({"success": True, "result": {"favoriteCount": count[0] if count else 0}})
        if fav is None:
            message = f"node {node['id']} is not a favorite of {caller.username}; nothing to unmark"
            earlier = self._last_action("favorited", node["id"], caller.id, canceled=True)
            if variants.is_on("repeat-is-noop") and earlier is not None:
                count = self.db.one("SELECT favorite_count FROM nodes WHERE id = ?", (node["id"],))
                return self._result("favoriteAction", earlier, node, favoriteCount=count[0] if count else 0)
            if variants.is_on("repeat-is-409"):
                raise conflict(message)
            raise not_found(message)
        if faults.is_on("unfavorite-first-users-favorite"):
            first = self.db.one("SELECT * FROM favorites WHERE node_id = ? ORDER BY user_id LIMIT 1", (node["id"],))
            fav = first or fav
        with self.tx("favorite") as conn:
            conn.execute("DELETE FROM favorites WHERE user_id = ? AND node_id = ?", (fav["user_id"], node["id"]))
            if not faults.is_on("unfavorite-not-canceled"):
                conn.execute(
                    "UPDATE actions SET canceled = 1, canceled_by = ?, canceled_date = ? WHERE id = ?",
                    (caller.id, now_ms(), fav["action_id"]),
                )
            if not faults.is_on("unfavorite-count-stale"):
                conn.execute("UPDATE nodes SET favorite_count = MAX(favorite_count - 1, 0) WHERE id = ?", (node["id"],))
        count = self.db.one("SELECT favorite_count FROM nodes WHERE id = ?", (node["id"],))
        return self._result("favoriteAction", fav["action_id"], node, favoriteCount=count[0] if count else 0)

    async def cancel_wiki(self, request: Request) -> Response:
        svc = self.svc
        caller = svc.caller(request)
        if faults.is_on("denied-cancelwiki-still-unwikifies") and not (
            caller.can(auth.MARK_WIKI) or caller.can(auth.CONVERT_OWN_TO_WIKI)
        ):
            with self.tx("wiki") as conn:  # the change runs before the permission check
                conn.execute("UPDATE nodes SET wiki = 0 WHERE id = ?", (as_id(request.path_params["node_id"]),))
        if variants.is_on("state-before-permission") and not svc.visible_node(caller, self._node_id(request))["wiki"]:
            raise bad_request("the node is not a community wiki; there is nothing to cancel")
        novice_bug = faults.is_on("cancelwiki-allowed-novice") and caller.role == "novice"
        if not (caller.can(auth.MARK_WIKI) or caller.can(auth.CONVERT_OWN_TO_WIKI) or novice_bug):
            raise denied(caller.anonymous)
        svc.fault_deny(caller, "cancelwiki-denied-to-moderator", "moderator")
        node = svc.visible_node(caller, self._node_id(request))
        own = node["author_id"] == caller.id
        any_node = faults.is_on("cancelwiki-own-any-node") or novice_bug
        if not caller.can(auth.MARK_WIKI) and not own and not any_node:
            raise denied(caller.anonymous)
        if own and caller.role == "member" and faults.is_on("cancelwiki-own-denied"):
            raise denied(caller.anonymous)
        if not node["wiki"] or (caller.role == "moderator" and faults.is_on("cancelwiki-moderator-refused-as-409")):
            earlier = self._last_action("wikified", node["id"], None, canceled=True)
            if variants.is_on("repeat-is-noop") and earlier is not None:
                return self._result("wikifyAction", earlier, node)
            raise conflict(f"node {node['id']} is not a community wiki; there is nothing to cancel")
        wikify = self.db.one(
            "SELECT id FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 0 ORDER BY id DESC LIMIT 1",
            (node["id"],),
        )
        with self.tx("wiki") as conn:
            if wikify is None:
                author = Caller(node["author_id"], "", "user", frozenset())
                action_id = self._record_action(conn, "wikified", author, node["id"], _client_ip(request))
            else:
                action_id = wikify["id"]
            if not faults.is_on("cancelwiki-not-canceled"):
                conn.execute(
                    "UPDATE actions SET canceled = 1, canceled_by = ?, canceled_date = ? WHERE id = ?",
                    (caller.id, now_ms(), action_id),
                )
            if not faults.is_on("cancelwiki-stays-wiki"):
                conn.execute("UPDATE nodes SET wiki = 0 WHERE id = ?", (node["id"],))
        return self._result("wikifyAction", action_id, node)

    async def send_to_moderation(self, request: Request) -> Response:
        svc = self.svc
        caller = svc.caller(request)
        if faults.is_on("denied-sendtomod-still-moderates") and not caller.anonymous:
            if not caller.can(auth.SEND_TO_MODERATION):
                node = svc.visible_node(caller, self._node_id(request))
                with self.tx() as conn:
                    conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (node["id"],))
        if not (faults.is_on("sendtomod-allowed-member") and caller.role == "member"):
            svc.require(caller, auth.SEND_TO_MODERATION)
        svc.fault_deny(caller, "sendtomod-denied-to-moderator", "moderator")
        node = svc.visible_node(caller, self._node_id(request))
        if node["in_moderation"]:
            earlier = self._last_action("sent", node["id"], None)
            if variants.is_on("repeat-is-noop") and earlier is not None:
                return self._result("sendToModAction", earlier, node)
            if variants.is_on("repeat-is-409"):
                raise conflict(f"node {node['id']} is already in moderation")
        with self.tx() as conn:
            action_id = self._record_action(
                conn,
                "moderated" if faults.is_on("sendtomod-verb-wrong") else "sent",
                caller,
                node["id"],
                _client_ip(request),
                private=not faults.is_on("sendtomod-not-private"),
                real_user=not faults.is_on("sendtomod-no-real-user"),
            )
            conn.execute("UPDATE nodes SET in_moderation = 1 WHERE id = ?", (node["id"],))
        return self._result("sendToModAction", action_id, node)

    async def lock(self, request: Request) -> Response:
        svc = self.svc
        caller = svc.caller(request)
        novice_bug = faults.is_on("lock-allowed-novice") and caller.role == "novice"
        if not (caller.can(auth.LOCK_ANY) or caller.can(auth.LOCK_OWN) or novice_bug):
            if faults.is_on("denied-lock-is-500"):
                raise RuntimeError("lock refused")
            raise denied(caller.anonymous)
        svc.fault_deny(caller, "lock-denied-to-moderator", "moderator")
        prompt = request.query_params.get("prompt")
        if (prompt is None or not prompt.strip()) and variants.is_on("lock-no-prompt-422"):
            return Response(b"", status_code=422)
        if prompt is None or not prompt.strip():
            raise bad_request("'prompt' is required: give the reason for locking, e.g. ?prompt=off-topic")
        node = svc.visible_node(caller, self._node_id(request))
        own = node["author_id"] == caller.id
        if not caller.can(auth.LOCK_ANY) and not own and not faults.is_on("lock-own-any-node") and not novice_bug:
            if faults.is_on("denied-lock-is-500"):
                raise RuntimeError("lock refused")
            raise denied(caller.anonymous)
        if own and caller.role == "member" and faults.is_on("lock-own-denied"):
            raise denied(caller.anonymous)
        if node["locked"]:
            earlier = self._last_action("locked", node["id"], None)
            if variants.is_on("repeat-is-noop") and earlier is not None:
                return self._result("lockAction", earlier, node)
            if variants.is_on("repeat-is-409"):
                raise conflict(f"node {node['id']} is already locked")
        extra = None if faults.is_on("lock-extra-not-prompt") else prompt
        verb = "lock" if faults.is_on("lock-verb-wrong") else "locked"
        with self.tx("lock") as conn:
            action_id = self._record_action(conn, verb, caller, node["id"], _client_ip(request), extra=extra)
            conn.execute("UPDATE nodes SET locked = 1 WHERE id = ?", (node["id"],))
        return self._result("lockAction", action_id, node)

    # --- 2 Schedule a data-protection job ---------------------------------------------------------------
    async def schedule_gdpr_job(self, request: Request) -> Response:
        svc = self.svc
        caller = svc.caller(request)
        svc.require(caller, auth.MANAGE_DATA_PROTECTION)
        fields = await read_fields(request)
        if faults.is_on("gdpr-params-ignored"):
            fields = {k: v for k, v in fields.items() if k not in request.query_params}
        if faults.is_on("gdpr-error-body-message"):
            try:
                return await self._schedule(caller, fields)
            except ApiError as exc:
                raise ApiError(exc.status, {"message": exc.body.get("error")}) from None
        return await self._schedule(caller, fields)

    async def _schedule(self, caller: Caller, fields: dict[str, Any]) -> Response:
        kind = fields.get("type")
        if kind is None and faults.is_on("gdpr-no-type-is-individual"):
            kind = "individual"
        if kind not in ("bulk", "individual"):
            raise bad_request("The provided 'type' is invalid")
        if kind == "individual":
            user = structured(fields, "user")
            if user is None or user == "":
                if faults.is_on("gdpr-individual-no-user-message"):
                    raise bad_request("'user' is required")
                raise bad_request("The individual type was selected, but the request is missing the user field.")
            by_name_only = isinstance(user, dict) and [k for k in user if _present(user, k)] == ["username"]
            if by_name_only and variants.is_on("gdpr-user-by-username-refused"):
                raise bad_request("The provided 'user' is invalid")
            if not self._find_user(user, ("username", "email", "id")):
                raise bad_request("The provided 'user' is invalid")
        else:
            csv = fields.get("csvFileId")
            if csv is None or csv == "":
                if faults.is_on("gdpr-bulk-no-csv-message"):
                    raise bad_request("'csvFileId' is required")
                raise bad_request("The bulk type was selected, but the request is missing the csvFileId field.")
            csv_id = as_id(csv)
            missing = csv_id is None or self.db.one("SELECT 1 FROM csv_files WHERE id = ?", (csv_id,)) is None
            if missing and not faults.is_on("gdpr-csv-missing-accepted"):
                raise bad_request("The requested file does not exist")
        operations = structured(fields, "operations")
        if isinstance(operations, str):
            operations = [o.strip() for o in operations.split(",") if o.strip()]
        if (
            not isinstance(operations, list)
            or not 1 <= len(operations) <= (5 if faults.is_on("gdpr-five-operations-accepted") else 4)
            or not all(isinstance(o, str) and o in GDPR_OPERATIONS for o in operations)
        ):
            raise bad_request("The provided 'operations' is/are invalid")
        reassign = structured(fields, "reassignUser")
        if reassign is not None and reassign != "":
            both = isinstance(reassign, dict) and _present(reassign, "username") and _present(reassign, "id")
            if both and not faults.is_on("gdpr-reassign-ambiguous-unnoticed"):
                raise bad_request("The request contains more than one reassignUser eligible configuration")
            lenient = faults.is_on("gdpr-reassign-invalid-accepted") or (
                faults.is_on("gdpr-reassign-invalid-id-accepted") and isinstance(reassign, dict)
                and _present(reassign, "id")
            )
            if not self._find_user(reassign, ("username", "id")) and not lenient:
                raise bad_request("The provided 'reassignUser' is/are invalid")
        when = self._schedule_ms(fields)
        if when < now_ms() and not faults.is_on("gdpr-past-date-accepted"):
            raise bad_request("The desired date is in the past and is it not eligible.")
        minute = when // (3_600_000 if variants.is_on("gdpr-time-frame-hour") else 60_000)
        taken = self.db.one("SELECT 1 FROM jobs WHERE schedule_minute = ?", (minute,)) is not None
        if taken and not faults.is_on("gdpr-time-frame-ignored"):
            raise bad_request("There is a job already scheduled for that time frame.")
        import json

        with self.tx("job") as conn:
            cur = conn.execute(
                "INSERT INTO jobs(type, schedule_minute, request, created_by, creation_date) VALUES (?, ?, ?, ?, ?)",
                (kind, minute, json.dumps(fields, default=str)[:100_000], caller.id, now_ms()),
            )
        key = "id" if faults.is_on("gdpr-jobid-missing") else "jobId"
        return self._json({key: int(cur.lastrowid or 0)}, 200 if faults.is_on("gdpr-created-200") else 201)

    def _find_user(self, spec: Any, keys: tuple[str, ...]) -> bool:
        """Exactly one of ``keys`` is given and names an existing user."""
        if not isinstance(spec, dict):
            return False
        given = [k for k in keys if _present(spec, k)]
        if len(given) != 1:
            return False
        key = given[0]
        value = spec[key]
        if key == "id":
            ident = as_id(value)
            if ident is None:
                return False
            return self.db.one("SELECT 1 FROM users WHERE id = ?", (ident,)) is not None
        if not isinstance(value, str):
            return False
        return self.db.one(f"SELECT 1 FROM users WHERE {key} = ?", (value,)) is not None

    @staticmethod
    def _schedule_ms(fields: dict[str, Any]) -> int:
        invalid = bad_request("The provided 'scheduleDate' is invalid")
        spec = structured(fields, "scheduleDate")
        if spec is None or spec == "":
            spec = structured(fields, "scheduleTime")
        if not isinstance(spec, dict):
            raise invalid
        formatted = spec.get("formatted")
        stamp = spec.get("timeStamp")
        if formatted is not None:
            if not isinstance(formatted, str) or not _FORMATTED_DATE.match(formatted):
                raise invalid
            if faults.is_on("gdpr-formatted-date-refused"):
                raise invalid
            try:
                dt = datetime.strptime(formatted, "%m/%d/%Y %H:%M").replace(tzinfo=UTC)
            except ValueError:
                raise invalid from None
            return int(dt.timestamp() * 1000)
        if isinstance(stamp, str) and stamp.strip().isdecimal():
            stamp = int(stamp.strip())
        if isinstance(stamp, bool) or not isinstance(stamp, int) or not 0 <= stamp < 10**14:
            raise invalid
        return stamp * 1000 if variants.is_on("gdpr-timestamp-seconds") else stamp

    # --- 8 A user's content and actions -----------------------------------------------------------------
    async def list_user_content(self, request: Request) -> Response:
        svc = self.svc
        caller = svc.caller(request)
        svc.require(caller, auth.MANAGE_DATA_PROTECTION)
        raw = request.path_params["user_id"]
        invalid = ApiError(404 if faults.is_on("content-invalid-user-404") else 422, {"error": "Invalid User Id"})
        if not (raw.isascii() and raw.isdecimal() and len(raw) < 19):
            raise invalid
        user = self.db.one("SELECT id, creation_date FROM users WHERE id = ?", (int(raw),))
        if user is None:
            raise invalid
        clause, params = svc.visibility.clause(caller, "n", comments=not faults.is_on("comment-private-in-content"))
        ids = self.db.ids(
            f"SELECT n.id FROM nodes n WHERE n.author_id = ? AND {clause}"
            f" ORDER BY n.creation_date {'ASC' if variants.is_on('content-oldest-first') else 'DESC'}, n.id DESC"
            " LIMIT ?",
            [user["id"], *params, USER_CONTENT_LIMIT],
        )
        joined = self._content_entry({"actionType": "joined", "canceled": False}, user["creation_date"])
        if not faults.is_on("content-enveloped"):
            # a thousand entries: each node's entry is encoded once and kept until the node changes
            encoded = svc.render.content_encoded(ids, lambda rows: [self._node_entry(r) for r in rows])
            items = [dumps(joined), *encoded] if variants.is_on("content-oldest-first") else [*encoded, dumps(joined)]
            return Response(b"[" + b",".join(items) + b"]", media_type=JSON_TYPE)
        from .listing import Paging, envelope

        entries = [self._node_entry(r) for r in svc.render.nodes_by_ids(ids)]
        entries.append(joined)
        return self._json(envelope(entries, len(entries), Paging(1, max(len(entries), 1)), "", {}))

    @staticmethod
    def _content_entry(entry: dict[str, Any], created_ms: int) -> dict[str, Any]:
        entry["actionDate"] = action_date(created_ms)
        if faults.is_on("content-entry-canceled-missing"):
            del entry["canceled"]
        if faults.is_on("content-date-no-fraction"):
            entry["actionDate"] = entry["actionDate"].rsplit(".", 1)[0]
        return entry

    def _node_entry(self, r: sqlite3.Row) -> dict[str, Any]:
        """One entry of the content list: what the user did (asked, answered, commented) and the node."""
        entry = self._content_entry(
            {"actionType": CONTENT_VERBS.get(r["type"], "posted"), "canceled": False}, r["creation_date"]
        )
        entry["node"] = {
            "id": r["id"],
            "title": r["title"],
            "body": r["body"],
            "type": r["type"],
            "accepted": bool(r["marked"]),
        }
        return entry


CONTENT_VERBS = {"question": "asked", "answer": "answered", "comment": "commented"}


def _present(spec: dict[str, Any], key: str) -> bool:
    return spec.get(key) not in (None, "")
