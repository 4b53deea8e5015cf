"""Where the planted faults of :mod:`faults_accept23` bite (issue 44, accept23): an unwikify of a locked wiki node.
``after`` rewrites the stored node as the broken server leaves it; it checks ``faults.is_on`` first."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .hook_kit import after_by_op, path_node, result_action
from .http_io import body_json
from .service import Service

STAYS_WIKI = "accept23-kind-cancelwiki-locked-node-stays-wiki"


def _cancel_wiki(svc: Service, request: Request, caller: Caller, response: Response) -> Response:
    """A locked node's accepted unwikify writes the node's wiki flag back (the action still says canceled)."""
    if not faults.is_on(STAYS_WIKI):
        return response
    node = path_node(svc, request)
    if node is None or not node["locked"] or result_action(body_json(response), "wikifyAction") is None:
        return response
    with svc.tx() as conn:
        conn.execute("UPDATE nodes SET wiki = 1 WHERE id = ?", (node["id"],))
    return response


after = after_by_op({"cancelWiki": _cancel_wiki})
