"""The write budget (qaconform.target.writes): shares, a count shared by processes, the client's gate, the report.

The run-level behaviour (a run with a budget of a few writes stops writing there, exits 0 and names the rules it
left unchecked) is tested end to end against the reference server at the bottom, counting at the target too.
"""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from qaconform.reference import ReferenceServer
from qaconform.target.client import ApiClient, Recorder, write_label
from qaconform.target.profile import Account, Fixtures, Profile, Secret
from qaconform.target.writes import (
    DEFAULT_WRITE_BUDGET,
    GENERATED_SHARES,
    OBSERVATIONS,
    REFUSALS,
    SUITES,
    WriteBudget,
    WriteBudgetSpent,
    limits,
    parse_budget,
    plan_observations,
    pool_for,
    write_summary,
    writes_text,
)

ROOT = Path(__file__).resolve().parents[1]


# ---- shares ------------------------------------------------------------------------------------------------

def test_the_generated_tests_and_the_observations_have_reserved_shares_and_the_suites_the_rest() -> None:
    assert DEFAULT_WRITE_BUDGET == 100
    assert limits(DEFAULT_WRITE_BUDGET) == {SUITES: 87, "privacy model": 8, "openapi": 2, "link chains": 2,
                                            OBSERVATIONS: 0, REFUSALS: 1}
    assert limits(20) == {SUITES: 14, "privacy model": 3, "openapi": 2, "link chains": 1, OBSERVATIONS: 0,
                          REFUSALS: 0}
    assert limits(0) == {SUITES: 0, "privacy model": 0, "openapi": 0, "link chains": 0, OBSERVATIONS: 0, REFUSALS: 0}
    # a larger budget goes to the hand-written suites: the reserved shares stay at their caps
    assert limits(1000) == {SUITES: 968, "privacy model": 8, "openapi": 2, "link chains": 2, OBSERVATIONS: 10,
                            REFUSALS: 10}
    assert set(limits(None).values()) == {None}
    for budget in (0, 1, 7, 20, 100, 1000):
        assert sum(v or 0 for v in limits(budget).values()) == budget
    assert set(GENERATED_SHARES) == {"privacy model", "openapi", "link chains"}


@pytest.mark.parametrize(("path", "levels", "pool"), [
    ("suites/properties/test_openapi.py", {"must"}, "openapi"),
    ("suites/properties/test_privacy_model.py", {"must", "observed"}, "privacy model"),
    ("suites/scenarios/test_node_actions.py", {"observed"}, OBSERVATIONS),
    ("suites/scenarios/test_node_actions.py", {"observed", "must"}, SUITES),
    ("suites/contract/test_observations_silent.py", {"should"}, SUITES),
    ("suites/contract/test_observations_silent.py", set(), SUITES),
])
def test_a_test_of_observed_rules_only_spends_the_observations_share(path: str, levels: set[str], pool: str) -> None:
    """A test that names a must- or should-rule spends the suites' share even beside an observation: only a test that
    records and never fails leaves the suites' writes to the rules that can fail."""
    assert pool_for(Path(path), levels) == pool


@pytest.mark.parametrize(("given", "value"), [("100", 100), (0, 0), ("unlimited", None), (" Unlimited ", None)])
def test_a_budget_is_a_number_of_writes_or_unlimited(given: object, value: int | None) -> None:
    assert parse_budget(given, "x") == value


@pytest.mark.parametrize("given", ["-1", "ten", 1.5, True, ""])
def test_a_wrong_budget_says_what_to_write_instead(given: object) -> None:
    with pytest.raises(ValueError, match=r"--write-budget: .* give a number of accepted writes .* or 'unlimited'"):
        parse_budget(given, "--write-budget")


# ---- the count shared by processes ------------------------------------------------------------------------

def _spend(path: str, pool: str, tries: int, out: Any) -> None:
    """``tries`` writes, each accepted by the target as soon as it is sent (every second one answered after a
    moment: another process meanwhile finds the pool full of writes in flight and waits for them)."""
    budget = WriteBudget(20, Path(path))
    got = 0
    for i in range(tries):
        if budget.reserve(pool):
            got += 1
            if i % 2:
                time.sleep(0.01)
            budget.kept(pool)
    out.put(got)


