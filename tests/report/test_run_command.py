"""`qaconform run` end to end, as a user runs it (a subprocess), against the embedded reference server.

Kept fast by ``--only paging`` (a marker: the generated tests, which name every rule, stay out): a clean run, a run
against a server with one planted fault (``envelope-listcount-wrong`` breaks PAGING-LISTCOUNT and, in the paging
area, nothing else), and its report rebuilt with that failure declared expected.
"""

from __future__ import annotations

import base64
import json
import shlex
import socket
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from shared_runs import FAULT_RULE, faulted_paging_run

from qaconform import exitcodes
from qaconform.target.profile import Profile, load_profile

pytestmark = pytest.mark.slow  # qaconform run against reference servers, module by module

LEAKY_FAULT = "lock-extra-not-prompt"
"""Makes the node-action tests fail, so the report shows their authenticated exchanges."""
_TIMEOUT_S = 600


@dataclass
class Run:
    proc: subprocess.CompletedProcess[str]
    folder: Path | None

    @property
    def report(self) -> dict[str, Any]:
        assert self.folder is not None, f"no run folder was written\n{self.output}"
        return json.loads((self.folder / "report.json").read_text())

    @property
    def output(self) -> str:
        return f"--- stdout ---\n{self.proc.stdout[-6000:]}\n--- stderr ---\n{self.proc.stderr[-4000:]}"

    def rule(self, rid: str) -> dict[str, Any]:
        return next(r for r in self.report["rules"] if r["id"] == rid)


def qaconform(*args: str, timeout: float = _TIMEOUT_S) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", *args], capture_output=True, text=True,
                          timeout=timeout, check=False, stdin=subprocess.DEVNULL)


def run(out: Path, *args: str) -> Run:
    return ran(qaconform("run", "--out", str(out), *args), out)


def ran(proc: subprocess.CompletedProcess[str], out: Path) -> Run:
    """The run ``proc`` wrote under ``out``: one folder, which reports/latest follows."""
    folders = sorted(p for p in out.iterdir() if p.is_dir() and not p.is_symlink()) if out.is_dir() else []
    if folders:  # reports/latest follows the newest run
        assert (out / "latest").resolve() == folders[-1].resolve()
    assert len(folders) <= 1, f"one run wrote several folders: {folders}"
    return Run(proc, folders[0] if folders else None)


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """No profile: the runner starts its own reference server, as on a fresh install."""
    return run(tmp_path_factory.mktemp("clean"), "--only", "paging")


