"""The results file read into typed records, at one boundary: :meth:`Results.of`.

The pytest plugin writes the results file (``qaconform.pytest.results``) as JSON; the report used to read it as
nested dicts, key by key, in every module, so a renamed key was found by a user, not by mypy (issue 47). Here each
key the report decides by becomes a field with its type, read once, leniently (a results file of an older plugin,
or one a test writes by hand, may lack keys: each has the default the report always gave it), and ``report/``
works on the records. What the report only passes through to report.json as the file holds it (a recorded exchange,
an observation's facts, the redacted profile, the doctor's findings) stays a :data:`JsonObject`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from qaconform.blame import named_of
from qaconform.status import OUTCOMES, Status
from qaconform.vocabulary import SkipKind

JsonObject = dict[str, Any]
"""A JSON object carried through as the file holds it: the report copies it, it decides nothing by its keys."""


def _str_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def _objects(value: object) -> list[JsonObject]:
    """The JSON objects of a list, in order; anything else in it dropped (the report never read it)."""
    return [dict(v) for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def _object(value: object) -> JsonObject | None:
    return dict(value) if isinstance(value, Mapping) else None


@dataclass(frozen=True)
class FailureRecord:
    """What a ``RuleFailure`` recorded (results ``failure``): the rules it broke, and the curl and exchange of the
    request that proved it."""

    rules: tuple[str, ...]
    curl: str | None
    exchange: JsonObject | None

    @classmethod
    def of(cls, raw: object) -> FailureRecord | None:
        if not isinstance(raw, Mapping):
            return None
        return cls(tuple(_strings(raw.get("rules"))), _str_or_none(raw.get("curl") or None),
                   _object(raw.get("exchange")))

    def as_dict(self) -> JsonObject:
        """As report.json's test entry shows it (the results file's form)."""
        return {"rules": list(self.rules), "curl": self.curl, "exchange": self.exchange}


@dataclass(slots=True)
class TestResult:
    """One test's end as the results file records it (one entry per phase that adds something; the report merges
    a test's phases into one: :func:`qaconform.report.tallies.merge_tests`).

    ``failed_rules`` and ``note`` are the report's: the rules this result turns red, and what a rule's view of
    it adds ("this test failed on X only")."""

    __test__ = False  # a record, not a test pytest should collect

    nodeid: str
    outcome: Status
    when: str | None = None
    rules: list[str] = field(default_factory=list)
    areas: list[str] = field(default_factory=list)
    duration: float = 0.0
    message: str | None = None
    longrepr: str | None = None
    exchanges: list[JsonObject] = field(default_factory=list)
    observations: list[JsonObject] = field(default_factory=list)
    created: list[Any] = field(default_factory=list)
    """What the test created, as the plugin listed it (kind, id, by, test, url: copied into report.json)."""
    blocked_by: list[str] = field(default_factory=list)
    blocked_call: str | None = None
    """The call whose answer broke ``blocked_by`` (``PUT /services/v2/node/99/lock.json as member -> 200``)."""
    failure: FailureRecord | None = None
    reproduce: str | None = None
    """A ``TargetError``'s curl: the request whose answer the kit could not use."""
    skip_kind: SkipKind | None = None
    needs_fixtures: list[str] = field(default_factory=list)
    met_consumed: JsonObject | None = None
    skip_detail: str | None = None
    """What varies between builds behind a skip (the target's facts, the run's draws), kept out of ``message``."""
    unreachable: str | None = None
    warning: bool = False
    settle: JsonObject | None = None
    writes: JsonObject | None = None
    held_back: JsonObject | None = None
    failed_rules: list[str] = field(default_factory=list)
    note: str | None = None
    cell: JsonObject | None = None
    """The crossing cell the test judged (its ``cell`` marker: family and values; qaconform.report.run_cells)."""

    @classmethod
    def of(cls, raw: Mapping[str, Any], number: int) -> TestResult:
        """One entry of the results' ``tests`` (``number``: its place, naming an entry without a node id)."""
        message = _str_or_none(raw.get("message"))
        outcome = Status.of(raw.get("outcome") or "error")
        if outcome is None or outcome.value not in OUTCOMES:
            message = f"unknown outcome {str(raw.get('outcome'))!r} in the results file; " + (message or "")
            outcome = Status.ERROR
        if outcome is Status.FAILED and raw.get("warning"):  # a results file of an older plugin
            outcome = Status.WARNING
        kind = raw.get("skip_kind")
        return cls(
            nodeid=str(raw.get("nodeid") or f"<unnamed test {number}>"), outcome=outcome,
            when=_str_or_none(raw.get("when")), rules=_strings(raw.get("rules")), areas=_strings(raw.get("areas")),
            duration=float(raw.get("duration") or 0.0), message=message, longrepr=_str_or_none(raw.get("longrepr")),
            exchanges=_objects(raw.get("exchanges")), observations=_objects(raw.get("observations")),
            created=list(raw.get("created") or []), blocked_by=_strings(raw.get("blocked_by")),
            blocked_call=_str_or_none(raw.get("blocked_call") or None),
            failure=FailureRecord.of(raw.get("failure")), reproduce=_str_or_none(raw.get("reproduce") or None),
            skip_kind=None if kind is None else SkipKind.of(kind), needs_fixtures=_strings(raw.get("needs_fixtures")),
            met_consumed=_object(raw.get("met_consumed")), skip_detail=_str_or_none(raw.get("skip_detail") or None),
            unreachable=_str_or_none(raw.get("unreachable") or None),
            warning=bool(raw.get("warning")), settle=_object(raw.get("settle")), writes=_object(raw.get("writes")),
            held_back=_object(raw.get("held_back")), cell=_object(raw.get("cell")))

    @property
    def kind(self) -> SkipKind:
        """Why a skipped test did not run: the kind its skip recorded (``qaconform.pytest.outcomes.skip``)."""
        return self.skip_kind or SkipKind.OTHER

    def named_failed_rules(self) -> set[str] | None:
        """The rules of the test its failure names (:func:`qaconform.blame.named_of`); None when it names none."""
        return named_of(self.outcome, self.rules, self.failure.rules if self.failure else (), self.message)


