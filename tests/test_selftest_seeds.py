"""seed15 (issue 44): a fault that names the seeded draws its path needs (``Fault.draws``) runs at a seed that draws
them (``qaconform/commands/selftest_seeds.py``), batched per rule and seed, with a clean server's run of its rule's
tests at that seed beside it; the seed is printed with the command that replays the fault."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from qaconform.commands import selftest, selftest_batch, selftest_result, selftest_seeds
from qaconform.kit import pytest_cwd, suites_dir
from qaconform.pytest import seed_draws
from qaconform.reference import faults

NEWEST = "round38-unfavorite-newest-holder"
FIRST = "unfavorite-first-users-favorite"
RULE = "ACTION-UNFAVORITE-PER-USER"
SEED = selftest.DEFAULT_SEED
OWN = SEED + 1
"""The seed round38-unfavorite-newest-holder runs at in a self-test at the default seed: the next, even, one draws
admin's unfavorite first."""


def test_a_fault_naming_a_draw_runs_at_the_first_seed_that_draws_it_after_a_clean_run_of_its_rule_there() -> None:
    tasks, seeds = selftest_seeds.fault_tasks([FIRST, NEWEST, "envelope-listcount-wrong"], SEED, clean=True)
    clean = selftest_seeds.clean_label(RULE, OWN)
    assert tasks == [("clean", None, None, None), (clean, RULE, None, OWN), (FIRST, RULE, None, None),
                     (NEWEST, RULE, None, OWN), ("envelope-listcount-wrong", "PAGING-LISTCOUNT", None, None)]
    assert seeds == {NEWEST: OWN, clean: OWN}
    assert selftest_seeds.fault_tasks([NEWEST], SEED, clean=False) == ([(NEWEST, RULE, None, OWN)], {NEWEST: OWN})
    assert selftest_seeds.fault_tasks([NEWEST], OWN, clean=False) == ([(NEWEST, RULE, None, None)], {}), (
        "a self-test whose own seed draws the fault's path ran it elsewhere")
    assert selftest_seeds.faults_of(clean) == () and selftest_seeds.faults_of(NEWEST) == (NEWEST,)
    assert selftest_seeds.clean_runs([FIRST, NEWEST], SEED) == 1


def test_the_faults_of_one_rule_are_batched_per_seed() -> None:
    clean = selftest_seeds.clean_label(RULE, OWN)
    tasks = [("clean", None, None, None), (clean, RULE, None, OWN), (FIRST, RULE, None, None),
             (NEWEST, RULE, None, OWN), ("other", RULE, None, None)]
    assert selftest_batch.by_rule(tasks, {RULE: ["suites/scenarios/test_node_actions.py"]}) == [
        ("clean", None, None, None), (clean, RULE, (clean, NEWEST), OWN), (FIRST, RULE, (FIRST, "other"), None)]


def test_a_result_says_its_seed_and_how_to_replay_it_and_the_clean_run_at_it_must_pass() -> None:
    clean = selftest_seeds.clean_label(RULE, OWN)
    seeds = {NEWEST: OWN, clean: OWN}
    told: list[str] = []
    progress = selftest_seeds.marking(lambda r: told.append(selftest_result.progress_line(r)), seeds)
    assert progress is not None
    caught = selftest_result.RunResult(label=NEWEST, rule=RULE, failed=[
        {"nodeid": "suites/scenarios/test_node_actions.py::t", "outcome": "failed", "rules": [RULE], "message": ""}])
    red = selftest_result.RunResult(label=clean, rule=RULE, returncode=1, failed=[
        {"nodeid": "suites/scenarios/test_node_actions.py::t", "outcome": "failed", "rules": [RULE], "message": "x"}])
    progress(caught)
    progress(red)
    assert told == [f"{NEWEST}: caught at seed {OWN} (0s)", f"{clean}: FALSE POSITIVES (0s)"]
    result = selftest_result.SelftestResult(faults=[caught], clean=None, seconds=1.0, variants=[red])
    table = selftest_result.format_table(result, frozenset({RULE}))
    assert f"replay: qaconform run --seed {OWN} --reference-fault {NEWEST}" in table
    assert f"FALSE POSITIVE on {clean}" in table and not result.ok, "a test failing on the clean server at the " \
        "fault's seed could catch the fault for it"
    assert "false positives 1/1 (1 of them the clean server's runs of a rule's tests at a fault's own seed)" in table


def test_a_draw_that_names_no_dimension_or_value_is_a_registry_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    assert selftest_seeds.problems() == []
    bad = {"typo": dataclasses.replace(faults.FAULTS[NEWEST], name="typo", draws=("unfavorite order=admin 1st",)),
           "never": dataclasses.replace(faults.FAULTS[NEWEST], name="never", draws=(
               "unfavorite order=admin first", "unfavorite order=member first"))}
    monkeypatch.setattr(faults, "FAULTS", {**faults.FAULTS, **bad})
    found = selftest_seeds.problems()
    assert len(found) == 2 and "'typo'" in found[0] and "unknown draws" in found[0], found
    assert "'never'" in found[1] and "no seed" in found[1], found
    with pytest.raises(ValueError):
        seed_draws.seed_drawing(("no such dimension=x",), 0)