@pytest.fixture(scope="module")
def broken_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``--reference-fault FAULT --only paging``: the session's one such run (shared_runs.py), which the Chromium test
    of the report (test_html_in_chromium.py) reads too."""
    return ran(*faulted_paging_run(tmp_path_factory))


@pytest.fixture(scope="module")
def leaky_server() -> Iterator[Profile]:
    """A reference server whose failing responses the report will show: its passwords must not show with them."""
    from qaconform.reference import ReferenceServer

    with ReferenceServer(faults=(LEAKY_FAULT,)) as srv:
        yield load_profile(srv.profile_path)


def test_a_run_against_the_reference_server_exits_0_and_writes_the_three_files(clean_run: Run) -> None:
    assert clean_run.proc.returncode == exitcodes.OK, clean_run.output
    assert clean_run.folder is not None
    for name in ("junit.xml", "report.json", "report.html"):
        assert (clean_run.folder / name).is_file(), name
    out = clean_run.proc.stdout
    assert "rules  failed  warning  error  blocked  observed  passed  skipped  not covered" in out
    assert f"report: {clean_run.folder / 'report.html'}" in out
    assert "suites/contract/" in out  # pytest's live progress came through
    report = clean_run.report
    assert report["exit_code"] == exitcodes.OK and report["reference"] is True
    assert report["rules"] and report["summary"]["rules"]["passed"] > 0
    assert report["selection"]["areas"] == ["paging"]
    assert "password" not in json.dumps(report["target"]).lower()


def test_rules_outside_only_are_skipped_not_reported_as_uncovered(clean_run: Run) -> None:
    comment = next(r for r in clean_run.report["rules"] if r["area"] == "comments")
    assert comment["status"] == "skipped", comment
    assert "not selected by --only paging" in comment["reason"]


def test_a_planted_fault_fails_its_rule_with_a_curl_in_every_report(broken_run: Run) -> None:
    assert broken_run.proc.returncode == exitcodes.RULE_FAILED, broken_run.output
    rule = broken_run.rule(FAULT_RULE)
    assert rule["status"] == "failed"
    assert broken_run.report["summary"]["failed_rules"] == [FAULT_RULE]
    failure = rule["evidence"]["failures"][0]
    assert failure["curl"].startswith("curl ") and "/services/v2/" in failure["curl"]
    assert broken_run.folder is not None
    html = (broken_run.folder / "report.html").read_text()
    assert f'id="rule-{FAULT_RULE}" data-status="failed"' in html
    assert "curl -sS -i -X GET" in html
    root = ET.parse(broken_run.folder / "junit.xml").getroot()
    failed = [c for c in root.iter("testcase") if c.find("failure") is not None]
    assert failed, "junit.xml has no failure"
    assert any(p.get("value") == FAULT_RULE for c in failed for p in c.iter("property"))
    assert f"failed:\n  {FAULT_RULE}" in broken_run.proc.stdout


def test_the_diff_of_a_clean_and_a_broken_run_names_the_regression(clean_run: Run, broken_run: Run) -> None:
    assert clean_run.folder is not None and broken_run.folder is not None
    proc = qaconform("diff", str(clean_run.folder), str(broken_run.folder), timeout=60)
    assert proc.returncode == exitcodes.RULE_FAILED, proc.stdout + proc.stderr
    assert f"{FAULT_RULE}: passed -> failed" in proc.stdout
    regressed = proc.stdout.split("regressed (held in A, broken in B): ")[1].splitlines()[0]
    assert regressed == "1"


def test_an_expected_failure_is_shown_and_keeps_the_exit_code_at_0(tmp_path: Path, broken_run: Run) -> None:
    """The broken run's report rebuilt with an --expect file (the runner passes the file to the same builder)."""
    assert broken_run.folder is not None
    expect = tmp_path / "expect.toml"
    expect.write_text(f'[{FAULT_RULE}]\nreason = "planted fault"\nlink = "https://example.invalid/QA-1"\n')
    proc = qaconform("report", str(broken_run.folder / "results.json"), "--out", str(tmp_path / "re"),
                     "--expect", str(expect), timeout=120)
    assert proc.returncode == exitcodes.OK, proc.stdout + proc.stderr
    assert f"expected failure:\n  {FAULT_RULE}" in proc.stdout
    report = json.loads((tmp_path / "re" / "report.json").read_text())
    rule = next(r for r in report["rules"] if r["id"] == FAULT_RULE)
    assert rule["status"] == "failed" and rule["expected"]["state"] == "expected failure"
    assert report["selection"]["areas"] == ["paging"]  # run.json of the run folder was read back


def test_a_bad_expect_file_exits_2_before_the_run_starts(tmp_path: Path) -> None:
    bad = tmp_path / "expect.yaml"
    bad.write_text("- not a mapping\n")
    r = run(tmp_path / "out", "--expect", str(bad))
    assert r.proc.returncode == exitcodes.USAGE and "must map rule ids" in r.proc.stderr
    assert r.folder is None and "starting" not in r.proc.stdout