@dataclass(frozen=True)
class StopRecord:
    """Why the suites stopped early (results ``stopped``, or the runner's own fact in run.json)."""

    reason: str
    message: str

    @classmethod
    def of(cls, raw: object) -> StopRecord | None:
        if isinstance(raw, Mapping) and isinstance(raw.get("reason"), str):
            return cls(str(raw["reason"]), str(raw.get("message") or ""))
        return None

    def as_dict(self) -> dict[str, str]:
        return {"reason": self.reason, "message": self.message}


@dataclass(frozen=True)
class WriteBudgetRecord:
    """The run's write budget and its shares (results ``write_budget``); ``budget`` None: unlimited."""

    budget: int | None
    limits: dict[str, int | None] | None
    """Each share's most accepted writes (None: unlimited, as under ``--write-budget unlimited``)."""
    thorough: bool

    @classmethod
    def of(cls, raw: object) -> WriteBudgetRecord | None:
        if not isinstance(raw, Mapping) or not raw:
            return None
        budget, limits = raw.get("budget"), raw.get("limits")
        return cls(budget if isinstance(budget, int) else None,
                   {str(k): v if isinstance(v, int) else None for k, v in limits.items()}
                   if isinstance(limits, Mapping) else None,
                   bool(raw.get("thorough")))

    def as_dict(self) -> JsonObject:
        """The form :func:`qaconform.target.writes.write_summary` reads."""
        return {"budget": self.budget, "limits": self.limits, "thorough": self.thorough}


@dataclass(frozen=True)
class Results:
    """A results file (``pytest --qaconform-results``), read once: what :func:`qaconform.report.model.build_report`
    and its helpers work on."""

    tests: tuple[TestResult, ...] = ()
    run_tag: str | None = None
    started: str | None = None
    finished: str | None = None
    exitstatus: int | None = None
    stopped: StopRecord | None = None
    collection_errors: tuple[tuple[str, str], ...] = ()
    """(node id, message) of each module pytest could not collect."""
    target: JsonObject | None = None
    """The redacted profile (``Profile.redacted``): copied into the report, its accounts and limits read by name."""
    doctor: JsonObject | None = None
    consumed: tuple[JsonObject, ...] = ()
    reference: bool = False
    write_budget: WriteBudgetRecord | None = None
    seed: object = None
    max_examples: object = None
    """The generated tests' seed and examples (results ``generation``), shown as recorded."""
    versions: JsonObject = field(default_factory=dict)

    @classmethod
    def of(cls, raw: Results | Mapping[str, Any]) -> Results:
        """The records of a results file's content (a record is returned as it is)."""
        if isinstance(raw, Results):
            return raw
        gen = _object(raw.get("generation")) or {}
        status = raw.get("exitstatus")
        return cls(
            tests=tuple(TestResult.of(t, n) for n, t in enumerate(_entries(raw.get("tests")), start=1)),
            run_tag=_str_or_none(raw.get("run_tag")), started=_str_or_none(raw.get("started")),
            finished=_str_or_none(raw.get("finished")),
            exitstatus=status if isinstance(status, int) and not isinstance(status, bool) else None,
            stopped=StopRecord.of(raw.get("stopped")),
            collection_errors=tuple((str(e.get("nodeid")), str(e.get("message")))
                                    for e in raw.get("collection_errors") or [] if isinstance(e, Mapping)),
            target=_object(raw.get("target")), doctor=_object(raw.get("doctor")),
            consumed=tuple(_objects(raw.get("consumed"))), reference=bool(raw.get("reference")),
            write_budget=WriteBudgetRecord.of(raw.get("write_budget")),
            seed=gen.get("seed"), max_examples=gen.get("max_examples"),
            versions=_object(raw.get("versions")) or {})


