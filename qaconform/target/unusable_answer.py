"""Which rule an answer the kit cannot use broke, and the one line that names the call.

Why here and not in the suites: a suite test often makes a call only as a step toward what it checks (member locks
the shared answer with the kit's awkward prompt, then the test posts under it). When that step's 200 does not parse
as JSON, the ``TargetError`` it raises used to be charged to the test's own rule: one lock answer that is not JSON
turned 24 rules red (qa14). The call's own rule is known where the answer is read: a successful answer of one of
the 19 operations, whose path ends in .json, must be JSON ("Each path ends in .json, which selects the JSON
format.", CONV-JSON-EXTENSION). So the client names that rule on the error, and the plugin charges the rule once and
shows every other test that needed the step as *blocked* by it (``qaconform.pytest.results``), as it does for a
fixture's ``RuleFailure``.

An error status that is not JSON names no rule here: which rule its body breaks depends on the refusal the test
expected (a permission's 403 body, a job's 400 message), which only the test knows; it stays the test's own.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from qaconform.contract import load_contract

NOT_JSON_RULE = "CONV-JSON-EXTENSION"
"""The rule a successful answer that does not parse as JSON breaks, on the operations spec/rules.yaml lists for it."""


def not_json_rules(method: str, url: str, status: int) -> tuple[str, ...]:
    """The rules a ``status`` answer to ``method url`` breaks when its body is not JSON: the .json rule for a 2xx of
    an operation the rule names; none for an error status or a request outside the 19 operations (a v1 path)."""
    if not 200 <= status < 300:
        return ()
    contract = load_contract()
    operation = contract.operation_at(method, url)
    rule = contract.rules.get(NOT_JSON_RULE)
    if operation is None or rule is None or operation not in rule.operations:
        return ()
    return (NOT_JSON_RULE,)


def call_line(method: str, url: str, status: int | None, role: str | None = None) -> str:
    """``PUT /services/v2/node/99/lock.json as member -> 200``: the call a blocked test needed, short enough for one
    line of the report (the query, a prompt of every script, is left to the curl)."""
    who = f" as {role}" if role else ""
    answered = f" -> {status}" if status is not None else ""
    return f"{method.upper()} {urlsplit(url).path}{who}{answered}"
