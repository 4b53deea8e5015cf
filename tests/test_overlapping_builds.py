"""CI builds that overlap against one long-lived server (issue 29): two `qaconform run --profile P` started together,
then two in a row, each from a fresh folder holding only a copy of the profile (no record of what the others did),
all against ONE reference server kept up across them. Every run must exit 0: a build never fails for what another
build did to the server, nor for a data-protection time frame another build holds.

`--only gdpr actions permissions` keeps it short (the data-protection jobs and the state-changing actions are what
builds share); each run schedules at most three successful data-protection jobs (report.json `created`). The copied
profile is the one docs/ci.md recommends for CI ("A profile for CI: no one-shot fixtures"): the reference server's
own, less its one-shot nodes (a favorite is removed once, a wiki node unwikified once: each serves one build, and
the state of a consumed one is the doctor's to find, tested with the doctor).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from qaconform.reference import ReferenceServer

ROOT = Path(__file__).resolve().parents[1]
ONLY = ["--only", "gdpr", "actions", "permissions"]
RUN_TIMEOUT_S = 600
MAX_JOBS = 3
ONE_SHOT = ("favorite_node_id", "wiki_node_id", "member_wiki_node_id", "wiki_answer_id", "accepted_wiki_question_id")

pytestmark = pytest.mark.slow


def build(folder: Path, profile: str) -> subprocess.Popen[str]:
    """One CI build: a fresh folder with only a copy of the profile, `qaconform run` in it."""
    folder.mkdir()
    text = Path(profile).read_text(encoding="utf-8")
    ci_profile = re.sub(rf"(?m)^({'|'.join(ONE_SHOT)}) = .*\n", "", text)
    assert ci_profile != text, f"the reference server's profile names none of {ONE_SHOT}: update ONE_SHOT"
    (folder / "site.toml").write_text(ci_profile, encoding="utf-8")
    return subprocess.Popen([sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", "site.toml",
                             *ONLY, "--report-dir", "r"], cwd=folder, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL)


def finish(name: str, proc: subprocess.Popen[str], folder: Path) -> dict[str, Any]:
    """Wait for the build, require exit 0 (its terminal's last lines say why not), return its report.json."""
    try:
        output, _ = proc.communicate(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        output, _ = proc.communicate()
    tail = "\n".join(output.splitlines()[-30:])
    assert proc.returncode == 0, f"build {name} exited {proc.returncode}; its output ends with:\n{tail}"
    report: dict[str, Any] = json.loads((folder / "r" / "report.json").read_text())
    jobs = [c for c in report["created"] if c["kind"] == "gdpr-job"]
    assert 0 < len(jobs) <= MAX_JOBS, f"build {name} scheduled {len(jobs)} data-protection jobs (at most {MAX_JOBS})"
    return report


def test_builds_at_once_and_in_a_row_against_one_server_all_exit_0(tmp_path: Path) -> None:
    with ReferenceServer(start_timeout=120) as server:  # a busy CI host starts it slowly
        together = {name: build(tmp_path / name, server.profile_path) for name in ("push", "pull-request")}
        reports = {name: finish(name, proc, tmp_path / name) for name, proc in together.items()}
        for name in ("next", "after-next"):
            reports[name] = finish(name, build(tmp_path / name, server.profile_path), tmp_path / name)
    tags = {r["run_tag"] for r in reports.values()}
    assert len(tags) == len(reports), f"each build has its own run tag: {tags}"
