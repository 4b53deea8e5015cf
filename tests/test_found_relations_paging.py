"""The found-relations walks on a site that caps pageSize (the description states no maximum; the `page-size-cap-20`
variant caps at 20): a CI build's second or third run against one server found a node the accounts wrote past the
first 20 items of novice's answer list, read "no longer listed" after refused calls and failed PERM-DENIED-NO-EFFECT
(user10, two builds at once). A page as full as the size the envelope says was served is not the last one."""

from __future__ import annotations

import json
from typing import Any

from found_relations import PAGE_SIZE, Found, _whole, last_page
from test_found_relations import ROLES, UNREAD, _read_all, _seen, _seen_in

CAP = 20


class _Resp:
    def __init__(self, body: dict[str, Any], url: str) -> None:
        self.status, self.url, self._body = 200, url, body

    def json(self) -> Any:
        return json.loads(json.dumps(self._body))


class _CappedList:
    """``count`` answers (ids 1..count), served at most :data:`CAP` a page, the envelope saying so."""

    role = "admin"

    def __init__(self, count: int, total: bool = True) -> None:
        self.count, self.total, self.pages = count, total, 0

    def get(self, path: str, params: Any = None, operation: str | None = None) -> _Resp:
        self.pages += 1
        page, size = int(params["page"]), min(int(params["pageSize"]), CAP)
        ids = list(range(1, self.count + 1))[(page - 1) * size: page * size]
        body: dict[str, Any] = {"list": [{"id": i, "type": "answer"} for i in ids], "page": page, "pageSize": size}
        if self.total:
            body["totalCount"] = self.count
        return _Resp(body, f"{path}?page={page}")


NODE = Found(22, "answer", "novice", "admin", "admin", "user/4/answer.json", "listUserAnswers")


def test_a_node_past_the_capped_first_page_is_still_listed() -> None:
    for total in (True, False):
        client: Any = _CappedList(26, total)
        assert _seen(client, NODE) == {"id": 22, "type": "answer", "author": None}, f"totalCount: {total}"


def test_a_node_absent_from_the_whole_capped_list_is_not_listed() -> None:
    client: Any = _CappedList(21)
    assert _seen(client, NODE) is None
    assert client.pages == 2, "the walk goes on past a full capped page and stops at the list's end"


def test_a_list_longer_than_the_pages_read_is_unread_not_absent() -> None:
    far = Found(9_999, "answer", "novice", "admin", "admin", "user/4/answer.json", "listUserAnswers")
    client: Any = _CappedList(10_000, total=False)
    assert _seen(client, far) == UNREAD


def _node(node_id: int, path: str = "user/4/answer.json") -> Found:
    return Found(node_id, "answer", "novice", "admin", "admin", path, "listUserAnswers")


def test_nodes_of_one_list_are_read_as_each_alone_with_the_list_read_once() -> None:
    """speed17: the nodes a list shows are looked up in one walk of it, each read as its own walk would read it."""
    for count, total, ids in ((26, True, (5, 22, 999)), (26, False, (22, 5)), (10_000, False, (5, 9_999)),
                              (21, True, (21, 22))):
        nodes = [_node(i) for i in ids]
        shared: Any = _CappedList(count, total)
        got = _seen_in(shared, nodes)
        alone = {}
        for n in nodes:
            client: Any = _CappedList(count, total)
            alone[n.id] = _seen(client, n)
        assert got == alone, (count, total, ids)
        assert shared.pages == max(_pages_for(count, total, n) for n in nodes), "no page read twice, none past need"


def _pages_for(count: int, total: bool, node: Found) -> int:
    client: Any = _CappedList(count, total)
    _seen(client, node)
    return int(client.pages)


class _Refused(_CappedList):
    def get(self, path: str, params: Any = None, operation: str | None = None) -> _Resp:
        resp = super().get(path, params, operation)
        if int(params["page"]) > 1:
            resp.status = 403
        return resp


def test_a_read_that_stops_answering_leaves_the_nodes_not_found_yet_unread() -> None:
    got = _seen_in(_Refused(26), [_node(5), _node(22)])
    assert got == {5: {"id": 5, "type": "answer", "author": None}, 22: UNREAD}


