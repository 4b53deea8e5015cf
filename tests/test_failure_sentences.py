"""A failed rule reads as a sentence on the QA lead's page, not as pytest's rewrite of an assert (user14: COMMENT-1's
plain-comment test failed with "assert (not True or False)" and the operands under its sentence)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

TEST = "test_comment_without_privacy_fields_has_full_visibility_and_no_recipients"


def test_comment_1s_failure_is_its_sentence_and_names_its_rule(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--reference-fault",
                    "comment-full-has-recipient", "--only", "COMMENT-1", "--seed", "1", "--report-dir",
                    str(tmp_path / "r"), "--", "-k", TEST], capture_output=True, text=True, timeout=600,
                   stdin=subprocess.DEVNULL)
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    failed = [t for t in results["tests"] if TEST in t["nodeid"] and t["outcome"] == "failed"]
    assert failed, "the planted fault fails the plain-comment test"
    for t in failed:
        assert "[COMMENT-1] a comment posted without recipients" in t["message"], t["message"][:300]
        rewrite = [line for line in t["message"].splitlines() if line.lstrip().startswith(("assert ", "+  where"))]
        assert not rewrite, rewrite[:3]
