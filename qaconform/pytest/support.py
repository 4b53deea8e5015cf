"""Helpers the suites share: create content under the profile's fixtures, read lists to the end, find ids.

Every write goes through here so that everything the run creates is tagged with the run tag in its body and
registered (the report lists it), and so that a target that answers 201 without a usable id fails clearly.
"""

from __future__ import annotations

import fcntl
import hashlib
import html
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import urljoin, urlsplit

from qaconform import contract
from qaconform.pytest import one_shots, seed_draws
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.created_id import created_id
from qaconform.target.politeness import PACE
from qaconform.target.settle import settle as settle_loop
from qaconform.target.writes import OBSERVATIONS, SUITES

T = TypeVar("T")
J = TypeVar("J")


def for_each(roles: Iterable[str], read: Callable[[str], T]) -> dict[str, T]:
    """``read(role)`` for every role at once, one thread each; the results by role, the first error raised as is.

    For reads that do not depend on one another (what each account is shown of one list): against a target far
    away, four accounts read in the time of one. Each account has its own client, so no connection is shared; the
    profile's politeness limits still hold, as every client of the process waits for the same limiter. Once the
    target has held the run back (``PACE.was_held``), one read after another, as every fan-out of the kit then does
    (qaconform/target/fanout.py): a rate-limiting gateway answers reads asked together with more 429s, not sooner.
    """
    roles = list(roles)
    if len(roles) < 2 or PACE.was_held:
        return {role: read(role) for role in roles}
    with ThreadPoolExecutor(max_workers=len(roles), thread_name_prefix="qc-read") as pool:
        futures = {role: pool.submit(read, role) for role in roles}
        return {role: future.result() for role, future in futures.items()}


class Registry(Protocol):
    def add(self, kind: str, id: Any, by: str) -> None: ...


def new_id(resp: ApiResponse) -> int:
    """The id of what a 201 created (:func:`qaconform.target.created_id.created_id`), or a failure showing the
    exchange."""
    try:
        body = resp.json()
    except AssertionError:
        body = None
    found = created_id(body, resp.headers.get("location"))
    if found is not None:
        return found
    raise AssertionError(f"a 201 gave no id in its body nor in its Location header\n{resp.describe()}")


def register_wrongly_created(resp: ApiResponse, created: Registry, role: str, kind: str = "comment") -> None:
    """What a target that wrongly accepted a write a test expected refused created, registered as the run's
    (cleanup, report); a 2xx that names no id registers nothing: the test judges the status, not the id."""
    if 200 <= resp.status < 300:
        try:
            created.add(kind, new_id(resp), role)
        except (AssertionError, ValueError, KeyError, TypeError):
            pass


def expect_created(resp: ApiResponse, rule: str, what: str) -> int:
    """The id of what a 201 created; any other status is a RuleFailure naming ``rule``, the rule the caller needed
    to hold, so that the tests that needed the content are reported blocked by that rule, not failed on their own.
    A refusal (401, 403) of a write the kit makes only as an account the permission table lets make it is charged to
    the operation's permission rule too (fix24, issue 44: a moderator refused its answer broke PERM-ANSWER, yet every
    test that needed the answer was reported blocked by ANSWER-201 alone); ``rule`` stays, since a refusal of a
    stated 201 (a reply's own visibility, a private option) breaks that statement as well."""
    if resp.status != 201:
        refused = permission_rule(resp.exchange.operation) if resp.status in REFUSALS else None
        if refused is None or refused == rule:
            fail([rule], what, resp)
        fail([refused, rule], f"{what} (refused {resp.status}: the permission table lets this caller make it)", resp)
    return new_id(resp)


ANY_ACCEPT = {"Accept": "*/*"}
"""The request form beside the samples' ``Accept: application/json`` (fix24, issue 44): "Each path ends in .json, which
selects the JSON format", so a write's response is the same JSON whatever the Accept. Where a run makes a second
accepted write of one operation anyway (admin's unfavorite after member's), that one is sent so, and its response
judged by the same shape rules: the Accept header becomes a dimension of the write's shape at no write more."""

REFUSALS = (401, 403)
"""The statuses of a refusal ("Errors: 401 unauthenticated, 403 forbidden")."""


