"""Every stated form of an input to the two content writes, text in non-ASCII through every write and read, and the
forms of a credential.

Where the description says "one of" or "either ... or", each form is a case here. Under a write budget (the
default) each form is sent by ONE account that may use it, a different one per form (:func:`accounts_for`), so every
account still writes and the account dimension is the permission tests' (suites/scenarios/test_permissions.py); under
``--thorough`` (no budget) every account that may use it sends every form:

- "each body field may also be given as a request or query parameter of the same name": every scalar field of
  both POST operations (a comment's body and visibility, an answer's body) as a query parameter and as a request
  parameter (an ``application/x-www-form-urlencoded`` body); the JSON body is the form every other test sends.
  Arrays of objects (recipients) have no parameter form shown, so they travel in JSON only here (the encoding a
  target reads is learned and held in every parameter form by test_request_conventions.py: forms25).
- recipients: "Each item has id (integer or string)": both.
- postAnswer: "other Node fields may be supplied": Node fields beside body, in JSON and (the scalar ones) as
  parameters.
- Text: a comment's and an answer's body in five scripts (accents, CJK, right-to-left, characters beyond the Basic
  Multilingual Plane, joined emoji), sent in every form (JSON with ``\\u`` escapes, JSON as raw UTF-8, query,
  form), read back from every list that shows it (the 201, the answer's comment list, the author's answer list,
  the author's content list), compared after NFC normalisation (a store may compose characters; it may not change
  them). A lock prompt too: it comes back as the lock action's extra.
- Credentials: an account whose password holds a colon or non-ASCII characters is accepted on reads and writes
  (the user is what precedes the first colon); an empty password, a password with a colon-part added, or cut at its
  colon is refused.

Few writes (issue 29: a run's writes are budgeted): one write carries every form it can hold, and each test reads
back only the form it is about. An account's comment or answer in one carrier holds the five scripts and (an answer)
the other Node fields that carrier can carry; it serves the body-parameter, non-ASCII and Node-field tests alike
(:func:`carrier_comment`, :func:`carrier_answer`); admin's and moderator's comment body parameter is the one of
their visibility comment in that carrier (:func:`visibility_comment`). Only when the target refuses a combined write
is the part a test is about sent alone, so a refused Node field is never taken for a refused body. A write is its own
only where the case is the write: a visibility option per account, a recipient id form per author. Beyond the module:
its comments go under the run's shared answer, the non-ASCII lock prompt is member's shared lock, an account's
credentials on a write are shown by its shared plain comment, and the drawn texts ride in member's raw UTF-8 comment
(suites/conftest.py). 13 accepted writes under a budget (14 before novice's query answer became the answer form
matrix's, 33 when every account sent every form, 38 before that, 109 before that; measured against the reference
server: 12 charged to the module's tests in a default run, down from 13).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from recipient_reads import check_recipient
from stated_forms import (
    CARRIERS,
    JSON_NODE_FIELDS,
    PARAMETER_CARRIERS,
    PUBLISHERS,
    TEXTS,
    WRITERS,
    WRONG_PASSWORD_FORMS,
    ReadBacks,
    Sent,
    SentCache,
    accounts_for,
    as_sent,
    body_answer,
    carrier_answer,
    carrier_comment,
    comment_path,
    created_rule,
    drawn_texts,
    every_account,
    judge_author,
    judge_bad_credentials,
    nfc,
    node_fields,
    once,
    read_comment,
    send,
    unless_read_lacks_the_field,
)

from qaconform import contract
from qaconform.pytest.outcomes import SkipKind, expect, fail, skip
from qaconform.pytest.support import (
    expect_created,
    find_listed,
    new_id,
    present,
    same_plain_text,
    settle,
    wire_value,
)
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile, VisibilityOptions

pytestmark = [pytest.mark.contract]


@pytest.fixture(scope="module")
def forms_answer(shared_answer: int) -> int:
    """The answer that holds this module's comments: the run's shared answer (suites/conftest.py); every read-back
    looks for the id its write created, so other modules' comments beside them change nothing."""
    return shared_answer


