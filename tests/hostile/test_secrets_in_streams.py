"""`qaconform run` on the embedded reference server with faults that make generated tests fail: no password of
its profile, nor the encoded Authorization value, reaches stdout, stderr or any file the run wrote (its reports,
its temporary files, hypothesis's database, the bytecode cache), and the files CI reads parse with strict
parsers.

A failing test is where secrets used to leak: pytest prints the arguments of every frame of a traceback
(``kwargs = {'auth': ('member', '<the password>'), ...}``; here with ``--showlocals -vv``: every local, reprs not
shortened), hypothesis its falsifying example, schemathesis its reproduction. The faults make the generated tests
fail (``--only properties``): the per-operation test on the question list (SHAPE-LIST-QUESTIONS, on every seed) and,
on this seed, the one that reads an answer's comments (COMMENT-PRIVACY-LIST). The run starts with the other hostile
commands (``plan``): about 30 s of CPU.
"""

from __future__ import annotations

import os
import re

import pytest
from hostile_kit import Background, Job, KitRun, Secrets
from report_builders import strict_json, strict_junit

from qaconform import exitcodes
from qaconform.reference.profile_out import PASSWORD_ENV
from qaconform.reference.seed import ACCOUNTS, GDPR_USER

pytestmark = pytest.mark.slow  # whole runs with planted failures, started together at session start

FAULTS = ("question-list-score-string", "comment-private-leaks-in-answer-list")
SEED = "1709337395"
"""A seed on which both faults turn a generated test red (the question list's on any seed)."""
HARD_TIMEOUT_S = 240.0
REFERENCE = Secrets({a.role: a.password for a in (*ACCOUNTS, GDPR_USER)},
                    {a.role: a.username for a in (*ACCOUNTS, GDPR_USER)})
"""The reference server's accounts (its profile's passwords) and the data-protection target's."""


def plan(bg: Background) -> dict[str, Job]:
    work = bg.work("secrets/faulty-reference")
    places = {"TMPDIR": work / "tmp", "XDG_CACHE_HOME": work / "cache", "HYPOTHESIS_STORAGE_DIRECTORY": work / "hyp"}
    for folder in places.values():
        folder.mkdir(parents=True, exist_ok=True)
    # a time budget no busy machine exhausts: the failing requests are sent, however slowly
    env = dict(os.environ, QACONFORM_TIME_BUDGET="900", **{k: str(v) for k, v in places.items()})
    args = ["run", "--out", str(work / "out"), *(x for f in FAULTS for x in ("--reference-fault", f)),
            "--only", "properties", "--max-examples", "5", "--seed", SEED, "--", "--showlocals", "-vv"]
    return {"faulty": bg.job("secrets/faulty-reference", args, HARD_TIMEOUT_S, env=env)}


@pytest.fixture(scope="module")
def faulty(background: Background) -> KitRun:
    return background.planned(plan)["faulty"].result()


def test_generated_and_scenario_tests_failed_as_planted(faulty: KitRun) -> None:
    """Without failures there is no traceback to leak from: the run must have failed where the faults bite."""
    assert faulty.returncode == exitcodes.RULE_FAILED, faulty.describe()
    report = faulty.report()
    assert report is not None, faulty.describe()
    failed = {r["id"] for r in report["rules"] if r["status"] == "failed"}
    assert "SHAPE-LIST-QUESTIONS" in failed, faulty.describe()
    generated = [t["nodeid"] for t in report["tests"] if t["outcome"] == "failed"
                 and t["nodeid"].startswith("suites/properties/")]
    assert generated, faulty.describe()
    assert "kwargs" in faulty.output and "<BasicAuth member:<redacted>>" in faulty.output, \
        "the traceback with the frames' arguments and locals (--showlocals -vv) was not printed"


def test_no_password_in_the_terminal_streams(faulty: KitRun) -> None:
    assert REFERENCE.leaks_in(faulty.output) == [], "a credential is in stdout or stderr: " + faulty.describe()
    assert "'auth': (" not in faulty.output, "a traceback shows the auth tuple: " + faulty.describe()


def test_no_password_in_any_file_the_run_wrote(faulty: KitRun) -> None:
    work = faulty.out_dir.parent
    files = [p for p in work.rglob("*") if p.is_file() and p.name not in ("output.txt", "measure.json")]
    assert any(p.name == "junit.xml" for p in files), [str(p) for p in files]
    leaked = {str(p.relative_to(work)): found for p in files
              if (found := REFERENCE.leaks_in(p.read_bytes().decode("utf-8", errors="replace")))}
    assert leaked == {}, f"credentials in files the run wrote: {leaked}"


def test_the_files_ci_reads_parse_with_strict_parsers(faulty: KitRun) -> None:
    (folder,) = [p.parent for p in faulty.out_dir.glob("*/report.json") if not p.parent.is_symlink()]
    root = strict_junit((folder / "junit.xml").read_text(encoding="utf-8"))
    assert root.find(".//failure") is not None
    assert strict_json((folder / "report.json").read_text(encoding="utf-8"))["exit_code"] == exitcodes.RULE_FAILED


def test_every_curl_names_the_password_variable_of_its_account(faulty: KitRun) -> None:
    report = faulty.report()
    assert report is not None
    curls = [c for r in report["rules"] for f in r["evidence"]["failures"] for c in f.get("curls") or []]
    assert curls, "no failure carries a curl"
    placeholder = [c for c in curls if "$USER:$PASSWORD" in c]
    assert placeholder == [], f"curls that name no account: {placeholder}"


def test_the_terminal_curls_name_the_account_and_its_password_variable(faulty: KitRun) -> None:
    """pytest's failure blocks say the curl the report says: ``-u "$USER:$PASSWORD"`` pasted in a shell would send
    the login name of whoever pastes it; the line names the account's username and its password's variable."""
    # a whole curl line: its account comment ends it (--showlocals also prints the variables that hold one, as
    # Python reprs cut over several lines: not lines anyone pastes)
    pasted = [line for line in faulty.output.splitlines() if "curl " in line and " -u " in line and "# as " in line]
    assert any("Reproduce with: curl" in line for line in pasted), faulty.describe()
    placeholder = [line[:300] for line in pasted if "$USER:$PASSWORD" in line]
    assert placeholder == [], "terminal curls that name no account:\n" + "\n".join(placeholder)
    # the embedded server's profile names QACONFORM_<ROLE>_PASSWORD (qa16, qa17: what `serve --print-env` sets)
    named = [role for role, user in REFERENCE.usernames().items()
             if f'-u "{user}:${PASSWORD_ENV.format(role=re.sub("[^A-Za-z0-9]", "_", role).upper())}"' in faulty.output]
    assert named, "no terminal curl names an account and its password variable: " + faulty.describe()
