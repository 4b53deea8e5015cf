"""`qaconform load --duration 3` against hostile targets: it ends in bounded time with the documented exit code
(3 unreachable, 1 thresholds breached), no traceback, bounded memory, and no credential in its output or files.

As in test_run_hostile.py, behaviours that answer garbage share one rotating server and one run, and so do
those that would fill memory if read whole.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hostile_kit import TIMEOUT_S, Background, Finished, Planned, Secrets, assert_ended_cleanly, profile_toml
from hostile_server import GARBAGE, HEAVY, HostileServer

from qaconform import exitcodes

pytestmark = pytest.mark.slow  # qaconform load against every hostile behaviour, all started at session start


@dataclass(frozen=True)
class Case:
    name: str
    behaviours: tuple[str, ...]
    exit_code: int
    words: str
    max_seconds: float
    tls: bool = False
    waits_for_target: bool = False  # it must give up after one timeout_s: compared with the refused run


CASES: dict[str, Case] = {c.name: c for c in (
    Case("refused", ("refused",), exitcodes.UNREACHABLE, "did not answer", max_seconds=15),
    Case("silent", ("silent",), exitcodes.UNREACHABLE, "did not answer", max_seconds=15,
         waits_for_target=True),
    Case("slow", ("slow",), exitcodes.UNREACHABLE, "did not answer", max_seconds=15,
         waits_for_target=True),
    Case("tls-refused", ("ok",), exitcodes.UNREACHABLE, "verify_tls = false", max_seconds=15, tls=True),
    Case("garbage", (*GARBAGE, "html401"), exitcodes.RULE_FAILED, "verdict: fail", max_seconds=30),
    Case("heavy", HEAVY, exitcodes.RULE_FAILED, "verdict: fail", max_seconds=30),
    Case("endless", ("endless",), exitcodes.RULE_FAILED, "verdict: fail", max_seconds=30),
)}
MAX_RSS_MB = 300
HARD_TIMEOUT_S = 40.0


def plan(bg: Background) -> dict[str, Planned]:
    """Servers, profiles and `qaconform load` commands of this module (started by conftest's ``background``)."""
    planned: dict[str, Planned] = {}
    for name, case in CASES.items():
        key = f"load/{name}"
        srv = bg.enter(HostileServer(case.behaviours, tls_files=bg.tls_files if case.tls else None))
        work = bg.work(key)
        profile = work / "profile.toml"
        profile.write_text(profile_toml(srv.url, bg.creds))
        job = bg.job(key, ["load", "--profile", str(profile), "--duration", "3", "--scenario", "browse", "--users",
                           "4", "--out", str(work / "out")], HARD_TIMEOUT_S, first=case.max_seconds < 30)
        planned[name] = Planned(job, srv, profile)
    return planned


@pytest.fixture(scope="module")
def loaded(background: Background) -> dict[str, Finished]:
    return {name: p.finished() for name, p in background.planned(plan).items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_load_ends_in_time_with_the_documented_exit_code_and_a_clear_message(
        name: str, loaded: dict[str, Finished]) -> None:
    case, run = CASES[name], loaded[name].run
    assert_ended_cleanly(case, run, loaded["refused"].run, TIMEOUT_S)


@pytest.mark.parametrize("name", sorted(CASES))
def test_load_keeps_memory_bounded_and_credentials_secret(
        name: str, loaded: dict[str, Finished], creds: Secrets) -> None:
    run = loaded[name].run
    assert 0 < run.maxrss_mb < MAX_RSS_MB, run.describe()
    assert creds.leaks_in(run.output) == [], "a credential is in the terminal output"
    leaked = [str(p) for p in run.written_files() if creds.leaks_in(p.read_text(encoding="utf-8", errors="replace"))]
    assert leaked == [], f"a credential is in {leaked}"


def test_load_never_sends_credentials_to_another_host(loaded: dict[str, Finished]) -> None:
    srv = loaded["garbage"].server
    assert srv.answered_by("redirect_foreign") and srv.foreign is not None
    assert [s.path for s in srv.foreign.seen if s.authorization] == []