def test_no_password_of_the_profile_is_in_any_file_of_the_run_folder(tmp_path: Path, leaky_server: Profile) -> None:
    r = run(tmp_path / "out", "--profile", leaky_server.path, "--only", "actions", "--har", "all")
    assert r.proc.returncode == exitcodes.RULE_FAILED, r.output  # failures carry exchanges: the risky case
    assert r.folder is not None
    secrets = set(leaky_server.passwords())
    secrets |= {base64.b64encode(f"{a.username}:{a.password}".encode()).decode()
                for a in leaky_server.accounts.values()}
    files = [p for p in r.folder.rglob("*") if p.is_file()]
    assert len(files) >= 5
    for p in files:
        text = p.read_text(errors="replace")
        for s in secrets:
            assert s not in text, f"a credential of the profile leaked into {p.name}"
    # exchanges sent with credentials were written (report.json holds them when a failing test sent the request
    # itself; a lock shared by several tests is made by whichever asks first, which may be one that passes)
    assert any("Authorization" in p.read_text(errors="replace") for p in files if p.suffix in (".json", ".har"))
    cassettes = [p for p in files if p.suffix == ".har"]  # the failures' (those that sent requests) and, with
    # --har all, every exchange (tests/report/test_har_cassettes.py checks a failure's own cassette)
    assert (r.folder / "har" / "all.har") in cassettes, [p.name for p in files]
    assert all("Authorization" in p.read_text() for p in cassettes)  # sent authenticated: a real test of redaction


def test_a_profile_that_cannot_be_loaded_exits_2_with_one_line_and_writes_nothing(tmp_path: Path) -> None:
    r = run(tmp_path / "out", "--profile", str(tmp_path / "missing.toml"))
    assert r.proc.returncode == exitcodes.USAGE
    assert r.proc.stderr.strip().count("\n") == 0 and "Traceback" not in r.proc.stderr
    assert "missing.toml: file not found" in r.proc.stderr
    assert r.folder is None


def test_an_unreachable_target_exits_3_with_one_line(tmp_path: Path, leaky_server: Profile) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nothing listens there
    text = Path(leaky_server.path).read_text()
    dead = tmp_path / "dead.toml"
    dead.write_text(text.replace(leaky_server.base_url, f"http://127.0.0.1:{port}"))
    r = run(tmp_path / "out", "--profile", str(dead))
    assert r.proc.returncode == exitcodes.UNREACHABLE, r.output
    assert r.proc.stderr.strip().count("\n") == 0 and "Traceback" not in r.proc.stderr
    assert f"target http://127.0.0.1:{port} is unreachable" in r.proc.stderr


def test_a_password_the_target_refuses_exits_2_naming_the_account(tmp_path: Path, leaky_server: Profile) -> None:
    text = Path(leaky_server.path).read_text()
    wrong = tmp_path / "wrong.toml"  # the reference profile names the password's variable (qa16): a literal instead
    wrong.write_text(text.replace('password_env = "QACONFORM_MEMBER_PASSWORD"',
                                  'password = "not-the-password-42"', 1))
    assert wrong.read_text() != text, "the reference profile does not name the member's password variable"
    r = run(tmp_path / "out", "--profile", str(wrong), "--only", "paging")
    assert r.proc.returncode == exitcodes.USAGE, r.output
    assert "[accounts.member]" in r.proc.stderr and "refused by the target" in r.proc.stderr
    assert r.folder is None, "the doctor stops the run before any folder is made: nothing written"


def test_an_unknown_only_token_exits_2_with_a_suggestion(tmp_path: Path) -> None:
    r = run(tmp_path / "out", "--only", "pagingg")
    assert r.proc.returncode == exitcodes.USAGE
    assert "did you mean paging" in r.proc.stderr and r.folder is None