# ------------------------------------------------------------------------------------------------ shared writes


@pytest.fixture(scope="module")
def sent_once(request: pytest.FixtureRequest, user_ids: dict[str, int]) -> SentCache:
    """The module's writes by what they are (kind, account, carrier, fields), each made by the first test that needs
    it and read by every other: a comment whose body travels as a query parameter is one write, whether the test
    asks "is a body parameter stored" or "does non-ASCII survive a query parameter" (issue 29: a run's writes are
    budgeted). The module runs on one worker (qaconform.pytest.parallel.GROUPS), so each write is made once a run."""
    return SentCache.for_run(user_ids, request.config)


@pytest.fixture(scope="module")
def read_backs() -> ReadBacks:
    """The read-backs of the module's shared writes, each made once after its write (stated_forms.ReadBacks)."""
    return ReadBacks()


# ------------------------------------------------------------------------------------------------ body fields


COMMENT_BODY_ACCOUNT = {"query": "member", "form": "moderator"}
"""Under a budget: the account whose comment body parameter is checked per carrier, so that the case costs no write
of its own: member's query comment is the one the non-ASCII cases read, moderator's form body is the one of its
visibility comment in that carrier (:data:`VISIBILITY_USERS`)."""


@pytest.mark.rule("COMMENT-LISTED")  # readback: its comments are judged listed by test_readback.py, run after it
@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD")
@pytest.mark.rule("SHAPE-POST-COMMENT")  # round62: created_rule names it for a 2xx other than 201 (it was unmarked)
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize("carrier", PARAMETER_CARRIERS)
def test_a_comment_body_given_in_each_parameter_form_is_stored(
        api: dict[str, ApiClient], carrier: str, forms_answer: int, run_tag: str, created: Any,
        sent_once: SentCache, profile: Profile) -> None:
    """admin's and moderator's body parameter is the one of their visibility comment in that carrier (body and
    visibility both parameters), sent alone only when the target refused that one; member's and novice's is a plain
    comment's (member's holds the non-ASCII texts, so it stays public). One account per carrier under a budget."""
    for role in accounts_for(COMMENT_BODY_ACCOUNT[carrier], WRITERS):
        _check_comment_body(api[role], carrier, forms_answer, run_tag, created, sent_once, profile)


def _check_comment_body(client: ApiClient, carrier: str, forms_answer: int, run_tag: str, created: Any,
                        sent_once: SentCache, profile: Profile) -> None:
    role = client.role
    sent = _body_with_visibility(sent_once, client, forms_answer, carrier, run_tag, created, profile)
    if sent is None or not sent.taken:
        sent = carrier_comment(sent_once, client, forms_answer, carrier, run_tag, created)
    resp = sent.resp
    expect(resp.status == 201, created_rule(resp, "SHAPE-POST-COMMENT", "CONV-PARAM-AS-BODY-FIELD"),
           f"{role} gives the comment's body as a {carrier} parameter (no JSON body): expected 201", resp)
    item = read_comment(client, forms_answer, sent, "CONV-PARAM-AS-BODY-FIELD")
    expect(nfc(sent.text) in nfc(item.get("body")), "CONV-PARAM-AS-BODY-FIELD",
           f"the body given as a {carrier} parameter must be the comment's body; it reads back "
           f"{item.get('body')!r}", resp)


def visibility_comment(cache: SentCache, client: ApiClient, answer: int, option: str, value: str, carrier: str,
                       run_tag: str, created: Any) -> Sent:
    """``client``'s comment with body and visibility ``value`` given in ``carrier`` (form: as the seed draws), one
    per account, option and carrier, for the visibility-parameter test and the body-parameter test."""
    def make() -> Sent:
        how = cache.carrier(carrier)  # types (issue 44): split, the visibility a query parameter, on half the seeds
        text = f"visibility {option} as a {how} parameter by {client.role} [{run_tag}] {uuid.uuid4().hex[:8]}"
        resp = send(client, comment_path(answer), {"body": text, "visibility": value}, how, "postComment")
        return as_sent(resp, text, created, "comment", client.role, lambda status: status == 201)

    return once(cache, ("visibility comment", client.role, option, carrier), make)


