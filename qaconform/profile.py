"""Load and validate a target profile (TOML).

The profile is the only thing the suites and load tests know about a target (architecture rule 3). Errors are
raised as :class:`ProfileError` with a message that names the file, the key path and what to do, so that the
CLI can print it and exit 2 before any request is sent.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROLES: tuple[str, ...] = ("admin", "moderator", "member", "novice")
"""The four accounts a profile must describe, by role (see target-profile.md)."""

_FIXTURE_KEYS_INT = (
    "question_id",
    "space_id",
    "member_wiki_node_id",
    "wiki_node_id",
    "favorite_node_id",
    "hidden_space_id",
    "gdpr_csv_file_id",
)
_REQUIRED_FIXTURES = ("question_id", "space_id")
_TOP_KEYS = {
    "base_url",
    "timeout_s",
    "service_version",
    "verify_tls",
    "accounts",
    "fixtures",
    "visibility",
    "safety",
    "default_page_size",
    "max_response_bytes",
    "name",
}
_VERSION_RE = re.compile(r"^\d+(\.\d+){0,3}$")


class ProfileError(Exception):
    """A profile that cannot be used. The message says which file and key, and what to do."""


@dataclass(frozen=True)
class Account:
    """One account of the target. The password never appears in repr() or in a report."""

    role: str
    username: str
    password: str = field(repr=False)
    id: int | None = None


@dataclass(frozen=True)
class Fixtures:
    """Things the interface cannot create; the kit writes only under these."""

    question_id: int
    space_id: int
    member_wiki_node_id: int | None = None
    wiki_node_id: int | None = None
    favorite_node_id: int | None = None
    hidden_space_id: int | None = None
    gdpr_csv_file_id: int | None = None
    issue_tracker: str | None = None


@dataclass(frozen=True)
class Visibility:
    """Wire values of the comment visibility options."""

    full: str | None = None
    recipients: str = "recipients"
    to_original_poster: str = "op"
    to_moderators: str = "mod"
    to_own_groups: str = "group"


@dataclass(frozen=True)
class Safety:
    destructive: bool = False
    gdpr_user: str | None = None


@dataclass(frozen=True)
class Profile:
    path: str
    base_url: str
    accounts: dict[str, Account]
    fixtures: Fixtures
    visibility: Visibility = Visibility()
    safety: Safety = Safety()
    timeout_s: float = 10.0
    service_version: str | None = None
    verify_tls: bool = True
    default_page_size: int | None = None
    max_response_bytes: int = 20 * 1024 * 1024
    name: str | None = None

    @property
    def api_root(self) -> str:
        """Everything before the operation path: ``{base_url}/services/v2``."""
        return self.base_url.rstrip("/") + "/services/v2"

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).netloc

    def passwords(self) -> list[str]:
        return [a.password for a in self.accounts.values() if a.password]

    def redacted(self) -> dict[str, Any]:
        """The profile as data for a report: no password, no password_env value."""
        return {
            "name": self.name,
            "base_url": self.base_url,
            "timeout_s": self.timeout_s,
            "service_version": self.service_version,
            "verify_tls": self.verify_tls,
            "accounts": {r: {"username": a.username, "id": a.id} for r, a in self.accounts.items()},
            "fixtures": {k: v for k, v in vars(self.fixtures).items()},
            "visibility": dict(vars(self.visibility)),
            "safety": dict(vars(self.safety)),
        }

    def supports(self, since: str | None) -> bool:
        """Whether a feature added in version ``since`` is available on this target's service_version."""
        if not since or not self.service_version:
            return True
        return _version_tuple(self.service_version) >= _version_tuple(since)


def _version_tuple(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in v.split("."))


