"""One resolved target for a load run (issue 30, hard rule 6): `qaconform load` and `qaconform capacity` resolve
profile + QACONFORM_BASE_URL once, before their preflight, into ``target.json`` in their output folder, and every
Locust process (local, master, workers) reads that file instead of a profile.

The profiles here are built so that anything read from elsewhere fails visibly: the profile file target.json names
has a base_url nothing listens on (only target.json's base_url reaches the server), its passwords come from
environment variables (target.json holds none), and a stale ``QACONFORM_PROFILE`` in the environment names a
profile with wrong passwords (the server answers its requests 401, Locust counts failures). Locust runs only in
subprocesses.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from qaconform import exitcodes
from qaconform.load.runner import RunConfig, _locust_env, _plan, free_port, loadtests_dir, target_env
from qaconform.reference import ReferenceServer
from qaconform.report.redact import secret_variants
from qaconform.target.doctor import Diagnosis, Severity
from qaconform.target.profile import load_profile
from qaconform.target.resolved import TARGET_ENV, TARGET_NAME, ResolvedTarget

ROOT = Path(__file__).resolve().parents[2]
PASSWORD_LINE = re.compile(r'^password = "(?:[^"\\]|\\.)*"$', re.MULTILINE)
SECRET_LINE = re.compile(r'^password(?:_env)? = "(?:[^"\\]|\\.)*"$', re.MULTILINE)
"""A password or the variable holding it: the reference server's profile names the variable (qa16)."""


@dataclass(frozen=True)
class Profiles:
    """A live reference server and three views of it (see the module's docstring)."""

    url: str
    """The live server."""
    dead_url: str
    """A loopback port nothing listens on."""
    good: Path
    """The server's accounts, passwords by environment variable, base_url = dead_url."""
    stale: Path
    """base_url = the live server, every password wrong."""
    password_env: dict[str, str]
    secrets: set[str]
    """The passwords and their Basic forms (what an Authorization header carries)."""


@pytest.fixture(scope="module")
def profiles(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Profiles]:
    folder = tmp_path_factory.mktemp("load-target")
    with ReferenceServer() as srv:
        text = Path(srv.profile_path).read_text(encoding="utf-8")
        profile = load_profile(srv.profile_path)
        env = {f"QC_LOADTARGET_{role.upper()}_PW": str(account.password) for role, account in profile.accounts.items()}
        dead = f"http://127.0.0.1:{free_port()}"
        lines, role = [], ""
        for line in text.replace(srv.url, dead).splitlines():
            role = line[len("[accounts."):-1] if line.startswith("[accounts.") else role
            lines.append(f'password_env = "QC_LOADTARGET_{role.upper()}_PW"' if SECRET_LINE.match(line) else line)
        good = "\n".join(lines) + "\n"
        assert not PASSWORD_LINE.search(good), "every password of the good profile is in the environment"
        (folder / "good.toml").write_text(good, encoding="utf-8")
        stale = SECRET_LINE.sub('password = "wrong-password"', text)
        assert stale != text, "the reference profile names no account's password"
        (folder / "stale.toml").write_text(stale, encoding="utf-8")
        yield Profiles(srv.url, dead, folder / "good.toml", folder / "stale.toml", env,
                       secret_variants(profile.passwords(), [a.username for a in profile.accounts.values()]))


def _env(p: Profiles, **extra: str) -> dict[str, str]:
    """The environment of a command under test: the passwords' variables, a stale QACONFORM_PROFILE, no override."""
    env = {k: v for k, v in os.environ.items() if k not in ("QACONFORM_BASE_URL", TARGET_ENV)}
    return {**env, **p.password_env, "QACONFORM_PROFILE": str(p.stale), "PYTHONUNBUFFERED": "1", **extra}


def _aggregated(csv_path: Path) -> tuple[int, int]:
    """(requests, failures) of Locust's Aggregated row."""
    with csv_path.open(newline="", encoding="utf-8") as fh:
        row = next(r for r in csv.DictReader(fh) if r["Name"] == "Aggregated")
    return int(row["Request Count"]), int(row["Failure Count"])


def _no_secret_in(folder: Path, output: str, p: Profiles) -> None:
    """No password nor Authorization value in any file of the run's folder nor in what the command printed."""
    files = [f for f in folder.rglob("*") if f.is_file()]
    assert any(f.name == TARGET_NAME for f in files)
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        assert not [s for s in p.secrets if s in text], f"a password or an Authorization value is in {path}"
    assert not [s for s in p.secrets if s in output], "a password or an Authorization value is in the output"


