"""What a client records of each exchange: the redacted request/response pair with its curl line, and the test's
tallies (writes, settles, hold-backs, created ids) that the pytest plugin reads and resets per test.

Apart from :mod:`qaconform.target.client` because the recording is data the report and the plugin read, while the
client is how requests are sent; ``client`` re-exports these names for the code that imports them from there.
"""

from __future__ import annotations

import json as jsonlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import parse_qsl, urlsplit

from qaconform.target.created_id import created_id
from qaconform.target.created_log import append as append_created
from qaconform.target.settle import Settled

REDACTED = "<redacted>"
BODY_KEEP = 4000  # characters of a body kept in a recorded exchange


@dataclass
class Exchange:
    """A redacted request/response pair, kept for the report and the curl line."""

    role: str
    method: str
    url: str
    status: int | None
    request_headers: dict[str, str]
    request_body: str | None
    response_headers: dict[str, str]
    response_body: str
    elapsed_ms: float
    curl: str
    operation: str | None = None
    request_body_base64: str | None = None
    """The body as sent, base64-encoded, when it is not UTF-8 (``request_body`` then shows the bytes escaped): what
    the HAR replays, byte for byte (HAR 1.2 encodes binary content in base64)."""

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))


_CREATED_KINDS = (("/answer.json", "answer"), ("/comment.json", "comment"), ("/schedule.json", "gdpr-job"))
"""What a 201 to a POST on a path ending so created (for the created-ids list of the report)."""


_NODE_ACTION = re.compile(r"/node/(\d+)/[^/]+$")
"""A node action's path (lock, send to moderation, cancel wiki, unfavorite ...: ``/node/N/ACTION.json``)."""


