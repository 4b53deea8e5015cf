"""Credential scrubbing for everything a report writes.

The client already redacts what it records, but a report is built from a file that may come from an older kit,
a hand-edited results file or a target that echoes credentials back in its body. So the report redacts again,
by shape (Authorization headers, ``Basic``/``Bearer`` tokens, ``password`` fields, URL user-info, ``curl -u``
with literal credentials) and by value (the passwords of the profile, when known, and their base64 forms).
A credential found by shape in one place (a ``password`` field, a Basic token, a URL) is then removed
everywhere, also where it stands as plain text with no shape (a target that echoes "you sent <password>").
A report is shared with people who must never see a password; a second pass costs nothing.
"""

from __future__ import annotations

import base64
import functools
import html
import json
import re
from collections.abc import Callable, Iterable
from typing import Any

REDACTED = "<redacted>"

_SECRET_KEY = re.compile(r"(authorization|password|passwd|secret|token|api[-_]?key|cookie)", re.IGNORECASE)
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Authorization: Basic dXNlcjpwYXNz / Bearer abc
    # (not: WWW-Authenticate: Basic realm="...", which is no credential)
    (re.compile(r"\b(Basic|Bearer)\s+(?!<redacted>)[A-Za-z0-9+/._~-]{4,}={0,2}(?![\w\"'=])"), r"\1 " + REDACTED),
    # "password": "x"  /  'password': 'x'  /  password=x
    (re.compile(r"""(["']?(?:password|passwd|pwd)["']?\s*[:=]\s*)(["'])(?!<redacted>)(?:\\.|(?!\2).)*\2""",
                re.IGNORECASE), r"\1\2" + REDACTED + r"\2"),
    (re.compile(r"((?:[?&;]|\b)(?:password|passwd|pwd)=)(?!<redacted>|%3Credacted)[^&\s\"'#]+", re.IGNORECASE),
     r"\1" + REDACTED),
    # scheme://user:pass@host
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://)[^/\s:@\"']+:[^/\s@\"']+@", re.IGNORECASE), r"\1" + REDACTED + "@"),
    # curl -u user:pass (but not the placeholder "$USER:$PASSWORD", nor a password that is a shell variable:
    # the report writes -u "qa-member:$QACONFORM_MEMBER_PASSWORD")
    (re.compile(r"""(\s(?:-u|--user)\s+)(?!"?\$USER:\$PASSWORD"?)(["']?)[^\s"':]+:(?!\$)[^\s"']+\2"""),
     r"\1" + '"$USER:$PASSWORD"'),
)


_MAY_HOLD_CREDENTIAL = re.compile(r"Basic|Bearer|pass|pwd|@|-u", re.IGNORECASE)
"""What each pattern of _PATTERNS and _HARVEST needs to match (a scheme's user-info needs an @, curl's option a
-u): a text without any of these is left alone by all of them, and most texts of a report (ids, statuses) are."""


_HARVEST: tuple[re.Pattern[str], ...] = (
    re.compile(r"""["']?(?:password|passwd|pwd)["']?\s*[:=]\s*["']((?:\\.|[^"'\\])+)["']""", re.IGNORECASE),
    re.compile(r"(?:[?&;]|\b)(?:password|passwd|pwd)=([^&\s\"'#]+)", re.IGNORECASE),
    re.compile(r"\b[a-z][a-z0-9+.-]*://[^/\s:@\"']+:([^/\s@\"']+)@", re.IGNORECASE),
    re.compile(r"""\s(?:-u|--user)\s+["']?[^\s"':$]+:([^\s"']+?)["']?(?=\s|$)"""),
)
_BASIC = re.compile(r"\bBasic\s+([A-Za-z0-9+/]{4,}={0,2})(?![\w\"'=])")
_MIN_SECRET = 4
_NOT_SECRETS = {REDACTED, "$PASSWORD", "%3Credacted%3E"}


@functools.lru_cache(maxsize=4096)
def _secret_key(key: str) -> bool:
    """Whether a field of this name holds a credential (a report has a few hundred names, asked about 100,000 times)."""
    return _SECRET_KEY.search(key) is not None and key != "password_env"


def harvest_secrets(value: Any) -> set[str]:
    """Credentials visible by their shape anywhere in a JSON-like value (so they can be removed everywhere)."""
    found: set[str] = set()
    searched: set[str] = set()  # a text's shapes are the same wherever it stands (a report repeats most of its texts)

    def add(candidate: str) -> None:
        if (len(candidate) >= _MIN_SECRET and candidate not in _NOT_SECRETS and REDACTED not in candidate
                and not candidate.startswith("$")):  # a shell variable reference, as in the report's own curls
            found.add(candidate)

    def walk(v: Any, key: str = "") -> None:
        if isinstance(v, dict):
            for k, item in v.items():
                walk(item, str(k))
        elif isinstance(v, list | tuple):
            for item in v:
                walk(item, key)
        elif isinstance(v, str):
            if _secret_key(key) and not v.lower().startswith(("basic ", "bearer ")):
                add(v)
            if v in searched:
                return
            searched.add(v)
            if not _MAY_HOLD_CREDENTIAL.search(v):
                return  # every pattern below needs one of its words too
            for pattern in _HARVEST:
                for m in pattern.finditer(v):
                    add(m.group(1))
            for m in _BASIC.finditer(v):
                try:
                    decoded = base64.b64decode(m.group(1), validate=True).decode("utf-8")
                except (ValueError, UnicodeDecodeError):
                    continue
                if ":" in decoded:  # user:password, as Basic auth sends it
                    add(m.group(1))
                    add(decoded.split(":", 1)[1])

    walk(value)
    return found


