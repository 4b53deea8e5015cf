"""Where paths13's anonymous faults bite (issue 44; the entries and the sentences they break:
:mod:`faults_paths13`): anonymous holds neither lock nor wiki permission, so the door (app.py ``Requires``) refuses it
before the handler, and each fault answers that refusal instead on its one path (:func:`refusal`, wired in
request_hooks.HOOKS). Apart from :mod:`paths13_paths` because it builds the handlers' record (actions imports that
module: one way only). Each names its fault literally (the self-test checks every registered name appears in the
server code).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .actions import _result
from .auth import Caller
from .errors import ApiError
from .http_io import client_ip, path_id
from .service import Service, now_ms


def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    """The door's refusal of anonymous, answered as a success on one path each: a lock of a question that was wiki
    once (paths13-anonymous-lock-once-wiki: carried out, recorded as the question's author's), an unwikify of a node
    that was wiki once and is no longer (paths13-anonymous-cancelwiki-once-wiki: its earlier, canceled wikify
    record)."""
    if op not in ("lockNode", "cancelWiki") or exc.status not in (401, 403) or not faults.active():
        return None
    if op == "lockNode" and not faults.is_on("paths13-anonymous-lock-once-wiki"):
        return None
    if op == "cancelWiki" and not faults.is_on("paths13-anonymous-cancelwiki-once-wiki"):
        return None
    try:
        who = caller or svc.caller(request)
        node = svc.visible_node(who, path_id(request))
    except ApiError:
        return None
    if not who.anonymous:
        return None
    if op == "cancelWiki":
        row = None if node["wiki"] else svc.db.one(
            "SELECT id FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1 ORDER BY id DESC LIMIT 1",
            (node["id"],))
        return None if row is None else _result(svc, "wikifyAction", int(row[0]), node)
    once_wiki = svc.db.one("SELECT 1 FROM actions WHERE node_id = ? AND verb = 'wikified' AND canceled = 1",
                           (node["id"],))
    if node["type"] != "question" or node["locked"] or node["wiki"] or once_wiki is None:
        return None
    with svc.tx("lock") as conn:
        cur = conn.execute("INSERT INTO actions(verb, user_id, real_user_id, node_id, ip, action_date, extra, private)"
                           " VALUES ('locked', ?, NULL, ?, ?, ?, ?, 0)",
                           (node["author_id"], node["id"], client_ip(request), now_ms(),
                            request.query_params.get("prompt")))
        conn.execute("UPDATE nodes SET locked = 1 WHERE id = ?", (node["id"],))
    return _result(svc, "lockAction", int(cur.lastrowid or 0), node)

