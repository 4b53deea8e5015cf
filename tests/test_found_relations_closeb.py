"""The found-relations walk's unwikify cells on every found wiki node of their relation (closeb, issue 44): one node
per relation met a relation on the first wiki node that holds it only, so a server taking "own" from a relation the
walk does not name (on a stranger's wiki node) let a refused call in unseen. Each test fails on the walk as it was
(one node per cell, the question cell never on a wiki question)."""

from __future__ import annotations

from action_cases import LOCK, NONE, WIKI
from found_relations import WIKI_TRIES, Cell, Found, also_placed, placed
from test_found_relations import FoundScene, _calls_on, _tried


def _node(id_: int, kind: str, author: str, asker: str | None, wiki: bool) -> Found:
    return Found(id_, kind, author, asker, asker, f"user/x/{kind}.json", "list", wiki=wiki)


PLAIN_Q, WIKI_Q, OTHER_WIKI_Q = 10, 11, 12
WIKI_A, OTHER_WIKI_A = 20, 21
FOUND = [_node(PLAIN_Q, "question", "moderator", None, False), _node(WIKI_Q, "question", "moderator", None, True),
         _node(OTHER_WIKI_Q, "question", "admin", None, True),
         _node(WIKI_A, "answer", "moderator", "admin", True), _node(OTHER_WIKI_A, "answer", "admin", "admin", True)]


def test_an_unwikify_cell_also_tries_every_other_wiki_node_of_its_relation() -> None:
    question, answer = Cell(WIKI, "novice", NONE, "question"), Cell(WIKI, "member", NONE, "answer")
    assert placed(question, FOUND).id == PLAIN_Q  # type: ignore[union-attr]  # as before: the first not wiki
    assert [n.id for n in also_placed(question, FOUND)] == [WIKI_Q, OTHER_WIKI_Q]
    assert placed(answer, FOUND).id == WIKI_A  # type: ignore[union-attr]  # round50: a wiki answer first
    assert [n.id for n in also_placed(answer, FOUND)] == [OTHER_WIKI_A]


def test_other_actions_and_other_relations_get_no_more_nodes() -> None:
    assert also_placed(Cell(LOCK, "novice", NONE, "question"), FOUND) == []
    mine = [_node(30 + i, "answer", "member", "admin", True) for i in range(WIKI_TRIES + 3)]
    assert also_placed(Cell(WIKI, "novice", NONE, "answer"), mine) == mine[1:1 + WIKI_TRIES]  # bounded
    assert also_placed(Cell(WIKI, "member", NONE, "answer"), mine) == []  # member wrote them: AUTHOR, not NONE


class _Resp:
    def __init__(self, status: int) -> None:
        self.status, self.content, self.headers = status, b"", {}


def test_every_node_a_cell_tried_is_judged_and_its_calls_are_the_nodes() -> None:
    cell = Cell(WIKI, "novice", NONE, "question")
    first, more = FOUND[0], FOUND[1]
    scene = FoundScene(FOUND, nodes={cell: first}, calls={cell: _Resp(403)},  # type: ignore[dict-item]
                       also={cell: [(more, _Resp(200))]})  # type: ignore[list-item]
    assert [n.id for n, _ in _tried(scene, cell)] == [PLAIN_Q, WIKI_Q]
    assert [r.status for _, r in _calls_on(scene, more)] == [200]  # type: ignore[attr-defined]
