"""`qaconform run` imports what its end needs in a thread, after the start of the suites (run_warm_up.py)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from qaconform.commands import run_warm_up


def test_the_end_of_a_runs_modules_are_imported_after_the_start_not_during_it(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "qc_warm_up_probe.py").write_text("LOADED = True\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "qc_warm_up_probe", raising=False)

    run_warm_up.start(("qc_warm_up_probe",), after_s=0.5)
    time.sleep(0.2)
    assert "qc_warm_up_probe" not in sys.modules, "imported during the start"
    deadline = time.monotonic() + 10
    while "qc_warm_up_probe" not in sys.modules and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "qc_warm_up_probe" in sys.modules, "never imported"
    sys.modules.pop("qc_warm_up_probe", None)


def test_a_module_that_fails_to_import_stops_the_warm_up_quietly(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "qc_warm_up_broken.py").write_text("raise RuntimeError('broken')\n", encoding="utf-8")
    (tmp_path / "qc_warm_up_after.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    run_warm_up.start(("qc_warm_up_broken", "qc_warm_up_after"), after_s=0.0)
    time.sleep(1.0)
    assert "qc_warm_up_broken" not in sys.modules  # where the runner imports it, it fails as it would have
    assert "qc_warm_up_after" not in sys.modules
