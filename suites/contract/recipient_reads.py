"""The recipient-id forms' write and read-backs (test_stated_forms.py's COMMENT-RECIPIENT-ID-FORMS case), apart so
that each module stays one thing: a private comment naming its recipients by integer and string ids, and every
recipient's read of it in the answer's comment list, each charged to the rule of the form it was named in (round42,
issue 44).
"""

from __future__ import annotations

import uuid
from typing import Any

from stated_forms import comment_path

from qaconform import contract
from qaconform.pytest.outcomes import fail
from qaconform.pytest.support import find_listed, new_id, present
from qaconform.target.client import ApiClient, ApiResponse


def recipient_post(client: ApiClient, answer: int, recipients: list[int | str], value: str, run_tag: str,
                    created: Any) -> tuple[ApiResponse, int | None]:
    forms = "/".join(type(r).__name__ for r in recipients)
    text = f"private to {recipients!r} ({forms} ids) by {client.role} [{run_tag}] {uuid.uuid4().hex[:8]}"
    body = {"body": text, "visibility": value, "recipients": [{"id": r} for r in recipients]}
    resp = client.post(comment_path(answer), json=body, operation="postComment")
    if resp.status != 201:
        return resp, None
    cid = new_id(resp)
    created.add("comment", cid, client.role)
    return resp, cid


def check_recipient(api: dict[str, ApiClient], author: str, id_form: str, value: str, forms_answer: int,
                     run_tag: str, created: Any, user_ids: dict[str, int], parent: int | None = None) -> None:
    """novice first in the case's id form; member (when its id is known) second in the other form, so each write
    mixes the two forms in one list, in both orders over the two cases (blind7, issue 44: a list typed by its first
    item drops the ids of the other form). A missing id sent as a string is this rule's; one sent as an integer is
    COMMENT-2's.

    round42 (issue 44): every recipient reads the comment back, each by the rule of the form it was named in: a
    recipient named by a string id that does not find the comment is this rule's, one named by an integer id
    COMMENT-2's. Only novice read it before, so the form in second place (the string form on the answer, the
    integer form on the reply) was never read back by the account it named, and a comment on an answer that no
    recipient finds once a string id is among its recipients was charged to COMMENT-2 alone. A recipient that does
    not find it is charged to its form's rule only where the author's own read shows every recipient stored as sent
    (the settings kept, that reader's read broken); where the author reads them changed, by the ids lost (a server
    that drops every recipient is COMMENT-2's, whatever the forms)."""
    novice_id = user_ids["novice"]
    recipient: int | str = novice_id if id_form == "integer" else str(novice_id)
    sent: list[int | str] = [recipient]
    readers: list[tuple[str, int | str]] = [("novice", recipient)]
    if "member" in user_ids:
        sent.append(str(user_ids["member"]) if id_form == "integer" else user_ids["member"])
        if "member" in api:
            readers.append(("member", sent[-1]))
    on = forms_answer if parent is None else parent
    where = "" if on == forms_answer else f" as a reply to public comment {on}"
    resp, cid = recipient_post(api[author], on, sent, value, run_tag, created)
    rule = "COMMENT-2" if id_form == "integer" else "COMMENT-RECIPIENT-ID-FORMS"
    rules: list[str] = []
    whys: list[str] = []
    if cid is not None:
        unlisted = False
        for reader, named in readers:
            reader_rule, why = _read_back(api[reader], reader, named, forms_answer, cid, value, sent, rule)
            if reader_rule is not None:
                rules.append(reader_rule)
                whys.append(why)
                unlisted = unlisted or why.endswith(NOT_LISTED)
        if not rules:
            return  # every recipient reads it back as sent: this author's case held
        if unlisted and (kept := _stored_rule(api[author], forms_answer, cid, sent)) is not None:
            rules, whys = [kept[0]], [*whys, kept[1]]
    else:
        whys.append(f"the comment was not created ({resp.status})")
        rules.append(rule)
    if cid is None and any(isinstance(i, str) for i in sent):  # refused: is it the string form? (a control)
        control, control_id = recipient_post(api[author], on, [novice_id], value, run_tag, created)
        rules = ["COMMENT-2" if control_id is None else "COMMENT-RECIPIENT-ID-FORMS"]
    shown = ", ".join(f"{{id: {i!r}}}" for i in sent)
    fail(sorted(set(rules)), f"{author} posts a comment{where} with visibility {value!r} and recipients [{shown}] "
                             f"({id_form} id first: 'Each item has id (integer or string)'): it must be created (201) "
                             f"and each recipient must read it back with visibility {value!r} and recipients "
                             f"{[str(i) for i in sent]}; {'; '.join(whys)}", resp)


NOT_LISTED = "does not find it in the answer's comment list"


def _stored_rule(client: ApiClient, answer: int, cid: int, sent: list[int | str]) -> tuple[str, str] | None:
    """The author's read of its comment: None when it shows every recipient as sent (a reader that does not find the
    comment is then charged to the form it was named in), else the rule of the ids the store lost and why."""
    listed = find_listed(client, contract.path("listAnswerComments", answerId=answer), cid, until=present)
    got = listed.get("recipients") if listed is not None else None
    got_ids = {str(r.get("id")) for r in got if isinstance(r, dict)} if isinstance(got, list) else set()
    if got_ids == {str(i) for i in sent}:
        return None
    lost = [i for i in sent if str(i) not in got_ids]
    rule = "COMMENT-RECIPIENT-ID-FORMS" if lost and all(isinstance(i, str) for i in lost) else "COMMENT-2"
    return rule, f"its author ({client.role}) reads it back as {listed!r}"


def _read_back(client: ApiClient, reader: str, named: int | str, answer: int, cid: int, value: str,
               sent: list[int | str], case_rule: str) -> tuple[str | None, str]:
    """One recipient's read of the comment in its answer's list: (None, "") when it reads it back as sent, else the
    rule its failure is charged to and why (not listed: the rule of the form the reader was named in; settings
    changed: the form of the ids lost, else the case's rule)."""
    listed = find_listed(client, contract.path("listAnswerComments", answerId=answer), cid, until=present)
    form = type(named).__name__
    if listed is None:
        return (("COMMENT-RECIPIENT-ID-FORMS" if isinstance(named, str) else "COMMENT-2"),
                f"{reader} (a recipient, named by the {form} id {named!r}) {NOT_LISTED}")
    got = listed.get("recipients")
    got_ids = {str(r.get("id")) for r in got if isinstance(r, dict)} if isinstance(got, list) else set()
    if listed.get("visibility") == value and got_ids == {str(i) for i in sent}:
        return None, ""
    lost = [i for i in sent if str(i) not in got_ids]
    rule = case_rule
    if lost:
        rule = "COMMENT-RECIPIENT-ID-FORMS" if all(isinstance(i, str) for i in lost) else "COMMENT-2"
    return rule, f"{reader} (a recipient, named by the {form} id {named!r}) reads it back as {listed!r}"
