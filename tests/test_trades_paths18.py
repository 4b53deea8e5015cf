"""paths18 (issue 44): two left-out faults taken on writes the run makes anyway. moderator's shared to_original_poster
comment goes on the fixture question (suites/question_options.py; round64: or its to_own_groups one, as the seed
draws), read by test_private_options_stored.py under the same pair; member's shared to_moderators comment and its
reply that admin locks are posted as a pair, the reply at once after the private comment, whichever of the two a test
asks for first (suites/plain_after_private.py)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import suites.plain_after_private as pairs
from qaconform.pytest.seed_draws import QUESTION_OPTIONS
from suites.question_options import on_question

ROOT = Path(__file__).resolve().parents[1]


def test_the_test_reading_the_question_comment_draws_the_pair_the_suites_post_there() -> None:
    """round64: the pair is drawn by the run's seed (seed_draws.QUESTION_OPTIONS); the reading test's own copy names
    the same account and asks the same draw."""
    tree = ast.parse((ROOT / "suites/scenarios/test_private_options_stored.py").read_text(encoding="utf-8"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "on_question")
    returned = next(n for n in ast.walk(fn) if isinstance(n, ast.Return))
    assert isinstance(returned.value, ast.Tuple)
    account, option = returned.value.elts
    assert ast.literal_eval(account) == on_question(0)[0]
    assert isinstance(option, ast.Call) and getattr(option.func, "id", None) == "question_option_for_seed"


def test_each_option_goes_on_the_question_within_a_few_seeds_and_the_selftest_seed_keeps_paths18s() -> None:
    assert {on_question(seed) for seed in range(20260801, 20260807)} == {("moderator", o) for o in QUESTION_OPTIONS}
    assert on_question(20260801) == ("moderator", "to_original_poster")


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

    def parent(request: Any) -> tuple[int, str]:
        """The reply's parent as reply_parent finds it (locks25: the seed's drawn writer's shared plain comment under
        the shared answer), reduced to the post it asks for: the writer's plain comment."""
        writer = pairs.REPLY_AFTER_PRIVATE[0]
        request.getfixturevalue("comment_of")(writer)
        return 1, writer

    monkeypatch.setattr(pairs, "member_reply", reply)
    monkeypatch.setattr(pairs, "reply_parent", parent)
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
