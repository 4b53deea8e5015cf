"""Load and validate a target profile (TOML).

The profile is the only thing the suites and load tests know about a target (architecture rule 3). The file's
shape is one pydantic model, :class:`ProfileFile`: it validates every profile and generates the JSON Schema that
editors use (``qaconform profile-schema``, committed as docs/target-profile.schema.json), so the two cannot drift.
Errors are raised as :class:`ProfileError` with a message that names the file, the key path and what to do, so
that the CLI can print it and exit 2 before any request is sent."""

from __future__ import annotations

import difflib
import os
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import PydanticCustomError

from qaconform.contract import API_PREFIX
from qaconform.errors import ProfileError  # defined with its exit code; its name here is the one callers import
from qaconform.target.password_names import current_name, say_deprecated
from qaconform.target.profile_fixtures import ONE_SHOTS, Fixtures, FixturesFile, PositiveId, _Table
from qaconform.target.writes import DEFAULT_WRITE_BUDGET, UNLIMITED

ROLES: tuple[str, ...] = ("admin", "moderator", "member", "novice")
"""The four accounts a profile must describe, by role (see target-profile.md)."""

SCHEMA_ID = "https://qaconform.invalid/target-profile.schema.json"
"""The ``$id`` of the generated JSON Schema (a name, not a place: the file travels with the kit)."""


class Secret(str):
    """A password: the ``str`` the client sends, shown as ``'<redacted>'`` by everything that prints objects.

    A failing test's traceback prints the arguments of every frame (pytest's long tracebacks, ``--showlocals``),
    hypothesis prints a falsifying example with the fields of every dataclass in it (``repr=False`` does not stop
    it), schemathesis and logging print with ``%r``: all go through ``repr()`` or ``_repr_pretty_``, never
    ``str()``. So the password is redacted where it is kept, not searched for in what was printed. ``str()``,
    f-strings and ``encode()`` keep the value: whoever sends it needs it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "'<redacted>'"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's and hypothesis's pretty printers."""
        printer.text(repr(self))


def _not_bool(value: Any) -> Any:
    """A TOML ``true`` would pass as 1.0 where a float is expected: refuse it with pydantic's own number error."""
    if isinstance(value, bool):
        raise PydanticCustomError("float_type", "Input should be a valid number")
    return value


PositiveNumber = Annotated[float, Field(gt=0, allow_inf_nan=False), BeforeValidator(_not_bool)]
"""An int or float above 0 (seconds, a rate), never a bool, never inf (TOML's ``inf`` passed ``gt=0`` and a
timeout of inf ended in a traceback): one type for every such key of the profile."""

SETTLE_S = 5.0
"""Default settle window: how long a read-back after a write is read again while the target's lists catch up."""


class AccountEntry(_Table):
    """[accounts.<role>] as written: the password itself, or the name of the variable that holds it."""

    model_config = ConfigDict(json_schema_extra={"oneOf": [{"required": ["password"]},
                                                           {"required": ["password_env"]}]})
    username: Annotated[StrictStr, Field(min_length=1)]
    password: StrictStr | None = Field(None, description="the password (prefer password_env in CI)", repr=False)
    password_env: StrictStr | None = Field(None, description="name of the environment variable holding the password")
    id: StrictInt | None = Field(None, description="the account's user id; discovered when absent")

    @model_validator(mode="after")
    def _one_password(self) -> AccountEntry:
        if self.password is not None and self.password_env is not None:
            raise PydanticCustomError("profile", "has both 'password' and 'password_env'; keep one")
        if self.password is None and self.password_env is None:
            raise PydanticCustomError("profile", "is missing 'password' (or 'password_env')")
        return self


class Accounts(_Table):
    """[accounts]: one account per role; each role is defined by the permissions it holds."""

    admin: AccountEntry
    moderator: AccountEntry
    member: AccountEntry
    novice: AccountEntry


