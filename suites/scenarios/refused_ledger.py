"""Every refused write of the permission matrix in one ledger, judged once by one late reader (noeffect, issue 44).

"Every operation requires the permissions below": a refused call changes nothing (PERM-DENIED-NO-EFFECT). The
cells judged that on one list each (a refused comment on member's answer's comment list, a refused lock or send on
novice's read of the answer), and the same refusal sent again on another parent kind, in another input form or
with an option was judged by its status alone: a comment stored before its 403 on a question, on a reply or when
given as parameters went unseen (round83-novice-op-question-comment-stored-before-403).

Here every refused call of test_permissions.py (comments and answers by permission or by rule 7's private option,
on every parent kind, in every form, with every option; the node actions' refusals) is noted as it is answered: the
operation, the caller, the node it named, the unique text it sent (a uuid in its body) or the action. Only a 401 or
403 is a denial; a call let in is its cell's failure, and the node it acted on is left out here (the run changed it).

:func:`judge` reads once per account and per node, after the last cell (the module's last test; the module is one
unit of work, parallel.GROUPS "permissions", so the cells ran before it in its process):
- each caller's own content (listUserContent as admin: every node the account wrote, on any parent kind, that admin
  may see): no entry holds a refused call's text; wrong_password names member, so member's content is read for it;
- each answer a refused comment named, its comment list as admin (anonymous's refusals have no account to read);
- each node a refused action named, novice's read of its author's answer list: still listed (a move into
  moderation is the one effect of a refused action the interface shows; a lock has no field, and the nodes are no
  favorites and not wiki). Retried within the settle window (what must appear), while a refused text found is
  judged at once (what must not appear).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from qaconform.contract import path
from qaconform.pytest.support import body_holds, find_listed, list_all, present
from qaconform.target.client import ApiClient, ApiResponse

NO_EFFECT = "PERM-DENIED-NO-EFFECT"

NAMED_ACCOUNT = {"wrong_password": "member"}
"""Whose account a caller's credentials name (suites' ``api`` fixture: a wrong password carries member's username)."""


@dataclass(frozen=True)
class Refused:
    """One refused call: what it asked, of which node, and how to recognise what it would have written."""

    operation: str
    caller: str
    node: int
    kind: str
    """The node's kind: question, answer or comment (for an action, answer)."""
    status: int
    how: str
    text: str | None = None
    """The unique text a refused comment or answer sent; None for an action."""

    def describe(self) -> str:
        return f"{self.operation} by {self.caller} on {self.kind} {self.node} ({self.how}): {self.status}"


@dataclass
class Ledger:
    """The module's refused calls in the order answered, and the nodes a call was let in on (not judged here)."""

    entries: list[Refused] = field(default_factory=list)
    let_in: set[int] = field(default_factory=set)
    seen_listed: set[int] = field(default_factory=set)
    """Answers novice read listed in their author's answer list during the module (permission_calls.node_snapshot):
    only those are judged still listed."""

    def note(self, resp: ApiResponse, operation: str, caller: str, node: int, kind: str, how: str,
             text: str | None = None) -> None:
        """A permission refusal (401 or 403) is noted; a state's refusal (409 ...) is no denial; a call let in is
        its cell's failure, and an action's node is then the run's to change."""
        if resp.status in (401, 403):
            self.entries.append(Refused(operation, caller, int(node), kind, resp.status, how, text))
        elif 200 <= resp.status < 300 and text is None:
            self.let_in.add(int(node))

    def on(self, node: int) -> bool:
        """Whether a refused action of the ledger named ``node`` already."""
        return any(e.node == node and e.text is None for e in self.entries)


@dataclass(frozen=True)
class Finding:
    """What one read showed that a refused call left behind."""

    refused: tuple[Refused, ...]
    shown: str
    resp: ApiResponse | None


def _items(resp: ApiResponse) -> list[dict[str, Any]]:
    """A user content read's entries (a bare array; an envelope's list is read too: its form is another rule's)."""
    try:
        body = resp.json()
    except AssertionError:
        return []
    if isinstance(body, dict):
        body = body.get("list")
    return [i for i in body if isinstance(i, dict)] if isinstance(body, list) else []