def test_the_fault_is_caught_at_its_own_seed_on_a_clean_server_green_there_and_missed_at_the_other() -> None:
    """The real runs: a batch at the fault's seed (the clean server's run first, then the fault's), collected at that
    seed; and the same fault at the self-test's seed, which draws the other order: missed (why it names a draw)."""
    clean = selftest_seeds.clean_label(RULE, OWN)
    with selftest._forked_pytest():
        files = selftest.rule_files(600)
        assert files is not None and files.get(RULE), "the rule map's collection failed"
        there = selftest._run_rule([clean, NEWEST], RULE, 600, OWN, selftest.ProfileShape(), files[RULE])
        [elsewhere] = selftest._run_rule([NEWEST], RULE, 600, SEED, selftest.ProfileShape(), files[RULE])
    green, fault = there
    assert green.problem is None and not green.failures() and green.counts.get("passed"), green
    assert fault.problem is None and fault.caught, fault
    assert elsewhere.problem is None and not elsewhere.caught, (
        f"{NEWEST} was caught at seed {SEED} (member first): it needs no draw, drop its Fault.draws")


IN_CONTENT = "after25-recipients-comment-after-unwikify-in-authors-content"
"""A fault whose draws need another seed than the self-test's, and whose rule (COMMENT-PRIVACY-CONTENT) only test files
of suites/scenarios/ name: its batch collects those files alone."""


def _helpers_from_another_folder(path: Path) -> set[str]:
    """The modules ``path`` imports by plain name that live in another folder of the suites (none in its own)."""
    others = {p.stem for d in path.parent.parent.iterdir() if d.is_dir() and d != path.parent for p in d.glob("*.py")}
    own = {p.stem for p in path.parent.glob("*.py")}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level}
    names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return {n for n in names if n in others and n not in own}


def test_a_rule_batch_of_one_folders_files_imports_the_helpers_of_the_others(tmp_path: Path) -> None:
    """clean26: the batch of a fault at its own seed collects its rule's files alone (no collector of every suite:
    ``selftest.run_selftest``), in a pytest whose batch folder, a path in /tmp, kept the checkout's pyproject.toml
    (and its ``pythonpath``) from being found; a scenarios test importing a helper of suites/contract then failed
    to import, pytest exited 2, and the fault was reported missed. Every scenarios file that imports another folder's
    helper, collected the way such a batch collects them, imports."""
    files = sorted(str(p.relative_to(suites_dir().parent)) for p in (suites_dir() / "scenarios").glob("test_*.py")
                   if _helpers_from_another_folder(p))
    assert files, "no scenarios test imports a helper of another folder: this test proves nothing any more"
    _, seeds = selftest_seeds.fault_tasks([IN_CONTENT], SEED, clean=False)
    assert seeds.get(IN_CONTENT, SEED) != SEED, f"{IN_CONTENT} runs at the self-test's seed now: pick another fault"
    cmd = selftest._pytest_base(None, seeds[IN_CONTENT], False, files=files)
    batch = selftest_batch.Batch(cmd, selftest._suite_environment(), pytest_cwd(), tmp_path,
                                 lambda full, env: [*full, "--collect-only", "-q"])
    (batch.folder / "end").touch()  # no fault to run: the collection alone
    try:
        batch.proc.wait(timeout=300)
    finally:
        batch.stop()
    log = batch.log_path.read_text(encoding="utf-8", errors="replace")
    assert batch.proc.returncode == 0 and "ERROR collecting" not in log, log[-3000:]


def test_the_fault_whose_rule_only_scenarios_files_name_is_caught_by_its_batch_at_its_own_seed() -> None:
    """The real runs behind the test above: the batch of COMMENT-PRIVACY-CONTENT's files at the fault's seed (the
    clean server's run first, green; then the fault's, caught), as the self-test runs them."""
    rule = faults.FAULTS[IN_CONTENT].rule
    _, seeds = selftest_seeds.fault_tasks([IN_CONTENT], SEED, clean=False)
    own = seeds[IN_CONTENT]
    clean = selftest_seeds.clean_label(rule, own)
    with selftest._forked_pytest():
        files = selftest.rule_files(600)
        assert files is not None and files.get(rule), "the rule map's collection failed"
        green, fault = selftest._run_rule([clean, IN_CONTENT], rule, 600, own, selftest.ProfileShape(), files[rule])
    assert green.problem is None and not green.failures() and green.counts.get("passed"), green
    assert fault.problem is None and fault.caught, fault
