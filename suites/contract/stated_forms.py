"""The stated-forms suite's writes: how a field travels in each carrier, and each write made once per run.

test_stated_forms.py holds the tests. Here: the carriers (JSON, raw UTF-8 JSON, a query or a form parameter), the
non-ASCII texts and the drawn ones, which accounts send a form under a write budget, and the module's shared writes
(:class:`Sent`, made by the first test that needs one and read by every other, issue 29).
"""

from __future__ import annotations

import html
import json
import random
import unicodedata
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from qaconform import contract
from qaconform.pytest.exchange_log import judged_again
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.refusals import ANY_4XX, refused, shown, why_not_refused
from qaconform.pytest.seed_draws import form_privacy_carrier_for_seed
from qaconform.pytest.support import BODILESS_HEADERS, NON_ASCII_TEXTS, find_listed, list_all, new_id, present
from qaconform.target.client import ApiClient, ApiResponse, Exchange

CARRIERS = ("json", "json-utf8", "query", "form")
"""How a body field travels: JSON as json.dumps writes it (non-ASCII as \\u escapes), JSON as raw UTF-8 bytes, a
query parameter, a form-encoded request parameter."""
PARAMETER_CARRIERS = ("query", "form")

TEXTS = NON_ASCII_TEXTS
"""One text per kind of non-ASCII a store or a decoder gets wrong (qaconform.pytest.support)."""

WRITERS = ("admin", "moderator", "member", "novice")
PUBLISHERS = ("admin", "moderator", "member")
"""Accounts with Answer questions and Publish answer: their answer is published, so it is listed (novice's goes to
moderation: it is created, but where it is listed is not shown)."""


def every_account() -> bool:
    """True when the run has no write budget (``--thorough``, ``--write-budget unlimited``): then every account that
    may use a form sends it; under a budget one account per form does (issue 29: a default run makes at most about
    100 accepted writes, and test_stated_forms.py made a third of them when every account sent every form)."""
    budget = ApiClient.write_budget
    return budget is None or budget.budget is None


def accounts_for(default: str, among: tuple[str, ...]) -> tuple[str, ...]:
    """The accounts that send a form: ``default`` alone under a write budget (chosen per form so that the form
    rides a write another case makes anyway, and every account writes something), all of ``among`` without one."""
    return among if every_account() else (default,)


def nfc(text: Any) -> str:
    """The text as read: HTML character references resolved (a body is "HTML content", which a server may keep
    with é as &#233;), NFC-normalised (a store may compose characters; it may not change them)."""
    return unicodedata.normalize("NFC", html.unescape(str(text)))


QUERY_BESIDE_OBJECT = "query beside a JSON object"
"""blind95 (issue 44): the query carrier of the visibility comments (:meth:`SentCache.carrier`): every field a query
parameter, beside a JSON object body holding the arrays of objects only, so ``{}`` when there are none. Every other
bodiless write of the module (the body-parameter comments) goes with no body under the samples' Content-Type
(round92), so a parameters-alone write is tried both beside no body and beside an object that names no field: a
server whose JSON binder, given an object, read no parameter (the comment refused as missing its body) went unseen
while every parameter write carried either nothing or a body that held fields."""


