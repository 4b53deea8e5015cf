"""The options of the long commands grouped by what a user is doing, for ``--help`` and docs/options.md.

``qaconform run`` has 25 options and ``qaconform load`` 28: one alphabet-soup list hides the three a first user
needs among the ones a CI job or a load engineer sets once. Each command's options are defined where they are
used (run_options.py, load/cli.py, report/options.py ...); this table only says which group shows each one, so
grouping never changes an option's name or behaviour. The rarely used ones come last, under their own title.
:func:`arrange` applies it to a command's parser after its options were added; every option of a grouped command
sits in exactly one group (tests/package/test_options_reference.py), so a new option without a group fails the
kit's tests instead of landing in an "options" list of its own.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass


@dataclass(frozen=True)
class Group:
    """One heading of a command's ``--help``: what the user is doing, and the options (by first spelling) for it."""

    title: str
    description: str
    options: tuple[str, ...]


RARELY_USED = "rarely used"

GROUPS: dict[str, tuple[Group, ...]] = {
    "run": (
        Group("target", "which server is checked (without --profile: the embedded reference server)",
              ("--profile",)),
        Group("what to run", "which rules, how deep, and a load run after the suites",
              ("--only", "--thorough", "--load")),
        Group("writes and safety", "what the run may change on the target",
              ("--read-only", "--dry-run", "--write-budget", "--no-cleanup")),
        Group("reports and the exit code", "where the files go and what fails the run",
              ("--out", "--report-dir", "--junitxml", "--har", "--baseline", "--keep-all", "--allure", "--expect",
               "--strict", "--fail-under")),
        Group("parallelism and time", "how many workers, and how long the suites may take",
              ("--jobs", "--timeout")),
        Group(RARELY_USED, "other copies of spec/ and suites/, the generated tests' dials, a planted fault",
              ("--spec", "--suites", "--max-examples", "--seed", "--reference-fault")),
    ),
    "load": (
        Group("target", "which server is loaded (without --profile or --target-file: the embedded reference server)",
              ("--profile", "--target-file")),
        Group("load shape", "which users do what, how many, how fast and for how long",
              ("--scenario", "--users", "--spawn-rate", "--duration", "--rate", "--wait-ms", "--shape", "--steps",
               "--ramp", "--shape-option")),
        Group("writes and safety", "what the load may change on the target",
              ("--max-writes", "--max-write-rps", "--no-write-budget", "--no-cleanup")),
        Group("limits and reports", "the pass/fail limits and where the files go",
              ("--thresholds", "--threshold", "--report-dir")),
        Group("parallelism", "Locust worker processes, on this machine or others",
              ("--workers", "--remote-workers", "--master-host", "--master-bind-host", "--master-port")),
        Group(RARELY_USED, "Locust's web UI during the run, and the check that every write shows",
              ("--web", "--web-host", "--web-port", "--no-lost-check")),
    ),
    "capacity": (
        Group("target", "which server is measured (without --profile: the embedded reference server)",
              ("--profile",)),
        Group("the search", "which scenario, how long, how fine",
              ("--scenario", "--max-time", "--precision", "--step-duration", "--start-rate", "--probe-users",
               "--wait-ms")),
        Group("writes and safety", "what the steps may change on the target",
              ("--max-writes", "--max-write-rps", "--no-write-budget", "--no-cleanup")),
        Group("limits, reports and the exit code", "the limits a step must hold, where the files go, a baseline",
              ("--thresholds", "--threshold", "--report-dir", "--baseline", "--tolerance")),
        Group("is this build slower?", "both builds now, in turn under the same load: what holds on a busy machine",
              ("--baseline-target", "--rounds", "--round-s")),
        Group("parallelism", "Locust worker processes on this machine", ("--workers",)),
    ),
}
"""Command -> its option groups, in the order ``--help`` shows them. Commands not named keep one plain list."""


def options_of(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options ``--help`` shows but ``--help`` itself, in the order they were added (an option whose help is
    suppressed is the kit's own plumbing, e.g. `serve --exit-with-parent`: not shown, not documented)."""
    return [a for a in parser._actions
            if a.option_strings and a.help != argparse.SUPPRESS and not isinstance(a, argparse._HelpAction)]


def arrange(parser: argparse.ArgumentParser, command: str) -> None:
    """Show ``command``'s options under :data:`GROUPS`' headings; an option the table does not name stays in the
    parser's own "options" list (the kit's tests refuse that). Only the help changes: argparse parses from the
    parser's actions, which keep their order, and a group is only where ``--help`` prints an action."""
    groups = GROUPS.get(command)
    if not groups:
        return
    by_spelling = {s: a for a in options_of(parser) for s in a.option_strings}
    for group in groups:
        heading = parser.add_argument_group(group.title, group.description)
        for spelling in group.options:
            action = by_spelling.get(spelling)
            if action is None:
                continue  # an option the command lost: the reference test names it
            for other in parser._action_groups:
                if action in other._group_actions:
                    other._group_actions.remove(action)
            heading._group_actions.append(action)
