"""report.html: one self-contained page (inline CSS, JS and SVG; nothing fetched from the network).

QA reads this before a release, often from a CI artefact or a mail attachment, so it must open anywhere and say,
in order: the verdict, the counts, every rule with its status, each failure with what was sent and received and a
curl to reproduce it, what the target does where the description is silent, what the run created, and the load
figures. Everything shown comes from the already-redacted report.json data and is HTML-escaped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from qaconform.report.charts import bar_chart, line_chart
from qaconform.report.model import STATUSES

_CSS = """
:root{--ok:#15803d;--fail:#b91c1c;--err:#7e22ce;--obs:#0369a1;--skip:#a16207;--nc:#64748b}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;
color:#0f172a;background:#f8fafc}header{background:#0f172a;color:#f8fafc;padding:16px 24px}
header h1{margin:0 0 4px;font-size:20px}header .meta{color:#cbd5e1;font-size:13px}
main{padding:8px 24px 48px;max-width:1400px}section{margin-top:24px}h2{font-size:17px;border-bottom:1px solid #cbd5e1;
padding-bottom:4px}.verdict{margin-top:10px;padding:8px 12px;border-radius:6px;font-weight:600}
.v0{background:#dcfce7;color:#14532d}.v1{background:#fee2e2;color:#7f1d1d}.v4{background:#f3e8ff;color:#581c87}
.cards{display:flex;gap:10px;flex-wrap:wrap}.card{background:#fff;border:1px solid #e2e8f0;border-radius:8px;
padding:10px 14px;min-width:120px}.card .n{font-size:26px;font-weight:700}.card .l{color:#475569;font-size:12px;
text-transform:uppercase;letter-spacing:.04em}table{border-collapse:collapse;width:100%;background:#fff}
th,td{border:1px solid #e2e8f0;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f1f5f9;
position:sticky;top:0}.badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-size:12px;
font-weight:600;white-space:nowrap}.b-passed{background:var(--ok)}.b-failed{background:var(--fail)}
.b-error{background:var(--err)}.b-observed{background:var(--obs)}.b-skipped{background:var(--skip)}
.b-not-covered{background:var(--nc)}.b-expected{background:#fb923c}.b-unexpected{background:#0d9488}
pre{background:#0f172a;color:#e2e8f0;padding:8px 10px;border-radius:6px;overflow:auto;white-space:pre-wrap;
word-break:break-all;max-height:420px;margin:4px 0}.curl{position:relative}.curl button{position:absolute;right:6px;
top:6px;font-size:12px}.failure{background:#fff;border:1px solid #fecaca;border-left:5px solid var(--fail);
border-radius:6px;padding:8px 12px;margin:12px 0}.failure.error{border-color:#e9d5ff;border-left-color:var(--err)}
.ex{display:grid;grid-template-columns:1fr 1fr;gap:8px}.muted{color:#64748b}.filters button{margin:0 4px 6px 0}
.filters button.on{outline:2px solid #0f172a}details summary{cursor:pointer}.chart{background:#fff;
border:1px solid #e2e8f0;border-radius:6px;margin:6px 8px 6px 0}.chart-title{font-weight:600;font-size:13px}
.tick{font-size:11px;fill:#475569}.charts{display:flex;flex-wrap:wrap}code{font-size:12.5px}
.curl pre{padding-right:64px}
"""

_JS = """
function qcFilter(status, btn){document.querySelectorAll('tr.rule-row').forEach(function(r){
 r.style.display=(status==='all'||r.dataset.status===status)?'':'none'});
 document.querySelectorAll('.filters button').forEach(function(b){b.classList.remove('on')});btn.classList.add('on');}
function qcSearch(q){q=q.toLowerCase();document.querySelectorAll('tr.rule-row').forEach(function(r){
 r.style.display=r.textContent.toLowerCase().indexOf(q)>=0?'':'none'});}
function qcCopy(btn){var t=btn.parentNode.querySelector('code').textContent;
 if(navigator.clipboard){navigator.clipboard.writeText(t).then(function(){btn.textContent='copied'})}
 else{var a=document.createElement('textarea');a.value=t;document.body.appendChild(a);a.select();
 document.execCommand('copy');a.remove();btn.textContent='copied'}}
"""


def _e(v: Any) -> str:
    return escape("" if v is None else str(v))


def _slug(status: str) -> str:
    return status.replace(" ", "-")


def _badge(status: str, label: str | None = None) -> str:
    return f'<span class="badge b-{_slug(status)}">{_e(label or status)}</span>'


def _pre(text: Any, cls: str = "") -> str:
    return f'<pre class="{cls}">{_e(text)}</pre>'


def _curl(curl: str) -> str:
    return (f'<div class="curl"><button type="button" onclick="qcCopy(this)">copy</button>'
            f"<pre><code>{_e(curl)}</code></pre></div>")


def _json(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, default=str)


def render_html(report: Mapping[str, Any]) -> str:
    """The whole page as text."""
    target = report.get("target") or {}
    title = f"qaconform report: {target.get('name') or target.get('base_url') or 'unknown target'}"
    body = [
        _header(report, title),
        "<main>",
        _summary(report),
        _rules_table(report),
        _failures(report),
        _observations(report),
        _skips(report),
        _created(report),
        _load(report.get("load")),
        _kit_errors(report),
        _target_versions(report),
        "</main>",
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(body) + f"<script>{_JS}</script></body></html>\n")


def _header(report: Mapping[str, Any], title: str) -> str:
    target = report.get("target") or {}
    sel = report.get("selection") or {}
    only = " ".join([*sel.get("areas", []), *sel.get("rules", [])])
    flags = [f"--only {only}" if only else "", "read-only" if sel.get("read_only") else "",
             "dry run" if sel.get("dry_run") else "", "embedded reference server" if report.get("reference") else ""]
    meta = " · ".join(x for x in [
        f"run {_e(report.get('run_id'))}", f"target {_e(target.get('base_url'))}",
        f"service version {_e(target.get('service_version') or 'not stated')}",
        f"started {_e(report.get('started'))}", f"{_e(report.get('duration_s'))} s", *map(_e, flags)] if x)
    code = report.get("exit_code")
    return (f'<header><h1>{_e(title)}</h1><div class="meta">{meta}</div>'
            f'<div class="verdict v{_e(code)}" id="verdict">exit code {_e(code)}: {_e(report.get("verdict"))}</div>'
            "</header>")


def _summary(report: Mapping[str, Any]) -> str:
    s = report["summary"]
    counts = s["rules"]
    cards = "".join(f'<div class="card"><div class="n" style="color:var(--{c})">{counts.get(st, 0)}</div>'
                    f'<div class="l">{_e(st)}</div></div>'
                    for st, c in zip(STATUSES, ("ok", "fail", "obs", "skip", "nc", "err"), strict=True))
    total = max(1, sum(counts.values()))
    x = 0.0
    colors = {"passed": "#15803d", "failed": "#b91c1c", "observed": "#0369a1", "skipped": "#a16207",
              "not covered": "#64748b", "error": "#7e22ce"}
    rects = []
    for st in STATUSES:
        w = 600 * counts.get(st, 0) / total
        if w:
            rects.append(f'<rect x="{x:.1f}" y="0" width="{w:.1f}" height="18" fill="{colors[st]}">'
                         f"<title>{_e(st)}: {counts[st]}</title></rect>")
        x += w
    bar = (f'<svg xmlns="http://www.w3.org/2000/svg" id="summary-bar" width="600" height="18" viewBox="0 0 600 18" '
           f'preserveAspectRatio="none" style="display:block;margin:10px 0;background:#fff" role="img">'
           f'<title>rules by status</title>{"".join(rects)}</svg>')
    tests = ", ".join(f"{n} {o}" for o, n in s["tests"].items() if n)
    extra = []
    if s.get("skipped_by_reason"):
        extra.append("Skipped rules by reason: " + ", ".join(f"{_e(k)} {v}" for k, v in s["skipped_by_reason"].items()))
    if s.get("expected_failures"):
        extra.append(f"{_badge('expected', 'expected failure')} " + ", ".join(
            f'<a href="#rule-{_e(r)}">{_e(r)}</a>' for r in s["expected_failures"]))
    if s.get("unexpectedly_passing"):
        extra.append(f"{_badge('unexpected', 'unexpectedly passing')} " + ", ".join(
            f'<a href="#rule-{_e(r)}">{_e(r)}</a>' for r in s["unexpectedly_passing"])
            + " — these expected failures now pass; remove them from the --expect file.")
    return (f'<section id="summary"><h2>Summary</h2><div class="cards">{cards}</div>{bar}'
            f'<p>{s["rules_total"]} rules ({s["must_rules"]} must, {s["must_held"]} held); '
            f'{s["tests_total"]} tests: {_e(tests) or "none ran"}.</p>'
            + "".join(f"<p>{x}</p>" for x in extra) + "</section>")


def _rules_table(report: Mapping[str, Any]) -> str:
    buttons = ['<button type="button" class="on" onclick="qcFilter(\'all\',this)">all</button>'] + [
        f'<button type="button" onclick="qcFilter(\'{st}\',this)">{_e(st)} '
        f'({report["summary"]["rules"].get(st, 0)})</button>' for st in STATUSES]
    rows = []
    for r in report.get("rules", []):
        status = r["status"]
        badge = _badge(status)
        exp = r.get("expected")
        if exp:
            kind = "expected" if exp["state"] == "expected failure" else "unexpected"
            link = f' <a href="{_e(exp["link"])}">link</a>' if exp.get("link") else ""
            badge += f" {_badge(kind, exp['state'])}<div class=\"muted\">{_e(exp['reason'])}{link}</div>"
        tests = r.get("tests") or []
        if tests:
            items = "".join(f"<li>{_badge(t['outcome'])} <code>{_e(t['nodeid'])}</code></li>" for t in tests)
            tcell = f"<details><summary>{len(tests)} test(s)</summary><ul>{items}</ul></details>"
        else:
            tcell = '<span class="muted">none</span>'
        note = _e(r.get("reason")) if r.get("reason") else ""
        rows.append(f'<tr class="rule-row" id="rule-{_e(r["id"])}" data-status="{_e(status)}">'
                    f'<td><code>{_e(r["id"])}</code></td><td>{badge}</td><td>{_e(r["level"])}</td>'
                    f'<td>{_e(r["area"])}</td><td>{tcell}</td><td>{_e(r["summary"])}'
                    f'<div class="muted">{_e(r.get("source"))}</div></td><td>{note}</td></tr>')
    return (f'<section id="rules"><h2>Rules</h2><div class="filters">{"".join(buttons)}'
            '<input type="search" placeholder="filter rules…" oninput="qcSearch(this.value)"></div>'
            '<table id="rules-table"><thead><tr><th>rule</th><th>status</th><th>level</th><th>area</th><th>tests</th>'
            f'<th>statement</th><th>reason</th></tr></thead><tbody>{"".join(rows)}</tbody></table></section>')


def _exchange(x: Mapping[str, Any]) -> str:
    req_h = "\n".join(f"{k}: {v}" for k, v in (x.get("request_headers") or {}).items())
    resp_h = "\n".join(f"{k}: {v}" for k, v in (x.get("response_headers") or {}).items())
    req = f"{x.get('method')} {x.get('url')}\n{req_h}" + (f"\n\n{x['request_body']}" if x.get("request_body") else "")
    resp = f"{x.get('status')} ({x.get('elapsed_ms')} ms)\n{resp_h}\n\n{x.get('response_body') or ''}"
    return (f'<div class="ex"><div><b>request</b> as {_e(x.get("role"))}{_pre(req)}</div>'
            f"<div><b>response</b>{_pre(resp)}</div></div>" + (_curl(str(x["curl"])) if x.get("curl") else ""))


def _failures(report: Mapping[str, Any]) -> str:
    broken = [t for t in report.get("tests", []) if t["outcome"] in ("failed", "error")]
    if not broken:
        return '<section id="failures"><h2>Failures</h2><p>No test failed and the kit broke in none.</p></section>'
    expected = {r["id"] for r in report.get("rules", []) if (r.get("expected") or {}).get("state") ==
                "expected failure"}
    out = []
    for t in broken:
        exchanges = t.get("exchanges") or []
        last = exchanges[-1:] if exchanges else []
        earlier = exchanges[:-1]
        shown = t.get("failed_rules") or t.get("rules", [])
        rules = " ".join(f'<a href="#rule-{_e(r)}"><code>{_e(r)}</code></a>' +
                         (" " + _badge("expected", "expected") if r in expected else "") for r in shown)
        others = len(t.get("rules", [])) - len(shown)
        if others > 0:
            rules += (f' <span class="muted">(the test also checks {others} other rule(s) and did not fail on '
                      'them)</span>')
        kind = ("the target broke a rule" if t["outcome"] == "failed"
                else "the kit broke (an error in qaconform or its environment, not a verdict on the target)")
        ex_html = "".join(_exchange(x) for x in last)
        if not ex_html:
            curls = t.get("curls") or []
            ex_html = ('<p class="muted">the kit recorded no exchange in this test (the request was made by a shared '
                       "fixture or by the test's own HTTP client); reproduce it with:</p>"
                       + "".join(_curl(c) for c in curls) if curls
                       else '<p class="muted">no request was recorded</p>')
        if earlier:
            ex_html += (f"<details><summary>{len(earlier)} earlier request(s) of this test</summary>"
                        + "".join(_exchange(x) for x in earlier) + "</details>")
        longrepr = (f"<details><summary>traceback</summary>{_pre(t['longrepr'])}</details>" if t.get("longrepr")
                    else "")
        out.append(f'<div class="failure {_e(t["outcome"])}">{_badge(t["outcome"])} <code>{_e(t["nodeid"])}</code>'
                   f' — {_e(kind)}<div>rules: {rules}</div>{_pre(t.get("message"))}{ex_html}{longrepr}</div>')
    return f'<section id="failures"><h2>Failures and errors ({len(broken)})</h2>{"".join(out)}</section>'


def _observations(report: Mapping[str, Any]) -> str:
    obs = report.get("observations") or {}
    if not obs:
        return ('<section id="observations"><h2>Observations</h2><p>No observation was recorded.</p></section>')
    rules = {r["id"]: r for r in report.get("rules", [])}
    out = []
    for rid, items in obs.items():
        summary = rules.get(rid, {}).get("summary", "")
        rows = "".join(f"<tr><td><code>{_e(o['test'])}</code></td><td>{_pre(_json(o.get('facts')))}</td></tr>"
                       for o in items)
        out.append(f'<h3 id="obs-{_e(rid)}"><code>{_e(rid)}</code> <span class="muted">{_e(summary)}</span></h3>'
                   f"<table><tr><th>test</th><th>what the target did</th></tr>{rows}</table>")
    return ('<section id="observations"><h2>Observations on spec-silent behaviour</h2>'
            '<p class="muted">Where the interface description says "not shown", the kit records what this target '
            f'does. These never fail the run.</p>{"".join(out)}</section>')


def _skips(report: Mapping[str, Any]) -> str:
    by_reason: dict[str, list[str]] = {}
    for r in report.get("rules", []):
        if r["status"] == "skipped":
            by_reason.setdefault(str(r.get("reason") or "skipped"), []).append(r["id"])
    if not by_reason:
        return ""
    items = "".join(f"<li>{_e(reason)}: " + ", ".join(f'<a href="#rule-{_e(i)}"><code>{_e(i)}</code></a>' for i in ids)
                    + "</li>" for reason, ids in sorted(by_reason.items()))
    return f'<section id="skipped"><h2>Skipped rules, by reason</h2><ul>{items}</ul></section>'


def _created(report: Mapping[str, Any]) -> str:
    created = report.get("created") or []
    if not created:
        return '<section id="created"><h2>What the run created</h2><p>Nothing.</p></section>'
    rows = "".join(f"<tr><td>{_e(c.get('kind'))}</td><td>{_e(c.get('id'))}</td><td>{_e(c.get('by'))}</td>"
                   f"<td><code>{_e(c.get('test'))}</code></td></tr>" for c in created)
    tag = report.get("run_tag")
    return (f'<section id="created"><h2>What the run created ({len(created)})</h2>'
            + (f"<p>Every body carries the run tag <code>{_e(tag)}</code>.</p>" if tag else "")
            + f"<table><tr><th>kind</th><th>id</th><th>by</th><th>test</th></tr>{rows}</table></section>")


def _series(history: Sequence[Mapping[str, Any]], key: str) -> list[tuple[float, float | None]]:
    return [(float(h["t"]), h.get(key)) for h in history]


def _load(load: Mapping[str, Any] | None) -> str:
    if not load:
        return ""
    head = [f"<p>Status: <b>{_e(load.get('status'))}</b>"]
    if load.get("message"):
        head.append(f" — {_e(load['message'])}")
    head.append("</p>")
    if load.get("command"):
        head.append(f"<p class=\"muted\">command: <code>{_e(load['command'])}</code></p>")
    parts = ["".join(head)]
    for run in load.get("runs") or []:
        agg = run.get("aggregated") or {}
        hist = run.get("history") or []
        parts.append(f"<h3>{_e(run.get('prefix'))}</h3>")
        if agg:
            parts.append(f"<p>{agg.get('requests')} requests, {agg.get('failures')} failures, "
                         f"{_e(_round(agg.get('rps')))} req/s, p50 {_e(agg.get('p50_ms'))} ms, "
                         f"p95 {_e(agg.get('p95_ms'))} ms, p99 {_e(agg.get('p99_ms'))} ms</p>")
        charts = [
            line_chart("Throughput over time", [("requests/s", _series(hist, "rps")),
                                                ("failures/s", _series(hist, "fps"))], y_label="per second"),
            line_chart("Latency percentiles over time", [("p50", _series(hist, "p50_ms")),
                                                         ("p95", _series(hist, "p95_ms")),
                                                         ("p99", _series(hist, "p99_ms"))], y_label="ms"),
            bar_chart("Failures per operation", [(f"{o.get('method')} {o.get('name')}".strip(),
                                                  float(o.get("failures") or 0)) for o in run.get("operations", [])]),
        ]
        parts.append(f'<div class="charts">{"".join(charts)}</div>')
        ops = run.get("operations") or []
        if ops:
            rows = "".join(f"<tr><td>{_e(o['method'])}</td><td>{_e(o['name'])}</td><td>{o['requests']}</td>"
                           f"<td>{o['failures']}</td><td>{_e(_round(o.get('rps')))}</td><td>{_e(o.get('p50_ms'))}</td>"
                           f"<td>{_e(o.get('p95_ms'))}</td><td>{_e(o.get('p99_ms'))}</td></tr>" for o in ops)
            parts.append("<table><tr><th>method</th><th>operation</th><th>requests</th><th>failures</th>"
                         f"<th>req/s</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th></tr>{rows}</table>")
        fails = run.get("failures") or []
        if fails:
            rows = "".join(f"<tr><td>{_e(f['method'])} {_e(f['name'])}</td><td>{_e(f['error'])}</td>"
                           f"<td>{f['occurrences']}</td></tr>" for f in fails)
            parts.append(f"<h4>Failures</h4><table><tr><th>operation</th><th>error</th><th>count</th></tr>{rows}</table>")
    files = load.get("files") or {}
    if files:
        parts.append("<details><summary>load harness output</summary>" + "".join(
            f"<h4>{_e(k)}</h4>{_pre(_json(v))}" for k, v in files.items()) + "</details>")
    return f'<section id="load"><h2>Load</h2>{"".join(parts)}</section>'


def _round(v: Any) -> Any:
    return round(v, 2) if isinstance(v, float) else v


def _kit_errors(report: Mapping[str, Any]) -> str:
    errs = report.get("kit_errors") or []
    if not errs:
        return ""
    return ('<section id="kit-errors"><h2>Kit errors</h2><p>The kit itself broke; this says nothing about the target. '
            "Please report it.</p>" + "".join(_pre(e) for e in errs) + "</section>")


def _target_versions(report: Mapping[str, Any]) -> str:
    versions = "".join(f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in (report.get("versions") or {}).items())
    return ('<section id="target"><h2>Target and versions</h2><p class="muted">Credentials are never included.</p>'
            f'{_pre(_json(report.get("target")))}<table><tr><th>component</th><th>version</th></tr>{versions}</table>'
            "</section>")
