"""The `qaconform` command speaks to users: help with examples and exit codes, "did you mean" for a mistyped
command, option or choice, pytest arguments after `--`, and CI's fixed paths (--report-dir, --junitxml, latest)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from qaconform import exitcodes
from qaconform.commands import cli, run_paths

TRACEBACK = "Traceback (most recent call last)"


def qc(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI in this process (argparse's own exits included) and return (code, stdout, stderr)."""
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_top_level_help_names_every_command_with_examples_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = qc(capsys, "--help")
    assert code == 0
    for name, command in cli.COMMANDS.items():
        assert f"  {name}  " in out and command.summary in out
    assert "examples:" in out and "qaconform run --profile my-site.toml" in out
    for value, meaning in cli.EXIT_CODES:
        assert f"  {value:<3}  {meaning}" in out


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_each_command_help_has_examples_and_exit_codes(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, _ = qc(capsys, name, "--help")
    assert code == 0
    assert f"usage: qaconform {name}" in out
    assert "examples:" in out and "exit codes:" in out
    assert all(example in out for example, _ in cli.COMMANDS[name].examples)


@pytest.mark.parametrize(("argv", "hint"), [
    (["rn"], "(did you mean run?)"),
    (["selftets"], "(did you mean selftest?)"),
    (["run", "--porfile", "p.toml"], "(did you mean --profile?)"),
    (["run", "--junit-xml", "j.xml"], "(did you mean --junitxml?)"),
    (["load", "--scenario", "mixd"], "(did you mean mixed?)"),
    (["load", "--shape", "spkie"], "(did you mean spike?)"),
    (["run", "comments"], "to choose areas or rules: --only"),
])
def test_a_mistyped_word_gets_the_closest_name_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                          hint: str) -> None:
    code, out, err = qc(capsys, *argv)
    assert code == exitcodes.USAGE
    assert hint in err and TRACEBACK not in err + out
    assert len(err.strip().splitlines()) == 1 and "usage:" not in err, err  # one line, no usage block (user14)


@pytest.mark.parametrize("argv", [["--bogus"], ["run", "--jobs", "x"], ["load", "--rate"], ["doctor"]])
def test_a_bad_command_line_is_one_line_naming_the_help_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                                    argv: list[str]) -> None:
    """argparse printed its usage block (the whole help for an unknown top-level option) above the one line that
    says what is wrong; the user reads one line, and is told where the options are listed."""
    code, out, err = qc(capsys, *argv)
    assert code == exitcodes.USAGE, (code, out, err)
    assert out == "" and len(err.strip().splitlines()) == 1 and "usage:" not in err, (out, err)
    assert "--help" in err and TRACEBACK not in err


@pytest.mark.parametrize("argv", [
    ["load", "--rate", "nan"], ["load", "--duration", "inf"], ["capacity", "--max-time", "nan"],
    ["capacity", "--step-duration", "inf"], ["run", "--timeout", "nan"], ["selftest", "--timeout", "inf"],
    ["init", "x.toml", "--base-url", "http://127.0.0.1:9", "--admin", "a", "--moderator", "m", "--member", "b",
     "--novice", "n", "--timeout", "nan"],
])
def test_a_number_option_of_nan_or_inf_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                               argv: list[str]) -> None:
    """user13: float() takes nan and inf, and ``value <= 0`` lets nan through: --rate nan and --duration inf ended
    in a traceback, run --timeout nan ran without an end, init --timeout nan wrote timeout_s = nan."""
    code, out, err = qc(capsys, *argv)
    assert code == exitcodes.USAGE, (code, out, err)
    assert TRACEBACK not in err + out and len(err.strip().splitlines()) == 1, err
    assert "give a finite number" in err and argv[-2] in err


def test_a_negative_think_time_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """user13: load --wait-ms -5 ran (and was read as no think time)."""
    code, _, err = qc(capsys, "load", "--wait-ms", "-5")
    assert code == exitcodes.USAGE and "--wait-ms" in err and "must be 0 or more" in err


def test_arguments_after_double_dash_are_only_for_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = qc(capsys, "load", "--", "-x")
    assert code == exitcodes.USAGE
    assert "takes no arguments after --" in err


def test_no_command_prints_the_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = qc(capsys)
    assert code == exitcodes.USAGE and "commands:" in out


# --- fixed paths for CI ---------------------------------------------------------------------------------------

def test_report_dir_must_be_new_or_empty(tmp_path: Path) -> None:
    assert run_paths.check_report_dir(str(tmp_path / "new")) == tmp_path / "new"
    (tmp_path / "empty").mkdir()
    assert run_paths.check_report_dir(str(tmp_path / "empty")) == tmp_path / "empty"
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "notes.txt").write_text("mine")
    with pytest.raises(run_paths.PathProblem, match="not empty"):
        run_paths.check_report_dir(str(tmp_path / "used"))
    (tmp_path / "file").write_text("x")
    with pytest.raises(run_paths.PathProblem, match="not a folder"):
        run_paths.check_report_dir(str(tmp_path / "file"))


