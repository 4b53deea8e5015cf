"""A content list's private-comment leak to an account the profile leaves undecided (priv23, issue 44).

A profile written by `qaconform init` leaves `[visibility] readers` unset: the kit does not know whether admins read
every private comment on the site. qa20's release run missed `question-comment-private-leak` that way, even on the
clean server: only admin may read another user's content list, and admin's view was never judged. The privacy model
now asks the answer's comment list what the undecided account is shown there (suites/properties/undecided_readers.py):
a private comment hidden there but shown in the content list is a leak. These runs prove it can fail, and that it
judges nothing where the site does let admins read private comments.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from qaconform.reference import ReferenceServer

pytestmark = pytest.mark.slow  # two qaconform runs in subprocesses: not in the fast lane (README)

RULE = "COMMENT-PRIVACY-CONTENT"


def _run_without_readers(tmp_path: Path, faults: tuple[str, ...], variants: tuple[str, ...]) -> tuple[int, dict]:
    with ReferenceServer(faults=faults, variants=variants) as srv:
        text = Path(srv.profile_path).read_text(encoding="utf-8")
        text, n = re.subn(r"^readers\s*=.*\n", "", text, flags=re.MULTILINE)
        assert n == 1, "the reference profile declares [visibility] readers once"
        profile = tmp_path / "site.toml"
        profile.write_text(text, encoding="utf-8")
        out = tmp_path / "run"
        proc = subprocess.run(
            [sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", str(profile), "--only", RULE,
             "--seed", "20260801", "--report-dir", str(out), "--no-cleanup", "--jobs", "1"],
            cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False)
    assert (out / "report.json").is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.returncode, json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_a_content_list_leak_to_an_undecided_admin_fails_its_rule(tmp_path: Path) -> None:
    code, report = _run_without_readers(tmp_path, ("question-comment-private-leak",), ())
    assert code == 1, report["summary"]
    assert report["summary"]["failed_rules"] == [RULE], report["summary"]


def test_a_site_whose_admins_read_private_comments_is_not_blamed(tmp_path: Path) -> None:
    code, report = _run_without_readers(tmp_path, (), ("private-readable-by-admins",))
    assert code == 0, report["summary"]
    rule = next(r for r in report["rules"] if r["id"] == RULE)
    assert rule["status"] == "passed", rule
