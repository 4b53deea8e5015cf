"""The load section of report.html: a Locust run's status, figures, charts over time, thresholds, writes and
failures, per run when there were several.

Apart from :mod:`qaconform.report.html_page` because it reads the ``load`` part of report.json, which the rest of the
page never touches; the page calls :func:`load_section`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qaconform.report.charts import bar_chart, line_chart
from qaconform.report.html_parts import esc as _e


def _series(history: Sequence[Mapping[str, Any]], key: str) -> list[tuple[float, float | None]]:
    return [(float(h["t"]), h.get(key)) for h in history]


def _ms(v: Any) -> str:
    return "–" if v is None else (f"{v:g}" if isinstance(v, float) else str(v))


def load_section(load: Mapping[str, Any] | None) -> str:
    if not load:
        return ""
    head = [f"<p>Status: <b>{_e(load.get('status'))}</b>"]
    if load.get("message"):
        head.append(f" — {_e(load['message'])}")
    head.append("</p>")
    if load.get("command"):
        head.append(f"<p class=\"muted\">command: <code>{_e(load['command'])}</code></p>")
    parts = ["".join(head)]
    if load.get("headline"):
        parts.append(_load_figures(load))
    else:  # no summary.json (a run cut short, an older harness): what Locust's CSVs say
        parts += [_load_run(run) for run in load.get("runs") or []]
    if load.get("files"):
        parts.append(f'<p class="muted">harness output in the load folder: {_e(", ".join(load["files"]))}</p>')
    return f'<section id="load"><h2>Load</h2>{"".join(parts)}</section>'


def _load_figures(load: Mapping[str, Any]) -> str:
    """Headline (exact percentiles), thresholds table, four charts with axes and units, per-operation table."""
    h = load["headline"]
    ratio = h.get("failure_ratio")
    what = ", ".join(x for x in (f"scenario {load.get('scenario')}" if load.get("scenario") else "",
                                 f"{load.get('users')} users" if load.get("users") else "",
                                 f"{load.get('rate')} req/s asked" if load.get("rate") else "",
                                 f"{load.get('duration_s')} s" if load.get("duration_s") else "") if x)
    parts = [f'<p id="load-headline"><b>{_e(h.get("requests"))} requests, {_e(h.get("failures"))} failed'
             f'{f" ({ratio:.2%})" if isinstance(ratio, float) else ""}, {_e(_round(h.get("rps")))} req/s; '
             f'latency p50 {_ms(h.get("p50_ms"))} ms, p95 {_ms(h.get("p95_ms"))} ms, p99 {_ms(h.get("p99_ms"))} ms, '
             f'max {_ms(h.get("max_ms"))} ms</b> <span class="muted">({_e(what)}; '
             + ("percentiles exact, from the kit's own latency histogram"
                if h.get("latency_source") == "histogram" else "percentiles as Locust reports them")
             + ")</span></p>"]
    over = load.get("over_time") or []
    by_op = [(str(o["operation"]), float(o["failures"])) for o in load.get("failures_by_operation") or []]
    by_check = [(str(c["check"]), float(c["failures"])) for c in load.get("failures_by_check") or []]
    charts = [
        line_chart("Throughput over time", [("requests/s", _series(over, "rps")), ("failures/s", _series(over, "fps"))],
                   x_label="time since start (s)", y_label="requests per second"),
        line_chart("Latency over time (Locust's per-second percentiles)",
                   [("p50", _series(over, "p50_ms")), ("p95", _series(over, "p95_ms"))],
                   x_label="time since start (s)", y_label="latency (ms)"),
        bar_chart("Failures by operation", by_op, x_label="failed requests (count)"),
        bar_chart("Failures by check", by_check, x_label="failed requests (count)"),
    ]
    parts.append(f'<div class="charts">{"".join(charts)}</div>')
    parts.append(_load_failures(load))
    thresholds = load.get("thresholds") or []
    if thresholds:
        broken = [t for t in thresholds if not t["ok"]]
        held = [t for t in thresholds if t["ok"]]
        head = ("<tr><th>operation</th><th>limit on</th><th>limit</th><th>measured</th><th>result</th></tr>")
        table = f'<table id="thresholds">{head}{_threshold_rows(broken)}</table>' if broken else ""
        folded = (f"<details><summary>{len(held)} threshold(s) held</summary><table>{head}"
                  f"{_threshold_rows(held)}</table></details>") if held else ""
        parts.append(f"<h3>Thresholds: {len(held)} of {len(thresholds)} held</h3>{table}{folded}")
    ops = load.get("operations") or []
    if ops:
        rows = "".join(f'<tr><td>{_e(o["operation"])}</td><td>{o["requests"]}</td><td>{o["failures"]}</td>'
                       f'<td>{_e(_round(o.get("rps")))}</td><td>{_ms(o.get("p50_ms"))}</td><td>{_ms(o.get("p95_ms"))}'
                       f'</td><td>{_ms(o.get("p99_ms"))}</td><td>{_ms(o.get("max_ms"))}</td></tr>' for o in ops)
        parts.append("<h3>Per operation</h3><table><tr><th>operation</th><th>requests</th><th>failures</th>"
                     "<th>req/s</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th></tr>"
                     f"{rows}</table>")
    if load.get("writes"):
        parts.append(_load_writes(load["writes"]))
    if load.get("lost"):
        parts.append(f'<p class="fail">Lost after the run (a 201 that no list shows): {len(load["lost"])}</p>')
    return "".join(parts)


def _load_writes(w: Mapping[str, Any]) -> str:
    """What the load wrote under its write budget (qaconform/load/write_budget.py): per operation, and whether the
    budget was spent."""
    limit = ("none" if w.get("max_writes") is None and w.get("max_write_rps") is None
             else f'{_e(w.get("max_writes"))} writes at {_e(w.get("max_write_rps"))}/s')
    rows = "".join(f'<tr><td>{_e(name)}</td><td>{_e(t.get("sent"))}</td><td>{_e(t.get("accepted"))}</td>'
                   f'<td>{_e(t.get("refused"))}</td></tr>' for name, t in (w.get("by_operation") or {}).items())
    reached = ('<p class="muted">The write budget was reached: the users only read from then on.</p>'
               if w.get("budget_reached") else "")
    return (f'<h3 id="load-writes">Writes: {_e(w.get("sent"))} sent, {_e(w.get("accepted"))} accepted, '
            f'{_e(w.get("refused"))} refused (budget {limit})</h3>'
            f"<table><tr><th>operation</th><th>sent</th><th>accepted</th><th>refused</th></tr>{rows}</table>{reached}")


def _load_failures(load: Mapping[str, Any]) -> str:
    """The failure rows with what the server answered (status and the start of its body), and which checks ran on
    a sample only."""
    parts = []
    rows = load.get("failures") or []
    if rows:
        body = "".join(f'<tr><td>{_e(r["operation"])}</td><td>{_e(r["method"])}</td><td>{_e(r["occurrences"])}</td>'
                       f'<td><code>{_e(r["error"])}</code></td></tr>' for r in rows)
        parts.append('<h3>Failures</h3><table id="load-failures"><tr><th>operation</th><th>method</th>'
                     f"<th>count</th><th>what failed (status, start of the body)</th></tr>{body}</table>")
    sampled = (load.get("checks") or {}).get("sampled")
    if sampled:
        parts.append(f'<p class="muted" id="load-checks">Checked on every answer: '
                     f'{_e(", ".join((load.get("checks") or {}).get("every_answer") or []))}; '
                     f'{_e(sampled["what"])} on one in {_e(sampled["one_in"])} calls per user (sampled).</p>')
    return "".join(parts)


def _threshold_rows(thresholds: Sequence[Mapping[str, Any]]) -> str:
    return "".join(f'<tr><td>{_e(t["operation"])}</td><td>{_e(t["metric"])}</td><td>{_e(t["limit"])}</td>'
                   f'<td>{_e(_round(t["measured"]))}</td><td class="{"pass" if t["ok"] else "fail"}">'
                   f'{"pass" if t["ok"] else "FAIL"}</td></tr>' for t in thresholds)


def _load_run(run: Mapping[str, Any]) -> str:
    agg = run.get("aggregated") or {}
    hist = run.get("history") or []
    parts = [f"<h3>{_e(run.get('prefix'))}</h3>"]
    if agg:
        parts.append(f"<p>{agg.get('requests')} requests, {agg.get('failures')} failures, "
                     f"{_e(_round(agg.get('rps')))} req/s, p50 {_e(agg.get('p50_ms'))} ms, "
                     f"p95 {_e(agg.get('p95_ms'))} ms, p99 {_e(agg.get('p99_ms'))} ms (Locust's rounded figures)</p>")
    failures: dict[str, float] = {}
    for f in run.get("failures") or []:
        failures[f"{f.get('method')} {f.get('name')}".strip()] = failures.get(
            f"{f.get('method')} {f.get('name')}".strip(), 0) + float(f.get("occurrences") or 0)
    charts = [
        line_chart("Throughput over time", [("requests/s", _series(hist, "rps")), ("failures/s", _series(hist, "fps"))],
                   x_label="time since start (s)", y_label="requests per second"),
        line_chart("Latency percentiles over time", [("p50", _series(hist, "p50_ms")), ("p95", _series(hist, "p95_ms")),
                                                     ("p99", _series(hist, "p99_ms"))],
                   x_label="time since start (s)", y_label="latency (ms)"),
        bar_chart("Failures per operation", [(f"{o.get('method')} {o.get('name')}".strip(),
                                              max(float(o.get("failures") or 0),
                                                  failures.get(f"{o.get('method')} {o.get('name')}".strip(), 0)))
                                             for o in run.get("operations", [])], x_label="failed requests (count)"),
    ]
    parts.append(f'<div class="charts">{"".join(charts)}</div>')
    fails = run.get("failures") or []
    if fails:
        rows = "".join(f"<tr><td>{_e(f['method'])} {_e(f['name'])}</td><td>{_e(f['error'])}</td>"
                       f"<td>{f['occurrences']}</td></tr>" for f in fails)
        parts.append(f"<h4>Failures</h4><table><tr><th>operation</th><th>error</th><th>count</th></tr>{rows}</table>")
    return "".join(parts)


def _round(v: Any) -> Any:
    return round(v, 2) if isinstance(v, float) else v