def _entries(value: object) -> Iterable[Mapping[str, Any]]:
    """The test entries of a results file; an entry that is not an object counts as an unnamed one."""
    return [t if isinstance(t, Mapping) else {} for t in value] if isinstance(value, list) else []


# ----------------------------------------------------------------------------------------------------------
# report.json, read back: what ``qaconform diff``, the verdict and the coverage comparison decide by

@dataclass(frozen=True)
class FailureView:
    """One failure of a rule's evidence (report.json ``rules[].evidence.failures[]``)."""

    test: str
    message: str | None
    curl: str | None


@dataclass(frozen=True)
class RuleView:
    """One rule entry of report.json, as the readers of a report decide by it."""

    id: str
    level: str
    status: str
    reason: str | None = None
    skip_category: str | None = None
    failures: tuple[FailureView, ...] = ()
    expected_state: str | None = None
    """``expected failure``, ``unexpectedly passing`` ...: an ``--expect`` entry's state in this run."""
    expected_reason: str | None = None
    not_checked: tuple[str, ...] = ()
    """The reasons of its tests that did not check it because a list was too long (``not_checked[].reason``)."""

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> RuleView:
        evidence = _object(raw.get("evidence")) or {}
        expected = _object(raw.get("expected")) or {}
        return cls(
            id=str(raw["id"]), level=str(raw.get("level") or ""), status=str(raw.get("status")),
            reason=_str_or_none(raw.get("reason")), skip_category=_str_or_none(raw.get("skip_category")),
            failures=tuple(FailureView(str(f.get("test")), _str_or_none(f.get("message")), _str_or_none(f.get("curl")))
                           for f in _objects(evidence.get("failures"))),
            expected_state=_str_or_none(expected.get("state")), expected_reason=_str_or_none(expected.get("reason")),
            not_checked=tuple(str(n["reason"]) for n in _objects(raw.get("not_checked")) if n.get("reason")))


@dataclass(frozen=True)
class SummaryView:
    """report.json ``summary``: counts by status and the rules of each list the terminal names."""

    rules: dict[str, int] = field(default_factory=dict)
    tests: dict[str, int] = field(default_factory=dict)
    failed_rules: tuple[str, ...] = ()
    error_rules: tuple[str, ...] = ()
    warning_rules: tuple[str, ...] = ()
    expected_failures: tuple[str, ...] = ()
    unexpectedly_passing: tuple[str, ...] = ()
    not_checked_tests: int = 0
    not_checked_rules: tuple[str, ...] = ()
    """Tests (and their rules) that did not check a relation because a list was too long."""
    blocked: tuple[JsonObject, ...] = ()
    """The blocked rules by what blocked them: ``by`` (rules), ``call``, ``rules`` (qaconform.report.rule_groups)."""
    skipped_groups: tuple[JsonObject, ...] = ()
    """The skipped rules by reason: ``reason``, ``rules``, ``tests`` (qaconform.report.rule_groups)."""

    @classmethod
    def of(cls, raw: object) -> SummaryView:
        s = _object(raw) or {}
        nc = _object(s.get("not_checked")) or {}

        def counts(value: object) -> dict[str, int]:
            return {str(k): int(v) for k, v in (_object(value) or {}).items() if isinstance(v, int)}
        return cls(rules=counts(s.get("rules")), tests=counts(s.get("tests")),
                   failed_rules=tuple(_strings(s.get("failed_rules"))),
                   error_rules=tuple(_strings(s.get("error_rules"))),
                   warning_rules=tuple(_strings(s.get("warning_rules"))),
                   expected_failures=tuple(_strings(s.get("expected_failures"))),
                   unexpectedly_passing=tuple(_strings(s.get("unexpectedly_passing"))),
                   not_checked_tests=int(nc.get("tests") or 0), not_checked_rules=tuple(_strings(nc.get("rules"))),
                   blocked=tuple(_objects(s.get("blocked"))), skipped_groups=tuple(_objects(s.get("skipped_groups"))))