def test_every_account_reads_each_list_once_and_finds_every_node_it_shows() -> None:
    nodes = [_node(5), _node(22), _node(3, "user/2/question.json")]
    api: Any = {role: _CappedList(26) for role in ROLES}
    for at_once in (1, 4):
        for client in api.values():
            client.pages = 0
        got = _read_all(api, nodes, at_once)
        assert got == {(n.id, role): _seen(_CappedList(26), n) for n in nodes for role in ROLES}  # type: ignore[arg-type]
        assert all(client.pages == 3 for client in api.values()), "two pages of user/4's list, one of user/2's"


def test_the_finder_reads_the_whole_capped_list() -> None:
    client: Any = _CappedList(26)
    got, whole = _whole(client, "user/4/answer.json", "listUserAnswers")
    assert [i["id"] for i in got] == list(range(1, 27)) and whole


def test_a_short_page_of_an_uncapped_site_ends_the_walk() -> None:
    resp: Any = _Resp({"list": [{"id": 1}], "pageSize": PAGE_SIZE}, "x")
    assert last_page(resp, [{"id": 1}], 1)
    full: Any = _Resp({"list": [{"id": i} for i in range(CAP)], "pageSize": CAP}, "x")
    assert not last_page(full, list(range(CAP)), CAP)


class _Read:
    """A refused call's response, or a list read: what the failure message replays."""

    status = 404
    exchange = None

    def __init__(self, curl: str) -> None:
        self.curl = curl

    def describe(self) -> str:
        return f"Reproduce with: {self.curl}"


class _Reader:
    role = "admin"

    def get(self, path: str, params: Any = None, operation: str | None = None) -> _Read:
        return _Read(f"curl -u admin:$PW 'http://t/services/v2/{path}?page={params['page']}'")


def test_a_changed_node_fails_with_a_curl_of_the_read_that_shows_it() -> None:
    """The report's curl replays the refused call (a 4xx, as it should be); what broke the rule is the list read
    after it, so the message carries that read's curl too: the story replays from the one page."""
    import pytest
    from found_relations import CELLS
    from test_found_relations import FoundScene, test_a_found_node_is_unchanged_after_refused_actions

    from qaconform.pytest.outcomes import RuleFailure

    cell = CELLS[0]
    node = Found(19, cell.kind, "novice", "admin", "admin", "user/4/answer.json", "listUserAnswers")
    scene = FoundScene([node], nodes={cell: node}, calls={cell: _Read("curl -X PUT lock")})  # type: ignore[dict-item]
    roles = ("admin", "moderator", "member", "novice", "anonymous")
    scene.before = {(19, r): {"id": 19, "nodeStates": []} for r in roles}
    scene.after = {**scene.before, (19, "admin"): {"id": 19, "nodeStates": ["locked"]}}
    api: Any = {r: _Reader() for r in roles}
    with pytest.raises(RuleFailure) as failed:
        test_a_found_node_is_unchanged_after_refused_actions(cell, scene, api)
    assert "curl -u admin:$PW 'http://t/services/v2/user/4/answer.json?page=1'" in str(failed.value)


def test_a_cell_with_no_found_node_says_in_words_which_node_would_unlock_it() -> None:
    """user11, three CI builds against one server: the skip read "stands to novice as none of a answer" and "as
    parent_author of a comment", identifiers and a wrong article, not what a site's admin could look for. It says the
    node in words: "an answer novice did not write, under a question novice did not write"."""
    import pytest
    from found_relations import Cell
    from test_found_relations import FoundScene, _tried

    from qaconform.pytest.outcomes import Skipped

    words = {"none": "an answer novice did not write, under a question novice did not write",
             "author": "an answer novice wrote", "parent_author": "an answer under a node novice wrote",
             "question_author": "an answer under a question novice wrote"}
    for relation, said in words.items():
        with pytest.raises(Skipped) as skipped:
            _tried(FoundScene(found=[]), Cell("lockNode", "novice", relation, "answer"))
        message = str(skipped.value)
        assert said in message and relation + " of" not in message and " a answer" not in message, message
