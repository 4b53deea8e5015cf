"""The settle loop of read-backs after writes (qaconform.target.settle), and how bodies read back are compared
(support.body_holds): a server may show a write a moment late, and return a body in an equivalent HTML form."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from qaconform.pytest.support import body_holds, body_text
from qaconform.target.settle import MAX_PAUSE_S, settle


class Clock:
    """A clock that moves only when the loop sleeps (or a read takes time): no test waits for real."""

    def __init__(self, read_takes: float = 0.0) -> None:
        self.now = 100.0
        self.read_takes = read_takes
        self.pauses: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.pauses.append(s)
        self.now += s

    def reads_showing_after(self, n: int) -> Callable[[], int]:
        count = [0]

        def read() -> int:
            count[0] += 1
            self.now += self.read_takes
            return count[0] if count[0] >= n else 0

        return read


def test_a_write_shown_at_the_third_read_settles_and_says_how_long_it_took() -> None:
    c = Clock()
    result, how = settle(5, c.reads_showing_after(3), bool, "GET x", clock=c.time, sleep=c.sleep)
    assert result == 3 and how.settled and how.reads == 3
    assert how.waited_ms == round(sum(c.pauses) * 1000) == 150  # 50 ms, then 100 ms
    assert how.as_dict() == {"what": "GET x", "reads": 3, "waited_ms": 150, "settled": True}


def test_a_read_that_shows_the_write_at_once_is_read_once_and_waited_for_0_ms() -> None:
    c = Clock(read_takes=0.02)
    _, how = settle(5, c.reads_showing_after(1), bool, clock=c.time, sleep=c.sleep)
    assert (how.reads, how.waited_ms, how.settled, c.pauses) == (1, 0, True, [])


def test_a_window_of_0_reads_once_and_a_read_that_never_settles_ends_at_the_window_with_the_last_result() -> None:
    c = Clock()
    result, how = settle(0, c.reads_showing_after(2), bool, clock=c.time, sleep=c.sleep)
    assert (result, how.reads, how.settled) == (0, 1, False)
    c = Clock(read_takes=0.01)
    result, how = settle(3, c.reads_showing_after(10**6), bool, clock=c.time, sleep=c.sleep)
    assert result == 0 and not how.settled
    assert max(c.pauses) <= MAX_PAUSE_S and c.now - 100 <= 3 + 0.01 + 1e-9  # no pause runs past the window
    assert how.waited_ms >= 3000  # and the last read is made at its end


@pytest.mark.parametrize(("stored", "posted"), [
    ("<p>r&#233;ponse na&#239;ve [qc-1]</p>", "réponse naïve [qc-1]"),
    ("<p>it&#39;s a &amp; b</p>", "it's a & b"),
    ("<p>answer [qc-1]</p>", "<p>answer [qc-1]</p>"),
    ("r&eacute;ponse\n  [qc-1]", "réponse [qc-1]"),
])
def test_a_body_in_an_equivalent_html_form_holds_the_posted_text(stored: str, posted: str) -> None:
    assert body_holds(stored, posted)


@pytest.mark.parametrize(("stored", "posted"), [
    ("<p>r?ponse [qc-1]</p>", "réponse [qc-1]"),  # non-ASCII lost: not the same text
    ("<p>answer [qc-1</p>", "answer [qc-1]"),  # truncated
    (None, "answer"),
])
def test_a_body_that_lost_text_does_not(stored: str | None, posted: str) -> None:
    assert not body_holds(stored, posted)


def test_body_text_drops_tags_and_resolves_references() -> None:
    assert body_text("<p>a &lt; b</p>\n<p>c</p>") == "a < b c"


def test_a_read_slower_than_the_window_is_followed_by_one_read_begun_after_it() -> None:
    """A thorough run against a target that lags 300 ms and limits its rate: one read of 5 s, begun before the write
    showed, was the only one, and the write was judged "not listed". A read that began inside the window and ended
    after it is followed by one more, begun once the window is over (and only one)."""
    c = Clock(read_takes=5.0)
    shows_at = c.now + 0.3

    def read() -> bool:
        began = c.now
        c.now += c.read_takes
        return began >= shows_at

    result, how = settle(3, read, bool, clock=c.time, sleep=c.sleep)
    assert result and how.settled and how.reads == 2
    c = Clock(read_takes=5.0)
    result, how = settle(3, c.reads_showing_after(10**6), bool, clock=c.time, sleep=c.sleep)
    assert not result and not how.settled and how.reads == 2, "one read more, not a loop"
