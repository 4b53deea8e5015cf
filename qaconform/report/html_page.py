"""report.html: one self-contained page (inline CSS, JS and SVG; nothing fetched from the network).

A QA lead reads this before a release, often from a CI artefact or a mail attachment, and must see in the first
screen what broke and how to reproduce it. So the page is ordered by what needs attention: the verdict; each failed
rule once (its statement, how many tests failed, the first failure's message, exchange, curl and rerun command, the
rest folded); then the other statuses that have a section (errors of the kit, and any status added to
``status.Status`` with a heading), should-level warnings, observations that changed since the baseline run; only
then the full rule table (sortable, filterable, failed on top), observations, skips, what the run created, load,
versions. Everything shown comes from the already-redacted report.json data and is HTML-escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qaconform.report import holdbacks
from qaconform.report.coverage_page import CSS as COVERAGE_CSS
from qaconform.report.coverage_page import coverage_section, har_link
from qaconform.report.html_parts import as_json as _json
from qaconform.report.html_parts import badge as _badge
from qaconform.report.html_parts import cmd as _cmd
from qaconform.report.html_parts import curl_box as _curl
from qaconform.report.html_parts import elem_text as _t
from qaconform.report.html_parts import esc as _e
from qaconform.report.html_parts import first_lines as _lines
from qaconform.report.html_parts import pre as _pre
from qaconform.report.load_section import load_section
from qaconform.report.model import limits_text, settle_text
from qaconform.report.observation_words import ObservationSummary
from qaconform.report.reproduce import variables_used
from qaconform.report.rule_groups import skipped_groups
from qaconform.report.terminal import fixture_lines, scheduled_jobs
from qaconform.status import Status, fails_run, rank
from qaconform.target.cleanup import summary_line as cleanup_summary_line
from qaconform.target.writes import writes_text

_FOLDED_MESSAGE_LINES = 6
_MESSAGE_LINES = 40

_CSS = """
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;
color:#0f172a;background:#f8fafc}header{background:#0f172a;color:#f8fafc;padding:12px 24px}
header h1{margin:0 0 2px;font-size:19px}header .meta{color:#cbd5e1;font-size:12.5px}
main{padding:4px 24px 48px;max-width:1400px}section{margin-top:18px}h2{font-size:17px;border-bottom:1px solid #cbd5e1;
padding-bottom:4px;margin:10px 0}h3{font-size:15px;margin:0 0 4px}.verdict{margin-top:8px;padding:6px 12px;
border-radius:6px;font-weight:600}.v0{background:#dcfce7;color:#14532d}.v1{background:#fee2e2;color:#7f1d1d}
.v4{background:#f3e8ff;color:#581c87}.counts{margin-top:8px;display:flex;gap:6px;flex-wrap:wrap}
.counts a{color:#f8fafc;text-decoration:none}.cards{display:flex;gap:10px;flex-wrap:wrap}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #e2e8f0;padding:4px 8px;
text-align:left;vertical-align:top}th{background:#f1f5f9;position:sticky;top:0}th.sort{cursor:pointer}
th.sort:after{content:" \\2195";color:#94a3b8}.badge{display:inline-block;padding:1px 8px;border-radius:10px;
color:#fff;font-size:12px;font-weight:600;white-space:nowrap}.b-expected{background:#fb923c}
.b-unexpected{background:#0d9488}.b-warning{background:#ca8a04}
pre{background:#0f172a;color:#e2e8f0;padding:8px 10px;border-radius:6px;overflow:auto;white-space:pre-wrap;
word-break:break-all;max-height:360px;margin:4px 0}.msg{background:#fff7ed;color:#7c2d12;border:1px solid #fed7aa}
.cmd{position:relative}.cmd button{position:absolute;right:6px;top:6px;font-size:12px}.cmd pre{padding-right:64px}
.cmd .lbl{font-size:12px;color:#475569;font-weight:600}
.rule-card{background:#fff;border:1px solid #fecaca;border-left:5px solid #b91c1c;border-radius:6px;
padding:8px 12px;margin:10px 0}.rule-card.error{border-color:#e9d5ff;border-left-color:#7e22ce}
.rule-card.warning{border-color:#fde68a;border-left-color:#ca8a04}.more{border-top:1px dashed #cbd5e1;
margin-top:6px;padding-top:4px}.ex{display:grid;grid-template-columns:1fr 1fr;gap:8px}.muted{color:#64748b}
.filters{margin-bottom:6px}.filters button{margin:0 4px 6px 0}.filters button.on{outline:2px solid #0f172a}
details summary{cursor:pointer}.chart{background:#fff;border:1px solid #e2e8f0;border-radius:6px;
margin:6px 8px 6px 0}.chart-title{font-weight:600;font-size:13px}.tick{font-size:11px;fill:#475569}
.charts{display:flex;flex-wrap:wrap}code{font-size:12.5px}.env{background:#eff6ff;border:1px solid #bfdbfe;
border-radius:6px;padding:6px 10px;margin:6px 0}.pass{color:#15803d;font-weight:600}.fail{color:#b91c1c;font-weight:600}
"""
_CSS += COVERAGE_CSS
_CSS += "".join(f".b-{s.slug}{{background:{s.colour}}}" for s in Status)

_JS = """
var qcState={status:'all',q:''};
function qcApply(){document.querySelectorAll('tr.rule-row').forEach(function(r){
 var ok=(qcState.status==='all'||r.dataset.status===qcState.status)&&
  (!qcState.q||r.textContent.toLowerCase().indexOf(qcState.q)>=0);r.style.display=ok?'':'none'});}
function qcFilter(status,btn){qcState.status=status;
 document.querySelectorAll('.filters button').forEach(function(b){b.classList.remove('on')});
 if(btn){btn.classList.add('on')}qcApply();}
function qcSearch(q){qcState.q=q.toLowerCase();qcApply();}
function qcSort(th){var table=th.closest('table'),body=table.tBodies[0],key=th.dataset.key,
 dir=th.dataset.dir==='asc'?'desc':'asc';th.dataset.dir=dir;
 var rows=Array.prototype.slice.call(body.rows);rows.sort(function(a,b){var x=a.dataset[key],y=b.dataset[key];
  var nx=parseFloat(x),ny=parseFloat(y);var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:(x<y?-1:x>y?1:0);
  if(c===0){c=parseFloat(a.dataset.order)-parseFloat(b.dataset.order)}return dir==='asc'?c:-c});
 rows.forEach(function(r){body.appendChild(r)});}
function qcCopy(btn){var t=btn.parentNode.querySelector('code').textContent;
 if(navigator.clipboard){navigator.clipboard.writeText(t).then(function(){btn.textContent='copied'})}
 else{var a=document.createElement('textarea');a.value=t;document.body.appendChild(a);a.select();
 document.execCommand('copy');a.remove();btn.textContent='copied'}}
"""


def render_html(report: Mapping[str, Any]) -> str:
    """The whole page as text."""
    target = report.get("target") or {}
    title = f"qaconform report: {target.get('name') or target.get('base_url') or 'unknown target'}"
    body = [
        _header(report, title),
        "<main>",
        _fixtures(report),
        _failed_rules(report),
        *_status_sections(report),
        _warnings(report),
        _unattributed(report),
        _changed(report),
        _summary(report),
        coverage_section(report),
        _rules_table(report),
        _observations(report),
        _skips(report),
        _created(report),
        _cleanup(report),
        load_section(report.get("load")),
        _kit_errors(report),
        _target_versions(report),
        "</main>",
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(b for b in body if b) + f"<script>{_JS}</script></body></html>\n")


def _when(started: object) -> object:
    """report.json's ``started`` (ISO 8601 with microseconds) as a reader says it: ``2026-11-30 03:25:50 UTC``."""
    from datetime import UTC, datetime

    try:
        return datetime.fromisoformat(str(started)).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    except ValueError:
        return started


def _seconds(duration: object) -> object:
    """``158.876`` -> ``158.9``: the page's figure; report.json keeps the exact one."""
    return f"{duration:.1f}" if isinstance(duration, (int, float)) and not isinstance(duration, bool) else duration



def _header(report: Mapping[str, Any], title: str) -> str:
    target = report.get("target") or {}
    sel = report.get("selection") or {}
    only = " ".join([*sel.get("areas", []), *sel.get("rules", [])])
    flags = [f"--only {only}" if only else "", "read-only" if sel.get("read_only") else "",
             "dry run" if sel.get("dry_run") else "", "embedded reference server" if report.get("reference") else "",
             limits_text(report.get("execution")) if report.get("execution") else "",
             settle_text(report.get("settle")), holdbacks.text(report.get("held_back")),
             writes_text(report.get("writes"))]
    meta = " · ".join(x for x in [
        f"run {_e(report.get('run_id'))}", f"target {_e(target.get('base_url'))}",
        f"service version {_e(target.get('service_version') or 'not stated')}",
        f"started {_e(_when(report.get('started')))}", f"{_e(_seconds(report.get('duration_s')))} s",
        *map(_e, flags)] if x)
    code = report.get("exit_code")
    counts = (report.get("summary") or {}).get("rules") or {}
    chips = "".join(f'<a href="#rules" onclick="qcFilter(\'{_e(s.value)}\',null)">'
                    f"{_badge(s.value, f'{counts.get(s.value, 0)} {s.value}')}</a>"
                    for s in Status if counts.get(s.value))
    return (f'<header><h1>{_e(title)}</h1><div class="meta">{meta}</div>'
            f'<div class="verdict v{_e(code)}" id="verdict">exit code {_e(code)}: {_e(report.get("verdict"))}</div>'
            f'<div class="counts" id="counts">{chips}</div></header>')


# ----------------------------------------------------------------------------------------------------------
# what needs attention: failed rules, other headed statuses, warnings, changed observations

def _tests_by_id(report: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {str(t.get("nodeid")): t for t in report.get("tests") or []}


def _failed_rules(report: Mapping[str, Any]) -> str:
    warned = _warned_ids(report)
    rules = [r for r in report.get("rules", []) if Status.of(r["status"]) is Status.FAILED and r["id"] not in warned]
    heading = Status.FAILED.heading
    if not rules:
        return (f'<section id="failed"><h2>{_e(heading)}</h2><p>No rule failed.</p></section>')
    tests = _tests_by_id(report)
    cards = [_rule_card(r, tests, report) for r in rules]
    return (f'<section id="failed"><h2>{_e(heading)} ({len(rules)})</h2>{_env_note(report, rules, tests)}'
            + "".join(cards) + "</section>")


def _env_note(report: Mapping[str, Any], rules: Sequence[Mapping[str, Any]],
              tests: Mapping[str, Mapping[str, Any]]) -> str:
    """Which environment variables the curls on the page read, and whose password each must hold."""
    curls = [str(f.get("curl") or "") for r in rules for f in (r.get("evidence") or {}).get("failures") or []]
    names = variables_used(curls)
    if not names:
        return ""
    repro = report.get("reproduce") or {}
    by_var = {v: role for role, v in (repro.get("env_variables") or {}).items()}
    accounts = (report.get("target") or {}).get("accounts") or {}
    where = f" in {repro['profile']}" if repro.get("profile") else ""
    items = ", ".join(
        f"<code>{_e(n)}</code> (the password of <code>{_e((accounts.get(by_var.get(n, '')) or {}).get('username'))}"
        f"</code>, role {_e(by_var.get(n, '?'))})" for n in names)
    export = " ".join(f"export {n}=..." for n in names)
    return (f'<div class="env" id="env-note">The curls read passwords from environment variables (never written '
            f"here): {items}, as in the profile{_e(where)}. Set them once, then paste: <code>{_e(export)}</code></div>")


def _in_status(rule: Mapping[str, Any]) -> int:
    """How many of a rule's tests ended in its status (a blocked test carries no failure evidence)."""
    return sum(1 for t in rule.get("tests") or [] if Status.of(t.get("outcome")) is Status.of(rule["status"]))


def _rule_card(rule: Mapping[str, Any], tests: Mapping[str, Mapping[str, Any]], report: Mapping[str, Any],
               kind: str = "failed") -> str:
    ev = rule.get("evidence") or {}
    failures = [f for f in ev.get("failures") or [] if Status.of(f.get("outcome")) is Status.of(rule["status"])]
    failures = failures or list(ev.get("failures") or [])
    total = len(rule.get("tests") or [])
    exp = rule.get("expected")
    extra = ""
    if exp:
        extra = f" {_badge('expected', 'expected failure')} <span class=\"muted\">{_e(exp.get('reason'))}</span>"
    verb = {"failed": "failed", "error": "broke in the kit"}.get(str(rule["status"]), str(rule["status"]))
    head = (f'<h3><a href="#rule-{_e(rule["id"])}"><code>{_e(rule["id"])}</code></a> {_e(rule.get("summary"))}</h3>'
            f'<div class="muted">{_e(rule.get("level"))} · {_e(rule.get("area"))} · '
            f'{_e(", ".join(rule.get("operations") or []))} · {_e(rule.get("source"))}</div>'
            f'<p><b class="count">{len(failures) or _in_status(rule)} of {total} test(s) {_e(verb)}</b>{extra}</p>')
    if not failures:
        return (f'<article class="rule-card {kind}" id="{kind}-{_e(rule["id"])}">{head}'
                f'<p>{_e(rule.get("reason") or "")}</p></article>')
    first, rest = failures[0], failures[1:]
    body = [_first_failure(first, tests.get(str(first.get("test"))), har_link(report, first.get("test")))]
    if rest:
        items = "".join(_folded_failure(f, har_link(report, f.get("test"))) for f in rest)
        body.append(f'<details class="more"><summary>{len(rest)} more failing test(s) of this rule</summary>'
                    f"{items}</details>")
    return f'<article class="rule-card {kind}" id="{kind}-{_e(rule["id"])}">{head}{"".join(body)}</article>'


def _first_failure(failure: Mapping[str, Any], test: Mapping[str, Any] | None, har: str = "") -> str:
    parts = [f'<div>first: {har}<code>{_e(failure.get("test"))}</code></div>',
             _pre(_lines(failure.get("message"), _MESSAGE_LINES), "msg")]
    exchanges = list((test or {}).get("exchanges") or [])
    failed = ((test or {}).get("failure") or {}).get("exchange")
    if isinstance(failed, Mapping):  # the request the failure names, wherever it stands among the test's requests
        exchanges = [x for x in exchanges if x != failed] + [failed]
    if exchanges:
        parts.append(_exchange(exchanges[-1], with_curl=False))
    curl = failure.get("curl")
    if curl:
        parts.append(_curl(str(curl)))
    elif not exchanges:
        parts.append('<p class="muted">no request was recorded in this test</p>')
    parts.append(_rerun(failure))
    if len(exchanges) > 1:
        parts.append(f"<details><summary>{len(exchanges) - 1} earlier request(s) of this test</summary>"
                     + "".join(_exchange(x) for x in exchanges[:-1]) + "</details>")
    if test and test.get("longrepr"):
        parts.append(f"<details><summary>traceback</summary>{_pre(test['longrepr'])}</details>")
    return "".join(parts)


def _rerun(failure: Mapping[str, Any]) -> str:
    rerun = failure.get("rerun") or {}
    out = ""
    if rerun.get("test"):
        out += _cmd(str(rerun["test"]), "rerun this test alone against the same target", "rerun")
    if rerun.get("rule"):
        out += f'<div class="muted">every test of the rule: <code>{_e(rerun["rule"])}</code></div>'
    return out


def _folded_failure(failure: Mapping[str, Any], har: str = "") -> str:
    parts = [f'<div class="more">{har}<code>{_e(failure.get("test"))}</code>',
             _pre(_lines(failure.get("message"), _FOLDED_MESSAGE_LINES), "msg")]
    if failure.get("curl"):
        parts.append(_curl(str(failure["curl"])))
    parts.append(_rerun(failure))
    return "".join(parts) + "</div>"


def _status_sections(report: Mapping[str, Any]) -> list[str]:
    """A section for every other status that has a heading in status.Status (errors; blocked when it exists)."""
    out = []
    tests = _tests_by_id(report)
    for status in Status:
        if status is Status.FAILED or not status.heading:
            continue
        rules = [r for r in report.get("rules", []) if Status.of(r["status"]) is status]
        if not rules:
            continue
        cards = "".join(_rule_card(r, tests, report, kind=status.slug) for r in rules)
        out.append(f'<section id="{status.slug}"><h2>{_e(status.heading)} ({len(rules)})</h2>{cards}</section>')
    return out


def _warned_ids(report: Mapping[str, Any]) -> set[str]:
    """The rules the run reports as warnings: the summary's list, decided once by the model (with --strict a failed
    should-rule fails the run and is no warning), so the banner, the sections, the terminal and junit.xml agree."""
    summary = report.get("summary") or {}
    if "warning_rules" in summary:
        return {str(r) for r in summary["warning_rules"]}
    return {str(r["id"]) for r in report.get("rules", []) if Status.of(r["status"]) is Status.WARNING
            or (Status.of(r["status"]) is Status.FAILED and not fails_run(r))}


def _warnings(report: Mapping[str, Any]) -> str:
    """Failed rules of a level that does not fail the run (should): reported apart, as warnings."""
    warned = _warned_ids(report)
    rules = [r for r in report.get("rules", []) if r["id"] in warned]
    if not rules:
        return ""
    tests = _tests_by_id(report)
    cards = "".join(_rule_card(r, tests, report, kind="warning") for r in rules)
    return (f'<section id="warnings"><h2>Warnings: {len(rules)} rule(s) of a level that does not fail the run</h2>'
            f"{cards}</section>")


def _changed(report: Mapping[str, Any]) -> str:
    """Observations (and rule statuses) that differ from the baseline run, when one was given."""
    base = report.get("baseline")
    if not isinstance(base, Mapping):
        return ""
    changes = list(base.get("observations_changed") or [])
    statuses = list(base.get("status_changes") or [])
    head = f'<section id="changed"><h2>Changed since {_e(base.get("run_id"))}</h2>'
    if not changes and not statuses:
        return head + "<p>No change in rule status or observations.</p></section>"
    rows = "".join(f"<tr><td><code>{_e(c['rule'])}</code></td><td>{_badge(c['before'])} → {_badge(c['after'])}</td>"
                   "</tr>" for c in statuses)
    obs = "".join(f"<tr><td><code>{_e(c['rule'])}</code></td><td><code>{_e(c.get('test'))}</code></td>"
                  f"<td>{_e(c.get('change'))}</td></tr>" for c in changes)
    return (head + (f"<h3>Rule status</h3><table><tr><th>rule</th><th>before → after</th></tr>{rows}</table>"
                    if rows else "")
            + (f"<h3>Observations</h3><table><tr><th>rule</th><th>test</th><th>what changed</th></tr>{obs}</table>"
               if obs else "") + "</section>")


# ----------------------------------------------------------------------------------------------------------
# the rest: summary, rule table, observations, skips, created, load, versions

def _summary(report: Mapping[str, Any]) -> str:
    s = report["summary"]
    counts = s["rules"]
    total = max(1, sum(counts.values()))
    x = 0.0
    rects = []
    for st in Status:
        w = 600 * counts.get(st.value, 0) / total
        if w:
            rects.append(f'<rect x="{x:.1f}" y="0" width="{w:.1f}" height="18" fill="{st.colour}">'
                         f"<title>{_e(st.value)}: {counts[st.value]}</title></rect>")
        x += w
    bar = (f'<svg xmlns="http://www.w3.org/2000/svg" id="summary-bar" width="600" height="18" viewBox="0 0 600 18" '
           f'preserveAspectRatio="none" style="display:block;margin:6px 0;background:#fff" role="img">'
           f'<title>rules by status</title>{"".join(rects)}</svg>')
    tests = ", ".join(f"{n} {o}" for o, n in s["tests"].items() if n)
    extra = []
    if s.get("skipped_by_reason"):
        extra.append("Skipped rules by reason: " + ", ".join(f"{_e(k)} {v}" for k, v in s["skipped_by_reason"].items()))
    if (s.get("not_checked") or {}).get("tests"):
        extra.append(f"Not checked, list too long: {s['not_checked']['tests']} test(s) of " + ", ".join(
            f'<a href="#rule-{_e(r)}">{_e(r)}</a>' for r in s["not_checked"]["rules"]))
    if s.get("expected_failures"):
        extra.append(f"{_badge('expected', 'expected failure')} " + ", ".join(
            f'<a href="#rule-{_e(r)}">{_e(r)}</a>' for r in s["expected_failures"]))
    if s.get("unexpectedly_passing"):
        extra.append(f"{_badge('unexpected', 'unexpectedly passing')} " + ", ".join(
            f'<a href="#rule-{_e(r)}">{_e(r)}</a>' for r in s["unexpectedly_passing"])
            + " — these expected failures now pass; remove them from the --expect file.")
    return (f'<section id="summary"><h2>Summary</h2>{bar}'
            f'<p>{s["rules_total"]} rules ({s["must_rules"]} must, {s["must_held"]} held); '
            f'{s["tests_total"]} tests: {_e(tests) or "none ran"}.</p>'
            + "".join(f"<p>{x}</p>" for x in extra) + "</section>")


def _rules_table(report: Mapping[str, Any]) -> str:
    counts = report["summary"]["rules"]
    buttons = ['<button type="button" class="on" onclick="qcFilter(\'all\',this)">all</button>'] + [
        f'<button type="button" onclick="qcFilter(\'{_e(st.value)}\',this)">{_e(st.value)} '
        f"({counts.get(st.value, 0)})</button>" for st in Status if counts.get(st.value)]
    ordered = sorted(enumerate(report.get("rules", [])), key=lambda ir: (rank(ir[1]["status"]), ir[0]))
    rows = []
    for order, r in ordered:
        status = r["status"]
        badge = _badge(status)
        exp = r.get("expected")
        if exp:
            kind = "expected" if exp["state"] == "expected failure" else "unexpected"
            link = f' <a href="{_e(exp["link"])}">link</a>' if exp.get("link") else ""
            badge += f" {_badge(kind, exp['state'])}<div class=\"muted\">{_e(exp['reason'])}{link}</div>"
        tests = r.get("tests") or []
        bad = sum(1 for t in tests if Status.of(t.get("outcome")) in (Status.FAILED, Status.ERROR))
        tcell = f"{len(tests)}" + (f' <span class="fail">({bad} broken)</span>' if bad else "")
        note = _e(r.get("reason")) if r.get("reason") else ""
        st = Status.of(status)
        link = f' <a href="#{_e(st.slug)}-{_e(r["id"])}">details</a>' if bad and st is not None and st.heading else ""
        rows.append(f'<tr class="rule-row" id="rule-{_e(r["id"])}" data-status="{_e(status)}" '
                    f'data-rank="{rank(status)}" data-order="{order}" data-id="{_e(r["id"])}" '
                    f'data-level="{_e(r["level"])}" data-area="{_e(r["area"])}" data-tests="{len(tests)}">'
                    f'<td><code>{_e(r["id"])}</code>{link}</td><td>{badge}</td><td>{_e(r["level"])}</td>'
                    f'<td>{_e(r["area"])}</td><td>{tcell}</td>{_statement(r, note)}</tr>')
    heads = "".join(f'<th class="sort" data-key="{k}" onclick="qcSort(this)">{_e(label)}</th>' for k, label in (
        ("id", "rule"), ("rank", "status"), ("level", "level"), ("area", "area"), ("tests", "tests")))
    return (f'<section id="rules"><h2>All rules ({len(rows)})</h2><div class="filters">{"".join(buttons)}'
            '<input type="search" placeholder="filter rules…" oninput="qcSearch(this.value)"></div>'
            f'<table id="rules-table"><thead><tr>{heads}<th>statement</th><th>reason</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></section>')


def _statement(rule: Mapping[str, Any], note: str) -> str:
    """The statement and reason cells of a rule's row; a rule with no reason (most: every passed and observed one)
    gives its statement both columns, so an empty reason cell never squeezes the statement into a third of the row."""
    statement = f'{_e(rule["summary"])}<div class="muted">{_e(rule.get("source"))}</div>'
    return f"<td>{statement}</td><td>{note}</td>" if note else f'<td colspan="2">{statement}</td>'


def _exchange(x: Mapping[str, Any], with_curl: bool = True) -> str:
    req_h = "\n".join(f"{k}: {v}" for k, v in (x.get("request_headers") or {}).items())
    resp_h = "\n".join(f"{k}: {v}" for k, v in (x.get("response_headers") or {}).items())
    req = f"{x.get('method')} {x.get('url')}\n{req_h}" + (f"\n\n{x['request_body']}" if x.get("request_body") else "")
    resp = f"{x.get('status')} ({x.get('elapsed_ms')} ms)\n{resp_h}\n\n{x.get('response_body') or ''}"
    return (f'<div class="ex"><div><b>request</b> as {_e(x.get("role"))}{_pre(req)}</div>'
            f"<div><b>response</b>{_pre(resp)}</div></div>"
            + (_curl(str(x["curl"])) if with_curl and x.get("curl") else ""))


def _unattributed(report: Mapping[str, Any]) -> str:
    """Broken tests that name no rule (a kit bug: every suite test must carry a rule marker)."""
    tests = _tests_by_id(report)
    broken = [t for t in report.get("unattributed_tests") or []
              if Status.of(t.get("outcome")) in (Status.FAILED, Status.ERROR)]
    if not broken:
        return ""
    items = "".join(f'<div class="rule-card">{_badge(t["outcome"])} <code>{_e(t["nodeid"])}</code>'
                    f'{_pre(_lines(t.get("message"), _MESSAGE_LINES), "msg")}'
                    + "".join(_exchange(x) for x in (tests.get(t["nodeid"]) or {}).get("exchanges", [])[-1:])
                    + "</div>" for t in broken)
    return f'<section id="unattributed"><h2>Broken tests that name no rule ({len(broken)})</h2>{items}</section>'


def _observations(report: Mapping[str, Any]) -> str:
    """Observations grouped by rule, most first: the rule's question and where the description is silent, then each
    observation's sentence (:class:`ObservationSummary`, report.json's words) with its facts folded under it."""
    obs = report.get("observations") or {}
    if not obs:
        return ('<section id="observations"><h2>Observations</h2><p>No observation was recorded.</p></section>')
    rules = {r["id"]: r for r in report.get("rules", [])}
    out = []
    for rid, items in sorted(obs.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        words = [ObservationSummary.of(rid, o) for o in items]
        silent = next((w.silent for w in words if w.silent), "") or rules.get(rid, {}).get("source", "")
        rows = "".join(f'<li>{_e(w.sentence)} <details><summary class="muted">facts of <code>{_e(o["test"])}'
                       f"</code></summary>{_pre(_json(o.get('facts')))}</details></li>"
                       for w, o in zip(words, items, strict=True))
        tests = len({o["test"] for o in items})
        out.append(f'<h3 id="obs-{_e(rid)}"><code>{_e(rid)}</code> {len(items)} observation(s) from {tests} '
                   f'test(s) <span class="muted">{_e(rules.get(rid, {}).get("summary", ""))}</span></h3>'
                   f'<p class="muted">The description is silent: {_e(silent)}</p><ul>{rows}</ul>')
    count = sum(len(v) for v in obs.values())
    return ('<section id="observations"><h2>Observations on spec-silent behaviour</h2>'
            f'<p class="muted">{count} observation(s) recorded for {len(obs)} rule(s). Where the interface '
            'description is silent, the kit records what this target does, in a sentence, with the facts folded under '
            f'it. These never fail the run.</p>{"".join(out)}</section>')


def _skips(report: Mapping[str, Any]) -> str:
    """The skipped rules by reason, as the model grouped them (``summary.skipped_groups``: the reason, its rules, how
    many tests gave it; qaconform.report.rule_groups), each rule beside its first skip's detail."""
    groups = (report.get("summary") or {}).get("skipped_groups")
    if groups is None:  # a report.json of an older kit: group by the rules' reasons here
        groups = skipped_groups(report.get("rules", []))
    if not groups:
        return ""
    # the facts behind a skip (a list's size, the ids drawn) are kept out of its reason, which CI compares between
    # builds (skip_detail): the page shows them beside the rule, the first of its skipped tests' (user14)
    detail: dict[str, str] = {}
    for t in report.get("tests") or []:
        if t.get("outcome") == "skipped" and t.get("skip_detail"):
            for rule in t.get("rules") or []:
                detail.setdefault(str(rule), str(t["skip_detail"]))
    items = "".join(
        f"<li>{_e(g['reason'])} <span class=\"muted skip-count\">({_count(len(g['rules']), 'rule')}"
        f"{_skipped_tests(g)})</span>: " + ", ".join(
            f'<a href="#rule-{_e(i)}"><code>{_e(i)}</code></a>'
            + (f' <span class="muted skip-detail">({_e(detail[i])})</span>' if i in detail else "")
            for i in g["rules"]) + "</li>" for g in groups)
    return f'<section id="skipped"><h2>Skipped rules, by reason</h2><ul>{items}</ul></section>'


def _skipped_tests(group: Mapping[str, Any]) -> str:
    """A skip group's tests (none where --only left its rules out) and the other rules they name that other tests
    judged (tidy24: "1 rule, 48 tests" read as 48 tests of that one rule lost)."""
    tests, judged = int(group.get("tests") or 0), int(group.get("judged_elsewhere") or 0)
    also = f"; those tests also name {_count(judged, 'rule')} other tests judged" if judged else ""
    return f", {_count(tests, 'test')}{also}" if tests else ""


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _fixtures(report: Mapping[str, Any]) -> str:
    """At the top: what this run consumed of the target's one-shot fixtures and created there, what is left."""
    lines = fixture_lines(report)
    if report.get("cleanup"):  # beside "created on the target": what is still there once the run ended
        lines.append(cleanup_summary_line(report["cleanup"]))
    if not lines:
        return ""
    items = "".join(f"<li>{_e(line)}</li>" for line in lines)
    return (f'<section id="fixtures"><h2>What this run did to the target</h2><ul>{items}</ul>'
            '<p class="muted">Every object the run created is listed <a href="#created">below</a>.</p></section>')


def _created(report: Mapping[str, Any]) -> str:
    created = report.get("created") or []
    if not created:
        return '<section id="created"><h2>What the run created</h2><p>Nothing.</p></section>'
    by_test: dict[str, list[Mapping[str, Any]]] = {}
    for c in created:
        by_test.setdefault(str(c.get("test") or ""), []).append(c)
    rows = "".join(f"<tr><td><code>{_t(test)}</code></td><td>"
                   + ", ".join(f"{_t(c.get('kind'))} {_t(c.get('id'))} by {_t(c.get('by'))}" for c in items)
                   + "</td></tr>" for test, items in by_test.items())
    tag = report.get("run_tag")
    jobs = scheduled_jobs(report)
    job_rows = "".join(f"<tr><td><code>{_e(j['id'])}</code></td><td>{_e(j['what'])}</td></tr>" for j in jobs)
    job_table = (f'<h3 id="jobs">Data-protection jobs scheduled ({len(jobs)}): no interface undoes them</h3>'
                 f"<p>An admin of the site can cancel them by id.</p><table><tr><th>job id</th><th>for whom, when, "
                 f"which operations</th></tr>{job_rows}</table>") if jobs else ""
    return (f'<section id="created"><h2>What the run created ({len(created)})</h2>'
            + (f"<p>Every body carries the run tag <code>{_e(tag)}</code>.</p>" if tag else "") + job_table
            + f"<table><tr><th>test</th><th>created (kind, id, account)</th></tr>{rows}</table></section>")


def _cleanup(report: Mapping[str, Any]) -> str:
    """What the cleanup at the end of the run removed of what it created, and what it left behind (and why)."""
    record = report.get("cleanup")
    if not isinstance(record, Mapping):
        return ""
    left = [] if record.get("skipped") else [  # skipped: every item, listed under "What the run created" already
        i for i in record.get("items") or [] if isinstance(i, Mapping) and i.get("status") == "left behind"]
    rows = "".join(f"<tr><td>{_t(i.get('kind'))} {_t(i.get('id'))}</td><td>{_t(i.get('by'))}</td>"
                   f"<td>{_t(i.get('why'))}</td></tr>" for i in left)
    how = (f"<p>With <code>{_e(str(record.get('operation')))}</code> as {_e(str(record.get('account')))}: "
           f"{_e(str(record.get('calls')))} calls in {_e(str(record.get('seconds')))} s.</p>"
           if record.get("operation") else "")
    table = (f"<table><tr><th>left behind</th><th>created by</th><th>why</th></tr>{rows}</table>" if rows else "")
    return (f'<section id="cleanup"><h2>Cleanup</h2><p>{_e(cleanup_summary_line(record))}</p>{how}{table}'
            "</section>")


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