BODY_WITH_VISIBILITY = {"admin": "to_moderators", "moderator": "to_own_groups"}
"""The visibility comment whose body parameter stands for the account's body-parameter case (:data:`VISIBILITY_USERS`
holds each pair)."""


def _body_with_visibility(cache: SentCache, client: ApiClient, answer: int, carrier: str, run_tag: str,
                          created: Any, profile: Profile) -> Sent | None:
    """The visibility comment of :data:`BODY_WITH_VISIBILITY` for this account and carrier, or None where there is
    none (another account, a target before 2.16.0, no wire value for the option)."""
    option = BODY_WITH_VISIBILITY.get(client.role)
    value = getattr(profile.visibility, option, None) if option else None
    if option is None or value is None or not profile.supports("2.16.0"):
        return None
    return visibility_comment(cache, client, answer, option, str(value), carrier, run_tag, created)


VISIBILITY_USERS = [("member", "to_original_poster"), ("member", "to_moderators"), ("moderator", "to_own_groups"),
                    ("admin", "to_moderators")]
"""Accounts holding Use Private Comments and the option (target-profile.md's permission table); which account may
use which option is the permission tests' (PERM-*), whether the option travels as a parameter is this module's."""

VISIBILITY_DEFAULT = {"query": ("member", "to_original_poster"), "form": ("moderator", "to_own_groups")}
"""Under a budget: the account and option whose visibility is given in each carrier (two options, two accounts);
every pair in both carriers without one."""


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD", "VERSION-PRIVATE-COMMENTS-2160")
@pytest.mark.rule("SHAPE-POST-COMMENT")  # round62: a private option's comment answered 200 (created_rule names it)
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize("carrier", PARAMETER_CARRIERS)
def test_a_comment_visibility_given_in_each_parameter_form_is_stored(
        api: dict[str, ApiClient], carrier: str, forms_answer: int, run_tag: str, created: Any, profile: Profile,
        sent_once: SentCache) -> None:
    """One write per case: the case is the write (who, which option, which carrier); one account and option per
    carrier under a write budget, every pair without one."""
    if not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility was added in 2.16.0, the target runs "
                                     f"{profile.service_version}")
    pairs = VISIBILITY_USERS if every_account() else [VISIBILITY_DEFAULT[carrier]]
    for role, option in pairs:
        _check_visibility(api[role], option, carrier, forms_answer, run_tag, created, profile, sent_once)


def _check_visibility(client: ApiClient, option: str, carrier: str, forms_answer: int, run_tag: str, created: Any,
                      profile: Profile, sent_once: SentCache) -> None:
    role = client.role
    value = wire_value(profile, option)
    sent = visibility_comment(sent_once, client, forms_answer, option, value, carrier, run_tag, created)
    resp = sent.resp
    expect(resp.status == 201, created_rule(resp, "SHAPE-POST-COMMENT", "CONV-PARAM-AS-BODY-FIELD"),
           f"{role} holds Use Private Comments and the {option} option and gives body and visibility={value} as "
           f"{carrier} parameters: expected 201", resp)
    item = read_comment(client, forms_answer, sent, "CONV-PARAM-AS-BODY-FIELD")
    unless_read_lacks_the_field(client, item, forms_answer, profile)  # crossing13: the premise, before the rule
    expect(item.get("visibility") == value, "CONV-PARAM-AS-BODY-FIELD",
           f"visibility given as a {carrier} parameter counts like the body field: the comment reads back with "
           f"visibility {item.get('visibility')!r}, expected {value!r}", resp)