def permission_rule(operation: str | None) -> str | None:
    """The permission rule of a write ``operation`` (the first of spec/rules.yaml's area permissions naming it:
    postAnswer PERM-ANSWER, postComment PERM-COMMENT), None for an operation no permission rule names."""
    if operation is None:
        return None
    found = [r.id for r in contract.load_contract().rules.values()
             if r.area == "permissions" and operation in r.operations]
    return found[0] if found else None



NON_ASCII_TEXTS = {
    "latin": "déjà vu, naïve café, Ærøskøbing, straße",
    "cjk": "日本語のコメント 中文评论 한국어 댓글",
    "rtl": "تعليق بالعربية، תגובה בעברית",
    "astral": "emoji 😀🎉, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢, 𠜎𠜱",
    "joined": "👩‍💻 👨‍👩‍👧 🇫🇷 ✓",
}
"""One text per kind of non-ASCII a store or a decoder gets wrong: Latin-1 range, CJK (3-byte UTF-8), right-to-left,
4-byte UTF-8 (a 3-byte "utf8" column drops them), sequences joined by U+200D and flags. No HTML-special characters:
the body is HTML content, which a server may escape. The stated-forms suite sends them in every form; the shared
locks of suites/conftest.py carry them in their prompt."""

MARKUP_TEXT = "a & b <c> \"d\" 'e'"
"""HTML-special characters in a text that is not HTML content (round14, issue 44): a lock's prompt, which "is stored as
extra of the returned lock action" (a plain string), so a server that escapes it on one path changes it."""


def same_plain_text(got: Any, sent: str) -> bool:
    """Whether ``got`` is the plain text ``sent``: NFC-normalised, and non-ASCII characters kept as character
    references (&#233;) resolved, as a store may; an ASCII character sent raw and returned as a reference (&amp;,
    &lt;, &#39;) is a changed text, since a plain string is not HTML."""
    if not isinstance(got, str):
        return False

    def non_ascii(m: re.Match[str]) -> str:
        resolved = html.unescape(m.group(0))
        return resolved if resolved != m.group(0) and not resolved.isascii() else m.group(0)

    resolved = re.sub(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);", non_ascii, got)
    return unicodedata.normalize("NFC", resolved) == unicodedata.normalize("NFC", sent)

def answer_posted(resp: ApiResponse, purpose: str = "to the fixture question") -> int:
    """The id of an answer a test or fixture needed to post first (:func:`expect_created` on ANSWER-201)."""
    return expect_created(resp, "ANSWER-201", f"{resp.exchange.role} could not post an answer {purpose}")


def post_answer(client: ApiClient, question_id: int, tag: str, created: Registry | None = None,
                text: str = "answer", **params: Any) -> ApiResponse:
    """POST an answer tagged with the run tag; registers it when created."""
    body = {"body": f"<p>{text} [{tag}]</p>"}
    resp = client.post(contract.path("postAnswer", questionId=question_id), json=body, params=params or None,
                       operation="postAnswer")
    if 200 <= resp.status < 300 and created is not None:  # an answer held in moderation: any 2xx
        created.add("answer", new_id(resp), client.role)
    return resp


ANSWER_PUBLISHERS = ("member", "admin", "moderator")
"""The accounts holding Answer questions and Publish answer, in the order they take the input forms of their shared
answers (:func:`answer_form`)."""
LOSING_BODY = "the JSON body, which the parameter of the same name overrides"
"""The JSON body of an answer whose body is also a query parameter (input form param_wins): never the answer's text."""


OPTIONS_ANSWER_WRITER = "admin"
"""round50 (issue 44): the publisher whose shared answer in its own form (:func:`answer_form`) carries every option
postAnswer states ("Option wrap"), as admin's unfavorite carries the action's (one_shots.stated_options). The options
were sent on a refused answer (the permission matrix) and on member's shared answer, whose 201 nothing judges
(suites/shared_answer_post.py), so an accepted answer's Node built on another code path when an option is given was
never read. Its effect is not shown: a 2xx that is no Node is not judged (suites/contract/answer_responses.py). No
write more: the answer is posted anyway."""