def test_reading_a_resolved_target_loads_no_http_client_nor_the_doctor() -> None:
    """The Locust processes read target.json (qaload/settings.py): loadtests/ imports no part of qaconform that
    imports requests (ARCHITECTURE.md), and each import is start-up time of every Locust process, every step."""
    code = ("import sys, qaconform.target.resolved; "
            "print(sorted(m for m in ('requests', 'qaconform.target.doctor', 'qaconform.target.client') "
            "if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_the_locust_environment_names_the_resolved_target_and_no_profile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QACONFORM_PROFILE", "/elsewhere/stale.toml")
    target = tmp_path / TARGET_NAME
    env = _locust_env(RunConfig(scenario="browse"), _plan(RunConfig(scenario="browse"), loadtests_dir()), target,
                      tmp_path, "r1")
    assert env[TARGET_ENV] == str(target.resolve())
    assert "QACONFORM_PROFILE" not in env and "QACONFORM_PROFILE" not in target_env(target)


@pytest.mark.slow
def test_a_master_and_its_worker_go_where_the_target_file_says_with_its_profiles_accounts(
        profiles: Profiles, tmp_path: Path) -> None:
    """Locust started by hand, without ``-H``: the URL the users call is the one each process read itself. A
    process that loaded its profile's base_url would call a closed port, one that loaded QACONFORM_PROFILE would
    be refused 401: both are failures in Locust's statistics."""
    ResolvedTarget(str(profiles.good), profiles.url, "QACONFORM_BASE_URL").write(tmp_path)
    env = _env(profiles, **{TARGET_ENV: str(tmp_path / TARGET_NAME), "QACONFORM_RUN_DIR": str(tmp_path)})
    locustfile = str(loadtests_dir() / "browse.py")
    port = free_port()
    base = [sys.executable, "-m", "locust", "-f", locustfile, "--loglevel", "WARNING"]
    master = [*base, "--headless", "-u", "2", "-r", "2", "-t", "3s", "--csv", str(tmp_path / "locust"),
              "--only-summary", "--stop-timeout", "1", "--exit-code-on-error", "0", "--master",
              "--master-bind-host", "127.0.0.1", "--master-bind-port", str(port), "--expect-workers", "1",
              "--expect-workers-max-wait", "30"]
    worker = [*base, "--worker", "--master-host", "127.0.0.1", "--master-port", str(port)]
    with open(tmp_path / "worker.log", "wb") as log:
        wproc = subprocess.Popen(worker, cwd=loadtests_dir().parent, env=env, stdout=log, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL)
        try:
            mproc = subprocess.run(master, cwd=loadtests_dir().parent, env=env, capture_output=True, text=True,
                                   timeout=90, check=False, stdin=subprocess.DEVNULL)
        finally:
            try:
                wproc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                wproc.kill()
                wproc.wait(timeout=10)
    said = mproc.stdout[-3000:] + mproc.stderr[-3000:] + (tmp_path / "worker.log").read_text(errors="replace")[-3000:]
    assert mproc.returncode == 0, said
    requests, failures = _aggregated(tmp_path / "locust_stats.csv")
    assert requests > 0 and failures == 0, f"{failures} of {requests} requests failed:\n{said}"
    by_worker = json.loads((tmp_path / "latency.json").read_text(encoding="utf-8"))["requests_by_worker"]
    assert sum(by_worker.values()) > 0, f"the worker made no request: {by_worker}"


@pytest.mark.slow
def test_a_locust_process_refuses_an_override_that_disagrees_with_the_target_file(
        profiles: Profiles, tmp_path: Path) -> None:
    ResolvedTarget(str(profiles.good), profiles.url, "profile").write(tmp_path)
    env = _env(profiles, **{TARGET_ENV: str(tmp_path / TARGET_NAME), "QACONFORM_BASE_URL": profiles.dead_url})
    proc = subprocess.run([sys.executable, "-m", "locust", "-f", str(loadtests_dir() / "browse.py"), "--headless",
                           "-u", "1", "-r", "1", "-t", "2s", "--csv", str(tmp_path / "locust")],
                          cwd=loadtests_dir().parent, env=env, capture_output=True, text=True, timeout=60,
                          check=False, stdin=subprocess.DEVNULL)
    assert proc.returncode != 0 and "one run tests one target" in proc.stderr, proc.stderr[-2000:]
    assert not (tmp_path / "locust_stats.csv").exists(), "no user ran"


@pytest.mark.slow
def test_qaconform_load_resolves_the_override_once_into_its_out_folder_for_every_locust_process(
        profiles: Profiles, tmp_path: Path) -> None:
    """QACONFORM_BASE_URL names the live server, the profile a closed port: the preflight examines the override
    (without it: exit 3), target.json records it, and the local master and its worker (the stale QACONFORM_PROFILE
    in their environment) send every request there with the profile's accounts."""
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "load", "--profile", str(profiles.good),
                           "--report-dir", str(out), "--scenario", "browse", "--duration", "3", "--users", "2",
                           "--workers", "1"], cwd=ROOT, env=_env(profiles, QACONFORM_BASE_URL=profiles.url),
                          capture_output=True, text=True, timeout=120, check=False, stdin=subprocess.DEVNULL)
    said = proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.returncode == exitcodes.OK, said
    assert f"QACONFORM_BASE_URL overrides base_url: testing {profiles.url}" in proc.stdout
    target = json.loads((out / TARGET_NAME).read_text(encoding="utf-8"))
    assert (target["base_url"], target["base_url_from"], target["profile_path"]) == (
        profiles.url, "QACONFORM_BASE_URL", str(profiles.good.resolve()))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["target"] == profiles.url and summary["requests"] > 0 and summary["failures"] == 0, said
    assert sum(summary["requests_by_worker"].values()) > 0, summary["requests_by_worker"]
    _no_secret_in(out, proc.stdout + proc.stderr, profiles)