def secret_variants(secrets: Iterable[str], usernames: Iterable[str] = ()) -> set[str]:
    """Each password, plus the base64 of ``user:password`` for every known user (what Basic auth puts on the wire)."""
    out = {s for s in secrets if s and len(s) >= 3}
    users = [u for u in usernames if u]
    for s in list(out):
        for u in users:
            out.add(base64.b64encode(f"{u}:{s}".encode()).decode())
    return out


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """Replace every known secret and every credential-shaped substring with ``<redacted>``."""
    return _redact_text(text, _longest_first(secrets))


def _longest_first(secrets: Iterable[str]) -> tuple[str, ...]:
    """The secrets worth replacing, longest first (a password that contains another is replaced whole)."""
    return tuple(s for s in sorted(secrets, key=len, reverse=True) if s and len(s) >= 3)


_PASSWORD_WORD = re.compile("pass|pwd", re.IGNORECASE)
_NEEDS: tuple[Callable[[str], object], ...] = (
    lambda t: "Basic" in t or "Bearer" in t,
    _PASSWORD_WORD.search,
    _PASSWORD_WORD.search,
    lambda t: "@" in t and "://" in t,
    lambda t: "-u" in t,  # also in --user
)
"""What each pattern of :data:`_PATTERNS` cannot match without (in that order): a report has some 20,000 texts and
most of those that pass :data:`_MAY_HOLD_CREDENTIAL` (a curl's ``-u``, an address's ``@``) need one pattern at most."""


def _redact_text(text: str, secrets: tuple[str, ...]) -> str:
    for s in secrets:
        if s in text:
            text = text.replace(s, REDACTED)
    for needs, (pattern, repl) in zip(_NEEDS, _PATTERNS, strict=True):
        if needs(text):
            text = pattern.sub(repl, text)
    return text


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A deep copy of a JSON-like value with credentials removed: secret-named keys lose their value entirely, and
    every credential found by shape anywhere in it is removed everywhere."""
    known = _longest_first(set(secrets) | harvest_secrets(value))
    return _redact(value, _TextScrubber(known))


class _TextScrubber:
    """:func:`_redact_text` with these secrets for every string of one value, each distinct string once. A text
    that holds none of the secrets and none of the words a shape pattern needs (:data:`_MAY_HOLD_CREDENTIAL`) is
    left as it is after one search: most of a report's 50,000 strings (ids, statuses, node ids, many of them
    repeated), whose five checks each took 0.2 s of the 0.4 s a run's report spent in redaction."""

    def __init__(self, secrets: tuple[str, ...]) -> None:
        self.secrets = secrets
        words = [re.escape(s) for s in secrets]
        self.may_hold = re.compile("|".join([*words, f"(?i:{_MAY_HOLD_CREDENTIAL.pattern})"]))
        self.done: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        out = self.done.get(text)
        if out is None:
            out = _redact_text(text, self.secrets) if self.may_hold.search(text) else text
            self.done[text] = out
        return out


def _redact(value: Any, scrub: _TextScrubber) -> Any:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for k, v in value.items():
            if isinstance(k, str) and _secret_key(k) and isinstance(v, str | int | float):
                out[k] = REDACTED
            else:
                out[k] = _redact(v, scrub)
        return out
    if isinstance(value, list | tuple):
        return [_redact(v, scrub) for v in value]
    return value


ESCAPES: dict[str, Callable[[str], str]] = {
    "xml": lambda s: html.escape(s, quote=True).replace("&#x27;", "'"),
    "html": lambda s: html.escape(s, quote=True),
    "json": lambda s: json.dumps(s)[1:-1],
}
"""How each serialised file writes a string: a secret in the data appears there in this escaped form."""


def scrub_serialised(text: str, secrets: Iterable[str], fmt: str) -> str:
    """The last pass over a file already built from redacted data: each known secret, as it is written in ``fmt``
    (xml, html, json), replaced by the marker as ``fmt`` writes it.

    Only known values, never the shape patterns: those run on the data (:func:`redact`), where a string is what it
    says. On serialised text they would see escapes as part of a token (``Basic realm=&quot;...``) and put a raw
    ``<redacted>`` inside an XML attribute, which no strict parser reads."""
    escape = ESCAPES[fmt]
    marker = escape(REDACTED)
    for s in _longest_first(secrets):
        for form in dict.fromkeys((s, escape(s), html.escape(s, quote=False))):
            if form in text:
                text = text.replace(form, marker)
    return text


class StreamScrubber:
    """Known secrets removed from a byte stream copied as it comes (a child's terminal output), wherever the
    chunks split it: the end of a chunk that could begin a secret waits for the next chunk, the rest goes out at
    once, so pytest's progress dots still appear as they are printed."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self._secrets = tuple(s.encode() for s in _longest_first(secrets))
        self._marker = REDACTED.encode()
        self._held = b""

    def feed(self, chunk: bytes) -> bytes:
        """What of ``self._held + chunk`` can be written now, secrets replaced."""
        data = self._held + chunk
        for s in self._secrets:
            if s in data:
                data = data.replace(s, self._marker)
        keep = max((n for s in self._secrets for n in range(min(len(s) - 1, len(data)), 0, -1)
                    if data.endswith(s[:n])), default=0)
        self._held = data[len(data) - keep:] if keep else b""
        return data[:len(data) - keep] if keep else data

    def flush(self) -> bytes:
        """What was held back, at the end of the stream (no secret can complete any more)."""
        out, self._held = self._held, b""
        return out
