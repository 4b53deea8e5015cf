"""The copy-paste ``curl`` line recorded with every exchange: the request as sent, credentials as ``"$USER:$PASSWORD"``
(never the values), and a body as the exact bytes sent whatever they hold; and the one function that makes such a
line personal (:func:`personal_curl`), which every output a person pastes from uses: pytest's terminal (the plugin,
qaconform.pytest.results), the report, JUnit and the page (qaconform.report.reproduce re-exports it).

Apart from the client because it is text for a person to paste, not part of sending a request. The client records
the placeholder (it must not know what the report will say); a person never pastes it: ``$USER`` is the shell's
login name, so a pasted placeholder would authenticate as the wrong account. ``personal_curl`` puts the profile's
username for the role the request was sent as in its place, and an environment variable that holds its password
(the profile's own ``password_env`` when it has one, else ``QACONFORM_<ROLE>_PASSWORD``). The password itself never
appears; the variable's value is the reader's to set.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any

PLACEHOLDER = '"$USER:$PASSWORD"'
"""What the client records for the credentials of an authenticated request (never the values)."""
_AS_ROLE = re.compile(r"\s#\s*as\s+([A-Za-z_][\w-]*)")
"""The ``# as <role>`` comment of a curl: at the end of its line, or followed by more of a message on the same line
(``... # as moderator (seed 3; rerun with --seed 3)``)."""
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_WRONG_PASSWORD_ROLE = "wrong_password"

_NOT_PASTEABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
"""Characters a terminal would act on, or a paste would lose, inside a quoted shell word (newline and tab paste)."""
_PLAIN_BYTES = frozenset(range(0x20, 0x7f)) - {ord("'"), ord("\\")}


def shell_data(body: bytes) -> str:
    """The shell word that makes ``curl --data-binary`` send exactly ``body`` (bash, zsh).

    UTF-8 text without control characters as itself, quoted; any other body (a generated negative case may send
    bytes that are not UTF-8) as ``$'...'`` with ``\\xHH`` escapes, or, holding a NUL (no shell word can), read from
    ``printf`` through process substitution. Never decoded with U+FFFD, which would send other bytes."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and not _NOT_PASTEABLE.search(text):
        return shlex.quote(text)
    if b"\x00" not in body:
        return "$'" + "".join(chr(b) if b in _PLAIN_BYTES else {0x27: "\\'", 0x5C: "\\\\"}.get(b, f"\\x{b:02x}")
                              for b in body) + "'"
    shown = "".join(chr(b) if b in _PLAIN_BYTES and b != ord("%") else
                    {0x5C: "\\\\", 0x25: "%%"}.get(b, f"\\x{b:02x}") for b in body)
    return f"@<(printf '{shown}')"


def curl_line(role: str, method: str, url: str, headers: dict[str, str], body: bytes | None, authed: bool) -> str:
    parts = ["curl", "-sS", "-i", "-X", method]
    if authed:
        parts += ["-u", PLACEHOLDER]
    for k, v in headers.items():
        if k.lower() in ("authorization", "user-agent", "accept-encoding", "connection", "content-length"):
            continue
        parts += ["-H", shlex.quote(f"{k}: {v}")]
    if body is not None:
        parts += ["--data-binary", shell_data(body)]
    parts.append(shlex.quote(url))
    line = " ".join(parts)
    return f"{line}   # as {role}" if authed else line


def password_variable(role: str, accounts: Mapping[str, Any] | None) -> str:
    """The environment variable that holds ``role``'s password: the profile's ``password_env`` when it names one,
    else ``QACONFORM_<ROLE>_PASSWORD``."""
    acc = (accounts or {}).get(role)
    env = acc.get("password_env") if isinstance(acc, Mapping) else None
    if isinstance(env, str) and _ENV_NAME.match(env):
        return env
    return f"QACONFORM_{re.sub(r'[^A-Za-z0-9]', '_', role).upper()}_PASSWORD"


def username_of(role: str, accounts: Mapping[str, Any] | None) -> str | None:
    acc = (accounts or {}).get("member" if role == _WRONG_PASSWORD_ROLE else role)
    name = acc.get("username") if isinstance(acc, Mapping) else None
    return str(name) if name else None


def personal_curl(curl: str, accounts: Mapping[str, Any] | None) -> str:
    """The recorded curl with the role's username and password variable in place of ``$USER:$PASSWORD``.

    ``accounts``: role -> ``{"username": ..., "password_env": ...}`` (no password). The trailing ``# as <role>``
    says whose account it was. A request sent with a deliberately wrong password keeps a literal wrong one (it is
    not a secret: it is what the test sent to be refused)."""
    found = list(_AS_ROLE.finditer(curl))  # the last: a body may hold the words too
    if PLACEHOLDER not in curl or not found:
        return curl
    role = found[-1].group(1)
    user = username_of(role, accounts)
    if user is None:
        return curl
    if role == _WRONG_PASSWORD_ROLE:  # the member's password with something appended: surely wrong
        cred = f'"{_shell_safe(user)}:${{{password_variable("member", accounts)}}}-wrong"'
    else:
        cred = f'"{_shell_safe(user)}:${password_variable(role, accounts)}"'
    return curl.replace(PLACEHOLDER, cred, 1)


def _shell_safe(user: str) -> str:
    """A username inside double quotes: escape what the shell would expand."""
    return re.sub(r'(["$`\\])', r"\\\1", user)


def personalise_text(text: str | None, accounts: Mapping[str, Any] | None) -> str | None:
    """Every curl line of a message (``Reproduce with: curl ...``) made personal as in :func:`personal_curl`."""
    if not text or PLACEHOLDER not in text:
        return text
    return "\n".join(personal_curl(line, accounts) if PLACEHOLDER in line else line for line in text.split("\n"))


_CURL_START = re.compile(r"(?<!\S)curl\s")
"""Where a curl starts in a line of a message: the word ``curl`` at the line's start or after a space."""
CUT_MARK = " ... (cut)"


def cut_outside_curl(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, never cut inside a curl (qa20: a message cut mid-curl lost its
    ``# as <role>``, so its curl kept the ``"$USER:$PASSWORD"`` placeholder and could not be pasted). A curl is one
    line from its ``curl`` word on (:func:`shell_data` escapes a body's newlines): when the cut falls inside one, the
    text is cut before it, and :data:`CUT_MARK` says something was left out (on a line of its own after a whole curl,
    so that a paste of the line holds nothing but the curl)."""
    if len(text) <= limit:
        return text
    cut = max(limit - len(CUT_MARK), 0)
    line = text.rfind("\n", 0, cut) + 1
    started = [m.start() for m in _CURL_START.finditer(text, line, cut)]
    if started and text[cut:cut + 1] != "\n":  # the cut's line goes on past the cut: its curl would be cut
        cut = started[0]
    kept = text[:cut].rstrip()
    ends_in_curl = _CURL_START.search(kept, kept.rfind("\n") + 1)  # the mark goes below a whole curl, not after it
    return kept + ("\n" + CUT_MARK.lstrip() if ends_in_curl else CUT_MARK)


def password_envs(profile_path: str | None) -> dict[str, str]:
    """Role -> the ``password_env`` a profile names for it (read from the file: the loaded Profile keeps only the
    password). Empty when there is no profile or it cannot be read (the curls then name the default variables)."""
    if not profile_path:
        return {}
    import tomllib

    try:
        with open(profile_path, encoding="utf-8-sig") as fh:  # as load_profile reads it: a BOM is no TOML
            data = tomllib.loads(fh.read())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    accounts = data.get("accounts") if isinstance(data, dict) else None
    if not isinstance(accounts, dict):
        return {}
    return {str(role): str(acc["password_env"]) for role, acc in accounts.items()
            if isinstance(acc, dict) and isinstance(acc.get("password_env"), str)}


def replay_note(curl: str) -> str:
    """What to know before pasting a curl that changes a node's state, or "" for any other curl.

    The state table's moves (lock, send to moderation, unwikify, unfavorite: the contract's PUT operations) are
    one-shot: the run already made the move, so the same curl on the same node meets the new state and answers the
    repeat (a 409, a 400 or a no-op, as the server reads it), not the failure. A QA lead who pastes it and sees a
    different answer would conclude the failure does not reproduce. Matched against spec/ (the single source of the
    paths), so a renamed action needs no change here."""
    from qaconform.contract import load_contract

    # the URL is quoted only when it holds what a shell would read (a query): an unquoted one is a lock too (qa15)
    m = re.search(r"-X\s+PUT\s.*?'?(?:https?://[^/'\s]+)?[^'\s]*?(/services/v2/[^?'\s]*)", curl)
    if not m:
        return ""
    for op in load_contract().operations.values():
        if op.method.upper() != "PUT" or "nodeId" not in op.path_ids:
            continue
        pattern = "^" + re.escape(op.path).replace(re.escape("{nodeId}"), r"(\d+)") + "$"
        hit = re.match(pattern, m.group(1))
        if hit:
            return (f"this request changes node {hit.group(1)}'s state ({op.summary or op.operation_id}), and the run "
                    f"already sent it: on the same node it now meets the new state and answers the repeat, not the "
                    f"failure. To see the failure, replace {hit.group(1)} with the id of another node of the same "
                    f"kind and author, in the state node {hit.group(1)} was in before (for the run's own answers "
                    f"and comments: a new one of that kind, posted by the same account under the profile's "
                    f"question).")
    return ""


def reproduce_with(curl: str) -> str:
    """The ``Reproduce with: curl ...`` line of a failure message, and under it the curl's :func:`replay_note` when it
    moves a node's state: one renderer for the curl in a message (the client's ``describe``, a TargetError) and the
    report's curl boxes (qaconform.report.html_parts), so a pasted lock from either says the same (qa15)."""
    note = replay_note(curl)
    return f"Reproduce with: {curl}" + (f"\nNote before replaying: {note}" if note else "")
