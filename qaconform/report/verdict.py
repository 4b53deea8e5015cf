"""The run's exit code and one-line verdict: decided here, once, from data.

Every input is a field someone recorded, never text read back from a terminal: the results file's ``stopped`` (why
the plugin ended the run early: ``profile``, ``usage``, ``unreachable``, ``time_budget``, ``interrupted``,
``internal``, ``no_tests``), its ``collection_errors`` and each test's outcome, and the runner's own facts in
``meta["stopped"]`` (the suites did not end within ``--timeout``, pytest refused the arguments after ``--``, the
user pressed Ctrl-C). ``qaconform run``, ``qaconform report`` and report.json all call :func:`verdict` (or
:func:`stop_verdict` when no results file was written), so the terminal, the page and the exit code agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qaconform import exitcodes
from qaconform.report.coverage import checked_text, fail_under
from qaconform.report.records import StopRecord, VerdictFacts
from qaconform.vocabulary import StopReason


def stopped_of(results: Mapping[str, Any], meta: Mapping[str, Any]) -> dict[str, str] | None:
    """Why the run stopped early, if it did: the runner's fact first (it stopped pytest itself, so pytest's own
    record then only says "interrupted"), else the plugin's."""
    return first_stop(meta.get("stopped"), results.get("stopped"))


def first_stop(*sources: object) -> dict[str, str] | None:
    """The first of ``sources`` that records a stop reason (the runner's, then the plugin's), as report.json has it."""
    for source in sources:
        if isinstance(source, Mapping) and isinstance(source.get("reason"), str):
            return {"reason": str(source["reason"]), "message": str(source.get("message") or "")}
    return None


def stop_verdict(stopped: Mapping[str, Any] | None,
                 selection: Mapping[str, Any] | None = None) -> tuple[int, str] | None:
    """The exit code and verdict of a run that stopped before its verdict, or None when it did not stop early."""
    if not stopped:
        return None
    record = StopRecord(str(stopped.get("reason") or ""), str(stopped.get("message") or ""))
    return _stop_verdict(record, (*(selection or {}).get("areas", []), *(selection or {}).get("rules", [])))


def _stop_verdict(stopped: StopRecord, chosen: tuple[str, ...]) -> tuple[int, str]:
    """:func:`stop_verdict` of the records: ``chosen``, the selection's areas and rules."""
    reason, message = stopped.reason, stopped.message
    if reason == StopReason.NO_TESTS:
        if chosen:
            return exitcodes.USAGE, f"no test matched --only {' '.join(chosen)}"
        return exitcodes.KIT_ERROR, "pytest collected no test under suites/"
    known = StopReason.of(reason)
    if known is None or known.exit_code is None:
        return exitcodes.KIT_ERROR, (f"{message} " if message else "") + (
            f"(stop reason {reason!r} is not one this kit knows: a bug in qaconform, or a results file of another "
            "version)")
    return known.exit_code, message or f"the run stopped early ({reason})"


def unreachable_tests(report: Mapping[str, Any]) -> list[str]:
    """Tests blocked because the target gave no answer (their ``unreachable`` field): never a failed rule."""
    return list(VerdictFacts.of(report).unreachable)


def verdict(report: Mapping[str, Any]) -> tuple[int, str]:
    """The exit code and a one-line verdict, which always says how many must-rules the run checked. A run that
    checked a smaller share of must-rules than its ``fail_under`` field (``--fail-under``, its variable or the
    profile's key) fails like a broken rule, since its green would say little; a run stopped early says only why.
    ``report``: report.json's content, read here into :class:`qaconform.report.records.VerdictFacts`."""
    facts = VerdictFacts.of(report)
    code, line = _verdict(facts)
    if facts.stopped is not None:
        return code, line
    cov = facts.coverage
    under = fail_under(cov, facts.fail_under_pct, facts.fail_under_from)
    if under and code == exitcodes.OK:
        return exitcodes.RULE_FAILED, under
    return code, f"{line}; {checked_text(cov)}" if cov.get("summary") else line


def _verdict(facts: VerdictFacts) -> tuple[int, str]:
    """The exit code and verdict before coverage. A run stopped early ends with its stop's code; else a target's failure
    outranks a target that gave no answer, which outranks a kit error: all are reported."""
    stopped = _stop_verdict(facts.stopped, facts.chosen) if facts.stopped is not None else None
    if stopped is not None:
        return stopped
    failed = list(facts.failed_rules)
    breached = facts.load_status == "breached"
    if failed or facts.failed_unattributed or breached:
        parts = []
        if failed:
            parts.append(f"{len(failed)} rule(s) failed: {', '.join(failed[:8])}{' ...' if len(failed) > 8 else ''}")
        if facts.failed_unattributed:
            parts.append(f"{len(facts.failed_unattributed)} test(s) without a rule failed")
        if breached:
            parts.append("a load threshold was breached")
        return exitcodes.RULE_FAILED, "; ".join(parts)
    gone = facts.unreachable
    if gone:
        return exitcodes.UNREACHABLE, (f"the target gave no answer in {len(gone)} test(s) (blocked, not failed): "
                                       f"{gone[0]}{' ...' if len(gone) > 1 else ''}")
    if facts.error_rules or facts.error_unattributed or facts.kit_errors or facts.load_status == "error":
        n = len(facts.error_rules) + len(facts.error_unattributed)
        kit = [e.strip().splitlines()[0] for e in facts.kit_errors if e.strip()]
        what = f"the kit broke in {n} test(s)" if n else "the kit broke"
        if kit:
            what += f" ({kit[0][:200]}{'; ...' if len(kit) > 1 else ''})"
        return exitcodes.KIT_ERROR, what + "; not the target's fault, see the errors in the report"
    extra = ""
    if facts.expected_failures:
        extra += f"; {facts.expected_failures} expected failure(s)"
    if facts.unexpectedly_passing:
        extra += f"; {facts.unexpectedly_passing} expected failure(s) now pass: remove them from --expect"
    return exitcodes.OK, f"every must-rule that ran held ({facts.must_held} held){extra}"
