"""What the doctor found, as plain data: the findings, the ids it discovered, the fixtures not in their state, the
one-shot node each pool gives this run, and :meth:`Diagnosis.resolve`, the profile the tests use.

Apart from :mod:`qaconform.target.doctor` (which examines a target and re-exports these names) because a resolved
target (qaconform.target.resolved, ``target.json``) carries them to processes that must not load an HTTP client:
the Locust processes of a load run import neither ``requests`` nor the doctor (ARCHITECTURE.md, loadtests/).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from qaconform.target.profile import Profile

if TYPE_CHECKING:
    from qaconform.target.fixture_state import FixtureState

STOP_EXIT, UNREACHABLE_EXIT = 2, 3


class Severity(StrEnum):
    OK = "ok"
    NOTE = "note"
    FIXTURE = "fixture"
    """An optional fixture is not usable: the tests that need it skip."""
    STOP = "stop"
    """The profile cannot be used against this target: exit 2."""
    UNREACHABLE = "unreachable"
    """Nothing answers at base_url: exit 3."""


@dataclass(frozen=True)
class Finding:
    """One thing the doctor checked: which profile key, what it found, and what to do about it."""

    severity: Severity
    key: str
    message: str
    fix: str = ""


@dataclass(frozen=True)
class OneShot:
    """A one-shot fixture (or pool) as the doctor found it: the node this run uses, the ones already consumed."""

    name: str
    pool: tuple[int, ...]
    chosen: int | None
    consumed: tuple[int, ...]
    left_after: int
    """Nodes of the pool after ``chosen`` not known to be consumed: how many more runs can check its rules."""
    unknown: tuple[int, ...] = ()
    """Nodes whose state no read shows and no record tells (fixture_state.FixtureState.UNKNOWN)."""

    @property
    def state(self) -> FixtureState:
        """The chosen node's state as the doctor knew it: a one-shot call that then proves the node not in its
        state is a failure of the rule only when the doctor knew it in its state."""
        from qaconform.target.fixture_state import FixtureState  # it reads the target: not for a Locust process

        if self.chosen is None:
            return FixtureState.NOT_IN_STATE
        return FixtureState.UNKNOWN if self.chosen in self.unknown else FixtureState.IN_STATE


@dataclass
class Diagnosis:
    """Everything the doctor found, in the form the run, the plugin and the report read."""

    findings: list[Finding] = field(default_factory=list)
    user_ids: dict[str, int] = field(default_factory=dict)
    unusable: dict[str, str] = field(default_factory=dict)
    """Fixture name -> the skip reason of the tests that need it."""
    one_shots: dict[str, OneShot] = field(default_factory=dict)
    record: str = ""
    """Where the consumed one-shot fixtures are recorded (beside the profile)."""
    base_url: str = ""
    """The target examined: a session handed these findings checks that it tests the same one (one resolved target
    per run: an override the doctor never saw must not send the suites elsewhere with the doctor's findings)."""

    def add(self, severity: Severity, key: str, message: str, fix: str = "") -> None:
        self.findings.append(Finding(severity, key, message, fix))

    def of(self, *severities: Severity) -> list[Finding]:
        return [f for f in self.findings if f.severity in severities]

    @property
    def exit_code(self) -> int:
        """0 when the profile is usable (fixtures not in their state only skip tests), 2 or 3 when it is not."""
        if self.of(Severity.UNREACHABLE):
            return UNREACHABLE_EXIT
        return STOP_EXIT if self.of(Severity.STOP) else 0

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON data (xdist hands it to workers, which carry no custom class, not even an enum)."""
        data = {"format": "qaconform-doctor/1", "exit_code": self.exit_code,
                "findings": [asdict(f) for f in self.findings], "user_ids": self.user_ids,
                "unusable": self.unusable, "one_shots": {k: asdict(v) for k, v in self.one_shots.items()},
                "record": self.record, "base_url": self.base_url}
        loaded: dict[str, Any] = json.loads(json.dumps(data))
        return loaded

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Diagnosis:
        return cls(findings=[Finding(Severity(f["severity"]), f["key"], f["message"], f.get("fix", ""))
                             for f in data.get("findings", [])],
                   user_ids={str(k): int(v) for k, v in data.get("user_ids", {}).items()},
                   unusable={str(k): str(v) for k, v in data.get("unusable", {}).items()},
                   one_shots={k: OneShot(v["name"], tuple(v["pool"]), v["chosen"], tuple(v["consumed"]),
                                         int(v["left_after"]), tuple(v.get("unknown", ())))
                              for k, v in data.get("one_shots", {}).items()},
                   record=str(data.get("record", "")), base_url=str(data.get("base_url", "")))

    def resolve(self, profile: Profile) -> Profile:
        """The profile the tests use: discovered ids filled in, each one-shot fixture the node this run takes (None
        when none is left), and fixtures not in their state left out (their tests skip with ``unusable``'s reason).
        """
        accounts = {r: (replace(a, id=self.user_ids[r]) if a.id is None and r in self.user_ids else a)
                    for r, a in profile.accounts.items()}
        update: dict[str, Any] = {name: shot.chosen for name, shot in self.one_shots.items()}
        update.update({name: None for name in self.unusable if hasattr(profile.fixtures, name)})
        safety = profile.safety
        if "gdpr_user" in self.unusable:
            safety = safety.model_copy(update={"gdpr_user": None, "gdpr_user_id": None})
        pools = {**profile.pools, **{name: shot.pool for name, shot in self.one_shots.items()}}
        return replace(profile, accounts=accounts, fixtures=profile.fixtures.model_copy(update=update),
                       safety=safety, pools=pools)
