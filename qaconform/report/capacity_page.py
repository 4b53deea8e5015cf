"""capacity.html: the curve a capacity report is read for, as one self-contained page in the report's style.

Per scenario: the answer in one sentence (a lower bound says so), what limited it, then two charts against the
offered rate (the "hockey stick"): achieved throughput (with the offered rate as the line it follows while the
target keeps up) and the p50/p95/p99 latency of each step's steady state, with the latency limit, the capacity
found and the knee (where latency starts to climb) marked; then, with enough steps, a Universal Scalability Law fit
(qaconform.report.usl), drawn and labelled as a model; the step table below. Reads only the capacity.json data;
every value is HTML-escaped, nothing is fetched from the network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from qaconform.report.charts import Mark, line_chart
from qaconform.report.html_page import _CSS
from qaconform.report.usl import fit_usl

_EXTRA_CSS = (".held{color:#15803d;font-weight:600}.broke{color:#b91c1c;font-weight:600}"
              ".answer{font-size:16px;margin:6px 0}.lower{background:#fef9c3;border:1px solid #fde047;"
              "border-radius:6px;padding:4px 10px}td.num{text-align:right;font-variant-numeric:tabular-nums}")


def _e(v: Any) -> str:
    return escape("" if v is None else str(v))


def _n(v: Any, digits: int = 1) -> str:
    if v is None:
        return "–"
    return f"{v:,.{digits}f}" if isinstance(v, float) else f"{v:,}"


def _answer(result: Mapping[str, Any]) -> str:
    cap = result.get("capacity_rps")
    if result.get("verdict") == "inconclusive":
        return "inconclusive (no rate held before the budget ran out)"
    if cap is None:
        return "nothing held"
    return ("at least " if result.get("lower_bound") else "") + f"{cap:,.1f} req/s"


def _latency_limit(report: Mapping[str, Any]) -> float | None:
    limits = report.get("thresholds") or {}
    return (limits.get("total") or {}).get("p95_ms") or (limits.get("defaults") or {}).get("p95_ms")


def _points(steps: Sequence[Mapping[str, Any]], key: str) -> list[tuple[float, float | None]]:
    return sorted((float(s["offered_rps"]), s.get(key)) for s in steps if s.get("offered_rps") is not None)


def _charts(report: Mapping[str, Any], result: Mapping[str, Any]) -> str:
    steps = [s for s in result.get("steps") or [] if s.get("kind") != "probe"]
    cap, knee = result.get("capacity_rate"), result.get("knee_rps")
    marks = []
    if cap:
        marks.append(Mark("x", float(cap), f"capacity {cap:g}" + (" (lower bound)" if result.get("lower_bound")
                                                                  else ""), "#15803d"))
    if knee:
        marks.append(Mark("x", float(knee), f"knee {knee:g}", "#d97706"))
    offered = _points(steps, "offered_rps")
    series = [("achieved", _points(steps, "achieved_rps")), ("offered", offered)]
    throughput = line_chart("Achieved throughput against offered rate", series, x_label="offered rate (req/s)",
                            y_label="achieved (req/s)", marks=marks, width=600, height=300, dots=True)
    lat_marks = list(marks)
    limit = _latency_limit(report)
    if limit:
        lat_marks.append(Mark("y", float(limit), f"p95 limit {limit:g} ms", "#b91c1c"))
    latency = line_chart("Latency of the steady state against offered rate",
                         [("p50", _points(steps, "p50_ms")), ("p95", _points(steps, "p95_ms")),
                          ("p99", _points(steps, "p99_ms"))], x_label="offered rate (req/s)",
                         y_label="latency (ms)", marks=lat_marks, width=600, height=300, dots=True, legend_width=60)
    return f'<div class="charts">{throughput}{latency}{_usl(steps)}</div>'


def _usl(steps: Sequence[Mapping[str, Any]]) -> str:
    usl = fit_usl(steps)
    if not usl:
        return ""
    chart = line_chart("Throughput against concurrency: USL model (a fit)",
                       [("measured", usl["points"]), ("USL model", usl["curve"])],
                       x_label="requests in flight (throughput × mean latency)", y_label="throughput (req/s)",
                       width=600, height=300, dots=True)
    peak = (f"it predicts the peak, {usl['peak_rps']:,.0f} req/s, at {usl['peak_concurrency']:.1f} requests in flight"
            if usl.get("peak_concurrency") else "it predicts no peak (no coherence cost measured)")
    return (f'<div>{chart}<p class="muted" style="max-width:600px">Model: λ {usl["lambda"]:.4g} req/s per request '
            f'in flight, σ {usl["sigma"]:.3g} (contention), κ {usl["kappa"]:.3g} (coherence), R² {usl["r2"]:.3f}; '
            f'{_e(peak)}. A model '
            "of the measured points, for reading beyond them; the capacity above is what was measured.</p></div>")


def _steps_table(steps: Sequence[Mapping[str, Any]]) -> str:
    head = ("<tr><th>#</th><th>kind</th><th>offered req/s</th><th>achieved req/s</th><th>p50 ms</th><th>p95 ms</th>"
            "<th>p99 ms</th><th>failures</th><th>generator CPU</th><th>verdict</th></tr>")
    rows = []
    for s in steps:
        if s.get("kind") == "probe":
            verdict = f'closed loop, {_e(s.get("users"))} users'
        elif s.get("held"):
            verdict = '<span class="held">held</span>'
        elif s.get("repeated"):
            verdict = (f'inside the machine\'s noise (±{_e(s.get("inside_noise_pct"))} %), repeated: '
                       + _e("; ".join(s.get("reasons") or [])))
        else:
            verdict = '<span class="broke">broke</span>: ' + _e("; ".join(s.get("reasons") or []))
        ratio = s.get("failure_ratio")
        rows.append(f'<tr><td class="num">{_e(s.get("n"))}</td><td>{_e(s.get("kind"))}</td>'
                    f'<td class="num">{_n(s.get("offered_rps"))}</td><td class="num">{_n(s.get("achieved_rps"))}</td>'
                    f'<td class="num">{_n(s.get("p50_ms"), 2)}</td><td class="num">{_n(s.get("p95_ms"), 2)}</td>'
                    f'<td class="num">{_n(s.get("p99_ms"), 2)}</td>'
                    f'<td class="num">{"–" if ratio is None else f"{ratio:.2%}"}</td>'
                    f'<td class="num">{_n(s.get("generator_cpu_pct"), 0)} %</td><td>{verdict}</td></tr>')
    return f"<table>{head}{''.join(rows)}</table>"


def _scenario(report: Mapping[str, Any], name: str, result: Mapping[str, Any]) -> str:
    cls = "answer lower" if result.get("lower_bound") else "answer"
    limit = result.get("limited_by") or {}
    parts = [f'<section id="sc-{_e(name)}"><h2>{_e(name)}: {_e(_answer(result))}</h2>',
             f'<p class="{cls}">{_e(result.get("statement"))}</p>', _interval(result),
             f'<p>Limited by <b>{_e(limit.get("kind"))}</b>: {_e(limit.get("detail"))}</p>',
             "".join(f'<p class="muted">Caveat: {_e(c)}</p>' for c in result.get("caveats") or []),
             _charts(report, result),
             f'<p class="muted">Each step: {_e(result.get("step_duration_s"))} s at a fixed arrival rate (open model), '
             f'judged on its steady state (the first {_e(result.get("warmup_s"))} s left out; a latency that keeps '
             "growing through the step counts as broken). Percentiles from the harness's exact histogram.</p>",
             _steps_table(result.get("steps") or []), "</section>"]
    return "".join(parts)


def _interval(result: Mapping[str, Any]) -> str:
    """How sure the answer is: its interval and the noise the search measured (qaconform.load.noise)."""
    iv, noise = result.get("interval"), result.get("noise") or {}
    if not isinstance(iv, Mapping):
        return ""
    broke = (result.get("between") or [None, None])[-1]  # the lowest rate that broke, confirmed or not
    if iv.get("upper") is not None:
        upper = f"{_n(iv['upper'])} req/s"
    elif broke:  # a step broke, but the search ended before it was confirmed: the page must not say none did
        upper = f"none fixed: {_n(broke)} req/s broke, not confirmed before the search ended (a lower bound)"
    else:
        upper = "no step broke above it (a lower bound)"
    sources = ", ".join(f"{label} ±{noise[key]:g} %" for key, label in (
        ("windows_pct", "throughput per second within steps"), ("repeats_pct", "a rate run twice"),
        ("tracking_pct", "achieved against offered"),
        ("shared_machine_pct", "the machine's CPUs saturated at the answer: between runs"))
        if noise.get(key) is not None)
    return (f'<p id="interval-{_e(result.get("scenario", ""))}">Interval: lower {_n(iv.get("lower"))}, best '
            f'{_n(iv.get("best"))}, upper {_e(upper)} (measured noise ±{_e(iv.get("noise_pct"))} %'
            + (f": {_e(sources)}" if sources else "") + ")</p>")


def _baseline(report: Mapping[str, Any]) -> str:
    """The comparison with ``--baseline``, when the run had one: the verdict per scenario, as the terminal says it."""
    base = report.get("baseline")
    if not isinstance(base, Mapping):
        return ""
    def pct(c: Mapping[str, Any]) -> str:
        return "" if c.get("change_pct") is None else f"{c['change_pct']:+.1f} %"

    rows = "".join(f"<tr><td>{_e(c['scenario'])}</td><td>{_n(c.get('before_rps'))}</td><td>{_n(c.get('after_rps'))}"
                   f"</td><td>{_e(pct(c))}</td><td><b>{_e(c.get('verdict'))}</b>: {_e(c.get('why'))}"
                   + "".join(f"<br><span class=\"muted\">{_e(n)}</span>" for n in c.get("notes") or [])
                   + "</td></tr>" for c in base.get("changes") or [])
    return (f'<section id="baseline"><h2>Against the baseline {_e(base.get("run_id"))} (tolerance '
            f'{_e(base.get("tolerance_pct"))} %): {_e(base.get("verdict"))}</h2><table><tr><th>scenario</th>'
            f"<th>baseline req/s</th><th>this run req/s</th><th>change</th><th>verdict</th></tr>{rows}</table>"
            "</section>")


def _generator(report: Mapping[str, Any]) -> str:
    """How the load was made: one local process (``--workers`` 0, the default) or a master and N workers."""
    workers = report.get("workers")
    if not workers:
        return "1 local process"
    return f"master + {workers} worker{'s' if workers != 1 else ''}"


def render_capacity(report: Mapping[str, Any]) -> str:
    """The whole page as one string."""
    scenarios = report.get("scenarios") or {}
    summary = "; ".join(f"{sc}: {_answer(r)}" for sc, r in scenarios.items())
    checks = report.get("checks") or {}
    sampled = checks.get("sampled")
    check_note = ("Every answer's status, Content-Type, size and list envelope (on the bytes) is checked"
                  + (f"; {sampled['what']} on one in {sampled['one_in']} calls per user (sampled)." if sampled
                     else "."))
    head = (f'<header><h1>Capacity: {_e(summary)}</h1><div class="meta">target {_e(report.get("target"))} · run '
            f'{_e(report.get("run_id"))} · precision {_e(report.get("precision_pct"))} % · budget '
            f'{_e(report.get("max_time_s"))} s · generator {_e(_generator(report))}</div></header>')
    body = "".join(_scenario(report, sc, r) for sc, r in scenarios.items())
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>Capacity {_e(report.get('run_id'))}</title><style>{_CSS}{_EXTRA_CSS}</style></head><body>"
            f"{head}<main>{_baseline(report)}{body}<p class=\"muted\">{_e(check_note)}</p></main></body></html>")
