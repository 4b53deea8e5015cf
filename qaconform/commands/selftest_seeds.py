"""The seed each fault of a self-test runs at: the self-test's own, or the first seed from it that draws the values
of the suites' seeded dimensions the fault names (``Fault.draws``, ``qaconform/pytest/seed_draws.py``).

Why: some dimensions are drawn by the run's seed because trying every value in one run would cost accepted writes
(favorite_node_id's two holders unfavorite it in one order a run: two writes, one node; both orders would need a
second node held by both and two writes more). A fault that bites on one value only was caught on half the seeds,
and one self-test seed could not catch two faults that need opposite values (round38-unfavorite-newest-holder against
unfavorite-first-users-favorite and round21-unfavorite-newest-favorite). Such a fault names its draw, and runs at a
seed drawing it: its task carries the seed, the faults of one rule at one seed share one batch
(``selftest_batch.by_rule``), and a batch at another seed than the self-test's collects its rule's files at that
seed (the long-lived collections of every suite are the self-test's seed's).

"Caught" still means a failure charged to the fault's rule. Where the clean run is on, each (rule, seed) a fault runs
at besides the self-test's own gets a clean server too, over the same tests at that seed (the first run of that
batch): a failure there is a false positive, as on a variant, so no test failing at that seed anyway can catch a
fault for it. Each such fault's seed is printed with how to replay it (``qaconform run --seed N --reference-fault
NAME``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from qaconform.commands.selftest_batch import Task
from qaconform.commands.selftest_result import RunResult

CLEAN_PREFIX = "clean server, seed "
"""The label of a clean server's run of one rule's tests at a fault's own seed: ``clean server, seed N, RULE``."""


def fault_seed(name: str, seed: int) -> int:
    """The seed fault ``name`` runs at in a self-test at ``seed``: ``seed`` unless the fault names draws it does not
    give, else the first seed after it that gives them all."""
    from qaconform.pytest.seed_draws import seed_drawing
    from qaconform.reference import faults as registry

    return seed_drawing(registry.FAULTS[name].draws, seed)


def own_seeds(names: Iterable[str], seed: int) -> dict[str, int]:
    """The faults among ``names`` that run at a seed other than ``seed``, with that seed."""
    found = {name: fault_seed(name, seed) for name in names}
    return {name: at for name, at in found.items() if at != seed}


def clean_label(rule: str, seed: int) -> str:
    return f"{CLEAN_PREFIX}{seed}, {rule}"


def is_clean(label: str | None) -> bool:
    """Whether ``label`` is a clean server's run at a fault's own seed (its server has no fault on)."""
    return bool(label) and str(label).startswith(CLEAN_PREFIX)


def fault_tasks(names: Sequence[str], seed: int, clean: bool) -> tuple[list[Task], dict[str, int]]:
    """The clean run's task (``clean``) and the faults', each with its own seed where it is not ``seed`` (else
    None), and (``clean``) before the faults of each (rule, other seed) the clean server's run of that rule at that
    seed; with every label's seed that is not ``seed``."""
    from qaconform.reference import faults as registry

    seeds = own_seeds(names, seed)
    tasks: list[Task] = []
    for name in names:
        rule, at = registry.FAULTS[name].rule, seeds.get(name)
        if at is not None and clean and clean_label(rule, at) not in seeds:
            seeds[clean_label(rule, at)] = at
            tasks.append((clean_label(rule, at), rule, None, at))
        tasks.append((name, rule, None, at))
    head: list[Task] = [("clean", None, None, None)] if clean else []
    return [*head, *sorted(tasks, key=lambda t: not is_clean(t[0]))], seeds


def mark(res: RunResult, seeds: dict[str, int]) -> RunResult:
    """``res`` with the seed it ran at when not the self-test's; a clean server's run at a fault's seed becomes a
    run every test must pass (as a variant's: ``variants`` ``("clean",)``)."""
    if res.label in seeds:
        res.seed = seeds[res.label]
        if is_clean(res.label):
            res.variants = ("clean",)
    return res


def marking(progress: Callable[[RunResult], None] | None,
            seeds: dict[str, int]) -> Callable[[RunResult], None] | None:
    """``progress`` that first :func:`mark` s each result (its line then says the seed)."""
    if progress is None or not seeds:
        return progress
    told = progress
    return lambda res: told(mark(res, seeds))


def clean_runs(names: Sequence[str], seed: int) -> int:
    """How many clean runs at the faults' own seeds a self-test with the clean run adds (one a rule and seed)."""
    from qaconform.reference import faults as registry

    return len({(registry.FAULTS[name].rule, at) for name, at in own_seeds(names, seed).items()})


def faults_of(label: str | None) -> tuple[str, ...]:
    """The faults a run's server has on: its label's, none for the clean run (None) or a clean run at a seed."""
    return () if label is None or is_clean(label) else (label,)


def announce(names: Sequence[str], seed: int, clean_runs: int = 0) -> str:
    """The self-test's first line's word on the faults that run at a seed of their own ('' when none)."""
    seeds = own_seeds(names, seed)
    if not seeds:
        return ""
    shown = ", ".join(f"{name} at seed {at}" for name, at in sorted(seeds.items()))
    more = f"; {clean_runs} clean run(s) of their rules' tests at those seeds" if clean_runs else ""
    return f" ({shown}: the draws they name{more})"


def problems() -> list[str]:
    """Faults of the registry whose draws name no seeded dimension's value, or that no seed gives together."""
    from qaconform.pytest.seed_draws import seed_drawing
    from qaconform.reference import faults as registry

    found = []
    for f in registry.FAULTS.values():
        if f.draws:
            try:
                seed_drawing(f.draws, 0)
            except ValueError as exc:
                found.append(f"fault {f.name!r}: {exc}")
    return found