def send(client: ApiClient, path: str, fields: dict[str, Any], carrier: str, operation: str,
         json_fields: dict[str, Any] | None = None) -> ApiResponse:
    """POST ``fields`` in one carrier; ``json_fields`` (arrays of objects) always in a JSON body."""
    body = dict(json_fields or {})
    if carrier == "json":
        return client.post(path, json={**body, **fields}, operation=operation)
    if carrier == "json-utf8":
        raw = json.dumps({**body, **fields}, ensure_ascii=False).encode("utf-8")
        return client.post(path, data=raw, headers={"Content-Type": "application/json; charset=utf-8"},
                           operation=operation)
    if carrier == QUERY_BESIDE_OBJECT:  # blind95: the fields as parameters beside a JSON object ({} when no array)
        return client.post(path, params=fields, json=body, operation=operation)
    if carrier == "query":  # round92: no body, the samples' Content-Type all the same (support.BODILESS_HEADERS)
        return client.post(path, params=fields, json=body or None, headers=None if body else dict(BODILESS_HEADERS),
                           operation=operation)
    if carrier == "split":  # types (issue 44): the body form-encoded, every other field a query parameter
        rest = {k: _param_text(v) for k, v in fields.items() if k != "body"}
        return client.post(path, params=rest, data={"body": str(fields["body"])}, operation=operation)
    if body:
        raise ValueError("a form-encoded request cannot carry arrays of objects")
    return client.post(path, data={k: _param_text(v) for k, v in fields.items()}, operation=operation)


def _param_text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def created_rule(resp: ApiResponse, status_rule: str, own_rule: str) -> str:
    """A creation answered with another 2xx breaks the status rule; a refusal, the form this test sends."""
    return status_rule if 200 <= resp.status < 300 else own_rule


def comment_path(node: int) -> str:
    return contract.path("postComment", nodeId=node)


def answer_path(question: int) -> str:
    return contract.path("postAnswer", questionId=question)


@dataclass(frozen=True)
class Sent:
    """One write of test_stated_forms.py: the response, the ASCII text its body was given (what a read-back of the write
    looks for; the non-ASCII texts beside it are the non-ASCII tests' to check, so that a store mangling them fails
    TEXT-NON-ASCII alone) and the id it created (registered), or None when the target did not take it."""

    resp: ApiResponse
    text: str
    id: int | None

    @property
    def taken(self) -> bool:
        return self.id is not None


class SentCache(dict[tuple[Any, ...], Sent]):
    """The module's writes by what they are (kind, account, carrier, fields), and the accounts' user ids: another
    account's id is the stand-in author a JSON answer names among its other Node fields (:func:`node_fields`)."""

    def __init__(self, user_ids: Mapping[str, int] | None = None, seed: int = 0) -> None:
        super().__init__()
        self.user_ids: Mapping[str, int] = user_ids or {}
        self.seed = seed

    @classmethod
    def for_run(cls, user_ids: Mapping[str, int], config: Any) -> SentCache:
        """The run's cache: its seed from the plugin's state (0 outside a run: the form carrier as before)."""
        return cls(user_ids, config.stash[STATE].seed if STATE in config.stash else 0)

    def carrier(self, carrier: str) -> str:
        """The carrier of a visibility comment's fields: the form carrier's drawn by the run's seed
        (seed_draws.FORM_PRIVACY_CARRIERS: "split" sends the visibility as a query parameter beside the form-encoded
        body, on half the seeds); the query carrier's as :data:`QUERY_BESIDE_OBJECT` (blind95: the parameters beside
        a JSON object body that names none of them); any other as it is."""
        if carrier == "query":
            return QUERY_BESIDE_OBJECT
        return form_privacy_carrier_for_seed(self.seed) if carrier == "form" else carrier

    def stand_in(self, role: str) -> int | None:
        """The id of an account other than ``role`` (admin's, or moderator's for admin), None when unknown."""
        other = "moderator" if role == "admin" else "admin"
        return self.user_ids.get(other)


def once(cache: SentCache, key: tuple[Any, ...], make: Callable[[], Sent]) -> Sent:
    if key not in cache:
        cache[key] = make()
    return cache[key]


def as_sent(resp: ApiResponse, text: str, created: Any, kind: str, role: str, ok: Callable[[int], bool]) -> Sent:
    """``resp`` as a :class:`Sent`, its id registered when ``ok(status)``."""
    if not ok(resp.status):
        return Sent(resp, text, None)
    new = new_id(resp)
    created.add(kind, new, role)
    return Sent(resp, text, new)


ALL_SCRIPTS = " / ".join(TEXTS[s] for s in sorted(TEXTS))
"""Every text of :data:`TEXTS` in one body: one write carries the five scripts, each checked on its own."""


