"""Which rule of spec/rules.yaml a failed load check judges: every load failure names its rule, as every suite test
does, so that a load run's failures are charged to rules (``summary.json`` ``failed_rules``) and the self-test can
tell a fault the load caught from a failure of another kind (issue 45: load is held to the rule the suites are held
to).

Why a table here and not in the checks: the checks (:mod:`qaconform.load.locust_checks`) run on every request and
know a status, a body and what the call site expects; which rule a wrong status breaks depends on the operation and
on who calls it, which only the call site and this table know. The table is read only when a check failed (never
on the hot path). A failure no rule of the description decides (the target's pace: a 429, a timeout, a dropped
connection; the profile's own limits: a body beyond ``max_response_bytes``) names none and is charged to no rule.
"""

from __future__ import annotations

from dataclasses import dataclass

NO_SERVER_ERROR = "CONV-NO-SERVER-ERROR"
CHECK_RULES: dict[str, str] = {
    "json_content_type": "CONV-CONTENT-TYPE-JSON",
    "json_body": "CONV-JSON-EXTENSION",
}
"""Checks whose rule is the same whatever the operation."""
LISTCOUNT_RULE = "PAGING-LISTCOUNT"
ENVELOPE_RULE = "PAGING-ENVELOPE"
LISTCOUNT_MESSAGE_START = "listCount differs"
"""How a :func:`~qaconform.load.locust_checks.list_envelope` failure about listCount starts (the others are about
the envelope's shape)."""

ALLOWED_STATUS_RULES: dict[str, str] = {
    "listQuestions": "PERM-LIST-QUESTIONS",
    "listUserAnswers": "PERM-USER-ANSWERS",
    "listUserQuestions": "PERM-USER-QUESTIONS",
    "listActiveExperts": "PERM-EXPERTS",
    "listEarnedExperts": "PERM-EXPERTS",
    "listSpaces": "PERM-SPACES",
    "listTopics": "PERM-TOPICS",
    "listNodeFollowers": "PERM-FOLLOWERS",
    "listGroups": "PERM-GROUPS",
    "listAnswerComments": "PERM-ANSWER-COMMENTS",
    "postAnswer": "PERM-ANSWER",
    "postComment": "PERM-COMMENT",
    "lockNode": "PERM-LOCK",
    "sendToModeration": "PERM-SENDTOMOD",
    "listUserContent": "LIST-ARRAY-CONTENT",
    "listIssueTypes": "LIST-ARRAY-ISSUETYPES",
}
"""The rule a refused call breaks when the load's caller holds what the description says the operation needs (each
load call is made by a role that holds it): a wrong status, a refused state change, or (the two bare-array lists) a
body that is not an array. A call site that judges another rule (an error path, an own-node lock, a private comment)
names it in its ``Expect.rule``. The one-shot fixture calls are judged by nothing: an earlier run may have consumed
the fixture (``qaconform.load.write_budget.ONE_SHOT``)."""

LOST_RULES = {"answer": "ANSWER-PUBLISHED", "comment": "COMMENT-1"}
"""The rule an item the nothing-lost check did not find listed exactly once breaks: an answer by a caller with
Publish answer is in its author's answer list (ANSWER-PUBLISHED); a comment its author wrote is read back in its
answer's comment list (COMMENT-1, "a later GET returns exactly that"; its author reads a private one too)."""

STATUS_CHECKS = frozenset({"status_expected", "refused", "json_array"})


def rule_of(op: str, check: str, message: str, status: int, call_rule: str | None = None) -> str | None:
    """The rule a failed check of a call to ``op`` (Locust's request name) judges; None when no rule decides it.

    ``message`` is the failure's text after its check name, ``status`` the answer's (0: none), ``call_rule`` the call
    site's own rule (``Expect.rule``)."""
    if op.endswith(")"):  # "cancelWiki (one-shot)": an earlier run may have consumed the fixture
        return None
    if check in CHECK_RULES:
        return CHECK_RULES[check]
    if check == "list_envelope":
        return LISTCOUNT_RULE if message.startswith(LISTCOUNT_MESSAGE_START) else ENVELOPE_RULE
    if check in STATUS_CHECKS and status:
        if status >= 500:
            return NO_SERVER_ERROR
        return call_rule or ALLOWED_STATUS_RULES.get(op)
    return None


@dataclass(frozen=True)
class Claim:
    """A rule some load check judges, and the scenarios whose requests can show it broken."""

    rule: str
    scenarios: tuple[str, ...]


