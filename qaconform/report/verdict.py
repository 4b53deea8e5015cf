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
from qaconform.status import Status
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
    reason, message = str(stopped.get("reason") or ""), str(stopped.get("message") or "")
    if reason == StopReason.NO_TESTS:
        chosen = [*(selection or {}).get("areas", []), *(selection or {}).get("rules", [])]
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
    return [str(t.get("nodeid")) for t in report.get("tests") or [] if isinstance(t, Mapping) and t.get("unreachable")]


def verdict(report: Mapping[str, Any]) -> tuple[int, str]:
    """The exit code and a one-line verdict, which always says how many must-rules the run checked. A run that
    checked a smaller share of must-rules than its ``fail_under`` field (``--fail-under``, its variable or the
    profile's key) fails like a broken rule, since its green would say little; a run stopped early says only why."""
    code, line = _verdict(report)
    if report.get("stopped"):
        return code, line
    cov = report.get("coverage") or {}
    threshold = report.get("fail_under") or {}
    under = fail_under(cov, threshold.get("pct"), str(threshold.get("from") or "--fail-under"))
    if under and code == exitcodes.OK:
        return exitcodes.RULE_FAILED, under
    return code, f"{line}; {checked_text(cov)}" if cov.get("summary") else line


def _verdict(report: Mapping[str, Any]) -> tuple[int, str]:
    """The exit code and verdict before coverage. A run stopped early ends with its stop's code; else a target's failure
    outranks a target that gave no answer, which outranks a kit error: all are reported."""
    stopped = stop_verdict(report.get("stopped"), report.get("selection"))
    if stopped is not None:
        return stopped
    s = report["summary"]
    failed = list(s["failed_rules"])
    unattributed = report.get("unattributed_tests") or []
    failed_unattr = [t["nodeid"] for t in unattributed if t["outcome"] == Status.FAILED]
    error_unattr = [t["nodeid"] for t in unattributed if t["outcome"] == Status.ERROR]
    load = report.get("load") or {}
    breached = load.get("status") == "breached"
    if failed or failed_unattr or breached:
        parts = []
        if failed:
            parts.append(f"{len(failed)} rule(s) failed: {', '.join(failed[:8])}{' ...' if len(failed) > 8 else ''}")
        if failed_unattr:
            parts.append(f"{len(failed_unattr)} test(s) without a rule failed")
        if breached:
            parts.append("a load threshold was breached")
        return exitcodes.RULE_FAILED, "; ".join(parts)
    gone = unreachable_tests(report)
    if gone:
        return exitcodes.UNREACHABLE, (f"the target gave no answer in {len(gone)} test(s) (blocked, not failed): "
                                       f"{gone[0]}{' ...' if len(gone) > 1 else ''}")
    if s["error_rules"] or error_unattr or report.get("kit_errors") or load.get("status") == "error":
        n = len(s["error_rules"]) + len(error_unattr)
        kit = [str(e).strip().splitlines()[0] for e in report.get("kit_errors") or [] if str(e).strip()]
        what = f"the kit broke in {n} test(s)" if n else "the kit broke"
        if kit:
            what += f" ({kit[0][:200]}{'; ...' if len(kit) > 1 else ''})"
        return exitcodes.KIT_ERROR, what + "; not the target's fault, see the errors in the report"
    held = s["must_held"]
    extra = ""
    if s["expected_failures"]:
        extra += f"; {len(s['expected_failures'])} expected failure(s)"
    if s["unexpectedly_passing"]:
        extra += f"; {len(s['unexpectedly_passing'])} expected failure(s) now pass: remove them from --expect"
    return exitcodes.OK, f"every must-rule that ran held ({held} held){extra}"
