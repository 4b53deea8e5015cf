"""The load users' cookie jar: the stdlib's behaviour, without its work on requests where there is none."""

from __future__ import annotations

import email.message
import urllib.request
from http.cookiejar import CookieJar
from typing import Any

import pytest

from qaconform.load.cookies import QuickCookieJar

URL = "http://127.0.0.1:8080/services/v2/question.json"


class Answer:
    """What geventhttpclient hands the jar: an object whose ``info()`` gives the answer's headers."""

    def __init__(self, *set_cookies: str) -> None:
        self.headers = email.message.Message()
        for value in set_cookies:
            self.headers["Set-Cookie"] = value

    def info(self) -> email.message.Message:
        return self.headers


def exchange(jar: CookieJar, answer: Answer) -> str | None:
    """One request through the jar; the Cookie header it carried."""
    req = urllib.request.Request(URL)
    jar.add_cookie_header(req)
    sent = req.get_header("Cookie")
    jar.extract_cookies(answer, req)  # type: ignore[arg-type]
    return sent


@pytest.mark.parametrize("answers", [
    [Answer(), Answer(), Answer()],
    [Answer("JSESSIONID=abc; Path=/"), Answer(), Answer()],
    [Answer(), Answer("a=1; Path=/services"), Answer("b=2; Path=/"), Answer("a=3; Path=/services"), Answer()],
    [Answer("gone=1; Path=/"), Answer("gone=; Path=/; Max-Age=0"), Answer()],
])
def test_the_quick_jar_sends_what_the_stdlib_jar_sends(answers: list[Answer]) -> None:
    stdlib, quick = CookieJar(), QuickCookieJar()
    sent_stdlib = [exchange(stdlib, a) for a in answers]
    sent_quick = [exchange(quick, a) for a in answers]
    assert sent_quick == sent_stdlib
    assert [c.name for c in quick] == [c.name for c in stdlib]


def test_a_session_cookie_is_carried_on_the_next_requests() -> None:
    jar = QuickCookieJar()
    assert exchange(jar, Answer("JSESSIONID=abc; Path=/")) is None
    assert exchange(jar, Answer()) == "JSESSIONID=abc"


def test_nothing_to_do_skips_the_stdlib_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_expected(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the stdlib pass ran with an empty jar and an answer without Set-Cookie")

    monkeypatch.setattr(CookieJar, "_cookies_for_request", not_expected)
    monkeypatch.setattr(CookieJar, "make_cookies", not_expected)
    assert exchange(QuickCookieJar(), Answer()) is None
