"""Allure results for teams that already read their suites in Allure (``--allure DIR``, the ``allure`` extra).

The per-rule verdict stays ours (report.html, report.json); this writes the same run as Allure result files so
``allure serve DIR`` shows it beside a team's other suites: one result per test, its rule ids as ``rule`` (and
``feature``/``tag``) labels and its area as ``epic``, its recorded exchanges, curl and rerun command as
attachments, and ``categories.json`` with one category per failed rule, so Allure's Categories tab groups the
failures the way our report does. A test's failure message is prefixed with the rules it broke (``[COMMENT-4]``)
for those categories to match.

Written from the report dict (already redacted) through allure-python-commons' own model and file writer, so the
files follow whatever format that library writes. Times: a test's start is the run's start plus the durations of
the tests before it (the results file keeps durations, not start times).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from qaconform.status import Effect, Status

INSTALL_HINT = "Allure output needs the allure extra: pip install 'qaconform[allure]' (allure-python-commons)"
_ALLURE_STATUS = {Effect.BROKE: "failed", Effect.WARN: "skipped", Effect.KIT: "broken", Effect.HELD: "passed",
                  Effect.NONE: "skipped"}
"""Allure has no warning: a warning is skipped there (neither passed nor failed), its message starting "warning"."""


class AllureUnavailable(RuntimeError):
    """allure-python-commons is not installed; the message says how to get it."""


def _status(outcome: object) -> str:
    s = Status.of(outcome)
    return _ALLURE_STATUS[s.effect] if s is not None else "unknown"


def _exchange_text(x: Mapping[str, Any]) -> str:
    req_h = "\n".join(f"{k}: {v}" for k, v in (x.get("request_headers") or {}).items())
    resp_h = "\n".join(f"{k}: {v}" for k, v in (x.get("response_headers") or {}).items())
    return (f"{x.get('method')} {x.get('url')}   (as {x.get('role')})\n{req_h}\n\n{x.get('request_body') or ''}\n\n"
            f"--- response {x.get('status')} ({x.get('elapsed_ms')} ms)\n{resp_h}\n\n{x.get('response_body') or ''}\n"
            + (f"\n--- reproduce\n{x['curl']}\n" if x.get("curl") else ""))


def _id(text: str) -> str:
    return hashlib.md5(text.encode("utf-8")).hexdigest()  # noqa: S324 - an identifier, not security


def _start_ms(report: Mapping[str, Any]) -> int:
    try:
        return int(datetime.fromisoformat(str(report.get("started"))).timestamp() * 1000)
    except (TypeError, ValueError):
        return 0


def write_allure(report: Mapping[str, Any], out_dir: str | Path) -> Path:
    """Write the Allure results of ``report`` into ``out_dir`` (created; files already there are kept, so several
    runs can share one results folder). Raises AllureUnavailable without allure-python-commons."""
    try:
        from allure_commons.logger import AllureFileLogger as UntypedLogger
        from allure_commons.model2 import ATTACHMENT_PATTERN, Attachment, Label, StatusDetails, TestResult
        from allure_commons.utils import uuid4 as untyped_uuid4
    except ImportError:
        raise AllureUnavailable(INSTALL_HINT) from None

    # allure-python-commons has no type hints: its two callables are typed here, once
    uuid4: Callable[[], str] = untyped_uuid4
    new_logger: Callable[[str], Any] = UntypedLogger
    out = Path(out_dir)
    logger = new_logger(str(out))
    rules = {r["id"]: r for r in report.get("rules") or []}
    clock = _start_ms(report)
    base = (report.get("target") or {}).get("base_url") or "target"
    for t in report.get("tests") or []:
        nodeid = str(t.get("nodeid"))
        path, _, name = nodeid.partition("::")
        duration_ms = int(float(t.get("duration") or 0) * 1000)
        labels = [Label(name="suite", value=path.removesuffix(".py").replace("/", ".")),
                  Label(name="parentSuite", value=f"qaconform: {base}"), Label(name="framework", value="qaconform")]
        for rid in t.get("rules") or []:
            labels += [Label(name="rule", value=rid), Label(name="feature", value=rid), Label(name="tag", value=rid)]
            area = (rules.get(rid) or {}).get("area")
            if area:
                labels.append(Label(name="epic", value=str(area)))
        status = _status(t.get("outcome"))
        details = None
        if status != "passed" or t.get("message"):
            failed = list(t.get("failed_rules") or [])
            prefix = f"[{', '.join(failed)}] " if failed and status == "failed" else ""
            if Status.of(t.get("outcome")) is Status.WARNING:
                prefix = f"warning [{', '.join(failed or t.get('rules') or [])}]: "
            details = StatusDetails(message=prefix + str(t.get("message") or t.get("outcome")),
                                    trace=t.get("longrepr") or None)
        result = TestResult(uuid=uuid4(), name=name or nodeid, fullName=nodeid, historyId=_id(nodeid),
                            testCaseId=_id(nodeid), status=status, statusDetails=details, labels=labels,
                            start=clock, stop=clock + duration_ms, stage="finished",
                            description="; ".join(f"{rid}: {(rules.get(rid) or {}).get('summary', '')}"
                                                  for rid in t.get("rules") or []) or None)
        clock += duration_ms
        texts = [(f"request {i + 1} of {len(t.get('exchanges') or [])}", _exchange_text(x))
                 for i, x in enumerate(t.get("exchanges") or []) if isinstance(x, Mapping)]
        texts += [("curl", c) for c in (t.get("curls") or []) if not t.get("exchanges")]
        rerun = t.get("rerun") or {}
        if rerun.get("test"):
            texts.append(("rerun this test", str(rerun["test"])))
        for title, body in texts:
            source = ATTACHMENT_PATTERN.format(prefix=uuid4(), ext="txt")
            logger.report_attached_data(body=body, file_name=source)
            result.attachments.append(Attachment(name=title, source=source, type="text/plain"))
        logger.report_result(result)
    (out / "categories.json").write_text(json.dumps(categories(report), indent=1), encoding="utf-8")
    env = {"target": base, "run_id": report.get("run_id"), "verdict": report.get("verdict"),
           **{f"version.{k}": v for k, v in (report.get("versions") or {}).items()}}
    (out / "environment.properties").write_text(
        "".join(f"{k}={str(v).replace(chr(10), ' ')}\n" for k, v in env.items() if v is not None), encoding="utf-8")
    return out


def categories(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One Allure category per failed rule (matching the ``[RULE, ...]`` prefix of its tests' messages), then the
    kit's own errors."""
    out = []
    for r in report.get("rules") or []:
        if Status.of(r.get("status")) is not Status.FAILED:
            continue
        rid = re.escape(str(r["id"]))
        out.append({"name": f"{r['id']}: {r.get('summary') or ''}".strip(), "matchedStatuses": ["failed"],
                    "messageRegex": rf"(?s)\[(?:[^\]]*, )?{rid}(?:, [^\]]*)?\].*"})
    out.append({"name": "the kit broke (not a verdict on the target)", "matchedStatuses": ["broken"]})
    return out