def answer_options(role: str, form: str, seed: int | None = None) -> dict[str, str]:
    """The options ``role``'s answer in ``form`` carries: postAnswer's stated options for
    :data:`OPTIONS_ANSWER_WRITER`'s shared answer (forms20: the run's ``seed`` draws the writer where given,
    seed_draws.OPTIONS_ANSWER_WRITERS), none for any other."""
    from qaconform.pytest.seed_draws import options_answer_writer_for_seed

    writer = OPTIONS_ANSWER_WRITER if seed is None else options_answer_writer_for_seed(seed)
    if role == MODERATED_OPTIONS_ANSWER and form == _second_form():  # round62: a moderated answer with the options
        return one_shots.stated_options("postAnswer")
    if role != writer or form != answer_form(role):
        return {}
    return one_shots.stated_options("postAnswer")


MODERATED_OPTIONS_ANSWER = "novice"
"""round62 (issue 44: a permission decided differently only when an optional parameter is given): the writer without
Publish answer whose answer in its second input form (query parameters; its JSON answer is the one the others are
compared with) carries postAnswer's stated options on every seed. The options went on publishers' answers only, so a
server whose wrapped branch publishes without Publish answer was never met; the answer form matrix judges this one
moderated like novice's other forms. No write more: novice posts in every form anyway."""


def _second_form() -> str:
    return str(contract.load_contract().dimensions.values["input_form"][1])


def answer_form(role: str) -> str:
    """The input form of ``role``'s shared answer (suites/conftest.py ``answer_of``), a stable assignment derived from
    spec/dimensions.yaml's ``input_form``: the publishers take its values in order (member the JSON body, admin query
    parameters, moderator a form-encoded body), novice the first (the JSON body: its moderated answer is the one every
    other form of novice's is compared with, suites/contract/test_answer_form_matrix.py)."""
    forms = contract.load_contract().dimensions.values["input_form"]
    return dict(zip(ANSWER_PUBLISHERS, forms, strict=False)).get(role, forms[0])


PARAM_WINS_OVER_FORM = ("novice", "admin")
"""The writers whose ``param_wins`` answer carries the losing body form-encoded, not as JSON: the parameter wins over
a body in either stated format ("A body sent with a request must have the format that matches the URL extension or
the request's Content-Type header"), and a server may merge the two in another order for each (blind round of issue
44: a form field merged after the query). Under a write budget member's (JSON) and novice's (form) are posted, so
every run tries both; without one every writer's, two each."""


FIELDS_BESIDE_A_BODY_PARAMETER: dict[str, Any] = {"wiki": False, "type": "answer"}
"""Other Node fields an answer whose body is a query parameter carries in a JSON body of its own, without body (fix3,
issue 44: "each body field may also be given as a request or query parameter of the same name" and "other Node
fields may be supplied", crossed: a server that took a JSON body as the whole input and refused the answer for want
of a body went unseen while the body parameter travelled only beside an empty body). Values true of any new answer;
the body parameter alone is still sent by test_stated_forms.py's query carrier."""
PARAMETERS_ALONE: tuple[str, ...] = ("novice",)
"""round75 (issue 44): the writers whose query-form answer carries its fields as parameters alone, no body at all
(the stated form "each body field may also be given as a request or query parameter", whole): a server whose
bodiless request takes another serializer (an integer id, no plug) went unseen while every query answer carried a
JSON body beside. novice's (posted in every form under a budget) goes bare, admin's keeps the fields beside (fix3)."""

BODILESS_HEADERS: dict[str, str] = {"Content-Type": "application/json"}
"""round92 (issue 44): the header a parameters-alone write carries with no body at all, as the samples send it on every
request ("The samples send Accept and Content-Type set to application/json"; "A body sent with a request must have
the format that matches ... the request's Content-Type header": none is sent). A server whose JSON reader ran on the
empty body before the parameters were read (400) went unseen while every bodiless write went without the header.
novice's parameters-alone answer and the query carrier's bodiless comments (suites/contract/stated_forms.py) carry
it; the shared plain comments in the query form (:func:`post_comment_in`) go without, so both stay tried."""

