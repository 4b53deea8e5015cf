"""docs/options.md, the one page that lists every option of every command and every ``QACONFORM_*`` variable.

The options are documented once, in their ``help=`` where they are defined; this page is rendered from the parsers
themselves (grouped as ``--help`` groups them: :mod:`qaconform.commands.help_groups`), so it cannot say what a
parser no longer does. The environment variables have no parser: :data:`VARIABLES` is their table, and
tests/package/test_options_reference.py checks that it names every variable the code reads or sets, and that the
committed page is this module's output. Regenerate it with::

    python -m qaconform.commands.options_reference > docs/options.md
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from qaconform.commands import help_groups
from qaconform.commands.cli import COMMANDS, build_parser

YOU = "you"
KIT = "the kit"


@dataclass(frozen=True)
class Variable:
    """One environment variable: who sets it (:data:`YOU`, or :data:`KIT` for the processes it starts) and why."""

    set_by: str
    meaning: str


VARIABLES: dict[str, Variable] = {
    # the target
    "QACONFORM_PROFILE": Variable(YOU, "the target profile, for plain `python -m pytest` (`--target-profile`) and a "
                                       "locustfile debugged as a script; never given to the Locust processes of "
                                       "`qaconform load` (they read `QACONFORM_TARGET`)"),
    "QACONFORM_BASE_URL": Variable(YOU, "replaces the profile's `base_url` for every command (one run tests one "
                                        "target: a resolved target.json for another URL stops the run)"),
    "QACONFORM_<ROLE>_PASSWORD": Variable(YOU, "an account's password when the profile names it by `password_env` "
                                               "(`qaconform init` writes `QACONFORM_ADMIN_PASSWORD` ...); the "
                                               "report's curl lines use the same names, and the profile of "
                                               "`qaconform serve --profile-out` too: `eval \"$(qaconform serve "
                                               "--print-env)\"` sets the demo accounts' ones"),
    "QACONFORM_REFERENCE_*": Variable(YOU, "deprecated: `QACONFORM_REFERENCE_<ROLE>_PASSWORD`, the old name of "
                                          "`QACONFORM_<ROLE>_PASSWORD` that `qaconform serve` used before qa17; "
                                          "still read, with a message, where the new name is not set (and the other "
                                          "way round for a profile written by an older `serve --profile-out`)"),
    # the run
    "QACONFORM_JOBS": Variable(YOU, "`qaconform run --jobs` when the option is not given (a CI job's setting)"),
    "QACONFORM_FAIL_UNDER": Variable(YOU, "`qaconform run --fail-under` when the option is not given"),
    "QACONFORM_WRITE_BUDGET": Variable(YOU, "plain pytest's `--write-budget` (`qaconform run` passes its own)"),
    "QACONFORM_BUILD": Variable(YOU, "a build number: `qaconform run` without `--seed` takes the seed draws' "
                                     "rotation turn it gives (docs/ci.md; else a CI service's own build number, "
                                     "else the turn kept beside the profile)"),
    "QACONFORM_SEED": Variable(YOU, "the generated tests' seed under plain pytest (`qaconform run --seed` sets it)"),
    "QACONFORM_MAX_EXAMPLES": Variable(YOU, "examples per generated test under plain pytest (`qaconform run "
                                            "--max-examples` sets it)"),
    "QACONFORM_TIME_BUDGET": Variable(YOU, "the generated tests' time budget in seconds under plain pytest"),
    "QACONFORM_RUN_TAG": Variable(YOU, "plain pytest's `--run-tag`, the tag in everything a run creates; `qaconform "
                                       "load` sets it for its Locust processes"),
    "QACONFORM_EXCHANGE_LOG": Variable(YOU, "a folder: every request of the run logged there, one JSON line each "
                                            "(bench/request_table.py reads it); unset, no log"),
    "QACONFORM_FORK_WORKERS": Variable(YOU, "`0` starts every pytest worker as its own interpreter instead of "
                                            "forking it from a prepared server (Linux)"),
    # the self-test's batches (ci5: qaconform/commands/selftest_batch.py)
    "QACONFORM_SELFTEST_BATCH": Variable(YOU, "`0` gives each fault of `qaconform selftest` a pytest of its own "
                                              "instead of one collection per rule forked for each fault"),
    "QACONFORM_SELFTEST_GENERATED_FIRST": Variable(YOU, "`0`: a fault of `qaconform selftest` the other tests miss is "
                                                        "run again with its rule's files and the generated tests at "
                                                        "once, not the generated tests alone first"),
    "QACONFORM_SELFTEST_CATCHERS": Variable(YOU, "`0`: `qaconform selftest --until-caught` runs no fault's last "
                                                 "catch first (selftest_catchers.json; a miss so is rerun in the "
                                                 "rule's order on a fresh server either way)"),
    # the kit's folders
    "QACONFORM_SPEC_DIR": Variable(YOU, "your copy of spec/ (`qaconform run --spec` sets it)"),
    "QACONFORM_SUITES_DIR": Variable(YOU, "your copy of suites/ (`qaconform run --suites` sets it)"),
    "QACONFORM_LOADTESTS": Variable(YOU, "your copy of loadtests/"),
    "QACONFORM_DOCS_DIR": Variable(YOU, "your copy of docs/"),
    # what the kit hands the processes it starts
    "QACONFORM_TARGET": Variable(KIT, "the resolved target.json a Locust process tests"),
    "QACONFORM_FORK_SERVER": Variable(KIT, "where a pytest worker finds the fork server it is started from"),
    "QACONFORM_PASSWORD_NAMES_SAID": Variable(KIT, "`1` in the suites' pytest processes of `qaconform run`: the run "
                                                   "has said which password variables it read by their deprecated "
                                                   "name, so they do not say it again"),
    "QACONFORM_RUN_DIR": Variable(KIT, "the load run's folder, where each Locust process writes its figures"),
    "QACONFORM_RATE_PER_USER": Variable(KIT, "`qaconform load --rate`: requests per second each Locust user starts"),
    "QACONFORM_WAIT_MS": Variable(KIT, "`qaconform load --wait-ms`: a Locust user's think time"),
    "QACONFORM_WINDOW_S": Variable(KIT, "a capacity step: keep figures per window of this many seconds"),
    "QACONFORM_ONE_SHOTS": Variable(KIT, "`0`: a Locust process sends no one-shot fixture call (capacity steps)"),
    "QACONFORM_MAX_WRITES": Variable(KIT, "`qaconform load --max-writes` for the Locust processes (`none`: no limit)"),
    "QACONFORM_MAX_WRITE_RPS": Variable(KIT, "`qaconform load --max-write-rps` for the Locust processes"),
    "QACONFORM_SHAPE_*": Variable(KIT, "`qaconform load --shape`'s knobs (`--steps`, `--ramp`, `--shape-option`) "
                                       "for the load shape's class"),
}
"""Every ``QACONFORM_*`` variable, by name (a family as ``QACONFORM_<ROLE>_PASSWORD``, ``QACONFORM_SHAPE_*``)."""


def _spelling(action: argparse.Action) -> str:
    """``--jobs N, -j N``: every spelling of an option with the value it takes, or a positional's name."""
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    if action.nargs == 0:
        value = ""
    elif action.metavar is not None:
        value = f" {action.metavar if isinstance(action.metavar, str) else ' '.join(action.metavar)}"
    elif action.choices is not None:
        value = " {" + ",".join(map(str, action.choices)) + "}"
    else:
        value = f" {action.dest.upper()}"
    return ", ".join(f"`{s}{value}`" for s in action.option_strings)


