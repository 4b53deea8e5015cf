"""The end of a `qaconform run`: what the report reads from the run folder is read while the cleanup's deletes wait
for the target (issue 31), and the report still holds both."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from qaconform.commands import cli, run_coverage

pytestmark = pytest.mark.slow


def test_the_report_inputs_are_read_while_the_cleanup_waits_for_the_target(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The cleanup below returns only once the interface map has begun (or after 20 s): run one after the other,
    as they were, the map would begin only after the cleanup returned, and the cleanup would see it had not."""
    import qaconform.commands.cleanup as cleanup

    began = threading.Event()
    seen: dict[str, Any] = {}
    real_before, real_after = run_coverage.before_report, cleanup.after_run

    def before_report(*args: Any, **kwargs: Any) -> None:
        began.set()
        real_before(*args, **kwargs)

    def after_run(*args: Any, **kwargs: Any) -> Any:
        seen["read while cleaning"] = began.wait(20)
        return real_after(*args, **kwargs)

    monkeypatch.setattr(run_coverage, "before_report", before_report)
    monkeypatch.setattr(cleanup, "after_run", after_run)
    code = cli.main(["run", "--only", "gdpr", "--report-dir", str(tmp_path / "out"), "--jobs", "1"])

    assert code == 0
    assert seen == {"read while cleaning": True}
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["cleanup"]["items"], "the cleanup's outcome is in the report"
    assert report["coverage"]["operations"], "and so is the interface map"
