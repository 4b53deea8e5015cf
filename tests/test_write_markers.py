"""Every suite test that writes carries the ``writes`` (or ``destructive``) marker.

Why: ``--read-only`` refuses writes at the client whatever the markers say, so safety does not depend on them; but
``qaconform run --dry-run`` lists what a run would write from the markers, so an unmarked writer is missing from
that list. Oracle: the suites run under ``--read-only`` against the reference server, where the plugin names every
test whose write was refused although it carries neither marker.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every suite run --read-only against a reference server

ROOT = Path(__file__).resolve().parents[1]


def test_every_suite_test_that_writes_is_marked_writes() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "suites", "--read-only", "-q", "-rs", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    summary = out[out.find("without the writes marker") - 200 :] if "without the writes marker" in out else ""
    assert not summary, f"mark these tests @pytest.mark.writes (their writes were refused):\n{summary[:4000]}"
    # the oracle is live: writing tests were met, both by their marker and by the client refusing a write
    assert "not allowed by safety: --read-only" in out, out[-2000:]
