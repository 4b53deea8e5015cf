"""The target of a pytest session: the profile (or the embedded reference server), the base URL override, the
doctor's findings, and the run's write budget and read-only guard that every ApiClient goes through."""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from qaconform import exitcodes
from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.run_state import _rule_ids, _stop
from qaconform.target.client import ApiClient, Recorder
from qaconform.target.politeness import PACE
from qaconform.target.profile import Profile, ProfileError, load_profile
from qaconform.target.writes import (
    SUITES,
    WriteBudget,
    parse_budget,
    pool_for,
)
from qaconform.vocabulary import StopReason

if TYPE_CHECKING:  # the doctor imports the contract (jsonschema): loaded when a suite needs a target, not before
    from qaconform.target.doctor import Diagnosis

@dataclass
class Target:
    """The profile in use and, when the kit started it, the reference server behind it."""

    profile: Profile
    recorder: Recorder
    started_reference: bool = False
    clients: dict[str, ApiClient] = field(default_factory=dict)
    diagnosis: Diagnosis = field(default_factory=lambda: _no_findings())
    """What the doctor found before any test (the profile above is already resolved by it)."""


def _no_findings() -> Diagnosis:
    from qaconform.target.doctor import Diagnosis

    return Diagnosis()


class _TargetHolder:
    """Starts (once, lazily) the reference server when no profile is given, and stops it at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.target: Target | None = None
        self._stack = contextlib.ExitStack()
        self.error: str | None = None

    def get(self) -> Target:
        if self.target is not None:
            return self.target
        if self.error:
            _stop(self.config, StopReason.PROFILE, self.error, exitcodes.PYTEST_BAD_PROFILE)
        given = self.config.getoption("qc_target_file", None)
        if given:
            return self._resolved(str(given))
        path = self.config.getoption("qc_profile")
        started = False
        if not path:
            from qaconform.reference import ReferenceServer  # imported lazily: a real target never needs it

            size_opt = self.config.getoption("qc_ref_size")
            size: str | int = int(size_opt) if str(size_opt).isdecimal() else size_opt
            srv = self._stack.enter_context(ReferenceServer(size=size))
            path = str(srv.profile_path)
            started = True
        try:
            profile = load_profile(path, option="--target-profile (or QACONFORM_PROFILE)")
        except ProfileError as exc:
            self.error = str(exc)
            _stop(self.config, StopReason.PROFILE, str(exc), exitcodes.PYTEST_BAD_PROFILE)
        base_url = _base_url_override(self.config)
        if base_url:
            from dataclasses import replace
            profile = replace(profile, base_url=base_url.rstrip("/"))
        recorder = Recorder(secrets=set(profile.passwords()))
        diagnosis = self._diagnose(profile, recorder)
        if diagnosis.base_url and diagnosis.base_url != profile.base_url.rstrip("/"):
            _stop(self.config, StopReason.USAGE,
                  f"the doctor examined {diagnosis.base_url}, but this session would test "
                  f"{profile.base_url} (--base-url or QACONFORM_BASE_URL): one run tests one target. Unset the "
                  "override, or give it to `qaconform run` itself so that its doctor examines that URL",
                  exitcodes.PYTEST_BAD_PROFILE)
        self.target = Target(profile=diagnosis.resolve(profile), recorder=recorder, started_reference=started,
                             diagnosis=diagnosis)
        ApiClient.write_budget = _write_budget(self.config, self.target.profile)
        PACE.share_through(_run_file(self.config, "pace"))  # a target's hold-backs, heard by every worker
        return self.target

    def _resolved(self, given: str) -> Target:
        """The target `qaconform run` resolved once (target.json): read, never resolved again, in this process and in
        every worker. An override in this process that disagrees with it stops the session before any request."""
        from qaconform.target.resolved import ResolvedTarget, ResolvedTargetError

        option = "--qaconform-target"
        try:
            resolved = ResolvedTarget.read(given)
            profile = resolved.profile(option=f"{option} {given}: its profile_path")
        except (ResolvedTargetError, ProfileError) as exc:
            _stop(self.config, StopReason.PROFILE, str(exc), exitcodes.PYTEST_BAD_PROFILE)
        override = _base_url_override(self.config)
        if override and override.rstrip("/") != resolved.base_url:
            _stop(self.config, StopReason.USAGE,
                  f"{option} {given} tests {resolved.base_url}, but this session is asked to "
                  f"test {override} (--base-url or QACONFORM_BASE_URL): one run tests one target. Unset the "
                  "override, or give it to `qaconform run` itself so that its doctor examines that URL",
                  exitcodes.PYTEST_BAD_PROFILE)
        self.target = Target(profile=profile, recorder=Recorder(secrets=set(profile.passwords())),
                             diagnosis=resolved.diagnosis)
        ApiClient.write_budget = _write_budget(self.config, self.target.profile)
        PACE.share_through(_run_file(self.config, "pace"))  # a target's hold-backs, heard by every worker
        return self.target

    def _diagnose(self, profile: Profile, recorder: Recorder) -> Diagnosis:
        """The doctor's findings: handed over (by the controller to a worker, by ``qaconform run`` in a file), else
        examined now, with reads only. A profile that cannot be used ends the run here, every problem in the one
        message (exit 2; 3 when nothing answers), before any test."""
        from qaconform.target.doctor import Diagnosis, Severity, examine

        handed = getattr(self.config, "workerinput", {}).get("qc_doctor")
        given = self.config.getoption("qc_doctor")
        if handed is not None:
            diagnosis = Diagnosis.from_dict(handed)
        elif given:
            try:
                diagnosis = Diagnosis.from_dict(json.loads(Path(given).read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                _stop(self.config, StopReason.USAGE,
                      f"--qaconform-doctor {given}: cannot be read ({exc}); leave the option "
                      "out and the doctor examines the target itself", exitcodes.PYTEST_BAD_PROFILE)
        else:
            diagnosis = examine(profile, recorder)
        recorder.take()
        problems = diagnosis.of(Severity.STOP, Severity.UNREACHABLE)
        if problems:
            text = "; ".join(f"{f.message}" + (f" (fix: {f.fix})" if f.fix else "") for f in problems)
            if diagnosis.exit_code == 3:
                _stop(self.config, StopReason.UNREACHABLE, text, exitcodes.PYTEST_UNREACHABLE)
            _stop(self.config, StopReason.PROFILE, f"profile {profile.path}: {text}", exitcodes.PYTEST_BAD_PROFILE)
        return diagnosis

    def close(self) -> None:
        if self.target:
            for c in self.target.clients.values():
                c.close()
        self._stack.close()


WRITE_REFUSED = "not allowed by safety: --read-only (the test sends"


def _refuse_write(method: str, url: str) -> None:
    skip(SkipKind.WRITE_REFUSED, f"{WRITE_REFUSED} {method} {urlsplit(url).path})")


def budget_of(config: pytest.Config, profile: Profile) -> int | None:
    """The run's write budget: none under --thorough, else --write-budget, else the profile's (None: unlimited)."""
    if config.getoption("qc_thorough", False):
        return None
    given = config.getoption("qc_write_budget", None)
    if given is None or str(given).strip() == "":
        return profile.safety.write_budget_value
    try:
        return parse_budget(str(given), "--write-budget (or QACONFORM_WRITE_BUDGET)")
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def _write_budget(config: pytest.Config, profile: Profile) -> WriteBudget:
    """The run's write budget, counted in a file every xdist worker of the run shares (in memory on one process)."""
    return WriteBudget(budget_of(config, profile), _run_file(config, "writes"))