ANSWER_ACCOUNT = {"query": "member", "form": "member", "json": "member"}
"""Under a budget: the account whose answer carries a form, per carrier: member's, the ones the non-ASCII and Node-field
cases read (each form by every account that may answer, novice's moderated ones included, is the answer form matrix's:
suites/contract/test_answer_form_matrix.py, on the run's shared answers)."""


@pytest.mark.rule("ANSWER-PUBLISHED")  # readback: its answers are judged published by test_readback.py, run after
@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD", "ANSWER-201")
@pytest.mark.writes
@pytest.mark.parametrize("carrier", PARAMETER_CARRIERS)
def test_an_answer_body_given_in_each_parameter_form_is_stored(
        api: dict[str, ApiClient], carrier: str, question_id: int, run_tag: str, created: Any,
        user_ids: dict[str, int], sent_once: SentCache) -> None:
    """Accounts with Answer questions (one per carrier under a budget); a published answer is read back from its
    author's answer list."""
    for role in accounts_for(ANSWER_ACCOUNT[carrier], WRITERS):
        _check_answer_body(api[role], carrier, question_id, run_tag, created, user_ids, sent_once)


def _check_answer_body(client: ApiClient, carrier: str, question_id: int, run_tag: str, created: Any,
                       user_ids: dict[str, int], sent_once: SentCache) -> None:
    role = client.role
    sent = body_answer(sent_once, client, question_id, carrier, run_tag, created)
    resp = sent.resp
    expect(sent.id is not None, "CONV-PARAM-AS-BODY-FIELD",
           f"{role} gives the answer's body as a {carrier} parameter (no JSON body): the answer must be created", resp)
    if role not in PUBLISHERS or role not in user_ids:
        return  # novice's answer is in moderation: created is all the description says (and it was created)
    item = find_listed(client, contract.path("listUserAnswers", userId=user_ids[role]), sent.id, until=present)
    expect(item is not None and nfc(sent.text) in nfc(item.get("body")), "CONV-PARAM-AS-BODY-FIELD",
           f"the answer whose body was a {carrier} parameter must be listed with that body in {role}'s answer list; "
           f"got {(item or {}).get('body')!r}", resp)


@pytest.mark.rule("ANSWER-PUBLISHED")  # readback: its answers are judged published by test_readback.py, run after
@pytest.mark.rule("ANSWER-OTHER-NODE-FIELDS", "AUTH-ACTING-USER")
@pytest.mark.writes
@pytest.mark.parametrize("field", sorted(JSON_NODE_FIELDS))
def test_an_answer_with_other_node_fields_beside_its_body_is_created(
        member: ApiClient, field: str, question_id: int, run_tag: str, created: Any, sent_once: SentCache) -> None:
    """member's JSON answer carries every field at once; only when the target refuses it does each case send its
    own field alone, to name the one refused."""
    sent = carrier_answer(sent_once, member, question_id, "json", run_tag, created)
    if not sent.taken:
        sent = carrier_answer(sent_once, member, question_id, "json", run_tag, created,
                              fields={field: JSON_NODE_FIELDS[field]})
    _judge_node_fields(sent, member.role, "json", {field: JSON_NODE_FIELDS[field]})
    judge_author(sent, member, sent_once)


@pytest.mark.rule("ANSWER-PUBLISHED")  # readback: its answers are judged published by test_readback.py, run after
@pytest.mark.rule("ANSWER-OTHER-NODE-FIELDS", "AUTH-ACTING-USER")
@pytest.mark.writes
@pytest.mark.parametrize("carrier", ["json", "query", "form"])
@pytest.mark.rule("ANSWER-201", "CONV-PARAM-AS-BODY-FIELD")
def test_each_account_may_supply_other_node_fields_in_each_form(
        api: dict[str, ApiClient], carrier: str, question_id: int, run_tag: str, created: Any,
        sent_once: SentCache) -> None:
    """Other Node fields beside the body (in JSON all of them; as parameters wiki, a scalar) by every account that
    may answer (one per carrier under a budget). A refusal is this rule's only when the body alone in the same
    carrier is taken."""
    for role in accounts_for(ANSWER_ACCOUNT[carrier], WRITERS):
        _check_node_fields(api[role], carrier, question_id, run_tag, created, sent_once)


