"""How each test ends, as fields: its rules, status (failed, warning, blocked, error ...), exchanges, writes and
created ids, written to the results file (``--qaconform-results``) with why a run stopped early and what could
not be collected. ``qaconform.report`` reads that file; nothing reads pytest's terminal output.

PYTEST_DONT_REWRITE: plugin code, no assertion to explain; ``qaconform.pytest.plugin`` imports it before pytest
loads it as a plugin, so pytest would otherwise warn on every run that it cannot rewrite it."""

from __future__ import annotations

import contextlib
import json
import platform
import time
from collections.abc import Generator, Iterator
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from qaconform import exitcodes
from qaconform.pytest.exchange_log import take_judged
from qaconform.pytest.markers import AREAS
from qaconform.pytest.outcomes import RuleFailure, SkipKind, skip, skip_of
from qaconform.pytest.properties.plugin import generation
from qaconform.pytest.redaction import MESSAGE_PROP, personalise_report, scrub_report
from qaconform.pytest.run_state import _PROP, RunState, Stopped, _first, _in_suites, _props, _rule_ids, _stop, state
from qaconform.pytest.session_target import Target, budget_of, pool_of
from qaconform.status import Status
from qaconform.target.client import ApiClient, Recorder, TargetError, TargetUnreachable
from qaconform.target.curl_line import cut_outside_curl
from qaconform.target.unusable_answer import call_line
from qaconform.target.writes import (
    KIT_TESTS,
    OBSERVATIONS,
    SUITES,
    WriteBudget,
    plan_observations,
    share_text,
    write_summary,
    writes_text,
)
from qaconform.vocabulary import StopReason


def _attach_created(item: pytest.Item) -> None:
    """List what the client saw created (every 201 to a POST) under this test, unless a test already registered it:
    the report's list of created content must not depend on every test calling ``created.add``."""
    holder = state(item.config).holder
    if holder.target is None or not holder.target.recorder.created:
        return
    new, holder.target.recorder.created = holder.target.recorder.created, []
    listed = state(item.config).created_ids
    listed |= {str(v.get("id")) for k, v in item.user_properties if k == _PROP + "created" and isinstance(v, dict)}
    mine = {str(v.get("id")): v for k, v in item.user_properties if k == _PROP + "created" and isinstance(v, dict)}
    for entry in new:
        if str(entry["id"]) not in listed:
            listed.add(str(entry["id"]))
            item.user_properties.append((_PROP + "created", {**entry, "test": item.nodeid}))
        elif str(entry["id"]) in mine and entry.get("url"):  # registered by the test: add where it was posted
            mine[str(entry["id"])].setdefault("url", entry["url"])  # (the cleanup reads a comment's parent there)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before any fixture of the test (session ones too): the share of the write budget its writes are taken from."""
    budget = ApiClient.write_budget
    if budget is None:
        return
    if not _in_suites(item):
        # the kit's own tests (a plain `pytest` collects tests/ beside suites/) write to servers of their own: counted
        # apart and never refused, so they spend nothing of the suites' share
        budget.start_test(KIT_TESTS)
        budget.overdraft = True
        return
    pool = pool_of(item)
    if pool == OBSERVATIONS and not item.config.getoption("qc_read_only", False):  # (read-only: no write is sent)
        plan = _observation_plan(item, budget)
        if item.nodeid not in plan and _accepted_writes(item) > 0:  # a test of no accepted write is always planned
            budget.start_test(pool, 0)
            share = share_text(budget.limit(OBSERVATIONS), budget.budget)
            planned = "holds no write" if budget.limit(OBSERVATIONS) == 0 else \
                "is planned for the cheapest observations of this run"  # "0 ... is planned" read as a plan of 0
            skip(SkipKind.WRITE_BUDGET, f"write budget spent: the observations' share ({share}) {planned}, and this "
                 f"one needs {_accepted_writes(item)} (a larger --write-budget, or --thorough, records it)")
        # the fixtures' writes (content the test reads, made for whichever test asks first) are the suites': only
        # what the test's own body sends is planned, so the plan does not depend on which test came first
        budget.start_test(SUITES)
        return
    budget.start_test(pool, refusals=item.get_closest_marker("refused_writes") is not None)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    """An observation test's body: its writes come from its planned allowance of the observations' share."""
    budget = ApiClient.write_budget
    if budget is not None and pool_of(item) == OBSERVATIONS:
        budget.start_test(OBSERVATIONS, _observation_plan(item, budget).get(item.nodeid, 0))


