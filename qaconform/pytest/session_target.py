"""The target of a pytest session: the profile (or the embedded reference server), the base URL override, the
doctor's findings, and the run's write budget and read-only guard that every ApiClient goes through."""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from qaconform import exitcodes
from qaconform.errors import KitError, Unreachable, UsageError
from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.run_state import _rule_ids, _stop
from qaconform.target.client import ApiClient, Recorder
from qaconform.target.created_log import CHANGED_LOG, CREATED_LOG
from qaconform.target.curl_line import password_envs
from qaconform.target.politeness import PACE
from qaconform.target.profile import Profile, ProfileError
from qaconform.target.resolved import (
    OneTargetError,
    Override,
    ResolvedTarget,
    ResolvedTargetError,
    env_override,
    resolve_target,
)
from qaconform.target.writes import (
    REFUSALS,
    SUITES,
    WriteBudget,
    parse_budget,
    pool_for,
    share_text,
)
from qaconform.vocabulary import StopReason

if TYPE_CHECKING:
    from qaconform.target.diagnosis import Diagnosis

@dataclass
class Target:
    """The profile in use and, when the kit started it, the reference server behind it."""

    profile: Profile
    recorder: Recorder
    resolved: ResolvedTarget
    """The run's one resolved target (qaconform.target.resolved): what every worker of the session reads."""
    started_reference: bool = False
    clients: dict[str, ApiClient] = field(default_factory=dict)

    @functools.cached_property
    def curl_accounts(self) -> dict[str, dict[str, str | None]]:
        """Role -> its username and the ``password_env`` the profile names (no password): what
        qaconform.target.curl_line.personal_curl needs to make a failure's curl one a person can paste."""
        envs = password_envs(self.profile.path)
        return {role: {"username": acc.username, "password_env": envs.get(role)}
                for role, acc in self.profile.accounts.items()}

    @property
    def diagnosis(self) -> Diagnosis:
        """What the doctor found before any test (the profile above is already resolved by it)."""
        return self.resolved.findings


class _TargetHolder:
    """Resolves the session's target once, lazily (qaconform.target.resolved.resolve_target): the target.json it is
    given (``qaconform run``'s, or a parallel session's controller's), else the profile (or the embedded reference
    server it starts, and stops at the end) examined by the doctor."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.target: Target | None = None
        self._stack = contextlib.ExitStack()
        self.error: tuple[StopReason, str, int] | None = None

    def get(self) -> Target:
        if self.target is not None:
            return self.target
        if self.error:
            _stop(self.config, *self.error)
        try:
            resolved, started = self._resolve()
        except KitError as exc:
            self.error = _stop_of(exc)
            _stop(self.config, *self.error)
        profile = resolved.profile()
        self.target = Target(profile=profile, recorder=Recorder(secrets=set(profile.passwords())), resolved=resolved,
                             started_reference=started)
        results = self.config.getoption("qc_results", None)
        if results:  # what a test creates is logged at once beside the results: a Ctrl-C mid-test cannot lose it
            self.target.recorder.created_log = Path(results).parent / CREATED_LOG
            self.target.recorder.changed_log = Path(results).parent / CHANGED_LOG  # clean26: state changes too
        ApiClient.write_budget = _write_budget(self.config, self.target.profile)
        ApiClient.charset_roles = _charset_roles(self.config)  # paths17: the seed's half of the accounts
        PACE.share_through(_run_file(self.config, "pace"))  # a target's hold-backs, heard by every worker
        return self.target

    def _resolve(self) -> tuple[ResolvedTarget, bool]:
        """The target file when given (never resolved again, in this process nor in a worker), else the profile and
        the doctor: the findings ``--qaconform-doctor`` names, or an examination now, with reads only."""
        given = self.config.getoption("qc_target_file", None)
        override = _base_url_override(self.config)
        if given:
            return resolve_target(target_file=str(given), option="--qaconform-target", override=override), False
        path = self.config.getoption("qc_profile")
        started = not path
        if not path:
            from qaconform.reference import ReferenceServer  # imported lazily: a real target never needs it

            size_opt = self.config.getoption("qc_ref_size")
            size: str | int = int(size_opt) if str(size_opt).isdecimal() else size_opt
            path = str(self._stack.enter_context(ReferenceServer(size=size)).profile_path)
        return resolve_target(profile=path, option="--target-profile (or QACONFORM_PROFILE)", override=override,
                              doctor=self._given_findings() or _examine), started

    def _given_findings(self) -> Diagnosis | None:
        """The findings ``--qaconform-doctor`` names (written by ``qaconform doctor --json``), if given."""
        given = self.config.getoption("qc_doctor")
        if not given:
            return None
        from qaconform.target.diagnosis import Diagnosis

        try:
            return Diagnosis.from_json(Path(given).read_bytes())
        except (OSError, ValueError) as exc:
            raise UsageError(f"--qaconform-doctor {given}: cannot be read ({exc}); leave the option out and the "
                             "doctor examines the target itself") from None

    def handed_to_workers(self) -> Path:
        """The resolved target as a file for the workers of a parallel session (``--qaconform-target``): the one
        ``qaconform run`` gave, else written once into a folder this session removes at its end."""
        given = self.config.getoption("qc_target_file", None)
        if given:
            return Path(given)
        folder = Path(self._stack.enter_context(tempfile.TemporaryDirectory(prefix="qaconform-target-")))
        return self.get().resolved.write(folder)

    def close(self) -> None:
        if self.target:
            for c in self.target.clients.values():
                c.close()
        self._stack.close()


def _examine(profile: Profile, base_url_from: str) -> Diagnosis:
    """The doctor of a plain pytest session, before any test (the held-back answers it met are its own)."""
    from qaconform.target.doctor import examine

    recorder = Recorder(secrets=set(profile.passwords()))
    diagnosis = examine(profile, recorder)
    recorder.take()
    return diagnosis


def _stop_of(exc: KitError) -> tuple[StopReason, str, int]:
    """How a session that cannot resolve its target stops: why (a field of the results), and pytest's code."""
    if isinstance(exc, Unreachable):
        return StopReason.UNREACHABLE, str(exc), exitcodes.PYTEST_UNREACHABLE
    if isinstance(exc, OneTargetError) or not isinstance(exc, ProfileError | ResolvedTargetError):
        return StopReason.USAGE, str(exc), exitcodes.PYTEST_BAD_PROFILE
    return StopReason.PROFILE, str(exc), exitcodes.PYTEST_BAD_PROFILE


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


