"""From a results file to the report's data: one status per rule, with the evidence behind it.

This is the only place that decides a rule's status, so that junit, json, html, the terminal summary, the diff
and the exit code can never disagree. The taxonomy (never blur "the server is wrong" with "the kit broke"):

- ``failed``: at least one of its tests failed (an assertion about the target did not hold);
- ``error``: none failed, but the kit broke in at least one (an exception that is not an assertion);
- ``observed``: an observed-level rule whose tests recorded what the target does;
- ``passed``: its tests passed (a must-rule held);
- ``skipped``: every test of it was skipped, with the reasons (missing fixture, not allowed by safety,
  disabled by configuration, not selected by ``--only``);
- ``not covered``: no test names it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from qaconform import __version__
from qaconform.contract import Rule
from qaconform.report import holdbacks
from qaconform.report.coverage import rules_checked
from qaconform.report.expect import Expectation
from qaconform.report.observation_words import silence, summarise
from qaconform.report.records import JsonObject, Results, TestResult
from qaconform.report.redact import redact
from qaconform.report.reproduce import accounts_for_curls, personal_curl, personalise_text, rerun_commands
from qaconform.report.rule_groups import ReasonGroup, blocked_groups, grouped_reasons, skipped_groups
from qaconform.report.tallies import (
    fixtures_used,
    merge_tests,
    needed_fixtures,
    settle_summary,
    settle_text,
    writes_report,
)
from qaconform.report.verdict import first_stop, verdict
from qaconform.status import OUTCOMES, STATUSES, Effect, Status, fails_run
from qaconform.vocabulary import SkipCategory, SkipKind

FORMAT = "qaconform-report/1"
_EVIDENCE_CURLS = 3
__all__ = ["FORMAT", "OUTCOMES", "STATUSES", "build_report", "canonical", "settle_text", "verdict"]


def load_rules() -> list[Rule]:
    """Every rule of spec/rules.yaml, through the contract loader (the single reader of spec/)."""
    from qaconform.contract import load_contract

    return [Rule.of(r) for r in load_contract().rules.values()]


# ----------------------------------------------------------------------------------------------------------
# tests

def rule_skip_category(kinds: Iterable[SkipKind]) -> str:
    """The reason family of a skipped rule, as the summary groups them: the foremost family among its skips
    (:class:`qaconform.vocabulary.SkipCategory` holds the order, the held-back family included)."""
    return SkipCategory.first({k.category for k in kinds}).value


def _curl_of(test: TestResult) -> list[str]:
    """The curl lines of a test: from its recorded exchanges, the failure's own last (its exchange is the evidence,
    whatever the test sent after it), else the ``reproduce`` field (the curl of an answer the kit could not use: a
    request made by a session fixture was recorded before the test began). Never read out of the message."""
    curls = [str(x.get("curl")) for x in test.exchanges if x.get("curl")]
    failure = test.failure
    if failure is not None and failure.curl:  # the request that failed is the last one shown
        return [c for c in curls if c != failure.curl] + [failure.curl]
    if curls:
        return curls
    return [test.reproduce] if test.reproduce else []


# ----------------------------------------------------------------------------------------------------------
# selection (--only)

@dataclass(frozen=True)
class Selection:
    """What ``--only`` asked for: marker areas and rule ids (``COMMENT-*`` prefixes allowed). Empty: everything."""

    areas: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    @classmethod
    def of(cls, data: Mapping[str, Any] | None) -> Selection:
        data = data or {}
        return cls(tuple(data.get("areas") or ()), tuple(data.get("rules") or ()))

    @property
    def everything(self) -> bool:
        return not self.areas and not self.rules

    def names(self, rule: Rule) -> bool:
        """Whether the selection explicitly asks for this rule (by id, prefix, or the rule's area)."""
        if self.everything:
            return True
        if rule.area in self.areas:
            return True
        return any(rule.id == p or (p.endswith("*") and rule.id.startswith(p[:-1])) for p in self.rules)

    def describe(self) -> str:
        return " ".join([*self.areas, *self.rules]) or "everything"


# ----------------------------------------------------------------------------------------------------------
# the report

def build_report(
    results: Results | Mapping[str, Any],
    rules: Iterable[Any] | None = None,
    *,
    expectations: Mapping[str, Expectation] | None = None,
    meta: Mapping[str, Any] | None = None,
    load: Mapping[str, Any] | None = None,
    secrets: Iterable[str] = (),
) -> dict[str, Any]:
    """The content of report.json (already redacted).

    ``meta`` is what the runner knows beyond the results file: run_id, selection, read_only, dry_run, kit_errors,
    pytest_exit, load, coverage (coverage_plugin's file) and stopped (the runner's own reason when it stopped the
    suites: ``--timeout``, Ctrl-C, pytest refusing the arguments). The exit code comes from these fields and the
    results' ``stopped`` and ``collection_errors`` (:mod:`qaconform.report.verdict`). ``results``: the results file's
    content, read into its records here (:meth:`qaconform.report.records.Results.of`)."""
    data = Results.of(results)
    meta = dict(meta or {})
    expectations = dict(expectations or {})
    catalog = [Rule.of(r) for r in (rules if rules is not None else load_rules())]
    tests = merge_tests(data.tests)
    selection = Selection.of(meta.get("selection"))
    how = dict(meta.get("rerun") or {})
    accounts = accounts_for_curls(data.target, how)
    for t in tests:
        _personalise(t, accounts)
    by_rule = _tests_by_rule(tests)
    observations = _observations(tests, {r.id: r for r in catalog})
    known = {r.id for r in catalog}
    unknown = sorted(set(by_rule) - known)
    catalog += [Rule(id=rid, level="must", area="unknown", summary="(this id is not in spec/rules.yaml)")
                for rid in unknown]
    coverage = meta.get("coverage")
    collected = coverage.get("rules") if isinstance(coverage, Mapping) else None
    stop = first_stop(meta.get("stopped"), {"reason": data.stopped.reason} if data.stopped else None)
    stopped = stop["reason"] if stop and not collected else None  # stopped before any test was collected
    rule_entries: list[dict[str, Any]] = []
    whys: dict[str, str] = {}  # why each rule went unchecked, short enough to group by (coverage.json)
    for r in catalog:
        given = _verdict_of_tests(r, by_rule[r.id], observations.get(r.id, []), bool(meta.get("read_only"))) \
            if by_rule.get(r.id) else _verdict_without_tests(r, selection, None if collected is None
                                                            else collected.get(r.id, []), stopped)
        whys[r.id] = given.why or given.reason or given.status.value
        rule_entries.append(_rule_entry(r, given, by_rule.get(r.id, []), observations.get(r.id, []),
                                        expectations.get(r.id), how))
    if not meta.get("strict"):  # a should-rule that failed is a warning on a run that is not --strict
        for e in rule_entries:
            if e["status"] == Status.FAILED and e["level"] == "should":
                e["status"] = Status.WARNING.value
    report: dict[str, Any] = {
        **_run_header(data, meta, selection),
        "summary": _summary(rule_entries, tests, strict=bool(meta.get("strict"))),
        "rules": rule_entries,
        "observations": {rid: obs for rid, obs in sorted(observations.items())},
        "created": [c for t in tests for c in t.created] + list(meta.get("created_unfinished") or []),
        "fixtures": fixtures_used(data),
        "tests": [_test_full(t, how) for t in tests],
        "reproduce": _reproduce(accounts, how),
        "unattributed_tests": [_test_brief(t) for t in tests if not t.rules],
        "unknown_rules": unknown,
        "expectations": {k: v.as_dict() for k, v in expectations.items()},
        "expectations_not_in_rules": sorted(set(expectations) - known - set(unknown)),
        "load": dict(load) if load else None,
        "kit_errors": [*(meta.get("kit_errors") or []), *_collection_errors(data)],
        "stopped": first_stop(meta.get("stopped"), data.stopped.as_dict() if data.stopped else None),
        "pytest_exit": meta.get("pytest_exit", data.exitstatus),
        "execution": _execution(meta.get("execution"), data.target),
        "settle": settle_summary(tests, data.target),
        "held_back": holdbacks.summary(tests),  # 429s and 503s with Retry-After: waited as told, never failed
        "cleanup": meta.get("cleanup"),  # what the run removed of what it created (qaconform.target.cleanup)
        "changed": list(meta.get("changed") or []),  # clean26: state changes no cleanup undoes (created_log.changed)
    }
    report["writes"] = writes_report(tests, data.write_budget, rule_entries)
    if meta.get("created_unfinished"):  # tests a Ctrl-C stopped: their writes are in no test's record
        report["writes"]["unfinished_created"] = len(meta["created_unfinished"])
    report["coverage"] = rules_checked(rule_entries, coverage if isinstance(coverage, Mapping) else None, whys,
                                       tests, report["stopped"],
                                       None if selection.everything else selection.describe())
    report["har"] = dict(meta.get("har") or {})  # node id -> the test's HAR file in the run folder
    if meta.get("fail_under") is not None:  # the threshold is a field of the report: verdict(report) alone decides
        report["fail_under"] = {"pct": meta["fail_under"], "from": str(meta.get("fail_under_from") or "--fail-under")}
    report["exit_code"], report["verdict"] = verdict(report)
    redacted: dict[str, Any] = redact(report, tuple(secrets))
    return redacted


def _collection_errors(results: Results) -> list[str]:
    """The suite modules pytest could not collect (the plugin's ``collection_errors``): the kit is broken there,
    the rest still ran."""
    return [f"{nodeid} could not be collected: {message}" for nodeid, message in results.collection_errors]


def _reproduce(accounts: Mapping[str, Any], how: Mapping[str, Any]) -> dict[str, Any]:
    """How to rerun against the same target: the password variables the curls name, the profile or reference."""
    return {
        "env_variables": {role: acc["password_env"] for role, acc in accounts.items()},
        "profile": how.get("profile"),
        "reference": bool(how.get("reference")),
        "reference_faults": list(how.get("reference_faults") or []),
    }


def _run_header(results: Results, meta: Mapping[str, Any], selection: Selection) -> dict[str, Any]:
    """The first keys of report.json: which run, when, against what, with which kit, on what selection."""
    return {
        "format": FORMAT,
        "run_id": meta.get("run_id"),
        "run_tag": results.run_tag,
        "started": results.started,
        "finished": results.finished,
        "duration_s": _duration(results.started, results.finished),
        "target": _target(results.target),
        "reference": bool(meta.get("reference") or results.reference),
        "versions": {**results.versions, "qaconform-report": __version__},
        "selection": {"areas": list(selection.areas), "rules": list(selection.rules),
                      "read_only": bool(meta.get("read_only")), "dry_run": bool(meta.get("dry_run"))},
        "settings": _settings(results, meta),
    }


def _settings(results: Results, meta: Mapping[str, Any]) -> dict[str, Any]:
    """What decides how deep a run looked: the generated tests' seed and examples, the write budget, --strict.
    ``qaconform diff`` names the ones two runs differ in, since a failure only one of them could find is no
    regression of the target."""
    budget = results.write_budget
    shown: int | str | None = None if budget is None else (
        "unlimited" if budget.thorough or budget.budget is None else budget.budget)
    return {"seed": results.seed, "max_examples": results.max_examples, "write_budget": shown,
            "thorough": bool(budget and budget.thorough), "strict": bool(meta.get("strict"))}


def _tests_by_rule(tests: list[TestResult]) -> dict[str, list[TestResult]]:
    """Each rule's tests, as that rule sees them. Sets each test's ``failed_rules``.

    A failure that names some of its test's rules shows as passed to the others (with a note). A blocked test is
    charged to the rule that blocked it, once (its first blocked test), unless another test failed that rule."""
    by_rule: dict[str, list[TestResult]] = {}
    blockers: dict[str, TestResult] = {}
    for t in tests:
        named = t.named_failed_rules()
        t.failed_rules = sorted(named) if named is not None else (
            list(t.rules) if t.outcome in (Status.FAILED, Status.WARNING) else [])
        for rid in t.rules:
            view = t
            if named is not None and rid not in named:
                view = replace(t, outcome=Status.PASSED, note=f"this test failed on {', '.join(sorted(named))} only")
            by_rule.setdefault(rid, []).append(view)
        if t.outcome is Status.BLOCKED:
            for rid in t.blocked_by:
                note = "a fixture failed on this rule; the tests it blocked did not run"
                blockers.setdefault(rid, replace(t, outcome=Status.FAILED, failed_rules=[rid], note=note))
    for rid, view in blockers.items():
        if not any(v.outcome is Status.FAILED for v in by_rule.get(rid, [])):
            by_rule.setdefault(rid, []).append(view)
    return by_rule


def _execution(given: Any, target: JsonObject | None) -> dict[str, Any]:
    """Workers and politeness limits the run went by: the runner's record, else the limits of the results' profile
    (a plain pytest run); None where there was no limit."""
    out: dict[str, Any] = {"jobs": None, "max_concurrency": None, "max_rps": None, "round_trip_ms": None}
    safety = target.get("safety") if target is not None else None
    if isinstance(safety, Mapping):
        out.update({k: safety.get(k) for k in ("max_concurrency", "max_rps")})
    if isinstance(given, Mapping):
        out.update({k: given.get(k) for k in out if k in given})
    return out


def limits_text(execution: Mapping[str, Any] | None) -> str:
    """One line for the report header and the terminal: how many workers, and the politeness limits."""
    e = execution or {}
    jobs = e.get("jobs")
    workers = f"{jobs} worker{'s' if jobs != 1 else ''}" if jobs else ""
    if workers and e.get("round_trip_ms") is not None:
        workers += f" ({e['round_trip_ms']:g} ms a round trip to the target)"
    limits = [f"at most {e['max_concurrency']} request(s) at once" if e.get("max_concurrency") else "",
              f"at most {e['max_rps']:g} request(s)/s" if e.get("max_rps") else ""]
    # the limits are the profile's ([safety]): "no limit" beside "held back by the target (429)" read as the target's
    shown = ("the profile's limits: " + " and ".join(x for x in limits if x) if any(limits)
             else "the profile sets no concurrency or rate limit ([safety] max_concurrency, max_rps)")
    return f"{workers}; {shown}" if workers else shown


def _observations(tests: list[TestResult], rules: Mapping[str, Rule]) -> dict[str, list[dict[str, Any]]]:
    """Observations grouped by the rule they were recorded for (the test's first rule when none was named), each
    with its words (:mod:`qaconform.report.observation_words`: asked, did, where the description is silent)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for t in tests:
        for o in t.observations:
            rid = str(o.get("rule") or (t.rules[0] if t.rules else "?"))
            facts = o.get("facts", {})
            rule = rules.get(rid) or Rule(id=rid)
            words = summarise(rid, facts if isinstance(facts, Mapping) else {}, silence(rule.source, rule.quote))
            out.setdefault(rid, []).append({"test": t.nodeid, "facts": facts, "summary": words.as_dict()})
    return out


@dataclass(frozen=True)
class _Verdict:
    """A rule's status, why (when its tests alone do not say), and the kinds of its skips."""

    status: Status
    reason: str | None = None
    skip_kinds: tuple[SkipKind, ...] = ()
    why: str | None = None
    """Why the rule went unchecked, short enough to group rules by (coverage.json ``must_rules_not_checked``), made
    here from the same facts as ``reason`` (never read back out of it); None: the reason itself."""
    skip_reasons: tuple[ReasonGroup, ...] = ()
    """Its skipped tests' reasons, grouped with a count (:mod:`qaconform.report.rule_groups`)."""
    blocked_by: tuple[str, ...] = ()
    blocked_call: str | None = None
    """For a blocked rule: the rules a step its tests needed broke, and that step's call (the first one met)."""


_GROUPED_BY_CATEGORY = (SkipCategory.WRITE_BUDGET, SkipCategory.HELD_BACK, SkipCategory.LIST_TOO_LONG,
                        SkipCategory.CONFIGURATION)
"""Skip categories whose reasons carry one test's own figures (its share of the budget, its wait, the list's size):
rules skipped so are grouped by the category; for the others, by the first skip's own reason."""


def _verdict_without_tests(rule: Rule, selection: Selection, collected: list[str] | None,
                           stopped: str | None = None) -> _Verdict:
    """No test of the rule ran: not covered, or skipped because ``--only`` left its tests out. ``stopped``: why the
    run stopped early (interrupted ...): a rule it collected no test of then was not reached, which is not "no test
    names this rule" (said of all 147 must-rules after a Ctrl-C during collection, it read as a broken kit)."""
    why_not = f"not selected by --only {selection.describe()}"
    not_selected = f"disabled by configuration: {why_not}"
    none_named = f"not reached: the run stopped ({stopped}) before its tests were collected" if stopped else \
        "no test names this rule"
    if collected is None:  # the run did not record what it collected: go by the selection alone
        if selection.names(rule):
            return _Verdict(Status.NOT_COVERED, none_named)
        return _Verdict(Status.SKIPPED, not_selected, (SkipKind.CONFIGURATION,), why_not)
    if not collected:
        return _Verdict(Status.NOT_COVERED, none_named)
    if selection.everything:
        return _Verdict(Status.SKIPPED, f"its {len(collected)} test(s) were collected but none ran")
    return _Verdict(Status.SKIPPED, f"{not_selected} ({len(collected)} test(s) exist)", (SkipKind.CONFIGURATION,),
                    why_not)


def _verdict_of_tests(rule: Rule, tests: list[TestResult], observations: list[dict[str, Any]],
                      read_only: bool = False) -> _Verdict:
    """The worst outcome decides: failed, error, then held (passed or observed), blocked, skipped."""
    outcomes = [t.outcome for t in tests]
    if Status.FAILED in outcomes:
        return _Verdict(Status.FAILED)
    if Status.WARNING in outcomes:  # never hides a must-rule: only a should-rule's failure is a warning
        return _Verdict(Status.WARNING if rule.level == "should" else Status.FAILED)
    if Status.ERROR in outcomes:
        return _Verdict(Status.ERROR)
    if any(o in (Status.PASSED, Status.OBSERVED) for o in outcomes):
        return _Verdict(Status.OBSERVED if rule.level == "observed" and observations else Status.PASSED)
    if Status.BLOCKED in outcomes:
        by = sorted({r for t in tests for r in t.blocked_by})
        if not by:  # no rule blocked them: the target gave no answer (plugin: ``unreachable``)
            return _Verdict(Status.BLOCKED, "blocked: the target gave no answer, so its tests could not check it")
        call = next((t.blocked_call for t in tests if t.blocked_call), None)
        return _Verdict(Status.BLOCKED, blocked_reason(by, call), blocked_by=tuple(by), blocked_call=call)
    groups = tuple(grouped_reasons((t.message or "skipped", t.nodeid) for t in tests))
    needed = needed_fixtures(tests) if rule.level == "must" else None
    reason = f"not checked: needs fixture {', '.join(needed)}" if needed else "; ".join(g.text() for g in groups)
    kinds = tuple(t.kind for t in tests)
    first = tests[0].kind.category
    if needed:
        why = f"needs fixture {', '.join(needed)}"
    elif read_only and any(k.category is SkipCategory.SAFETY for k in kinds):
        why = "--read-only"
    elif first in _GROUPED_BY_CATEGORY:
        why = first.value
    else:  # the first skip's own reason, as its test gave it (first line): rules skipped for it are one group
        why = _cut_at_word(groups[0].reason.strip().split("\n")[0]) or first.value
    return _Verdict(Status.SKIPPED, reason, kinds, why, groups)


def blocked_reason(by: list[str], call: str | None) -> str:
    """One line for a blocked rule: the rules a step its tests needed broke, and the call that broke them (the first
    one its tests met), so the reader goes to that call's rule rather than to this one."""
    named = f" ({call})" if call else ""
    return (f"blocked by {', '.join(by)}{named}: its tests could not run because the target broke "
            f"{'it' if len(by) == 1 else 'them'}")


def _cut_at_word(text: str, width: int = 160) -> str:
    """``text`` at most ``width`` long, cut after a whole word and marked " ..." (a summary that ended in "its s,"
    read as a broken kit)."""
    if len(text) <= width:
        return text
    head = text[:width - 3]
    return (head.rsplit(" ", 1)[0] if " " in head else text[:width - 4]).rstrip(" ,;:") + " ..."


def _evidence(rule: Rule, tests: list[TestResult], observations: list[dict[str, Any]],
              how: Mapping[str, Any] | None) -> dict[str, Any]:
    """What a reader needs to see why: each broken test whole (message, curls, rerun), observations, skips."""
    return {
        "failures": [
            {"test": t.nodeid, "outcome": t.outcome.value, "message": t.message,
             "curl": next(reversed(_curl_of(t)), None), "curls": _curl_of(t)[-_EVIDENCE_CURLS:],
             "rerun": rerun_commands(t.nodeid, rule.id, how)}
            for t in tests if _broken(t.outcome)
        ],
        "observations": observations,
        "skips": [{"test": t.nodeid, "reason": t.message, "category": t.kind.category.value}
                  for t in tests if t.outcome is Status.SKIPPED],
    }


def _rule_entry(
    rule: Rule,
    verdict: _Verdict,
    tests: list[TestResult],
    observations: list[dict[str, Any]],
    expectation: Expectation | None,
    how: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """report.json's entry of ``rule``, whose ``verdict`` its tests (or, with none, the selection) gave."""
    status = verdict.status
    entry: dict[str, Any] = {
        "id": rule.id,
        "level": rule.level,
        "area": rule.area,
        "operations": list(rule.operations),
        "since": rule.since,
        "summary": rule.summary,
        "source": rule.source,
        "status": status.value,
        "reason": verdict.reason,
        "skip_category": rule_skip_category(verdict.skip_kinds) if status is Status.SKIPPED else None,
        "skip_reasons": [g.as_dict() for g in verdict.skip_reasons],
        "blocked": {"by": list(verdict.blocked_by), "call": verdict.blocked_call} if verdict.blocked_by else None,
        "not_checked": not_checked(tests),
        "tests": [_test_brief(t) for t in tests],
        "evidence": _evidence(rule, tests, observations, how),
        "timings": {"tests": len(tests), "total_s": round(sum(t.duration for t in tests), 4)},
        "expected": None,
    }
    if expectation is not None:
        state = {"failed": "expected failure", "passed": "unexpectedly passing",
                 "observed": "unexpectedly passing"}.get(status, f"expected failure not exercised ({status})")
        entry["expected"] = {**expectation.as_dict(), "state": state}
    return entry


def not_checked(tests: Iterable[TestResult]) -> list[dict[str, Any]]:
    """The tests of a rule that did not check it because a list was longer than a run walks (SkipKind
    LIST_TOO_LONG), with the list and its size: listed beside the rule even when its other tests held it, so that a
    relation left unchecked is never read as held."""
    return [{"test": t.nodeid, "reason": t.message} for t in tests
            if t.outcome is Status.SKIPPED and t.kind is SkipKind.LIST_TOO_LONG]


def _broken(outcome: object) -> bool:
    """Whether a test outcome carries evidence worth keeping whole: the target or the kit broke in it."""
    s = Status.of(outcome)
    return s is not None and s.effect in (Effect.BROKE, Effect.WARN, Effect.KIT)


def _test_brief(t: TestResult) -> dict[str, Any]:
    brief: dict[str, Any] = {"nodeid": t.nodeid, "outcome": t.outcome.value, "duration": round(t.duration, 4),
                             "message": t.message}
    if t.note:
        brief["note"] = t.note
    return brief


def _personalise(t: TestResult, accounts: Mapping[str, Any]) -> None:
    """Curls in a test's exchanges, failure and messages get the role's username and password variable: every
    curl of the report names the variable the page's note lists, never the client's placeholder."""
    t.message = personalise_text(t.message, accounts)
    t.longrepr = personalise_text(t.longrepr, accounts)
    if t.failure is not None and t.failure.curl:
        t.failure = replace(t.failure, curl=personal_curl(t.failure.curl, accounts))
    if t.reproduce:
        t.reproduce = personal_curl(t.reproduce, accounts)
    t.exchanges = [{**x, "curl": personal_curl(str(x["curl"]), accounts)} if x.get("curl") else x
                   for x in t.exchanges]


def _test_full(t: TestResult, how: Mapping[str, Any] | None = None) -> dict[str, Any]:
    broken = _broken(t.outcome)
    return {
        "nodeid": t.nodeid,
        "outcome": t.outcome.value,
        "rules": t.rules,
        "failed_rules": t.failed_rules,
        "areas": t.areas,
        "duration": round(t.duration, 4),
        "message": t.message,
        "longrepr": t.longrepr if broken else None,
        "exchanges": t.exchanges if broken else [],
        # what failed, as its RuleFailure recorded it: the rules, and the exchange and curl that proved it
        **({"failure": t.failure.as_dict()} if broken and t.failure is not None else {}),
        "curls": _curl_of(t)[-_EVIDENCE_CURLS:] if broken else [],
        "rerun": rerun_commands(t.nodeid, (t.failed_rules or t.rules or ["?"])[0], how) if broken else None,
        "observations": t.observations,
        "created": t.created,
        **({"unreachable": t.unreachable} if t.unreachable else {}),
        **({"skip_detail": t.skip_detail} if t.skip_detail else {}),
    }


def _summary(rules: list[dict[str, Any]], tests: list[TestResult], strict: bool = False) -> dict[str, Any]:
    """``strict`` (``qaconform run --strict``): a failed should-level rule fails the run like a must-rule."""

    def fails(r: dict[str, Any]) -> bool:
        return fails_run(r) or (strict and r.get("level") == "should")

    counts = {s: 0 for s in STATUSES}
    for r in rules:
        counts[r["status"]] += 1
    expected = [r["id"] for r in rules if r["expected"] and r["expected"]["state"] == "expected failure"]
    unexpected = [r["id"] for r in rules if r["expected"] and r["expected"]["state"] == "unexpectedly passing"]
    skipped_by: dict[str, int] = {}
    for r in rules:
        if r["status"] == "skipped":
            skipped_by[r["skip_category"]] = skipped_by.get(r["skip_category"], 0) + 1
    test_counts = {o: 0 for o in OUTCOMES}
    for t in tests:
        test_counts[t.outcome.value] += 1
    must = [r for r in rules if r["level"] == "must"]
    return {
        "rules": counts,
        "rules_total": len(rules),
        "must_rules": len(must),
        "must_held": sum(1 for r in must if r["status"] == "passed"),
        "expected_failures": expected,
        "unexpectedly_passing": unexpected,
        "skipped_by_reason": skipped_by,
        "skipped_groups": skipped_groups(rules),
        "blocked": blocked_groups(((t.blocked_by, t.blocked_call) for t in tests if t.outcome is Status.BLOCKED),
                                  rules),
        "not_checked": {"tests": len({n["test"] for r in rules for n in r.get("not_checked") or []}),
                        "rules": [r["id"] for r in rules if r.get("not_checked")]},
        "tests": test_counts,
        "tests_total": len(tests),
        "failed_rules": [r["id"] for r in rules if Status.of(r["status"]) is Status.FAILED and fails(r)
                         and r["id"] not in expected],
        "warning_rules": [r["id"] for r in rules if Status.of(r["status"]) is Status.WARNING
                          or (Status.of(r["status"]) is Status.FAILED and not fails(r))],
        "error_rules": [r["id"] for r in rules if Status.of(r["status"]) is Status.ERROR],
    }


def _target(target: JsonObject | None) -> JsonObject | None:
    if target is None:
        return None
    t = dict(target)
    accounts = t.get("accounts")
    if isinstance(accounts, Mapping):
        t["accounts"] = {r: {k: v for k, v in dict(a).items() if k in ("username", "id")}
                         for r, a in accounts.items() if isinstance(a, Mapping)}
    return t


def _duration(started: Any, finished: Any) -> float | None:
    try:
        return round((datetime.fromisoformat(str(finished)) - datetime.fromisoformat(str(started))).total_seconds(), 3)
    except (TypeError, ValueError):
        return None


def canonical(value: Any) -> str:
    """A stable text form of observation facts, for comparing runs."""
    return json.dumps(value, sort_keys=True, default=str)
