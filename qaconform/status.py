"""Rule statuses, test outcomes and rule levels: the one table every output of the report reads.

The model decides a status, and then junit, report.json, report.html, the terminal summary, the exit code and
``qaconform diff`` each need to know what that status *means* (does it fail the run, is it the kit's fault, does
it get its own section at the top of the page, which colour). Keeping those facts here, one line per status,
means a new status (``blocked``) or a new level (``should``) is one line in this file, not a hunt through six
modules that each had their own tuple of names.

Members are listed in the order report.html shows them: what needs a person's attention first.
"""

from __future__ import annotations

from enum import Enum, StrEnum


class Effect(Enum):
    """What a rule in a status says about the run."""

    BROKE = "the target broke the rule"
    WARN = "the target missed a should-rule: a warning, which fails the run only with --strict"
    KIT = "the kit broke, not the target"
    HELD = "the rule held (or was observed)"
    NONE = "no verdict on the rule"


class Status(StrEnum):
    """A rule's status in report.json; the members that are also test outcomes are written by the pytest plugin."""

    # Fields: value, colour, effect, test outcome?, JUnit element of a test with it, heading of its own section at
    # the top of report.html (None: it appears only in the rule table).
    colour: str
    effect: Effect
    outcome: bool
    junit: str | None
    heading: str | None

    def __new__(cls, value: str, colour: str, effect: Effect, outcome: bool, junit: str | None,
                heading: str | None) -> Status:
        obj = str.__new__(cls, value)
        obj._value_ = value
        obj.colour, obj.effect, obj.outcome, obj.junit, obj.heading = colour, effect, outcome, junit, heading
        return obj

    FAILED = ("failed", "#b91c1c", Effect.BROKE, True, "failure", "Failed rules")
    # a failed should-rule on a run that is not --strict: neither passed nor failed anywhere (JUnit: skipped of type
    # qaconform.warning; pytest's own terminal: WARNING); its section of the page is html_page._warnings
    WARNING = ("warning", "#ca8a04", Effect.WARN, True, "skipped", None)
    ERROR = ("error", "#7e22ce", Effect.KIT, True, "error", "Errors: the kit broke, not the target")
    BLOCKED = ("blocked", "#c2410c", Effect.NONE, True, "skipped", "Blocked: tests that could not run (the target "
               "broke another rule, or gave no answer)")
    OBSERVED = ("observed", "#0369a1", Effect.HELD, True, None, None)
    PASSED = ("passed", "#15803d", Effect.HELD, True, None, None)
    SKIPPED = ("skipped", "#a16207", Effect.NONE, True, "skipped", None)
    NOT_COVERED = ("not covered", "#64748b", Effect.NONE, False, None, None)

    @property
    def slug(self) -> str:
        """The CSS class suffix (``not-covered``)."""
        return self.value.replace(" ", "-")

    @property
    def rank(self) -> int:
        """Position in the failures-first order (0 = worst); also how two results of one test are merged."""
        return list(Status).index(self)

    @classmethod
    def of(cls, value: object) -> Status | None:
        """The status named ``value`` (a report.json string), or None for a name this kit does not know."""
        found = cls._value2member_map_.get(str(value))
        return found if isinstance(found, Status) else None


STATUSES: tuple[str, ...] = tuple(s.value for s in Status)
"""Rule statuses, in the order the summary shows them (failures first)."""
OUTCOMES: tuple[str, ...] = tuple(s.value for s in Status if s.outcome)
"""Test outcomes written by the pytest plugin."""


def rank(value: object) -> int:
    """The failures-first rank of a status name; unknown names sort last."""
    s = Status.of(value)
    return s.rank if s is not None else len(Status)


class Level(StrEnum):
    """A rule's level in spec/rules.yaml. ``fails_run``: whether a failure of such a rule fails the run (exit 1);
    a failure of a level that does not is reported apart, as a warning."""

    fails_run: bool
    label: str

    def __new__(cls, value: str, fails_run: bool, label: str) -> Level:
        obj = str.__new__(cls, value)
        obj._value_ = value
        obj.fails_run, obj.label = fails_run, label
        return obj

    MUST = ("must", True, "must: the description states it")
    SHOULD = ("should", False, "should: no sentence states it, every well-behaved server meets it (a warning)")
    # an observed rule's test fails only when the kit could not make the request at all: still a failure
    OBSERVED = ("observed", True, "observed: the description is silent; what the target does is recorded")

    @classmethod
    def of(cls, value: object) -> Level:
        """The level named ``value``; an unknown level is treated as must (never hide a failure)."""
        found = cls._value2member_map_.get(str(value))
        return found if isinstance(found, Level) else cls.MUST


def fails_run(rule: object) -> bool:
    """Whether a failed rule (a report.json rule entry) fails the run, by its level."""
    level = rule.get("level") if isinstance(rule, dict) else getattr(rule, "level", "must")
    return Level.of(level).fails_run
