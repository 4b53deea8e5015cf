"""Allure results from a report: one result per test with rule labels, exchanges as attachments, categories by rule.

Needs the allure extra (allure-python-commons, in the dev extra and the lock); the files are read back as Allure
reads them: *-result.json, *-attachment.txt, categories.json.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from report_builders import CATALOG, FAIL_TEST, PLANTED, invoke, make_results

from qaconform import exitcodes
from qaconform.report import cli as report_command
from qaconform.report.writer import build_and_write

pytest.importorskip("allure_commons", reason="the allure extra is not installed (pip install 'qaconform[allure]')")


def results_of(folder: Path) -> dict[str, dict[str, Any]]:
    found = [json.loads(p.read_text()) for p in folder.glob("*-result.json")]
    return {r["fullName"]: r for r in found}


def test_each_test_becomes_an_allure_result_labelled_with_its_rules(tmp_path: Path) -> None:
    from qaconform.report.allure import write_allure

    report, _ = build_and_write(make_results(), tmp_path / "run", rules=CATALOG, meta={"run_id": "A1"})
    write_allure(report, tmp_path / "allure")
    results = results_of(tmp_path / "allure")
    assert len(results) == 6
    failed = results[FAIL_TEST]
    assert failed["status"] == "failed"
    assert {"name": "rule", "value": "FAIL-1"} in failed["labels"]
    assert {"name": "epic", "value": "comments"} in failed["labels"]
    assert failed["statusDetails"]["message"].startswith("[FAIL-1] expected 400, got 201")
    assert results["suites/contract/test_spaces.py::test_space_envelope"]["status"] == "broken"  # the kit's error
    assert results["suites/scenarios/test_lock.py::test_lock_without_prompt"]["status"] == "passed"
    names = [a["name"] for a in failed["attachments"]]
    assert names[0] == "request 1 of 1" and "rerun this test" in names
    text = (tmp_path / "allure" / failed["attachments"][0]["source"]).read_text()
    assert "POST http://127.0.0.1:9999/services/v2/node/5/comment.json" in text
    assert '-u "qa-member:$QACONFORM_MEMBER_PASSWORD"' in text


def test_categories_group_failures_by_rule_with_a_regex_that_matches_their_messages(tmp_path: Path) -> None:
    from qaconform.report.allure import write_allure

    report, _ = build_and_write(make_results(), tmp_path / "run", rules=CATALOG, meta={"run_id": "A1"})
    write_allure(report, tmp_path / "allure")
    cats = json.loads((tmp_path / "allure" / "categories.json").read_text())
    assert cats[0]["name"].startswith("FAIL-1: ") and cats[0]["matchedStatuses"] == ["failed"]
    message = results_of(tmp_path / "allure")[FAIL_TEST]["statusDetails"]["message"]
    assert re.fullmatch(cats[0]["messageRegex"], message)  # Allure matches the whole message (Java matches())
    assert not re.fullmatch(cats[0]["messageRegex"], "[FAIL-10] something else")
    assert cats[-1]["matchedStatuses"] == ["broken"]


def test_qaconform_report_allure_writes_results_without_any_password(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.json").write_text(json.dumps(make_results(planted=True)))
    assert invoke(report_command, [str(run), "--allure", str(tmp_path / "allure")]) == exitcodes.RULE_FAILED
    files = list((tmp_path / "allure").iterdir())
    assert any(p.name.endswith("-result.json") for p in files) and (tmp_path / "allure" / "categories.json").is_file()
    for p in files:
        assert PLANTED not in p.read_text(errors="replace"), p.name
