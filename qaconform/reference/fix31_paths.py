"""Where the faults of fix31 (issue 44, :mod:`faults_fix31`) bite: a job's reassignUser id and a follower list's
node id past 32 bits, a job's operations given as a request parameter. Each returns
at its first test unless its own fault is on."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import crossing2_paths, faults
from .auth import Caller
from .bodies import structured
from .errors import bad_request
from .http_io import json_response
from .service import Service

INT32_MAX = 2**31 - 1
REASSIGN_ID = "fix31-reassign-id-beyond-int32-wrong-error"
FOLLOWERS_500 = "fix31-followers-id-beyond-int32-500"
OPERATIONS_PARAM = "fix31-gdpr-operations-param-unchecked"


def beyond_int32(raw: Any) -> bool:
    """An id from 2^31 up to 18 digits: one a 64-bit id holds and a 32-bit parser does not."""
    text = str(raw).strip()
    return text.isascii() and text.isdecimal() and len(text) < 19 and int(text) > INT32_MAX


def job_fields(fields: dict[str, Any]) -> None:
    """A job's reassignUser id past 32 bits refused with a parser's message, not the stated row."""
    if not faults.is_on(REASSIGN_ID):
        return
    reassign = structured(fields, "reassignUser")
    if isinstance(reassign, dict) and beyond_int32(reassign.get("id", "")):
        raise bad_request("reassignUser id must be an integer")


def skipped(query_keys: Iterable[str]) -> frozenset[str]:
    """The operations check skipped when operations came as a request parameter."""
    if "operations" in query_keys and faults.is_on(OPERATIONS_PARAM):
        return frozenset({crossing2_paths.OPERATIONS})
    return frozenset()


async def before(svc: Service, op: str, request: Request, caller: Caller, _handler: Any) -> Response | None:
    if op == "listNodeFollowers" and faults.is_on(FOLLOWERS_500) and beyond_int32(
            request.path_params.get("node_id", "")):
        return json_response({"error": "internal error (planted: fix31)"}, 500)
    return None
