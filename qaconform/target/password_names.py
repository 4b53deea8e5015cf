"""One name for an account's password variable: ``QACONFORM_<ROLE>_PASSWORD`` (qa17), and the old one still read.

Before qa17 ``qaconform serve --print-env`` set ``QACONFORM_REFERENCE_<ROLE>_PASSWORD`` and the profile of
``serve --profile-out`` named it, while ``qaconform init`` read ``QACONFORM_<ROLE>_PASSWORD``: a user who followed
both was told the password was not set. Now every command uses the second name. A shell that evaluated an older
``--print-env`` line, or a profile an older ``serve --profile-out`` wrote, still works: where the named variable is
not set and its other name is, that one is read (:func:`current_name`), and stderr says so in one line naming the
roles (:func:`say_deprecated`, qa18: it was a line per role, in every process of a run), once per run, never a
value."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping

from qaconform.kit import PASSWORD_NAMES_SAID

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
    """``var`` when it is set (non-empty) or has no other name; else its other name when that one is set (which
    :func:`say_deprecated` then says)."""
    other = other_name(var)
    if env.get(var) or other is None or not env.get(other):
        return var
    return other


def deprecation_line(read: Mapping[str, str]) -> str | None:
    """One line for every variable read by its other name (``read``: role -> the name the profile gives), or None.

    ``QACONFORM_REFERENCE_<ROLE>_PASSWORD`` stands for the roles' names when there are several; one role is spelt."""
    old_env = [role for role, var in read.items() if _NEW.fullmatch(var)]  # profile: new name; shell: the old one
    old_profile = [role for role, var in read.items() if _OLD.fullmatch(var)]
    if not old_env and not old_profile:
        return None
    roles = old_env or old_profile
    part = roles[0].upper() if len(roles) == 1 else "<ROLE>"
    old, new = f"QACONFORM_REFERENCE_{part}_PASSWORD", f"QACONFORM_{part}_PASSWORD"
    said = []
    if old_env:
        said.append(f"{new} is not set for {', '.join(old_env)}; reading {old} instead")
    if old_profile:
        said.append(f"the profile names {old} for {', '.join(old_profile)} (the name an older `qaconform serve "
                    f"--profile-out` wrote); reading {new} instead")
    again = "; write the profile again" if old_profile else ""
    return (f"qaconform: {'; '.join(said)}. {old} is deprecated: the one name is {new} "
            f"(`qaconform serve --print-env` sets it{again})")


def say_deprecated(read: Mapping[str, str]) -> None:
    """:func:`deprecation_line` on stderr, once per process for the same line (a run loads its profile again), and
    never in the suites' pytest processes that ``qaconform run`` started (``QACONFORM_PASSWORD_NAMES_SAID``: the run
    said it) nor in a pytest-xdist worker (its controller said it): one line for the whole run."""
    line = deprecation_line(read)
    if os.environ.get(PASSWORD_NAMES_SAID) or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if line is not None and line not in _said:
        _said.add(line)
        print(line, file=sys.stderr)
