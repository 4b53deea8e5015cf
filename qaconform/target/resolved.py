"""The run's one resolved target (issue 30; hard rule 6): the profile, the overrides of the command line and the
environment, and the doctor's findings, turned into one record written into the run folder (``target.json``).

``qaconform run`` resolves it once, after its doctor examined the URL the run will test; the suites' pytest process
and every xdist worker read it (``--qaconform-target``) instead of applying ``QACONFORM_BASE_URL`` or examining the
target again, so no process of a run can test another URL than the one the doctor checked. ``qaconform load`` and
``qaconform capacity`` resolve it the same way (their preflight examines the overridden URL; no doctor, so no
findings) into their output folder, and every Locust process they start reads it (``QACONFORM_TARGET``) instead of
the profile. The record holds no secret: it names the profile file, whose passwords stay there or in the
environment variables it names (which every process of the run inherits).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from qaconform.errors import UsageError
from qaconform.target.diagnosis import Diagnosis
from qaconform.target.profile import Profile, load_profile

TARGET_NAME = "target.json"
"""The resolved target in the run folder."""
FORMAT = "qaconform-target/1"
TARGET_ENV = "QACONFORM_TARGET"
"""The path of target.json for the Locust processes of `qaconform load` (Locust forwards only its own options)."""
BASE_URL_ENV = "QACONFORM_BASE_URL"
"""pytest-base-url's variable, which overrides a profile's base_url (a pytest user may well have it set)."""


class ResolvedTargetError(UsageError):
    """A target.json that cannot be read (the run folder was changed or is of another version), or an override that
    disagrees with it: exit 2, before any request."""


@dataclass(frozen=True)
class ResolvedTarget:
    """What every process of one run tests: the profile file, the base URL it tests and where that came from, and
    the doctor's findings for exactly that URL."""

    profile_path: str
    base_url: str
    base_url_from: str
    """``profile`` (its base_url), or the override that replaced it (``QACONFORM_BASE_URL``)."""
    doctor: dict[str, Any] = field(default_factory=dict)
    """``Diagnosis.as_dict()`` of the examination of :attr:`base_url`; empty when no doctor examined it (a load run:
    its preflight only checks that the URL answers)."""

    def as_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, **asdict(self)}

    def write(self, folder: Path) -> Path:
        """``folder/target.json``, strict JSON (no NaN), no secret."""
        path = Path(folder) / TARGET_NAME
        path.write_text(json.dumps(self.as_dict(), indent=1, allow_nan=False), encoding="utf-8")
        return path

    @classmethod
    def read(cls, path: str | Path) -> ResolvedTarget:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            if not isinstance(data, Mapping) or data.get("format") != FORMAT:
                raise ValueError(f"not a {FORMAT} record")
            return cls(str(data["profile_path"]), str(data["base_url"]), str(data["base_url_from"]),
                       dict(data.get("doctor") or {}))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ResolvedTargetError(f"{path}: cannot be read as the run's resolved target ({exc})") from None

    @property
    def diagnosis(self) -> Diagnosis:
        return Diagnosis.from_dict(self.doctor)

    def profile(self, option: str = "--profile") -> Profile:
        """The profile the tests use: the file loaded, the base URL resolved, the doctor's findings applied."""
        loaded = replace(load_profile(self.profile_path, option=option), base_url=self.base_url)
        return self.diagnosis.resolve(loaded)


def base_url_override(environ: Mapping[str, str] | None = None) -> str | None:
    """The base URL the environment asks for instead of the profile's (``QACONFORM_BASE_URL``), or None."""
    value = (environ if environ is not None else os.environ).get(BASE_URL_ENV, "").strip().rstrip("/")
    return value or None


def with_overrides(profile: Profile, environ: Mapping[str, str] | None = None) -> tuple[Profile, str]:
    """The profile with the environment's overrides applied, and where its base URL came from."""
    override = base_url_override(environ)
    if override and override != profile.base_url.rstrip("/"):
        return replace(profile, base_url=override), BASE_URL_ENV
    return profile, "profile"


def resolve(profile: Profile, base_url_from: str, diagnosis: Diagnosis | None) -> ResolvedTarget:
    """The one resolved target of a run: ``profile`` (overrides applied, see :func:`with_overrides`) and the
    doctor's examination of its base URL (None: not examined). Refuses findings made for another URL (one run tests
    one target). The profile's path is made absolute: the record is read by processes started in other folders
    (the Locust processes run in the locustfiles' folder)."""
    base_url = profile.base_url.rstrip("/")
    if diagnosis is not None and diagnosis.base_url and diagnosis.base_url.rstrip("/") != base_url:
        raise ResolvedTargetError(f"the doctor examined {diagnosis.base_url}, not {base_url}: one run tests one "
                                  "target")
    return ResolvedTarget(str(Path(profile.path).resolve()), base_url, base_url_from,
                          diagnosis.as_dict() if diagnosis is not None else {})