def param_wins_over_form(role: str, seed: int | None = None) -> bool:
    """Whether ``role``'s param_wins answer carries its losing body form-encoded: :data:`PARAM_WINS_OVER_FORM`, or,
    at a seed drawing "novice json" (seed_draws.PARAM_WINS_BODIES, round46), the other writers (None: as listed)."""
    from qaconform.pytest.seed_draws import param_wins_body_for_seed

    listed = role in PARAM_WINS_OVER_FORM
    return listed if seed is None or param_wins_body_for_seed(seed) == "novice form" else not listed


def post_answer_in(client: ApiClient, question_id: int, tag: str, created: Registry | None, text: str,
                   form: str, seed: int | None = None, options: dict[str, str] | None = None) -> ApiResponse:
    """POST an answer whose body travels in one input form (spec/dimensions.yaml ``input_form``): ``json`` the JSON
    body, ``query`` a query parameter beside a JSON body of :data:`FIELDS_BESIDE_A_BODY_PARAMETER` (other Node fields,
    no body; none at all for :data:`PARAMETERS_ALONE`), ``form`` a form-encoded request parameter, ``param_wins`` a
    query parameter beside a body of :data:`LOSING_BODY` ("When both are given, the parameter wins"), JSON or
    form-encoded by the writer (:func:`param_wins_over_form`: by the run's ``seed`` where given). ``options``: query
    parameters the operation states beside its fields (round50, issue 44: wrap). Registers what it created."""
    if form == "json":
        return post_answer(client, question_id, tag, created, text=text, **(options or {}))
    body = f"<p>{text} [{tag}]</p>"
    kw: dict[str, Any] = {"params": {"body": body, **(options or {})}}
    if form == "form":
        kw = {"data": {"body": body}, "params": dict(options or {}) or None}
    elif form == "param_wins" and param_wins_over_form(client.role, seed):
        kw["data"] = {"body": f"<p>{LOSING_BODY} [{tag}]</p>"}
    elif form == "param_wins":
        kw["json"] = {"body": f"<p>{LOSING_BODY} [{tag}]</p>"}
    else:
        assert form == "query", f"unknown input form {form!r}"
        if client.role not in PARAMETERS_ALONE:  # round75: novice's parameters alone
            kw["json"] = dict(FIELDS_BESIDE_A_BODY_PARAMETER)
        else:  # round92: under the samples' Content-Type, no body
            kw["headers"] = dict(BODILESS_HEADERS)
    resp = client.post(contract.path("postAnswer", questionId=question_id), operation="postAnswer", **kw)
    if 200 <= resp.status < 300 and created is not None:
        created.add("answer", new_id(resp), client.role)
    return resp


def comment_form(role: str, seed: int) -> str:
    """The input form of ``role``'s shared plain comment (suites/conftest.py ``comment_of``), drawn by the run's seed:
    the accounts of spec/dimensions.yaml's ``writer`` take its ``input_form`` values in a rotation the seed shifts, so
    every run posts a plain comment in every form, each by another writer, and four seeds pair every writer with every
    form (a Latin square: two dimensions of four values crossed across runs) at no write of their own (issue 44).
    closea: the rotation is named by novice's form (seed_draws.novice_comment_form_for_seed, a DRAWS dimension)."""
    dims = contract.load_contract().dimensions
    writers, forms = dims.values["writer"], dims.values["input_form"]
    start = forms.index(seed_draws.novice_comment_form_for_seed(seed)) - writers.index("novice")
    return forms[(writers.index(role) + start) % len(forms)] if role in writers else forms[0]


FULL_NAMED_BY: tuple[str, ...] = ("novice",)
"""round38 (issue 44): the accounts whose shared plain comment names the full visibility explicitly beside its body.
"A private visibility option ... used by a caller who lacks the permission to use private comments ... gives 403":
full visibility is no private option, so naming it is a plain comment still, and the account the permission table
denies Use Private Comments (novice) is the one a server checking that permission on the field's presence refuses.
The others send no privacy field (COMMENT-1's premise, judged on their rows)."""


def comment_other_fields(role: str, full: str | None, private_comments: bool) -> str:
    """``stated`` when ``role``'s shared plain comment names the full visibility (:data:`FULL_NAMED_BY`, on a target
    with private comments whose profile names the full value), else ``none``: spec/dimensions.yaml ``other_fields``."""
    return "stated" if role in FULL_NAMED_BY and full is not None and private_comments else "none"