def _accepted_writes(item: pytest.Item) -> int:
    """The test's ``accepted_writes`` marker: the most writes a conforming target accepts from it (0: none)."""
    marker = item.get_closest_marker("accepted_writes")
    return int(marker.args[0]) if marker and marker.args else 0


def _observation_plan(item: pytest.Item, budget: WriteBudget) -> dict[str, int]:
    """The run's plan for the observations' share (qaconform.target.writes.plan_observations), made once per process
    from the same collected tests on every worker, so every worker and every run of the command agree on it. Only
    the tests that may write are in it: plan_observations plans every test of no accepted write (it spends no room),
    and asking each of a run's ~9,300 tests for its pool first cost each worker ~0.2 s of CPU (speed21)."""
    run = state(item.config)
    if run.observation_plan is None:
        costs = {i.nodeid: cost for i in item.session.items
                 if (cost := _accepted_writes(i)) > 0 and pool_of(i) == OBSERVATIONS}
        run.observation_plan = plan_observations(costs, budget.limit(OBSERVATIONS))
    return run.observation_plan


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    if call.when == "setup":
        item.user_properties.append((_PROP + "rules", _rule_ids(item)))
        cell = item.get_closest_marker("cell")
        if cell is not None and cell.args:  # crossing10 (issue 44): the crossing cell it judges, counted from results
            item.user_properties.append((_PROP + "cell", {"family": str(cell.args[0]), **cell.kwargs}))
    if call.when in ("setup", "call"):
        _attach_created(item)
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    judged = take_judged()  # this phase's cached answers judged again (qaconform.pytest.exchange_log)
    holder = state(item.config).holder
    if (call.when == "call" or (call.when == "setup" and not report.passed)) and holder.target is not None:
        settles = holder.target.recorder.take_settles()
        if settles:  # the test's read-backs after writes (support.settle), its fixtures' included
            report.user_properties.append((_PROP + "settle", settles))
        held = holder.target.recorder.take_holds()
        if held:  # the test's hold-backs (429, 503 with Retry-After) and the time they cost
            report.user_properties.append((_PROP + "held_back", held))
        writes = holder.target.recorder.take_writes()
        if writes:  # the test's writes per operation (its fixtures' included), and the share they came from
            budget = ApiClient.write_budget
            allowance = {"allowance": budget.allowance} if budget is not None and budget.allowance is not None else {}
            report.user_properties.append((_PROP + "writes", {"pool": pool_of(item), **allowance, **writes}))
    state(item.config).created_ids.update(
        str(v.get("id")) for v in _props(report, "created") if isinstance(v, dict))
    typed_skip = skip_of(call.excinfo.value) if report.skipped and call.excinfo is not None else None
    if typed_skip is not None:
        report.user_properties.append((_PROP + "skip", {
            "kind": typed_skip.kind.value, "fixtures": list(typed_skip.fixtures),
            "met": list(typed_skip.met) if typed_skip.met else None, "detail": typed_skip.detail}))
    if report.failed:
        kind = Status.ERROR
        if call.excinfo is not None and isinstance(call.excinfo.value, RuleFailure):
            broke = call.excinfo.value
            report.user_properties.append((_PROP + "failure", {
                "rules": list(broke.rules), "curl": broke.curl,
                # the exchange that proved it: the evidence, whichever request the test sent last
                "exchange": broke.exchange.as_dict() if broke.exchange is not None else None}))
        error = call.excinfo.value if call.excinfo is not None else None
        reproduce = error.curl if isinstance(error, TargetError) and error.curl else (
            judged[-1].curl if judged else None)
        if reproduce:
            # how to send again the request the failure met, as a field, for a test that recorded no exchange of its
            # own: an answer the kit could not use (a session fixture's request), else the last cached answer judged
            report.user_properties.append((_PROP + "reproduce", reproduce))
        if call.excinfo is not None and call.excinfo.errisinstance(AssertionError):
            kind = Status.FAILED  # the target broke a rule (TargetError and RuleFailure are AssertionErrors too)
            # the message as the test wrote it: pytest's crash line puts the class path in front
            # ("qaconform.target.client.TargetError: [RULE] ..."), which every output showed as the failure's first
            # words (qa16); a kit error (KeyError, TypeError) keeps its class: that is what the kit's user reports
            report.user_properties.append((MESSAGE_PROP, cut_outside_curl(str(call.excinfo.value), 2000)))
        elif call.excinfo is not None and call.excinfo.errisinstance(TargetUnreachable):
            kind = _target_gone(item, call, report)
        if kind is Status.FAILED:
            kind = _blame(item, call, report)
        report.user_properties.append((_PROP + "kind", kind.value))  # plain str: xdist carries no enum
        if holder.target is not None:
            exchanges = [e.as_dict() for e in holder.target.recorder.exchanges[-8:]]
            report.user_properties.append((_PROP + "exchanges", exchanges))
    if holder.target is not None and (report.longrepr is not None or report.sections):
        personalise_report(report, holder.target.curl_accounts)  # the terminal's curls as the report writes them
        scrub_report(report, holder.target.recorder.redact)  # last: what the hooks above wrote is scrubbed too