def carrier_comment(cache: SentCache, client: ApiClient, answer: int, carrier: str, run_tag: str,
                    created: Any) -> Sent:
    """``client``'s public comment under ``answer`` whose body (every script; in raw UTF-8 JSON the drawn texts too)
    travels in ``carrier``: one per account and carrier, for the body-parameter tests and the non-ASCII ones
    alike."""

    def make() -> Sent:
        text = f"comment body as {carrier} by {client.role} [{run_tag}] {uuid.uuid4().hex[:8]}"
        drawn = f" {' '.join(drawn_texts())}" if carrier == "json-utf8" else ""
        resp = send(client, comment_path(answer), {"body": f"{text} {ALL_SCRIPTS}{drawn}"}, carrier, "postComment")
        return as_sent(resp, text, created, "comment", client.role, lambda status: status == 201)

    return once(cache, ("comment", client.role, carrier), make)


ANSWER_TITLE = "qc: a title beside the answer's body, never its text"
"""The title an answer carries beside its body (fix41, issue 44, blind round 41): "body (string, the answer text);
other Node fields may be supplied", so the answer's text is its body whatever title travels beside it; a server that
stored a supplied title as the text went unseen while every answer sent title null. What a server keeps of the title
is not judged here ("Absent or null for answers" is NODE-TITLE-ANSWERS-COMMENTS's, on what it returns)."""

JSON_NODE_FIELDS: dict[str, Any] = {"wiki": False, "type": "answer", "title": ANSWER_TITLE, "topics": [],
                                    "attachments": []}
"""Node fields an answer may carry, with values that are true of any new answer but the title (:data:`ANSWER_TITLE`;
what a server does with them is not shown; that it takes the request is). A JSON answer carries them all; a
parameter carries scalars only: wiki and the title."""


def node_fields(carrier: str, stand_in: int | None = None) -> dict[str, Any]:
    """The other Node fields a carrier holds; in JSON also an ``author`` naming ``stand_in``, another account
    (fix1819, issue 44: "The acting user is taken from the credentials", so the server ignores or overrides it; a
    server that mass-assigned a supplied author went unseen while no write sent one)."""
    if not carrier.startswith("json"):
        return {"wiki": False, "title": ANSWER_TITLE}
    return {**JSON_NODE_FIELDS, **({"author": {"id": stand_in}} if stand_in is not None else {})}


def json_beside_parameters(carrier: str) -> dict[str, Any]:
    """The Node fields a query-parameter answer carries in a JSON body beside its parameters (fix25, issue 44, blind
    round 25): "each body field may also be given as a request or query parameter" and "other Node fields may be
    supplied", crossed with the JSON body, so that a Node field other than body (wiki) travels as a query parameter
    of a JSON request; a server whose JSON path refused parameters it did not expect went unseen while the JSON
    carrier held every field in its body and the query carrier had none. The fields a parameter cannot carry."""
    if carrier != "query":
        return {}
    return {k: v for k, v in JSON_NODE_FIELDS.items() if k not in node_fields(carrier)}


def carrier_answer(cache: SentCache, client: ApiClient, question_id: int, carrier: str, run_tag: str,
                   created: Any, fields: dict[str, Any] | None = None) -> Sent:
    """``client``'s answer whose body (every script) travels in ``carrier`` with ``fields`` beside it (default: the
    other Node fields the carrier can hold): one per account, carrier and fields, for the body-parameter, non-ASCII
    and other-Node-field tests alike. Any 2xx is taken (an answer held in moderation)."""
    extra = node_fields(carrier, cache.stand_in(client.role)) if fields is None else fields
    beside = json_beside_parameters(carrier) if fields is None else {}

    def make() -> Sent:
        text = f"answer body as {carrier} by {client.role} [{run_tag}] {uuid.uuid4().hex[:8]}"
        resp = send(client, answer_path(question_id), {"body": f"{text} {ALL_SCRIPTS}", **extra}, carrier,
                    "postAnswer", json_fields=beside)
        return as_sent(resp, text, created, "answer", client.role, lambda status: 200 <= status < 300)

    return once(cache, ("answer", client.role, carrier, tuple(sorted(extra))), make)


