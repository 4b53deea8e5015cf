"""Every stated form of an input to the two content writes, text in non-ASCII through every write and read, and the
forms of a credential.

Where the description says "one of" or "either ... or", each form is a case here, sent by every account that may
use it:

- "each body field may also be given as a request or query parameter of the same name": every scalar field of
  both POST operations (a comment's body and visibility, an answer's body) as a query parameter and as a request
  parameter (an ``application/x-www-form-urlencoded`` body); the JSON body is the form every other test sends.
  Arrays of objects (recipients) have no parameter form shown, so they travel in JSON only.
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
"""

from __future__ import annotations

import html
import json
import random
import unicodedata
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qaconform import contract
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.support import answer_posted, find_listed, new_id, post_answer, present, settle, wire_value
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile, VisibilityOptions

pytestmark = [pytest.mark.contract]

CARRIERS = ("json", "json-utf8", "query", "form")
"""How a body field travels: JSON as json.dumps writes it (non-ASCII as \\u escapes), JSON as raw UTF-8 bytes, a
query parameter, a form-encoded request parameter."""
PARAMETER_CARRIERS = ("query", "form")

TEXTS = {
    "latin": "déjà vu, naïve café, Ærøskøbing, straße",
    "cjk": "日本語のコメント 中文评论 한국어 댓글",
    "rtl": "تعليق بالعربية، תגובה בעברית",
    "astral": "emoji 😀🎉, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢, 𠜎𠜱",
    "joined": "👩‍💻 👨‍👩‍👧 🇫🇷 ✓",
}
"""One text per kind of non-ASCII a store or a decoder gets wrong: Latin-1 range, CJK (3-byte UTF-8), right-to-left,
4-byte UTF-8 (a 3-byte "utf8" column drops them), sequences joined by U+200D and flags. No HTML-special characters:
the body is HTML content, which a server may escape."""

WRITERS = ("admin", "moderator", "member", "novice")
PUBLISHERS = ("admin", "moderator", "member")
"""Accounts with Answer questions and Publish answer: their answer is published, so it is listed (novice's goes to
moderation: it is created, but where it is listed is not shown)."""


def nfc(text: Any) -> str:
    """The text as read: HTML character references resolved (a body is "HTML content", which a server may keep
    with é as &#233;), NFC-normalised (a store may compose characters; it may not change them)."""
    return unicodedata.normalize("NFC", html.unescape(str(text)))


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
    if carrier == "query":
        return client.post(path, params=fields, json=body or None, operation=operation)
    if body:
        raise ValueError("a form-encoded request cannot carry arrays of objects")
    return client.post(path, data={k: _param_text(v) for k, v in fields.items()}, operation=operation)


def _param_text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _created_rule(resp: ApiResponse, status_rule: str, own_rule: str) -> str:
    """A creation answered with another 2xx breaks the status rule; a refusal, the form this test sends."""
    return status_rule if 200 <= resp.status < 300 else own_rule


def comment_path(node: int) -> str:
    return contract.path("postComment", nodeId=node)


def answer_path(question: int) -> str:
    return contract.path("postAnswer", questionId=question)


@pytest.fixture(scope="module")
def forms_answer(member: ApiClient, question_id: int, run_tag: str, created: Any) -> int:
    """An answer by member that holds this module's comments."""
    return answer_posted(post_answer(member, question_id, run_tag, created, text="stated forms thread"))


def _comment_of(client: ApiClient, answer: int, resp: ApiResponse, created: Any, rule: str) -> dict[str, Any]:
    """The comment a 201 created, registered and read back by its author from the answer's comment list."""
    comment_id = new_id(resp)
    created.add("comment", comment_id, client.role)
    item = find_listed(client, contract.path("listAnswerComments", answerId=answer), comment_id, until=present)
    if item is None:
        fail([rule], f"comment {comment_id} (by {client.role}) is not in answer {answer}'s comment list as its "
                     f"author reads it", resp)
    return item