@pytest.mark.slow
def test_qaconform_capacity_resolves_the_override_once_and_every_step_reads_it(
        profiles: Profiles, tmp_path: Path) -> None:
    out = tmp_path / "cap"
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "capacity", "--profile",
                           str(profiles.good), "--report-dir", str(out), "-s", "browse", "--start-rate", "5",
                           "--step-duration", "3", "--max-time", "12"], cwd=ROOT,
                          env=_env(profiles, QACONFORM_BASE_URL=profiles.url), capture_output=True, text=True,
                          timeout=120, check=False, stdin=subprocess.DEVNULL)
    said = proc.stdout[-3000:] + proc.stderr[-3000:]
    # the verdict is the machine's (a busy one leaves no rate judged inside 12 s: CANNOT_JUDGE); only where the
    # target came from is judged here
    assert proc.returncode in (exitcodes.OK, exitcodes.RULE_FAILED, exitcodes.CANNOT_JUDGE), said
    target = json.loads((out / TARGET_NAME).read_text(encoding="utf-8"))
    assert (target["base_url"], target["base_url_from"]) == (profiles.url, "QACONFORM_BASE_URL")
    report = json.loads((out / "capacity.json").read_text(encoding="utf-8"))
    assert report["target"] == profiles.url
    steps = sorted((out / "browse").glob("step-*/summary.json"))
    assert steps, f"no step ran:\n{said}"
    for path in steps:
        summary = json.loads(path.read_text(encoding="utf-8"))
        assert summary["target"] == profiles.url and summary["requests"] > 0 and summary["failures"] == 0, path
        assert not (path.parent / TARGET_NAME).exists(), "resolved once, not per step"
    _no_secret_in(out, proc.stdout + proc.stderr, profiles)


def test_qaconform_run_gives_its_load_the_target_file_it_resolved(tmp_path: Path) -> None:
    from qaconform.commands.run_options import load_command

    cmd = load_command("browse", "site.toml", tmp_path / "load", tmp_path / TARGET_NAME)
    assert cmd is not None and "--profile" not in cmd
    assert cmd[cmd.index("--target-file") + 1] == str(tmp_path / TARGET_NAME)


def _load(p: Profiles, out: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "load",
                           "--report-dir", str(out), *args], cwd=ROOT,
                          env=_env(p, **env), capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL)


def test_a_given_target_file_with_a_disagreeing_override_or_a_profile_is_refused_before_any_request(
        profiles: Profiles, tmp_path: Path) -> None:
    given = ResolvedTarget(str(profiles.good), profiles.url, "profile").write(tmp_path)
    out = tmp_path / "out"
    refused = _load(profiles, out, "--target-file", str(given), QACONFORM_BASE_URL=profiles.dead_url)
    assert refused.returncode == exitcodes.USAGE, refused.stdout[-2000:] + refused.stderr[-2000:]
    assert "one run tests one target" in refused.stderr
    both = _load(profiles, out, "--target-file", str(given), "--profile", str(profiles.good))
    assert both.returncode == exitcodes.USAGE and "not both" in both.stderr, both.stderr[-2000:]
    assert not out.exists() or not list(out.iterdir()), "nothing was run"


@pytest.mark.slow
def test_a_load_given_a_target_file_tests_it_as_it_is(profiles: Profiles, tmp_path: Path) -> None:
    """The file's base URL (the profile's is a closed port), its doctor's findings carried into the load's folder."""
    doctor = Diagnosis(base_url=profiles.url)
    doctor.add(Severity.NOTE, "planted", "a finding the load's folder must carry")
    given = ResolvedTarget(str(profiles.good), profiles.url, "QACONFORM_BASE_URL", doctor).write(tmp_path)
    out = tmp_path / "out"
    proc = _load(profiles, out, "--target-file", str(given), "--scenario", "browse", "--duration", "2", "--users",
                 "2", QACONFORM_BASE_URL=profiles.url + "/")
    said = proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.returncode == exitcodes.OK, said
    assert ResolvedTarget.read(out / TARGET_NAME) == ResolvedTarget.read(given)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["target"] == profiles.url and summary["requests"] > 0 and summary["failures"] == 0, said
    _no_secret_in(out, proc.stdout + proc.stderr, profiles)