def pytest_report_teststatus(report: pytest.TestReport,
                             config: pytest.Config) -> tuple[str, str, tuple[str, dict[str, bool]]] | None:
    """A should-rule's warning is WARNING on pytest's own terminal too (a rerun of the report's command shows the
    status the report gave), not SKIPPED; with --strict-should it stays a failure."""
    if report.when == "call" and report.skipped and _props(report, "warning"):
        return Status.WARNING.value, "W", ("WARNING", {"yellow": True})
    return None


def _blame(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> Status:
    """A failure whose message names none of the test's rules but names rule X (a fixture, or a step the test
    needed first, met X broken) blocks the test: "blocked"
    with ``blocked_by`` X, charged to X, not to the test's own rules. A failure charged only to should-level rules
    is a warning: the test shows as skipped and the results keep it as failed (the report lists it apart), unless
    --strict-should."""
    from qaconform.blame import rules_named
    from qaconform.contract import load_contract

    rules = load_contract().rules
    error = call.excinfo.value if call.excinfo is not None else None
    message = str(error) if error is not None else ""
    own = _rule_ids(item)
    # a RuleFailure says which rules broke, and so does a TargetError whose call alone broke one (a 2xx that is not
    # JSON: qaconform.target.unusable_answer); a plain assertion names them at the start of its message
    if isinstance(error, RuleFailure) or (isinstance(error, TargetError) and error.rules):
        named = [r for r in error.rules if r in rules]
    else:
        named = rules_named(message, rules)
    named_own = [r for r in named if r in own] if call.when == "call" else []
    if not named_own:
        # a fixture, or a step the test needed before its own check (posting the answer it acts on, locking the
        # node it posts under), failed on another rule: the test could not run; that rule is charged, not the
        # test's own, and the call that failed is named once for the report's blocked line
        if named:
            report.user_properties.append((_PROP + "blocked_by", named))
            failed_call = _failed_call(error)
            if failed_call:
                report.user_properties.append((_PROP + "blocked_call", failed_call))
            return Status.BLOCKED
    charged = named_own or own
    only_should = bool(charged) and all(r in rules and rules[r].level == "should" for r in charged)
    if only_should and not item.config.getoption("qc_strict_should"):
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0, cut_outside_curl(
            f"should-level warning ({', '.join(charged)}; fails the run only with --strict): "
            f"{message.splitlines()[0] if message else ''}", 2000))
        report.user_properties.append((_PROP + "warning", charged))
    return Status.FAILED


def _failed_call(error: BaseException | None) -> str | None:
    """The call a blocked test's step failed on, in one line (``PUT /services/v2/node/99/lock.json as member ->
    200``): a TargetError's own, else the exchange a RuleFailure names."""
    if isinstance(error, TargetError):
        return error.call
    exchange = error.exchange if isinstance(error, RuleFailure) else None
    if exchange is None:
        return None
    return call_line(exchange.method, exchange.url, exchange.status, exchange.role)


