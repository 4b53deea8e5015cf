"""The self-test's variant groups: every variant of the registry switched on in a few servers whose variants compose,
and a failing group bisected until its false positive is named by its variants (on made-up runs: no server)."""

from __future__ import annotations

from qaconform.commands import variant_groups
from qaconform.reference import variants as allowed


def test_the_groups_switch_every_variant_on_in_a_few_servers_that_compose() -> None:
    groups = variant_groups.groups()
    assert groups[0] == (allowed.ALL,), "'all' first: the generated tests and the extra seeds run there"
    covered = {n for g in groups for n in variant_groups.expand(g)}
    assert covered == set(allowed.VARIANTS), sorted(set(allowed.VARIANTS) - covered)
    widest = max(sum(1 for v in allowed.VARIANTS.values() if v.choice == c)
                 for c in {v.choice for v in allowed.VARIANTS.values()} - {None})
    assert len(groups) == widest, "one group per alternative of the widest choice, no more"
    assert len(groups) < len(allowed.VARIANTS) / 5
    for g in groups:
        allowed.expand(g)  # raises on two alternatives of one choice
        assert len(variant_groups.expand(g)) == len(allowed.composable()), g


def test_groups_are_named_by_what_they_add_to_all() -> None:
    groups = variant_groups.groups()
    assert variant_groups.label(groups[0]) == "variant all"
    second = variant_groups.label(groups[1])
    assert second.startswith("variants all with ") and "repeat-is-noop" in second
    assert variant_groups.label(("ties-by-title",)) == "variant ties-by-title"
    assert variant_groups.label(("a", "b")) == "variants a + b"


def _bisect(group: tuple[str, ...], bad: object) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """Bisect ``group`` where a run fails when ``bad(names)``; (the runs made, the groups named)."""
    runs: list[tuple[str, ...]] = []

    def run(names: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
        runs.append(names)
        return names, bool(bad(names))  # type: ignore[operator]

    made = variant_groups.bisect(group, run, lambda r: r[1])
    return runs, variant_groups.named([(group, True), *made])


def test_a_failing_group_is_bisected_to_the_variant_that_gives_the_false_positive() -> None:
    group = tuple(f"v{i}" for i in range(47))
    runs, named = _bisect(group, lambda names: "v29" in names)
    assert named == [("v29",)]
    assert len(runs) <= 2 * 6, f"about two runs per halving, not one per variant: {len(runs)}"


def test_two_culprits_are_both_named_and_a_clash_only_together_names_the_pair() -> None:
    group = tuple(f"v{i}" for i in range(10))
    _, named = _bisect(group, lambda names: "v1" in names or "v8" in names)
    assert sorted(named) == [("v1",), ("v8",)]
    _, named = _bisect(group, lambda names: "v1" in names and "v8" in names)
    assert named == [group], "no half fails alone: the group is named (variants that fail only together)"


def test_groups_that_passed_name_nothing() -> None:
    assert variant_groups.named([(("a", "b"), False), (("a",), False)]) == []
    assert variant_groups.named([(("a", "b"), True), (("a",), False), (("b",), True)]) == [("b",)]


def test_the_table_names_the_variant_a_bisected_group_blamed() -> None:
    from qaconform.commands.selftest_result import RunResult, SelftestResult, format_table

    fp = [{"nodeid": "suites/a.py::t", "outcome": "failed", "rules": ["PAGING-LISTCOUNT"], "message": "m"}]
    group = ("repeat-is-400", "ties-by-title", "page-size-cap-20")
    runs = [RunResult(label="variants all", rule=None, returncode=1, variants=group, failed=fp),
            RunResult(label="variant repeat-is-400", rule=None, returncode=0, variants=group[:1]),
            RunResult(label="variants ...", rule=None, returncode=1, variants=group[1:], failed=fp),
            RunResult(label="variant ties-by-title", rule=None, returncode=0, variants=group[1:2]),
            RunResult(label="variant page-size-cap-20", rule=None, returncode=1, variants=group[2:], failed=fp)]
    table = format_table(SelftestResult(faults=[], clean=None, seconds=1.0, variants=runs))
    assert "false positives named: variant page-size-cap-20" in table, table
    assert "3 variants in 5 runs" in table and "variants: false positives 3/5" in table