def _texts(entries: Iterable[Refused]) -> list[Refused]:
    return [e for e in entries if e.text is not None]


def in_content(api: dict[str, ApiClient], user_ids: dict[str, int], ledger: Ledger) -> tuple[list[Finding], int]:
    """Each refused caller's content read once as admin (the one account the permission table lets read it, Manage
    data protection): the findings and how many reads were judged."""
    out, read = [], 0
    by_account: dict[str, list[Refused]] = {}
    for e in _texts(ledger.entries):
        account = NAMED_ACCOUNT.get(e.caller, e.caller)
        if account in user_ids:
            by_account.setdefault(account, []).append(e)
    for account, entries in by_account.items():
        resp = api["admin"].get(path("listUserContent", userId=user_ids[account]), operation="listUserContent")
        if resp.status != 200:
            continue  # not read: the status is the permission matrix's to judge
        read += 1
        nodes = [(i.get("node") or {}) for i in _items(resp)]
        for e in entries:
            hits = [n.get("id") for n in nodes if isinstance(n, dict) and e.text and body_holds(n.get("body"), e.text)]
            if hits:
                out.append(Finding((e,), f"admin's read of {account}'s content lists node(s) {hits} holding its "
                                          f"text {e.text!r}", resp))
    return out, read


def under_answers(api: dict[str, ApiClient], ledger: Ledger) -> list[Finding]:
    """One admin read of the comment list of each answer a refused comment named."""
    out = []
    answers = sorted({e.node for e in _texts(ledger.entries) if e.kind == "answer" and e.operation == "postComment"})
    for answer in answers:
        items = list_all(api["admin"], path("listAnswerComments", answerId=answer), page_size=100, max_pages=10)
        for e in [e for e in _texts(ledger.entries) if e.node == answer and e.operation == "postComment"]:
            hits = [i.get("id") for i in items if e.text and body_holds(i.get("body"), e.text)]
            if hits:
                out.append(Finding((e,), f"admin's comment list of answer {answer} holds comment(s) {hits} with "
                                          f"its text {e.text!r}", None))
    return out


def moved_nodes(api: dict[str, ApiClient], user_ids: dict[str, int], ledger: Ledger,
                authors: dict[int, str]) -> tuple[list[Finding], int]:
    """Novice's read of each acted-on node's author's answer list: still listed. Nodes a call was let in on, nodes
    novice never read listed and nodes whose author the scene does not know are left out; the findings and how many
    nodes were read."""
    out, read = [], 0
    acted: dict[int, list[Refused]] = {}
    for e in ledger.entries:
        if e.text is None and e.node not in ledger.let_in and e.node in authors and e.node in ledger.seen_listed:
            acted.setdefault(e.node, []).append(e)
    for node, entries in acted.items():
        where = path("listUserAnswers", userId=user_ids[authors[node]])
        read += 1
        if find_listed(api["novice"], where, node, until=present) is None:
            resp = api["novice"].get(where, params={"pageSize": 100}, operation="listUserAnswers")
            out.append(Finding(tuple(entries), f"novice no longer finds answer {node} in {authors[node]}'s answer "
                                               "list (novice read it listed earlier in this module; a move into "
                                               "moderation hides it)", resp))
    return out, read


def judge(api: dict[str, ApiClient], user_ids: dict[str, int], ledger: Ledger,
          authors: dict[int, str]) -> tuple[list[Finding], str]:
    """Every reader above; the findings, and what was read (for the skip or the message)."""
    content, accounts = in_content(api, user_ids, ledger)
    answers = under_answers(api, ledger)
    moved, nodes = moved_nodes(api, user_ids, ledger, authors)
    read = (f"{len(ledger.entries)} refused calls; read: {accounts} accounts' content, the comment lists of "
            f"{len({e.node for e in _texts(ledger.entries) if e.kind == 'answer'})} answers, {nodes} acted-on nodes")
    return content + answers + moved, read
