"""The terminal as a user reads it after `qaconform run` against a profile: the ``writes:`` line came twice (from the
suites' plugin at the end of pytest's output, and again in the run's summary), so a user could not tell whether the
run wrote 97 or 194 times; a warning's line spent its width repeating the rule id; the HAR folder was named
relative to a directory the user was not in."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from report_builders import CATALOG, entry, make_results

from qaconform.contract import Rule
from qaconform.pytest.results import _Reporter
from qaconform.pytest.run_state import STATE, RunState
from qaconform.report.model import build_report
from qaconform.report.terminal import format_summary
from qaconform.target.writes import SUITES, limits, write_summary

_TESTS = [{"writes": {"pool": SUITES, "operations": {"postAnswer": {"sent": 3, "accepted": 2, "held": 0}}}}]


class _Config:
    """The two things the plugin's terminal summary reads from pytest's config: its options and its stash."""

    def __init__(self, **options: Any) -> None:
        self.options = {"qc_thorough": False, "qc_write_budget": None, **options}
        profile = SimpleNamespace(safety=SimpleNamespace(write_budget_value=100), path="p.toml")
        self.stash = {STATE: RunState(holder=SimpleNamespace(target=SimpleNamespace(profile=profile)),
                                      results=list(_TESTS))}

    def getoption(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)


class _Terminal:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def write_line(self, line: str) -> None:
        self.lines.append(line)

    def write_sep(self, sep: str, title: str) -> None:
        self.lines.append(title)


def _plugin_lines(**options: Any) -> list[str]:
    tr = _Terminal()
    _Reporter(_Config(**options)).pytest_terminal_summary(tr)  # type: ignore[arg-type]
    return tr.lines


def _writes_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("writes: ")]


def test_a_qaconform_run_prints_the_writes_line_once(tmp_path: Path) -> None:
    """Under `qaconform run` (a results file given) the plugin leaves the line to the run's summary; pytest's output
    and the summary together hold it once."""
    plugin = _plugin_lines(qc_results=str(tmp_path / "results.json"))
    report = {"writes": write_summary(_TESTS, {"budget": 100, "limits": limits(100), "thorough": False})}
    summary = format_summary(report)
    assert _writes_lines("\n".join(plugin)) == [], plugin
    assert len(_writes_lines("\n".join([*plugin, summary]))) == 1, summary


def test_pytest_alone_still_prints_the_writes_line() -> None:
    """`python -m pytest suites` has no run summary: there the plugin's line is the only one."""
    lines = _writes_lines("\n".join(_plugin_lines()))
    assert lines == ["writes: 2 accepted of a budget of 100 (3 sent; suites 2/87)"], lines


def test_a_warnings_line_says_what_went_wrong_not_the_rule_id_three_times() -> None:
    message = ("should-level warning (WARN-1; fails the run only with --strict): [WARN-1] GET on the Location of "
               "the new comment must give 200 and the item 99")
    results = make_results(fail=False)
    results["tests"].append(entry("suites/contract/test_x.py::test_location", "warning", ["WARN-1"], message=message))
    catalog = [*CATALOG, Rule("WARN-1", "should", "conventions", ("postComment",), "1.6.3", "location", "1.")]
    lines = format_summary(build_report(results, catalog)).splitlines()
    shown = [line for line in lines if line.startswith("  WARN-1")]
    assert shown == ["  WARN-1  GET on the Location of the new comment must give 200 and the item 99"], lines


def test_a_failure_of_a_test_naming_several_rules_says_what_broke_of_each_rule() -> None:
    """user26: the message of a test naming two rules starts with both and its row id; the summary's line showed
    "[COMMENT-2, COMMENT-PRIVACY-LIST] listAnswerComments-admin-sort=votes&wrap=true-extension_only (answer of the"
    and nothing of what broke."""
    message = ("[FAIL-1, FAIL-2] listAnswerComments-admin-sort=votes&wrap=true-extension_only (answer of the privacy "
               "thread):\n  FAIL-1: admin is shown comment 85 by member, private to ['member', 'moderator']\n"
               "  FAIL-2: admin is shown comment 89 by member\nGET http://h/services/v2/answer/80/comment.json -> 200")
    results = make_results(fail=False)
    results["tests"].append(entry("suites/contract/test_x.py::test_rows[a]", "failed", ["FAIL-1", "FAIL-2"],
                                  message=message))
    catalog = [*CATALOG, *(Rule(rid, "must", "comments", ("listAnswerComments",), "1.6.3", "privacy", "1.")
                           for rid in ("FAIL-1", "FAIL-2"))]
    lines = format_summary(build_report(results, catalog)).splitlines()
    assert "  FAIL-1  admin is shown comment 85 by member, private to ['member', 'moderator']" in lines, lines
    assert "  FAIL-2  admin is shown comment 89 by member" in lines, lines


def test_the_har_folder_is_named_where_it_is(tmp_path: Path) -> None:
    page = tmp_path / "run" / "report.html"
    text = format_summary({"har": {"suites/x.py::test_a": "001-a.har"}}, page)
    assert f"HAR cassettes: 1 failed or warned test(s) in {tmp_path / 'run' / 'har'}/" in text.splitlines(), text