_READS = ("browse",)
CLAIMS: tuple[Claim, ...] = (
    *(Claim(r, _READS) for r in ("PERM-LIST-QUESTIONS", "PERM-USER-ANSWERS", "PERM-USER-QUESTIONS", "PERM-EXPERTS",
                                 "PERM-SPACES", "PERM-TOPICS", "PERM-FOLLOWERS", "PERM-GROUPS",
                                 "PERM-ANSWER-COMMENTS", LISTCOUNT_RULE, ENVELOPE_RULE, "LIST-ARRAY-ISSUETYPES")),
    *(Claim(r, ("write",)) for r in ("PERM-ANSWER", "PERM-COMMENT", "PERM-COMMENT-PRIVATE", "ANSWER-PUBLISHED",
                                     "COMMENT-1")),
    *(Claim(r, ("moderate",)) for r in ("PERM-LOCK", "PERM-LOCK-OWN", "PERM-SENDTOMOD")),
    *(Claim(r, ("gdpr",)) for r in ("LIST-ARRAY-CONTENT", "GDPR-CONTENT-422", "GDPR-BULK-NO-CSV",
                                    "GDPR-INDIVIDUAL-NO-USER")),
    *(Claim(r, _READS) for r in ("CONV-CONTENT-TYPE-JSON", "CONV-JSON-EXTENSION", NO_SERVER_ERROR)),
)
"""Every rule a load check can name, with the scenario whose calls judge it most often (``mixed`` makes all of the
others' calls, each less often; the conventions are judged on every call, browse makes the most kinds of call)."""


def claimed(rule: str) -> tuple[str, ...]:
    """The scenarios whose load checks judge ``rule`` (none: no load check does)."""
    return next((c.scenarios for c in CLAIMS if c.rule == rule), ())


class RuleTally:
    """A process's failures, charged to the rules they break (``rule -> request name -> count``) or, when no rule
    decides them, counted by their check (a 429 ``rate_limited``, a timeout, a dropped connection): what the
    Locust processes write into ``latency.json`` and `qaconform load` into ``summary.json``. A worker ships its tally
    to the master with each stats report (``drain``); the master merges them (``merge``)."""

    def __init__(self) -> None:
        self.charged: dict[str, dict[str, int]] = {}
        self.uncharged: dict[str, int] = {}

    def add(self, op: str, failure: BaseException) -> None:
        rule = getattr(failure, "rule", None)
        if isinstance(rule, str):
            by_op = self.charged.setdefault(rule, {})
            by_op[op] = by_op.get(op, 0) + 1
        else:
            check = getattr(failure, "check", None)
            key = check if isinstance(check, str) else type(failure).__name__
            self.uncharged[key] = self.uncharged.get(key, 0) + 1

    def to_dict(self) -> dict[str, dict[str, dict[str, int]] | dict[str, int]]:
        return {"charged": {r: dict(ops) for r, ops in sorted(self.charged.items())},
                "uncharged": dict(sorted(self.uncharged.items()))}

    def drain(self) -> dict[str, dict[str, dict[str, int]] | dict[str, int]]:
        out = self.to_dict()
        self.charged, self.uncharged = {}, {}
        return out

    def merge(self, part: object) -> None:
        """Add a tally shipped by another process (``to_dict``'s shape; anything else is ignored)."""
        if not isinstance(part, dict):
            return
        charged, uncharged = part.get("charged"), part.get("uncharged")
        for rule, ops in (charged.items() if isinstance(charged, dict) else ()):
            by_op = self.charged.setdefault(str(rule), {})
            for op, n in (ops.items() if isinstance(ops, dict) else ()):
                if isinstance(n, int):
                    by_op[str(op)] = by_op.get(str(op), 0) + n
        for key, n in (uncharged.items() if isinstance(uncharged, dict) else ()):
            if isinstance(n, int):
                self.uncharged[str(key)] = self.uncharged.get(str(key), 0) + n


def charge_lost(tally: RuleTally, lost: list[dict[str, object]]) -> None:
    """Charge the nothing-lost check's findings (``nothing_lost.check_nothing_lost``): an item missing from its list or
    listed more than once breaks its kind's rule (LOST_RULES); one whose list could not be read whole (a time budget
    ran out, an error answer) is counted apart, as ``nothing_lost_unread``."""
    for item in lost:
        problem, rule = str(item.get("problem", "")), LOST_RULES.get(str(item.get("kind")))
        if rule and (problem == "missing" or problem.startswith("listed ")):
            by_op = tally.charged.setdefault(rule, {})
            by_op[LOST_CHECK] = by_op.get(LOST_CHECK, 0) + 1
        else:
            tally.uncharged["nothing_lost_unread"] = tally.uncharged.get("nothing_lost_unread", 0) + 1


LOST_CHECK = "nothing-lost"
"""The name a finding of the nothing-lost check is counted under (where the others have a request name)."""