class _Reader:
    """Type-checked access to a TOML table that produces errors naming the file and key path."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, key: str, what: str) -> ProfileError:
        return ProfileError(f"profile {self.path}: {key} {what}")

    def table(self, data: dict[str, Any], key: str, required: bool) -> dict[str, Any]:
        if key not in data:
            if required:
                raise self.fail(f"[{key}]", "is missing; see target.example.toml for the keys it needs")
            return {}
        value = data[key]
        if not isinstance(value, dict):
            raise self.fail(f"'{key}'", f"must be a table ([{key}]), not {type(value).__name__}")
        return value

    def get(self, data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, required: bool) -> Any:
        if key not in data:
            if required:
                raise self.fail(where, f"is missing '{key}'")
            return None
        value = data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        # bool is an int in Python; never accept true/false where a number is expected.
        if isinstance(value, bool) and bool not in kinds:
            ok = False
        else:
            ok = isinstance(value, kinds)
        if not ok:
            names = " or ".join(k.__name__ for k in kinds)
            raise self.fail(f"{where} '{key}'", f"must be {names}, not {type(value).__name__} ({value!r})")
        return value


def load_profile(path: str | os.PathLike[str], env: dict[str, str] | None = None) -> Profile:
    """Read and validate a profile file. Raises ProfileError with a message for the user."""
    p = Path(path)
    env = dict(os.environ) if env is None else env
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ProfileError(f"profile {p}: file not found; pass an existing file with --profile") from None
    except IsADirectoryError:
        raise ProfileError(f"profile {p}: is a directory; pass a TOML file with --profile") from None
    except OSError as exc:
        raise ProfileError(f"profile {p}: cannot be read ({exc.strerror}); check its permissions") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProfileError(f"profile {p}: is not UTF-8 text; save it as UTF-8 TOML") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"profile {p}: is not valid TOML ({exc}); fix the syntax at that line") from None
    return profile_from_dict(data, str(p), env)


def profile_from_dict(data: dict[str, Any], path: str = "<profile>", env: dict[str, str] | None = None) -> Profile:
    env = dict(os.environ) if env is None else env
    r = _Reader(path)
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise r.fail(f"'{unknown[0]}'", f"is not a profile key (known: {', '.join(sorted(_TOP_KEYS))})")

    base_url = r.get(data, "base_url", str, "top level", True)
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise r.fail("'base_url'", f"must be an http(s) URL like http://host:8080, not {base_url!r}")
    if parts.username or parts.password:
        raise r.fail("'base_url'", "must not carry credentials; put them under [accounts.<role>]")
    timeout = r.get(data, "timeout_s", (int, float), "top level", False)
    if timeout is not None and timeout <= 0:
        raise r.fail("'timeout_s'", f"must be a positive number of seconds, not {timeout}")
    version = r.get(data, "service_version", str, "top level", False)
    if version is not None and not _VERSION_RE.match(version):
        raise r.fail("'service_version'", f"must look like 2.16.0, not {version!r}")
    verify = r.get(data, "verify_tls", bool, "top level", False)
    page_size = r.get(data, "default_page_size", int, "top level", False)
    max_bytes = r.get(data, "max_response_bytes", int, "top level", False)
    name = r.get(data, "name", str, "top level", False)

    accounts_t = r.table(data, "accounts", True)
    unknown_roles = sorted(set(accounts_t) - set(ROLES))
    if unknown_roles:
        raise r.fail(f"[accounts.{unknown_roles[0]}]", f"is not a known role; the roles are {', '.join(ROLES)}")
    accounts: dict[str, Account] = {}
    for role in ROLES:
        if role not in accounts_t:
            raise r.fail(f"[accounts.{role}]", "is missing; every profile describes admin, moderator, member, novice")
        t = accounts_t[role]
        where = f"[accounts.{role}]"
        if not isinstance(t, dict):
            raise r.fail(where, "must be a table with username and password (or password_env)")
        extra = sorted(set(t) - {"username", "password", "password_env", "id"})
        if extra:
            raise r.fail(f"{where} '{extra[0]}'", "is not an account key (username, password, password_env, id)")
        username = r.get(t, "username", str, where, True)
        if not username:
            raise r.fail(f"{where} 'username'", "is empty")
        password = r.get(t, "password", str, where, False)
        password_env = r.get(t, "password_env", str, where, False)
        if password is not None and password_env is not None:
            raise r.fail(where, "has both 'password' and 'password_env'; keep one")
        if password is None and password_env is None:
            raise r.fail(where, "is missing 'password' (or 'password_env')")
        if password_env is not None:
            if password_env not in env:
                raise r.fail(
                    f"{where} 'password_env'",
                    f"names the variable {password_env}, which is not set; export {password_env}=... and retry",
                )
            password = env[password_env]
        acc_id = r.get(t, "id", int, where, False)
        accounts[role] = Account(role=role, username=username, password=password or "", id=acc_id)

    fx = r.table(data, "fixtures", True)
    known_fx = set(_FIXTURE_KEYS_INT) | {"issue_tracker"}
    extra_fx = sorted(set(fx) - known_fx)
    if extra_fx:
        raise r.fail(f"[fixtures] '{extra_fx[0]}'", f"is not a fixture key (known: {', '.join(sorted(known_fx))})")
    fx_values: dict[str, Any] = {}
    for key in _FIXTURE_KEYS_INT:
        v = r.get(fx, key, int, "[fixtures]", key in _REQUIRED_FIXTURES)
        if v is not None and v <= 0:
            raise r.fail(f"[fixtures] '{key}'", f"must be a positive id, not {v}")
        fx_values[key] = v
    tracker = r.get(fx, "issue_tracker", str, "[fixtures]", False)
    if tracker is not None and not re.fullmatch(r"[A-Za-z0-9_-]+", tracker):
        raise r.fail("[fixtures] 'issue_tracker'", f"must be one path segment (letters, digits, -, _), not {tracker!r}")
    fixtures = Fixtures(issue_tracker=tracker, **fx_values)

    vis_t = r.table(data, "visibility", False)
    vis_keys = ("full", "recipients", "to_original_poster", "to_moderators", "to_own_groups")
    extra_vis = sorted(set(vis_t) - set(vis_keys))
    if extra_vis:
        raise r.fail(f"[visibility] '{extra_vis[0]}'", f"is not a visibility key (known: {', '.join(vis_keys)})")
    vis_values = {k: r.get(vis_t, k, str, "[visibility]", False) for k in vis_keys}
    visibility = Visibility(**{k: v for k, v in vis_values.items() if v is not None})

    safety_t = r.table(data, "safety", False)
    extra_s = sorted(set(safety_t) - {"destructive", "gdpr_user"})
    if extra_s:
        raise r.fail(f"[safety] '{extra_s[0]}'", "is not a safety key (destructive, gdpr_user)")
    destructive = r.get(safety_t, "destructive", bool, "[safety]", False)
    gdpr_user = r.get(safety_t, "gdpr_user", str, "[safety]", False)
    safety = Safety(destructive=bool(destructive), gdpr_user=gdpr_user)

    return Profile(
        path=path,
        base_url=base_url.rstrip("/"),
        accounts=accounts,
        fixtures=fixtures,
        visibility=visibility,
        safety=safety,
        timeout_s=float(timeout) if timeout is not None else 10.0,
        service_version=version,
        verify_tls=True if verify is None else verify,
        default_page_size=page_size,
        max_response_bytes=max_bytes if max_bytes is not None else 20 * 1024 * 1024,
        name=name,
    )
