"""Write handler of the site's delete action, OUTSIDE the description's 19 operations: ``PUT /node/{id}/delete.json``.

The description deletes nothing, but real sites of this product delete a node with a PUT on it (verb "deleted"), so
the kit can remove what a run created when a profile names such an operation (``[cleanup]``). This is the reference
server's version of it, so that cleanup is tested end to end:

- who: the node's author (Delete own posts, every signed-in role) and admin/moderator (Delete posts, any node,
  private comments they cannot read included); the route table (app.py ``SITE_ROUTES``) and
  :func:`access.require_owner` decide, as for lock and cancel wiki;
- what: the node and every node under it (an answer's comments and their replies) move to ``deleted_nodes`` with
  the action that removed them, so they leave every list, every count and every id list at once; the counts the
  node added to its parent, its question and its authors are taken back;
- the answer: ``{"success": true, "result": {"deleteAction": <action record, verb "deleted">}}``; a node already
  deleted is a 404 saying so (whatever variant is on), so a second cleanup finds it "already gone";
- undelete (``PUT /node/{id}/undelete.json``, admin and moderator): the node and what was deleted with it come back
  with their counts, and the answer is the delete action, now canceled.
"""

from __future__ import annotations

import sqlite3

from starlette.requests import Request
from starlette.responses import Response

from . import access, auth
from .auth import Caller
from .errors import bad_request, not_found
from .http_io import client_ip, json_response, path_id
from .service import Service, now_ms

SUBTREE = (
    "WITH RECURSIVE sub(id) AS (SELECT ? UNION ALL SELECT n.id FROM nodes n JOIN sub ON n.parent_id = sub.id)"
    " SELECT id FROM sub"
)
"""The ids of a node and of every node under it (comments of an answer, replies of a comment)."""


async def delete_node(svc: Service, request: Request, caller: Caller) -> Response:
    node_id = path_id(request)
    if svc.db.one("SELECT 1 FROM deleted_nodes WHERE id = ?", (node_id,)) is not None:
        raise not_found(f"node {node_id} is already deleted; nothing to delete")
    node = _node_to_delete(svc, caller, node_id)
    access.require_owner("deleteNode", caller, node["author_id"] == caller.id, auth.DELETE_ANY)
    with svc.tx() as conn:
        cur = conn.execute(
            "INSERT INTO actions(verb, user_id, real_user_id, node_id, ip, action_date, extra, private)"
            " VALUES ('deleted', ?, ?, ?, ?, ?, NULL, 0)",
            (caller.id, caller.id, node["id"], client_ip(request), now_ms()),
        )
        action_id = int(cur.lastrowid or 0)
        _remove(conn, node, action_id)
    row = svc.db.one("SELECT * FROM actions WHERE id = ?", (action_id,))
    assert row is not None
    return json_response({"success": True, "result": {"deleteAction": svc.render.action_json(row, node["type"])}})


def _node_to_delete(svc: Service, caller: Caller, node_id: int) -> sqlite3.Row:
    """The node, as the caller finds it: a holder of Delete posts finds any node by id (a moderator removes a
    private comment they may not read); others only what they may see (404 otherwise, as every read)."""
    if caller.can(auth.DELETE_ANY):
        row = svc.db.one("SELECT * FROM nodes WHERE id = ?", (node_id,))
        if row is None:
            raise not_found(f"node {node_id} does not exist; nothing to delete")
        return row
    return svc.visible_node(caller, node_id)


def _remove(conn: sqlite3.Connection, node: sqlite3.Row, action_id: int) -> None:
    """Move the node and its subtree to ``deleted_nodes``; take back what they added to the counts of the nodes and
    users that stay (answers and comments of the parent, hotness of the question, posts of each author)."""
    ids = [int(r[0]) for r in conn.execute(SUBTREE, (node["id"],))]
    marks = ",".join("?" * len(ids))
    comments = conn.execute(f"SELECT COUNT(*) FROM nodes WHERE id IN ({marks}) AND type = 'comment'", ids).fetchone()[0]
    authors = conn.execute(f"SELECT author_id, COUNT(*) FROM nodes WHERE id IN ({marks}) GROUP BY author_id",
                           ids).fetchall()
    conn.execute(f"INSERT INTO deleted_nodes SELECT *, ? FROM nodes WHERE id IN ({marks})", [action_id, *ids])
    conn.execute(f"DELETE FROM nodes WHERE id IN ({marks})", ids)
    published = _counted(conn, node)
    if node["type"] == "answer":
        conn.execute("UPDATE nodes SET answer_count = MAX(answer_count - ?, 0) WHERE id = ?",
                     (published, node["parent_id"]))
    elif node["type"] == "comment":
        conn.execute("UPDATE nodes SET comment_count = MAX(comment_count - 1, 0) WHERE id = ?", (node["parent_id"],))
    if node["question_id"] is not None and node["type"] != "question":
        conn.execute("UPDATE nodes SET hot = MAX(hot - ?, 0) WHERE id = ?",
                     (3 * published + comments, node["question_id"]))
    conn.executemany("UPDATE users SET post_count = MAX(post_count - ?, 0) WHERE id = ?",
                     [(int(n), int(a)) for a, n in authors])


