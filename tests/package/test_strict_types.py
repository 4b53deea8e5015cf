"""``mypy --strict`` holds on the report, the status table, the vocabulary and the target's resolver (issue 47, item 3).

The report is built from the results file and read back from report.json by ``qaconform report`` and ``diff``: a
renamed key or a value of the wrong kind there is found by a user, not by the kit, unless the type checker sees
every read. Strict mode refuses what hides one: ``Any`` returned as a typed value, a generic without its parameters,
a call into an untyped function. CI runs ``mypy qaconform`` with the project's settings; this test adds the strict
ones for these modules, the way the issue states it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRICT = ["qaconform/report", "qaconform/status.py", "qaconform/vocabulary.py", "qaconform/target/resolved.py",
          "qaconform/target/diagnosis.py"]
"""The modules held to ``--strict``: what reads the results file and report.json, the words they are in, and the one
resolver of the target with the doctor's findings it carries to every process."""


def test_report_status_and_vocabulary_pass_mypy_strict(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is a dev dependency: pip install -r requirements.lock")
    out, err, code = api.run(["--strict", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir",
                              str(tmp_path / "mypy-cache"), "--no-error-summary",
                              *(str(ROOT / p) for p in STRICT)])
    assert code == 0, f"mypy --strict {' '.join(STRICT)} found:\n{out}{err}"


def test_the_suites_pass_mypy_with_the_project_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``mypy suites`` (the project's settings: every def typed): nine errors had gathered there unseen, since no
    run of CI's checked suites/ (a JSON value's ``.get`` on a possible None after an ``expect`` that does not narrow,
    lambdas with default-bound loop variables). Run from the root, as ``mypy suites`` is, so the suites' imports of
    their sibling modules resolve the same way."""
    api = pytest.importorskip("mypy.api", reason="mypy is a dev dependency: pip install -r requirements.lock")
    monkeypatch.chdir(ROOT)
    out, err, code = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir",
                              str(tmp_path / "mypy-cache"), "--no-error-summary", "suites"])
    assert code == 0, f"mypy suites found:\n{out}{err}"