def test_a_dry_run_prints_what_would_be_written_and_runs_only_read_only_tests(tmp_path: Path,
                                                                               leaky_server: Profile) -> None:
    r = run(tmp_path / "out dir", "--profile", leaky_server.path, "--dry-run", "--only", "comments")
    assert "postComment" in r.proc.stdout and "would write" in r.proc.stdout, r.output
    assert r.folder is not None
    # the pytest command as printed pastes whole: its paths hold the folder's space, quoted (shlex.join; qa20)
    printed = next(line for line in r.proc.stdout.splitlines() if line.startswith("$ python "))
    words = shlex.split(printed.removeprefix("$ "))
    assert words[words.index("--qaconform-results") + 1] == str(r.folder / "results.json"), printed
    tests = r.report["tests"]
    writers = [t for t in tests if "writes" in t["areas"]]
    assert writers, "the comments area has no test marked writes: nothing to check"
    assert all(t["outcome"] == "skipped" and "--read-only" in (t["message"] or "") for t in writers)
    assert r.report["selection"]["dry_run"] is True
    # the list comes from the collection's node ids as data (the run folder's dry-run-tests.json), not from pytest's
    # terminal text: exactly the tests the run then skipped as writers, each printed, with their count
    listed = json.loads((r.folder / "dry-run-tests.json").read_text(encoding="utf-8"))["tests"]
    marked = {t["nodeid"] for t in tests if {"writes", "destructive"} & set(t["areas"])}
    assert set(listed) == marked, sorted(set(listed) ^ marked)[:10]
    assert f"--dry-run: {len(listed)} test(s) would write" in r.proc.stdout, r.output
    assert all(f"  {nodeid}" in r.proc.stdout for nodeid in list(listed)[:40])
    assert all(isinstance(rules, list) and rules for rules in listed.values()), "each test with its rule ids"


@pytest.mark.slow
def test_a_smoke_load_run_adds_its_charts_to_the_report(tmp_path: Path) -> None:
    r = run(tmp_path / "out", "--only", "paging", "--load", "smoke")
    assert r.proc.returncode == exitcodes.OK, r.output
    load = r.report["load"]
    assert load["status"] == "passed" and load["runs"], load
    assert load["runs"][0]["aggregated"]["requests"] > 0
    assert r.folder is not None
    # the load tested the target the run resolved (issue 30): given its target.json, which its folder holds as it was
    assert "--target-file" in json.loads((r.folder / "run.json").read_text())["load"]["command"]
    assert json.loads((r.folder / "load" / "target.json").read_text()) == json.loads(
        (r.folder / "target.json").read_text())
    html = (r.folder / "report.html").read_text()
    load_html = html[html.index('<section id="load">'):]
    assert load_html.count("<svg") == 4 and "<polyline" in load_html  # throughput, latency, by operation, by check
    headline = load["headline"]
    assert headline["latency_source"] == "histogram" and headline["requests"] == load["runs"][0]["aggregated"][
        "requests"] and f"p95 {headline['p95_ms']:g} ms" in load_html
    assert load["thresholds"] and all(set(t) >= {"operation", "metric", "limit", "measured", "ok"}
                                      for t in load["thresholds"])


def test_a_kit_error_is_exit_4_with_one_line_and_the_traceback_in_a_file(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from qaconform.commands import run as runner

    def boom(self: runner.Runner) -> int:
        raise RuntimeError("planted bug in the kit")

    monkeypatch.setattr(runner.Runner, "execute", boom)
    parser = argparse.ArgumentParser()
    runner.add_arguments(parser)
    assert runner.main(parser.parse_args(["--out", str(tmp_path)])) == exitcodes.KIT_ERROR
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert "the kit itself broke (RuntimeError: planted bug in the kit)" in err
    saved = list(tmp_path.glob("*/kit-error.txt"))
    assert len(saved) == 1 and str(saved[0]) in err
    assert "Traceback" in saved[0].read_text() and "planted bug in the kit" in saved[0].read_text()


def test_an_unknown_reference_fault_exits_2_before_any_server_starts(tmp_path: Path) -> None:
    r = run(tmp_path / "out", "--reference-fault", "envelope-listcount-wong")
    assert r.proc.returncode == exitcodes.USAGE
    assert "did you mean envelope-listcount-wrong" in r.proc.stderr and "starting" not in r.proc.stdout
    assert r.folder is None
