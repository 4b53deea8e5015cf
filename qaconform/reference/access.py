"""Who may call an operation: the permissions a row of the route table requires (app.py), changed by the
overrides of the planted faults switched on (faults.py), and the check that a permission limited to one's own
posts is used on one's own node.

A refusal is 401 for a caller who did not log in and 403 for one who did (:func:`errors.denied`). With no fault
on, a check costs one dict lookup on top of the permission test.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from . import faults
from .auth import Caller
from .errors import ApiError, denied, unauthorized
from .faults import Effect, Override


@dataclass(frozen=True)
class Requires:
    """The permissions of a row: every one of ``all_of`` and, when given, at least one of ``one_of``."""

    all_of: tuple[str, ...] = ()
    one_of: tuple[str, ...] = ()

    def met_by(self, caller: Caller) -> bool:
        return caller.can(*self.all_of) and (not self.one_of or any(caller.can(p) for p in self.one_of))


def check(operation: str, requires: Requires, caller: Caller, given: Collection[str] = ()) -> None:
    """Raise the refusal unless ``caller`` may call ``operation``; ``given``: the query parameters of the call (an
    override may apply only when one of them is given)."""
    allowed = requires.met_by(caller)
    found = tuple(o for o in faults.overrides(operation) if (not o.when or any(p in given for p in o.when))
                  and (not o.and_when or any(p in given for p in o.and_when))
                  and (not o.alone or (len(set(given)) == 1 and set(given) <= set(o.when))))
    if found:
        _decide(operation, allowed, caller, found)
    elif not allowed:
        raise denied(caller.anonymous)


def require_owner(operation: str, caller: Caller, owns: bool, any_node: str) -> None:
    """The second check of an operation that a permission admits to one's own posts only (Lock comments on own
    posts, Convert own posts to community wiki): a caller without ``any_node`` must own the node."""
    allowed = owns or caller.can(any_node)
    found = faults.overrides(operation, "own")
    if found:
        _decide(operation, allowed, caller, found)
    elif not allowed:
        raise denied(caller.anonymous)


def _decide(operation: str, allowed: bool, caller: Caller, found: tuple[Override, ...]) -> None:
    effects = {o.effect for o in found if o.names(caller.role, caller.anonymous)}
    if Effect.DENY_401 in effects:
        raise unauthorized()
    if Effect.DENY in effects or not (allowed or Effect.ALLOW in effects):
        raise _refusal(operation, caller, effects)


def _refusal(operation: str, caller: Caller, effects: set[Effect]) -> Exception:
    if Effect.REFUSE_AS_500 in effects:
        return RuntimeError(f"{operation} refused")
    if Effect.REFUSE_PLAIN_403 in effects:
        return ApiError(403, {"error": f"you may not call {operation}"})
    if Effect.REFUSE_AS_403 in effects:
        return denied(anonymous=False)
    return denied(caller.anonymous)
