"""Where the planted faults of the blind round on histories bite (issue 44, blindh; entries in
:mod:`faults_blind_histories`).

Each breaks one stated rule only after one transition of the state table (a lock, a send to moderation, an
unwikify, an unfavorite while another account holds a favorite), only for one derived count or field, or only in
one order of reads (a cache keyed by the URL or by whether the caller signed in). The handlers call these helpers
at the one place each fault bites; every helper checks ``faults.is_on`` first, so a fault costs a set lookup when
off. The caches and the record of who unwikified what live here, in the process, like the bugs they model.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import auth, faults
from .auth import Caller
from .db import Database
from .fragments import JSON_TYPE
from .pages import Miscount

KEPT_S = 2.0
"""How long the planted caches of this round keep what they kept (a count, a list's body)."""

_favorite_counts: dict[int, tuple[float, int]] = {}
_comments_by_class: dict[tuple[str, bool], tuple[float, bytes]] = {}
_signed_in_copy: dict[str, tuple[float, bytes]] = {}
_unwikified_by: dict[int, int] = {}
"""blindh-cancelwiki-stale-for-other-readers: node id -> the account that unwikified it (the only one whose cached
rendering was dropped)."""


def _row(db: Database, node_id: Any) -> sqlite3.Row | None:
    return None if node_id is None else db.one("SELECT * FROM nodes WHERE id = ?", (node_id,))


# --- comments (comments.py) ----------------------------------------------------------------------------------
def permission_skipped(parent: sqlite3.Row, caller: Caller) -> bool:
    """blindh-private-option-on-moderated-parent: comment rule 7 is not applied under a node in moderation (the
    moderation queue's own workflow was thought to judge it)."""
    return (bool(parent["in_moderation"]) and not caller.can(auth.USE_PRIVATE_COMMENTS)
            and faults.is_on("blindh-private-option-on-moderated-parent"))


def comment_privacy(parent: sqlite3.Row, visibility: str | None, recipients: list[int],
                    decided: tuple[str, list[int]]) -> tuple[str, list[int]]:
    """blindh-locked-answer-comment-moderators-only: a comment without privacy fields on a locked answer is stored
    visible to moderators only (the locked thread taken as moderator-only)."""
    if (parent["type"] == "answer" and parent["locked"] and visibility is None and not recipients
            and decided[0] == "full" and faults.is_on("blindh-locked-answer-comment-moderators-only")):
        return "mod", []
    return decided


# --- counts (node_lists.py, actions.py) ----------------------------------------------------------------------
def comment_miscount(where: list[str], params: list[Any]) -> Miscount | None:
    """blindh-comment-totalcount-skips-deep-replies: an answer's comment count made of its comments and their
    direct replies (depth up to 3), while the list holds replies to replies too."""
    if not faults.is_on("blindh-comment-totalcount-skips-deep-replies"):
        return None
    return Miscount([*where, "n.depth <= 3"], list(params))


def favorite_count(node_id: int, count: int) -> int:
    """blindh-favorite-count-kept-per-node: the favoriteCount an unfavorite returns, kept per node for KEPT_S."""
    if not faults.is_on("blindh-favorite-count-kept-per-node"):
        return count
    now = time.monotonic()
    kept = _favorite_counts.get(node_id)
    if kept is not None and now - kept[0] < KEPT_S:
        return kept[1]
    _favorite_counts[node_id] = (now, count)
    return count


def unmarks_question(conn: sqlite3.Connection, question_id: int) -> None:
    """blindh-answer-post-unmarks-question: a new answer recomputes the question's accepted flag from the newest
    answer only (which is never accepted), so the question of an accepted answer reads as not marked."""
    if faults.is_on("blindh-answer-post-unmarks-question"):
        conn.execute("UPDATE nodes SET marked = 0 WHERE id = ?", (question_id,))


def held_for_moderation(db: Database, caller: Caller) -> bool:
    """blindh-author-moderated-holds-next-answers: once a node of the author was sent to moderation, the author's
    next answers are held in moderation too, Publish answer or not."""
    if not faults.is_on("blindh-author-moderated-holds-next-answers"):
        return False
    return db.one("SELECT 1 FROM actions a JOIN nodes n ON n.id = a.node_id WHERE a.verb = 'sent'"
                  " AND n.author_id = ? LIMIT 1", (caller.id,)) is not None


def content_clause(clause: str) -> str:
    """blindh-content-private-under-locked-parent: a user's content list judges a comment under a locked node by
    its parent (public) rather than by its own privacy."""
    if not faults.is_on("blindh-content-private-under-locked-parent"):
        return clause
    return (f"({clause} OR (n.type = 'comment' AND EXISTS (SELECT 1 FROM nodes p WHERE p.id = n.parent_id"
            " AND p.locked = 1)))")


# --- node actions (actions.py) -------------------------------------------------------------------------------
def lock_extra(node: sqlite3.Row, extra: str | None) -> str | None:
    """blindh-lock-extra-dropped-in-moderation: the prompt of a lock on a node in moderation goes to the moderation
    queue's note, and the lock record's extra stays null."""
    if node["in_moderation"] and faults.is_on("blindh-lock-extra-dropped-in-moderation"):
        return None
    return extra


def sendtomod_real_user(conn: sqlite3.Connection, node: sqlite3.Row, action_id: int) -> None:
    """blindh-sendtomod-realuser-lock-holder: on a locked node, realUser is taken from the lock's holder."""
    if not node["locked"] or not faults.is_on("blindh-sendtomod-realuser-lock-holder"):
        return
    locker = conn.execute("SELECT user_id FROM actions WHERE node_id = ? AND verb = 'locked' ORDER BY id DESC"
                          " LIMIT 1", (node["id"],)).fetchone()
    if locker is not None:
        conn.execute("UPDATE actions SET real_user_id = ? WHERE id = ?", (locker[0], action_id))


def unfavorite_cancels(conn: sqlite3.Connection, node_id: int) -> bool:
    """blindh-unfavorite-canceled-while-others-hold: the favorite action is marked canceled only once nobody holds
    a favorite of the node any more (canceled taken from the node's state, not the caller's)."""
    if not faults.is_on("blindh-unfavorite-canceled-while-others-hold"):
        return True
    return conn.execute("SELECT 1 FROM favorites WHERE node_id = ?", (node_id,)).fetchone() is None


def unwikified(node_id: int, caller: Caller) -> None:
    """blindh-cancelwiki-stale-for-other-readers: note who unwikified the node (their rendering alone is fresh)."""
    if faults.is_on("blindh-cancelwiki-stale-for-other-readers"):
        _unwikified_by[node_id] = caller.id


# --- reads in one order (dispatch.py) ------------------------------------------------------------------------
def after(db: Database, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """A read's response as the planted caches and stale renderings of this round change it."""
    if response.status_code != 200 or request.method != "GET":
        return response
    if op == "listAnswerComments" and faults.is_on("blindh-comment-list-cached-per-staff-flag"):
        return _kept(_comments_by_class, (str(request.url), caller.sees_moderation), response)
    if op == "listUserAnswers" and faults.is_on("blindh-user-answers-anonymous-gets-signed-in-copy"):
        return _signed_in_copy_for_anonymous(str(request.url), caller, response)
    if op == "listAnswerComments" and faults.is_on("blindh-locked-thread-recipients-hidden"):
        answer = _row(db, request.path_params.get("answer_id"))
        return _recipients_hidden(response) if answer is not None and answer["locked"] else response
    if op in ("listQuestions", "listUserQuestions") and _unwikified_by:
        return _stale_wiki(caller, response)
    return response


def _kept(cache: dict[tuple[str, bool], tuple[float, bytes]], key: tuple[str, bool], response: Response) -> Response:
    now = time.monotonic()
    kept = cache.get(key)
    if kept is not None and now - kept[0] < KEPT_S:
        return Response(kept[1], media_type=JSON_TYPE)
    cache[key] = (now, bytes(response.body))
    return response


def _signed_in_copy_for_anonymous(key: str, caller: Caller, response: Response) -> Response:
    """A public cache in front of the list: it stores what a signed-in reader got, and serves it to anonymous."""
    now = time.monotonic()
    if not caller.anonymous:
        _signed_in_copy[key] = (now, bytes(response.body))
        return response
    kept = _signed_in_copy.get(key)
    if kept is not None and now - kept[0] < KEPT_S:
        return Response(kept[1], media_type=JSON_TYPE)
    return response


def _recipients_hidden(response: Response) -> Response:
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    for item in body.get("list") or [] if isinstance(body, dict) else []:
        if isinstance(item, dict) and item.get("recipients"):
            del item["recipients"]
    return Response(json.dumps(body).encode(), media_type=JSON_TYPE)


def _stale_wiki(caller: Caller, response: Response) -> Response:
    try:
        body = json.loads(bytes(response.body))
    except ValueError:
        return response
    changed = False
    for item in body.get("list") or [] if isinstance(body, dict) else []:
        ident = item.get("id") if isinstance(item, dict) else None
        by = _unwikified_by.get(ident) if isinstance(ident, int) else None
        if by is not None and by != caller.id and item.get("wiki") is False:
            item["wiki"] = True
            changed = True
    return Response(json.dumps(body).encode(), media_type=JSON_TYPE) if changed else response
