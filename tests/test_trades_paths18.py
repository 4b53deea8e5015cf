"""paths18 (issue 44): two left-out faults taken on writes the run makes anyway. moderator's shared to_original_poster
comment goes on the fixture question (suites/question_options.py), read by test_private_options_stored.py under the
same pair; member's shared to_moderators comment and its reply that admin locks are posted as a pair, the reply at
once after the private comment, whichever of the two a test asks for first (suites/plain_after_private.py)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import suites.plain_after_private as pairs
from suites.question_options import ON_QUESTION

ROOT = Path(__file__).resolve().parents[1]


def test_the_test_reading_the_question_comment_names_the_pair_the_suites_post_there() -> None:
    tree = ast.parse((ROOT / "suites/scenarios/test_private_options_stored.py").read_text(encoding="utf-8"))
    read = [ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == ["ON_QUESTION"]]
    assert read == [ON_QUESTION]


class _Resp:
    def __init__(self, status: int) -> None:
        self.status = status


class _Request:
    """Records the order of posts: the reply's parent (comment_of), the private comment, the reply."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def getfixturevalue(self, name: str) -> Any:
        if name == "comment_of":
            return lambda role: self.log.append(f"plain of {role}")
        if name == "private_comment_of":
            return lambda role, option: pairs.reply_follows(self, role, option, self._private(role, option))  # type: ignore[arg-type]
        raise AssertionError(name)

    def _private(self, role: str, option: str) -> Any:
        def post() -> _Resp:
            if f"{option} of {role}" not in self.log:
                self.log.append(f"{option} of {role}")
            return _Resp(201)
        return post


@pytest.fixture
def log(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    posted: list[str] = []

    def reply(request: Any) -> _Resp:
        if "reply" not in posted:
            posted.append("reply")
        return _Resp(201)

    monkeypatch.setattr(pairs, "member_reply", reply)
    return posted


def test_the_private_comment_asked_first_is_followed_at_once_by_the_reply(log: list[str]) -> None:
    role, option = pairs.REPLY_AFTER_PRIVATE
    _Request(log).getfixturevalue("private_comment_of")(role, option)
    assert log == [f"plain of {role}", f"{option} of {role}", "reply"]


def test_the_reply_asked_first_posts_the_private_comment_right_before_it(log: list[str]) -> None:
    role, option = pairs.REPLY_AFTER_PRIVATE
    pairs.reply_after_private(_Request(log))  # type: ignore[arg-type]
    assert log == [f"plain of {role}", f"{option} of {role}", "reply"]


def test_another_option_posts_no_reply(log: list[str]) -> None:
    _Request(log).getfixturevalue("private_comment_of")("member", "to_original_poster")
    assert log == ["to_original_poster of member"]
