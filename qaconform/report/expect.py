"""Expected failures per target, kept outside the tests (``--expect FILE``).

A vendor's known deviations belong to the target, not to the suite: the same test must fail on one server and
pass on another. The file maps rule ids to a reason and a link (TOML or YAML)::

    [COMMENT-4]                                   # TOML
    reason = "inherits visibility silently"
    link = "https://tracker.example.com/QA-12"

    COMMENT-4:                                    # YAML
      reason: inherits visibility silently
      link: https://tracker.example.com/QA-12

A bare string value is taken as the reason. An expected failure does not fail the exit code; one that passes is
reported as "unexpectedly passing" so the entry can be removed.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from qaconform.errors import UsageError


class ExpectError(UsageError):
    """The expectations file cannot be used; the message names the file and what to fix (a usage error: exit 2)."""


@dataclass(frozen=True)
class Expectation:
    rule: str
    reason: str
    link: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "reason": self.reason, "link": self.link}


def load_expectations(path: str | Path) -> dict[str, Expectation]:
    """Read a TOML (``.toml``) or YAML (anything else) file of rule id -> reason + link."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")  # a BOM (Notepad) is no part of the TOML or YAML
    except FileNotFoundError:
        raise ExpectError(f"expectations file {p}: not found; pass an existing file with --expect") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExpectError(f"expectations file {p}: cannot be read ({exc}); save it as UTF-8 text") from None
    try:
        data: Any = tomllib.loads(text) if p.suffix.lower() == ".toml" else yaml.safe_load(text)
    except (tomllib.TOMLDecodeError, yaml.YAMLError) as exc:
        kind = "TOML" if p.suffix.lower() == ".toml" else "YAML"
        raise ExpectError(f"expectations file {p}: not valid {kind} ({exc}); fix the syntax there") from None
    return parse_expectations(data, str(p))


def parse_expectations(data: Any, where: str = "<expectations>") -> dict[str, Expectation]:
    if data is None:
        return {}
    if isinstance(data, dict) and set(data) == {"expected_failures"}:
        data = data["expected_failures"]
    if not isinstance(data, dict):
        raise ExpectError(f"expectations file {where}: must map rule ids to a reason and a link "
                          f"(got {type(data).__name__}); see `qaconform run --help`")
    out: dict[str, Expectation] = {}
    for rule, entry in data.items():
        rid = str(rule)
        if isinstance(entry, str):
            out[rid] = Expectation(rid, entry)
            continue
        if not isinstance(entry, dict):
            raise ExpectError(f"expectations file {where}: {rid} must be a table with reason (and link), "
                              f"not {type(entry).__name__}")
        extra = sorted(set(entry) - {"reason", "link"})
        if extra:
            raise ExpectError(f"expectations file {where}: {rid} has unknown key {extra[0]!r} (known: reason, link)")
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise ExpectError(f"expectations file {where}: {rid} needs a reason (why the failure is expected)")
        link = entry.get("link")
        if link is not None and not isinstance(link, str):
            raise ExpectError(f"expectations file {where}: {rid} link must be a string URL")
        out[rid] = Expectation(rid, reason.strip(), link)
    return out
