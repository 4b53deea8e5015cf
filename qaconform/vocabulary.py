"""The words a run's outcomes are recorded in: why a test did not run, and why a run stopped early.

Every room speaks them: the pytest plugin and the suites record them (``qaconform.pytest.outcomes.skip``,
``run_state.Stopped``), the report groups and orders by them, ``qaconform diff`` compares by them and the verdict
turns a stop reason into the exit code. They live here, in the core beside :mod:`qaconform.status`, so that each is
defined once and nobody decides from a message: the report never imports ``qaconform.pytest`` to learn a category,
and a new skip kind or stop reason is one line in this file, which every reader then knows (issue 47).
"""

from __future__ import annotations

from enum import StrEnum

from qaconform import exitcodes


class SkipCategory(StrEnum):
    """How the report groups the rules whose tests did not run, in the order it names them: when a rule's tests were
    skipped for different reasons, the rule is grouped under the first of its categories in this order."""

    MISSING_FIXTURE = "missing fixture"
    FIXTURE_STATE = "fixture not in its state"
    WRITE_BUDGET = "write budget spent"
    HELD_BACK = "not checked: held back by the target"
    SAFETY = "not allowed by safety"
    CONFIGURATION = "disabled by configuration"
    LIST_TOO_LONG = "not checked: list too long"
    OTHER = "skipped"

    @property
    def this_run_only(self) -> bool:
        """Whether the category says what one run could afford (its write budget, the target's pace), not what the
        target does: a rule one run checked and another left so is "checked by one run only", never a change."""
        return self in (SkipCategory.WRITE_BUDGET, SkipCategory.HELD_BACK)

    @classmethod
    def first(cls, found: set[SkipCategory]) -> SkipCategory:
        """The foremost category of ``found`` (OTHER when it is empty)."""
        return next((c for c in cls if c in found), cls.OTHER)


class SkipKind(StrEnum):
    """Why a test did not run, as the results file records it; ``category`` is the report's group of it."""

    category: SkipCategory

    def __new__(cls, value: str, category: SkipCategory) -> SkipKind:
        obj = str.__new__(cls, value)
        obj._value_ = value
        obj.category = category
        return obj

    MISSING_FIXTURE = ("missing fixture", SkipCategory.MISSING_FIXTURE)
    """The profile lacks what the test needs (a fixture id, or data the interface cannot create)."""
    FIXTURE_STATE = ("fixture not in its state", SkipCategory.FIXTURE_STATE)
    """The profile names the fixture, but the doctor found it not in the state the profile says: a one-shot node an
    earlier run consumed (its record, or a wiki node no longer wiki), a hidden space novice lists. Never the target's
    failure: the report says how to renew it."""
    SAFETY = ("not allowed by safety", SkipCategory.SAFETY)
    """The profile's [safety] or --read-only forbids what the test would send."""
    WRITE_REFUSED = ("write refused", SkipCategory.SAFETY)
    """--read-only refused a write the test sent (the plugin lists such tests that lack the writes marker)."""
    WRITE_BUDGET = ("write budget spent", SkipCategory.WRITE_BUDGET)
    """The run's write budget ([safety] write_budget, --write-budget) or the test's share of it was spent before the
    test could write: not checked, never the target's failure (--thorough, or a larger budget, checks it)."""
    CONFIGURATION = ("disabled by configuration", SkipCategory.CONFIGURATION)
    """The target's configuration rules the test out (a service version before the feature, not selected)."""
    LIST_TOO_LONG = ("list too long", SkipCategory.LIST_TOO_LONG)
    """A relation that needs a whole list (not a window of it) found the list longer than a run walks: the relation
    is not checked for that list, and the report lists it as not checked beside its rule, never as held."""
    HELD_BACK = ("held back by the target", SkipCategory.HELD_BACK)
    """The target held a request back (429, or 503 with Retry-After) longer than the kit waits (one wait over
    ``holdback.CAP_S``, the test's waits over ``TEST_BUDGET_S``): the target's pace, never its failure."""
    OTHER = ("skipped", SkipCategory.OTHER)
    """Anything else: the target's data or answers leave nothing to check."""

    @classmethod
    def of(cls, value: object) -> SkipKind:
        """The kind named ``value`` (a results file string); a skip that names none (pytest's own) is OTHER."""
        found = cls._value2member_map_.get(str(value))
        return found if isinstance(found, SkipKind) else cls.OTHER


class StopReason(StrEnum):
    """Why a run ended before its verdict, as the results file (``stopped.reason``) and the runner record it.
    ``exit_code``: what :mod:`qaconform.report.verdict` exits with (None: ``no_tests`` depends on the selection)."""

    exit_code: int | None

    def __new__(cls, value: str, exit_code: int | None) -> StopReason:
        obj = str.__new__(cls, value)
        obj._value_ = value
        obj.exit_code = exit_code
        return obj

    PROFILE = ("profile", exitcodes.USAGE)
    """A bad profile or a refused credential: nothing was sent."""
    USAGE = ("usage", exitcodes.USAGE)
    """The command line asked for what cannot be (another target than the resolved one, arguments pytest refused)."""
    UNREACHABLE = ("unreachable", exitcodes.UNREACHABLE)
    """The target does not answer."""
    INTERRUPTED = ("interrupted", exitcodes.INTERRUPTED)
    """Ctrl-C."""
    TIME_BUDGET = ("time_budget", exitcodes.KIT_ERROR)
    """``--timeout`` spent before the suites ended."""
    INTERNAL = ("internal", exitcodes.KIT_ERROR)
    """The kit broke."""
    NO_RESULTS = ("no_results", exitcodes.KIT_ERROR)
    """The suites' pytest wrote no results file."""
    NO_TESTS = ("no_tests", None)
    """pytest collected nothing: a selection that matched nothing (usage) or the kit's suites missing (kit)."""

    @classmethod
    def of(cls, value: object) -> StopReason | None:
        """The reason named ``value``, or None for a name this kit does not know (a results file of another version)."""
        found = cls._value2member_map_.get(str(value))
        return found if isinstance(found, StopReason) else None
