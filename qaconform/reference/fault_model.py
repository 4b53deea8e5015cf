"""What a planted fault of the reference server is: a name, the one rule it breaks, what it does, and (for a bug that
only changes who may call an operation) the rows of the route table it overrides. The registry of faults is
:mod:`faults`; its entries live in :mod:`faults_reads` (what lists answer) and :mod:`faults_writes` (what writes,
actions and permissions do), split by the part of the interface they break (a registry of 250 entries outgrew one
module); this module is what both import.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum


class Effect(Enum):
    """What an override does to the callers it names (:class:`Override`)."""

    ALLOW = "allow"
    """Let them in whatever the row requires."""
    DENY = "deny"
    """Refuse them though the row lets them in (401 anonymous, 403 logged in)."""
    DENY_401 = "deny-401"
    """Refuse them with 401, as if their credentials were wrong."""
    REFUSE_AS_403 = "refuse-as-403"
    """When refused, answer 403 even to an anonymous caller (who should get 401)."""
    REFUSE_PLAIN_403 = "refuse-plain-403"
    """When refused, answer 403 with the body ``{"error": ...}`` instead of ``{"errors": {"message": ...}}``."""
    REFUSE_AS_500 = "refuse-as-500"
    """When refused, fail with a server error (500)."""


@dataclass(frozen=True)
class Override:
    """A planted permission bug as a change to rows of the route table: ``effect`` for the callers ``who`` names
    (a role, ``anonymous``, ``signed-in`` for every caller who logged in, or ``everyone``) on ``operations``.
    ``at`` is the check it changes: ``enter`` (the row's permissions) or ``own`` (the check that a permission
    limited to one's own posts is used on one's own node, made once the handler knows the node)."""

    operations: tuple[str, ...]
    who: str
    effect: Effect
    at: str = "enter"
    when: tuple[str, ...] = ()
    """Query parameters any one of which, given, makes the override apply (empty: always): a permission decided
    differently once an optional parameter is given."""
    and_when: tuple[str, ...] = ()
    """histories4 (issue 44): query parameters one of which must be given as well as one of ``when`` (empty: no
    second condition): a permission decided differently only once two optional parameters are given together."""
    alone: bool = False
    """paths14 (issue 44 item 1): the override applies only when one of ``when`` is the whole query (a permission
    decided differently on a fast path for one parameter alone)."""

    def names(self, role: str, anonymous: bool) -> bool:
        """Whether the override applies to a caller of this role."""
        if self.who == "everyone" or self.who == role:
            return True
        return self.who == ("anonymous" if anonymous else "signed-in")


@dataclass(frozen=True)
class Fault:
    """One planted bug: its name (used on the command line), the rule id it breaks, what it does, and (for a
    bug that only changes who may call an operation) the overrides of the route table that make it."""

    name: str
    rule: str
    description: str
    overrides: tuple[Override, ...] = ()
    draws: tuple[str, ...] = ()
    """seed15 (issue 44): the values of the suites' seeded dimensions the fault's path needs, each
    ``"dimension=value"`` (qaconform/pytest/seed_draws.py ``DRAWS``; the server never reads them): the self-test runs
    the fault at the first seed from its own that draws them all. Empty: any seed reaches the path."""


def allow(who: str, *operations: str, at: str = "enter") -> tuple[Override, ...]:
    return (Override(operations, who, Effect.ALLOW, at),)


def deny(who: str, *operations: str, at: str = "enter") -> tuple[Override, ...]:
    return (Override(operations, who, Effect.DENY, at),)


def split_missed(faults: tuple[Fault, ...], missed: Collection[str]) -> tuple[tuple[Fault, ...], tuple[Fault, ...]]:
    """A round's faults as (registered, left out): the left out are those ``missed`` names, the suites' misses kept
    wired but out of the registry with their reasons. Every name in ``missed`` must be one of ``faults``: a reason
    kept for a renamed fault would otherwise register the fault it excuses without anyone seeing it."""
    names = {fault.name for fault in faults}
    unknown = sorted(set(missed) - names)
    if unknown:
        raise ValueError(f"missed names that are no fault of the round: {', '.join(unknown)}")
    return (tuple(f for f in faults if f.name not in missed), tuple(f for f in faults if f.name in missed))