def _markdown(text: str) -> str:
    """``text`` as Markdown shows it: ``<run>`` outside a code span escaped (else it is taken for an HTML tag)."""
    parts = " ".join(text.split()).split("`")
    return "`".join(p if i % 2 else p.replace("<", "&lt;").replace(">", "&gt;") for i, p in enumerate(parts))


def _help(action: argparse.Action, prog: str) -> str:
    text = action.help or ""
    if "%" in text:
        text = text % {**vars(action), "prog": prog}
    return _markdown(text)


def _items(actions: list[argparse.Action], prog: str) -> list[str]:
    return [f"- {_spelling(a)}: {_help(a, prog)}" for a in actions]


def _command(name: str, parser: argparse.ArgumentParser) -> list[str]:
    lines = [f"## qaconform {name}", "", f"{COMMANDS[name].summary[0].upper()}{COMMANDS[name].summary[1:]}.", ""]
    positionals = [a for a in parser._actions if not a.option_strings]
    if positionals:
        lines += ["Arguments:", "", *_items(positionals, parser.prog), ""]
    groups = help_groups.GROUPS.get(name)
    options = help_groups.options_of(parser)
    if not groups:
        return [*lines, *(["Options:", "", *_items(options, parser.prog), ""] if options else [])]
    by_spelling = {a.option_strings[0]: a for a in options}
    for group in groups:
        lines += [f"### {group.title}", "", _markdown(f"{group.description[0].upper()}{group.description[1:]}."), ""]
        lines += [*_items([by_spelling[o] for o in group.options if o in by_spelling], parser.prog), ""]
    return lines


def render() -> str:
    """The whole page, from the kit's parsers and :data:`VARIABLES`."""
    _parser, unavailable, subparsers = build_parser()
    if unavailable:
        raise RuntimeError(f"cannot render every command's options: {unavailable}")
    lines = [
        "# Every option and variable",
        "",
        "Rendered from the commands' own parsers by `python -m qaconform.commands.options_reference > "
        "docs/options.md` (the kit's tests check that it is up to date). `qaconform COMMAND --help` shows the same "
        "options in the same groups; the other pages explain when to use them. Under plain `python -m pytest`, the "
        "plugin's options are in `python -m pytest --help` (group \"qaconform\").",
        "",
    ]
    for name, parser in subparsers.items():
        lines += _command(name, parser)
    lines += ["## Environment variables", "",
              "Those set by *you* change what a command does; those set by *the kit* are how it hands its settings to "
              "the processes it starts (pytest workers, Locust), listed so that none surprises you in a process "
              "listing.", "", "| variable | set by | what it does |", "| --- | --- | --- |"]
    lines += [f"| `{name}` | {v.set_by} | {v.meaning} |" for name, v in VARIABLES.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
