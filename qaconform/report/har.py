"""Cassettes: a run's exchanges as HAR 1.2 files, to replay or open in a browser's developer tools.

Every failed or warned test gets ``har/<n>-<test>.har`` with all the exchanges it (and the fixtures it started)
sent, whole: request and response, headers and bodies, timings; the report links it from the failure.
``qaconform run --har all`` also keeps every exchange of the run in ``har/all.har``. The exchanges are the client's
recorded copies (Authorization and the profile's secrets already replaced by ``<redacted>``), and each file gets the
report's own last pass (``qaconform.report.redact``) before it is written. A body is kept as the client recorded it
(its first 4000 characters): a HAR comment says when one was cut.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from qaconform.report.files import strict_json
from qaconform.report.redact import redact

HAR_DIR = "har"
ALL_NAME = "all.har"
CUT_AT = 4000
"""Characters of a body the client keeps (qaconform.target.recording.BODY_KEEP)."""
_REASONS = {200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found", 400: "Bad Request",
            401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
            410: "Gone", 413: "Payload Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Entity",
            429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}


def _pairs(headers: Mapping[str, Any] | None) -> list[dict[str, str]]:
    return [{"name": str(k), "value": str(v)} for k, v in (headers or {}).items()]


def _header(headers: Mapping[str, Any] | None, name: str) -> str | None:
    return next((str(v) for k, v in (headers or {}).items() if str(k).lower() == name), None)


def entry(ex: Mapping[str, Any]) -> dict[str, Any]:
    """One logged exchange (``qaconform.pytest.exchange_log``) as a HAR 1.2 entry."""
    url = str(ex.get("url") or "")
    req_headers = ex.get("request_headers") or {}
    resp_headers = ex.get("response_headers") or {}
    body = ex.get("request_body")
    resp_body = str(ex.get("response_body") or "")
    status = ex.get("status")
    elapsed = float(ex.get("elapsed_ms") or 0.0)
    started = datetime.fromtimestamp(float(ex.get("started") or 0.0), UTC)
    request: dict[str, Any] = {
        "method": str(ex.get("method") or "GET"),
        "url": url,
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": _pairs(req_headers),
        "queryString": [{"name": n, "value": v} for n, v in parse_qsl(urlsplit(url).query, keep_blank_values=True)],
        "headersSize": -1,
        "bodySize": -1 if body is None else len(str(body).encode("utf-8")),
    }
    binary = ex.get("request_body_base64")
    if body is not None:
        request["postData"] = {"mimeType": _header(req_headers, "content-type") or "application/octet-stream",
                               "text": str(body)}
    if body is not None and binary:  # not UTF-8: the bytes as sent, in base64 as HAR 1.2 encodes binary content
        request["postData"].update(text=str(binary), _encoding="base64",
                                   comment="the body is not UTF-8: text holds its bytes in base64 (_encoding)")
        request["bodySize"] = len(base64.b64decode(str(binary)))
    notes = [f"test: {ex.get('test')}" if ex.get("test") else "sent outside a test",
             f"account: {ex.get('role')}"]
    if ex.get("shared"):
        notes.append("a shared answer: sent once earlier in the run and judged by this test too (its time is when "
                     "the test judged it)")
    if ex.get("operation"):
        notes.append(f"operation: {ex.get('operation')}")
    if len(resp_body) >= CUT_AT or (body is not None and len(str(body)) >= CUT_AT):
        notes.append(f"a body longer than {CUT_AT} characters is cut there")
    if status is None:
        notes.append("no HTTP answer (refused, timed out, or not readable)")
    return {
        "startedDateTime": started.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "time": elapsed,
        "request": request,
        "response": {
            "status": int(status or 0),
            "statusText": _REASONS.get(int(status or 0), ""),
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": _pairs(resp_headers),
            "content": {"size": len(resp_body.encode("utf-8")),
                        "mimeType": _header(resp_headers, "content-type") or "x-unknown",
                        "text": resp_body},
            "redirectURL": _header(resp_headers, "location") or "",
            "headersSize": -1,
            "bodySize": -1,
        },
        "cache": {},
        "timings": {"send": 0, "wait": elapsed, "receive": 0},
        "comment": "; ".join(notes),
    }


_SAME = ("method", "url", "status", "request_body")
"""What identifies the exchange a failure names among a test's exchanges (its record carries no time)."""


