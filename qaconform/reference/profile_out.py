"""The target profile the reference server writes about itself (format: design/target-profile.md)."""

from __future__ import annotations

import json
import os
import shlex
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import faults, variants
from .http_io import PREFIX
from .listing import max_page_size
from .seed import ACCOUNTS, GDPR_USER, SeedFixtures

SERVICE_VERSION = "2.16.0"
DELETE_PATH = PREFIX + "/node/{id}/delete.json"
"""The site's delete action as the profile's [cleanup] names it (the route is app.py's SITE_ROUTES)."""


def _s(value: str) -> str:
    """A TOML basic string (JSON escaping is valid TOML for these values: no character beyond the BMP, whose JSON
    escape is a surrogate pair that TOML refuses)."""
    return json.dumps(value)


VISIBILITY_KEYS = {
    "full": "full",
    "recipients": "recipients",
    "to_original_poster": "op",
    "to_moderators": "mod",
    "to_own_groups": "group",
}
"""[visibility] keys of the profile and the wire values this server uses unless a variant says otherwise."""


def _toml(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return _s(value)
    return str(value)


SETTLE_LAGGING_S = 3
"""The settle window this server's profile gives under lists-lag-writes: five times its lag."""


PASSWORD_ENV = "QACONFORM_{role}_PASSWORD"
"""The variable the profile ``qaconform serve --profile-out`` writes names for each account's password (qa15): the
profile a user keeps holds no password, as ``qaconform init`` writes none; ``qaconform serve --print-env`` prints the
one line that sets them. The name ``qaconform init`` reads and the report's curls use (qa17: one vocabulary; the
reference server had a name of its own, QACONFORM_REFERENCE_<ROLE>_PASSWORD, which init did not read, so a user who
followed `serve --print-env` and `init` was told the password was not set). The old name is still read, with a
deprecation message (``qaconform.target.password_names``). The eval line replaces a real site's variables in that
shell: serve and a real site in two shells."""


def password_env() -> dict[str, str]:
    """Each account's variable (:data:`PASSWORD_ENV`) and the demo password it holds: the environment a run of the
    profile needs (the bench and the load tests pass it to the processes they start)."""
    return {PASSWORD_ENV.format(role=acc.role.upper()): acc.password for acc in ACCOUNTS}


def export_line() -> str:
    """``export QACONFORM_<ROLE>_PASSWORD=... ...`` (each role): what ``qaconform serve --print-env``
    prints, for ``eval "$(qaconform serve --print-env)"`` (quoted for a POSIX shell: novice's password holds colons
    and non-ASCII characters)."""
    return "export " + " ".join(f"{var}={shlex.quote(value)}" for var, value in password_env().items())


def profile_text(base_url: str, fixtures: SeedFixtures, page_size: int, inline_passwords: bool = False) -> str:
    """The profile of this server as configured, including what the active variants make its configuration.
    ``inline_passwords``: the passwords themselves, for the throwaway profile an embedded server writes into its own
    private folder (removed when it stops; the kit's tests and runs load it as it is); else the variables that hold
    them (:data:`PASSWORD_ENV`)."""
    site = _site_settings(page_size)
    lines = [
        "# Written by the qaconform reference server; valid while it runs.",
        *([] if inline_passwords else [
            "# The passwords come from QACONFORM_<ROLE>_PASSWORD: eval \"$(qaconform serve --print-env)\"."]),
        'name = "reference"',
        f"base_url = {_s(base_url)}",
        "timeout_s = 10",
        # a write shows in this server's lists at once (settle_s 0: a read-back is read once), except where a
        # variant serves lists that lag a write
        f"settle_s = {SETTLE_LAGGING_S if variants.is_on('lists-lag-writes') else 0}",
        f"service_version = {_s(site['service_version'])}",
        "verify_tls = true",
        f"default_page_size = {site['default_page_size']}",
        f"max_page_size = {site['max_page_size']}",
        *_account_lines(inline_passwords),
        *_fixture_lines(fixtures),
        "",
        "[visibility]",
        *(
            f"{key.split('.', 1)[1]} = {_toml(value)}"
            for key, value in site.items()
            if key.startswith("visibility.") and value is not None
        ),
        "",
        "[safety]",
        "destructive = true",
        f"gdpr_user = {_s(GDPR_USER.username)}",
        f"gdpr_user_id = {GDPR_USER.id}",
        f"gdpr_user_email = {_s(GDPR_USER.username + '@example.invalid')}",
        "gdpr_near_edge = true",  # its jobs never run: the near side of the past-date edge is checked here
        "",
        # the site's delete action (outside the 19 operations: deletion.py): a run removes what it created
        "[cleanup]",
        'method = "PUT"',
        f"path = {_s(DELETE_PATH)}",
        'account = "admin"',
        "",
    ]
    if faults.closed_site():  # the site grants anonymous no Anonymous Roles: the profile says so
        lines += ["[lacks]", *(f'{permission} = "anonymous"' for permission in (
            "view_questions_list", "view_answers", "view_question_page", "view_users_list", "view_user_profile",
            "use_site")), ""]
    return "\n".join(lines)


def _site_settings(page_size: int) -> dict[str, Any]:
    """Version, paging and [visibility] settings (``visibility.<key>``), as the active variants configure them."""
    site: dict[str, Any] = {
        "service_version": SERVICE_VERSION,
        "default_page_size": page_size,
        "max_page_size": max_page_size(),
        **{f"visibility.{k}": v for k, v in VISIBILITY_KEYS.items()},
        "visibility.readers": [],
    }
    site.update(variants.profile_settings())
    if "visibility.to_moderators" in site and variants.is_on("no-private-comments"):
        for key in ("recipients", "to_original_poster", "to_moderators", "to_own_groups", "readers"):
            site.pop(f"visibility.{key}", None)
    return site


def _account_lines(inline_passwords: bool) -> list[str]:
    lines: list[str] = []
    for acc in ACCOUNTS:
        secret = (f"password = {_s(acc.password)}" if inline_passwords
                  else f"password_env = {_s(PASSWORD_ENV.format(role=acc.role.upper()))}")
        lines += [
            "",
            f"[accounts.{acc.role}]",
            f"username = {_s(acc.username)}",
            secret,
            *([] if variants.is_on("profile-without-ids") else [f"id = {acc.id}"]),
        ]
    return lines


def _fixture_lines(fixtures: SeedFixtures) -> list[str]:
    def one_shot(name: str) -> str:
        return f"{name} = {_toml(fixtures.pools.get(name) or getattr(fixtures, name))}"

    return [
        "",
        "[fixtures]",
        f"question_id = {fixtures.question_id}",
        f"space_id = {fixtures.space_id}",
        one_shot("member_wiki_node_id"),
        one_shot("wiki_node_id"),
        one_shot("favorite_node_id"),
        *[one_shot(n) for n in ("wiki_answer_id", "accepted_wiki_question_id") if getattr(fixtures, n) is not None],
        'favorite_also_held_by = ["admin"]',
        f"hidden_space_id = {fixtures.hidden_space_id}",
        f"gdpr_csv_file_id = {fixtures.gdpr_csv_file_id}",
        *([f"locked_question_id = {fixtures.locked_question_id}"] if fixtures.locked_question_id is not None else []),
        f"issue_tracker = {_s(fixtures.issue_tracker)}",
    ]


def write_profile(path: str | os.PathLike[str], base_url: str, fixtures: SeedFixtures, page_size: int,
                  fresh: bool = True, inline_passwords: bool = False) -> None:
    """Written to a temporary name and renamed, so a reader never sees half a profile. Beside it, the record of
    the one-shot fixtures an earlier run consumed when a variant says one did (else no such file: a fresh
    database (``fresh``) has every fixture in its state: a record left by runs against an earlier server is removed;
    a reused --db keeps what runs consumed in it, and so keeps their record)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if fresh:
        _write_earlier_record(record_path(target), base_url, fixtures)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(profile_text(base_url, fixtures, page_size, inline_passwords), encoding="utf-8")
    os.replace(tmp, target)


RECORD_FORMAT = "qaconform-consumed/1"
"""The format of the record qaconform keeps beside a profile (qaconform.target.ledger); written here by name only,
the reference server imports nothing of the kit (tests/reference pins that the kit reads what this writes)."""


def record_path(profile: Path) -> Path:
    """Where qaconform keeps the one-shot fixtures its runs consumed: beside the profile, ``<stem>.consumed.json``."""
    return profile.with_name(profile.stem + ".consumed.json")


def _write_earlier_record(path: Path, base_url: str, fixtures: SeedFixtures) -> None:
    """The record a fresh database comes with: the favorites an earlier run consumed (the interface shows a wiki
    node's state, never a favorite), and every one-shot node this database holds in its state said "fresh".

    The server is the party that knows its one-shots are fresh, as a QA lead who renews a fixture is: with that
    entry the kit knows member's favorite is there, so a member's unfavorite that then answers ``success: false``
    (a refused call removed it: the fault denied-unfavorite-still-removes) is the server's failure. Without it (a
    profile copied alone into a fresh folder, as a CI checkout) the favorite's state is unknown and such an answer
    is "not checked: fixture not in its state": an earlier build may have consumed it."""
    entries = [{"base_url": base_url, "fixture": "favorite_node_id", "node": node, "run": "qc-earlier",
                "at": "2019-02-05T00:00:00+00:00"} for node in fixtures.consumed.get("favorite_node_id", [])]
    fresh_at = datetime.now(UTC).isoformat(timespec="seconds")
    for name in ("member_wiki_node_id", "wiki_node_id", "favorite_node_id", "wiki_answer_id",
                 "accepted_wiki_question_id"):
        pool = fixtures.pools.get(name) or [n for n in (getattr(fixtures, name),) if n is not None]
        entries += [{"base_url": base_url, "fixture": name, "node": node, "run": "reference-server", "at": fresh_at,
                     "state": "fresh"} for node in pool if node not in fixtures.consumed.get(name, [])]
    if not entries:
        path.unlink(missing_ok=True)
        return
    path.write_text(json.dumps({"format": RECORD_FORMAT, "consumed": entries}, indent=1), encoding="utf-8")
