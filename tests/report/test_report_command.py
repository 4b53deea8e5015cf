"""`qaconform report RESULTS.json` rebuilds the three files from a results file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_builders import invoke, make_results

from qaconform import exitcodes
from qaconform.report import cli as command


def test_report_rebuilds_the_three_files_and_exits_with_the_verdict(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "run" / "results.json"
    src.parent.mkdir()
    src.write_text(json.dumps(make_results()))
    out = tmp_path / "out"
    assert invoke(command, [str(src), "--out", str(out)]) == exitcodes.RULE_FAILED
    assert sorted(p.name for p in out.iterdir()) == ["junit.xml", "report.html", "report.json"]
    report = json.loads((out / "report.json").read_text())
    assert report["run_id"] == "run"
    assert len(report["rules"]) > 100  # every rule of spec/rules.yaml, not only those the results name
    printed = capsys.readouterr().out
    assert "not covered" in printed and f"report: {out / 'report.html'}" in printed


def test_report_applies_an_expect_file_after_the_fact(tmp_path: Path) -> None:
    src = tmp_path / "results.json"
    res = make_results()
    res["tests"] = [t for t in res["tests"] if t["outcome"] != "error"]
    src.write_text(json.dumps(res))
    exp = tmp_path / "expect.yaml"
    exp.write_text("FAIL-1: {reason: vendor bug, link: 'https://t/1'}\n")
    assert invoke(command, [str(src), "--expect", str(exp)]) == exitcodes.OK
    assert (tmp_path / "report.html").is_file()


@pytest.mark.parametrize("content", [None, "[]", "{\"tests\": 3}"])
def test_report_on_unreadable_input_exits_2(tmp_path: Path, content: str | None,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "results.json"
    if content is not None:
        src.write_text(content)
    assert invoke(command, [str(src)]) == exitcodes.USAGE
    assert capsys.readouterr().err.startswith("qaconform report: ")


def test_a_run_folder_is_new_every_time_and_sorts_by_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from qaconform.report import writer

    first = writer.new_run_dir(tmp_path)
    (first / "report.json").write_text("{}")
    monkeypatch.setattr(writer, "new_run_id", lambda: first.name)  # the same id again: never reused
    with pytest.raises(RuntimeError, match="could not create a new run folder"):
        writer.new_run_dir(tmp_path)
    monkeypatch.undo()
    second = writer.new_run_dir(tmp_path)
    assert second != first and (first / "report.json").read_text() == "{}"
    assert first.name[:16] <= second.name[:16] and first.name[8] == "T" and first.name[15] == "Z"


@pytest.mark.parametrize("results_beside", [True, False])
def test_a_report_json_is_refused_with_the_file_to_pass_and_left_as_it_was(
        tmp_path: Path, results_beside: bool, capsys: pytest.CaptureFixture[str]) -> None:
    """qa20: `qaconform report RUN/report.json` rebuilt the report from the report itself (it holds a 'tests' list
    too): the 54 observed rules of a CI build became 'passed', report.html lost its observations, and the run's
    report.json was overwritten with that."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.json").write_text(json.dumps(make_results()))
    assert invoke(command, [str(run)]) == exitcodes.RULE_FAILED  # a run folder: report.json beside results.json
    if not results_beside:
        (run / "results.json").unlink()
    report = run / "report.json"
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    capsys.readouterr()
    assert invoke(command, [str(report)]) == exitcodes.USAGE
    err = capsys.readouterr().err
    assert err.startswith(f"qaconform report: {report}: a report.json"), err
    if results_beside:
        assert f"pass the run folder {run} (it holds results.json)" in err
    else:
        assert "pass the run's results.json" in err
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before, "nothing was rewritten"


def test_a_report_rebuilt_elsewhere_has_the_coverage_file_its_summary_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """qa20: `qaconform report RUN --out DIR` printed 'interface coverage: ... (DIR/coverage.json)' and the 'checked
    N of M' line named DIR/coverage.json too, which was not there: it stayed in RUN."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.json").write_text(json.dumps(make_results()))
    coverage: dict[str, dict[str, str]] = {"rules": {}}  # what read_coverage takes for a run's coverage file
    (run / "coverage.json").write_text(json.dumps(coverage))
    out = tmp_path / "elsewhere"
    invoke(command, [str(run), "--out", str(out)])
    assert json.loads((out / "coverage.json").read_text()) == coverage
    printed = capsys.readouterr().out
    named = [w.strip("(),:") for w in printed.split() if w.strip("(),:").endswith("coverage.json")]
    assert all(Path(n).is_file() for n in named), printed