def _check_node_fields(client: ApiClient, carrier: str, question_id: int, run_tag: str, created: Any,
                       sent_once: SentCache) -> None:
    role = client.role
    sent = carrier_answer(sent_once, client, question_id, carrier, run_tag, created)
    if not sent.taken:
        alone = carrier_answer(sent_once, client, question_id, carrier, run_tag, created, fields={})
        if not alone.taken:
            body_rule = "ANSWER-201" if carrier == "json" else "CONV-PARAM-AS-BODY-FIELD"
            fail([body_rule], f"{role}'s answer is refused with its body alone ({carrier}) too: whether other Node "
                              "fields beside it are taken cannot be told", alone.resp)
    _judge_node_fields(sent, role, carrier, node_fields(carrier, sent_once.stand_in(role)))
    judge_author(sent, client, sent_once)


def _judge_node_fields(sent: Sent, role: str, carrier: str, extra: dict[str, Any]) -> None:
    resp = sent.resp
    expect(sent.taken, "ANSWER-OTHER-NODE-FIELDS",
           f"'other Node fields may be supplied': an answer by {role} with {extra} beside its body ({carrier}) must be "
           "created", resp)
    body = _json_or_none(resp)
    if isinstance(body, dict) and "body" in body:  # a 201 with the node (a moderated answer's body is not shown)
        expect(nfc(sent.text) in nfc(body.get("body")), "ANSWER-OTHER-NODE-FIELDS",
               f"the answer created with {extra} must keep its body {sent.text!r}, got {body.get('body')!r}", resp)


def _json_or_none(resp: ApiResponse) -> Any:
    try:
        return resp.json() if resp.content.strip() else None
    except AssertionError:
        return None


# ------------------------------------------------------------------------------------------------ recipient ids


@pytest.mark.rule("COMMENT-RECIPIENT-ID-FORMS", "COMMENT-2")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize("id_form", ["integer", "string"])
def test_a_recipient_id_as_an_integer_or_a_string_makes_the_comment_private_to_that_user(
        api: dict[str, ApiClient], id_form: str, forms_answer: int, run_tag: str, created: Any,
        vis: VisibilityOptions, user_ids: dict[str, int], request: pytest.FixtureRequest) -> None:
    """Accounts holding Use Private Comments (one per id form under a budget, all without) write to novice, who
    reads the comment back with the settings. A string id that fails is compared with the integer form: both
    failing is COMMENT-2's matter. One write per case: the case is the write. round13 (issue 44): the string case
    replies to its author's shared public comment (``comment_of``, rule 5; else the answer), the integer case comments
    on the answer, so both forms, mixed in each list, meet both parents at no write more."""
    value = vis.recipients
    if value is None or "novice" not in user_ids:
        skip(SkipKind.OTHER, "not checked: the profile gives no wire value for recipients or no id for novice")
    for author in accounts_for(RECIPIENT_AUTHOR[id_form], PUBLISHERS):
        shared = request.getfixturevalue("comment_of")(author) if id_form == "string" else None
        parent = shared.id if shared and shared.resp.status == 201 and shared.node == forms_answer else None
        check_recipient(api, author, id_form, value, forms_answer, run_tag, created, user_ids, parent)


RECIPIENT_AUTHOR = {"integer": "moderator", "string": "admin"}
"""Under a budget: the author of the private comment per id form."""


# ------------------------------------------------------------------------------------------------ non-ASCII text