def _run_file(config: pytest.Config, what: str) -> Path | None:
    """A file every xdist worker of this run shares (their temp folders' parent), or None on one process."""
    worker = getattr(config, "workerinput", None)
    factory = getattr(config, "_tmp_path_factory", None)
    if worker is not None and factory is not None:
        return Path(factory.getbasetemp().parent) / f"qc-{what}-{worker['testrunuid']}.json"
    return None


def _budget_spent(pool: str, method: str, url: str) -> None:
    """A write whose pool of the write budget is spent: the running test is not checked (never the target's fault)."""
    budget = ApiClient.write_budget
    limit = budget.limit(pool) if budget is not None else None
    total = budget.budget if budget is not None else None
    share = "the hand-written suites' share" if pool == SUITES else f"the {pool} share"
    skip(SkipKind.WRITE_BUDGET, f"write budget spent: {share} ({limit} of the run's {total} accepted writes) is used "
         f"up, so {method} {urlsplit(url).path} was not sent (a larger --write-budget, or --thorough, checks this "
         "test)")


def _held_back(method: str, url: str, why: str) -> None:
    """A request the target held back longer than the kit waits: the running test is not checked, never failed.
    Outside a test (the preflight, the doctor at session start) there is nothing to skip: the client returns the
    held-back answer, as it does for the doctor of ``qaconform run``."""
    if not os.environ.get("PYTEST_CURRENT_TEST"):
        return
    skip(SkipKind.HELD_BACK, f"held back by the target: {method} {urlsplit(url).path} was not sent again: {why}")


def pool_of(item: pytest.Item) -> str:
    """The share of the write budget a test spends (qaconform.target.writes.pool_for): a generated test's own, the
    observations' for a test of observed-level rules only, else the suites'."""
    from qaconform.contract import load_contract

    rules = load_contract().rules
    return pool_for(Path(str(item.fspath)), {rules[r].level for r in _rule_ids(item) if r in rules})


def _base_url_override(config: pytest.Config) -> str | None:
    """pytest-base-url's --base-url (or its base_url ini value), else $QACONFORM_BASE_URL."""
    value = config.getoption("base_url", default=None) or config.getini("base_url") if _has_base_url(config) else None
    return value or os.environ.get("QACONFORM_BASE_URL") or None


def _has_base_url(config: pytest.Config) -> bool:
    try:
        config.getini("base_url")
    except ValueError:
        return False
    return True