def test_eight_processes_sharing_a_count_never_spend_more_than_a_pool_holds(tmp_path: Path) -> None:
    """Eight processes, 10 reservations each, on the suites' share of a budget of 20 (14): exactly 14 succeed."""
    path = tmp_path / "writes.json"
    ctx = multiprocessing.get_context("fork")  # spawn would import this module (and the kit) again in each
    out = ctx.Queue()
    procs = [ctx.Process(target=_spend, args=(str(path), SUITES, 10, out)) for _ in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    got = [out.get(timeout=5) for _ in procs]
    assert sum(got) == limits(20)[SUITES] == 14
    assert WriteBudget(20, path).spent(SUITES) == 14
    assert WriteBudget(20, path).remaining(SUITES) == 0
    assert WriteBudget(20, path).remaining("privacy model") == 3, "one pool's spending leaves the others' alone"


def test_a_refused_write_goes_back_and_an_overdraft_is_counted_but_not_refused(tmp_path: Path) -> None:
    budget = WriteBudget(20, tmp_path / "w.json", pool="link chains")
    assert budget.reserve()
    budget.kept("link chains")
    assert not budget.reserve()
    budget.give_back("link chains")
    assert budget.reserve()
    budget.overdraft = True
    assert budget.reserve() and budget.spent() == 2
    assert WriteBudget(None).reserve("anything") and WriteBudget(None).remaining() is None


def test_the_shared_count_file_stays_json_when_a_count_gets_shorter(tmp_path: Path) -> None:
    """The counts are rewritten in place (never shrinking the file): 10 becoming 9 must not leave a stray digit."""
    path = tmp_path / "w.json"
    budget = WriteBudget(None, path)
    for _ in range(10):
        assert budget.reserve("suites")
        budget.kept("suites")
    budget.give_back("suites")
    assert json.loads(path.read_text()) == {"suites": 9, "suites in flight": 0}
    assert WriteBudget(None, path).spent("suites") == 9


def test_a_pool_full_of_writes_in_flight_waits_for_their_answers_and_a_spent_one_says_so_at_once(
        tmp_path: Path) -> None:
    """Link chains' share of a budget of 20 is 1: while one worker's write is in flight, another worker's waits
    (a refused write gives its room back); once the write was accepted, the pool is spent and says so at once."""
    path = tmp_path / "w.json"
    first, second = WriteBudget(20, path, pool="link chains"), WriteBudget(20, path, pool="link chains")
    assert first.reserve()
    threading.Timer(0.2, first.give_back, args=("link chains",)).start()
    t0 = time.monotonic()
    assert second.reserve(), "the other worker's write was refused while this one waited: its room came back"
    assert time.monotonic() - t0 >= 0.15
    second.kept("link chains")
    t0 = time.monotonic()
    assert not first.reserve() and time.monotonic() - t0 < 1.0, "spent by an accepted write: no wait"
    assert first.all_spent() == {"link chains": 1}, "what is in flight is not reported as spent"


def test_a_hold_takes_all_its_writes_or_none_across_workers_and_gives_back_what_it_did_not_send(
        tmp_path: Path) -> None:
    """accept24 (issue 44 item 5): two calls that must be made together (a lock and the unwikify after it) hold
    their writes at once. Budget 20, suites' share 14: with 13 spent a hold of 2 is refused and takes nothing; with
    12 it takes both, and another worker's write finds the share spent while the hold's calls are not yet sent. Each
    call sent from the hold spends one of it (in any worker), a refused one gives its write back, and the release
    gives back what was never sent; the held writes are never reported as a pool of their own."""
    path = tmp_path / "w.json"
    first, second = WriteBudget(20, path), WriteBudget(20, path)
    for _ in range(13):
        assert first.reserve()
        first.kept(SUITES)
    assert not first.hold(2, "pair") and first.spent(SUITES) == 13 and first.holding("pair") == 0, "neither"
    first.give_back(SUITES)  # 12 spent
    assert first.hold(2, "pair") and first.spent(SUITES) == 14 and second.holding("pair") == 2, "both"
    assert not second.reserve(), "the share is spent for a write outside the hold"
    with first.from_hold("pair"):
        assert first.reserve_from() == SUITES and second.holding("pair") == 1
    first.kept(SUITES)
    with second.from_hold("pair"):  # the second call, in another worker, refused by the target
        assert second.holding() == 1 and second.reserve_from() == SUITES and second.holding() == 0
        second.give_back(SUITES)
        assert second.reserve_from() == SUITES, "the hold spent: the pool's room (the refused write's) is taken"
        second.give_back(SUITES)
    assert first.spent(SUITES) == 13 and first.release("pair") == 0
    assert first.all_spent() == {SUITES: 13}
    assert first.hold(1, "single") and first.all_spent() == {SUITES: 14}, "a held write is counted in its pool"
    assert first.release("single") == 1 and first.spent(SUITES) == 13, "never sent: given back"
    assert WriteBudget(None, tmp_path / "u.json").hold(5, "any"), "no budget: always held"


# ---- the observations' plan --------------------------------------------------------------------------------

def test_the_observations_share_is_planned_cheapest_first_with_room_for_probes() -> None:
    """Which observation tests may write is decided from the collected tests, never by which ran first: the
    cheapest (then by name) while they fit the share less one write of room for probes; a test whose writes a
    conforming target refuses (cost 0) always runs."""
    costs = {"t::b": 1, "t::a": 1, "t::c": 2, "t::probe": 0, "t::d": 4}
    assert plan_observations(costs, 3) == {"t::probe": 0, "t::a": 1, "t::b": 1}
    assert plan_observations(costs, 6) == {"t::probe": 0, "t::a": 1, "t::b": 1, "t::c": 2}
    assert plan_observations(costs, 0) == {"t::probe": 0}
    assert plan_observations(costs, None) == costs, "--thorough: every test, no limit"
    assert plan_observations(dict(reversed(list(costs.items()))), 3) == plan_observations(costs, 3)


def test_a_planned_write_is_always_taken_and_a_probe_waits_for_the_room_then_gives_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Share 3 (budget 300): planned writes (the test's allowance) are taken whatever the others spent; a probe
    (beyond the allowance) takes the free room, waits while another worker's probe holds it, and gives up once an
    accepted probe keeps it (such a target accepts what the description says it refuses)."""
    import qaconform.target.writes as writes

    monkeypatch.setattr(writes, "PROBE_WAIT_S", 3.0)  # room for the 0.1 s timer on a loaded machine (CI beside others)
    path = tmp_path / "w.json"
    first, second = WriteBudget(300, path), WriteBudget(300, path)
    first.start_test(OBSERVATIONS, 2)
    assert first.reserve() and first.reserve(), "two planned writes"
    second.start_test(OBSERVATIONS, 0)
    assert second.reserve(), "the probe takes the one write of room"
    first.start_test(OBSERVATIONS, 0)
    assert not first.reserve(), "the room is held by the other probe in flight"
    threading.Timer(0.1, second.give_back, args=(OBSERVATIONS,)).start()
    assert first.reserve(), "refused, the other probe gave the room back while this one waited"
    first.kept(OBSERVATIONS)
    assert first.spent(OBSERVATIONS) == 3 and not second.reserve(), "an accepted probe keeps the room"
    second.start_test(OBSERVATIONS, 1)
    assert second.reserve() and second.spent(OBSERVATIONS) == 4, "a planned write is still taken (the plan made room)"


# ---- the client's gate -----------------------------------------------------------------------------------

class _Target(BaseHTTPRequestHandler):
    """Answers a POST with 201 unless its path says 400; counts what arrives."""

    seen: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        _Target.seen.append(self.path)
        status = 400 if "refuse" in self.path else 201
        body = json.dumps({"id": len(_Target.seen)}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def target() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Target)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Target.seen = []
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _client(base_url: str) -> ApiClient:
    fixtures = Fixtures(question_id=1, space_id=1)
    profile = Profile(path="p.toml", base_url=base_url, accounts={"member": Account("member", "m", Secret("pw1234"))},
                      fixtures=fixtures)
    return ApiClient(profile, "member", "m", "pw1234", Recorder())


def test_the_client_spends_accepted_writes_gives_back_refused_ones_and_sends_nothing_past_the_budget(
        target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ApiClient, "write_budget", WriteBudget(20, pool="link chains"))  # a share of 1
    monkeypatch.setattr(ApiClient, "budget_spent", None)
    client = _client(target)
    assert client.post("node/5/refuse.json", json={}).status == 400
    assert client.get("question.json").status == 200
    assert client.post("question/1/answer.json", json={"body": "x"}, operation="postAnswer").status == 201
    with pytest.raises(WriteBudgetSpent, match="write budget of link chains is spent"):
        client.post("question/1/answer.json", json={"body": "y"}, operation="postAnswer")
    assert _Target.seen == ["/services/v2/node/5/refuse.json", "/services/v2/question/1/answer.json"]
    assert client.recorder.take_writes() == {
        "operations": {"POST /node/{id}/refuse.json": {"sent": 1, "accepted": 0, "held": 0},
                       "postAnswer": {"sent": 1, "accepted": 1, "held": 1}},
        "pools": {"link chains": {"sent": 2, "accepted": 1, "held": 1}},
    }
    assert client.recorder.take_writes() is None
    assert ApiClient.write_budget is not None and ApiClient.write_budget.spent() == 1


def test_the_plugin_callback_decides_what_a_spent_budget_does(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str, str]] = []

    def spent(pool: str, method: str, url: str) -> None:
        calls.append((pool, method, url))
        raise RuntimeError("skipped")

    monkeypatch.setattr(ApiClient, "write_budget", WriteBudget(0))
    monkeypatch.setattr(ApiClient, "budget_spent", spent)
    with pytest.raises(RuntimeError, match="skipped"):
        _client(target).put("node/7/lock.json")
    assert calls == [(SUITES, "PUT", f"{target}/services/v2/node/7/lock.json")] and _Target.seen == []


def test_a_write_without_an_operation_is_named_by_its_path_template() -> None:
    root = "http://h:1/base/services/v2"
    assert write_label("post", "http://h:1/base/services/v2/answer/12/comment.json?x=1", root) == \
        "POST /answer/{id}/comment.json"
    assert write_label("PUT", "http://h:1/base/services/v2/node/-3/lock.json", root) == "PUT /node/{id}/lock.json"


# ---- the summary --------------------------------------------------------------------------------------------

def test_the_summary_sums_the_tests_writes_per_operation_and_share() -> None:
    tests = [
        {"writes": {"pool": SUITES, "operations": {"postAnswer": {"sent": 3, "accepted": 2, "held": 0}}}},
        {"writes": {"pool": "openapi", "operations": {"postAnswer": {"sent": 2, "accepted": 1, "held": 1},
                                                      "lockNode": {"sent": 1, "accepted": 1}}}},
        {"outcome": "passed"},
    ]
    s = write_summary(tests, {"budget": 100, "limits": limits(100), "thorough": False})
    assert (s["sent"], s["accepted"], s["held"]) == (6, 4, 1)
    assert s["by_operation"] == {"lockNode": {"sent": 1, "accepted": 1, "held": 0},
                                 "postAnswer": {"sent": 5, "accepted": 3, "held": 1}}
    assert s["by_pool"]["openapi"] == {"sent": 3, "accepted": 2, "held": 1, "limit": 2}
    assert writes_text(s) == ("writes: 4 accepted of a budget of 100 (6 sent; openapi 2/2, suites 2/87); "
                              "1 not sent (budget spent)")
    thorough = write_summary(tests[:1], {"budget": None, "limits": limits(None), "thorough": True})
    assert writes_text(thorough) == "writes: 2 accepted with no budget (--thorough) (3 sent; suites 2)"
    for_another_share = {"writes": {"pool": "link chains", "operations": {"postAnswer": {"sent": 2, "accepted": 2}},
                                    "pools": {"openapi": {"sent": 2, "accepted": 2}}}}
    assert write_summary([for_another_share], 100)["by_pool"]["openapi"]["accepted"] == 2
    assert writes_text(write_summary([], None)) == ""


# ---- end to end ---------------------------------------------------------------------------------------------

def _rows(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT (SELECT COUNT(*) FROM nodes) + (SELECT COUNT(*) FROM jobs)").fetchone()[0])


def _strict(text: str) -> Any:
    def refuse(value: str) -> Any:
        raise ValueError(f"not JSON: {value}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.slow
def test_a_run_with_a_small_budget_stops_writing_there_exits_0_and_names_what_it_left_unchecked(
        tmp_path: Path) -> None:
    """--only comments on two workers with --write-budget 6 (suites' share: 5): at most 6 accepted writes, counted by
    the kit and at the target (rows of answers, comments and jobs: a state change adds none), no failed rule."""
    db = tmp_path / "ref.sqlite"
    with ReferenceServer(db=str(db)) as srv:
        before = _rows(db)
        done = subprocess.run(
            [sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", srv.profile_path, "--only", "comments",
             "--write-budget", "6", "--jobs", "2", "--report-dir", str(tmp_path / "run")],
            cwd=ROOT, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
        created_at_target = _rows(db) - before
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    report = _strict((tmp_path / "run" / "report.json").read_text())
    results = _strict((tmp_path / "run" / "results.json").read_text())
    writes = report["writes"]
    assert writes["budget"] == 6 and 0 < writes["accepted"] <= 6, writes
    assert created_at_target <= writes["accepted"], (created_at_target, writes)
    assert writes["held"] > 0, "the comment tests write more than 6 times: some writes must have been held back"
    assert writes["unchecked_rules"], "a spent budget leaves rules unchecked, and the report names them"
    for rid in writes["unchecked_rules"]:
        rule = next(r for r in report["rules"] if r["id"] == rid)
        assert rule["status"] == "skipped" and rule["skip_category"] == "write budget spent"
    assert not report["summary"]["failed_rules"]
    assert any(t.get("skip_kind") == "write budget spent" for t in results["tests"])
    assert results["write_budget"]["budget"] == 6
    assert "writes: " in done.stdout and "accepted of a budget of 6" in done.stdout
    assert [line.startswith("writes: ") for line in done.stdout.splitlines()].count(True) == 1, "printed twice"
    unchecked = [line for line in done.stdout.splitlines() if line.startswith("rules left unchecked (")]
    assert any(writes["unchecked_rules"][0] in line for line in unchecked), unchecked
    assert all("of the write budget spent" in line for line in unchecked), "each line names the spent share"
    assert "(suites share of the write budget spent)" in unchecked[0], "the only share that held writes back"
    page = (tmp_path / "run" / "report.html").read_text()
    assert "accepted of a budget of 6" in page


@pytest.mark.slow  # qaconform run in a subprocess
def test_a_default_run_against_the_reference_server_checks_every_must_rule_within_the_default_budget(
        tmp_path: Path) -> None:
    """Issue 29: `qaconform run` with no profile (the embedded reference server) and no budget option, on two
    workers (the order in which tests ask for the run's shared writes varies most there): every must-rule held,
    none left unchecked by the budget (only observations may be: their share of a default budget is small, and
    --thorough records them all), no write of the suites held back, and at most DEFAULT_WRITE_BUDGET accepted
    writes in all (the cleanup's deletes are not the run's writes)."""
    done = subprocess.run(
        [sys.executable, "-m", "qaconform.commands.cli", "run", "--jobs", "2", "--report-dir", str(tmp_path / "run")],
        cwd=ROOT, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    report = _strict((tmp_path / "run" / "report.json").read_text())
    results = _strict((tmp_path / "run" / "results.json").read_text())
    writes = report["writes"]
    assert writes["budget"] == DEFAULT_WRITE_BUDGET and 0 < writes["accepted"] <= DEFAULT_WRITE_BUDGET, writes
    level = {r["id"]: r["level"] for r in report["rules"]}
    not_observed = [rule for rule in writes["unchecked_rules"] if level[rule] != "observed"]
    assert not_observed == [], writes["unchecked_rules"]
    suites = writes["by_pool"][SUITES]
    assert suites["held"] == 0 and suites["accepted"] <= suites["limit"], suites
    observations = writes["by_pool"][OBSERVATIONS]
    assert observations["accepted"] <= observations["limit"], observations  # held ones: not checked, named above
    budget_skips = [t["nodeid"] for t in results["tests"] if t.get("skip_kind") == "write budget spent"
                    and "suites/properties/" not in t["nodeid"]
                    and not (t.get("rules") and all(level.get(r) == "observed" for r in t["rules"]))]
    assert budget_skips == [], budget_skips
    must = [r for r in report["rules"] if r["level"] == "must"]
    assert must and all(r["status"] == "passed" for r in must), [r["id"] for r in must if r["status"] != "passed"]
    assert f"accepted of a budget of {DEFAULT_WRITE_BUDGET}" in done.stdout


def _observed_rules() -> list[str]:
    """The observed-level rule ids of spec/rules.yaml: a test spends the observations' share only when every rule
    it names is one of these (qaconform.target.writes.pool_for), so ``--only`` with all of them selects every such
    test (and some others, which do no harm)."""
    from qaconform.contract import load_contract

    return sorted(rid for rid, rule in load_contract().rules.items() if rule.level == "observed")


THOROUGH_AREAS = ("permissions",)
"""Rule areas the narrowed thorough run keeps whole besides the observed-level rules: the permission matrix's shared
answers (suites/scenarios/permission_calls.py, ``Scene.member_answer`` and ``moderator_answer``) are charged to the
test that asks for them first, which in a whole run is one of the matrix's must-level cells; without them an
observation cell asks first and is charged a write its marker does not declare."""


@pytest.mark.slow
def test_a_thorough_run_keeps_every_observation_test_within_its_declared_writes(tmp_path: Path) -> None:
    """The observations' plan is only as good as each test's ``accepted_writes`` marker: with --thorough (no limit,
    every observation test runs) no observation test's own body has more writes accepted by the reference server
    than it declares, and the run exits 0 with no rule failed.

    The run holds only the tests this judges: ``--only`` every observed-level rule (every test of the observations'
    share names only those), without suites/properties (the generated tests spend their own shares, never the
    observations', and at --thorough's full example counts they were most of a whole run's 150 to 185 s), plus the
    rules of THOROUGH_AREAS so the shared writes are charged as in a whole run."""
    observed = _observed_rules()
    assert observed, "spec/rules.yaml has observed-level rules"
    done = subprocess.run(
        [sys.executable, "-m", "qaconform.commands.cli", "run", "--thorough", "--jobs", "2", "--report-dir",
         str(tmp_path / "run"), "--only", *THOROUGH_AREAS, *observed,
         "--", f"--ignore={ROOT / 'suites' / 'properties'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    results = _strict((tmp_path / "run" / "results.json").read_text())
    assert not [t["nodeid"] for t in results["tests"] if "suites/properties/" in t["nodeid"]], "generated tests ran"
    observing = [t for t in results["tests"] if (t.get("writes") or {}).get("pool") == OBSERVATIONS]
    assert observing, "the observation tests that write report their share"
    over = {t["nodeid"]: (t["writes"]["pools"].get(OBSERVATIONS, {}).get("accepted", 0), t["writes"].get("allowance"))
            for t in observing
            if t["writes"]["pools"].get(OBSERVATIONS, {}).get("accepted", 0) > (t["writes"].get("allowance") or 0)}
    assert over == {}, f"(accepted, declared) of tests whose accepted_writes marker is too small: {over}"
    assert not _strict((tmp_path / "run" / "report.json").read_text())["summary"]["failed_rules"]


def test_a_refused_writes_test_probes_into_the_refusals_share_once_the_suites_share_is_spent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 44: once the suites' 80 accepted writes were made, 40 requests a conforming target refuses (jobs dated
    in the past, bodies that are not JSON) were not sent, so which of them ran depended on the order of the tests.
    A ``refused_writes`` test sends them as probes into the refusals' share; a target that accepts them fills it."""
    import qaconform.target.writes as writes

    monkeypatch.setattr(writes, "PROBE_WAIT_S", 0.2)
    budget = WriteBudget(100, tmp_path / "w.json")
    budget.start_test(SUITES)
    for _ in range(87):
        assert budget.reserve_from() == SUITES
        budget.kept(SUITES)
    assert budget.reserve_from() is None, "a plain suites' write waits for nothing: the share is spent"
    budget.start_test(SUITES, refusals=True)
    assert budget.reserve_from() == REFUSALS, "a refusal goes out as a probe"
    budget.give_back(REFUSALS)
    assert budget.spent(REFUSALS) == 0, "refused, as a conforming target does: it cost nothing"
    assert budget.reserve_from() == REFUSALS
    budget.kept(REFUSALS)
    assert budget.reserve_from() is None, "a target that accepted a refusal has filled the share (budget19: 1 of 100)"
    assert sum(budget.all_spent().values()) == 88 <= DEFAULT_WRITE_BUDGET
