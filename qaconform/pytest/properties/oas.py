"""spec/openapi.yaml as schemathesis drives it against one target: real ids, per-operation accounts, safety.

Kept out of the test module so that the schemathesis test, the state machine and the summary share one reading
of the profile: which account calls which operation, which ids each path parameter takes, which statuses a valid
request may meet (the documented business-rule 400s and permission refusals), and what is never sent.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.core.transport import Response
from schemathesis.engine.recorder import ScenarioRecorder
from schemathesis.specs.openapi.checks import (
    AuthScenario,
    IgnoredAuth,
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from qaconform.contract import API_PREFIX
from qaconform.pytest import schemathesis_checks
from qaconform.pytest.outcomes import RuleFailure, SkipKind, skip
from qaconform.pytest.properties.case_rules import constrain_gdpr_job, leaves_open, must_reject
from qaconform.pytest.properties.plugin import TIME, Budget, BudgetSpent, not_sent_key, share_spent
from qaconform.pytest.properties.schema import (
    OPENAPI,
    SPEC_DIR,
    Pools,
    bind_target,
    build_schema,
    collection_schema,
    profile_visibilities,
    schema_config,
)
from qaconform.pytest.properties.states import (
    REPEAT_OBSERVATIONS,
    STATE_CHANGES,
    UNLISTED,
    error_body_stated,
)
from qaconform.pytest.schemathesis_checks import int_value
from qaconform.pytest.support import answer_posted, post_answer
from qaconform.target import holdback
from qaconform.target.client import REDACTED, ApiClient, ApiResponse, BasicAuth, TargetError
from qaconform.target.created_id import created_id
from qaconform.target.profile import Profile

__all__ = ["OPENAPI", "SPEC_DIR", "Pools", "SchemaSender", "bind_target", "build_schema", "collection_schema",
           "constrain_gdpr_job", "leaves_open", "must_reject", "profile_visibilities", "schema_config", "shape_rule"]

AUTH_ENFORCED: set[str] = set()
"""Operations shown, in this process, to refuse a request without credentials and one with wrong ones."""


@functools.wraps(ignored_auth)
def ignored_auth_once(ctx: Any, response: Any, case: Any) -> bool | None:
    """schemathesis's ignored_auth, probing each operation until it has refused both probes once, as schemathesis's
    own runner does ("enforcement is a property of the operation, so one confirmation per run is enough"). Its
    pytest-side ``validate_response`` keeps no such record, so every accepted generated case sent two probes more
    (about 70 of a default run's 230 generated requests). A probe that fails, or that the rate limit answered, is
    not a confirmation: that operation is probed again."""
    if getattr(ctx, "auth_enforced_operations", None) is None:
        with contextlib.suppress(AttributeError):
            ctx.auth_enforced_operations = AUTH_ENFORCED
    return ignored_auth(ctx, response, case)


BUILTIN_CHECKS = (not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
                  negative_data_rejection, positive_data_acceptance, ignored_auth_once)
"""The schemathesis checks that fit this interface; ours come from qaconform.pytest.schemathesis_checks."""

ROLE_BY_OPERATION = {
    "scheduleGdprJob": "admin", "listUserContent": "admin", "listGroups": "admin", "listIssueTypes": "admin",
    "sendToModeration": "moderator", "cancelWiki": "moderator",
}  # fmt: skip
"""The account that holds every permission the operation needs (target-profile.md); member for the rest."""


NOT_SHOWN_STATUSES = {"unmarkFavorite", "cancelWiki"}
"""Operations whose generated calls always meet an undescribed situation (no favorite, no wiki node)."""

WRITES_PER_OPERATION = {"scheduleGdprJob": 1}
"""Accepted writes one per-operation test may make under a write budget (else a quarter of the openapi share, at
least 2): every accepted data-protection job is a job the target runs (issue 29: at most 3 per run)."""

FRESH_NODE_OPERATIONS = ("lockNode", "sendToModeration")
"""State changes whose success the description states for a node the kit made and left as it was ('Unlocked node',
'Published node'): each generated call gets an answer of its own, posted just before, unless a link chain hands it
the answer the chain posted. A shared node would be moved by the first call and meet every later one (and
hypothesis's replay of a failing case) in a state the description does not cover."""

RULES_BY_FAILURE = {
    "ServerError": "CONV-NO-SERVER-ERROR", "ContentTypeServerError": "CONV-NO-SERVER-ERROR",
    "MissingContentType": "CONV-CONTENT-TYPE-JSON", "MalformedMediaType": "CONV-CONTENT-TYPE-JSON",
    "UndefinedContentType": "CONV-CONTENT-TYPE-JSON",
    "MalformedJson": "CONV-JSON-EXTENSION", "ContentDeserializationError": "CONV-JSON-EXTENSION",
    "IgnoredAuth": "AUTH-BAD-CREDENTIALS",
}
"""The rule a failed built-in check breaks, by schemathesis failure class; ours carry it as a [RULE] prefix."""

REFUSAL_RULES = {"postComment": "COMMENT-BODY-REQUIRED", "listUserContent": "GDPR-CONTENT-422"}
"""The rule an accepted invalid request breaks (see must_reject); CONV-BODY-FORMAT elsewhere."""


def _held_back_probe(failure: BaseException, probes: ScenarioRecorder) -> bool:
    """An ignored_auth failure whose probe the target's rate limit answered 429: the probe was held back, the
    operation's authentication not judged. Decided from the probe's answer as schemathesis recorded it (``probes``,
    the recorder handed to ``validate_response``, under the case id the failure names), never from its message."""
    if not isinstance(failure, IgnoredAuth) or failure.case_id is None:
        return False
    answer = probes.find_response(case_id=failure.case_id)
    return answer is not None and answer.status_code == 429


def run_checks(case: Any, response: Any, excluded: list[Any],
               transport_kwargs: dict[str, Any]) -> tuple[FailureGroup | None, bool]:
    """The schemathesis checks on one answer: the failures (None when none is left) with the ignored_auth probes
    the target's rate limit answered taken out, and whether one was (its probe is then the target's pace to wait
    out, not a verdict: :meth:`SchemaSender._wait_out_probe`)."""
    probes = ScenarioRecorder(label=str(getattr(case.operation, "label", "")))
    try:
        case.validate_response(response, checks=list(BUILTIN_CHECKS),
                               additional_checks=list(schemathesis_checks.OUR_CHECKS),
                               excluded_checks=excluded, transport_kwargs=transport_kwargs, recorder=probes)
    except FailureGroup as exc:
        kept = [f for f in exc.exceptions if not _held_back_probe(f, probes)]
        held = len(kept) < len(exc.exceptions)
        if not kept:
            return None, held
        return (exc if not held else FailureGroup(kept, exc.message)), held
    return None, False


def shape_rule(operation_id: str) -> str:
    """postComment -> SHAPE-POST-COMMENT: the rule of spec/rules.yaml for an operation's documented answers."""
    return "SHAPE-" + re.sub(r"(?<!^)(?=[A-Z])", "-", operation_id).upper()


def _digest(value: str) -> int:
    return int.from_bytes(hashlib.blake2b(value.encode(), digest_size=4).digest(), "big")


def _share(value: str) -> float:
    """A fraction in [0, 1) fixed by ``value``: a stable coin flip (the seed decides the value, so the flip too)."""
    return _digest(value) / 2**32


def _json_or_none(content: bytes) -> Any:
    try:
        return json.loads(content)
    except ValueError:
        return None


MADE_KINDS_BY_PARAMETER: dict[str, tuple[str, ...]] = {"nodeId": ("answer", "comment"), "answerId": ("answer",)}
"""Path parameters that may name what a generated request created, and which kinds: any node for the node
actions, comments and followers, only an answer for an answer's comments. Never a ``questionId`` (no operation
creates a question: an answer's id there is a 404 the target is right to give) nor a ``userId``."""


@dataclass
class SchemaSender:
    """Sends one generated case as the right account, within the budget and the profile's safety, and judges it."""

    profile: Profile
    pools: Pools
    budget: Budget
    api: dict[str, ApiClient]
    created: Any
    run_tag: str
    made: dict[int, str] = field(default_factory=dict)
    """What generated requests created, id -> kind ("answer", "comment"): a chain may act on them (they are nobody's
    fixture), where a node of that kind belongs (:data:`MADE_KINDS_BY_PARAMETER`)."""
    last_sent: tuple[Any, str, ApiResponse] | None = field(default=None, repr=False)
    """The last response :meth:`transmit` returned and the client's curl of its request (the bytes as sent)."""
    observe: Callable[..., None] | None = None
    """The plugin's ``observe`` of the running test: refusals the description does not cover are recorded there."""
    fresh: Callable[[], int] | None = None
    """Posts the answer a state change acts on (:data:`FRESH_NODE_OPERATIONS`); default :meth:`fresh_answer`."""
    linked_case: Any = None
    """The case a link chain is sending with the answer of its own chain as nodeId (kept as it is)."""
    _observed: set[tuple[str, int, str]] = field(default_factory=set)
    _accepted_before: int = 0

    def fresh_answer(self) -> int:
        """An answer of member's to the profile's question, for one state change (ANSWER-201 blocks when refused)."""
        if self.fresh is not None:
            return self.fresh()
        resp = post_answer(self.api["member"], self.pools.question_id, self.run_tag, self.created,
                           text="generated state change target")
        new = answer_posted(resp, "for a generated state change")
        self.pools.ledger.created(new, self.pools.question_id)
        return new

    def role(self, operation_id: str) -> str:
        return ROLE_BY_OPERATION.get(operation_id, "member")

    def auth(self, operation_id: str) -> BasicAuth | None:
        """The credentials of the operation's account, as its client holds them (shown redacted wherever printed)."""
        return self.api[self.role(operation_id)].auth

    def make_safe(self, case: Any) -> None:
        """Rewrite what the profile forbids, whatever mode generated it: protected ids, real data-protection jobs."""
        op = case.operation.definition.raw.get("operationId", "")
        for name, value in list((case.path_parameters or {}).items()):
            as_int = int_value(value)
            allowed = self.pools.allowed(op)
            made_here = as_int is not None and self.made.get(as_int) in MADE_KINDS_BY_PARAMETER.get(name, ())
            if op in FRESH_NODE_OPERATIONS and as_int is not None and case is not self.linked_case:
                case.path_parameters[name] = self.fresh_answer()
            elif as_int is not None and as_int not in allowed and not made_here:
                # Every phase (coverage boundaries included) reaches a real node, never a protected one.
                case.path_parameters[name] = allowed[as_int % len(allowed)]
        if isinstance(case.query, dict):
            self._keep_described(op, case.query)
        if op == "scheduleGdprJob" and isinstance(case.body, dict):
            constrain_gdpr_job(case.body, self.profile)
        if op == "postComment" and isinstance(case.body, dict):
            self._bind_privacy(case.body)
        if op in ("postComment", "postAnswer") and isinstance(case.body, dict):
            text = case.body.get("body")
            if isinstance(text, str):
                case.body["body"] = f"{text} [{self.run_tag}]"
        if op in ("postComment", "postAnswer") and isinstance(case.query, dict) and isinstance(
                case.query.get("body"), str):
            case.query["body"] = f"{case.query['body']} [{self.run_tag}]"

    def _bind_privacy(self, body: dict[str, Any]) -> None:
        """Mostly the target's own visibility values and account ids in a generated comment, as dictionaries would.

        The per-operation tests are collected before the target is known, so its values cannot be schemathesis
        dictionaries there; a fixed share of generated values (chosen by the value itself, so the seed still
        decides) is replaced, the rest stays as generated and meets the privacy rules' refusals.
        """
        visibilities = profile_visibilities(self.profile)
        vis = body.get("visibility")
        if isinstance(vis, str) and visibilities and _share(vis) < 0.7:
            body["visibility"] = visibilities[_digest(vis) % len(visibilities)]
        users = sorted(set(self.pools.user_ids.values()))
        recipients = body.get("recipients")
        if isinstance(recipients, list) and users:
            for rec in recipients:
                rid = rec.get("id") if isinstance(rec, dict) else None
                if isinstance(rid, int) and not isinstance(rid, bool) and rid not in users and _share(str(rid)) < 0.9:
                    rec["id"] = users[abs(rid) % len(users)]

    def _keep_described(self, op: str, query: dict[str, Any]) -> None:
        """Keep valid paging and prompts inside what the description describes.

        pageSize 0, negative or huge, a page past the end or below 1, an empty lock prompt: the description leaves
        each open (observed rules record them), so a generated valid request must not depend on them.
        """
        size, page = int_value(query.get("pageSize")), int_value(query.get("page"))
        if size is not None and not 1 <= size <= 100:
            query["pageSize"] = 1 + abs(size) % 100
        lowest = 0 if op == "listNodeFollowers" else 1
        if page is not None and not lowest <= page <= 3:
            query["page"] = lowest + abs(page) % 3
        if op == "lockNode" and isinstance(query.get("prompt"), str):
            query["prompt"] = f"{query['prompt']} [{self.run_tag}]".strip()

    def operation_id(self, case: Any) -> str:
        return str(case.operation.definition.raw.get("operationId", case.operation.label))

    def on_target(self, text: str) -> str:
        """A URL (or curl) of spec/openapi.yaml with the issue-type path of this target (fixtures.issue_tracker)."""
        tracker = self.profile.fixtures.issue_tracker
        if not tracker or tracker == "tracker":
            return text
        return text.replace(f"{API_PREFIX}/tracker/issuetype.json", f"{API_PREFIX}/{tracker}/issuetype.json")

    def call_kwargs(self, case: Any) -> dict[str, Any]:
        """Transport arguments of one call: the target, the account of the operation, the profile's limits."""
        return {"base_url": self.profile.base_url, "auth": self.auth(self.operation_id(case)),
                "timeout": self.profile.timeout_s, "verify": self.profile.verify_tls}

    def send(self, case: Any) -> Any:
        """Call and validate; a failure names the seed, the rule and a curl (its account's username on the terminal)."""
        op = self.operation_id(case)
        if op == "listIssueTypes" and self.profile.fixtures.issue_tracker is None:
            skip(SkipKind.OTHER,
                 "the profile names no [fixtures] issue_tracker: the issue-type path of this target is unknown")
        if self.budget.exhausted or not self.may_write(op, case):
            why = TIME if self.budget.exhausted else self.why_not_written(op, case)
            self.budget.over_budget[not_sent_key(op, why)] += 1
            # A replay of a failure found never gets here (``failing`` lifts both limits). Neither the deadline
            # nor this operation's writes come back within the test: every further case would be drawn (25 ms of
            # CPU each) only to be counted here. Stop generating; the test passes with what it sent
            # (properties/plugin.py catches BudgetSpent around the call).
            raise BudgetSpent(op)
        self.make_safe(case)
        kwargs = self.call_kwargs(case)
        response = self.transmit(case)
        self.judge(case, response, kwargs)
        return response

    def may_write(self, op: str, case: Any) -> bool:
        """Whether a case of ``op`` may be sent within the test's share of the write budget: reads always; a write
        while the share holds what it may have accepted (a state change on a fresh answer: two) and this operation
        has not had its :data:`WRITES_PER_OPERATION` accepted (so the first operations cannot spend the share of
        the others). A refused write costs nothing: only accepted ones count."""
        need = self.writes_needed(op, case)
        if not need or self.budget.failing:
            return True
        budget = ApiClient.write_budget
        if budget is not None and budget.budget is not None:
            cap = WRITES_PER_OPERATION.get(op, max(2, (budget.limit() or 0) // 4))
            if self.accepted_writes() + need > max(cap, need):
                return False
        return self.budget.writes_left(need)

    def why_not_written(self, op: str, case: Any) -> str:
        """Why :meth:`may_write` held a case of ``op`` back: this operation's cap within the share, or the share."""
        need = self.writes_needed(op, case)
        budget = ApiClient.write_budget
        if budget is not None and budget.budget is not None:
            cap = WRITES_PER_OPERATION.get(op, max(2, (budget.limit() or 0) // 4))
            if self.accepted_writes() + need > max(cap, need):
                return (f"{op} made its {cap} accepted writes of the {budget.pool} share of the write budget, "
                        "which leaves the rest to the other operations")
        return share_spent(need)

    def writes_needed(self, op: str, case: Any, linked: bool | None = None) -> int:
        """Accepted writes a case may cost: none for a read, two for a state change on a fresh answer, else one."""
        if case.method.upper() in ("GET", "HEAD"):
            return 0
        linked = case is self.linked_case if linked is None else linked
        return 2 if op in FRESH_NODE_OPERATIONS and not linked else 1

    def accepted_writes(self) -> int:
        """Writes the target accepted in this test (its fixtures' included), as the client counted them."""
        if "member" not in self.api:
            return 0
        recorder = self.api["member"].recorder
        return sum(c.get("accepted", 0) for c in recorder.writes.values()) - self._accepted_before

    def __post_init__(self) -> None:
        recorder = self.api["member"].recorder if "member" in self.api else None
        self._accepted_before = sum(c.get("accepted", 0) for c in recorder.writes.values()) if recorder else 0

    def transmit(self, case: Any) -> Response:
        """Send a generated case through the account's ApiClient, as a schemathesis Response.

        Not schemathesis's own transport: ApiClient bounds every call by timeout_s in total and max_response_bytes,
        never follows a redirect to another host, and records the exchange (redacted) for the report.
        """
        op = self.operation_id(case)
        client = self.api[self.role(op)]
        tk = case.as_transport_kwargs(base_url=self.profile.base_url)
        tk["url"] = self.on_target(tk["url"])
        headers = {k: str(v) for k, v in (tk.get("headers") or {}).items()
                   if k.lower() not in ("user-agent", "accept", "accept-encoding", "connection", "authorization")}
        params = [(k, x) for k, v in (tk.get("params") or {}).items() for x in (v if isinstance(v, list) else [v])]
        body: bytes | None = None
        if "json" in tk:
            body = json.dumps(tk["json"]).encode()
            headers.setdefault("Content-Type", "application/json")
        elif isinstance(tk.get("data"), (bytes, str)):
            body = tk["data"].encode() if isinstance(tk["data"], str) else tk["data"]
        try:
            resp = client.request(tk["method"], tk["url"], params=params or None, data=body, headers=headers,
                                  operation=op)
        except TargetError as exc:  # an answer the kit cannot use (too big, too slow, not HTTP): the target's fault
            self.budget.failing = True
            raise TargetError(f"[{shape_rule(op)}] {exc}\n(seed {self.budget.seed}; rerun with --seed "
                              f"{self.budget.seed}; sent as {self.role(op)})") from None
        # The request schemathesis sees says that credentials were sent, not which: its checks need to know that
        # auth was sent (ignored_auth also reads transport_kwargs' auth), and what they print must hold no secret.
        sent = {**headers, "Authorization": f"Basic {REDACTED}"}
        request = requests.Request(tk["method"], resp.url, headers=sent, data=body).prepare()
        response = Response(status_code=resp.status, headers={k: [v] for k, v in resp.headers.items()},
                            content=resp.content, request=request, elapsed=resp.exchange.elapsed_ms / 1000,
                            verify=self.profile.verify_tls, message="", encoding=None, http_version="1.1")
        self.last_sent = (response, resp.curl, resp)
        return response

    def judge(self, case: Any, response: Any, kwargs: dict[str, Any]) -> None:
        """Count the status, register what was created, run the checks that apply to this case.

        Only what the description states can fail: a refusal (4xx) of a schema-valid request only where it states
        success for the state the kit knows the node is in, a status only when it is a 2xx other than the one
        stated (5xx: CONV-NO-SERVER-ERROR, a should-rule), an error body only for the Errors table's conditions.
        The rest is recorded as an observation (:meth:`observe_refusal`).
        """
        op = self.operation_id(case)
        status = response.status_code
        self.budget.record(op, status)
        node = self.node_of(case)
        unknown_state = self.pools.ledger.change_above(node) if node is not None else None
        self.register_created(op, case, response, node)
        negative = case.meta is not None and case.meta.generation.mode.is_negative
        excluded: list[Any] = []
        if not (negative and must_reject(op, case)):
            excluded.append(negative_data_rejection)
        if negative or not 200 <= status < 300:
            excluded.append(status_code_conformance)  # a 4xx not listed is observed below; a 5xx is a should-rule's
        if negative or unknown_state is not None or leaves_open(op, case):
            excluded.append(positive_data_acceptance)
        if isinstance(case.query, dict) and "includeOnly" in case.query:
            excluded.append(response_schema_conformance)  # projected items lack required fields by design
        if status >= 400 and not error_body_stated(op, status, schema_valid=not negative):
            excluded += [response_schema_conformance, content_type_conformance]
        try:
            for tries in range(1, holdback.MAX_TRIES + 1):
                failures, held = run_checks(case, response, excluded, kwargs)
                if failures is None:
                    if held and self._wait_out_probe(tries):
                        continue  # only the target's rate limit answered the probe: wait as a hold-back, probe again
                    break
                self.budget.failing = True
                rules, text = self.explain(op, case, response, failures)
                raise self.failure(rules, text, response) from None
        finally:
            if op in STATE_CHANGES and node is not None and 200 <= status < 300:
                self.pools.ledger.moved(node, op)
        if 400 <= status < 500:
            self.observe_refusal(op, case, status, unknown_state, negative)

    def node_of(self, case: Any) -> int | None:
        """The id of the node (or question) the request names in its path, if any."""
        params = case.path_parameters or {}
        for name in ("nodeId", "answerId", "questionId"):
            if name in params:
                return int_value(params[name])
        return None

    def register_created(self, op: str, case: Any, response: Any, parent: int | None) -> None:
        """What a 201 created: in the run's registry, in ``made`` (a chain may act on it), in the ledger."""
        if response.status_code == 201 and op == "scheduleGdprJob":
            job = _json_or_none(response.content)
            if isinstance(job, dict) and "jobId" in job:
                self.created.add("gdpr-job", job["jobId"], self.role(op))
        if response.status_code == 201 and op in ("postAnswer", "postComment"):
            location = (response.headers.get("location") or [""])[0]
            kind = "answer" if op == "postAnswer" else "comment"
            new = created_id(_json_or_none(response.content), location or None)
            if new is not None:
                self.made[new] = kind
                self.pools.ledger.created(new, parent)
            self.created.add(kind, new if new is not None else location, self.role(op))

    def observe_refusal(self, op: str, case: Any, status: int, unknown_state: str | None, negative: bool) -> None:
        """Record a refusal the description does not settle: once per operation, status and reason."""
        listed = str(status) in (case.operation.definition.raw.get("responses") or {})
        if unknown_state is not None:
            node = self.node_of(case)
            again = node is not None and self.pools.ledger.changed.get(node) == STATE_CHANGES.get(op)
            repeat = REPEAT_OBSERVATIONS.get(op) if again else None
            rule, why = repeat or UNLISTED, unknown_state + ": the description does not cover that state"
        elif not listed:
            rule = UNLISTED
            why = ("a request outside the schema" if negative else
                   "a value the description leaves open" if leaves_open(op, case) else "a schema-valid request")
            why += f": the description does not list {status} for {op}"
        else:
            return
        key = (op, status, rule)
        if key in self._observed or self.observe is None:
            return
        self._observed.add(key)
        self.observe(rule, operation=op, status=status, why=why,
                     request=f"{case.method.upper()} {self.on_target(case.formatted_path)}", seed=self.budget.seed)

    def _wait_out_probe(self, tries: int) -> bool:
        """schemathesis's ignored_auth check sends its own probe (without credentials, not through the kit's client)
        and the target's rate limit answered it 429: a hold-back, never a verdict (qaconform.target.holdback). Wait
        as the client would and return True to probe again, or count it given up and return False."""
        hold = holdback.Hold(429, None)
        wait_s = holdback.wait_for(hold, tries)
        recorder = self.api["member"].recorder if "member" in self.api else None
        why = holdback.give_up_why(hold, wait_s, tries, recorder.held_s if recorder is not None else 0.0)
        if recorder is not None:
            recorder.note_hold(429, 0.0 if why else wait_s, given_up=why)
        if why is not None:
            return False
        time.sleep(wait_s)
        return True

    def failure(self, rules: list[str], text: str, response: Any) -> RuleFailure:
        """The failure of a generated request, carrying its rules and *its* exchange as fields: the report's evidence,
        curl and HAR are then the request that failed, not whatever the test sent last (issue 46: a probe sent after
        the failing case, a multipart post answered 415, was shown as the evidence)."""
        failure = RuleFailure(rules, text)
        if self.last_sent is not None and self.last_sent[0] is response:
            sent = self.last_sent[2]
            failure.exchange, failure.curl = sent.exchange, sent.curl
        return failure

    def explain(self, op: str, case: Any, response: Any, exc: FailureGroup) -> tuple[list[str], str]:
        """The rules the failures break (ids, in order) and the message naming each with what broke it."""
        ids: list[str] = []
        rules = []
        for failure in exc.exceptions:
            text = f"{getattr(failure, 'title', '')} {getattr(failure, 'message', '')}"
            tagged = re.findall(r"\[([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\]", getattr(failure, "message", "") or "")
            kind = type(failure).__name__
            if tagged:
                rule = ", ".join(dict.fromkeys(tagged))
            elif kind == "AcceptedNegativeData":
                rule = REFUSAL_RULES.get(op, "CONV-BODY-FORMAT")
            elif isinstance(failure, IgnoredAuth) and failure.scenario == AuthScenario.NO_AUTH:
                rule = ("EXPERTS-401" if "Experts" in case.operation.path else
                        "AUTH-ANONYMOUS-WRITES" if case.method.upper() != "GET" else "AUTH-BAD-CREDENTIALS")
            else:  # undocumented status, schema violation, valid request refused: the operation's answers
                rule = RULES_BY_FAILURE.get(kind, shape_rule(op))
            rules.append(f"{rule}: {text.strip()}")
            ids += [r.strip() for r in rule.split(",") if r.strip() not in ids]
        return ids, (f"generated request broke {len(rules)} rule(s) (seed {self.budget.seed}; rerun with --seed "
                     f"{self.budget.seed}; sent as {self.role(op)}):\n  " + "\n  ".join(rules) +
                     f"\n{exc}\nReproduce with: {self.curl_of(op, case, response)}")

    def curl_of(self, op: str, case: Any, response: Any) -> str:
        """The client's curl of the request (the bytes as sent, e.g. a body that is not UTF-8, and the account as
        ``-u "$USER:$PASSWORD"   # as <role>``, which the plugin and the report turn into the account's username and
        password variable); schemathesis's own when the response did not come through :meth:`transmit`."""
        if self.last_sent is not None and self.last_sent[0] is response:
            return self.last_sent[1]
        curl = case.as_curl_command(headers=dict(response.request.headers), verify=self.profile.verify_tls,
                                    base_url=self.profile.base_url)
        curl = self.on_target(re.sub(r"-H 'Authorization: [^']*'", '-u "$USER:$PASSWORD"', curl))
        return f"{curl}   # as {self.role(op)}"