def _counted(conn: sqlite3.Connection, node: sqlite3.Row) -> int:
    """1 when ``node`` is an answer its question counts (answerCount, hotness): one published when it was created
    (answers.py counts it then), whether or not it was sent to moderation since (that leaves the counts as they were:
    a 30 s mixed load that sent 3 of its answers to moderation left answerCount 3 higher after its cleanup)."""
    if node["type"] != "answer":
        return 0
    if not node["in_moderation"]:
        return 1
    sent = conn.execute("SELECT 1 FROM actions WHERE node_id = ? AND verb IN ('sent', 'moderated') LIMIT 1",
                        (node["id"],)).fetchone()
    return int(sent is not None)


async def undelete_node(svc: Service, request: Request, caller: Caller) -> Response:
    node_id = path_id(request)
    row = svc.db.one("SELECT delete_action FROM deleted_nodes WHERE id = ?", (node_id,))
    if row is None:
        if svc.db.one("SELECT 1 FROM nodes WHERE id = ?", (node_id,)) is not None:
            raise bad_request(f"node {node_id} is not deleted; there is nothing to undelete")
        raise not_found(f"node {node_id} does not exist; nothing to undelete")
    action_id = int(row["delete_action"])
    columns = ", ".join(r[1] for r in svc.db.all("PRAGMA main.table_info(nodes)"))
    with svc.tx() as conn:
        top = conn.execute("SELECT node_id FROM actions WHERE id = ?", (action_id,)).fetchone()[0]
        conn.execute(f"INSERT INTO nodes({columns}) SELECT {columns} FROM deleted_nodes WHERE delete_action = ?",
                     (action_id,))
        conn.execute("DELETE FROM deleted_nodes WHERE delete_action = ?", (action_id,))
        _restore_counts(conn, top)
        conn.execute("UPDATE actions SET canceled = 1, canceled_by = ?, canceled_date = ? WHERE id = ?",
                     (caller.id, now_ms(), action_id))
    node = svc.db.one("SELECT type FROM nodes WHERE id = ?", (top,))
    action = svc.db.one("SELECT * FROM actions WHERE id = ?", (action_id,))
    assert node is not None and action is not None
    return json_response({"success": True, "result": {"deleteAction": svc.render.action_json(action, node["type"])}})


def _restore_counts(conn: sqlite3.Connection, top_id: int) -> None:
    """What :func:`_remove` took back, given again once the subtree of ``top_id`` is back in ``nodes``."""
    node = conn.execute("SELECT * FROM nodes WHERE id = ?", (top_id,)).fetchone()
    ids = [int(r[0]) for r in conn.execute(SUBTREE, (top_id,))]
    marks = ",".join("?" * len(ids))
    comments = conn.execute(f"SELECT COUNT(*) FROM nodes WHERE id IN ({marks}) AND type = 'comment'", ids).fetchone()[0]
    published = _counted(conn, node)
    if node["type"] == "answer":
        conn.execute("UPDATE nodes SET answer_count = answer_count + ? WHERE id = ?", (published, node["parent_id"]))
    elif node["type"] == "comment":
        conn.execute("UPDATE nodes SET comment_count = comment_count + 1 WHERE id = ?", (node["parent_id"],))
    if node["question_id"] is not None and node["type"] != "question":
        conn.execute("UPDATE nodes SET hot = hot + ? WHERE id = ?", (3 * published + comments, node["question_id"]))
    for author, n in conn.execute(f"SELECT author_id, COUNT(*) FROM nodes WHERE id IN ({marks}) GROUP BY author_id",
                                  ids).fetchall():
        conn.execute("UPDATE users SET post_count = post_count + ? WHERE id = ?", (int(n), int(author)))