# Named apart from the reference server's Visibility (the SQL filter of what a caller sees): they share nothing.
class VisibilityOptions(_Table):
    """Wire values of the comment visibility options."""

    full: StrictStr | None = None
    recipients: StrictStr = "recipients"
    to_original_poster: StrictStr = "op"
    to_moderators: StrictStr | None = Field(
        None, description="not shown in the description: tests of this option skip when the profile does not say")
    to_own_groups: StrictStr | None = Field(
        None, description="not shown in the description: tests of this option skip when the profile does not say")
    readers: list[Literal["admin", "moderator", "member", "novice"]] | None = Field(
        None, description="roles that read every private comment on this site (the description does not say whether "
                          "administrators or moderators do); when absent, tests that need it skip")

    def private_values(self) -> set[str]:
        """The wire values of the private options this profile knows."""
        return {v for v in (self.recipients, self.to_original_poster, self.to_moderators, self.to_own_groups) if v}

    def reads_as_full(self, value: object) -> bool:
        """Whether a comment's ``visibility`` says full visibility. The description shows no value for it ("Default
        is full visibility. Value seen: recipients, op. The complete list of values: not shown."): the profile's
        ``full`` when it names one; else missing, null, empty, or any value that none of the private options the
        profile knows uses (a profile without ``full``, as ``qaconform init`` writes one, never fails a server that
        writes "full" or "public")."""
        if self.full is not None:
            return value == self.full
        return value in (None, "") or (isinstance(value, str) and value not in self.private_values())


Caller = Literal["anonymous", "admin", "moderator", "member", "novice"]
"""Who [lacks] may name: a caller without credentials, or a role of [accounts]."""

READ_PERMISSIONS = ("view_questions_list", "view_answers", "view_question_page", "view_users_list",
                    "view_user_profile", "use_site")
"""The read permissions of the description's table (Anonymous Roles), as [lacks] keys."""


class Lacks(_Table):
    """[lacks]: for a read permission, a caller that lacks it on this site ("anonymous" or a role of [accounts]).

    The description names the permissions each read needs, but whether anonymous (or any role) holds them is the
    site's configuration: only the profile can say, and only then are the refusals tested.
    """

    view_questions_list: Caller | None = None
    view_answers: Caller | None = None
    view_question_page: Caller | None = None
    view_users_list: Caller | None = None
    view_user_profile: Caller | None = None
    use_site: Caller | None = None

    def callers_lacking(self, permissions: tuple[str, ...]) -> list[str]:
        """The callers the profile names as lacking at least one of ``permissions``."""
        return list(dict.fromkeys(c for p in permissions if (c := getattr(self, p)) is not None))


class Safety(_Table):
    destructive: StrictBool = Field(False, description="true allows what cannot be undone")
    gdpr_user: StrictStr | None = Field(None, description="the only user a successful data-protection job may name")
    gdpr_user_id: PositiveId | None = Field(
        None, description="the id of gdpr_user: jobs then name the user by id (why a username-only user object is "
                          "'incorrect' in a sample of the description is not shown, so a site may refuse that form)")
    gdpr_user_email: StrictStr | None = Field(
        None, description="the email of gdpr_user: the suites then test the email form of a job's user (\"Exactly "
                          "one of username, email, id\")")
    gdpr_near_edge: StrictBool = Field(
        False, description="true: one of the run's (at most three) successful data-protection jobs is dated a minute "
                           "ahead of now in every time zone (14 to 22 hours ahead, so it runs within a day) to check "
                           "the near side of the past-date edge; false: every job is dated years ahead")
    max_concurrency: Annotated[StrictInt, Field(ge=1)] | None = Field(
        None, description="politeness on a shared server: never more requests in flight at once, all workers together")
    max_rps: PositiveNumber | None = Field(
        None, description="politeness on a shared server: never more requests within any one second, all workers "
                          "together")
    write_budget: Annotated[StrictInt, Field(ge=0)] | Literal["unlimited"] = Field(
        DEFAULT_WRITE_BUDGET, description="writes the target may accept from one run, all workers together (refused "
                                          "ones are only counted); tests that meet a spent budget are 'not checked: "
                                          "write budget spent'; \"unlimited\" for none (qaconform run --thorough)")

    @property
    def write_budget_value(self) -> int | None:
        """The budget as a number of accepted writes, None for unlimited."""
        return None if self.write_budget == UNLIMITED else int(self.write_budget)

    def user_spec(self) -> dict[str, Any]:
        """The user object of a job naming gdpr_user: by id when the profile gives it, else by username."""
        if self.gdpr_user_id is not None:
            return {"id": self.gdpr_user_id}
        return {"username": self.gdpr_user}


