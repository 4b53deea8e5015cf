"""Every accepted answer and comment of the run read back where the description says it appears (readback, issue 44).

Many of the run's writes are judged on their 201 and body only, by the test that made them for its own rule (a Node
field beside the body, a carrier, a script); whether the write is then where the description puts it went unseen on
those paths (blind round 84: a publisher's answer carrying a title held in moderation). The run's ledger
(qaconform.pytest.readback: every accepted write the client saw, in every process) is read here, after every other
test (last in its process; the last unit under xdist), and each write is judged by one batched read per list:

- ANSWER-PUBLISHED ("Caller has Answer questions and Publish answer | Published"; "other users see it in the author's
  answer list"): every answer by an account with Publish answer is in its author's answer list as another account
  without a Moderation Roles permission reads it (novice; member for novice's, which are not judged): one walk of the
  list per author, and what is missing read again within the settle window (lists that lag);
- COMMENT-LISTED ("Without visibility and recipients the comment has full visibility and no recipients, and a later
  GET returns exactly that"; "18. List comments of an answer": a paged list of its comments): every comment posted on
  a judged answer without a private visibility (none sent, or full) and without recipients is in that answer's
  comment list as another account reads it, with its text; one walk per answer, the missing read again within the
  settle window. Private comments are the privacy model's and the comment suites' to judge (who may see them): not
  judged again here.

- PERM-DENIED-NO-EFFECT ("Every operation requires the permissions below": a denied write changes nothing;
  refusals2): every comment or answer of the run denied 401 or 403, in any suite (the comment refusal matrix, the
  permission matrix, rule 7's refusals, the form rows), left no node holding its text in the content of the account
  the caller named, as admin reads it (listUserContent, Manage data protection): one read per account, judged at
  once (what must not appear). Left out with the reason: anonymous's (no account to read), texts an accepted
  write of the run holds (the kit wrote them), and the refused actions (a lock has no field; the unfavorite,
  unwikify and send refusals are judged by their one-shot and permission tests).
- PERM-LOCK, PERM-SENDTOMOD, PERM-CANCELWIKI, PERM-UNFAVORITE and the own-node rules (options): no node action of the
  run, in any suite and with any option (wrap, v1), is denied 401 or 403 to a caller the permission table lets in
  (suites/contract/allowed_actions.py); no read.

Left out, each with its reason in the skip or the passing test's record: writes whose node or parent another test of
the run sent to moderation on purpose (their final state is "in the moderation queue", where what other users see is
not shown), answers by accounts without Publish answer (ANSWER-MODERATION's), replies (a comment's parent is not an
answer of the ledger), and comments on answers that are themselves not judged published. Reads only: no write.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import pytest
from allowed_actions import RULES as ACTION_RULES
from allowed_actions import allowed_calls, options_of
from stated_forms import nfc

from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.readback import LEDGER, Write, origin
from qaconform.pytest.support import ANSWER_PUBLISHERS, body_holds, find_item, find_listed, list_all, present
from qaconform.target.client import ApiClient

SENT = "sendtomod.json"
"""The last part of the path of a send to moderation (lower case): the node's state changed on purpose."""
READERS = ("novice", "member")
"""Who reads another account's write back: an account without a Moderation Roles permission (a moderator sees the
moderation queue too, so it would see a held answer), never the writer."""


def _target(api: dict[str, ApiClient]) -> str:
    """The run's target (its scheme and host): the ledger's writes sent elsewhere (the kit's own tests start servers
    of their own in the same process) are not this target's to answer for."""
    return origin(next(iter(api.values())).url("/"))


def _reader(api: dict[str, ApiClient], writer: str) -> ApiClient:
    role = next((r for r in READERS if r != writer and r in api), None)
    if role is None:
        skip(SkipKind.OTHER, f"not judged: no account other than {writer} without a Moderation Roles permission")
    return api[role]


def _sent(writes: Iterable[Write]) -> set[int]:
    return {w.node for w in writes if w.kind == "acted" and w.action.lower() == SENT}


def published_answers(writes: list[Write]) -> tuple[dict[int, Write], list[str]]:
    """The ledger's answers that must be published, by id, and why the others are left out."""
    sent = _sent(writes)
    out: dict[int, Write] = {}
    left: list[str] = []
    for w in writes:
        if w.kind != "answer":
            continue
        if w.by not in ANSWER_PUBLISHERS:
            left.append(f"{w.by}'s answer {w.node}: no Publish answer (ANSWER-MODERATION's)")
        elif w.node in sent or w.parent in sent:
            left.append(f"{w.by}'s answer {w.node}: it or its question was sent to moderation by a test of the run")
        else:
            out[w.node] = w
    return out, left