def _content_body(admin: ApiClient, author_id: int, node_id: int) -> tuple[bool, Any]:
    """(read, body) of a node in its author's content list as admin reads it; (False, why) when admin may not read
    the list (who may is not shown: OBS-GDPR-PERMISSIONS). A read-back after a write: read again within the settle
    window until the node is listed (a content list may be served from an index that lags the write)."""
    return settle(admin, f"GET the content list of user {author_id} as admin, looking for {node_id}",
                  lambda: _content_body_once(admin, author_id, node_id), lambda got: not got[0] or got[1] is not None)


def _content_body_once(admin: ApiClient, author_id: int, node_id: int) -> tuple[bool, Any]:
    resp = admin.get(contract.path("listUserContent", userId=author_id), operation="listUserContent")
    if resp.status != 200:
        return False, f"admin may not read the content list ({resp.status})"
    entries = resp.json()
    if not isinstance(entries, list):
        return False, "the content list is not an array (LIST-ARRAY-CONTENT)"
    for e in entries:
        node = e.get("node") if isinstance(e, dict) else None
        if isinstance(node, dict) and str(node.get("id")) == str(node_id):
            return True, node.get("body")
    return True, None


def _check_text(where: str, got: Any, text: str, resp: ApiResponse) -> None:
    expect(got is not None and nfc(text) in nfc(got), "TEXT-NON-ASCII",
           f"the text {text!r} must read back unchanged from {where}; got {got!r}", resp)


@pytest.mark.rule("COMMENT-LISTED")  # readback: its comments are judged listed by test_readback.py, run after it
@pytest.mark.rule("TEXT-NON-ASCII", "CONV-PARAM-AS-BODY-FIELD")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize("carrier", CARRIERS)
@pytest.mark.parametrize("script", sorted(TEXTS))
def test_non_ascii_comment_text_reads_back_unchanged_from_every_list(
        member: ApiClient, admin: ApiClient, script: str, carrier: str, forms_answer: int, run_tag: str,
        created: Any, user_ids: dict[str, int], sent_once: SentCache, read_backs: ReadBacks) -> None:
    """One comment per carrier holds every script; each case checks its own script in every list (each list read
    once per comment)."""
    sent = carrier_comment(sent_once, member, forms_answer, carrier, run_tag, created)
    resp = sent.resp
    own = "SHAPE-POST-COMMENT" if carrier.startswith("json") else "CONV-PARAM-AS-BODY-FIELD"
    expect_created(resp, own, f"member posts a comment ({carrier}) with {script} text")  # a step (cross17)
    item = read_backs.once(("comments", sent.id), member, lambda: read_comment(member, forms_answer, sent,
                                                                               "COMMENT-LISTED"))
    text = TEXTS[script]
    _check_text("the answer's comment list", item.get("body"), text, resp)
    read, body = read_backs.once(("content", sent.id), admin, lambda: _content_body(admin, user_ids["member"],
                                                                                    new_id(resp)))
    if read and body is not None:
        _check_text("member's content list (node.body)", body, text, resp)


@pytest.mark.rule("ANSWER-PUBLISHED")  # readback: its answers are judged published by test_readback.py, run after
@pytest.mark.rule("TEXT-NON-ASCII", "CONV-PARAM-AS-BODY-FIELD")
@pytest.mark.writes
@pytest.mark.parametrize("carrier", CARRIERS)
@pytest.mark.parametrize("script", sorted(TEXTS))
def test_non_ascii_answer_text_reads_back_unchanged_from_every_list(
        member: ApiClient, admin: ApiClient, script: str, carrier: str, question_id: int, run_tag: str,
        created: Any, user_ids: dict[str, int], sent_once: SentCache, read_backs: ReadBacks) -> None:
    """One answer per carrier holds every script; each case checks its own script in every list (each list read
    once per answer)."""
    sent = body_answer(sent_once, member, question_id, carrier, run_tag, created)
    resp = sent.resp
    own = "ANSWER-201" if carrier.startswith("json") else "CONV-PARAM-AS-BODY-FIELD"
    expect_created(resp, own, f"member posts an answer ({carrier}) with {script} text")  # a step (cross17)
    assert sent.id is not None
    text = TEXTS[script]
    body = _json_or_none(resp)
    if isinstance(body, dict):
        _check_text("the 201 (the new Node)", body.get("body"), text, resp)
    item = read_backs.once(("answers", sent.id), member, lambda: find_listed(
        member, contract.path("listUserAnswers", userId=user_ids["member"]), sent.id, until=present))
    _check_text("member's answer list", (item or {}).get("body"), text, resp)
    read, content = read_backs.once(("content", sent.id), admin, lambda: _content_body(admin, user_ids["member"],
                                                                                       sent.id))
    if read and content is not None:
        _check_text("member's content list (node.body)", content, text, resp)


