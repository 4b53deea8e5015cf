"""The response checks every load request passes through, as plain functions (no Locust here): the adapter of
the response invariants (:mod:`qaconform.invariants`) to Locust's failures table.

Why plain and cheap: they run on every request of a load test, in the generator's own CPU budget, so each is a
few comparisons on data already in memory; schema validation belongs to the conformance suites. Each check is a
function named for what it checks; a failure is a :class:`CheckFailure` whose message starts with that name and
stays low-cardinality (no ids or counts in it), because Locust groups failures by message.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import orjson

from qaconform.contract import envelope
from qaconform.invariants import is_json_content_type, listcount_problem, not_an_envelope
from qaconform.load.check_rules import rule_of


class CheckFailure(AssertionError):
    """A response that broke a check; ``str()`` is what Locust shows in its failures table."""

    def __init__(self, check: str, message: str, body: Any = None) -> None:
        super().__init__(f"{check}: {message}")
        self.check = check
        self.message = message
        self.body = body  # the parsed body when there was one (a refusal's ``success: false``)
        self.rule: str | None = None
        """The rule of spec/rules.yaml this failure breaks (:func:`name_rule`); None: no rule decides it."""

    def name_rule(self, op: str, status: int, expect: Expect) -> None:
        """Name the rule this failure of a call to ``op`` breaks (:mod:`qaconform.load.check_rules`); called by the
        load user on failures only."""
        self.rule = rule_of(op, self.check, self.message, status, expect.rule)


@dataclass(frozen=True)
class Expect:
    """What a call site accepts: exact statuses and/or whole classes (2 = any 2xx), and the body it expects."""

    statuses: frozenset[int] = frozenset()
    classes: frozenset[int] = frozenset({2})
    envelope: bool = False  # a paged list envelope (name, page, list, listCount ...)
    array: bool = False  # a bare JSON array (user content, issue types)
    state_change: bool = False  # unfavorite, cancelwiki, sendToMod, lock: a 4xx or ``success: false`` is a refusal
    gone: frozenset[int] = frozenset()
    """Statuses that say the item a read names is no longer shown to this caller (a learnt answer since sent to
    moderation, by this run or anyone: who sees such a node is not stated): not judged, counted under the request
    name with `` (gone)``, and the caller stops reading it."""
    rule: str | None = None
    """The rule a wrong status (a refusal, a body that is not the array expected) at this call site breaks, when it is
    not the operation's permission rule (:data:`qaconform.load.check_rules.ALLOWED_STATUS_RULES`): an error path's
    rule, an own-node lock, a private comment."""

    def accepts(self, status: int) -> bool:
        return status in self.statuses or (status // 100) in self.classes

    def describe(self) -> str:
        parts = [str(s) for s in sorted(self.statuses)] + [f"{c}xx" for c in sorted(self.classes)]
        return " or ".join(parts)


PARSE_EVERY = 16
"""A load user parses one list answer in this many (loadtests/qaload/base.py) and checks its envelope fully; every
answer's status, Content-Type, envelope bytes and size are checked. Here, on the side both processes import, so that
the reports can say so without reading the Locust side's source."""

OK_JSON = Expect()
OK_LIST = Expect(envelope=True)
OK_ARRAY = Expect(array=True)
OK_LIST_OR_GONE = Expect(envelope=True, gone=frozenset({400, 403, 404, 410}))
GONE = "(gone)"
"""The request-name suffix of a read answered with one of its ``Expect.gone`` statuses."""
"""A list under a node the load learnt from an earlier answer (an answer's comments): a 400, 403, 404 or 410 is that
node no longer shown to this caller. Which status a node the caller may not see (in moderation: "its visibility is
not shown") or one that no longer exists gets is not given ("status of an unknown node id": a 400 or a 404 are both
readings, and a question's ``answers`` may list an answer in moderation): a denial of the list itself (403) is judged
by the suites, which know the node's state; 401 (the load's credentials are good) and 5xx stay failures."""
CREATED = Expect(statuses=frozenset({201}), classes=frozenset())
STATE_CHANGE = Expect(state_change=True)
"""A state change the load sends to a node in the state it needs ("200 with {success: boolean, ...}")."""


def expect_status(*statuses: int, rule: str | None = None) -> Expect:
    """An error-path call site: exactly these statuses, nothing else (a 2xx there is a failure too); ``rule``: the
    rule that states them."""
    return Expect(statuses=frozenset(statuses), classes=frozenset(), rule=rule)


BODY_START = 80
"""Characters of an unexpected answer's body a failure row shows."""
_DIGITS = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")


def body_start(content: bytes | None) -> str:
    """The start of a body for a failure row: what the server said, with every number shown as ``#`` so that the
    rows still group (Locust makes one row per distinct message; ids would make one per node)."""
    if not content:
        return "(empty body)"
    text = _SPACE.sub(" ", content[: BODY_START * 2].decode("utf-8", "replace")).strip()
    text = _DIGITS.sub("#", text)
    return text[:BODY_START] + ("…" if len(text) > BODY_START or len(content) > BODY_START * 2 else "")


def status_expected(status: int, expect: Expect, content: bytes | None = None) -> None:
    if status == 0:
        raise CheckFailure("status_expected", "no HTTP answer (connection refused, reset or timed out)")
    if not expect.accepts(status):
        raise CheckFailure("status_expected", f"got {status}, expected {expect.describe()}; body: "
                           f"{body_start(content)}")


