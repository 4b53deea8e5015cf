"""Which rules a test result is charged to: one place for the results file, the report and the self-test.

A failure is charged to the rules it names, never to every rule its test carries: a test that checks eight rules
and finds one broken must turn one rule red, not eight. Only a failure that names none of its test's rules falls
back to all of them (it cannot say which one broke).

A failure names its rules as fields: the suites fail through ``qaconform.pytest.outcomes`` (``expect``, ``fail``),
whose ``RuleFailure`` the plugin records with its ``rules``. The ids a message names (``[PAGING-LISTCOUNT] listCount
is 2 ...``, :func:`rules_named`) are read only where no RuleFailure can reach the plugin: the generated tests
(``qaconform.pytest.schemathesis_checks`` and ``properties/oas.py``), whose failures schemathesis re-raises as its own
exceptions, carrying our message but not our type. tests/package/test_typed_failures.py keeps the hand-written
suites off that path.

A test whose *setup* failed because the target broke a rule (a fixture's assertion names rule X) did not run: it is
*blocked by X*. X is charged once however many tests the fixture blocked; the blocked tests' own rules are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from qaconform.status import Status

_RULE_ID = re.compile(r"(?<![A-Z0-9-])([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)(?![A-Z0-9-])")


def rules_named(message: str | None, known: Iterable[str]) -> list[str]:
    """Rule ids of ``known`` that ``message`` names as whole words, in the order they first appear."""
    wanted = set(known)
    out: list[str] = []
    for m in _RULE_ID.finditer(message or ""):
        rid = m.group(1)
        if rid in wanted and rid not in out:
            out.append(rid)
    return out


def named_failed_rules(test: Mapping[str, Any]) -> set[str] | None:
    """For a failed test (a results file's entry): the rules of the test its failure names (a RuleFailure's
    ``rules`` field, else the ids its message names); None when it names none of them."""
    failure = test.get("failure")
    given = [str(r) for r in failure.get("rules") or []] if isinstance(failure, Mapping) else []
    return named_of(Status.of(test.get("outcome")), [str(r) for r in test.get("rules") or []], given,
                    str(test.get("message") or ""))


def named_of(outcome: Status | None, rules: Sequence[str], failure_rules: Sequence[str],
             message: str | None) -> set[str] | None:
    """:func:`named_failed_rules` of a result's fields (``qaconform.report.records.TestResult`` has them typed)."""
    if outcome not in (Status.FAILED, Status.WARNING) or not rules:
        return None
    if failure_rules:
        named = {r for r in failure_rules if r in rules}
    else:
        named = set(rules_named(message or "", rules))
    return named or None


def charged_rules(test: Mapping[str, Any]) -> list[str]:
    """The rules this result turns red: a failure's named rules (or all of its test's), a blocked test's blocker."""
    outcome = test.get("outcome")
    if outcome == Status.BLOCKED:
        return [str(r) for r in test.get("blocked_by") or []]
    if outcome not in (Status.FAILED, Status.WARNING):
        return []
    named = named_failed_rules(test)
    return sorted(named) if named is not None else [str(r) for r in test.get("rules") or []]


def failed_rules(tests: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every rule a run's results charge, once each, sorted."""
    return sorted({r for t in tests for r in charged_rules(t)})
