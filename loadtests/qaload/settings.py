"""What a Locust process of ours needs to know, read once from the environment `qaconform load` sets.

Why environment variables: Locust starts workers as separate processes (possibly on other machines) and
forwards only its own options, so the target, run folder and rate travel the same way to every process.

The target is the run's resolved target (``QACONFORM_TARGET``: the target.json `qaconform load` or `qaconform
capacity` wrote into its output folder, qaconform.target.resolved): its base URL, its profile file for the
accounts and fixtures; the profile's own base_url and ``QACONFORM_BASE_URL`` are not applied again. Only a
locustfile debugged by hand, without ``QACONFORM_TARGET``, loads ``QACONFORM_PROFILE`` (with the same override).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from qaconform.errors import UsageError
from qaconform.load.write_budget import Limits
from qaconform.target.profile import Profile
from qaconform.target.resolved import TARGET_ENV, env_override, resolve_target

ENV_TARGET = TARGET_ENV
ENV_PROFILE = "QACONFORM_PROFILE"
ENV_RUN_DIR = "QACONFORM_RUN_DIR"
ENV_RATE_PER_USER = "QACONFORM_RATE_PER_USER"
ENV_WAIT_MS = "QACONFORM_WAIT_MS"
ENV_RUN_TAG = "QACONFORM_RUN_TAG"
ENV_WINDOW_S = "QACONFORM_WINDOW_S"
ENV_MAX_WRITES = "QACONFORM_MAX_WRITES"
ENV_MAX_WRITE_RPS = "QACONFORM_MAX_WRITE_RPS"
ENV_ONE_SHOTS = "QACONFORM_ONE_SHOTS"
NO_LIMIT = "none"
"""The value of ENV_MAX_WRITES / ENV_MAX_WRITE_RPS that lifts the limit (`qaconform load --no-write-budget`)."""


@dataclass(frozen=True)
class Settings:
    profile: Profile
    run_dir: str | None
    rate_per_user: float  # tasks per second per user (open model); 0 = closed model
    wait_ms: float  # closed model: think time between tasks
    run_tag: str
    window_s: float  # > 0: also keep figures per window of this many seconds (capacity steps: steady state)
    write_limits: Limits  # the whole run's write budget (a worker gets its share from the master)
    one_shots: bool = True  # send the profile's one-shot fixture calls (a capacity step never: "0")


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    try:
        return float(raw) if raw else default
    except ValueError:
        sys.exit(f"{name}={raw!r} is not a number; unset it or give a number")


def _limit(name: str, default: float | None, kind: type[int] | type[float]) -> float | None:
    """A write limit from the environment: a number, ``none`` (no limit), or unset (the profile's [load])."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if raw == NO_LIMIT:
        return None
    try:
        value = kind(raw)
    except ValueError:
        value = -1
    if value < 0 or (kind is float and value == 0):
        sys.exit(f"{name}={raw!r} is not a valid limit; give a positive number, {NO_LIMIT!r}, or unset it")
    return value


def load_target() -> Profile:
    """The profile this process tests: the run's resolved target (``QACONFORM_TARGET``), never resolved again; a
    ``QACONFORM_BASE_URL`` that disagrees with it ends the process before any request (one run tests one target).
    Without it (a locustfile run by hand), ``QACONFORM_PROFILE`` with the environment's override."""
    given = os.environ.get(ENV_TARGET, "").strip()
    path = os.environ.get(ENV_PROFILE)
    if not given and not path:
        sys.exit(f"neither {ENV_TARGET} nor {ENV_PROFILE} is set; run through `qaconform load` or export "
                 f"{ENV_PROFILE}=profile.toml")
    try:
        if given:
            return resolve_target(target_file=given, option=ENV_TARGET, override=env_override()).profile()
        return resolve_target(profile=path, option=ENV_PROFILE, override=env_override()).profile()
    except UsageError as exc:  # a profile or a target.json that cannot be used, an override that disagrees
        sys.exit(str(exc))


def load_settings() -> Settings:
    profile = load_target()
    return Settings(
        profile=profile,
        run_dir=os.environ.get(ENV_RUN_DIR) or None,
        rate_per_user=_float(ENV_RATE_PER_USER, 0.0),
        wait_ms=_float(ENV_WAIT_MS, 0.0),
        run_tag=os.environ.get(ENV_RUN_TAG) or f"qaload-{os.getpid()}",
        window_s=_float(ENV_WINDOW_S, 0.0),
        write_limits=Limits(
            max_writes=_int_or_none(_limit(ENV_MAX_WRITES, profile.load.max_writes, int)),
            max_write_rps=_limit(ENV_MAX_WRITE_RPS, profile.load.max_write_rps, float)),
        one_shots=os.environ.get(ENV_ONE_SHOTS, "1") != "0",
    )


def _int_or_none(v: float | None) -> int | None:
    return None if v is None else int(v)


SETTINGS = load_settings()