def _target_gone(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> Status:
    """A test met no answer at all: it is blocked (never failed: no rule was judged), and shows as skipped with
    why. If the target still answers a probe it dropped this one request and the run goes on (the verdict is still
    exit 3: the target did not answer); if not, it stopped answering, and the run ends after this test."""
    message = str(call.excinfo.value) if call.excinfo is not None else "no answer"
    report.user_properties.append((_PROP + "unreachable", message[:2000]))
    report.outcome = "skipped"
    report.longrepr = (str(item.path), item.location[1] or 0, f"blocked: the target gave no answer ({message})"[:2000])
    holder = state(item.config).holder
    if holder.target is None:
        return Status.BLOCKED
    from qaconform.contract import path

    probe = ApiClient(holder.target.profile, "anonymous", None, None, Recorder())
    try:
        probe.get(path("listQuestions"), params={"pageSize": 1})
    except TargetUnreachable:
        state(item.config).gone = message
    except TargetError:
        pass
    finally:
        probe.close()
    return Status.BLOCKED


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield
    run = state(item.config)
    if run.gone:
        base = run.holder.target.profile.base_url if run.holder.target else "the target"
        _stop(item.config, StopReason.UNREACHABLE, f"target {base} stopped answering during the run: {run.gone}",
              exitcodes.PYTEST_UNREACHABLE)
    budget = item.config.getoption("qc_timeout", None)
    if budget is not None and nextitem is not None and time.time() - run.started > budget:
        _stop(item.config, StopReason.TIME_BUDGET, f"the suites did not finish within --timeout {budget:g} s and were "
              "stopped; results are partial", int(pytest.ExitCode.INTERRUPTED))


class _Reporter:
    """The hooks that collect results: a plugin object holding its config (``pytest_runtest_logreport`` gets only
    the report), registered at configure time."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.worker = hasattr(config, "workerinput")
        """An xdist worker: its reports go to the controller, which makes the entries and writes the file (cpu8,
        issue 44: a worker made an entry of every report for nobody, ~4,850 a run)."""

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.worker:
            return
        entry = _entry(report)
        if entry is None:
            return
        run = state(self.config)
        if entry.get("skip_kind") == SkipKind.WRITE_REFUSED and not {"writes", "destructive"} & set(report.keywords):
            run.unmarked_writers.append(report.nodeid)
        entry["created"] = _new_created(run, report)
        run.results.append(entry)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """A module or class pytest could not collect (the kit is broken there; the rest still runs), as data."""
        if report.failed:
            crash = getattr(report.longrepr, "reprcrash", None)
            lines = str(report.longrepr).strip().splitlines() or ["(no message)"]
            text = str(crash.message) if crash is not None else lines[-1]
            state(self.config).collection_errors.setdefault(report.nodeid or "<session>", text[:2000])

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The writes of the run against its budget; under --read-only: tests that tried to write without the
        ``writes`` marker (their writes were refused all the same, but ``qaconform run --dry-run`` lists writing
        tests by that marker, so it missed these).

        The ``writes:`` line only when pytest runs without a results file (``python -m pytest suites``): with one,
        ``qaconform run`` prints the same line in its own summary from that file, and a user read it twice."""
        holder = state(self.config).holder
        if (holder.target is not None and not self.config.getoption("qc_results")
                and any(r.get("writes") for r in state(self.config).results)):
            data = _budget_data(self.config, holder.target)
            terminalreporter.write_line(writes_text(write_summary(state(self.config).results, data)))
        unmarked = state(self.config).unmarked_writers
        if unmarked:
            terminalreporter.write_sep("-", f"{len(unmarked)} test(s) write without the writes marker")
            for nodeid in unmarked:
                terminalreporter.write_line(nodeid)

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        path = self.config.getoption("qc_results")
        if not path or hasattr(self.config, "workerinput"):
            return
        run = state(self.config)
        holder = run.holder
        stopped = run.stopped or _stopped_by_pytest(int(exitstatus))
        payload = {
            "run_tag": self.config.getoption("qc_run_tag"),
            "started": datetime.fromtimestamp(run.started, UTC).isoformat(),
            "finished": datetime.now(UTC).isoformat(),
            "exitstatus": int(exitstatus),
            "stopped": asdict(stopped) if stopped else None,
            "collection_errors": [{"nodeid": n, "message": m} for n, m in run.collection_errors.items()],
            "target": holder.target.profile.redacted() if holder.target else None,
            "doctor": holder.target.diagnosis.as_dict() if holder.target else None,
            "consumed": _consumed_by(holder.target, self.config.getoption("qc_run_tag")),
            "reference": bool(holder.target and holder.target.started_reference),
            "write_budget": _budget_data(self.config, holder.target),
            "generation": generation(self.config),
            "versions": _versions(),
            "tests": run.results,
        }
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        text = _results_text(payload)
        if holder.target:
            text = holder.target.recorder.redact(text)
        Path(path).write_text(text)


def _results_text(payload: dict[str, Any]) -> str:
    """The results file's text. orjson writes it (a run's 2 MB in 1 ms, where ``json.dumps`` with an indent, which is
    pure Python, took 60 ms of the controller's CPU at the end of every run), anything it does not know
    as its ``str``, as ``json.dumps(default=str)`` did; what it refuses (an integer beyond 64 bits, a key that is
    not a string) ``json.dumps`` still writes."""
    try:
        return orjson.dumps(payload, default=str, option=_ORJSON_AS_JSON | orjson.OPT_INDENT_2).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(payload, indent=1, default=str)


_ORJSON_AS_JSON = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
"""What orjson would write its own way (a dataclass as an object, a datetime in its own form), handed to
``default=str`` as ``json.dumps`` does."""


def _budget_data(config: pytest.Config, target: Target | None) -> dict[str, Any] | None:
    """The run's write budget and its shares for the results file (the report sums the tests' ``writes``)."""
    if target is None:
        return None
    budget = WriteBudget(budget_of(config, target.profile))
    return {"budget": budget.budget, "limits": budget.limits, "thorough": bool(config.getoption("qc_thorough"))}


def _consumed_by(target: Target | None, run_tag: str | None) -> list[dict[str, Any]]:
    """The one-shot fixtures this run consumed, from the record its one-shot calls kept beside the profile."""
    if target is None or not run_tag:
        return []
    from qaconform.target import ledger

    return [asdict(c) for c in ledger.of_run(target.profile.path, target.profile.base_url, run_tag)]


def _stopped_by_pytest(exitstatus: int) -> Stopped | None:
    """pytest's own reasons to stop early (when the plugin did not stop the run itself)."""
    reasons = {pytest.ExitCode.INTERRUPTED: (StopReason.INTERRUPTED,
                                             "the run was interrupted (Ctrl-C, or a collection error)"),
               pytest.ExitCode.INTERNAL_ERROR: (StopReason.INTERNAL, "pytest hit an internal error (see its output)"),
               pytest.ExitCode.USAGE_ERROR: (StopReason.USAGE, "pytest refused the command line or the suites"),
               pytest.ExitCode.NO_TESTS_COLLECTED: (StopReason.NO_TESTS, "no test was collected")}
    found = reasons.get(pytest.ExitCode(exitstatus)) if exitstatus in {int(c) for c in pytest.ExitCode} else None
    return Stopped(*found) if found else None


def _entry(report: pytest.TestReport) -> dict[str, Any] | None:
    """One test's result as the results file holds it, or None for a report phase that adds nothing."""
    entry: dict[str, Any] | None = None
    warned = bool(_props(report, "warning"))  # a should-level failure shown as skipped: still failed in the results
    unreachable = _first(_props(report, "unreachable"), None)  # no answer: shown as skipped, blocked in the results
    quiet = report.skipped and not warned and not unreachable  # a plain skip
    if report.when == "setup" and (report.failed or report.skipped):
        entry = {"outcome": Status.SKIPPED if quiet else _first(_props(report, "kind"), Status.ERROR)}
    elif report.when == "call":
        entry = {"outcome": Status.PASSED if report.passed else (
            Status.SKIPPED if quiet else _first(_props(report, "kind"), Status.ERROR))}
    elif report.when == "teardown" and report.failed:
        entry = {"outcome": Status.ERROR}
    if entry is None:
        return None
    if warned and entry["outcome"] == Status.FAILED:
        entry["outcome"] = Status.WARNING  # the name every output gives it (qaconform.status)
    observations = _props(report, "observation")
    if entry["outcome"] == Status.PASSED and observations:
        entry["outcome"] = Status.OBSERVED
    entry.update(
        nodeid=report.nodeid,
        when=report.when,
        rules=next(iter(_props(report, "rules")), []),
        areas=[k for k in AREAS if k in report.keywords],
        duration=round(report.duration, 4),
        message=_message(report),
        longrepr=str(report.longrepr)[-4000:] if report.failed else None,
        exchanges=next(iter(_props(report, "exchanges")), []),
        observations=observations,
    )
    blocked_by = next(iter(_props(report, "blocked_by")), None)
    if blocked_by:
        entry["blocked_by"] = blocked_by
        blocked_call = next(iter(_props(report, "blocked_call")), None)
        if blocked_call:  # the call whose answer broke blocked_by: the report's one line for the blocked tests
            entry["blocked_call"] = blocked_call
    failure = next(iter(_props(report, "failure")), None)
    if failure:  # a RuleFailure: the rules it names and the curl of its exchange, as fields
        entry["failure"] = failure
    reproduce = next(iter(_props(report, "reproduce")), None)
    if reproduce:  # a TargetError's curl: the request whose answer the kit could not use
        entry["reproduce"] = reproduce
    skipped = next(iter(_props(report, "skip")), None)
    if unreachable:
        entry["unreachable"] = unreachable
    if entry["outcome"] == Status.SKIPPED and not warned:
        entry["skip_kind"] = SkipKind.of(skipped["kind"] if skipped else None).value
        if skipped and skipped["fixtures"]:
            entry["needs_fixtures"] = skipped["fixtures"]
        if skipped and skipped.get("met"):  # a one-shot node an earlier run consumed (qaconform.pytest.one_shots)
            entry["met_consumed"] = {"fixture": skipped["met"][0], "node": skipped["met"][1]}
        if skipped and skipped.get("detail"):  # the facts that vary between builds, kept out of the reason
            entry["skip_detail"] = skipped["detail"]
    if warned:
        entry["warning"] = True
    cell = next(iter(_props(report, "cell")), None)
    if cell:
        entry["cell"] = cell
    settle = next(iter(_props(report, "settle")), None)
    if settle:
        entry["settle"] = settle
    writes = next(iter(_props(report, "writes")), None)
    if writes:
        entry["writes"] = writes
    held = next(iter(_props(report, "held_back")), None)
    if held:
        entry["held_back"] = held
    return entry


def _new_created(run: RunState, report: pytest.TestReport) -> list[Any]:
    """Created entries not yet in the results: a test that reports several times (schemathesis sub-tests, each with
    its own node id) carries every earlier entry of its item again in each report. One object, one entry."""
    out = []
    for c in _props(report, "created"):
        if not isinstance(c, dict) or c.get("id") is None:
            out.append(c)  # no id to tell it apart: keep it
            continue
        key = (str(c.get("kind")), str(c.get("id")))
        if key not in run.created_emitted:
            run.created_emitted.add(key)
            out.append(c)
    return out


def _message(report: pytest.TestReport) -> str | None:
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    if report.failed:
        told = next(iter(_props(report, "message")), None)
        if isinstance(told, str) and told.strip():  # a failure the target caused, without the exception's class path
            return told
        crash = getattr(report.longrepr, "reprcrash", None)
        if crash is not None:
            return cut_outside_curl(str(crash.message), 2000)
        return str(report.longrepr)[-500:]
    return None


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {"python": platform.python_version()}
    for dist in ("qaconform", "pytest", "schemathesis", "hypothesis", "requests", "jsonschema"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            out[dist] = metadata.version(dist)
    return out