# ------------------------------------------------------------------------------------------------ body fields


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize("carrier", PARAMETER_CARRIERS)
@pytest.mark.parametrize("role", WRITERS)
def test_a_comment_body_given_in_each_parameter_form_is_stored(
        api: dict[str, ApiClient], role: str, carrier: str, forms_answer: int, run_tag: str, created: Any) -> None:
    client = api[role]
    text = f"comment body as a {carrier} parameter by {role} [{run_tag}] {random.randrange(10**9)}"
    resp = send(client, comment_path(forms_answer), {"body": text}, carrier, "postComment")
    assert resp.status == 201, (
        f"[{_created_rule(resp, 'SHAPE-POST-COMMENT', 'CONV-PARAM-AS-BODY-FIELD')}] {role} gives the comment's body "
        f"as a {carrier} parameter (no JSON body): expected 201\n{resp.describe()}")
    item = _comment_of(client, forms_answer, resp, created, "CONV-PARAM-AS-BODY-FIELD")
    assert nfc(text) in nfc(item.get("body")), (
        f"[CONV-PARAM-AS-BODY-FIELD] the body given as a {carrier} parameter must be the comment's body; it reads "
        f"back {item.get('body')!r}\n{resp.describe()}")


VISIBILITY_USERS = [
    pytest.param("member", "to_original_poster", id="member-op"),
    pytest.param("member", "to_moderators", id="member-mod"),
    pytest.param("moderator", "to_own_groups", id="moderator-groups"),
    pytest.param("admin", "to_moderators", id="admin-mod"),
]
"""Accounts holding Use Private Comments and the option (target-profile.md's permission table)."""


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD", "VERSION-PRIVATE-COMMENTS-2160")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize("carrier", PARAMETER_CARRIERS)
@pytest.mark.parametrize(("role", "option"), VISIBILITY_USERS)
def test_a_comment_visibility_given_in_each_parameter_form_is_stored(
        api: dict[str, ApiClient], role: str, option: str, carrier: str, forms_answer: int, run_tag: str,
        created: Any, profile: Profile) -> None:
    if not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility was added in 2.16.0, the target runs "
                                     f"{profile.service_version}")
    value = wire_value(profile, option)
    client = api[role]
    text = f"visibility {option} as a {carrier} parameter by {role} [{run_tag}] {random.randrange(10**9)}"
    resp = send(client, comment_path(forms_answer), {"body": text, "visibility": value}, carrier, "postComment")
    assert resp.status == 201, (
        f"[{_created_rule(resp, 'SHAPE-POST-COMMENT', 'CONV-PARAM-AS-BODY-FIELD')}] {role} holds Use Private "
        f"Comments and the {option} option and gives body and visibility={value} as {carrier} parameters: expected "
        f"201\n{resp.describe()}")
    item = _comment_of(client, forms_answer, resp, created, "CONV-PARAM-AS-BODY-FIELD")
    assert item.get("visibility") == value, (
        f"[CONV-PARAM-AS-BODY-FIELD] visibility given as a {carrier} parameter counts like the body field: the "
        f"comment reads back with visibility {item.get('visibility')!r}, expected {value!r}\n{resp.describe()}")


