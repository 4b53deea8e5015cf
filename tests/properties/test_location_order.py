"""A private comment's own URL read by an outsider right after its author (suites/properties/location_order.py,
round48, issue 44): the rule charged, the outsider chosen, and the comment handed over told from a refusal or a page
of its own. Each test fails on the model as it was before (no such read)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any


def _location_order() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "suites" / "properties" / "location_order.py"
    spec = importlib.util.spec_from_file_location("location_order_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


lo = _location_order()


class _Resp:
    def __init__(self, status: int, body: Any) -> None:
        self.status, self._body = status, body

    def json(self) -> Any:
        if isinstance(self._body, Exception):
            raise self._body
        return self._body


class _Client:
    def __init__(self, resp: _Resp) -> None:
        self.resp, self.paths = resp, []  # type: list[str]

    def get(self, path: str) -> _Resp:
        self.paths.append(path)
        return self.resp


def _comment(private: bool = True, reply: bool = False, inherited: bool = False) -> Any:
    return SimpleNamespace(id=7, author="member", private=private, reply=reply,
                           thread_authors=frozenset({"admin"}) if inherited else frozenset(),
                           audience=frozenset({"member", "moderator"}))


def test_the_rule_is_the_one_whose_sentence_makes_the_comment_private() -> None:
    assert lo.rule_of(True, False, False) == "COMMENT-2"
    assert lo.rule_of(True, True, True) == "COMMENT-3"
    assert lo.rule_of(True, True, False) == "COMMENT-5"
    assert lo.rule_of(False, True, True) is None


def test_only_the_comment_itself_handed_over_is_a_leak() -> None:
    assert lo.shows(_Resp(200, {"id": 7, "body": "x"}), 7)
    assert lo.shows(_Resp(200, {"id": "7"}), 7)
    assert not lo.shows(_Resp(404, {"id": 7}), 7), "a refusal holds no comment"
    assert not lo.shows(_Resp(200, {"id": 8}), 7), "another node"
    assert not lo.shows(_Resp(200, ValueError("html")), 7), "a page of its own, not the comment"


def test_the_least_privileged_outsider_reads_the_url_and_a_leak_fails_the_comments_rule() -> None:
    leak = _Client(_Resp(200, {"id": 7}))
    api = {"novice": leak, "member": _Client(_Resp(200, {"id": 7})), "anonymous": _Client(_Resp(401, {}))}
    failed: list[tuple[Any, ...]] = []
    lo.judge(_comment(), "comment/7.json", api, lambda c, r: r not in c.audience, lambda *a: failed.append(a))
    assert leak.paths == ["comment/7.json"] and api["member"].paths == []
    assert failed and failed[0][0] == "COMMENT-2" and "novice" in failed[0][1]
    refused = {"novice": _Client(_Resp(404, {}))}
    failed.clear()
    lo.judge(_comment(reply=True, inherited=True), "comment/7.json", refused, lambda c, r: True,
             lambda *a: failed.append(a))
    assert not failed, "a refusal of the outsider is what the rule wants"
    public = {"novice": _Client(_Resp(200, {"id": 7}))}
    lo.judge(_comment(private=False), "comment/7.json", public, lambda c, r: True, lambda *a: failed.append(a))
    assert not failed and public["novice"].paths == [], "a public comment is everyone's: no read"
