"""report.html is one self-contained page with the summary, every rule, failures, observations, created, load."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from report_builders import CATALOG, write_locust_csvs

from qaconform.report.writer import build_and_write


def build(tmp_path: Path, results: dict[str, Any], with_load: bool = True) -> str:
    if with_load:
        write_locust_csvs(tmp_path / "load")
    _, paths = build_and_write(results, tmp_path, rules=CATALOG,
                               meta={"run_id": "RUN1", "load": {"status": "ran"}} if with_load else {"run_id": "RUN1"})
    return paths["html"].read_text(encoding="utf-8")


def test_the_page_fetches_nothing_from_the_network(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html, re.IGNORECASE)
    assert "@import" not in html and "<link" not in html
    assert "<style>" in html and "<script>" in html


def test_the_page_has_a_row_per_rule_and_the_sections_qa_reads(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results)
    for rule in CATALOG:
        assert f'id="rule-{rule.id}"' in html
    for section in ("summary", "rules", "failures", "observations", "created", "load", "target"):
        assert f'<section id="{section}">' in html
    assert 'data-status="not covered"' in html and 'data-status="error"' in html
    assert "fixture wiki_node_id not in profile" in html
    assert "has_error_body" in html  # the observation's facts
    assert "qc-test0001" in html  # the run tag next to what was created


def test_a_failure_shows_request_response_and_a_copyable_curl(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results)
    block = html[html.index('<section id="failures">'):html.index('<section id="observations">')]
    assert "test_reply_with_other_visibility_is_400" in block
    assert "POST http://127.0.0.1:9999/services/v2/node/5/comment.json" in block
    assert "qcCopy(this)" in block and "curl -sS -i -X POST" in block
    assert "the kit broke" in block  # the error of ERR-1 is labelled as the kit's, not the target's


def test_load_results_become_three_inline_svg_charts(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results)
    load = html[html.index('<section id="load">'):]
    assert load.count("<svg") == 3
    for title in ("Throughput over time", "Latency percentiles over time", "Failures per operation"):
        assert f"<title>{title}</title>" in load
    assert "<polyline" in load
    assert "HTTPError(&#x27;500 Server Error&#x27;)" in load


def test_without_a_load_run_there_is_no_load_section(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results, with_load=False)
    assert '<section id="load">' not in html


def test_text_from_the_target_is_escaped(tmp_path: Path, results: dict[str, Any]) -> None:
    results["tests"][1]["message"] = "<script>alert(1)</script>"
    html = build(tmp_path, results, with_load=False)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