MAX_WRITES = 300
"""Default write budget of a load run (``[load] max_writes``): writes sent in all, all processes together."""
MAX_WRITE_RPS = 5.0
"""Default write rate of a load run (``[load] max_write_rps``): writes sent per second, all processes together."""


class LoadBudget(_Table):
    """[load]: how much a load run (`qaconform load`) may write to the target; reads are not limited here.

    Defaults polite for a shared staging server: nothing a load writes is ever removed."""

    max_writes: Annotated[StrictInt, Field(ge=0)] = Field(
        MAX_WRITES, description="writes (POST, PUT) a load run sends in all, every process together; then it only "
                                "reads (0: a load run writes nothing)")
    max_write_rps: PositiveNumber = Field(
        MAX_WRITE_RPS, description="writes a load run sends per second, every process together")


class Cleanup(_Table):
    """[cleanup]: the site's delete action, OUTSIDE the description's 19 operations (which delete nothing).

    Real sites of this product delete a node with a PUT on it (verb "deleted"); named here, a run removes the
    answers and comments it created at its end, and ``qaconform cleanup RUN_DIR`` does so later."""

    method: Literal["PUT", "POST", "DELETE"] = Field("PUT", description="the HTTP method of the site's delete action")
    path: Annotated[StrictStr, Field(pattern=r"^/[^?#]*\{id\}[^?#]*$")] = Field(
        description="the delete action's path after base_url, with {id} where the node's id goes, e.g. "
                    f"{API_PREFIX}/node/{{id}}/delete.json", examples=[f"{API_PREFIX}/node/{{id}}/delete.json"])
    account: Literal["admin", "moderator", "author"] = Field(
        "admin", description="who deletes: a role of [accounts], or \"author\" (the account that created the node)")
    cascades: StrictBool = Field(
        True, description="deleting an answer removes its comments (so they cost no call of their own); false "
                          "deletes every comment on its own")


class ProfileFile(_Table):
    """A target profile file (TOML) of qaconform: where a service runs and what the kit may use there."""

    model_config = ConfigDict(title="qaconform target profile")
    name: StrictStr | None = Field(None, description="shown in reports")
    base_url: StrictStr = Field(description=f"everything before {API_PREFIX}, e.g. http://127.0.0.1:8080",
                                json_schema_extra={"format": "uri", "pattern": "^https?://[^/@]+"})
    timeout_s: PositiveNumber = Field(10.0, description="seconds per request, body included")
    settle_s: Annotated[float, Field(ge=0, allow_inf_nan=False), BeforeValidator(_not_bool)] = Field(
        SETTLE_S, description="seconds a read-back after a write (is the new comment listed?) is read again while the "
                              "target's lists catch up (a search index, a cache); 0 reads once")
    service_version: Annotated[StrictStr, Field(pattern=r"^\d+(\.\d+){0,3}$")] | None = Field(
        None, examples=["2.16.0"],
        description="the service version the target runs; rules of later features are 'disabled by configuration'")
    fail_under: Annotated[float, Field(ge=0, le=100), BeforeValidator(_not_bool)] | None = Field(
        None, examples=[90],
        description="the share (percent) of must-rules a run must check, else it fails (exit 1); `qaconform run "
                    "--fail-under` and QACONFORM_FAIL_UNDER override it")
    verify_tls: StrictBool = True
    default_page_size: StrictInt | None = None
    max_page_size: Annotated[StrictInt, Field(ge=1)] | None = Field(
        None, description="the site's pageSize cap, when known (the description gives none)")
    max_response_bytes: StrictInt = 20 * 1024 * 1024
    accounts: Accounts
    fixtures: FixturesFile
    visibility: VisibilityOptions = Field(default_factory=VisibilityOptions)
    safety: Safety = Field(default_factory=Safety)
    lacks: Lacks = Field(default_factory=Lacks)
    load: LoadBudget = Field(default_factory=LoadBudget)
    cleanup: Cleanup | None = Field(
        None, description="the site's delete action; without it a run leaves what it created, and says so")

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise PydanticCustomError("profile", "must be an http(s) URL like http://host:8080, not {value}",
                                      {"value": repr(value)})
        if parts.username or parts.password:
            raise PydanticCustomError("profile", "must not carry credentials; put them under [accounts.<role>]")
        return value.rstrip("/")