@pytest.mark.rule("TEXT-NON-ASCII")
@pytest.mark.comments
@pytest.mark.writes
def test_any_unicode_text_in_a_comment_reads_back_unchanged(
        member: ApiClient, forms_answer: int, run_tag: str, created: Any, sent_once: SentCache) -> None:
    """Beyond the five scripts: eight texts drawn from every assigned code point, in member's raw UTF-8 JSON comment
    (the one the non-ASCII json-utf8 cases read), each checked."""
    texts = drawn_texts()
    sent = carrier_comment(sent_once, member, forms_answer, "json-utf8", run_tag, created)
    resp = sent.resp
    expect_created(resp, "SHAPE-POST-COMMENT", f"member posts a comment with {texts!r}")  # a step (cross17)
    item = read_comment(member, forms_answer, sent, "COMMENT-LISTED")
    for text in texts:
        _check_text("the answer's comment list", item.get("body"), text, resp)


@pytest.mark.rule("ACTION-LOCK-EXTRA")
@pytest.mark.actions
@pytest.mark.writes
@pytest.mark.parametrize("script", sorted(TEXTS))
@pytest.mark.rule("PERM-LOCK-OWN")  # cross17: its checks name them (tests/test_blame_in_marks.py)
def test_a_non_ascii_lock_prompt_comes_back_unchanged_as_extra(
        locked_by: Callable[[str], Any], script: str) -> None:
    """member's lock of its own answer (suites/conftest.py ``locked_by``, the one the permission and shape tests read
    too), whose prompt holds every script; each case checks its own script and the whole prompt."""
    lock = locked_by("member")
    resp, prompt = lock.resp, lock.text
    expect(resp.status == 200, "PERM-LOCK-OWN",
           f"member (Lock comments on own posts) locks its own answer {lock.node}", resp)
    body = resp.json()
    action = body.get("result", {}).get("lockAction") if isinstance(body, dict) and isinstance(
        body.get("result"), dict) else None
    extra = action.get("extra") if isinstance(action, dict) else None
    expect(extra is not None and nfc(TEXTS[script]) in nfc(extra) and same_plain_text(extra, prompt),
           "ACTION-LOCK-EXTRA",
           f"the prompt {prompt!r} is stored as extra of the returned lock action (its {script} text {TEXTS[script]!r} "
           f"unchanged); got {extra!r}", resp)


# ------------------------------------------------------------------------------------------------ credentials


def _has(password: str, form: str) -> bool:
    return ":" in password if form == "colon" else any(ord(c) > 127 for c in password)


def _accounts_with(profile: Profile, form: str) -> list[str]:
    roles = [r for r, a in profile.accounts.items() if _has(a.password, form)]
    if not roles:
        what = "a colon" if form == "colon" else "non-ASCII characters"
        skip(SkipKind.OTHER, f"not checked: no account of the profile has a password with {what} (an account with "
                             "one would show whether the target takes it)")
    return roles


def _auth_comment(comment_of: Callable[[str], Any], client: ApiClient) -> Sent:
    """``client``'s plain JSON comment: the run's shared one (suites/conftest.py ``comment_of``, which the permission
    and shape tests read too). An account whose password holds both a colon and non-ASCII characters shows both forms
    accepted on a write with one comment."""
    posted = comment_of(client.role)
    return Sent(posted.resp, posted.text, posted.id if posted.resp.status == 201 else None)