@pytest.mark.rule("CONV-PARAM-AS-BODY-FIELD", "ANSWER-201")
@pytest.mark.writes
@pytest.mark.parametrize("carrier", PARAMETER_CARRIERS)
@pytest.mark.parametrize("role", WRITERS)
def test_an_answer_body_given_in_each_parameter_form_is_stored(
        api: dict[str, ApiClient], role: str, carrier: str, question_id: int, run_tag: str, created: Any,
        user_ids: dict[str, int]) -> None:
    """Every account with Answer questions; a published answer is read back from its author's answer list."""
    client = api[role]
    text = f"answer body as a {carrier} parameter by {role} [{run_tag}] {random.randrange(10**9)}"
    resp = send(client, answer_path(question_id), {"body": text}, carrier, "postAnswer")
    assert 200 <= resp.status < 300, (
        f"[CONV-PARAM-AS-BODY-FIELD] {role} gives the answer's body as a {carrier} parameter (no JSON body): the "
        f"answer must be created\n{resp.describe()}")
    answer_id = new_id(resp)
    created.add("answer", answer_id, role)
    if role not in PUBLISHERS or role not in user_ids:
        return  # novice's answer is in moderation: created is all the description says
    item = find_listed(client, contract.path("listUserAnswers", userId=user_ids[role]), answer_id, until=present)
    assert item is not None and nfc(text) in nfc(item.get("body")), (
        f"[CONV-PARAM-AS-BODY-FIELD] the answer whose body was a {carrier} parameter must be listed with that body "
        f"in {role}'s answer list; got {(item or {}).get('body')!r}\n{resp.describe()}")


OTHER_NODE_FIELDS = [
    pytest.param({"wiki": False}, id="wiki"),
    pytest.param({"type": "answer"}, id="type"),
    pytest.param({"title": None}, id="title-null"),
    pytest.param({"topics": []}, id="topics"),
    pytest.param({"attachments": []}, id="attachments"),
]
"""Node fields an answer may carry, with values that are true of any new answer (what a server does with them is
not shown; that it takes the request is)."""


@pytest.mark.rule("ANSWER-OTHER-NODE-FIELDS")
@pytest.mark.writes
@pytest.mark.parametrize("extra", OTHER_NODE_FIELDS)
def test_an_answer_with_other_node_fields_beside_its_body_is_created(
        member: ApiClient, extra: dict[str, Any], question_id: int, run_tag: str, created: Any) -> None:
    _answer_with_fields(member, extra, "json", question_id, run_tag, created)


@pytest.mark.rule("ANSWER-OTHER-NODE-FIELDS")
@pytest.mark.writes
@pytest.mark.parametrize("carrier", ["json", "query", "form"])
@pytest.mark.parametrize("role", WRITERS)
def test_each_account_may_supply_other_node_fields_in_each_form(
        api: dict[str, ApiClient], role: str, carrier: str, question_id: int, run_tag: str, created: Any) -> None:
    """wiki (a scalar Node field, so it has a parameter form) beside the body, by every account that may answer."""
    _answer_with_fields(api[role], {"wiki": False}, carrier, question_id, run_tag, created)


def _answer_with_fields(client: ApiClient, extra: dict[str, Any], carrier: str, question_id: int, run_tag: str,
                        created: Any) -> None:
    text = f"answer with {'+'.join(sorted(extra))} by {client.role} [{run_tag}] {random.randrange(10**9)}"
    resp = send(client, answer_path(question_id), {"body": text, **extra}, carrier, "postAnswer")
    assert 200 <= resp.status < 300, (
        f"[ANSWER-OTHER-NODE-FIELDS] 'other Node fields may be supplied': an answer by {client.role} with {extra} "
        f"beside its body ({carrier}) must be created\n{resp.describe()}")
    created.add("answer", new_id(resp), client.role)
    body = _json_or_none(resp)
    if isinstance(body, dict) and "body" in body:  # a 201 with the node (a moderated answer's body is not shown)
        assert nfc(text) in nfc(body.get("body")), (
            f"[ANSWER-OTHER-NODE-FIELDS] the answer created with {extra} must keep its body {text!r}, got "
            f"{body.get('body')!r}\n{resp.describe()}")


def _json_or_none(resp: ApiResponse) -> Any:
    try:
        return resp.json() if resp.content.strip() else None
    except AssertionError:
        return None


# ------------------------------------------------------------------------------------------------ recipient ids