@dataclass(frozen=True)
class ReportRecord:
    """A report.json read back (``qaconform diff``, ``--baseline``): its rules by id, observations by rule, the
    settings and selection that decide how deep the run looked, and the cells its coverage shows called."""

    rules: dict[str, RuleView]
    run_id: str | None = None
    base_url: str | None = None
    observations: dict[str, tuple[JsonObject, ...]] = field(default_factory=dict)
    """Rule id -> its observations (``test``, ``facts``), as recorded."""
    settings: JsonObject = field(default_factory=dict)
    """report.json ``settings`` (seed, max_examples, write_budget, strict): compared key by key, as recorded."""
    chosen: tuple[str, ...] = ()
    """The selection's areas and rules (``--only``): empty for everything."""
    called: frozenset[str] = frozenset()
    """Every "operation as account" the run's coverage shows called."""
    has_operations: bool = False
    """Whether the run's coverage lists operations at all (a run without the interface map has none)."""
    summary: SummaryView = field(default_factory=SummaryView)

    @classmethod
    def of(cls, raw: ReportRecord | Mapping[str, Any]) -> ReportRecord:
        """The record of a report.json's content (a record is returned as it is)."""
        if isinstance(raw, ReportRecord):
            return raw
        rules = [RuleView.of(r) for r in _objects(raw.get("rules"))]
        observed = _object(raw.get("observations")) or {}
        selection = _object(raw.get("selection")) or {}
        operations = _objects((_object(raw.get("coverage")) or {}).get("operations"))
        return cls(
            rules={r.id: r for r in rules}, run_id=_str_or_none(raw.get("run_id")),
            base_url=_str_or_none((_object(raw.get("target")) or {}).get("base_url")),
            observations={str(rid): tuple(_objects(items)) for rid, items in observed.items()},
            settings=_object(raw.get("settings")) or {},
            chosen=(*_strings(selection.get("areas")), *_strings(selection.get("rules"))),
            called=frozenset(f"{op.get('operation')} as {role}" for op in operations
                             for role, cell in (_object(op.get("accounts")) or {}).items()
                             if isinstance(cell, Mapping) and cell.get("requests")),
            has_operations=bool(operations), summary=SummaryView.of(raw.get("summary")))

    def checked_must_rules(self) -> set[str]:
        """The must-rules the run checked: a test reached a verdict on them (passed or failed)."""
        return {r.id for r in self.rules.values() if r.level == "must" and r.status in ("passed", "failed")}


@dataclass(frozen=True)
class VerdictFacts:
    """What the run's exit code is decided by (:func:`qaconform.report.verdict.verdict`), read from a report's
    content: why it stopped early, its summary's rule lists, the tests without a rule that failed or broke, the tests
    the target gave no answer, the load status, the kit's errors, and the coverage threshold."""

    stopped: StopRecord | None = None
    chosen: tuple[str, ...] = ()
    """The selection's areas and rules (``--only``)."""
    failed_rules: tuple[str, ...] = ()
    error_rules: tuple[str, ...] = ()
    must_held: int = 0
    expected_failures: int = 0
    unexpectedly_passing: int = 0
    failed_unattributed: tuple[str, ...] = ()
    error_unattributed: tuple[str, ...] = ()
    unreachable: tuple[str, ...] = ()
    """Node ids of the tests blocked because the target gave no answer (their ``unreachable`` field)."""
    load_status: str | None = None
    kit_errors: tuple[str, ...] = ()
    coverage: JsonObject = field(default_factory=dict)
    """report.json ``coverage`` (:func:`qaconform.report.coverage.rules_checked`'s format)."""
    fail_under_pct: float | None = None
    fail_under_from: str = "--fail-under"

    @classmethod
    def of(cls, report: Mapping[str, Any]) -> VerdictFacts:
        summary = _object(report.get("summary")) or {}
        selection = _object(report.get("selection")) or {}
        unattributed = _objects(report.get("unattributed_tests"))
        threshold = _object(report.get("fail_under")) or {}
        pct = threshold.get("pct")
        return cls(
            stopped=StopRecord.of(report.get("stopped")),
            chosen=(*_strings(selection.get("areas")), *_strings(selection.get("rules"))),
            failed_rules=tuple(_strings(summary.get("failed_rules"))),
            error_rules=tuple(_strings(summary.get("error_rules"))),
            must_held=int(summary.get("must_held") or 0),
            expected_failures=len(summary.get("expected_failures") or []),
            unexpectedly_passing=len(summary.get("unexpectedly_passing") or []),
            failed_unattributed=tuple(str(t.get("nodeid")) for t in unattributed if t.get("outcome") == Status.FAILED),
            error_unattributed=tuple(str(t.get("nodeid")) for t in unattributed if t.get("outcome") == Status.ERROR),
            unreachable=tuple(str(t.get("nodeid")) for t in _objects(report.get("tests")) if t.get("unreachable")),
            load_status=_str_or_none((_object(report.get("load")) or {}).get("status")),
            kit_errors=tuple(str(e) for e in report.get("kit_errors") or []),
            coverage=_object(report.get("coverage")) or {},
            fail_under_pct=float(pct) if isinstance(pct, int | float) and not isinstance(pct, bool) else None,
            fail_under_from=str(threshold.get("from") or "--fail-under"))
