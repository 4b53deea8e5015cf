"""`qaconform run --jobs N`: the same verdict for every rule as a serial run, one merged report, and the profile's
politeness limits kept across workers.

Speed is not asserted here (bench/bench_run.py measures it); what is asserted is what a parallel run must never
change: the verdicts, the tests that ran, one run tag, each created object listed once, and never more requests at
once or per second than the profile allows. Each `qaconform run` starts its own fresh reference server.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from delay_proxy import DelayProxy
from hostile_server import HostileServer

from qaconform.reference import ReferenceServer

pytestmark = pytest.mark.slow  # serial and parallel runs of every suite against reference servers

ROOT = Path(__file__).resolve().parents[1]

GENERATED = ["--max-examples", "3", "--seed", "1234", "--write-budget", "unlimited"]
"""The generated tests, small and the same in both runs (their examples come from the seed); no write budget: which
tests a spent budget leaves unchecked depends on the order they ran in, which a parallel run does not keep."""
MAX_RPS = 20
"""The polite target's max_rps (two workers: 10 a second each)."""


def run_kit(out: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--out", str(out), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def run_folder(out: Path) -> Path:
    folders = [p for p in out.iterdir() if p.is_dir() and not p.is_symlink()]  # reports/latest is a link
    assert len(folders) == 1, folders
    return folders[0]


def verdicts(report: dict[str, Any]) -> dict[str, str]:
    return {r["id"]: r["status"] for r in report["rules"]}


@pytest.fixture(scope="module")
def serial_and_parallel(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The whole kit twice against fresh reference servers: serially and on three workers (started together)."""
    outs = {name: tmp_path_factory.mktemp(name) for name in ("serial", "parallel")}
    procs = {name: subprocess.Popen([sys.executable, "-m", "qaconform.commands.cli", "run", "--out", str(out), "--jobs",
                                     "1" if name == "serial" else "3", *GENERATED], cwd=ROOT,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                    stdin=subprocess.DEVNULL)
             for name, out in outs.items()}
    for name, proc in procs.items():
        try:
            output, _ = proc.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            proc.kill()
            output, _ = proc.communicate()
            pytest.fail(f"the {name} run did not end within 600 s:\n{output[-3000:]}")
        assert proc.returncode == 0, f"the {name} run ended with {proc.returncode}:\n{output[-3000:]}"
    return {name: run_folder(out) for name, out in outs.items()}


def test_a_parallel_run_gives_every_rule_the_verdict_of_the_serial_run(serial_and_parallel: dict[str, Path]) -> None:
    reports = {n: json.loads((p / "report.json").read_text()) for n, p in serial_and_parallel.items()}
    serial, parallel = verdicts(reports["serial"]), verdicts(reports["parallel"])
    assert serial.keys() == parallel.keys()
    differ = {rid: (serial[rid], parallel[rid]) for rid in serial if serial[rid] != parallel[rid]}
    assert not differ, f"rules whose verdict (serial, parallel) differs: {differ}"
    assert Counter(serial.values())["passed"] > 100, serial  # the runs judged the rules, not skipped them
    assert reports["parallel"]["execution"]["jobs"] == 3
    assert reports["serial"]["execution"]["jobs"] == 1


def test_a_parallel_run_merges_every_test_once_with_one_run_tag(serial_and_parallel: dict[str, Path]) -> None:
    results = {n: json.loads((p / "results.json").read_text()) for n, p in serial_and_parallel.items()}
    ran = {n: Counter(t["nodeid"] for t in r["tests"]) for n, r in results.items()}
    assert ran["parallel"] == ran["serial"], "tests missing or run twice: " + str(
        (ran["serial"] - ran["parallel"]) + (ran["parallel"] - ran["serial"]))
    par = results["parallel"]
    tag = par["run_tag"]
    assert isinstance(tag, str) and tag.startswith("qc-")
    assert par["target"] is not None and par["target"]["base_url"].startswith("http://127.0.0.1:")
    created = [(c["kind"], c["id"]) for t in par["tests"] for c in t["created"] if c.get("id") is not None]
    assert created and len(created) == len(set(created)), "an object the run created is listed twice"
    text = (serial_and_parallel["parallel"] / "results.json").read_text()
    tags = set(re.findall(r"qc-[0-9a-f]{8}", text))
    assert tags == {tag}, f"the workers tagged what they created differently: {tags}"


def test_a_parallel_runs_coverage_merges_the_exchanges_of_every_worker(serial_and_parallel: dict[str, Path]) -> None:
    """coverage.json is drawn from the exchanges each process logged (one file per xdist worker): three workers must
    show the same operation x account cells called as one process, and about as many requests (fewer by the reads
    shared across workers)."""
    cov = {n: json.loads((p / "coverage.json").read_text()) for n, p in serial_and_parallel.items()}

    def called(c: dict[str, Any]) -> set[str]:
        return {f"{o['operation']} as {a}" for o in c["operations"] for a, cell in o["accounts"].items()
                if cell["requests"]}

    assert called(cov["parallel"]) == called(cov["serial"])
    assert cov["serial"]["summary"]["cells_exercised"] == 95, cov["serial"]["summary"]
    serial, parallel = cov["serial"]["summary"]["requests"], cov["parallel"]["summary"]["requests"]
    # The same tests and seed, not byte for byte. A parallel run reads each identical GET once across its workers
    # (qaconform/pytest/shared_reads.py), so it makes fewer requests than one process, never many more; one
    # worker's exchanges alone would be about a third.
    assert serial * 0.7 <= parallel <= serial * 1.15, (serial, parallel)
    assert cov["parallel"]["summary"]["must_checked"] == cov["serial"]["summary"]["must_checked"]


@pytest.fixture(scope="module")
def polite_target(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The reference server behind a counting proxy, with a profile that limits concurrency and rate.

    ci23: 20 requests a second, not 10. The actions run is rate-bound at either (688 requests: 126 s at 10, 65 s at
    20 on a loaded 2-core machine), and unlimited it sends 513 in its busiest 2.9 s: a kit ignoring the limit, or
    giving each worker the whole rate, still breaks the bound of 60 below many times over."""
    with ReferenceServer() as srv, DelayProxy(srv.url, 0.0) as proxy:
        text = Path(srv.profile_path).read_text(encoding="utf-8").replace(f'"{srv.url}"', f'"{proxy.url}"')
        text = re.sub(r"(?m)^\[safety\]$", f"[safety]\nmax_concurrency = 2\nmax_rps = {MAX_RPS}", text)
        assert f"max_rps = {MAX_RPS}" in text, text
        path = tmp_path_factory.mktemp("polite") / "profile.toml"
        path.write_text(text, encoding="utf-8")
        yield path, proxy


def test_a_run_never_exceeds_the_profiles_concurrency_and_rate(polite_target: Any, tmp_path: Path) -> None:
    profile, proxy = polite_target
    proxy.stats.reset()
    done = run_kit(tmp_path, "--profile", str(profile), "--only", "actions", "--jobs", "2", *GENERATED)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert proxy.stats.requests > 40, "too few requests to say anything about the limits"
    assert proxy.stats.max_in_flight <= 2
    # The kit counts a request when it sends it (at most MAX_RPS in any 1.05 s, politeness.WINDOW_S + MARGIN_S);
    # the proxy when it arrives. On a busy machine arrivals bunch: a 0.9 s window at the proxy saw 11 and 12 of 10
    # in CI runs with other work on the machine (stop 58), though the kit kept its windows. Judged over three
    # windows, the same jitter is a small part of the span: a kit keeping 20 a second shows at most 60 arrivals in
    # any 2.9 s (its sends in any 3.15 s), a kit sending 24 a second shows about 70.
    assert proxy.stats.max_per_second(window_s=2.9) <= 3 * MAX_RPS
    assert f"politeness: at most 2 request(s) at once and at most {MAX_RPS} request(s) per second" in done.stdout
    report = json.loads((run_folder(tmp_path) / "report.json").read_text())
    assert {k: v for k, v in report["execution"].items() if k != "round_trip_ms"} == {
        "jobs": 2, "max_concurrency": 2, "max_rps": float(MAX_RPS)}
    assert report["execution"]["round_trip_ms"] > 0  # the preflight's shortest read


def test_more_workers_than_the_limits_allow_is_refused_before_anything_is_sent(
        polite_target: Any, tmp_path: Path) -> None:
    profile, proxy = polite_target
    proxy.stats.reset()
    done = run_kit(tmp_path, "--profile", str(profile), "--jobs", "3", timeout=120)
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    assert "--jobs 3" in done.stderr and "--jobs 2 or fewer" in done.stderr, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert proxy.stats.requests <= 1  # the reachability check only


def test_a_target_that_stops_answering_ends_a_parallel_run_like_a_serial_one(tmp_path: Path) -> None:
    """A worker that meets a dead target stops the whole run: exit 3, the reason in the results file and the
    report of what finished (as tests/hostile's dies-mid-run shows for a serial run)."""
    with ReferenceServer() as srv, HostileServer("proxy", upstream=srv.url, die_after=60) as proxy:
        text = Path(srv.profile_path).read_text(encoding="utf-8").replace(f'"{srv.url}"', f'"{proxy.url}"')
        profile = tmp_path / "profile.toml"
        profile.write_text(re.sub(r"(?m)^timeout_s = .*$", "timeout_s = 5", text), encoding="utf-8")
        done = run_kit(tmp_path / "out", "--profile", str(profile), "--only", "paging", "--jobs", "2",
                       *GENERATED, timeout=300)
    assert done.returncode == 3, done.stdout[-3000:] + done.stderr[-2000:]
    assert "stopped answering during the run" in done.stdout + done.stderr
    folder = run_folder(tmp_path / "out")
    results = json.loads((folder / "results.json").read_text())
    assert results["stopped"]["reason"] == "unreachable", results["stopped"]
    report = json.loads((folder / "report.json").read_text())
    assert report["exit_code"] == 3 and report["summary"]["failed_rules"] == [], report["verdict"]


@pytest.mark.parametrize(("cpus", "round_trip_s", "jobs"), [
    (1, None, 1), (2, None, 2), (16, None, 6),  # loopback: one per CPU, at most 6
    (2, 0.001, 4), (2, 0.02, 7), (2, 0.025, 8), (2, 0.05, 8), (2, 0.2, 8),  # a network: two per CPU, four more per
    (1, 0.0, 2), (1, 0.025, 6), (4, 0.03, 8),  # 25 ms, at most 8 (speed12: at 25 ms 8 workers beat 5)
])
def test_the_default_workers_follow_the_cpus_and_the_round_trip(cpus: int, round_trip_s: float | None,
                                                                 jobs: int) -> None:
    from qaconform.commands.run import default_jobs

    assert default_jobs(cpus, round_trip_s) == jobs


def test_a_run_without_jobs_times_the_target_and_says_why_it_chose_its_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The preflight's round trip to a target 40 ms away is in the report; the profile's limits cap the default."""
    monkeypatch.delenv("QACONFORM_JOBS", raising=False)  # tests/conftest.py sets 1 for the kit's own runs
    with ReferenceServer() as srv, DelayProxy(srv.url, 0.04) as proxy:
        text = Path(srv.profile_path).read_text(encoding="utf-8").replace(f'"{srv.url}"', f'"{proxy.url}"')
        text = re.sub(r"(?m)^\[safety\]$", "[safety]\nmax_concurrency = 2", text)
        profile = tmp_path / "profile.toml"
        profile.write_text(text, encoding="utf-8")
        done = run_kit(tmp_path / "out", "--profile", str(profile), "--only", "gdpr", *GENERATED)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    line = next((x for x in done.stdout.splitlines() if x.startswith("qaconform run: 2 workers (")), "")
    assert re.search(r"\(\d+ CPUs?, (\d+) ms a round trip, at most 2 by the profile's limits; --jobs N", line), \
        done.stdout[:2000]
    report = json.loads((run_folder(tmp_path / "out") / "report.json").read_text())
    assert report["execution"]["jobs"] == 2
    assert 40 <= report["execution"]["round_trip_ms"] < 1000, report["execution"]
