"""The run's ledger of accepted answers and comments, for the late reader that reads them all back (readback, issue 44).

Many of the run's accepted writes are judged on their 201 and body only, by the test that made them for its own rule
(a Node field, a carrier, a script): whether the answer is then published, or the comment listed, went unseen on
those paths (blind round 84's answer carrying a title held in moderation). So every process of a run notes each
accepted write as the client sees it (:class:`~qaconform.target.recording.Recorder` ``watchers``): an answer or a
comment created (201: its id, its writer, its parent, the fields it was sent with, how its body travelled), and every
other accepted write on a node (a send to moderation, a lock, an unwikify: the node's state changed on purpose), and
every write denied 401 or 403 (refusals2: ``refused``, with the fields it sent). The late tests
(suites/contract/test_readback.py) read the ledger and judge each write where the description says it appears, and
each refused text where it must not. Plain data; the file is shared by the xdist workers of one run (one JSON line
per write, appended with one ``write``), a run on one process keeps it in memory too.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from qaconform.target.created_id import created_id
from qaconform.target.recording import BODY_KEEP, Exchange, Recorder


@dataclass(frozen=True)
class Write:
    """One accepted write: ``kind`` answer or comment (created: ``id``), or ``acted`` (an action on ``node``)."""

    kind: str
    by: str
    node: int
    """The new node's id (answer, comment) or the node acted on (acted)."""
    parent: int | None = None
    """The question (answer) or node (comment) written under."""
    fields: dict[str, Any] = field(default_factory=dict)
    """The fields sent, from the body (JSON object or form) and the parameters (the parameter wins)."""
    form: str = ""
    """How it travelled: json, form, query (body as a parameter) or other."""
    action: str = ""
    """acted: the path's last part (sendtomod.json, lock.json ...)."""
    test: str = ""
    status: int = 0
    """refused: the status of the denial (401 or 403)."""
    origin: str = ""
    """The scheme and host the write went to: a process may talk to more than one server (the kit's own tests start
    servers of their own beside the run's target), and only the target's writes are the reader's to judge."""


@dataclass
class Ledger:
    config: Any = None
    """The pytest config of this process (its shared file is found on first use: the temp folders exist by then)."""
    kept: list[Write] = field(default_factory=list)

    @property
    def path(self) -> Path | None:
        worker = getattr(self.config, "workerinput", None)
        factory = getattr(self.config, "_tmp_path_factory", None)
        if worker is None or factory is None:
            return None
        return Path(factory.getbasetemp().parent) / f"qc-readback-{worker['testrunuid']}.jsonl"

    def watch(self, ex: Exchange) -> None:
        write = parse(ex, os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0])
        if write is None:
            return
        write = replace(write, origin=origin(ex.url))
        self.kept.append(write)
        path = self.path
        if path is not None:
            line = (json.dumps(vars(write), default=str) + "\n").encode()
            try:
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            except OSError:
                return
            try:
                os.write(fd, line)
            finally:
                os.close(fd)

    def writes(self, to: str | None = None) -> list[Write]:
        """Every write noted by this run: the shared file's (every worker's) when there is one, else this process's;
        with ``to`` (an :func:`origin`), only the writes sent there."""
        return [w for w in self._all() if to is None or w.origin == to]

    def _all(self) -> list[Write]:
        path = self.path
        if path is None:
            return list(self.kept)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            return list(self.kept)
        out = []
        for line in text.splitlines():
            try:
                out.append(Write(**json.loads(line)))
            except (ValueError, TypeError):
                continue  # a torn line: that write is not judged
        return out


def origin(url: str) -> str:
    """A URL's scheme and host (with its port): the server a write went to."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


LEDGER = Ledger()
"""This process's ledger (installed by :func:`install`)."""


READERS = ("suites/contract/test_readback.py::",)
"""The late reader's tests: run after every other test of their process (and ranked last under xdist:
qaconform.pytest.parallel)."""


def pytest_configure(config: pytest.Config) -> None:
    """Note every accepted write of this process from now on."""
    LEDGER.config = config
    if LEDGER.watch not in Recorder.watchers:
        Recorder.watchers.append(LEDGER.watch)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The late reader after every other test: it judges what they wrote."""
    late = [i for i in items if is_reader(i.nodeid)]
    if late:
        items[:] = [i for i in items if not is_reader(i.nodeid)] + late


def is_reader(nodeid: str) -> bool:
    return any(f"/{r}" in f"/{nodeid}" for r in READERS)


def _header(headers: dict[str, str], name: str) -> str:
    return next((v for k, v in headers.items() if k.lower() == name), "")


def _fields(ex: Exchange, media: str) -> dict[str, Any]:
    body: Any = {}
    text = ex.request_body or ""
    if media == "application/json":
        try:
            body = json.loads(text)
        except ValueError:
            body = {}
    elif media == "application/x-www-form-urlencoded":
        body = dict(parse_qsl(text, keep_blank_values=True))
    out = dict(body) if isinstance(body, dict) else {}
    if ex.request_body_base64 is not None or len(text) >= BODY_KEEP:
        out.pop("body", None)  # not UTF-8, or cut where the exchange keeps no more: its text is not known here
    out.update(parse_qsl(urlsplit(ex.url).query, keep_blank_values=True))
    return out


DENIED = (401, 403)
"""The statuses of a denied write (PERM-DENIED-NO-EFFECT: "Every operation requires the permissions below"); a
400 or a state's 409 is no denial, and no sentence says what it leaves behind (refusals2)."""


def parse(ex: Exchange, test: str = "") -> Write | None:
    """The write an exchange is, when it is an accepted write (any method but GET and HEAD) on a node or a question:
    a POST's 201 creates (answer, comment), every other accepted write acts on the node (the actions are PUTs); a
    denied one (401, 403) is noted ``refused`` with the fields it sent (refusals2)."""
    if ex.method.upper() in ("GET", "HEAD") or ex.status is None or not (200 <= ex.status < 300 or ex.status in DENIED):
        return None
    parts = urlsplit(ex.url).path.rstrip("/").split("/")[-3:]  # the operation's path ends the URL
    if len(parts) != 3 or parts[0] not in ("question", "node") or not parts[1].isdecimal():
        return None
    parent, last = int(parts[1]), parts[2]
    media = _header(ex.request_headers, "content-type").split(";")[0].strip().lower()
    query = dict(parse_qsl(urlsplit(ex.url).query, keep_blank_values=True))
    if ex.status in DENIED:  # refusals2: a denied write, on the node or question it named
        form = "query" if "body" in query else {"application/json": "json",
                                                "application/x-www-form-urlencoded": "form"}.get(media, "other")
        return Write("refused", ex.role, parent, None, _fields(ex, media), form, last, test, ex.status)
    kind = {("question", "answer.json"): "answer", ("node", "comment.json"): "comment"}.get((parts[0], last))
    if kind is None or ex.method.upper() != "POST":
        return Write("acted", ex.role, parent, action=last, test=test)
    if ex.status != 201:
        return None
    try:
        body = json.loads(ex.response_body)
    except ValueError:
        body = None
    new = created_id(body, _header(ex.response_headers, "location") or None)
    if new is None:
        return None
    form = "query" if "body" in query else {"application/json": "json",
                                            "application/x-www-form-urlencoded": "form"}.get(media, "other")
    return Write(kind, ex.role, new, parent, _fields(ex, media), form, test=test)
