"""The run's one resolved target (issues 30 and 47; hard rule 6): :func:`resolve_target` turns the profile, the base
URL override and the doctor's findings into one :class:`ResolvedTarget`, written into the run folder as
``target.json`` and read back by every other process of the run.

Every entry point calls :func:`resolve_target` and nothing else to know its target:

- ``qaconform run`` resolves it from its profile (its doctor examining the URL the run will test) and writes it into
  the run folder; the suites' pytest and each xdist worker are given that file (``--qaconform-target``);
- plain pytest resolves it from ``--target-profile`` (its own doctor, or the findings of ``--qaconform-doctor``); a
  parallel session's controller writes it into a folder of its own and hands its workers the path;
- ``qaconform load`` and ``qaconform capacity`` resolve it from their profile (no doctor: their preflight checks that
  the URL answers) or take the one ``--target-file`` names, and write it into their output folder;
- each Locust process reads the file ``QACONFORM_TARGET`` names (a locustfile debugged by hand: its profile).

So the findings go as one typed value (:class:`~qaconform.target.diagnosis.Diagnosis`) from the doctor to the last
worker, by one road (this file), and "one run tests one target" is decided here alone (:class:`OneTargetError`). The
record holds no secret: it names the profile file, whose passwords stay there or in the environment variables it
names (which every process of the run inherits). Imports no HTTP client: the Locust processes read it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError

from qaconform.errors import ProfileError, Unreachable, UsageError
from qaconform.target.diagnosis import STRICT, UNREACHABLE_EXIT, Diagnosis, DoctorRecord, Severity
from qaconform.target.profile import Profile, load_profile

TARGET_NAME = "target.json"
"""The resolved target in the run folder."""
FORMAT = "qaconform-target/1"
TARGET_ENV = "QACONFORM_TARGET"
"""The path of target.json for the Locust processes of `qaconform load` (Locust forwards only its own options)."""
BASE_URL_ENV = "QACONFORM_BASE_URL"
"""pytest-base-url's variable, which overrides a profile's base_url (a pytest user may well have it set)."""
FROM_PROFILE = "profile"
"""``base_url_from`` of a target whose base URL is the profile's own."""


class ResolvedTargetError(UsageError):
    """A target.json that cannot be read (the run folder was changed or is of another version): exit 2, before any
    request."""


class OneTargetError(ResolvedTargetError):
    """An override that disagrees with the target this run resolved or its doctor examined: one run tests one
    target, so nothing is sent (exit 2)."""


@dataclass(frozen=True)
class Override:
    """A base URL asked for instead of the profile's, and who asked (what the user should unset)."""

    url: str
    named: str
    """``QACONFORM_BASE_URL``, or the option that gave it (``--base-url``)."""


Examine = Callable[[Profile, str], Diagnosis]
"""The doctor of an entry point: the profile (override applied) and where its base URL came from -> the findings."""


@dataclass(frozen=True)
class ResolvedTarget:
    """What every process of one run tests: the profile file, the base URL it tests and where that came from, and
    the doctor's findings for exactly that URL (None: no doctor examined it, as in a load run)."""

    profile_path: str
    base_url: str
    base_url_from: str
    """``profile`` (its base_url), or the override that replaced it (``QACONFORM_BASE_URL``, ``--base-url``)."""
    diagnosis: Diagnosis | None = None
    loaded: Profile | None = field(default=None, compare=False, repr=False)
    """The profile file as the resolver loaded it, with the resolved base URL, before the doctor's findings apply
    (never written; None in a record read from a file): :meth:`profile` does not read the file again."""

    def profile(self, option: str = "--profile") -> Profile:
        """The profile the tests use: the file loaded, the base URL resolved, the doctor's findings applied."""
        loaded = self.loaded
        if loaded is None:
            loaded = replace(load_profile(self.profile_path, option=option), base_url=self.base_url)
        return self.diagnosis.resolve(loaded) if self.diagnosis is not None else loaded

    @property
    def findings(self) -> Diagnosis:
        """The doctor's findings; none when no doctor examined the target."""
        return self.diagnosis if self.diagnosis is not None else Diagnosis()

    def write(self, folder: Path) -> Path:
        """``folder/target.json``: strict JSON (no NaN), no secret."""
        path = Path(folder) / TARGET_NAME
        path.write_text(_TargetRecord.of(self).model_dump_json(indent=1), encoding="utf-8")
        return path

    @classmethod
    def read(cls, path: str | Path) -> ResolvedTarget:
        """The record of ``path``, strictly (ResolvedTargetError: what is wrong and what to do)."""
        try:
            return _TargetRecord.model_validate_json(Path(path).read_bytes()).resolved()
        except OSError as exc:
            why = exc.strerror or str(exc)
        except ValidationError as exc:
            first = exc.errors()[0]
            why = f"{'.'.join(str(p) for p in first['loc']) or 'the record'}: {first['msg']}"
        raise ResolvedTargetError(f"{path}: cannot be read as the run's resolved target ({why}); resolve it again "
                                  f"with the command that wrote it (a {FORMAT} record)")