@dataclass
class Recorder:
    """Collects exchanges for the test that is running; the pytest plugin reads and resets it per test."""

    secrets: set[str] = field(default_factory=set)
    exchanges: list[Exchange] = field(default_factory=list)
    keep: int = 30
    total: int = 0
    late_in_row: int = 0  # requests in a row that used their whole timeout_s without a complete answer
    give_up_after: int = 3  # then stop sending: a hanging target would otherwise cost timeout_s per test
    retry_after_s: float = 30.0  # ... except one request this long after the last late one (it may have recovered)
    last_late: float = 0.0
    created: list[dict[str, Any]] = field(default_factory=list)  # every 201 to a POST, whoever sent it
    created_log: Path | None = None
    """Where each created item is also appended at once (:mod:`qaconform.target.created_log`; None: nowhere)."""
    changed_log: Path | None = None
    """clean26: where each accepted state change of a node is appended at once (``created_log.CHANGED_LOG``; None:
    nowhere, as for the cleanup's own deletes)."""
    settle_reads: int = 0  # read-backs after a write this test made (support.settle)
    settle_waits: list[dict[str, Any]] = field(default_factory=list)  # those that read more than once, or never settled
    writes: dict[str, dict[str, int]] = field(default_factory=dict)
    """Writes of the running test per operation: ``{"postAnswer": {"sent": 3, "accepted": 2, "held": 1}}`` (held:
    not sent, the write budget was spent)."""

    pool_writes: dict[str, dict[str, int]] = field(default_factory=dict)
    """The same per pool of the write budget they were taken from (a fixture may serve another test's share)."""

    holds: dict[str, Any] = field(default_factory=dict)
    """Hold-backs of the running test (429, 503 with Retry-After): ``{"times": 2, "waited_s": 2.0, "statuses":
    {"429": 2}, "paced_s": 0.4, "given_up": [why]}``."""
    tap: ClassVar[Callable[[Exchange], None] | None] = None
    """Called with every exchange of every recorder of the process (``qaconform.pytest.exchange_log``: the run's
    interface coverage and its HAR cassettes), besides the last ``keep`` each recorder holds for its test."""
    watchers: ClassVar[list[Callable[[Exchange], None]]] = []
    """Also called with every exchange of the process (readback: qaconform.pytest.readback's ledger of writes)."""

    def note_write(self, operation: str, what: str, pool: str | None = None) -> None:
        """One write of ``operation``: ``sent``, ``accepted`` (a 2xx) or ``held`` (not sent: budget spent)."""
        counts = self.writes.setdefault(operation, {"sent": 0, "accepted": 0, "held": 0})
        counts[what] += 1
        if pool is not None:
            self.pool_writes.setdefault(pool, {"sent": 0, "accepted": 0, "held": 0})[what] += 1

    def take_writes(self) -> dict[str, Any] | None:
        """This test's writes for the results file (``writes``: per operation, and per pool when a budget counted
        them), and a fresh count for the next test."""
        out = {"operations": self.writes, **({"pools": self.pool_writes} if self.pool_writes else {})}
        self.writes, self.pool_writes = {}, {}
        return out if out["operations"] else None

    def note_settle(self, how: Settled) -> None:
        """One read-back: counted; kept when it had to wait for the target's lists (or never saw the write)."""
        self.settle_reads += 1
        if how.reads > 1 or not how.settled:
            self.settle_waits.append(how.as_dict())

    def take_settles(self) -> dict[str, Any] | None:
        """This test's read-backs for the results file (``settle``), and a fresh count for the next test."""
        out = {"reads": self.settle_reads, "waits": self.settle_waits} if self.settle_reads else None
        self.settle_reads, self.settle_waits = 0, []
        return out

    def note_hold(self, status: int, waited_s: float, given_up: str | None = None) -> None:
        """One answer that held the running test back (qaconform.target.holdback): waited ``waited_s`` as told, or
        ``given_up`` (why the request was not sent again)."""
        h = self.holds
        h["times"] = int(h.get("times", 0)) + 1
        h["waited_s"] = round(float(h.get("waited_s", 0.0)) + waited_s, 3)
        statuses = h.setdefault("statuses", {})
        statuses[str(status)] = statuses.get(str(status), 0) + 1
        if given_up is not None:
            h.setdefault("given_up", []).append(given_up)

    def note_paced(self, waited_s: float) -> None:
        """Time the running test waited for the pace a hold-back lowered (not for the profile's own limits)."""
        if waited_s >= 0.001:
            self.holds["paced_s"] = round(float(self.holds.get("paced_s", 0.0)) + waited_s, 3)

    @property
    def held_s(self) -> float:
        """What the running test has waited as told so far (its budget: holdback.TEST_BUDGET_S)."""
        return float(self.holds.get("waited_s", 0.0))

    def take_holds(self) -> dict[str, Any] | None:
        """This test's hold-backs for the results file (``held_back``), and a fresh count for the next test."""
        out, self.holds = self.holds, {}
        return out or None

    def note_outcome(self, late: bool) -> None:
        self.late_in_row = self.late_in_row + 1 if late else 0
        if late:
            self.last_late = time.monotonic()

    def holding_back(self) -> bool:
        """Whether the target has hung often enough, and recently enough, that the next request is not sent."""
        return (bool(self.give_up_after) and self.late_in_row >= self.give_up_after
                and time.monotonic() - self.last_late < self.retry_after_s)

    def note_created(self, role: str, url: str, content: bytes, location: str | None,
                     sent: bytes | None = None) -> None:
        """Remember what a POST created, so the report lists it even when the test that sent it did not. For a
        data-protection job (which nobody can undo) also what it will do: ``job`` (:func:`job_facts`)."""
        path = urlsplit(url).path
        kind = next((k for suffix, k in _CREATED_KINDS if path.endswith(suffix)), "content")
        body: Any = None
        if len(content) < 65536:
            try:
                body = jsonlib.loads(content)
            except (ValueError, UnicodeDecodeError):
                body = None
        new_id: Any
        if kind == "gdpr-job":  # a job's id: its type is not shown, so it is kept as the target sent it
            new_id = body.get("jobId") if isinstance(body, dict) else None
        else:
            new_id = created_id(body, location)
        item: dict[str, Any] = {"kind": kind, "id": new_id, "by": role, "url": self.redact(url)}
        if kind == "gdpr-job":
            item["job"] = job_facts(url, sent)
        self.created.append(item)
        if self.created_log is not None:
            append_created(self.created_log, item)

    def note_changed(self, role: str, url: str, operation: str) -> None:
        """An accepted state change (not a POST that created) of the node the path names (``/node/N/...``), appended
        to :attr:`changed_log`: what the run changed that its cleanup cannot undo, unless the run created the node."""
        found = _NODE_ACTION.search(urlsplit(url).path)
        if self.changed_log is not None and found:
            append_created(self.changed_log, {"node": int(found.group(1)), "operation": operation, "by": role})

    def redact(self, text: str) -> str:
        for s in self.secrets:
            if s and len(s) >= 3:
                text = text.replace(s, REDACTED)
        return text

    def redact_bytes(self, data: bytes) -> bytes:
        """:meth:`redact` for a body as sent, which need not be UTF-8."""
        for s in self.secrets:
            if s and len(s) >= 3 and s.encode() in data:
                data = data.replace(s.encode(), REDACTED.encode())
        return data

    def add(self, ex: Exchange) -> None:
        self.total += 1
        if Recorder.tap is not None:
            Recorder.tap(ex)
        for watch in Recorder.watchers:
            watch(ex)
        self.exchanges.append(ex)
        if len(self.exchanges) > self.keep:
            del self.exchanges[0]

    def take(self) -> list[Exchange]:
        out, self.exchanges = self.exchanges, []
        return out


def job_facts(url: str, sent: bytes | None) -> dict[str, Any]:
    """What a scheduled data-protection job will do, from the request that scheduled it: for whom (``user`` as sent:
    username, email or id; or the CSV file of a bulk job), when (``scheduleDate`` or ``scheduleTime`` as sent), which
    operations, and to whom content is reassigned. A parameter wins over the body's field (the description's
    Conventions), as on the target. The report lists it for the person who may have to cancel it."""
    fields: dict[str, Any] = {}
    if sent:
        try:
            body = jsonlib.loads(sent)
        except (ValueError, UnicodeDecodeError):
            body = None
        if isinstance(body, dict):
            fields.update(body)
        elif body is None:
            fields.update(parse_qsl(sent.decode("utf-8", errors="replace"), keep_blank_values=True))
    fields.update(parse_qsl(urlsplit(url).query, keep_blank_values=True))
    wanted = ("type", "user", "csvFileId", "scheduleDate", "scheduleTime", "operations", "reassignUser")
    return {k: fields[k] for k in wanted if k in fields}