def post_comment_in(client: ApiClient, node_id: int, tag: str, created: Registry | None, text: str,
                    form: str, losing_form_encoded: bool = False, visibility: str | None = None) -> ApiResponse:
    """POST a plain comment whose body travels in one input form (spec/dimensions.yaml ``input_form``, as
    :func:`post_answer_in`: ``param_wins`` a query parameter beside a body of :data:`LOSING_BODY`, JSON, or
    form-encoded when ``losing_form_encoded``: the parameter wins over a body in either stated format, and a server
    may merge the two in another order for each, as :data:`PARAM_WINS_OVER_FORM` says of answers; fix25, issue 44).
    ``visibility``: a visibility value sent beside the body, in the body's form (round38, issue 44: the full
    visibility named explicitly on a plain comment)."""
    if form == "json":
        return post_comment(client, node_id, tag, created, text=text, visibility=visibility)
    body = f"{text} [{tag}]"
    beside = {} if visibility is None else {"visibility": visibility}
    kw: dict[str, Any] = {"params": {"body": body, **beside}}
    if form == "form":
        kw = {"data": {"body": body, **beside}}
    elif form == "param_wins" and losing_form_encoded:
        kw["data"] = {"body": f"{LOSING_BODY} [{tag}]"}
    elif form == "param_wins":
        kw["json"] = {"body": f"{LOSING_BODY} [{tag}]"}
    else:
        assert form == "query", f"unknown input form {form!r}"
    resp = client.post(contract.path("postComment", nodeId=node_id), operation="postComment", **kw)
    if resp.status == 201 and created is not None:
        created.add("comment", new_id(resp), client.role)
    return resp


