"""The options reference cannot drift: every option of the long commands sits in one ``--help`` group, grouping
changes nothing but the help, docs/options.md is what the parsers say, and its table of ``QACONFORM_*`` variables
names every variable the code reads or sets (issue 47 item 4)."""

from __future__ import annotations

import argparse
import importlib
import re
from pathlib import Path

import pytest

from qaconform.commands import cli, help_groups, options_reference

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "options.md"
CODE = ("qaconform", "loadtests", "suites")
"""Where the variables the kit reads or sets are named."""
ROLES = ("ADMIN", "MODERATOR", "MEMBER", "NOVICE")


@pytest.fixture(scope="module")
def subparsers() -> dict[str, cli.Parser]:
    _parser, unavailable, subs = cli.build_parser()
    assert not unavailable, unavailable
    return subs


def _plain(command: str) -> argparse.ArgumentParser:
    """``command``'s parser as its module builds it, without the groups."""
    parser = cli.Parser(prog=f"qaconform {command}")
    add, _run = cli._entry_points(importlib.import_module(cli.COMMANDS[command].module))
    add(parser)
    return parser


@pytest.mark.parametrize("command", sorted(help_groups.GROUPS))
def test_every_option_of_a_grouped_command_is_in_exactly_one_group(subparsers: dict[str, cli.Parser],
                                                                   command: str) -> None:
    parser = subparsers[command]
    listed = [o for g in help_groups.GROUPS[command] for o in g.options]
    assert len(listed) == len(set(listed)), f"{command}: an option is in two groups: {listed}"
    options = {a.option_strings[0] for a in help_groups.options_of(parser)}
    assert set(listed) - options == set(), f"{command}: help_groups.py names options the command does not have"
    assert options - set(listed) == set(), (f"{command}: give these options a group in "
                                            "qaconform/commands/help_groups.py (GROUPS)")
    ungrouped = [a for g in parser._action_groups if g.title == "options" for a in g._group_actions]
    assert [a.dest for a in ungrouped] == ["help"]


@pytest.mark.parametrize(("command", "argv"), [
    ("run", ["--profile", "p.toml", "--only", "comments", "COMMENT-4", "-j", "2", "--thorough", "--har", "all",
             "--report-dir", "out", "--seed", "3", "--read-only"]),
    ("load", ["-s", "browse", "-u", "20", "-t", "60", "--workers", "2", "--threshold", "total.min_rps=50", "--web",
              "--max-writes", "0"]),
    ("capacity", ["-s", "browse", "--max-time", "120", "--baseline", "old.json", "--no-cleanup"]),
])
def test_grouping_changes_the_help_and_nothing_the_command_parses(subparsers: dict[str, cli.Parser], command: str,
                                                                  argv: list[str]) -> None:
    grouped, plain = subparsers[command], _plain(command)
    assert vars(grouped.parse_args(argv)) == vars(plain.parse_args(argv))
    assert vars(grouped.parse_args([])) == vars(plain.parse_args([]))
    assert grouped.format_usage().split(None, 2)[2] == plain.format_usage().split(None, 2)[2]
    shown = grouped.format_help()
    headings = [f"\n{g.title}:\n" for g in help_groups.GROUPS[command]]
    at = [shown.find(h) for h in headings]
    assert -1 not in at and at == sorted(at), f"{command} --help does not show its groups in order"


def test_the_committed_page_is_rendered_from_the_parsers() -> None:
    assert PAGE.read_text(encoding="utf-8") == options_reference.render(), (
        "docs/options.md is out of date: run `python -m qaconform.commands.options_reference > docs/options.md`")


def variables_named(folders: list[Path]) -> set[str]:
    """Every ``QACONFORM_*`` name in the Python files under ``folders``, a family under one name: a prefix the code
    completes (``QACONFORM_SHAPE_``) as ``QACONFORM_SHAPE_*``, the accounts' passwords as
    ``QACONFORM_<ROLE>_PASSWORD``."""
    found: set[str] = set()
    for folder in folders:
        for path in folder.rglob("*.py"):
            for name in re.findall(r"QACONFORM_[A-Z0-9_]+", path.read_text(encoding="utf-8")):
                if name.endswith("_"):
                    name += "*"
                elif any(name == f"QACONFORM_{role}_PASSWORD" for role in ROLES):
                    name = "QACONFORM_<ROLE>_PASSWORD"
                found.add(name)
    return found


def test_the_variables_table_names_every_variable_the_code_reads_or_sets() -> None:
    named = variables_named([ROOT / f for f in CODE])
    documented = set(options_reference.VARIABLES)
    assert named - documented == set(), "add these to VARIABLES in qaconform/commands/options_reference.py"
    assert documented - named == set(), "VARIABLES names variables no code reads or sets any more"
    assert "QACONFORM_<ROLE>_PASSWORD" in named and "QACONFORM_SHAPE_*" in named


def test_the_variable_check_sees_a_new_variable(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text('import os\nos.environ.get("QACONFORM_NEW_KNOB")\nPREFIX = "QACONFORM_ODD_"\n'
                                   'PW = "QACONFORM_NOVICE_PASSWORD"\n', encoding="utf-8")
    assert variables_named([tmp_path]) == {"QACONFORM_NEW_KNOB", "QACONFORM_ODD_*", "QACONFORM_<ROLE>_PASSWORD"}