def test_junitxml_replaces_only_an_earlier_junit_report(tmp_path: Path) -> None:
    earlier = tmp_path / "junit.xml"
    earlier.write_text('<?xml version="1.0"?>\n<testsuites><testsuite name="x"/></testsuites>\n')
    assert run_paths.check_junit_target(str(earlier)) == earlier
    mine = tmp_path / "mine.xml"
    mine.write_text("<notes>mine</notes>")
    with pytest.raises(run_paths.PathProblem, match="not a JUnit XML report"):
        run_paths.check_junit_target(str(mine))
    with pytest.raises(run_paths.PathProblem, match="is a folder"):
        run_paths.check_junit_target(str(tmp_path))
    source = tmp_path / "run" / "junit.xml"
    source.parent.mkdir()
    source.write_text('<?xml version="1.0"?>\n<testsuites/>\n')
    run_paths.copy_junit(source, tmp_path / "ci" / "junit.xml")
    assert (tmp_path / "ci" / "junit.xml").read_text() == source.read_text()


def test_latest_follows_the_newest_run_but_never_replaces_a_real_folder(tmp_path: Path) -> None:
    first, second = tmp_path / "20260101T000000Z-aaaaaa", tmp_path / "20260101T000001Z-bbbbbb"
    first.mkdir()
    second.mkdir()
    link = run_paths.point_latest(tmp_path, first)
    assert link is not None and os.readlink(link) == first.name
    run_paths.point_latest(tmp_path, second)
    assert os.readlink(tmp_path / "latest") == second.name and (tmp_path / "latest").resolve() == second.resolve()
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "latest").mkdir()
    (other / "latest" / "keep.txt").write_text("mine")
    assert run_paths.point_latest(other, second) is None
    assert (other / "latest" / "keep.txt").read_text() == "mine"


def _qaconform(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", *args], capture_output=True, text=True,
                          timeout=timeout, check=False, stdin=subprocess.DEVNULL)


def test_a_refused_fixed_path_stops_the_run_before_anything_starts(tmp_path: Path) -> None:
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "notes.txt").write_text("mine")
    proc = _qaconform("run", "--report-dir", str(tmp_path / "used"), "--out", str(tmp_path / "out"))
    assert proc.returncode == exitcodes.USAGE, proc.stderr
    assert "not empty" in proc.stderr and TRACEBACK not in proc.stderr
    assert "starting the embedded reference server" not in proc.stdout
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_ci_run_writes_fixed_paths_and_passes_pytest_arguments_through(tmp_path: Path) -> None:
    """One small real run: --report-dir and --junitxml hold the reports, and `-- -k ...` narrowed the tests."""
    report_dir, junit = tmp_path / "ci" / "qaconform", tmp_path / "ci" / "junit.xml"
    proc = _qaconform("run", "--only", "paging", "--report-dir", str(report_dir), "--junitxml", str(junit),
                      "--out", str(tmp_path / "out"), "--", "-k", "page_count")
    assert proc.returncode == exitcodes.OK, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert TRACEBACK not in proc.stderr
    assert {"report.json", "report.html", "junit.xml", "results.json"} <= {p.name for p in report_dir.iterdir()}
    assert junit.read_text() == (report_dir / "junit.xml").read_text()
    assert f"JUnit XML: {junit}" in proc.stdout
    report = json.loads((report_dir / "report.json").read_text())
    assert report["run_id"] and report["run_id"] != report_dir.name
    results = json.loads((report_dir / "results.json").read_text())
    names = [t["nodeid"] for t in results["tests"]]
    assert names and all("page_count" in n for n in names), names
    assert not (tmp_path / "out").exists(), "--report-dir must not create a run folder under --out"


@pytest.mark.slow
def test_pytest_refusing_the_passed_arguments_is_a_usage_error(tmp_path: Path) -> None:
    proc = _qaconform("run", "--only", "paging", "--out", str(tmp_path), "--", "--no-such-pytest-option")
    assert proc.returncode == exitcodes.USAGE, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "pytest refused the arguments after --" in proc.stderr
    assert TRACEBACK not in proc.stderr


def test_a_mistyped_load_scenario_of_run_gets_the_closest_name() -> None:
    from qaconform.commands.run import validate_load_choice
    from qaconform.errors import UsageError

    with pytest.raises(UsageError, match=r"--load smok: not a load scenario \(did you mean smoke\?\)"):
        validate_load_choice("smok")
    with pytest.raises(UsageError, match=r"\(did you mean browse\?\)"):
        validate_load_choice("brwse")
    validate_load_choice("browse")


# --- no abbreviations ------------------------------------------------------------------------------------------

def test_an_abbreviated_option_is_refused_with_the_option_it_may_mean(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse took ``--profil`` for ``--profile``: a typo ran with a meaning the user did not write."""
    code, out, err = qc(capsys, "run", "--profil", "p.toml")
    assert code == exitcodes.USAGE, err
    assert "unrecognized arguments: --profil" in err and "(did you mean --profile?)" in err, err
    assert TRACEBACK not in err + out


def test_a_misspelt_required_option_is_named_beside_the_missing_one(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse says a required option is missing before it says the misspelt one is unknown: the hint is there too."""
    code, out, err = qc(capsys, "doctor", "--profil", "p.toml")
    assert code == exitcodes.USAGE, err
    assert "required: --profile (did you mean --profile?)" in err, err
    assert TRACEBACK not in err + out


def test_no_parser_of_the_command_line_takes_abbreviations() -> None:
    from qaconform.reference import cli as reference_cli

    parser, _, subparsers = cli.build_parser()
    takes = [name for name, p in {"qaconform": parser, **subparsers, "python -m qaconform.reference":
                                  reference_cli.build_parser()}.items() if p.allow_abbrev]
    assert takes == [], f"parsers that take an option's prefix for the option: {takes}"
    with pytest.raises(SystemExit) as stopped:
        reference_cli.build_parser().parse_args(["--por", "1"])
    assert stopped.value.code == exitcodes.USAGE
