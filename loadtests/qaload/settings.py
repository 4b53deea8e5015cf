"""What a Locust process of ours needs to know, read once from the environment `qaconform load` sets.

Why environment variables: Locust starts workers as separate processes (possibly on other machines) and
forwards only its own options, so the profile path, run folder and rate travel the same way to every process.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from qaconform.target.profile import Profile, ProfileError, load_profile

ENV_PROFILE = "QACONFORM_PROFILE"
ENV_RUN_DIR = "QACONFORM_RUN_DIR"
ENV_RATE_PER_USER = "QACONFORM_RATE_PER_USER"
ENV_WAIT_MS = "QACONFORM_WAIT_MS"
ENV_RUN_TAG = "QACONFORM_RUN_TAG"
ENV_WINDOW_S = "QACONFORM_WINDOW_S"


@dataclass(frozen=True)
class Settings:
    profile: Profile
    run_dir: str | None
    rate_per_user: float  # tasks per second per user (open model); 0 = closed model
    wait_ms: float  # closed model: think time between tasks
    run_tag: str
    window_s: float  # > 0: also keep figures per window of this many seconds (capacity steps: steady state)


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    try:
        return float(raw) if raw else default
    except ValueError:
        sys.exit(f"{name}={raw!r} is not a number; unset it or give a number")


def load_settings() -> Settings:
    path = os.environ.get(ENV_PROFILE)
    if not path:
        sys.exit(f"{ENV_PROFILE} is not set; run through `qaconform load` or export {ENV_PROFILE}=profile.toml")
    try:
        profile = load_profile(path)
    except ProfileError as exc:
        sys.exit(str(exc))
    return Settings(
        profile=profile,
        run_dir=os.environ.get(ENV_RUN_DIR) or None,
        rate_per_user=_float(ENV_RATE_PER_USER, 0.0),
        wait_ms=_float(ENV_WAIT_MS, 0.0),
        run_tag=os.environ.get(ENV_RUN_TAG) or f"qaload-{os.getpid()}",
        window_s=_float(ENV_WINDOW_S, 0.0),
    )


SETTINGS = load_settings()
