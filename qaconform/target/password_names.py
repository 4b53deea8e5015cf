"""One name for an account's password variable: ``QACONFORM_<ROLE>_PASSWORD`` (qa17), and the old one still read.

Before qa17 ``qaconform serve --print-env`` set ``QACONFORM_REFERENCE_<ROLE>_PASSWORD`` and the profile of
``serve --profile-out`` named it, while ``qaconform init`` read ``QACONFORM_<ROLE>_PASSWORD``: a user who followed
both was told the password was not set. Now every command uses the second name. A shell that evaluated an older
``--print-env`` line, or a profile an older ``serve --profile-out`` wrote, still works: where the named variable is
not set and its other name is, that one is read, and stderr says so once per variable (never its value)."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping

_NEW = re.compile(r"QACONFORM_(ADMIN|MODERATOR|MEMBER|NOVICE)_PASSWORD")
_OLD = re.compile(r"QACONFORM_REFERENCE_(ADMIN|MODERATOR|MEMBER|NOVICE)_PASSWORD")
_said: set[str] = set()


def other_name(var: str) -> str | None:
    """The variable's other name (old for new, new for old), or None for a name of the user's own."""
    if m := _NEW.fullmatch(var):
        return f"QACONFORM_REFERENCE_{m.group(1)}_PASSWORD"
    if m := _OLD.fullmatch(var):
        return f"QACONFORM_{m.group(1)}_PASSWORD"
    return None


def current_name(var: str, env: Mapping[str, str]) -> str:
    """``var`` when it is set (non-empty) or has no other name; else its other name when that one is set, said once
    on stderr as deprecated."""
    other = other_name(var)
    if env.get(var) or other is None or not env.get(other):
        return var
    if var not in _said:
        _said.add(var)
        old, new = (other, var) if _NEW.fullmatch(var) else (var, other)
        where = (f"the profile names {var}, the name an older `qaconform serve --profile-out` wrote"
                 if var == old else f"{var} is not set")
        print(f"qaconform: {where}; reading {other} instead. {old} is deprecated: the one name is {new} "
              f"(`qaconform serve --print-env` sets it{'' if var == new else '; write the profile again'})",
              file=sys.stderr)
    return other