def body_answer(cache: SentCache, client: ApiClient, question_id: int, carrier: str, run_tag: str,
                created: Any) -> Sent:
    """The answer of :func:`carrier_answer` for a test about its body: when the target refused it, the body alone in
    the same carrier (sent only then), so that a refused Node field is never taken for a refused body."""
    sent = carrier_answer(cache, client, question_id, carrier, run_tag, created)
    return sent if sent.taken else carrier_answer(cache, client, question_id, carrier, run_tag, created, fields={})


T = TypeVar("T")


@dataclass
class ReadBacks:
    """The read-backs of the module's shared writes, each made once, after its write, and judged by every test of
    that write (speed, issue 44): one comment per carrier holds every script, so the five scripts' tests read the same
    lists for the same node; reading them five times sent the same requests with no write in between. A read-back
    that failed is not kept (the next test reads again and meets its own verdict); a kept one is logged again under
    each test that judges it (``judged_again``: its HAR cassette holds what it judged)."""

    kept: dict[tuple[Any, ...], tuple[Any, list[Exchange]]] = field(default_factory=dict)

    def once(self, key: tuple[Any, ...], client: ApiClient, read: Callable[[], T]) -> T:
        if key in self.kept:
            value, exchanges = self.kept[key]
            for exchange in exchanges:
                judged_again(exchange)
            return value  # type: ignore[no-any-return]
        before = client.recorder.total
        got = read()
        sent = client.recorder.total - before
        self.kept[key] = (got, client.recorder.exchanges[-sent:] if sent > 0 else [])
        return got


def read_comment(client: ApiClient, answer: int, sent: Sent, rule: str) -> dict[str, Any]:
    """The comment ``sent`` created, read back by its author from the answer's comment list."""
    assert sent.id is not None
    item = find_listed(client, contract.path("listAnswerComments", answerId=answer), sent.id, until=present)
    if item is None:
        fail([rule], f"comment {sent.id} (by {client.role}) is not in answer {answer}'s comment list as its "
                     f"author reads it", sent.resp)
    return item


def unless_read_lacks_the_field(client: ApiClient, item: dict[str, Any], answer: int, profile: Any) -> None:
    """Skip, saying why, when ``item`` (a comment posted with a private visibility, read back by ``client``) carries
    no visibility while this target gives full comments one: the profile's ``[visibility] full`` names its wire value,
    or the answer's comment list, as ``client`` reads it, shows a full comment with one (crossing13). Why: a comment
    read back without the field was stored full only where the target shows full comments without it ("whether a
    comment with full visibility carries them is left open"); elsewhere a comment without one was not stored full,
    and the missing field is the read's (COMMENT-VISIBILITY-RETURNED's, judged on the privacy thread), not
    CONV-PARAM-AS-BODY-FIELD's. At most one read more, made only when the field is missing."""
    if "visibility" in item:
        return
    shown = profile.visibility.full is not None
    if not shown:
        listed = list_all(client, contract.path("listAnswerComments", answerId=answer), page_size=100, max_pages=5)
        shown = any(i.get("visibility") is not None and profile.visibility.reads_as_full(i.get("visibility"))
                    for i in listed)
    if shown:
        skip(SkipKind.OTHER, f"not judged: {client.role}'s comment list gives the comment no visibility, yet full "
             "comments carry one on this target ([visibility] full, or the list's): it was not stored full, and a "
             "private comment read without its fields is COMMENT-VISIBILITY-RETURNED's (test_comment_privacy.py, "
             "the subtree rows)")


DRAWN_SEED = 20260801
"""The drawn texts are a fixed series, so that a run is repeatable."""