def listed_comments(writes: list[Write], answers: dict[int, Write]) -> tuple[list[Write], list[str]]:
    """The ledger's full-visibility comments on judged answers, and why the others are left out."""
    sent = _sent(writes)
    out: list[Write] = []
    left: list[str] = []
    for w in writes:
        if w.kind != "comment":
            continue
        visibility = str(w.fields.get("visibility", "full"))
        if visibility != "full" or w.fields.get("recipients") not in (None, "", []):
            left.append(f"comment {w.node}: visibility {visibility} (the privacy model's and comment suites')")
        elif w.parent not in answers:
            left.append(f"comment {w.node}: its parent {w.parent} is no answer judged published here")
        elif w.node in sent:
            left.append(f"comment {w.node}: sent to moderation by a test of the run")
        else:
            out.append(w)
    return out, left


def _where(w: Write) -> str:
    return f"{w.by}'s {w.kind} {w.node} (sent as {w.form}{_fields(w)} by {w.test or 'a fixture'})"


def _fields(w: Write) -> str:
    named = sorted(k for k in w.fields if k != "body")
    return f" with {', '.join(named)}" if named else ""


@pytest.mark.rule("ANSWER-PUBLISHED")
def test_every_accepted_answer_by_a_publisher_is_in_its_authors_answer_list(
        api: dict[str, ApiClient], user_ids: dict[str, int]) -> None:
    answers, left = published_answers(LEDGER.writes(_target(api)))
    if not answers:
        skip(SkipKind.OTHER, "not judged: the run's ledger holds no answer by an account with Publish answer "
                             f"({len(left)} left out: {'; '.join(left[:3])})")
    by_author: dict[str, list[Write]] = defaultdict(list)
    for w in answers.values():
        by_author[w.by].append(w)
    missing: list[str] = []
    for author, written in sorted(by_author.items()):
        if author not in user_ids:
            continue  # no user id, no answer list to read: said in the message below if nothing else is judged
        reader = _reader(api, author)
        path = contract_path("listUserAnswers", userId=user_ids[author])
        items = list_all(reader, path, page_size=100)
        for w in written:
            if find_item(items, w.node) is None and find_listed(reader, path, w.node, until=present) is None:
                missing.append(f"{_where(w)}: {reader.role} does not find it in GET {path}")
    if missing:
        fail("ANSWER-PUBLISHED", f"'Caller has Answer questions and Publish answer | Published': other users see a "
                                 f"published answer in its author's answer list; {len(missing)} of {len(answers)} "
                                 "accepted answers by such accounts are not there (read again within the settle "
                                 "window):\n  " + "\n  ".join(missing))


@pytest.mark.rule("COMMENT-LISTED")
def test_every_accepted_full_visibility_comment_is_in_its_answers_comment_list(
        api: dict[str, ApiClient]) -> None:
    writes = LEDGER.writes(_target(api))
    answers, _ = published_answers(writes)
    comments, left = listed_comments(writes, answers)
    if not comments:
        skip(SkipKind.OTHER, "not judged: the run's ledger holds no full-visibility comment on an answer judged "
                             f"published ({len(left)} left out: {'; '.join(left[:3])})")
    by_parent: dict[tuple[int, str], list[Write]] = defaultdict(list)
    for w in comments:
        by_parent[(int(w.parent or 0), _reader(api, w.by).role)].append(w)
    wrong: list[str] = []
    for (answer, role), written in sorted(by_parent.items()):
        path = contract_path("listAnswerComments", answerId=answer)
        items = list_all(api[role], path, page_size=100)
        for w in written:
            item = find_item(items, w.node) or find_listed(api[role], path, w.node, until=present)
            text = w.fields.get("body")
            if item is None:
                wrong.append(f"{_where(w)}: {role} does not find it in GET {path}")
            elif isinstance(text, str) and not body_holds(nfc(item.get("body")), nfc(text)):
                wrong.append(f"{_where(w)}: listed with body {_short(item.get('body'))}, sent {_short(text)}")
    if wrong:
        fail("COMMENT-LISTED", "a full-visibility comment on an answer appears in that answer's comment list with "
                               "its body ('a later GET returns exactly that'); "
                               f"{len(wrong)} of {len(comments)} accepted comments are not so:\n  "
                               + "\n  ".join(wrong))


