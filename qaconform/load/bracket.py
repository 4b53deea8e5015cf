"""Which rate a capacity search tries next: bracket the break, then bisect it to a stated precision.

Why its own module, with no Locust and no clock: the search's decisions are the part that must be right (the
previous search multiplied the rate by 1.5 and stopped at the first break, 25 % below the truth against a target
of known capacity), and as a pure function of the steps already run they are tested in milliseconds.

The rule: start near the closed-loop probe's estimate; while nothing broke, go up (by 20 %, then doubling: the probe
of a machine too busy to give it its CPU made 6 req/s of a 300 req/s target); while nothing held, go down (by 25 %,
then 50 %); then try the geometric middle of the highest rate that held and the lowest that broke until they are
within ``precision`` of each other; then run the highest held rate once more. A rate that broke once counts as
broken (a capacity is what holds every time); a confirmation that breaks moves the bracket down and the bisection
goes on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

START_SHARE = 0.9
"""The first open-model step asks this share of what the closed-loop probe made (saturation shows above it)."""
UP = (1.2, 2.0)
DOWN = (0.75, 0.5)


@dataclass
class Bracket:
    """The steps run so far (offered rate, held or not) and the next rate to try."""

    precision: float = 0.05
    start_rate: float = 10.0
    runs: dict[float, list[bool]] = field(default_factory=dict)

    def add(self, rate: float, held: bool) -> None:
        self.runs.setdefault(rate, []).append(held)

    @property
    def hi(self) -> float | None:
        """The lowest rate that broke (any of its runs)."""
        broken = [r for r, v in self.runs.items() if not all(v)]
        return min(broken) if broken else None

    @property
    def lo(self) -> float | None:
        """The highest rate that held every time, below :attr:`hi`."""
        hi = self.hi
        held = [r for r, v in self.runs.items() if all(v) and (hi is None or r < hi)]
        return max(held) if held else None

    def precise(self) -> bool:
        lo, hi = self.lo, self.hi
        return lo is not None and hi is not None and hi / lo - 1 <= self.precision + 1e-9

    def confirmed(self) -> bool:
        lo = self.lo
        return lo is not None and len(self.runs[lo]) >= 2

    def done(self) -> bool:
        return self.precise() and self.confirmed()

    def next_rate(self) -> float | None:
        """The next offered rate, or None when the answer is precise and confirmed."""
        lo, hi = self.lo, self.hi
        if lo is None and hi is None:
            return _round(self.start_rate)
        if hi is None:
            assert lo is not None
            ups = sum(1 for r, v in self.runs.items() if all(v))
            return _round(lo * UP[min(ups - 1, len(UP) - 1)])
        if lo is None:
            downs = sum(1 for v in self.runs.values() if not all(v))
            nxt = _round(hi * DOWN[min(downs - 1, len(DOWN) - 1)])
            return nxt if nxt < hi else None
        if not self.precise():
            mid = _round(math.sqrt(lo * hi))
            return mid if lo < mid < hi else None
        return None if self.confirmed() else lo


def _round(rate: float) -> float:
    """Rates to whole req/s from 100 up, to 0.1 below: readable, and a rate retried is the same key."""
    return max(0.1, float(round(rate)) if rate >= 100 else round(rate, 1))