@dataclass(frozen=True)
class Account:
    """One account of the target. The password never appears in repr() or in a report: it is a :class:`Secret`."""

    role: str
    username: str
    password: Secret = field(repr=False)
    id: int | None = None


@dataclass(frozen=True)
class Profile:
    path: str
    base_url: str
    accounts: dict[str, Account]
    fixtures: Fixtures
    visibility: VisibilityOptions = VisibilityOptions()
    safety: Safety = Safety()
    timeout_s: float = 10.0
    settle_s: float = SETTLE_S
    service_version: str | None = None
    verify_tls: bool = True
    default_page_size: int | None = None
    max_page_size: int | None = None
    max_response_bytes: int = 20 * 1024 * 1024
    name: str | None = None
    lacks: Lacks = Lacks()
    load: LoadBudget = LoadBudget()
    pools: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """One-shot fixtures given as pools, as written (``fixtures`` holds the node the run takes)."""
    cleanup: Cleanup | None = None
    """The site's delete action ([cleanup]); None: what a run creates stays on the target."""
    fail_under: float | None = None
    """The share of must-rules a run must check (``qaconform run --fail-under`` overrides it)."""

    @property
    def api_root(self) -> str:
        """Everything before the operation path: ``{base_url}/services/v2``."""
        return self.base_url.rstrip("/") + API_PREFIX

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
            "settle_s": self.settle_s,
            "service_version": self.service_version,
            "verify_tls": self.verify_tls,
            "accounts": {r: {"username": a.username, "id": a.id} for r, a in self.accounts.items()},
            "fixtures": self.fixtures.model_dump(),
            "pools": {k: list(v) for k, v in self.pools.items()},
            "visibility": self.visibility.model_dump(),
            "safety": self.safety.model_dump(),
            "lacks": self.lacks.model_dump(exclude_none=True),
            "load": self.load.model_dump(),
            "cleanup": None if self.cleanup is None else self.cleanup.model_dump(),
        }

    def supports(self, since: str | None) -> bool:
        """Whether a feature added in version ``since`` is available on this target's service_version."""
        if not since or not self.service_version:
            return True
        return _version_tuple(self.service_version) >= _version_tuple(since)


def _version_tuple(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in v.split("."))


