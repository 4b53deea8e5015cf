"""`qaconform run` option handling: --only to pytest selection, --load to the load command."""

from __future__ import annotations

from pathlib import Path

import pytest

from qaconform.commands.run import _combine_marker, load_command, plan_selection
from qaconform.contract import Rule
from qaconform.errors import UsageError

RULES = [Rule("PAGING-LISTCOUNT", area="paging"), Rule("PAGING-PAGECOUNT", area="paging"),
         Rule("CONV-JSON-EXTENSION", area="conventions"), Rule("COMMENT-4", area="comments"),
         Rule("COMMENT-6", area="comments")]


def test_areas_alone_become_a_marker_expression() -> None:
    plan = plan_selection(["paging", "comments"], RULES)
    assert plan.pytest_args == ["-m", "paging or comments"]
    assert (plan.areas, plan.rules) == (["paging", "comments"], [])


def test_rule_ids_and_prefixes_become_rule_options() -> None:
    plan = plan_selection(["COMMENT-4", "PAGING-*"], RULES)
    assert plan.pytest_args == ["--rule", "COMMENT-4", "--rule", "PAGING-*"]


def test_areas_with_rules_mean_the_union_so_the_area_is_expanded_to_its_rule_ids() -> None:
    plan = plan_selection(["COMMENT-4", "paging"], RULES)
    assert plan.pytest_args == ["--rule", "COMMENT-4", "--rule", "PAGING-LISTCOUNT", "--rule", "PAGING-PAGECOUNT"]


def test_a_rule_area_that_is_no_marker_is_expanded_to_rule_ids() -> None:
    assert plan_selection(["conventions"], RULES).pytest_args == ["--rule", "CONV-JSON-EXTENSION"]


def test_marker_only_areas_cannot_be_mixed_with_rule_ids() -> None:
    with pytest.raises(UsageError, match="two runs"):
        plan_selection(["properties", "COMMENT-4"], RULES)


def test_an_unknown_token_is_refused_with_a_suggestion() -> None:
    with pytest.raises(UsageError, match="did you mean COMMENT-4"):
        plan_selection(["COMMENT-44"], RULES)
    with pytest.raises(UsageError, match="did you mean paging"):
        plan_selection(["pagng"], RULES)


def test_comma_separated_tokens_are_accepted_once() -> None:
    assert plan_selection(["paging,comments", "paging"], RULES).areas == ["paging", "comments"]


def test_no_only_selects_everything() -> None:
    plan = plan_selection([], RULES)
    assert plan.pytest_args == [] and plan.areas == [] and plan.rules == []


def test_load_smoke_is_a_ten_second_mixed_run_in_the_run_folder(tmp_path: Path) -> None:
    cmd = load_command("smoke", "p.toml", tmp_path / "load")
    assert cmd is not None
    assert cmd[1:] == ["-m", "qaconform.commands.cli", "load", "--profile", "p.toml",
                       "--report-dir", str(tmp_path / "load"),
                       "--scenario", "mixed", "--duration", "10"]
    other = load_command("browse", "p.toml", tmp_path)
    assert other is not None and other[-2:] == ["--scenario", "browse"]
    assert load_command(None, "p.toml", tmp_path) is None


def test_a_dry_run_marker_expression_is_combined_with_the_selection() -> None:
    assert _combine_marker(["-m", "paging or comments"], "writes") == ["-m", "(paging or comments) and (writes)"]
    assert _combine_marker(["--rule", "X"], "writes") == ["--rule", "X", "-m", "writes"]
