"""The copy-paste ``curl`` line recorded with every exchange: the request as sent, credentials as ``"$USER:$PASSWORD"``
(never the values), and a body as the exact bytes sent whatever they hold.

Apart from the client because it is text for a person to paste, not part of sending a request.
"""

from __future__ import annotations

import re
import shlex

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
        parts += ["-u", '"$USER:$PASSWORD"']
    for k, v in headers.items():
        if k.lower() in ("authorization", "user-agent", "accept-encoding", "connection", "content-length"):
            continue
        parts += ["-H", shlex.quote(f"{k}: {v}")]
    if body is not None:
        parts += ["--data-binary", shell_data(body)]
    parts.append(shlex.quote(url))
    line = " ".join(parts)
    return f"{line}   # as {role}" if authed else line