NAMED_ACCOUNT = {"wrong_password": "member"}
"""Whose account a caller's credentials name (the ``api`` fixture: a wrong password carries member's username)."""


def refused_texts(writes: list[Write]) -> tuple[dict[str, list[Write]], list[str]]:
    """The refused comments and answers to judge, by the account named, and why the others are left out."""
    sent = [b for w in writes if w.kind in ("answer", "comment") and isinstance(b := w.fields.get("body"), str)]
    judged: dict[str, list[Write]] = defaultdict(list)
    left: list[str] = []
    for w in writes:
        if w.kind != "refused":
            continue
        text = w.fields.get("body")
        account = NAMED_ACCOUNT.get(w.by, w.by)
        if w.action not in ("comment.json", "answer.json") or not isinstance(text, str) or not text.strip():
            left.append(f"{w.action} by {w.by} on {w.node}: no text to find (an action, or its body not kept)")
        elif w.by == "anonymous":
            left.append(f"{w.action} by anonymous on {w.node}: no account whose content to read")
        elif any(body_holds(b, text) for b in sent):
            left.append(f"{w.action} by {w.by} on {w.node}: an accepted write of the run holds its text")
        else:
            judged[account].append(w)
    return judged, left


@pytest.mark.rule("PERM-DENIED-NO-EFFECT")
def test_no_refused_comment_or_answer_of_the_run_is_stored(
        api: dict[str, ApiClient], user_ids: dict[str, int]) -> None:
    judged, left = refused_texts(LEDGER.writes(_target(api)))
    judged = {a: ws for a, ws in judged.items() if a in user_ids}
    if not judged or "admin" not in api:
        skip(SkipKind.OTHER, "not judged: the run's ledger holds no refused comment or answer by a known account "
                             f"({len(left)} left out: {'; '.join(left[:3])})")
    stored: list[str] = []
    for account, refused in sorted(judged.items()):
        where = contract_path("listUserContent", userId=user_ids[account])
        resp = api["admin"].get(where, operation="listUserContent")
        if resp.status != 200:
            continue  # not read: the status is the permission tests' to judge
        body = resp.json()
        items = body.get("list") if isinstance(body, dict) else body
        nodes = [i.get("node") for i in items if isinstance(i, dict)] if isinstance(items, list) else []
        for w in refused:
            text = str(w.fields.get("body"))
            hits = [n.get("id") for n in nodes if isinstance(n, dict) and body_holds(n.get("body"), text)]
            if hits:
                stored.append(f"{w.action} by {w.by} on node {w.node} ({w.form}{_fields(w)}; {w.test}) refused "
                              f"{w.status}: admin's GET {where} lists node(s) {hits} holding its text {_short(text)}")
    if stored:
        fail("PERM-DENIED-NO-EFFECT", "'Every operation requires the permissions below': a denied write changes "
                                      f"nothing; {len(stored)} of {sum(map(len, judged.values()))} refused comments "
                                      "and answers were stored:\n  " + "\n  ".join(stored))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


@pytest.mark.rule(*ACTION_RULES)
def test_no_action_of_the_run_is_denied_to_a_caller_the_table_lets_in(api: dict[str, ApiClient]) -> None:
    """options (issue 44): every node action of the run, in any suite and with any option (suites/contract/
    allowed_actions.py), by a caller the permission table lets in is not denied 401 or 403. Reads only the ledger."""
    denied, allowed, left = allowed_calls(LEDGER.writes(_target(api)))
    if not allowed:
        skip(SkipKind.OTHER, "not judged: the run's ledger holds no node action by a caller the permission table "
                             f"lets in ({len(left)} other denials left out: {'; '.join(left[:3])})")
    if denied:
        fail(sorted({rule for _, rule in denied}), "'Every operation requires the permissions below', whatever the "
             f"options: {len(denied)} of the run's {allowed} actions by callers the table lets in were denied:\n  "
             + "\n  ".join(f"{w.by}'s {w.action} of node {w.node} ({options_of(w)}; {w.test or 'a fixture'}) "
                           f"denied {w.status}" for w, _ in denied))