def drawn_texts(count: int = 8, seed: int = DRAWN_SEED) -> list[str]:
    """``count`` texts of 1 to 24 characters drawn from every assigned code point but controls, surrogates, private
    use, line and paragraph separators and the HTML-special characters (a body is HTML content, which a server may
    escape). Bounded: a draw is kept about one time in seven, and at most 200 draws are made per character."""
    rng = random.Random(seed)
    excluded = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}
    texts: list[str] = []
    for _ in range(count):
        chars: list[str] = []
        for _ in range(rng.randint(1, 24)):
            for _ in range(200):
                c = chr(rng.randrange(0x20, 0x3134A))  # up to the last assigned CJK block
                if unicodedata.category(c) not in excluded and c not in "<>&\"'\\":
                    chars.append(c)
                    break
        texts.append(f"[{''.join(chars).strip() or 'x'}]")
    return texts


EXPERT_LISTS = ("listActiveExperts", "listEarnedExperts")  # "| 401 | Expert lists | Missing or bad credentials |"

WRONG_PASSWORD_FORMS: dict[str, Callable[[str], str]] = {
    "empty": lambda right: "",
    "colon-part-added": lambda right: f"{right}:qc{uuid.uuid4().hex[:6]}",
    "case-swapped": lambda right: right.swapcase() if right.swapcase() != right else f"{right}Q",
    "last-character-dropped": lambda right: right[:-1] if len(right) > 1 else f"{right}x",
    "space-appended": lambda right: f"{right} ",
}
"""Wrong passwords near the right one, each the one a plausible comparison takes for it (AUTH-BAD-CREDENTIALS):
empty; the right one with ':<more>' (credentials split at every colon); in the other letter case (compared without
case; a password with no cased letter gets one added); cut by its last character (a prefix compared); with a space
after it (trimmed). Round32 (issue 44): a case-insensitive comparison on the expert lists let in every account."""


def judge_bad_credentials(resp: ApiResponse, operation: str, what: str) -> None:
    """Refused by the interface itself (refusals.py): with the stated 401 on the expert lists (EXPERTS-401 when
    another 4xx), any 4xx elsewhere (AUTH-BAD-CREDENTIALS: the description states no status there)."""
    statuses = (401,) if operation in EXPERT_LISTS else ANY_4XX
    if (why := why_not_refused(resp, statuses)) is None:
        return
    rule = "EXPERTS-401" if refused(resp) else "AUTH-BAD-CREDENTIALS"
    fail([rule], f"{what} must be refused with {shown(statuses)} on {operation}; {why}", resp)


def judge_author(sent: Sent, client: ApiClient, sent_once: SentCache) -> None:
    """The answer sent with an author naming another account (:func:`stated_forms.node_fields`) is the caller's:
    "The acting user is taken from the credentials" (AUTH-ACTING-USER). Judged on a 201 that shows the node's
    author (a moderated answer's body may not); in any carrier the author is the caller's, sent or not."""
    stand_in = sent_once.stand_in(client.role)
    body = _json_body(sent.resp) if sent.taken else None
    author = body.get("author") if isinstance(body, dict) else None
    if stand_in is None or not isinstance(author, dict):
        return
    own = sent_once.user_ids.get(client.role)
    mine = author.get("username") == client.username or (own is not None and str(author.get("id")) == str(own))
    expect(mine and str(author.get("id")) != str(stand_in), "AUTH-ACTING-USER",
           f"{client.role}'s answer carried author {{'id': {stand_in}}} (another account) among its other Node "
           f"fields; the acting user is taken from the credentials, so the new answer's author is {client.role} "
           f"({client.username}, id {own}); got {author}. Check that the server ignores a supplied author",
           sent.resp)


def _json_body(resp: ApiResponse) -> Any:
    try:
        return resp.json() if resp.content.strip() else None
    except (AssertionError, ValueError):
        return None