@pytest.mark.rule("AUTH-BASIC")
@pytest.mark.writes
@pytest.mark.parametrize("form", ["colon", "non-ascii"])
@pytest.mark.parametrize("operation", ["listActiveExperts", "listQuestions", "postComment"])
def test_an_account_whose_password_holds_a_colon_or_non_ascii_is_accepted(
        api: dict[str, ApiClient], profile: Profile, form: str, operation: str,
        comment_of: Callable[[str], Any]) -> None:
    """"sent as <USERNAME>:<PASSWORD>": the username ends at the first colon, so a colon in the password is the
    password's; non-ASCII is sent UTF-8 encoded (the only charset RFC 7617 names)."""
    for role in _accounts_with(profile, form):
        client = api[role]
        if operation == "postComment":
            resp = _auth_comment(comment_of, client).resp
            expected = 201
        else:
            resp = client.get(contract.path(operation), params={"pageSize": 1}, operation=operation)
            expected = 200
        expect(resp.status == expected, "AUTH-BASIC",
               f"{role}'s password holds {'a colon' if form == 'colon' else 'non-ASCII characters'}; its Basic "
               f"credentials are valid, so {operation} must answer {expected}", resp)


def _refused(api: dict[str, ApiClient], profile: Profile, role: str, wrong: str, operation: str, answer: int,
             run_tag: str) -> ApiResponse:
    """``operation`` called with ``role``'s username and the password ``wrong``."""
    account = profile.accounts[role]
    client = ApiClient(profile, "wrong_password", account.username, wrong, api["anonymous"].recorder)
    try:
        if operation == "postComment":
            return client.post(comment_path(answer), json={"body": f"wrong password [{run_tag}]"},
                               operation=operation)
        return client.get(contract.path(operation), params={"pageSize": 1}, operation=operation)
    finally:
        client.close()


BAD_CREDENTIAL_OPERATIONS = ["listActiveExperts", "postComment", "listGroups"]


@pytest.mark.rule("AUTH-BAD-CREDENTIALS", "EXPERTS-401")
@pytest.mark.writes
@pytest.mark.parametrize("form", list(WRONG_PASSWORD_FORMS))
@pytest.mark.parametrize("operation", BAD_CREDENTIAL_OPERATIONS)
@pytest.mark.parametrize("role", WRITERS)
def test_a_wrong_password_in_each_form_is_refused(
        api: dict[str, ApiClient], profile: Profile, role: str, form: str, operation: str, forms_answer: int,
        run_tag: str) -> None:
    """Each wrong password near the right one (:data:`stated_forms.WRONG_PASSWORD_FORMS`): the one a comparison that
    splits at every colon, ignores case, compares a prefix or trims would take."""
    wrong = WRONG_PASSWORD_FORMS[form](profile.accounts[role].password)
    resp = _refused(api, profile, role, wrong, operation, forms_answer, run_tag)
    judge_bad_credentials(resp, operation, f"{role}'s username with a wrong password ({form.replace('-', ' ')})")


@pytest.mark.rule("AUTH-BAD-CREDENTIALS", "EXPERTS-401")
@pytest.mark.writes
@pytest.mark.parametrize("operation", BAD_CREDENTIAL_OPERATIONS)
def test_a_password_cut_at_its_colon_is_refused(
        api: dict[str, ApiClient], profile: Profile, operation: str, forms_answer: int, run_tag: str) -> None:
    """The part of a password before its colon is a wrong password (a server that ends the password at the next
    colon would take it)."""
    for role in _accounts_with(profile, "colon"):
        wrong = profile.accounts[role].password.split(":", 1)[0]
        resp = _refused(api, profile, role, wrong, operation, forms_answer, run_tag)
        judge_bad_credentials(resp, operation, f"{role}'s password cut at its colon (a wrong password)")
