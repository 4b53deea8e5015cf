"""The found-relations walk's paths15 relations (issue 44): a question the caller answered (ANSWERER; its unwikify
only on a wiki question, which no other cell is placed on) and a reply under a comment the caller wrote (REPLY), read
from the lists the walk reads anyway. Each test fails on the walk as it was before (no such relation, kind or cell)."""

from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from action_cases import LOCK, NONE, PARENT_AUTHOR, SEND, WIKI
from found_relations import ANSWERER, CELLS, REPLY, Cell, Found, find, placed

IDS = {"admin": 1, "moderator": 2, "member": 3, "novice": 4}
WIKI_Q, PLAIN_Q, ANSWER, COMMENT, REPLY_ID = 50, 60, 51, 52, 53


class _Resp:
    def __init__(self, items: list[dict[str, Any]]) -> None:
        self.status, self._body = 200, {"list": items, "totalCount": len(items), "pageSize": 100}

    def json(self) -> Any:
        return json.loads(json.dumps(self._body))


class _Site:
    """Moderator's wiki question and plain question, member's answer under the wiki one, member's public comment on
    it and novice's public reply to that comment."""

    def __init__(self) -> None:
        who = {i: {"id": i} for i in IDS.values()}
        self.lists: dict[str, list[dict[str, Any]]] = {
            "user/2/question.json": [
                {"id": WIKI_Q, "author": who[2], "wiki": True, "answers": [ANSWER]},
                {"id": PLAIN_Q, "author": who[2], "wiki": False, "answers": []}],
            "user/3/answer.json": [{"id": ANSWER, "author": who[3], "parentId": WIKI_Q}],
            f"answer/{ANSWER}/comment.json": [
                {"id": COMMENT, "author": who[3], "parentId": ANSWER, "visibility": "full"},
                {"id": REPLY_ID, "author": who[4], "parentId": COMMENT, "visibility": "full"}],
        }

    def get(self, path: str, params: Any = None, operation: str | None = None) -> _Resp:
        return _Resp(self.lists.get(path, []) if int((params or {}).get("page", 1)) == 1 else [])


def _found(at_once: int = 1, site: Any = None) -> list[Found]:
    site = site or _Site()
    profile: Any = SimpleNamespace(fixtures=SimpleNamespace(question_id=1, member_wiki_node_id=2, wiki_node_id=3,
                                                            favorite_node_id=4, locked_question_id=5), pools={})
    return find({"admin": site, "novice": site}, profile, IDS, at_once)


class _Logged(_Site):
    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def get(self, path: str, params: Any = None, operation: str | None = None) -> _Resp:
        self.asked.append(path)
        return super().get(path, params, operation)


def test_the_walk_read_a_few_at_once_finds_what_it_finds_one_read_after_another() -> None:
    """speed17: each step's reads go together; the nodes found, their order and the reads made stay the same."""
    serial, together = _Logged(), _Logged()
    assert _found(1, serial) == _found(4, together)
    assert sorted(serial.asked) == sorted(together.asked) and len(serial.asked) > 4


def test_the_walk_finds_the_answerer_of_a_wiki_question_and_the_author_of_a_replys_comment() -> None:
    found = {n.id: n for n in _found()}
    assert found[WIKI_Q].wiki and found[WIKI_Q].answerers == frozenset({"member"})
    assert ANSWERER in found[WIKI_Q].relations("member") and NONE in found[WIKI_Q].relations("member")
    assert found[REPLY_ID].kind == REPLY and found[REPLY_ID].relations("member") >= {PARENT_AUTHOR}
    assert found[COMMENT].kind == "comment", "a first-level comment stays a comment"


def test_answerer_and_reply_cells_are_placed_and_no_other_cell_lands_on_a_wiki_question() -> None:
    found = _found()
    at = {c: placed(c, found) for c in CELLS}
    assert at[Cell(WIKI, "member", ANSWERER, "question")].id == WIKI_Q  # type: ignore[union-attr]
    assert at[Cell(LOCK, "member", ANSWERER, "question")].id == WIKI_Q  # type: ignore[union-attr]
    for action in (LOCK, SEND, WIKI):
        assert at[Cell(action, "member", PARENT_AUTHOR, REPLY)].id == REPLY_ID  # type: ignore[union-attr]
    assert at[Cell(WIKI, "member", NONE, "question")].id == PLAIN_Q  # type: ignore[union-attr]
    assert all(n is None or not n.wiki or (c.action == WIKI and n.kind == "answer")  # round50: wiki answers
               for c, n in at.items() if c.relation != ANSWERER)
    assert all(n is None or n.kind != "question" or not n.wiki for c, n in at.items() if c.relation != ANSWERER)


def test_an_answerers_unwikify_waits_for_a_wiki_question() -> None:
    plain = Found(PLAIN_Q, "question", "moderator", None, None, "p", "listUserQuestions",
                  answerers=frozenset({"member"}))
    assert placed(Cell(WIKI, "member", ANSWERER, "question"), [plain]) is None, "refused by its state: not tried"
    assert placed(Cell(SEND, "member", ANSWERER, "question"), [plain]) == plain


def test_an_answerer_cell_goes_first_to_a_question_whose_accepted_answer_the_caller_wrote() -> None:
    """round48 (issue 44): "own" taken from the question's accepted answer (marked) bit only where the caller wrote
    it; the walk reads marked from the answer lists and places an ANSWERER cell there before any other question the
    caller answered (without the mark, the first one found, as before)."""
    found = _found()
    assert not any(n.accepted for n in found), "no answer is marked on this site"
    other = Found(PLAIN_Q, "question", "moderator", None, None, "user/2/question.json", "listUserQuestions",
                  answerers=frozenset({"member"}), accepted=frozenset({"member"}))
    plain = [n for n in found if n.id != PLAIN_Q]
    lock = Cell(LOCK, "member", ANSWERER, "question")
    assert placed(lock, [*plain, replace(other, accepted=frozenset())]) is not None
    assert placed(lock, [*plain, replace(other, accepted=frozenset())]).id == WIKI_Q  # type: ignore[union-attr]
    assert placed(lock, [*plain, other]).id == PLAIN_Q  # type: ignore[union-attr]
    site: Any = _Site()
    site.lists["user/3/answer.json"][0]["marked"] = True
    profile: Any = SimpleNamespace(fixtures=SimpleNamespace(question_id=1, member_wiki_node_id=2, wiki_node_id=3,
                                                            favorite_node_id=4, locked_question_id=5), pools={})
    walked = {n.id: n for n in find({"admin": site, "novice": site}, profile, IDS)}
    assert walked[WIKI_Q].accepted == frozenset({"member"}) and walked[PLAIN_Q].accepted == frozenset()