class _TomlSchema(GenerateJsonSchema):
    """TOML has no null: an optional key is one that may be left out, so its schema is the value's own."""

    def nullable_schema(self, schema: Any) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: Any) -> JsonSchemaValue:
        out = super().default_schema(schema)
        if out.get("default", ...) is None:
            del out["default"]
        return out


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a profile file, from the model that validates it (for editors: taplo, VS Code)."""
    schema = ProfileFile.model_json_schema(schema_generator=_TomlSchema)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def load_profile(path: str | os.PathLike[str], env: dict[str, str] | None = None, option: str = "--profile") -> Profile:
    """Read and validate a profile file. Raises ProfileError with a message for the user.

    ``option`` is how the user named the file, for the message when it is not there: ``qaconform``'s ``--profile``,
    pytest's ``--target-profile``.
    """
    p = Path(path)
    env = dict(os.environ) if env is None else env
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ProfileError(f"profile {p}: file not found; pass an existing file with {option}") from None
    except IsADirectoryError:
        raise ProfileError(f"profile {p}: is a directory; pass a TOML file with {option}") from None
    except OSError as exc:
        raise ProfileError(f"profile {p}: cannot be read ({exc.strerror}); check its permissions") from None
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))  # a BOM (Notepad) is no part of the TOML
    except UnicodeDecodeError:
        raise ProfileError(f"profile {p}: is not UTF-8 text; save it as UTF-8 TOML") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"profile {p}: is not valid TOML ({exc}); fix the syntax at that line") from None
    return profile_from_dict(data, str(p), env)


def profile_from_dict(data: dict[str, Any], path: str = "<profile>", env: dict[str, str] | None = None) -> Profile:
    """Validate parsed TOML against :class:`ProfileFile` and resolve ``password_env`` from ``env``."""
    env = dict(os.environ) if env is None else env
    try:
        f = ProfileFile.model_validate(data)
    except ValidationError as exc:
        raise ProfileError(f"profile {path}: {describe(exc)}") from None
    accounts: dict[str, Account] = {}
    for role in ROLES:
        entry: AccountEntry = getattr(f.accounts, role)
        password = Secret(entry.password or "")
        if entry.password_env is not None:
            var = current_name(entry.password_env, env)  # QACONFORM_REFERENCE_<ROLE>_PASSWORD: the old name (qa17)
            if not env.get(var):  # empty: a CI secret that is not defined expands to ''
                why = ("which is empty (a CI secret not defined expands to ''); export" if entry.password_env in env
                       else "which is not set; export")
                raise ProfileError(f"profile {path}: [accounts.{role}] 'password_env' names the variable "
                                   f"{entry.password_env}, {why} {entry.password_env}=... and retry")
            password = Secret(env[var])
        accounts[role] = Account(role=role, username=entry.username, password=password, id=entry.id)
    say_deprecated({r: v for r in ROLES if (v := getattr(f.accounts, r).password_env) and current_name(v, env) != v})
    fixtures, pools = f.fixtures.resolved()
    return Profile(path=path, base_url=f.base_url, accounts=accounts, fixtures=fixtures, pools=pools,
                   visibility=f.visibility, safety=f.safety, timeout_s=float(f.timeout_s), settle_s=float(f.settle_s),
                   service_version=f.service_version, verify_tls=f.verify_tls,
                   default_page_size=f.default_page_size, max_page_size=f.max_page_size,
                   max_response_bytes=f.max_response_bytes, name=f.name, lacks=f.lacks, load=f.load,
                   cleanup=f.cleanup, fail_under=None if f.fail_under is None else float(f.fail_under))


# ----------------------------------------------------------------------------------------------------------
# pydantic's errors in the profile's words: which key, what is wrong, what to do

_TYPE_NAMES = {"string_type": "str", "int_type": "int", "bool_type": "bool", "float_type": "int or float",
               "model_type": "a table", "dict_type": "a table"}
_SECTION_NOUN = {"fixtures": "fixture", "visibility": "visibility", "safety": "safety", "lacks": "lacks",
                 "load": "load", "cleanup": "cleanup"}
_MAX_LISTED = 5


def describe(exc: ValidationError) -> str:
    """One line for all of a profile's problems (first ones first), each naming its key."""
    errors = exc.errors(include_url=False)
    # an unknown key first: it is often the misspelling behind a "missing" one ([fixture] for [fixtures])
    errors = sorted(errors, key=lambda e: e["type"] != "extra_forbidden")
    problems = list(dict.fromkeys(_problem(e) for e in errors))
    seen: set[str] = set()
    for i, text in enumerate(problems):  # name the known keys of a table once, not after every unknown key
        head, sep, known = text.partition(" (known: ")
        if sep and known in seen:
            problems[i] = head
        seen.add(known)
    more = len(problems) - _MAX_LISTED
    return "; ".join(problems[:_MAX_LISTED]) + (f"; and {more} more problem(s)" if more > 0 else "")


def _near(key: str, names: Any) -> str:
    near = difflib.get_close_matches(key, list(names), n=1)
    return f" (did you mean '{near[0]}'?)" if near else ""


