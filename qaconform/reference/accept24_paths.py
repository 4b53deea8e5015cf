"""Where the planted faults of :mod:`faults_accept24` bite (issue 44 item 5, accept24): the lock of a node another
account sent to moderation, the lock of a node unwikified before. ``after`` rewrites the returned lock record as the
broken server serves it; each checks ``faults.is_on`` first."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import after_by_op, path_node, result_action
from .http_io import body_json, with_body
from .render import avatar
from .service import Service

VERB_SENT = "accept24-kind-lock-after-others-send-verb-sent"
USER_UNWIKIFIER = "accept24-kind-lock-after-unwikify-user-is-unwikifier"


def _lock(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """An accepted lock's record after another account's send (verb sent) or after an unwikify (its canceler)."""
    if not (faults.is_on(VERB_SENT) or faults.is_on(USER_UNWIKIFIER)):
        return response
    node = path_node(svc, request)
    body = body_json(response)
    action = result_action(body, "lockAction")
    if node is None or action is None:
        return response
    sent = svc.db.one("SELECT user_id FROM actions WHERE node_id = ? AND verb = 'sent' ORDER BY id DESC LIMIT 1",
                      (node["id"],))
    if faults.is_on(VERB_SENT) and sent is not None and sent["user_id"] != caller.id:
        action["verb"] = "sent"
    canceler = svc.db.one("SELECT u.* FROM actions a JOIN users u ON u.id = a.canceled_by WHERE a.node_id = ? AND "
                          "a.verb = 'wikified' AND a.canceled = 1 ORDER BY a.id DESC LIMIT 1", (node["id"],))
    if faults.is_on(USER_UNWIKIFIER) and canceler is not None and canceler["id"] != caller.id:
        action["user"] = {"id": canceler["id"], "username": canceler["username"],
                          "avatarUrl": avatar(canceler["email"], canceler["id"])}
    return with_body(response, body)


after = after_by_op({"lockNode": _lock})