def _recipient_post(client: ApiClient, answer: int, recipient: int | str, value: str, run_tag: str,
                    created: Any) -> tuple[ApiResponse, int | None]:
    text = f"private to {recipient!r} ({type(recipient).__name__} id) by {client.role} [{run_tag}] " \
           f"{uuid.uuid4().hex[:8]}"
    body = {"body": text, "visibility": value, "recipients": [{"id": recipient}]}
    resp = client.post(comment_path(answer), json=body, operation="postComment")
    if resp.status != 201:
        return resp, None
    cid = new_id(resp)
    created.add("comment", cid, client.role)
    return resp, cid


@pytest.mark.rule("COMMENT-RECIPIENT-ID-FORMS", "COMMENT-2")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize("id_form", ["integer", "string"])
@pytest.mark.parametrize("author", PUBLISHERS)
def test_a_recipient_id_as_an_integer_or_a_string_makes_the_comment_private_to_that_user(
        api: dict[str, ApiClient], author: str, id_form: str, forms_answer: int, run_tag: str, created: Any,
        vis: VisibilityOptions, user_ids: dict[str, int]) -> None:
    """Every account holding Use Private Comments writes to novice, who reads the comment back with the settings.
    A string id that fails is compared with the integer form: both failing is COMMENT-2's matter."""
    value = vis.recipients
    if value is None or "novice" not in user_ids:
        skip(SkipKind.OTHER, "not checked: the profile gives no wire value for recipients or no id for novice")
    novice_id = user_ids["novice"]
    recipient: int | str = novice_id if id_form == "integer" else str(novice_id)
    resp, cid = _recipient_post(api[author], forms_answer, recipient, value, run_tag, created)
    rule = "COMMENT-2" if id_form == "integer" else "COMMENT-RECIPIENT-ID-FORMS"
    if cid is not None:
        listed = find_listed(api["novice"], contract.path("listAnswerComments", answerId=forms_answer), cid,
                             until=present)
        got = listed.get("recipients") if listed is not None else None
        got_ids = {str(r.get("id")) for r in got if isinstance(r, dict)} if isinstance(got, list) else set()
        ok = listed is not None and listed.get("visibility") == value and got_ids == {str(novice_id)}
        if ok:
            return
        why = f"novice (the recipient) reads it back as {listed!r}"
    else:
        why = f"the comment was not created ({resp.status})"
    if id_form == "string":
        control, control_id = _recipient_post(api[author], forms_answer, novice_id, value, run_tag, created)
        if control_id is None:
            rule = "COMMENT-2"
    fail([rule], f"{author} posts a comment with visibility {value!r} and recipients [{{id: {recipient!r}}}] "
                 f"({id_form} id: 'Each item has id (integer or string)'): it must be created (201) and novice must "
                 f"read it back with visibility {value!r} and recipient {novice_id}; {why}", resp)


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
    assert got is not None and nfc(text) in nfc(got), (
        f"[TEXT-NON-ASCII] the text {text!r} must read back unchanged from {where}; got {got!r}\n{resp.describe()}")


@pytest.mark.rule("TEXT-NON-ASCII", "CONV-PARAM-AS-BODY-FIELD")
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.parametrize("carrier", CARRIERS)
@pytest.mark.parametrize("script", sorted(TEXTS))
def test_non_ascii_comment_text_reads_back_unchanged_from_every_list(
        member: ApiClient, admin: ApiClient, script: str, carrier: str, forms_answer: int, run_tag: str,
        created: Any, user_ids: dict[str, int]) -> None:
    text = f"{TEXTS[script]} {uuid.uuid4().hex[:8]}"
    resp = send(member, comment_path(forms_answer), {"body": f"{text} [{run_tag}]"}, carrier, "postComment")
    own = "SHAPE-POST-COMMENT" if carrier.startswith("json") else "CONV-PARAM-AS-BODY-FIELD"
    assert resp.status == 201, f"[{own}] member posts a comment ({carrier}) with {script} text\n{resp.describe()}"
    item = _comment_of(member, forms_answer, resp, created, "COMMENT-LISTED")
    _check_text("the answer's comment list", item.get("body"), text, resp)
    read, body = _content_body(admin, user_ids["member"], new_id(resp))
    if read and body is not None:
        _check_text("member's content list (node.body)", body, text, resp)


