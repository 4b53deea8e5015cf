"""The found-relations walk's unwikify cells on a wiki answer (round50, issue 44): an unwikify placed on a node that is
not wiki is refused by the node's state whoever calls, so "for the caller's own node" was never what it tried. The walk
now keeps the wiki answers it reads and places each unwikify cell of an answer on a wiki one first; every other cell
stays off wiki nodes. Each test fails on the walk as it was before (wiki answers skipped)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from action_cases import LOCK, NONE, PARENT_AUTHOR, QUESTION_AUTHOR_OF, SEND, WIKI
from found_relations import CELLS, Cell, Found, find, placed

IDS = {"admin": 1, "moderator": 2, "member": 3, "novice": 4}
MEMBERS_Q, ADMINS_Q, WIKI_UNDER_MEMBER, PLAIN_UNDER_MEMBER, WIKI_UNDER_ADMIN = 70, 80, 71, 72, 81


class _Resp:
    def __init__(self, items: list[dict[str, Any]]) -> None:
        self.status, self._body = 200, {"list": items, "totalCount": len(items), "pageSize": 100}

    def json(self) -> Any:
        return json.loads(json.dumps(self._body))


class _Site:
    """A question of member's with a wiki answer and a plain answer of moderator's, and a question of admin's with a
    wiki answer of moderator's."""

    def __init__(self) -> None:
        who = {i: {"id": i} for i in IDS.values()}
        self.lists: dict[str, list[dict[str, Any]]] = {
            "user/3/question.json": [{"id": MEMBERS_Q, "author": who[3], "wiki": False,
                                      "answers": [WIKI_UNDER_MEMBER, PLAIN_UNDER_MEMBER]}],
            "user/1/question.json": [{"id": ADMINS_Q, "author": who[1], "wiki": False, "answers": [WIKI_UNDER_ADMIN]}],
            "user/2/answer.json": [
                {"id": WIKI_UNDER_MEMBER, "author": who[2], "parentId": MEMBERS_Q, "wiki": True},
                {"id": PLAIN_UNDER_MEMBER, "author": who[2], "parentId": MEMBERS_Q, "wiki": False},
                {"id": WIKI_UNDER_ADMIN, "author": who[2], "parentId": ADMINS_Q, "wiki": True}],
        }

    def get(self, path: str, params: Any = None, operation: str | None = None) -> _Resp:
        return _Resp(self.lists.get(path, []) if int((params or {}).get("page", 1)) == 1 else [])


def _found() -> list[Found]:
    site: Any = _Site()
    profile: Any = SimpleNamespace(fixtures=SimpleNamespace(question_id=1, member_wiki_node_id=2, wiki_node_id=3,
                                                            favorite_node_id=4, locked_question_id=5), pools={})
    return find({"admin": site, "novice": site}, profile, IDS)


def test_the_walk_keeps_the_wiki_answers_it_reads() -> None:
    found = {n.id: n for n in _found()}
    assert found[WIKI_UNDER_MEMBER].wiki and found[WIKI_UNDER_ADMIN].wiki and not found[PLAIN_UNDER_MEMBER].wiki
    assert QUESTION_AUTHOR_OF in found[WIKI_UNDER_MEMBER].relations("member")
    assert found[WIKI_UNDER_ADMIN].relations("member") == frozenset({NONE})


def test_an_unwikify_of_an_answer_is_placed_on_a_wiki_answer_and_no_other_action_is() -> None:
    found = _found()
    for relation in (PARENT_AUTHOR, QUESTION_AUTHOR_OF):
        assert placed(Cell(WIKI, "member", relation, "answer"), found).id == WIKI_UNDER_MEMBER  # type: ignore[union-attr]
    assert placed(Cell(WIKI, "member", NONE, "answer"), found).id == WIKI_UNDER_ADMIN  # type: ignore[union-attr]
    for action in (LOCK, SEND):
        assert placed(Cell(action, "member", PARENT_AUTHOR, "answer"), found).id == PLAIN_UNDER_MEMBER  # type: ignore[union-attr]
        assert placed(Cell(action, "member", NONE, "answer"), found) is None, "no plain answer without a relation"
    assert Cell(WIKI, "member", QUESTION_AUTHOR_OF, "answer") in CELLS


def test_an_unwikify_falls_back_to_a_plain_answer_where_no_wiki_one_is_found() -> None:
    plain = Found(PLAIN_UNDER_MEMBER, "answer", "moderator", "member", "member", "p", "listUserAnswers")
    assert placed(Cell(WIKI, "member", PARENT_AUTHOR, "answer"), [plain]) == plain, "as the walk placed it before"
