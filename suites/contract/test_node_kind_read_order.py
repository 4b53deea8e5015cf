"""The comment list of an answer in each node state, read by every account right after each other account read the
very same URL (round93, issue 44: a read order a cache keyed by URL gets wrong, on one node state).

The privacy model reads its own fresh answer's comments in both read orders (test_privacy_model.py), and
test_list_access.py reads a node list of a question of each kind (node_kinds.kind_paths: community-wiki, holding an
accepted answer, in a child space) alone. A server that keeps one kind of list by its URL (the comment list of an
ACCEPTED answer behind a solution-page cache) serves the next reader the list of whoever read it before, private
comments included; neither reached it: the fresh answer is never accepted, and a kind's list was never read right
after another account's read. Here, for each kind of list_access.NODE_KINDS, the kit finds with reads an answer under
a question of that kind whose comment list, as admin reads it, holds a comment private to recipients; then every
signed-in account reads that list and right after it, back to back, every other reader (anonymous too). Each list is
judged for its reader by the fields it shows (relation_checks.Audience: a comment whose visibility is recipients,
whose recipients do not name the reader and which is not the reader's own, is "private to those recipients").

Reads only; a kind the target holds no such answer of is not judged (a skip saying so), nor is a reader the list is
not served to (who may read it is judged in test_list_access.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from list_access import NODE_KINDS
from list_walks import item_id
from listops import RunOnce
from node_kinds import KIND_TESTS
from relation_checks import Audience

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.exchange_log import outside_tests
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.support import list_all
from qaconform.target.client import ApiClient, TargetError
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.contract, pytest.mark.comments]

FIND_PAGE_SIZE = 95
"""The page size of the finder's reads (no row of the kit reads with it, so no response kept by URL answers them)."""
MAX_ANSWERS = 8
"""How many answers of a kind's questions the finder reads the comments of (bounded)."""


def _body(client: ApiClient, path: str, **params: Any) -> Any:
    resp = client.get(path, params=params or None, operation="listAnswerComments")
    try:
        return resp.json() if resp.status == 200 else None
    except TargetError:
        return None


def _private_items(body: Any, recipients_value: str | None) -> list[Any]:
    items = body.get("list") if isinstance(body, dict) else None
    return [i for i in items or [] if isinstance(i, dict) and recipients_value is not None
            and i.get("visibility") == recipients_value and isinstance(i.get("recipients"), list) and i["recipients"]]


def _find(api: dict[str, ApiClient], profile: Profile) -> dict[str, int]:
    """kind -> the first answer under a question of that kind (admin's question list, in its order) whose comments,
    as admin reads them, hold one private to recipients; at most :data:`MAX_ANSWERS` read per kind."""
    admin = api["admin"]
    out: dict[str, int] = {}
    with outside_tests():
        questions = list_all(admin, contract_path("listQuestions"), page_size=FIND_PAGE_SIZE, max_pages=1)
        for kind, test in KIND_TESTS.items():
            answers = [str(a) for q in questions if isinstance(q, dict) and test(q) for a in q.get("answers") or []
                       if str(a).isdecimal()]
            for answer in answers[:MAX_ANSWERS]:
                body = _body(admin, contract_path("listAnswerComments", answerId=answer), pageSize=FIND_PAGE_SIZE)
                if _private_items(body, profile.visibility.recipients):
                    out[kind] = int(answer)
                    break
    return out


@pytest.fixture(scope="session")
def kind_answers(api: dict[str, ApiClient], profile: Profile, run_once: RunOnce) -> dict[str, int]:
    """kind -> the answer whose comment list the kind's test reads, found once per run."""
    return {k: int(v) for k, v in run_once("node kind read order answers", lambda: _find(api, profile)).items()}


@pytest.mark.rule("COMMENT-PRIVACY-LIST")
@pytest.mark.parametrize("kind", NODE_KINDS)
def test_an_answers_comments_in_each_node_state_hold_no_private_comment_of_others_whoever_read_them_before(
        kind: str, api: dict[str, ApiClient], profile: Profile, user_ids: dict[str, int],
        kind_answers: dict[str, int]) -> None:
    """Every (before, reader) pair of accounts, back to back on the same URL: the reader's list holds no comment
    private to recipients that names neither it nor is its own."""
    if profile.visibility.recipients is None:
        skip(SkipKind.CONFIGURATION, "not judged: the profile's [visibility] gives no wire value of recipients")
    if kind not in kind_answers:
        skip(SkipKind.OTHER, f"not judged: no answer under a {kind} question of the first {FIND_PAGE_SIZE} listed "
                             f"({MAX_ANSWERS} answers read at most) holds a comment private to recipients")
    path = contract_path("listAnswerComments", answerId=kind_answers[kind])
    readers = [r for r in load_contract().dimensions.values["reader"] if r in api]
    leaks: list[str] = []
    for before in (r for r in readers if r != "anonymous"):
        for reader in (r for r in readers if r != before):
            _body(api[before], path)
            body = _body(api[reader], path)
            audience = Audience.of(profile, reader, user_ids.get(reader), {})
            items = body.get("list") if isinstance(body, dict) else None
            shown = [item_id(i) for i in items or [] if audience.may_not_see(i)]
            if shown:
                leaks.append(f"{reader} right after {before}: {shown}")
    if leaks:
        fail(["COMMENT-PRIVACY-LIST"], f"GET {path} (an answer under a {kind} question) shows readers comments private "
                                       f"to recipients that name neither them nor are theirs (\"the comment is private "
                                       f"to those recipients\"): {'; '.join(leaks[:6])}")
