"""Expected failures (--expect FILE) are shown as such, keep the exit code at 0, and a fixed one is reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_builders import CATALOG, make_results

from qaconform import exitcodes
from qaconform.report.expect import ExpectError, load_expectations
from qaconform.report.model import build_report

TOML = """
[FAIL-1]
reason = "vendor inherits visibility silently"
link = "https://tracker.example.com/QA-12"
"""
YAML = """
FAIL-1:
  reason: vendor inherits visibility silently
  link: https://tracker.example.com/QA-12
PASS-1: known flaky on staging
"""


def clean_results() -> dict:
    res = make_results()
    res["tests"] = [t for t in res["tests"] if t["outcome"] != "error"]
    return res


def test_toml_and_yaml_files_give_the_same_expectation(tmp_path: Path) -> None:
    (tmp_path / "e.toml").write_text(TOML)
    (tmp_path / "e.yaml").write_text(YAML)
    t, y = load_expectations(tmp_path / "e.toml"), load_expectations(tmp_path / "e.yaml")
    assert t["FAIL-1"] == y["FAIL-1"]
    assert t["FAIL-1"].link == "https://tracker.example.com/QA-12"
    assert y["PASS-1"].reason == "known flaky on staging" and y["PASS-1"].link is None


def test_an_expected_failure_is_shown_and_does_not_fail_the_exit_code(tmp_path: Path) -> None:
    (tmp_path / "e.toml").write_text(TOML)
    report = build_report(clean_results(), CATALOG, expectations=load_expectations(tmp_path / "e.toml"))
    fail = next(r for r in report["rules"] if r["id"] == "FAIL-1")
    assert fail["status"] == "failed"
    assert fail["expected"]["state"] == "expected failure"
    assert report["summary"]["expected_failures"] == ["FAIL-1"]
    assert report["exit_code"] == exitcodes.OK, report["verdict"]
    assert "1 expected failure" in report["verdict"]


def test_an_expected_failure_that_now_passes_is_reported_as_unexpectedly_passing(tmp_path: Path) -> None:
    (tmp_path / "e.yaml").write_text(YAML)
    res = clean_results()
    res["tests"] = [t for t in res["tests"] if t["outcome"] != "failed"]
    report = build_report(res, CATALOG, expectations=load_expectations(tmp_path / "e.yaml"))
    assert report["summary"]["unexpectedly_passing"] == ["PASS-1"]
    assert "now pass" in report["verdict"]


def test_expectations_for_unknown_rules_are_listed(tmp_path: Path) -> None:
    (tmp_path / "e.yaml").write_text("NOPE-9: typo in the id\n")
    report = build_report(clean_results(), CATALOG, expectations=load_expectations(tmp_path / "e.yaml"))
    assert report["expectations_not_in_rules"] == ["NOPE-9"]


@pytest.mark.parametrize(("name", "text", "message"), [
    ("e.toml", "[FAIL-1]\nreason = \n", "not valid TOML"),
    ("e.yaml", "- FAIL-1\n", "must map rule ids"),
    ("e.yaml", "FAIL-1: {link: x}\n", "needs a reason"),
    ("e.yaml", "FAIL-1: {reason: r, ticket: x}\n", "unknown key 'ticket'"),
])
def test_a_bad_expectations_file_says_what_to_fix(tmp_path: Path, name: str, text: str, message: str) -> None:
    (tmp_path / name).write_text(text)
    with pytest.raises(ExpectError, match=message):
        load_expectations(tmp_path / name)


def test_a_missing_expectations_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ExpectError, match="not found"):
        load_expectations(tmp_path / "nope.toml")


def test_an_expect_file_saved_with_a_bom_reads_as_without(tmp_path: Path) -> None:
    """qa20: a known-issues TOML file a Windows editor saved as "UTF-8 with BOM" is the same file (it was 'not valid
    TOML'; PyYAML skips a BOM itself)."""
    name, text = "known.toml", '[FAIL-1]\nreason = "vendor bug"\nlink = "https://t/1"\n'
    plain, bom = tmp_path / name, tmp_path / f"bom-{name}"
    plain.write_text(text, encoding="utf-8")
    bom.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert load_expectations(bom) == load_expectations(plain)
