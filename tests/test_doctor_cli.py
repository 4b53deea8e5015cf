"""`qaconform doctor` and the doctor at the start of `qaconform run`, as a user meets them, through a recording proxy.

A wrong password, a base_url that already ends in /services/v2, a question_id that does not exist: each is one
message naming the problem and its fix, exit 2, no file written, and nothing sent but reads (the proxy in front of
the reference server records every request: tests/hostile/hostile_server.py, behaviour ``proxy``). The commands run
side by side as subprocesses, one proxy each, so a request is charged to the command that sent it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hostile_server import HostileServer

from qaconform import exitcodes
from qaconform.kit import pytest_command
from qaconform.reference import ReferenceServer

pytestmark = pytest.mark.slow  # qaconform run and doctor against a proxy per broken profile

EDITS = {
    "wrong-password": ({r'^password_env = "QACONFORM_MEMBER_PASSWORD"': 'password = "not-the-password"'},
                       "[accounts.member] username 'member' is refused by the target"),
    "base-url-with-api-root": ({r'^base_url = "(.*)"': r'base_url = "\1/services/v2"'},
                               "already holds /services/v2"),
    "question-does-not-exist": ({r"^question_id = \d+": "question_id = 999999"},
                                "question_id 999999: no such question"),
    # profilecheck: a guessed wire value (userplay: 6 must-rules failed on a 400 for the profile's value)
    "visibility-value-guessed": ({r'^to_own_groups = "group"': 'to_own_groups = "groups"'},
                                 "[visibility] to_own_groups = 'groups', but the site's comments never show that "
                                 "value; they show 'full', 'group'"),
}


@dataclass
class Ran:
    command: list[str]
    proc: subprocess.CompletedProcess[str]
    proxy: HostileServer
    work: Path
    profile: Path

    def written(self) -> list[Path]:
        return sorted(p for p in self.work.rglob("*") if p.is_file() and p != self.profile)

    def describe(self) -> str:
        return (f"$ {' '.join(self.command)}\nexit {self.proc.returncode}\n--- stdout\n{self.proc.stdout[-3000:]}\n"
                f"--- stderr\n{self.proc.stderr[-3000:]}")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Ran]]:
    """Every command at once: `run` and `doctor` on each broken profile, `doctor` on the good one."""
    with ReferenceServer() as ref:
        original = Path(ref.profile_path).read_text(encoding="utf-8")
        started: dict[str, tuple[list[str], subprocess.Popen[str], HostileServer, Path, Path]] = {}
        proxies = []
        for case, (edits, _) in {**EDITS, "good": ({}, "")}.items():
            commands = ("run", "doctor", "pytest") if case == "wrong-password" else ("run", "doctor")
            for command in commands if case != "good" else ("doctor",):
                proxy = HostileServer("proxy", upstream=ref.url)
                proxy.start()
                proxies.append(proxy)
                work = tmp_path_factory.mktemp(f"{case}-{command}")
                text = original.replace(f'"{ref.url}"', f'"{proxy.url}"')
                for pattern, repl in edits.items():
                    text, n = re.subn(pattern, repl, text, flags=re.MULTILINE)
                    assert n == 1, pattern
                profile = work / "site.toml"
                profile.write_text(text, encoding="utf-8")
                args = [sys.executable, "-m", "qaconform.commands.cli", command, "--profile", str(profile)]
                if command == "pytest":  # plain pytest over the suites: the plugin's doctor, before any test
                    args = [*pytest_command(), "--target-profile", str(profile), "-q", "-m", "paging"]
                if command == "run":
                    args += ["--out", str(work / "reports")]
                proc = subprocess.Popen(args, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env=dict(os.environ, QACONFORM_JOBS="1"))
                started[f"{case}/{command}"] = (args, proc, proxy, work, profile)
        try:
            done = {}
            for key, (args, proc, proxy, work, profile) in started.items():
                out, err = proc.communicate(timeout=240)
                done[key] = Ran(args, subprocess.CompletedProcess(args, proc.returncode, out, err), proxy, work,
                                profile)
            yield done
        finally:
            for proxy in proxies:
                proxy.stop()


@pytest.mark.parametrize("case", sorted(EDITS))
def test_run_stops_with_one_message_exit_2_nothing_written_only_reads(case: str, runs: dict[str, Ran]) -> None:
    ran = runs[f"{case}/run"]
    assert ran.proc.returncode == exitcodes.USAGE, ran.describe()
    lines = [line for line in ran.proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, "one message: " + ran.describe()
    assert EDITS[case][1] in lines[0] and "(fix: " in lines[0] and str(ran.profile) in lines[0], ran.describe()
    assert "Traceback" not in ran.proc.stdout + ran.proc.stderr
    assert ran.written() == [], "a profile the doctor refuses must not leave a run folder or a record"
    methods = {s.method for s in ran.proxy.seen}
    assert methods <= {"GET"}, f"sent {methods}: " + ran.describe()
    assert "not-the-password" not in ran.proc.stdout + ran.proc.stderr


@pytest.mark.parametrize("case", sorted(EDITS))
def test_doctor_names_the_one_problem_and_its_fix(case: str, runs: dict[str, Ran]) -> None:
    ran = runs[f"{case}/doctor"]
    assert ran.proc.returncode == exitcodes.USAGE, ran.describe()
    errors = [line for line in ran.proc.stdout.splitlines() if line.lstrip().startswith("ERROR")]
    assert len(errors) == 1 and EDITS[case][1] in errors[0], ran.describe()
    assert "fix: " in ran.proc.stdout and "verdict: the profile cannot be used (1 problem)" in ran.proc.stdout
    assert {s.method for s in ran.proxy.seen} <= {"GET"} and ran.written() == []
    if case == "base-url-with-api-root":
        assert ran.proxy.count == 0, "the shape of base_url is judged before any request"


def test_doctor_on_a_good_profile_is_all_ok_exit_0(runs: dict[str, Ran]) -> None:
    ran = runs["good/doctor"]
    assert ran.proc.returncode == 0, ran.describe()
    assert "verdict: the profile is usable" in ran.proc.stdout
    assert not re.search(r"^\s+(ERROR|SKIP)", ran.proc.stdout, re.MULTILINE), ran.describe()
    assert {s.method for s in ran.proxy.seen} == {"GET"} and ran.written() == []


def test_plain_pytest_stops_before_any_test_naming_the_refused_account(runs: dict[str, Ran]) -> None:
    ran = runs["wrong-password/pytest"]
    assert ran.proc.returncode == exitcodes.PYTEST_BAD_PROFILE, ran.describe()
    assert EDITS["wrong-password"][1] in ran.proc.stdout + ran.proc.stderr, ran.describe()
    assert " passed" not in ran.proc.stdout and " failed" not in ran.proc.stdout, "no test may run"
    assert {s.method for s in ran.proxy.seen} <= {"GET"}
    assert [p for p in ran.written() if ".hypothesis" not in p.parts] == [], "hypothesis' own cache aside, nothing"
