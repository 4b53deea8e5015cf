"""One base error carries its exit code (qaconform.errors): where a problem is found it is raised, and `qaconform`'s
dispatcher alone says it (``qaconform COMMAND: message``, the hint on its own line) and exits with that code, never
with a traceback."""

from __future__ import annotations

import ast
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from qaconform import errors, exitcodes
from qaconform.commands import cli, doctor, run_coverage, run_paths
from qaconform.errors import KitError, ProfileError, Unreachable, UsageError
from qaconform.load.runner import LoadRunError
from qaconform.load.thresholds import ThresholdError
from qaconform.report.capacity_diff import CompareError
from qaconform.report.expect import ExpectError
from qaconform.report.files import RunFileError
from qaconform.target import profile as profile_module
from qaconform.target.client import TargetUnreachable
from qaconform.target.resolved import OneTargetError, ResolvedTargetError

ROOT = Path(__file__).resolve().parents[1]

DOCUMENTED: dict[type[KitError], int] = {
    KitError: exitcodes.KIT_ERROR,
    LoadRunError: exitcodes.KIT_ERROR,
    UsageError: exitcodes.USAGE,
    ProfileError: exitcodes.USAGE,
    ThresholdError: exitcodes.USAGE,
    CompareError: exitcodes.USAGE,
    ExpectError: exitcodes.USAGE,
    RunFileError: exitcodes.USAGE,
    run_paths.PathProblem: exitcodes.USAGE,
    run_coverage.FailUnderProblem: exitcodes.USAGE,
    ResolvedTargetError: exitcodes.USAGE,
    OneTargetError: exitcodes.USAGE,
    Unreachable: exitcodes.UNREACHABLE,
    TargetUnreachable: exitcodes.UNREACHABLE,
}
"""Every error of the package that a command stops with, and the code README.md's table gives for what it means."""


def _readme_codes() -> dict[int, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8").split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return {int(code): meaning for code, meaning in re.findall(r"^\| (\d+) \| (.+?) \|$", text, re.MULTILINE)}


def _error_classes_in_source() -> set[str]:
    """The names of the classes of qaconform/ that derive from KitError, read from the source (whether or not a test
    imported their module): a new one must be added to DOCUMENTED with its code."""
    bases: dict[str, set[str]] = {}
    for path in (ROOT / "qaconform").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = {b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                         if isinstance(b, ast.Name | ast.Attribute)}
                bases.setdefault(node.name, set()).update(names)
    found = {"KitError"}
    for _ in range(len(bases)):  # bounded: each round adds at least one class or stops
        more = {name for name, of in bases.items() if of & found} - found
        if not more:
            break
        found |= more
    return found


def test_every_error_exits_with_the_code_the_readme_documents_for_it() -> None:
    assert _error_classes_in_source() == {cls.__name__ for cls in DOCUMENTED}
    readme = _readme_codes()
    assert readme[exitcodes.USAGE].startswith("usage or profile error")
    assert "unreachable" in readme[exitcodes.UNREACHABLE] and "kit itself broke" in readme[exitcodes.KIT_ERROR]
    for cls, code in DOCUMENTED.items():
        assert cls.exit_code == code, cls
        assert code in readme and code in dict(exitcodes.MEANINGS), cls


def test_the_profile_error_is_one_class_under_both_names_and_the_clients_no_answer_is_an_unreachable() -> None:
    assert profile_module.ProfileError is errors.ProfileError
    assert issubclass(TargetUnreachable, Unreachable) and not issubclass(TargetUnreachable, UsageError)
    assert issubclass(RunFileError, ValueError) and issubclass(CompareError, ValueError)  # their callers catch that


def test_an_error_keeps_its_message_and_hint_through_pickle() -> None:
    copy = pickle.loads(pickle.dumps(UsageError("bad --x", hint="give --x 3")))
    assert (type(copy), str(copy), copy.hint, copy.exit_code) == (UsageError, "bad --x", "give --x 3", exitcodes.USAGE)


def test_the_dispatcher_says_a_raised_error_once_with_its_hint_and_exits_with_its_code(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def stops(args: object) -> int:
        raise KitError("the thing broke", hint="what to do next")

    monkeypatch.setattr(doctor, "main", stops)
    assert cli.main(["doctor", "--profile", "p.toml"]) == exitcodes.KIT_ERROR
    out, err = capsys.readouterr()
    assert (out, err) == ("", "qaconform doctor: the thing broke\nwhat to do next\n")


def test_a_no_answer_no_command_caught_is_exit_3_with_the_clients_message(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def no_answer(args: object) -> int:
        raise TargetUnreachable("GET http://127.0.0.1:9/services/v2/question.json: no answer (refused)")

    monkeypatch.setattr(doctor, "main", no_answer)
    assert cli.main(["doctor", "--profile", "p.toml"]) == exitcodes.UNREACHABLE
    assert capsys.readouterr().err == "qaconform doctor: GET http://127.0.0.1:9/services/v2/question.json: no answer " \
                                      "(refused)\n"


def test_diff_of_a_missing_report_is_exit_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here"
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "diff", str(missing), str(missing)],
                          capture_output=True, text=True, timeout=120, check=False, stdin=subprocess.DEVNULL)
    assert proc.returncode == exitcodes.USAGE, proc.stderr
    assert proc.stderr == f"qaconform diff: {missing}: not found; pass a report.json or a run folder under reports/\n"
    assert proc.stdout == ""


def test_a_usage_error_of_run_is_not_reported_as_the_kit_breaking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("QACONFORM_JOBS", raising=False)
    assert cli.main(["run", "--jobs", "0"]) == exitcodes.USAGE
    assert capsys.readouterr().err == "qaconform run: --jobs must be 1 or more worker processes\n"
    assert list(tmp_path.iterdir()) == [], "refused before any folder (or kit-error.txt) is made"


def test_profile_schema_refuses_to_replace_a_foreign_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "notes.json"
    mine.write_text('{"mine": true}', encoding="utf-8")
    assert cli.main(["profile-schema", "--out", str(mine)]) == exitcodes.USAGE
    assert capsys.readouterr().err == (f"qaconform profile-schema: {mine} exists and is not a qaconform profile "
                                       "schema; not replacing it (choose another --out or remove the file)\n")
    assert mine.read_text(encoding="utf-8") == '{"mine": true}'


@pytest.mark.parametrize(("argv", "said"), [
    (["capacity", "--precision", "0"], "qaconform capacity: --precision is a percentage between 0 and 100 (default 5)"),
    (["load", "--shape-option", "steps=many"], "qaconform load: --shape-option 'steps=many': 'many' is not a number"),
    (["load", "--workers", "-1"], "qaconform load: --workers and --remote-workers must be 0 or more"),
    (["selftest", "--jobs", "0"], "qaconform selftest: --jobs and --seeds must be 1 or more and --timeout positive"),
    (["selftest", "--keep-fixture", "nope"], "qaconform selftest: --keep-fixture 'nope' is not an optional fixture; "),
    (["selftest", "--fault", "no-such-fault"], "qaconform selftest: unknown fault 'no-such-fault'; `qaconform serve "
                                               "--list-faults` lists the "),
])
def test_a_refused_option_is_one_line_and_exit_2_before_anything_starts(
        argv: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == exitcodes.USAGE
    out, err = capsys.readouterr()
    assert err.startswith(said) and err.count("\n") == 1 and out == "", err
    assert list(tmp_path.iterdir()) == [], "nothing started, nothing written"
