"""A count cached for a few seconds, as broken servers keep it: pageCount from a reader's first read of a list at a
page size, served again while totalCount and the items are read fresh (the faults of issue 44's "a count read again
right after a write"; one copy for every hook module that plants such a fault)."""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request

from .auth import Caller
from .service import Service


class KeptPageCounts:
    """pageCount kept per server, reader, path and page size for ``seconds`` after the first read."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._kept: dict[tuple[int, int, str, str], tuple[float, Any]] = {}

    def apply(self, svc: Service, request: Request, caller: Caller, body: dict[str, Any]) -> bool:
        """Put the kept pageCount into ``body``; True when it differs from the fresh one (the body changed)."""
        key = (id(svc), caller.id, request.url.path, request.query_params.get("pageSize", ""))
        kept = self._kept.get(key)
        now = time.monotonic()
        if kept is None or now - kept[0] >= self.seconds:
            self._kept[key] = (now, body.get("pageCount"))
            return False
        if body.get("pageCount") == kept[1]:
            return False
        body["pageCount"] = kept[1]
        return True
