"""What a suite test's end says, as fields: the rules a failure broke, the kind of a skip.

The report, the JUnit file and the self-test charge a failure to rules and group skips by why they happened. Reading
those facts back out of message text (``[PAGING-LISTCOUNT] ...``, "not allowed by safety") couples every reader to
every writer's wording. So the suites raise a ``RuleFailure`` that carries its rules and the exchange that showed
the breach, and skip through ``skip(kind, why)``; the pytest plugin copies those fields into the results file, and
the report reads them. Both stay what pytest knows: a ``RuleFailure`` is an ``AssertionError`` (the test *fails*),
a kind of skip is pytest's own skip exception (the test is skipped, with the same readable reason).

The suites fail only this way (``fail``, or ``expect`` for a one-line check; tests/suites_meta/ keeps a
``[RULE]``-prefixed assert message out of suites/). ``qaconform.blame`` still reads rule ids out of a message for the
failures that cannot carry fields: the kit's schemathesis checks, whose error schemathesis re-raises as its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NoReturn

from _pytest.outcomes import Skipped  # pytest.skip.Exception, by a name mypy accepts as a type

if TYPE_CHECKING:
    from qaconform.target.client import ApiResponse, Exchange


class RuleFailure(AssertionError):
    """The target broke ``rules``: ``message`` says how, ``exchange`` and ``curl`` show the request that proved it.

    Its text is ``[RULE-A, RULE-B] message`` followed by the response's description (request, status, body and a
    ``Reproduce with: curl ...`` line), the form every suite message has; without rules it is the message alone."""

    def __init__(self, rules: str | Iterable[str], message: str, response: ApiResponse | None = None) -> None:
        self.rules: tuple[str, ...] = tuple(dict.fromkeys((rules,) if isinstance(rules, str) else rules))
        self.message = message
        self.exchange: Exchange | None = response.exchange if response is not None else None
        self.curl: str | None = response.curl if response is not None else None
        text = f"[{', '.join(self.rules)}] {message}" if self.rules else message
        super().__init__(f"{text}\n{response.describe()}" if response is not None else text)


def fail(rules: str | Iterable[str], message: str, response: ApiResponse | None = None) -> NoReturn:
    """Raise a ``RuleFailure``: the target broke ``rules`` (one id, or several)."""
    __tracebackhide__ = True  # pytest shows the suite's line, as for an assert
    raise RuleFailure(rules, message, response)


def expect(condition: object, rules: str | Iterable[str], message: str, response: ApiResponse | None = None) -> None:
    """Fail with ``RuleFailure(rules, message, response)`` unless ``condition`` holds.

    The suites' checks stay one statement each, as readable as the ``assert`` they replaced, while the failure
    carries its rules and response as fields. Unlike an assert's message, ``message`` is built before the check:
    it must not need what exists only when the check fails (``items[0]`` of a list that may be empty); the
    response's description is built only on failure."""
    __tracebackhide__ = True
    if not condition:
        raise RuleFailure(rules, message, response)


class SkipKind(StrEnum):
    """Why a test did not run, as the report groups skips. ``category``: the report's name for the group."""

    category: str

    def __new__(cls, value: str, category: str) -> SkipKind:
        obj = str.__new__(cls, value)
        obj._value_ = value
        obj.category = category
        return obj

    MISSING_FIXTURE = ("missing fixture", "missing fixture")
    """The profile lacks what the test needs (a fixture id, or data the interface cannot create)."""
    FIXTURE_STATE = ("fixture not in its state", "fixture not in its state")
    """The profile names the fixture, but the doctor found it not in the state the profile says: a one-shot node an
    earlier run consumed (its record, or a wiki node no longer wiki), a hidden space novice lists. Never the target's
    failure: the report says how to renew it."""
    SAFETY = ("not allowed by safety", "not allowed by safety")
    """The profile's [safety] or --read-only forbids what the test would send."""
    WRITE_REFUSED = ("write refused", "not allowed by safety")
    """--read-only refused a write the test sent (the plugin lists such tests that lack the writes marker)."""
    WRITE_BUDGET = ("write budget spent", "write budget spent")
    """The run's write budget ([safety] write_budget, --write-budget) or the test's share of it was spent before the
    test could write: not checked, never the target's failure (--thorough, or a larger budget, checks it)."""
    CONFIGURATION = ("disabled by configuration", "disabled by configuration")
    """The target's configuration rules the test out (a service version before the feature, not selected)."""
    LIST_TOO_LONG = ("list too long", "not checked: list too long")
    """A relation that needs a whole list (not a window of it) found the list longer than a run walks: the relation
    is not checked for that list, and the report lists it as not checked beside its rule, never as held."""
    HELD_BACK = ("held back by the target", "not checked: held back by the target")
    """The target held a request back (429, or 503 with Retry-After) longer than the kit waits (one wait over
    ``holdback.CAP_S``, the test's waits over ``TEST_BUDGET_S``): the target's pace, never its failure."""
    OTHER = ("skipped", "skipped")
    """Anything else: the target's data or answers leave nothing to check."""

    @classmethod
    def of(cls, value: object) -> SkipKind:
        """The kind named ``value`` (a results file string); a skip that names none (pytest's own) is OTHER."""
        found = cls._value2member_map_.get(str(value))
        return found if isinstance(found, SkipKind) else cls.OTHER


_KIND = "_qaconform_skip"
"""The attribute of pytest's skip exception that holds its :class:`TypedSkip`: a plain ``Skipped``, so that pytest shows
the reason and the test's own line exactly as for ``pytest.skip`` (a subclass would print its own name and
location)."""


@dataclass(frozen=True)
class TypedSkip:
    """What :func:`skip` records beside its reason, for the results file."""

    kind: SkipKind
    fixtures: tuple[str, ...] = ()
    """For a missing fixture: the profile keys that would let the test run."""
    met: tuple[str, int] | None = None
    """For a one-shot fixture not in its state: (profile key, node) the test's call met so (an earlier run consumed
    it): the report then says the node was consumed before this run, not by it."""


def skip(kind: SkipKind, why: str, *, fixtures: Iterable[str] = (), met: tuple[str, int] | None = None) -> NoReturn:
    """Skip the running test for ``why`` (the reason pytest and the report show), recording ``kind``.

    ``fixtures``: for a missing fixture, the profile keys that would let the test run; the report then says "not
    checked: needs fixture NAME" for a rule whose every test lacks one. ``met``: see :attr:`TypedSkip.met`."""
    __tracebackhide__ = True  # pytest reports the skip at the caller's line, as for pytest.skip
    exc = Skipped(msg=why)
    setattr(exc, _KIND, TypedSkip(kind, tuple(fixtures), met))
    raise exc


def skip_of(exc: BaseException) -> TypedSkip | None:
    """What a skip raised by :func:`skip` recorded; None for any other exception (pytest's own skip)."""
    found = getattr(exc, _KIND, None)
    return found if isinstance(found, TypedSkip) else None
