"""Where the faults of fix29 (faults_fix29.py) bite: one ``after`` hook on the user content list (request_hooks.HOOKS,
entry "fix29"), a no-op unless one of them is on."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from . import faults
from .auth import Caller
from .http_io import body_json, is_id, with_body
from .service import Service


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """The content list of one kind of user as the broken branch serves it."""
    if op != "listUserContent" or response.status_code != 200:
        return response
    moderator = faults.is_on("fix29-moderator-content-accepted-int")
    novice = faults.is_on("fix29-novice-content-enveloped")
    raw = request.path_params.get("user_id", "")
    if not (moderator or novice) or not is_id(raw):
        return response
    user = svc.db.one("SELECT role FROM users WHERE id = ?", (int(raw),))
    entries = body_json(response)
    if user is None or not isinstance(entries, list):
        return response
    if novice and user["role"] == "novice":
        return with_body(response, {"name": "", "sort": "", "page": 1, "pageSize": max(len(entries), 1),
                                    "pageCount": 1, "listCount": len(entries), "totalCount": len(entries),
                                    "list": entries})
    if moderator and user["role"] == "moderator":
        for entry in entries:
            node = entry.get("node") if isinstance(entry, dict) else None
            if isinstance(node, dict) and isinstance(node.get("accepted"), bool):
                node["accepted"] = int(node["accepted"])
        return with_body(response, entries)
    return response
