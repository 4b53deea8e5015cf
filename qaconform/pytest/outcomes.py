"""What a suite test's end says, as fields: the rules a failure broke, the kind of a skip.

The report, the JUnit file and the self-test charge a failure to rules and group skips by why they happened. Reading
those facts back out of message text (``[PAGING-LISTCOUNT] ...``, "not allowed by safety") couples every reader to
every writer's wording. So the suites raise a ``RuleFailure`` that carries its rules and the exchange that showed
the breach, and skip through ``skip(kind, why)``; the pytest plugin copies those fields into the results file, and
the report reads them. Both stay what pytest knows: a ``RuleFailure`` is an ``AssertionError`` (the test *fails*),
a kind of skip is pytest's own skip exception (the test is skipped, with the same readable reason).

The suites fail only this way (``fail``, or ``expect`` for a one-line check; tests/package/test_typed_failures.py
keeps a ``[RULE]``-prefixed assert message out of suites/). ``qaconform.blame`` still reads rule ids out of a message
for the failures that cannot carry fields: the kit's schemathesis checks, whose error schemathesis re-raises as its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from _pytest.outcomes import Skipped  # pytest.skip.Exception, by a name mypy accepts as a type

from qaconform.vocabulary import SkipKind

if TYPE_CHECKING:
    from qaconform.target.client import ApiResponse, Exchange

__all__ = ["RuleFailure", "SkipKind", "TypedSkip", "expect", "fail", "skip", "skip_of"]
"""``SkipKind`` is the core's (:mod:`qaconform.vocabulary`), named here too: the suites import their outcomes from
one module."""


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
    detail: str = ""
    """The target's facts and the run's own draws behind the skip (a list's size, an id drawn at random): written
    beside the reason, never into it, so that the reason CI compares between builds stays the same for a seed."""


def skip(kind: SkipKind, why: str, *, fixtures: Iterable[str] = (), met: tuple[str, int] | None = None,
         detail: str = "") -> NoReturn:
    """Skip the running test for ``why`` (the reason pytest and the report show), recording ``kind``.

    ``fixtures``: for a missing fixture, the profile keys that would let the test run; the report then says "not
    checked: needs fixture NAME" for a rule whose every test lacks one. ``met``: see :attr:`TypedSkip.met`."""
    __tracebackhide__ = True  # pytest reports the skip at the caller's line, as for pytest.skip
    exc = Skipped(msg=why)
    setattr(exc, _KIND, TypedSkip(kind, tuple(fixtures), met, detail))
    raise exc


def skip_of(exc: BaseException) -> TypedSkip | None:
    """What a skip raised by :func:`skip` recorded; None for any other exception (pytest's own skip)."""
    found = getattr(exc, _KIND, None)
    return found if isinstance(found, TypedSkip) else None