def _known(key: str, names: Any) -> str:
    """Did you mean the one close name, or else the list of known names."""
    return _near(key, names) or f" (known: {', '.join(sorted(names))})"


def _where(loc: tuple[Any, ...]) -> str:
    """``('accounts', 'admin')`` -> ``[accounts.admin]``; a table path in TOML's own notation."""
    return "[" + ".".join(str(p) for p in loc) + "]" if loc else "top level"


def _field_info(loc: tuple[Any, ...]) -> Any:
    model: Any = ProfileFile
    info = None
    for part in loc:
        fields = getattr(model, "model_fields", {})
        if part not in fields:
            return None
        info = fields[part]
        model = info.annotation
        if not hasattr(model, "model_fields"):  # an optional table ([cleanup]): the model inside the union
            model = next((a for a in typing.get_args(model) if hasattr(a, "model_fields")), model)
    return info


def _problem(err: Any) -> str:
    loc = tuple(p for p in err["loc"] if isinstance(p, str))
    kind, value = err["type"], err.get("input")
    if len(loc) > 2 and loc[0] == "fixtures" and loc[1] in ONE_SHOTS:  # pydantic tried each form of the union
        return f"[fixtures] '{loc[1]}' must be a node id (a positive integer) or a non-empty list of node ids"
    parent, key = loc[:-1], (loc[-1] if loc else "")
    if kind == "missing":
        if loc in (("accounts",), ("fixtures",)):
            return f"[{key}] is missing; `qaconform init --example FILE` writes an example with every key"
        if parent == ("accounts",):
            return f"[accounts.{key}] is missing; every profile describes admin, moderator, member, novice"
        return f"{_where(parent)} is missing '{key}'"
    if kind == "extra_forbidden":
        if not parent:
            return f"'{key}' is not a profile key{_known(key, ProfileFile.model_fields)}"
        if parent == ("accounts",):
            return f"[accounts.{key}] is not a known role; the roles are {', '.join(ROLES)}{_near(key, ROLES)}"
        if parent[0] == "accounts":
            return (f"{_where(parent)} '{key}' is not an account key ({', '.join(AccountEntry.model_fields)})"
                    f"{_near(key, AccountEntry.model_fields)}")
        owner = _field_info(parent)
        annotation = owner.annotation
        if not hasattr(annotation, "model_fields"):  # an optional table: the model inside the union
            annotation = next((a for a in typing.get_args(annotation) if hasattr(a, "model_fields")), annotation)
        names = getattr(annotation, "model_fields", {})
        return f"{_where(parent)} '{key}' is not a {_SECTION_NOUN.get(parent[-1], 'known')} key{_known(key, names)}"
    subject = f"'{key}'" if not parent else f"{_where(parent)} '{key}'"
    if kind in ("model_type", "dict_type") and (not parent or parent == ("accounts",)):
        what = f"[{'.'.join(loc)}]"
        extra = " with username and password (or password_env)" if parent else ""
        return f"{subject} must be a table ({what}){extra}, not {type(value).__name__}"
    if kind in _TYPE_NAMES:
        return f"{subject} must be {_TYPE_NAMES[kind]}, not {type(value).__name__} ({value!r})"
    if kind == "profile":  # our own validators: the message is already in the profile's words
        return f"{subject if key in ('base_url',) else _where(loc)} {err['msg']}"
    if kind == "literal_error" and loc and loc[0] == "cleanup":
        return f"{subject} must be one of {err['ctx']['expected']}, not {value!r}"
    if kind == "greater_than":
        return f"{subject} must be positive, not {value!r}"
    if kind == "finite_number":
        return f"{subject} must be a finite number, not {value!r}"
    if kind == "greater_than_equal":
        return f"{subject} must be at least {err['ctx']['ge']}, not {value!r}"
    if kind == "string_too_short":
        return f"{subject} is empty"
    if kind == "string_pattern_mismatch":
        info = _field_info(loc)
        example = f"{info.examples[0]} " if info is not None and info.examples else ""
        return f"{subject} must look like {example}(pattern {err['ctx']['pattern']}), not {value!r}"
    return f"{subject}: {err['msg']}"