def post_comment(client: ApiClient, node_id: int, tag: str, created: Registry | None = None, text: str = "comment",
                 visibility: str | None = None, recipients: Sequence[int | str] | None = None,
                 params: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> ApiResponse:
    """POST a comment (with privacy fields when given) tagged with the run tag; registers it when created.
    ``headers``: the request's own (a Content-Type given there keeps it: round101, the other typing of a refusal)."""
    body: dict[str, Any] = {"body": f"{text} [{tag}]"}
    if visibility is not None:
        body["visibility"] = visibility
    if recipients is not None:
        body["recipients"] = [{"id": r} for r in recipients]
    resp = client.post(contract.path("postComment", nodeId=node_id), json=body, params=params, headers=headers,
                       operation="postComment")
    if resp.status == 201 and created is not None:
        created.add("comment", new_id(resp), client.role)
    return resp


def settle(client: ApiClient, what: str, read: Callable[[], T], ready: Callable[[T], bool]) -> T:
    """A read-back after a write: ``read()`` again, with short growing pauses, until ``ready(result)`` holds or the
    profile's settle window (``settle_s``) has passed; the last result either way, so a read that never settles
    fails where it always did (the caller's assertion). Real servers serve lists from search indexes and caches,
    where a new comment may show a moment after its 201. The run's report counts every read-back and says how long
    those that waited took (``settle`` in report.json, a line on the page)."""
    result, how = settle_loop(client.profile.settle_s, read, ready, what)
    client.recorder.note_settle(how)
    return result


def refused_in_body(resp: ApiResponse) -> bool:
    """A 2xx whose body says the call did not happen (``success`` false, no record in ``result``): a refusal answered
    with a 2xx, which the denial status's rule judges (PERM-DENIED-STATUS: "a denial is a 4xx, never 2xx"), not a call
    the permission let in (blindp, issue 44)."""
    if not 200 <= resp.status < 300:
        return False
    try:
        body = resp.json()
    except ValueError:
        return False
    result = body.get("result") if isinstance(body, dict) else None
    records = [v for v in result.values() if isinstance(v, dict)] if isinstance(result, dict) else []
    return isinstance(body, dict) and body.get("success") is False and not records


def present(item: dict[str, Any] | None) -> bool:
    """``until`` of a read-back that waits for the item to be listed at all."""
    return item is not None


def list_all(client: ApiClient, path: str, params: dict[str, Any] | None = None, page_size: int = 50,
             max_pages: int = 40, first_page: int = 1,
             until: Callable[[list[dict[str, Any]]], bool] | None = None) -> list[dict[str, Any]]:
    """Every item of a paged list, page by page (bounded); fails if a page is not a 200 envelope.

    ``until``: this is a read-back after a write; the whole list is read again within the settle window
    (:func:`settle`) until ``until(items)`` holds."""
    if until is not None:
        return settle(client, f"GET {path} as {client.role}",
                      lambda: list_all(client, path, params, page_size, max_pages, first_page), until)
    out: list[dict[str, Any]] = []
    for page in range(first_page, first_page + max_pages):
        resp = client.get(path, params={**(params or {}), "page": page, "pageSize": page_size})
        assert resp.status == 200, f"listing {path} page {page} as {client.role}\n{resp.describe()}"
        body = resp.json()
        assert isinstance(body, dict) and isinstance(body.get("list"), list), (
            f"{path} is not a paged envelope\n{resp.describe()}")
        items = body["list"]
        out.extend(i for i in items if isinstance(i, dict))
        total, served = body.get("totalCount"), body.get("pageSize")
        if not items or (isinstance(total, int) and len(out) >= total):
            break
        # a site may cap pageSize below what was asked (it says so in the envelope): a page as full as the size it
        # served is not the last one, however short of the size asked for
        full = served if isinstance(served, int) and 0 < served < page_size else page_size
        if not isinstance(total, int) and len(items) < full:
            break
    return out


def find_listed(client: ApiClient, path: str, node_id: int, params: dict[str, Any] | None = None,
                page_size: int = 100, max_pages: int = 40,
                until: Callable[[dict[str, Any] | None], bool] | None = None) -> dict[str, Any] | None:
    """The item with id ``node_id`` in a paged list as this caller sees it, or None; stops at the first hit.

    For read-backs (is the node still wiki, is the answer listed) on lists that may be long on a real site:
    pages are read only until the item turns up, at most ``max_pages`` of them. ``until``: a read-back after a
    write, read again within the settle window (:func:`settle`) until ``until(item)`` holds (:func:`present`: until
    it is listed at all).
    """
    if until is not None:
        return settle(client, f"GET {path} as {client.role}, looking for {node_id}",
                      lambda: find_listed(client, path, node_id, params, page_size, max_pages), until)
    seen = 0
    for page in range(1, max_pages + 1):
        resp = client.get(path, params={**(params or {}), "page": page, "pageSize": page_size})
        assert resp.status == 200, f"listing {path} page {page} as {client.role}\n{resp.describe()}"
        body = resp.json()
        assert isinstance(body, dict) and isinstance(body.get("list"), list), (
            f"{path} is not a paged envelope\n{resp.describe()}")
        items = [i for i in body["list"] if isinstance(i, dict)]
        hit = find_item(items, node_id)
        if hit is not None:
            return hit
        seen += len(items)
        total = body.get("totalCount")
        if not items or (seen >= total if isinstance(total, int) else len(items) < page_size):
            return None
    return None


def comment_ids_seen(client: ApiClient, answer_id: int) -> set[int]:
    """Ids of the comments under an answer that this caller is shown by the comment list (operation 18)."""
    items = list_all(client, contract.path("listAnswerComments", answerId=answer_id))
    return {int(i["id"]) for i in items if str(i.get("id", "")).isdecimal()}


_TAG = re.compile(r"<[A-Za-z/!][^>]*>")


def body_text(value: Any) -> str:
    """A body as the text it shows: tags dropped, character references resolved, white space collapsed.

    A body is "HTML content": a server may return the text it stored in an equivalent HTML form (``&#233;`` for é,
    ``&amp;``, a wrapping ``<p>``), so bodies read back are compared as this text, never character for character."""
    return " ".join(html.unescape(_TAG.sub(" ", value if isinstance(value, str) else "")).split())


def body_holds(body: Any, text: str) -> bool:
    """Whether a body read back holds ``text`` (both read as HTML: :func:`body_text`)."""
    return body_text(text) in body_text(body)


def find_item(items: list[dict[str, Any]], node_id: int) -> dict[str, Any] | None:
    for it in items:
        if str(it.get("id")) == str(node_id):
            return it
    return None


def wire_value(profile: Any, option: str) -> str:
    """The profile's wire value of a visibility option, or a skip saying the profile does not give it.

    The description shows the values recipients and op; the values of the moderator and group options (and of full
    visibility) are site configuration, so a test that must send one cannot run without the profile's word."""
    value = getattr(profile.visibility, option, None)
    if value is None:
        skip(SkipKind.OTHER, f"the profile does not give the wire value of the {option} option ([visibility] "
             f"{option}); the description does not show it")
    return str(value)


PRIVILEGED_READERS = ("admin", "moderator")
"""Roles the description does not say either way about: whether they read every private comment is site
configuration (``[visibility] readers`` of the profile)."""


def private_reader_skip(profile: Any, role: str) -> str | None:
    """Why a test that ``role`` must not see a private comment it is not entitled to cannot run, or None.

    The description names the author and the recipients; whether administrators or moderators read private comments
    too is left open, so the profile's ``[visibility] readers`` decides, and a profile that does not say skips.
    """
    if role not in PRIVILEGED_READERS:
        return None
    readers = profile.visibility.readers
    if readers is None:
        return (f"the profile does not say whether {role} reads every private comment ([visibility] readers); "
                "the description leaves it open")
    if role in readers:
        return f"{role} reads every private comment on this site ([visibility] readers = {list(readers)})"
    return None


def shared_path(request: Any, base_url: str, key: str) -> Path | None:
    """Where the one result of ``key`` is kept for every pytest-xdist worker of this run (None: no workers)."""
    worker = getattr(request.config, "workerinput", None)
    if worker is None:
        return None
    digest = hashlib.sha256(f"{base_url}|{key}".encode()).hexdigest()[:16]
    root = Path(request.getfixturevalue("tmp_path_factory").getbasetemp().parent)
    return root / f"qc-shared-{worker['testrunuid']}-{digest}.json"


@contextmanager
def charged_to_suites() -> Iterator[None]:
    """A shared write an observation test asked for first is charged to the suites' share, not the observations':
    the must-rule tests read it too, and a session fixture that met a spent share stays skipped for every test that
    uses it (pytest caches the skip), so the observations' small share of a default budget would decide which
    must-rules a run checks by test order (measured: a plain pytest run of suites/ skipped 54 stated-form tests so).
    A generated test's share (the openapi fixture's posts) stays its own."""
    budget = ApiClient.write_budget
    if budget is None or (budget.pool != OBSERVATIONS and not budget.refusals):
        yield
        return
    with budget.charged_to(SUITES):  # (a refused_writes test asking first: charged as content, never as a probe)
        yield


def once_per_run(request: Any, base_url: str, key: str, make: Callable[[], J]) -> J:
    """``make()`` once per run and target, its JSON value shared by every pytest-xdist worker of the run.

    For content a session fixture writes and the tests only read (an answer with three comments), and for the
    one-shot calls of suites/conftest.py: session fixtures are per worker, so each of six workers would write it
    again (issue 29: a run's writes are budgeted), and a one-shot call made twice finds its node consumed. Workers of
    one run share a file keyed by the run and the target's base_url (with no profile every worker starts its own
    reference server, so the keys differ and each worker makes its own). A ``make()`` that fails leaves no file: the
    next worker tries again. ``request``: the fixture's pytest request (its config says whether this is a worker).

    The writes of ``make()`` are the suites' (:func:`charged_to_suites`) when an observation test asked first.
    """
    path = shared_path(request, base_url, key)
    if path is None:
        with charged_to_suites():
            return make()
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            value: J = json.loads(path.read_text(encoding="utf-8"))
            return value
        with charged_to_suites():
            value = make()
        path.write_text(json.dumps(value), encoding="utf-8")
        return value


def location_path(api_root: str, location: str) -> str | None:
    """The path under {base_url}/services/v2 (``api_root``) a Location names (absolute or relative), or None when it
    names another host or another root: credentials are never sent there."""
    url = urljoin(api_root + "/", location)
    root = urlsplit(api_root)
    parts = urlsplit(url)
    if (parts.scheme, parts.netloc) != (root.scheme, root.netloc) or not parts.path.startswith(root.path + "/"):
        return None
    return parts.path[len(root.path) + 1:] + (f"?{parts.query}" if parts.query else "")