def _charset_roles(config: pytest.Config) -> frozenset[str]:
    """The client roles that send their bodies' Content-Type with a charset parameter in this run: the
    ``seed_draws.CHARSET_SENDERS`` half the run's seed draws (none when no seed is set: a bare pytest run)."""
    from qaconform.pytest.properties.plugin import STATE
    from qaconform.pytest.seed_draws import CHARSET_ROLES, charset_senders_for_seed

    if STATE not in config.stash:
        return frozenset()
    return CHARSET_ROLES[charset_senders_for_seed(config.stash[STATE].seed)]


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
    full = ""
    if budget is not None and budget.refusals and pool == SUITES:  # budget19: a refusal not sent, and why
        room = budget.limit(REFUSALS)
        full = f", and the refusals' share ({share_text(room, total)}) its refusals are sent into " + (
            "holds no write" if not room else "is full of writes the target accepted although the description says "
            "it refuses them (the tests that sent them failed)")
    skip(SkipKind.WRITE_BUDGET, f"write budget spent: {share} ({share_text(limit, total)}) is used "
         f"up{full}, so {method} {urlsplit(url).path} was not sent (a larger --write-budget, or --thorough, checks "
         "this test)")


def _held_back(method: str, url: str, why: str) -> None:
    """A request the target held back longer than the kit waits: the running test is not checked, never failed.
    Outside a test (the preflight, the doctor at session start) there is nothing to skip: the client returns the
    held-back answer, as it does for the doctor of ``qaconform run``."""
    if not os.environ.get("PYTEST_CURRENT_TEST"):
        return
    skip(SkipKind.HELD_BACK, f"held back by the target: {method} {urlsplit(url).path} was not sent again: {why}")


_POOL = pytest.StashKey[str]()
"""A test's pool, found once: its hooks ask for it two or three times a test (about 27 us each: the rule
markers, the contract's levels and the file's path), ~4,600 tests a run (issue 44, speed6)."""


def pool_of(item: pytest.Item) -> str:
    """The share of the write budget a test spends (qaconform.target.writes.pool_for): a generated test's own, the
    observations' for a test of observed-level rules only, else the suites'."""
    pool = item.stash.get(_POOL, None)
    if pool is None:
        from qaconform.contract import load_contract

        rules = load_contract().rules
        pool = pool_for(item.path, {rules[r].level for r in _rule_ids(item) if r in rules})
        item.stash[_POOL] = pool
    return pool


def _base_url_override(config: pytest.Config) -> Override | None:
    """pytest-base-url's --base-url (or its base_url ini value), else $QACONFORM_BASE_URL."""
    value = config.getoption("base_url", default=None) or config.getini("base_url") if _has_base_url(config) else None
    if value:
        return Override(str(value).strip().rstrip("/"), "--base-url")
    return env_override()


def _has_base_url(config: pytest.Config) -> bool:
    try:
        config.getini("base_url")
    except ValueError:
        return False
    return True
