"""After the suites: does the target still let in every account the doctor let in before them? (qa20)

A password changed (rotated by the site, expired) while a run is under way makes every later request of that
account a 401, and the suites then read those as the target refusing what the table allows: a run through a proxy
that began refusing member's password 25 s in failed PERM-ANSWER, ANSWER-201, PERM-COMMENT-PRIVATE and
COMMENT-BODY-REQUIRED ("member could not post an answer ... refused 401") and blocked 320 tests, exit 1. Those
failures are the profile's, not the target's: the run is stopped as a profile error (exit 2) with the account and
the variable to fix, and its report keeps what ran.

The check is the doctor's (:func:`qaconform.target.doctor._accounts`): the expert list, which every account may
read; an account is refused only when the question list refuses it too (a target that refuses one kind of
password on the expert list alone lets it in there, and the doctor let such an account through as a note).
"""

from __future__ import annotations

from collections.abc import Callable

from qaconform.contract import path
from qaconform.target.client import Recorder
from qaconform.target.discover import clients_for
from qaconform.target.doctor import _status
from qaconform.target.profile import ROLES, Profile
from qaconform.vocabulary import StopReason


def refused_now(profile: Profile) -> list[str]:
    """The roles the target answers 401 on both the expert list and the question list now."""
    clients = clients_for(profile, Recorder(secrets=set(profile.passwords())))
    try:
        return [role for role in ROLES if role in clients
                and _status(clients[role], path("listActiveExperts"), pageSize=1) == 401
                and _status(clients[role], path("listQuestions"), pageSize=1) == 401]
    finally:
        for c in clients.values():
            c.close()


def message(profile: Profile, roles: list[str]) -> str:
    """What the user reads: which accounts, why it is no verdict on the target, and what to fix."""
    names = ", ".join(f"{profile.accounts[r].username!r} ({r})" for r in roles)
    return (f"the target refused {names} after the suites (401 on the expert list and the question list, which "
            f"every account may read), though the doctor's check before them let {'it' if len(roles) == 1 else 'them'}"
            f" in: was a password changed, or did it expire, during the run? The tests that met that 401 say nothing "
            f"about the target (the report keeps them); set the account's current password (the variable its "
            f"password_env names in {profile.path}) and run again")


def check(profile: Profile, stopped: Callable[[StopReason, str], None]) -> str | None:
    """Record a profile stop when an account is refused now; the stop reason, or None when every account is in."""
    roles = refused_now(profile)
    if not roles:
        return None
    stopped(StopReason.PROFILE, message(profile, roles))
    return str(StopReason.PROFILE)
