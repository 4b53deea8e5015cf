"""The summary printed at the end of a run: counts by status, what failed, where the report is."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from qaconform.report.model import STATUSES, limits_text

_LIST = 12


def format_summary(report: Mapping[str, Any], html_path: Path | None = None) -> str:
    s = report["summary"]
    counts = s["rules"]
    widths = [max(len(st), 5) for st in STATUSES]
    head = "rules  " + "  ".join(st.rjust(w) for st, w in zip(STATUSES, widths, strict=True))
    row = "       " + "  ".join(str(counts.get(st, 0)).rjust(w) for st, w in zip(STATUSES, widths, strict=True))
    lines = ["", head, row]
    tests = ", ".join(f"{n} {o}" for o, n in s["tests"].items() if n) or "none ran"
    lines.append(f"tests: {tests}")
    by_id = {r["id"]: r for r in report.get("rules", [])}
    for label, ids in (("failed", s["failed_rules"]), ("error (the kit broke)", s["error_rules"]),
                       ("expected failure", s["expected_failures"]),
                       ("unexpectedly passing (remove from --expect)", s["unexpectedly_passing"])):
        if not ids:
            continue
        lines.append(f"{label}:")
        for rid in ids[:_LIST]:
            msg = next((f["message"] for f in by_id.get(rid, {}).get("evidence", {}).get("failures", [])
                        if f.get("message")), "") or ""
            first = str(msg).strip().splitlines()[0][:110] if str(msg).strip() else ""
            lines.append(f"  {rid}  {first}")
        if len(ids) > _LIST:
            lines.append(f"  ... and {len(ids) - _LIST} more (see the report)")
    load = report.get("load")
    if load:
        lines.append(f"load: {load.get('status')}" + (f" ({load['message']})" if load.get("message") else ""))
    if report.get("execution"):
        lines.append(f"ran on {limits_text(report['execution'])}")
    lines.append(f"exit code {report.get('exit_code')}: {report.get('verdict')}")
    if html_path is not None:
        lines.append(f"report: {html_path}")
    return "\n".join(lines)
