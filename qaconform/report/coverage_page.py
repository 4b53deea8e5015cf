"""The coverage section of report.html: operations down, accounts across, coloured by the must-rules checked there.

A cell is what the run sent as that account to that operation (requests, statuses) and how many of the operation's
must-rules a test that reached a verdict checked there; its colour grows from red (called, nothing checked) to green
(every must-rule of the operation checked there), grey when never called. What went unexercised is listed below the
matrix with why. Also the link from a failure to its HAR cassette.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping
from typing import Any

from qaconform.report.coverage import ACCOUNTS, checked_text

CSS = """
.cov td.c{text-align:center;min-width:96px;font-size:12.5px}.cov td.c b{font-size:14px}.cov td.none{background:#e2e8f0;
color:#64748b}.cov .sub{display:block;color:#334155;font-size:11px}.legend span{display:inline-block;padding:1px 8px;
margin-right:4px;border-radius:4px;font-size:12px}a.har{font-size:12px;font-weight:600;margin:0 8px 0 2px}
"""
_SCALE = ("#fecaca", "#fed7aa", "#fef08a", "#d9f99d", "#86efac", "#4ade80")
"""Share of the operation's must-rules checked in the cell, 0 to all, in six steps."""


def _e(v: Any) -> str:
    return html.escape("" if v is None else str(v), quote=True)


def _colour(checked: int, total: int) -> str:
    if total <= 0:
        return _SCALE[-1] if checked else _SCALE[0]
    return _SCALE[min(len(_SCALE) - 1, round((len(_SCALE) - 1) * checked / total))]


def _cell(cell: Mapping[str, Any], must: int) -> str:
    if not cell.get("requests"):
        return '<td class="c none" title="never called">&mdash;</td>'
    checked = len(cell.get("must_checked") or [])
    statuses = " ".join(f"{s}&times;{n}" for s, n in list((cell.get("statuses") or {}).items())[:4])
    title = f"{cell['requests']} requests by {cell.get('tests', 0)} test(s); must-rules checked here: " + (
        ", ".join(cell.get("must_checked") or []) or "none")
    return (f'<td class="c" style="background:{_colour(checked, must)}" title="{_e(title)}"><b>{checked}/{must}</b>'
            f'<span class="sub">{cell["requests"]} req</span><span class="sub">{statuses}</span></td>')


def coverage_section(report: Mapping[str, Any]) -> str:
    """The matrix, the summary line, and what went unexercised (empty when the run recorded no exchanges)."""
    cov = report.get("coverage") or {}
    ops = cov.get("operations") or []
    if not ops:
        return ""
    s = cov.get("summary") or {}
    head = "".join(f"<th>{_e(a)}</th>" for a in ACCOUNTS)
    rows = []
    for op in ops:
        must = len(op.get("must_rules") or [])
        cells = "".join(_cell(op["accounts"].get(a) or {}, must) for a in ACCOUNTS)
        rows.append(f'<tr><th><code>{_e(op["operation"])}</code><span class="sub">{_e(op["method"])} '
                    f'{_e(op["path"])}</span></th>{cells}<td class="c">{len(op.get("must_checked") or [])}/{must}'
                    f'<span class="sub">{len(op.get("fields_not_sent") or [])} field(s) never sent</span></td></tr>')
    legend = "".join(f'<span style="background:{c}">{label}</span>' for c, label in (
        ("#e2e8f0", "never called"), (_SCALE[0], "called, no must-rule checked"), (_SCALE[2], "some"),
        (_SCALE[-1], "every must-rule of the operation checked")))
    return (f'<section id="coverage"><h2>Interface coverage</h2>'
            f"<p><b>{_e(checked_text(cov))}</b>; {s.get('operations_exercised', 0)} of {s.get('operations', 0)} "
            f"operations and {s.get('cells_exercised', 0)} of {s.get('cells', 0)} operation &times; account cells "
            f"called ({s.get('requests', 0)} requests). Each cell: must-rules of the operation checked there by a test "
            f"that reached a verdict / the operation's must-rules, requests sent, statuses received "
            f"(coverage.json has the parameters and body fields sent, each form apart).</p>"
            f'<p class="legend">{legend}</p>'
            f'<table class="cov"><thead><tr><th>operation</th>{head}<th>all accounts</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>{_gaps(cov)}</section>")


def _gaps(cov: Mapping[str, Any]) -> str:
    gaps = cov.get("unexercised") or []
    unchecked = cov.get("must_rules_not_checked") or []
    out = []
    if gaps:
        by_why = Counter(str(g.get("why")) for g in gaps)
        items = "".join(
            f"<li>{_e(why)} ({n}): "
            + _e(", ".join(f"{g['operation']} as {g['account']}" if "account" in g else f"{g['operation']} {g['field']}"
                           for g in gaps if str(g.get("why")) == why)[:1200]) + "</li>"
            for why, n in by_why.most_common())
        out.append(f"<details><summary>Stated but not exercised ({len(gaps)}), by why</summary><ul>{items}</ul>"
                   "</details>")
    if unchecked:
        by_why = Counter(str(u.get("why")) for u in unchecked)
        items = "".join(f"<li>{_e(why)} ({n}): "
                        + _e(", ".join(u["rule"] for u in unchecked if str(u.get("why")) == why)) + "</li>"
                        for why, n in by_why.most_common())
        out.append(f"<details><summary>Must-rules not checked ({len(unchecked)}), by why</summary><ul>{items}</ul>"
                   "</details>")
    return "".join(out)


def har_link(report: Mapping[str, Any], nodeid: Any) -> str:
    """A link to the HAR cassette of a failed or warned test, when the run wrote one."""
    path = (report.get("har") or {}).get(str(nodeid))
    if not path:
        return ""
    return (f'<a class="har" href="{_e(path)}" download title="every exchange of this test, HAR 1.2 (open in a '
            f'browser\'s developer tools or any HAR viewer)">HAR</a>')
