"""What the doctor found, as plain data: the findings, the ids it discovered, the fixtures not in their state, the
one-shot node each pool gives this run, and :meth:`Diagnosis.resolve`, the profile the tests use.

Apart from :mod:`qaconform.target.doctor` (which examines a target and re-exports these names) because a resolved
target (qaconform.target.resolved, ``target.json``) carries them to processes that must not load an HTTP client:
the Locust processes of a load run import neither ``requests`` nor the doctor (ARCHITECTURE.md, loadtests/).

Written and read in one place (:class:`DoctorRecord`, strict: a key of another version or a value of another type is
refused, never guessed), the same in ``qaconform doctor --json``, ``target.json`` and results.json's ``doctor``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from qaconform.target.profile import Profile

if TYPE_CHECKING:
    from qaconform.target.fixture_state import FixtureState

STOP_EXIT, UNREACHABLE_EXIT = 2, 3
DOCTOR_FORMAT = "qaconform-doctor/1"
STRICT = ConfigDict(extra="forbid", strict=True)
"""How the findings are read back: no key the record does not know, no value of another type (JSON's own)."""


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

    __pydantic_config__: ClassVar[ConfigDict] = STRICT
    severity: Severity
    key: str
    message: str
    fix: str = ""


@dataclass(frozen=True)
class OneShot:
    """A one-shot fixture (or pool) as the doctor found it: the node this run uses, the ones already consumed."""

    __pydantic_config__: ClassVar[ConfigDict] = STRICT
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
        """Plain JSON data (:class:`DoctorRecord`): what ``qaconform doctor --json`` prints and results.json holds."""
        return DoctorRecord.of(self).model_dump(mode="json")

    @classmethod
    def from_json(cls, text: str | bytes) -> Diagnosis:
        """The findings of a :meth:`as_dict` record (strict, :class:`DoctorRecord`); ValueError says what is wrong."""
        try:
            return DoctorRecord.model_validate_json(text).diagnosis()
        except ValidationError as exc:
            raise ValueError(_first_problem(exc)) from None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Diagnosis:
        """:meth:`from_json` of data already parsed."""
        return cls.from_json(json.dumps(data))

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


class DoctorRecord(BaseModel):
    """The findings as JSON: the one form they are written in and read from (``target.json``'s ``doctor``,
    ``qaconform doctor --json``, ``--qaconform-doctor``, results.json's ``doctor``)."""

    model_config = STRICT
    format: Literal["qaconform-doctor/1"]
    exit_code: int
    """Derived from the findings (:attr:`Diagnosis.exit_code`): written for a reader, never read back."""
    findings: list[Finding]
    user_ids: dict[str, int]
    unusable: dict[str, str]
    one_shots: dict[str, OneShot]
    record: str
    base_url: str

    @classmethod
    def of(cls, d: Diagnosis) -> DoctorRecord:
        return cls(format=DOCTOR_FORMAT, exit_code=d.exit_code, findings=list(d.findings), user_ids=dict(d.user_ids),
                   unusable=dict(d.unusable), one_shots=dict(d.one_shots), record=d.record, base_url=d.base_url)

    def diagnosis(self) -> Diagnosis:
        return Diagnosis(findings=list(self.findings), user_ids=dict(self.user_ids), unusable=dict(self.unusable),
                         one_shots=dict(self.one_shots), record=self.record, base_url=self.base_url)


def _first_problem(exc: ValidationError) -> str:
    """A validation error in one line: where and what (pydantic's own text spans several)."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "the record"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"