@pytest.mark.rule("TEXT-NON-ASCII", "CONV-PARAM-AS-BODY-FIELD")
@pytest.mark.writes
@pytest.mark.parametrize("carrier", CARRIERS)
@pytest.mark.parametrize("script", sorted(TEXTS))
def test_non_ascii_answer_text_reads_back_unchanged_from_every_list(
        member: ApiClient, admin: ApiClient, script: str, carrier: str, question_id: int, run_tag: str,
        created: Any, user_ids: dict[str, int]) -> None:
    text = f"{TEXTS[script]} {uuid.uuid4().hex[:8]}"
    resp = send(member, answer_path(question_id), {"body": f"{text} [{run_tag}]"}, carrier, "postAnswer")
    own = "ANSWER-201" if carrier.startswith("json") else "CONV-PARAM-AS-BODY-FIELD"
    assert resp.status == 201, f"[{own}] member posts an answer ({carrier}) with {script} text\n{resp.describe()}"
    answer_id = new_id(resp)
    created.add("answer", answer_id, "member")
    body = _json_or_none(resp)
    if isinstance(body, dict):
        _check_text("the 201 (the new Node)", body.get("body"), text, resp)
    item = find_listed(member, contract.path("listUserAnswers", userId=user_ids["member"]), answer_id, until=present)
    _check_text("member's answer list", (item or {}).get("body"), text, resp)
    read, content = _content_body(admin, user_ids["member"], answer_id)
    if read and content is not None:
        _check_text("member's content list (node.body)", content, text, resp)


