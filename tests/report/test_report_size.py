"""report.json and report.html stay small on a clean run; failing tests keep their last exchanges whole;
--keep-all writes everything.

The run here is synthetic but shaped like a real clean run of the suites (measured 2026-11-23: 196 rules, 514
tests, 113 of them with observations): report.html must stay under 300 KB and report.json under 1 MB.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from report_builders import entry, exchange, make_results

from qaconform.contract import Rule
from qaconform.report.writer import build_and_write

RULES = [Rule(f"RULE-{i:03d}", "observed" if i % 4 == 0 else "must", "paging", ("listQuestions",), "1.6.3",
                  f"statement number {i} of the description, in our own words", f"Section {i}") for i in range(196)]


def clean_results(tests: int = 520) -> dict[str, Any]:
    res = make_results(fail=False)
    res["tests"] = []
    for i in range(tests):
        rule = RULES[i % len(RULES)].id
        facts = {"status": 200, "listCount": 15, "sorts": ["active", "newest", "hottest", "votes"],
                 "item_fields": sorted(f"field{j}" for j in range(12)), "answer_id": 1000 + i}
        observed = i % 4 == 0
        res["tests"].append(entry(
            f"suites/contract/test_module_{i % 30}.py::test_a_descriptive_test_name_number_{i}[param-{i}]",
            "observed" if observed else "passed", [rule], areas=["paging"],
            observations=[{"rule": rule, "facts": facts}] if observed else [],
            created=[{"kind": "answer", "id": 5000 + i, "by": "member"}] if i % 5 == 0 else []))
    return res


def test_a_clean_run_writes_a_small_html_and_json_and_keep_all_writes_everything(tmp_path: Path) -> None:
    _, paths = build_and_write(clean_results(), tmp_path / "small", rules=RULES, meta={"run_id": "s"})
    html, js = paths["html"].stat().st_size, paths["json"].stat().st_size
    assert html < 300_000 and js < 1_000_000, (html, js)
    small = json.loads(paths["json"].read_text())
    assert small["detail"] == "summary"
    assert all("observations" not in t for t in small["tests"] if t["outcome"] == "observed")
    assert sum(len(v) for v in small["observations"].values()) == 130  # every observation, once

    _, full_paths = build_and_write(clean_results(), tmp_path / "all", rules=RULES, meta={"run_id": "a"},
                                    keep_all=True)
    full = json.loads(full_paths["json"].read_text())
    assert full["detail"] == "all" and full_paths["json"].stat().st_size > js
    assert all(t["observations"] for t in full["tests"] if t["outcome"] == "observed")


def test_a_failing_test_keeps_its_last_three_exchanges_whole(tmp_path: Path) -> None:
    res = make_results()
    res["tests"][1]["exchanges"] = [{**exchange(201), "url": f"http://127.0.0.1:9999/services/v2/x/{i}"}
                                    for i in range(8)]
    _, paths = build_and_write(res, tmp_path / "r", rules=RULES, meta={"run_id": "r"})
    failing = next(t for t in json.loads(paths["json"].read_text())["tests"] if t["outcome"] == "failed")
    assert [bool(x.get("summarised")) for x in failing["exchanges"]] == [True] * 5 + [False] * 3
    assert failing["exchanges"][0]["status"] == 201 and "response_body" not in failing["exchanges"][0]
    assert failing["exchanges"][-1]["response_body"] and failing["exchanges"][-1]["url"].endswith("/x/7")
