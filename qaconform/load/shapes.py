"""Load shapes as data: ramp, step, spike and soak, each a list of stages (users and spawn rate until a time).

The ``LoadTestShape`` classes in ``loadtests/shapes/`` are two-line wrappers around :func:`tick`, so the
arithmetic is tested here without Locust. Options travel to the Locust processes in ``QACONFORM_SHAPE_*``
environment variables (set by ``qaconform load --shape``), because a shape class cannot take constructor
arguments. Every shape returns None once ``duration_s`` has passed, which ends the run by itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

SHAPES = ("ramp", "step", "spike", "soak")
"""The shapes `qaconform load --shape` takes (their stages: ``STAGES``)."""
ENV_PREFIX = "QACONFORM_SHAPE_"


@dataclass(frozen=True)
class ShapeOptions:
    """Peak users, total duration, and the few knobs each shape has (0 = derived from the others)."""

    users: int = 10
    duration_s: float = 20.0
    ramp_s: float = 0.0  # ramp and soak: time to reach `users` (ramp: half the run; soak: a tenth, at most 10 s)
    steps: int = 4  # step: number of equal steps up to `users`
    base_users: int = 0  # spike: users before and after the spike (a fifth of `users`)
    spike_at_s: float = 0.0  # spike: when it starts (40 % into the run)
    spike_s: float = 0.0  # spike: how long it lasts (20 % of the run)

    def to_env(self) -> dict[str, str]:
        return {ENV_PREFIX + f.name.upper(): str(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ShapeOptions:
        values: dict[str, Any] = {}  # each converted to its field's type below
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is None or raw == "":
                continue
            try:
                values[f.name] = int(float(raw)) if f.type in ("int", int) else float(raw)
            except ValueError:
                raise ValueError(f"{ENV_PREFIX}{f.name.upper()}={raw!r} is not a number") from None
        opts = replace(cls(), **values)
        if opts.users < 1 or opts.duration_s <= 0:
            raise ValueError(f"shape needs users >= 1 and duration_s > 0, got users={opts.users} "
                             f"duration_s={opts.duration_s}")
        return opts


@dataclass(frozen=True)
class Stage:
    """Until ``until_s`` seconds into the run: ``users`` users, spawned at ``spawn_rate`` per second (the stages
    of Locust's own StagesShape example). ``ramp_s`` > 0 grows the users linearly over that many seconds of the
    stage instead of all at once."""

    until_s: float
    users: int
    spawn_rate: float
    ramp_s: float = 0.0


def _rate(users: int, seconds: float) -> float:
    """Spawn rate (users per second) that reaches `users` in `seconds`; quick when no time is given."""
    return max(1.0, users / seconds) if seconds > 0 else float(max(users, 1))


def _ramp(o: ShapeOptions) -> list[Stage]:
    ramp = o.ramp_s or o.duration_s / 2
    return [Stage(ramp, o.users, _rate(o.users, ramp), ramp_s=ramp), Stage(o.duration_s, o.users, _rate(o.users, ramp))]


def _step(o: ShapeOptions) -> list[Stage]:
    steps = max(1, o.steps)
    return [Stage(o.duration_s * (i + 1) / steps, max(1, math.ceil(o.users * (i + 1) / steps)), float(max(o.users, 1)))
            for i in range(steps)]


def _spike(o: ShapeOptions) -> list[Stage]:
    base = o.base_users or max(1, o.users // 5)
    at = o.spike_at_s or o.duration_s * 0.4
    length = o.spike_s or o.duration_s * 0.2
    rate = float(max(o.users, 1))
    return [Stage(at, base, rate), Stage(at + length, o.users, rate), Stage(o.duration_s, base, rate)]


def _soak(o: ShapeOptions) -> list[Stage]:
    return [Stage(o.duration_s, o.users, _rate(o.users, o.ramp_s or min(10.0, o.duration_s / 10)))]


STAGES: dict[str, Callable[[ShapeOptions], list[Stage]]] = {"ramp": _ramp, "step": _step, "spike": _spike,
                                                             "soak": _soak}
"""Each shape as its list of stages: adding a shape is one function here and a two-line file in loadtests/shapes."""


def stages(shape: str, o: ShapeOptions) -> list[Stage]:
    if shape not in STAGES:
        raise ValueError(f"unknown shape {shape!r}; use one of {', '.join(SHAPES)}")
    return STAGES[shape](o)


def tick(shape: str, o: ShapeOptions, t: float) -> tuple[int, float] | None:
    """(users, spawn_rate) at `t` seconds into the run, or None when the run is over."""
    start = 0.0
    for stage in stages(shape, o):
        if start <= t < stage.until_s and t < o.duration_s:
            users = stage.users
            if stage.ramp_s > 0:
                users = max(1, math.ceil(stage.users * (t - start) / stage.ramp_s))
            return users, stage.spawn_rate
        start = stage.until_s
    return None
