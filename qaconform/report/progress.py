"""Progress of a long command in "n of N" with an estimate of the time left, on the terminal and in CI logs.

Why one small class: `selftest` and `capacity` run for minutes; a line per finished item that says how far the
command is and about how long it still needs lets a person decide to wait or stop. On a terminal, rich also keeps
a live bar under those lines; in a log (no terminal) only the lines appear, one per item, so a CI log stays readable.
The estimate is the elapsed time per finished item so far (items that run in parallel lower it by themselves) times
the items left: a rough figure, printed as "about", and omitted until the first item finishes.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn


def duration(seconds: float) -> str:
    """``75`` -> ``1m15s``; ``3725`` -> ``1h02m``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{(s % 3600) // 60:02d}m"


class Tracker:
    """Counts finished items out of ``total`` and prints one line per item with "n of N" and the time left."""

    def __init__(self, total: int, what: str, console: Console | None = None) -> None:
        self.total = total
        self.what = what
        self.done_count = 0
        self.started = time.monotonic()
        self.console = console or Console(highlight=False, soft_wrap=True)
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._lock = threading.Lock()  # items finish in pool threads

    def __enter__(self) -> Tracker:
        if self.console.is_terminal:
            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=self.console, transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.what, total=self.total)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.stop()

    def estimate(self) -> float | None:
        """Seconds left, or None before the first item finished."""
        if not self.done_count:
            return None
        elapsed = time.monotonic() - self.started
        left = self.total - self.done_count
        return elapsed / self.done_count * left  # items run in parallel finish faster: the mean already says so

    def advance(self, line: str) -> str:
        """One item finished: print ``[n of N] line (about T left)`` and return it."""
        with self._lock:
            self.done_count += 1
            left = self.estimate()
            tail = "" if self.done_count >= self.total or left is None else f" (about {duration(left)} left)"
            text = f"[{self.done_count} of {self.total}] {line}{tail}"
            self.console.print(text, markup=False)
            if self._bar is not None and self._task is not None:
                self._bar.update(self._task, advance=1)
            return text
