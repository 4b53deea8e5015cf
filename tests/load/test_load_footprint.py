"""Load leaves staging as it found it (issue 45): with the profile's ``[cleanup]``, ``qaconform load`` and ``qaconform
capacity`` remove what they created at their end, and ``qaconform cleanup`` takes their folders.

One default capacity run and two short loads had left 456 answers and 222 comments under a staging server's fixture
question. Here each command runs as a subprocess against the embedded reference server (whose profile names its
delete action), and every account's answer list is counted before and after, as the admin reads it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from qaconform.contract import path as op_path
from qaconform.reference import ReferenceServer
from qaconform.target.discover import clients_for
from qaconform.target.profile import Profile, load_profile

pytestmark = pytest.mark.slow  # Locust in subprocesses
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server() -> Iterator[ReferenceServer]:
    with ReferenceServer() as srv:
        yield srv


def counts(profile: Profile) -> dict[str, int]:
    """totalCount of every account's answer list and of the comments under the fixture question's answers."""
    admin = clients_for(profile)["admin"]
    out = {}
    for role, account in profile.accounts.items():
        page = admin.get(op_path("listUserAnswers", userId=account.id).removeprefix("/services/v2/")).json()
        out[f"answers of {role}"] = int(page["totalCount"])
        for item in page["list"]:
            comments = admin.get(op_path("listAnswerComments", answerId=item["id"]).removeprefix("/services/v2/"))
            if comments.status == 200:
                out[f"comments of answer {item['id']}"] = int(comments.json()["totalCount"])
    return out


def qaconform(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, check=False)


def test_a_mixed_load_removes_what_it_created_at_its_end(server: ReferenceServer, tmp_path: Path) -> None:
    profile = load_profile(server.profile_path)
    before = counts(profile)
    proc = qaconform("load", "--profile", str(server.profile_path), "--scenario", "mixed", "--duration", "10",
                     "--out", str(tmp_path))
    # its latency verdict is the machine's (a busy one breaches p95): only the footprint is judged here
    assert proc.returncode in (0, 1) and (tmp_path / "summary.json").is_file(), proc.stdout[-3000:] + proc.stderr
    record = json.loads((tmp_path / "cleanup.json").read_text(encoding="utf-8"))
    assert record["created"] > 0 and record["left_behind"] == 0, record
    assert "cleanup: removed" in proc.stdout, proc.stdout[-2000:]
    assert counts(profile) == before


def test_a_capacity_run_removes_every_steps_nodes_and_cleanup_takes_a_load_folder(
        server: ReferenceServer, tmp_path: Path) -> None:
    profile = load_profile(server.profile_path)
    before = counts(profile)
    proc = qaconform("capacity", "--profile", str(server.profile_path), "--scenario", "mixed", "--max-time", "40",
                     "--out", str(tmp_path / "cap"))
    assert (tmp_path / "cap" / "capacity.json").is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    record = json.loads((tmp_path / "cap" / "cleanup.json").read_text(encoding="utf-8"))
    assert record["created"] > 0 and record["left_behind"] == 0, record
    assert counts(profile) == before

    kept = qaconform("load", "--profile", str(server.profile_path), "--scenario", "write", "--duration", "5",
                     "--out", str(tmp_path / "kept"), "--no-cleanup")
    assert kept.returncode in (0, 1) and (tmp_path / "kept" / "summary.json").is_file(), kept.stdout + kept.stderr
    assert counts(profile) != before, "--no-cleanup keeps what the load wrote"
    later = qaconform("cleanup", str(tmp_path / "kept"))  # the profile from the folder's target.json
    assert later.returncode == 0, later.stdout + later.stderr
    assert counts(profile) == before
    again = qaconform("cleanup", str(tmp_path / "kept"))
    assert again.returncode == 0 and "already gone" in again.stdout, again.stdout + again.stderr