def state_change_done(status: int, content: bytes | None, js: Any = None) -> None:
    """A state change the target refused fails as ``refused``, not ``status_expected``: a 4xx, or a 200 whose body
    says ``success: false`` (the description's answer is "200 with {success: boolean, ...}"). The status stays in
    the message (``got 400``), so the rows group per status and capacity still tells a 4xx to a state change."""
    if 400 <= status < 500:
        raise CheckFailure("refused", f"got {status}; body: {body_start(content)}")
    if isinstance(js, dict) and js.get("success") is False:
        raise CheckFailure("refused", f"got {status} with success false; body: {body_start(content)}", body=js)


def json_content_type(content_type: str | None) -> None:
    """The same test as the suites' (qaconform.invariants): application/json or an application/*+json type."""
    if not content_type or not is_json_content_type(content_type):
        raise CheckFailure("json_content_type", f"Content-Type is {content_type or 'missing'}, not application/json")


_TYPE_VERDICTS: dict[str, bool] = {}
_TYPE_VERDICTS_CAP = 64
"""Content-Type values already judged by :func:`json_content_type` (a target answers with one or two, and the
test splits and lowercases on every answer); bounded, so a target varying its parameters costs no memory."""


def _json_type_ok(content_type: str | None) -> bool:
    """Whether :func:`json_content_type` accepts this value, remembered per value."""
    if content_type is None:
        return False
    ok = _TYPE_VERDICTS.get(content_type)
    if ok is None:
        ok = is_json_content_type(content_type) if content_type else False
        if len(_TYPE_VERDICTS) < _TYPE_VERDICTS_CAP:
            _TYPE_VERDICTS[content_type] = ok
    return ok


def json_body(content: bytes) -> Any:
    """The parsed body. orjson first (a third of json's CPU on a list page, and a load user parses every answer it
    needs and a sample of the others); json decides what orjson refuses (NaN, a byte-order mark, a lone surrogate),
    so a body is valid here exactly when json accepts it. (orjson reads an integer beyond 64 bits as a float: a
    listCount that large differs from the number of items either way.)"""
    try:
        return orjson.loads(content)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(content)
    except ValueError:
        raise CheckFailure("json_body", "body is not valid JSON") from None


NOT_AN_OBJECT = "body is not a JSON object"
NO_ITEMS = "'list' is missing or not an array"


def list_envelope(js: Any) -> None:
    """The cheap part of the envelope invariants (:mod:`qaconform.invariants`): an object whose array of items
    holds ``listCount`` of them. The messages are fixed, the same as :func:`list_envelope_bytes` gives."""
    if not_an_envelope(js) is not None:
        raise CheckFailure("list_envelope", NO_ITEMS if isinstance(js, dict) else NOT_AN_OBJECT)
    if listcount_problem(js) is not None:
        raise CheckFailure("list_envelope", "listCount differs from the number of items in 'list'")


def json_array(js: Any) -> None:
    if not isinstance(js, list):
        raise CheckFailure("json_array", "body is not a JSON array")


def list_envelope_bytes(content: bytes) -> None:
    """The envelope check without parsing: a JSON object that has a ``list`` member (a substring search).

    Parsing a list page costs the generator more than sending the request, so most list answers get this and a
    sample gets the full :func:`list_envelope` (see :func:`check_response`).
    """
    if content[:1] != b"{" or (content[-1:] != b"}" and content.rstrip()[-1:] != b"}"):  # no copy in the usual case
        raise CheckFailure("list_envelope", NOT_AN_OBJECT)
    if _items_key() not in content:
        raise CheckFailure("list_envelope", NO_ITEMS)


@cache
def _items_key() -> bytes:
    """``"list"`` as bytes: the envelope's array of items, named by spec/schemas/envelope.json."""
    return json.dumps(envelope().items).encode()


def check_response(status: int, content_type: str | None, content: bytes | None, expect: Expect,
                   parse: bool = True) -> Any:
    """Run every check that applies; return the parsed body (None when there is none). Raises CheckFailure.

    ``parse=False`` on a list answer checks the envelope on the bytes only and returns None; callers parse a
    sample of their answers (and every answer whose content they need).
    """
    if status == 429 and not expect.accepts(429):
        # counted apart (its own row of Locust's failures): the generator outran the target's rate limit, a capacity
        # signal, not a broken rule; the suites wait these out (qaconform.target.holdback), a load run measures them
        raise CheckFailure("rate_limited", "429: the target held the request back (its rate limit)")
    if status in expect.gone:
        return None
    if expect.state_change:
        state_change_done(status, content)
    if status == 0 or not (status in expect.statuses or status // 100 in expect.classes):  # Expect.accepts, inline
        status_expected(status, expect, content)
    if not content:
        if expect.envelope or expect.array or status == 200:
            raise CheckFailure("json_body", "empty body where JSON was expected")
        return None
    if not _json_type_ok(content_type):
        json_content_type(content_type)
    if not parse and expect.envelope and status < 300:
        list_envelope_bytes(content)
        return None
    js = json_body(content)
    if status < 300:
        if expect.envelope:
            list_envelope(js)
        elif expect.array:
            json_array(js)
        elif expect.state_change:
            state_change_done(status, content, js)
    return js