@pytest.mark.rule("TEXT-NON-ASCII")
@pytest.mark.comments
@pytest.mark.writes
@settings(max_examples=8, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(drawn=st.text(st.characters(exclude_categories=("Cc", "Cs", "Co", "Cn", "Zl", "Zp"),
                                   exclude_characters="<>&\"'\\"), min_size=1, max_size=24))
def test_any_unicode_text_in_a_comment_reads_back_unchanged(
        member: ApiClient, forms_answer: int, run_tag: str, created: Any, drawn: str) -> None:
    """Beyond the five scripts: texts drawn from every assigned code point (no controls, surrogates, private use or
    HTML-special characters), a fixed series (derandomized) so that a run is repeatable, eight comments in all."""
    text = f"[{drawn.strip() or 'x'}]"
    resp = send(member, comment_path(forms_answer), {"body": f"{text} [{run_tag}]"}, "json-utf8", "postComment")
    assert resp.status == 201, f"[SHAPE-POST-COMMENT] member posts a comment with {text!r}\n{resp.describe()}"
    item = _comment_of(member, forms_answer, resp, created, "COMMENT-LISTED")
    _check_text("the answer's comment list", item.get("body"), text, resp)


@pytest.mark.rule("ACTION-LOCK-EXTRA")
@pytest.mark.actions
@pytest.mark.writes
@pytest.mark.parametrize("script", sorted(TEXTS))
def test_a_non_ascii_lock_prompt_comes_back_unchanged_as_extra(
        member: ApiClient, question_id: int, run_tag: str, created: Any, script: str) -> None:
    """member locks its own new answer (Lock comments on own posts) with the prompt in one script."""
    answer = answer_posted(post_answer(member, question_id, run_tag, created, text=f"to lock ({script})"))
    prompt = f"{TEXTS[script]} [{run_tag}]"
    resp = member.put(contract.path("lockNode", nodeId=answer), params={"prompt": prompt}, operation="lockNode")
    assert resp.status == 200, (
        f"[PERM-LOCK-OWN] member (Lock comments on own posts) locks its own answer {answer}\n{resp.describe()}")
    body = resp.json()
    action = body.get("result", {}).get("lockAction") if isinstance(body, dict) and isinstance(
        body.get("result"), dict) else None
    extra = action.get("extra") if isinstance(action, dict) else None
    assert extra is not None and nfc(extra) == nfc(prompt), (
        f"[ACTION-LOCK-EXTRA] the prompt {prompt!r} is stored as extra of the returned lock action; got {extra!r}\n"
        f"{resp.describe()}")


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


@pytest.mark.rule("AUTH-BASIC")
@pytest.mark.writes
@pytest.mark.parametrize("form", ["colon", "non-ascii"])
@pytest.mark.parametrize("operation", ["listActiveExperts", "listQuestions", "postComment"])
def test_an_account_whose_password_holds_a_colon_or_non_ascii_is_accepted(
        api: dict[str, ApiClient], profile: Profile, form: str, operation: str, forms_answer: int, run_tag: str,
        created: Any) -> None:
    """"sent as <USERNAME>:<PASSWORD>": the username ends at the first colon, so a colon in the password is the
    password's; non-ASCII is sent UTF-8 encoded (the only charset RFC 7617 names)."""
    for role in _accounts_with(profile, form):
        client = api[role]
        if operation == "postComment":
            resp = client.post(comment_path(forms_answer), json={"body": f"{form} password [{run_tag}]"},
                               operation=operation)
            if resp.status == 201:
                created.add("comment", new_id(resp), role)
            expected = 201
        else:
            resp = client.get(contract.path(operation), params={"pageSize": 1}, operation=operation)
            expected = 200
        assert resp.status == expected, (
            f"[AUTH-BASIC] {role}'s password holds {'a colon' if form == 'colon' else 'non-ASCII characters'}; its "
            f"Basic credentials are valid, so {operation} must answer {expected}\n{resp.describe()}")


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


@pytest.mark.rule("AUTH-BAD-CREDENTIALS")
@pytest.mark.writes
@pytest.mark.parametrize("form", ["empty", "colon-part-added"])
@pytest.mark.parametrize("operation", BAD_CREDENTIAL_OPERATIONS)
@pytest.mark.parametrize("role", WRITERS)
def test_a_wrong_password_in_each_form_is_refused(
        api: dict[str, ApiClient], profile: Profile, role: str, form: str, operation: str, forms_answer: int,
        run_tag: str) -> None:
    """An empty password, and the right one with ':<more>' after it (a server that splits the credentials at every
    colon would take it)."""
    password = profile.accounts[role].password
    wrong = "" if form == "empty" else f"{password}:qc{uuid.uuid4().hex[:6]}"
    resp = _refused(api, profile, role, wrong, operation, forms_answer, run_tag)
    assert 400 <= resp.status < 500, (
        f"[AUTH-BAD-CREDENTIALS] {role}'s username with a wrong password ({form.replace('-', ' ')}) must be refused "
        f"(401, or another 4xx) on {operation}\n{resp.describe()}")


@pytest.mark.rule("AUTH-BAD-CREDENTIALS")
@pytest.mark.writes
@pytest.mark.parametrize("operation", BAD_CREDENTIAL_OPERATIONS)
def test_a_password_cut_at_its_colon_is_refused(
        api: dict[str, ApiClient], profile: Profile, operation: str, forms_answer: int, run_tag: str) -> None:
    """The part of a password before its colon is a wrong password (a server that ends the password at the next
    colon would take it)."""
    for role in _accounts_with(profile, "colon"):
        wrong = profile.accounts[role].password.split(":", 1)[0]
        resp = _refused(api, profile, role, wrong, operation, forms_answer, run_tag)
        assert 400 <= resp.status < 500, (
            f"[AUTH-BAD-CREDENTIALS] {role}'s password cut at its colon is a wrong password: it must be refused "
            f"(401, or another 4xx) on {operation}\n{resp.describe()}")