def env_override(environ: Mapping[str, str] | None = None) -> Override | None:
    """The base URL the environment asks for instead of the profile's (``QACONFORM_BASE_URL``), or None."""
    value = (environ if environ is not None else os.environ).get(BASE_URL_ENV, "").strip().rstrip("/")
    return Override(value, BASE_URL_ENV) if value else None


def resolve_target(*, profile: str | Path | None = None, target_file: str | Path | None = None,
                   option: str = "--profile", override: Override | None = None,
                   doctor: Examine | Diagnosis | None = None,
                   say: Callable[[str], None] | None = None) -> ResolvedTarget:
    """The run's one resolved target, from a profile or from a ``target.json`` resolved already.

    ``profile``: the file loaded (ProfileError names ``option``), ``override`` applied (``say`` is told), the
    ``doctor`` run on the URL it gives (or its findings given; None: not examined). Findings made for another URL are
    refused (:class:`OneTargetError`); a profile the doctor cannot use raises ProfileError (exit 2), a target that
    does not answer Unreachable (exit 3), every problem in one message, the profile's passwords redacted.

    ``target_file``: taken as it is, never examined again; an ``override`` that disagrees is refused. The profile's
    path is made absolute: the record is read by processes started in other folders (Locust's).
    """
    if (profile is None) == (target_file is None):
        raise UsageError("give a profile or a resolved target (target.json), not both and not neither")
    if target_file is not None:
        given = ResolvedTarget.read(target_file)
        if override is not None and override.url != given.base_url:
            raise _one_target(f"{option} {target_file} tests {given.base_url}", override)
        loaded = load_profile(given.profile_path, option=f"{option} {target_file}: its profile_path")
        return replace(given, loaded=replace(loaded, base_url=given.base_url))
    assert profile is not None
    loaded = load_profile(profile, option=option)
    base_url, source = loaded.base_url.rstrip("/"), FROM_PROFILE
    if override is not None and override.url != base_url:
        base_url, source = override.url, override.named
        loaded = replace(loaded, base_url=base_url)
        if say is not None:
            say(f"{source} overrides base_url: testing {base_url}")
    diagnosis = doctor(loaded, source) if callable(doctor) else doctor
    if diagnosis is not None:
        examined = diagnosis.base_url.rstrip("/")
        if examined and examined != base_url:
            raise _one_target(f"the doctor examined {examined}", override if source != FROM_PROFILE else None,
                              f"the profile {loaded.path} gives {base_url}")
        _refuse_unusable(diagnosis, loaded)
    return ResolvedTarget(str(Path(loaded.path).resolve()), base_url, source, diagnosis, loaded)


def _one_target(said: str, override: Override | None, instead: str = "") -> OneTargetError:
    """The one message of a run asked to test two targets: what was resolved or examined, and what asks for
    another URL (an override, else the profile itself)."""
    if override is None:
        return OneTargetError(f"{said}, but {instead}: one run tests one target. Let the doctor examine the profile's "
                              "URL (give no findings of another run)")
    return OneTargetError(f"{said}, but {override.named} asks for {override.url}: one run tests one target. Unset "
                          f"{override.named}, or give it to the command that resolves the target (`qaconform run`, "
                          "`qaconform load`), whose doctor then examines that URL")


def _refuse_unusable(diagnosis: Diagnosis, profile: Profile) -> None:
    """A profile the doctor found unusable: every problem in one message, no password in it."""
    problems = diagnosis.of(Severity.STOP, Severity.UNREACHABLE)
    if not problems:
        return
    from qaconform.target.recording import Recorder  # its redaction, the same as every exchange's

    redact = Recorder(secrets=set(profile.passwords())).redact
    text = redact("; ".join(f.message + (f" (fix: {f.fix})" if f.fix else "") for f in problems))
    if diagnosis.exit_code == UNREACHABLE_EXIT:
        raise Unreachable(text)
    raise ProfileError(f"profile {profile.path}: {text}")


class _NotExamined(BaseModel):
    """``"doctor": {}``: no doctor examined the target."""

    model_config = STRICT


class _TargetRecord(BaseModel):
    """target.json: the one form it is written in and read from."""

    model_config = STRICT
    format: Literal["qaconform-target/1"]
    profile_path: str
    base_url: str
    base_url_from: str
    doctor: DoctorRecord | _NotExamined

    @classmethod
    def of(cls, target: ResolvedTarget) -> _TargetRecord:
        doctor = DoctorRecord.of(target.diagnosis) if target.diagnosis is not None else _NotExamined()
        return cls(format=FORMAT, profile_path=target.profile_path, base_url=target.base_url,
                   base_url_from=target.base_url_from, doctor=doctor)

    def resolved(self) -> ResolvedTarget:
        diagnosis = self.doctor.diagnosis() if isinstance(self.doctor, DoctorRecord) else None
        return ResolvedTarget(self.profile_path, self.base_url, self.base_url_from, diagnosis)