def _is(ex: Mapping[str, Any], failed: Mapping[str, Any] | None) -> bool:
    return failed is not None and all(ex.get(k) == failed.get(k) for k in _SAME)


def har(exchanges: Iterable[Mapping[str, Any]], version: str, comment: str = "",
        failed: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A HAR 1.2 log of ``exchanges``, in the order they were sent; the last one equal to ``failed`` (the exchange
    the test's failure names) is marked ``_failure`` and says so, so that a replay takes that one (issue 46: a test
    that sent other requests after it had its evidence taken from the last)."""
    ordered = sorted(exchanges, key=lambda e: float(e.get("started") or 0.0))
    mark = max((i for i, ex in enumerate(ordered) if _is(ex, failed)), default=None)
    entries = []
    for i, ex in enumerate(ordered):
        e = entry(ex)
        if i == mark:
            e["_failure"] = True
            e["comment"] += "; THE REQUEST THIS FAILURE NAMES (replay this one)"
        entries.append(e)
    log: dict[str, Any] = {"version": "1.2", "creator": {"name": "qaconform", "version": version}, "entries": entries}
    if comment:
        log["comment"] = comment
    return {"log": log}


def slug(nodeid: str) -> str:
    """A file name for a test's node id: readable, no separators, bounded."""
    name = nodeid.rsplit("/", 1)[-1]
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_")[:120] or "test"


def write_cassettes(run_dir: Path, exchanges: Iterable[Mapping[str, Any]], tests: Iterable[str], *,
                    keep_all: bool, version: str, secrets: Iterable[str] = (),
                    failed: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, str]:
    """Write a HAR per test of ``tests`` (failed or warned) and with ``keep_all`` the run's whole log; returns
    {node id: path relative to the run folder}, ``"*"`` for the whole log. ``failed``: per test, the exchange its
    failure names, marked in its HAR."""
    wanted = list(dict.fromkeys(tests))
    if not wanted and not keep_all:
        return {}
    secrets = tuple(secrets)
    by_test: dict[str, list[Mapping[str, Any]]] = {t: [] for t in wanted}
    everything: list[Mapping[str, Any]] = []
    owner: dict[str, str | None] = {}
    for ex in exchanges:
        if keep_all:
            everything.append(ex)
        test = str(ex.get("test") or "")
        if test and test not in owner:  # a sub-test (schemathesis) reports under its item's id plus a suffix
            owner[test] = test if test in by_test else next((t for t in by_test if t.startswith(test)), None)
        if test and owner[test] is not None:
            by_test[str(owner[test])].append(ex)
    folder = run_dir / HAR_DIR
    out: dict[str, str] = {}
    for i, (test, exs) in enumerate(by_test.items(), 1):
        if not exs:
            continue
        folder.mkdir(exist_ok=True)
        path = folder / f"{i:03d}-{slug(test)}.har"
        _write(path, har(exs, version, comment=f"exchanges of {test}", failed=(failed or {}).get(test)), secrets)
        out[test] = path.relative_to(run_dir).as_posix()
    if keep_all:
        folder.mkdir(exist_ok=True)
        _write(folder / ALL_NAME, har(everything, version, comment="every exchange of the run"), secrets)
        out["*"] = f"{HAR_DIR}/{ALL_NAME}"
    return out


def _write(path: Path, data: Mapping[str, Any], secrets: tuple[str, ...]) -> None:
    path.write_text(strict_json(redact(data, secrets), indented=True) + "\n", encoding="utf-8",
                    errors="backslashreplace")
