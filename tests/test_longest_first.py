"""The checkout's longest units start first on CI's two workers (qaconform/pytest/parallel.py ``UNITS_FIRST``,
issue 44): in collection order the fault self-test started behind most of tests/ and the variant self-test of its own
file, and the run ended on it. What must hold: the listed units go out first, in the order listed, each alone (a
single test's id leaves its file's other tests in their own unit); only the least urgent unit is queued behind a long
unit while it runs (xdist's worker runs a test once the next one has come); every test still goes out once; and every
unit pyproject.toml lists is a test or a folder that exists (a typo would silently order nothing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from xdist_fakes import FakeNode, make_scheduler

from qaconform.pytest.parallel import UNITS_BY_FILE, UNITS_BY_FOLDER, UNITS_FIRST

ROOT = Path(__file__).resolve().parents[1]
SLOW = "tests/test_selftest.py::test_the_slow_one"
FIRST = [SLOW, "tests/hostile/", "tests/test_parallel_run.py"]
COLLECTION = ([f"tests/hostile/test_run_hostile.py::test_{i}" for i in range(4)]
              + [f"tests/test_init.py::test_{i}" for i in range(3)]
              + [f"tests/test_parallel_run.py::test_{i}" for i in range(2)]
              + ["tests/test_selftest.py::test_fast", SLOW, "tests/test_selftest.py::test_fast_too"]
              + [f"suites/contract/test_x.py::test_{i}" for i in range(5)]
              + [f"suites/contract/test_list_relations.py::test_relation[listSpaces-{i}]" for i in range(3)])


def _scheduler(first: list[str]) -> Any:
    return make_scheduler(2, {UNITS_FIRST: first, UNITS_BY_FILE: ["tests/"], UNITS_BY_FOLDER: ["tests/hostile/"]})


def _given(node: FakeNode, sched: Any) -> list[str]:
    return [sched.registered_collections[node][i] for batch in node.sent for i in batch]


def _runnable(node: FakeNode, sched: Any) -> list[str]:
    """What the worker runs now: xdist's worker runs a test only once the one after it has come (or its shutdown)."""
    given = _given(node, sched)
    return given if node.shutting_down else given[:-1]


def test_the_listed_units_go_out_first_in_order_each_alone_with_only_a_single_test_queued_behind() -> None:
    sched = _scheduler(FIRST)
    assert sched._split_scope(SLOW) == SLOW
    assert sched._split_scope("tests/test_selftest.py::test_fast") == "tests/test_selftest.py", "the rest of its file"
    assert sched._split_scope("tests/hostile/test_run_hostile.py::test_2") == "tests/hostile/"
    one, two = FakeNode("gw0"), FakeNode("gw1")
    for node in (one, two):
        sched.add_node(node)
        sched.add_node_collection(node, list(COLLECTION))
    sched.schedule()
    behind = _given(one, sched)[1:]
    assert _given(one, sched)[0] == SLOW and _runnable(one, sched) == [SLOW], "the longest unit first, and it runs"
    assert len(behind) == 1 and behind[0].startswith("suites/contract/test_x.py::"), (
        "behind it only the least urgent unit, a single test")
    hostile = [f"tests/hostile/test_run_hostile.py::test_{i}" for i in range(4)]
    assert _given(two, sched)[:4] == hostile
    for nodeid in hostile:  # the hostile folder ends: its worker takes the next listed unit
        sched.mark_test_complete(two, COLLECTION.index(nodeid))
    assert "tests/test_parallel_run.py::test_0" in _given(two, sched)[4:6]
    assert _given(one, sched)[1:] == behind, "still nothing more behind the long unit while it runs"
    sched.mark_test_complete(one, COLLECTION.index(SLOW))
    sched.mark_test_complete(one, COLLECTION.index(behind[0]))
    assert len(_given(one, sched)) > 2, "once it ends, its worker takes the next unit"
    while not sched.tests_finished:  # the rest, completed in the order sent
        for node in (one, two):
            for nodeid in _given(node, sched):
                if not sched.assigned_work[node].get(sched._split_scope(nodeid), {}).get(nodeid, True):
                    sched.mark_test_complete(node, COLLECTION.index(nodeid))
    given = sorted(_given(one, sched) + _given(two, sched))
    assert given == sorted(COLLECTION), "every test went out once"


def test_without_the_option_the_order_is_as_before() -> None:
    sched = _scheduler([])
    assert sched._split_scope(SLOW) == "tests/test_selftest.py"
    one = FakeNode("gw0")
    sched.add_node(one)
    sched.add_node_collection(one, list(COLLECTION))
    sched.schedule()
    assert _given(one, sched)[0].startswith("suites/contract/test_list_relations.py::"), "the relations read first"


def test_every_unit_the_checkout_lists_first_exists(pytestconfig: pytest.Config) -> None:
    listed = pytestconfig.getini(UNITS_FIRST)
    assert listed, f"pyproject.toml lists no {UNITS_FIRST}: CI's longest units would start in collection order"
    for prefix in listed:
        path, _, name = prefix.partition("::")
        assert (ROOT / path).exists(), f"{UNITS_FIRST} lists {prefix!r}: no such file or folder; fix pyproject.toml"
        if name:
            assert f"def {name}(" in (ROOT / path).read_text(encoding="utf-8"), (
                f"{UNITS_FIRST} lists {prefix!r}: no such test in {path}; fix pyproject.toml")


def test_fewer_units_than_workers_let_go_of_the_worker_still_collecting() -> None:
    """``pytest -n 2`` on one file of the kit's tests (one unit): the worker whose collection came first keeps it,
    the other one, let go, is not an INTERNALERROR when its collection comes."""
    sched = _scheduler([])
    first, late = FakeNode("gw0"), FakeNode("gw1")
    sched.add_node(first)
    sched.add_node(late)
    one_file = [f"tests/test_init.py::test_{i}" for i in range(3)]
    sched.add_node_collection(late, list(one_file))  # gw1, added last, collected first
    sched.schedule()
    assert _given(late, sched) == one_file and first.shutting_down and not first.sent
    sched.add_node_collection(first, list(one_file))
    sched.schedule()
    assert not first.sent, "nothing for the worker let go"


def test_when_the_queue_runs_out_every_worker_is_told_so_its_last_test_runs() -> None:
    """A worker given its last unit when the queue ran out (here: the variant self-test, to the worker whose collection
    came second) runs it only once told that nothing follows: xdist's worker waits for the next test otherwise."""
    variant = "tests/test_selftest.py::test_the_variant_one"
    sched = _scheduler([SLOW, variant])
    one, two = FakeNode("gw0"), FakeNode("gw1")
    for node in (one, two):
        sched.add_node(node)
    collection = [SLOW, variant, "tests/test_selftest.py::test_fast"]
    sched.add_node_collection(one, list(collection))
    sched.schedule()
    assert _given(one, sched) == [SLOW, "tests/test_selftest.py::test_fast"]
    sched.add_node_collection(two, list(collection))
    sched.schedule()
    assert _given(two, sched) == [variant] and _runnable(two, sched) == [variant], "told: its one test runs"
    assert _runnable(one, sched) == _given(one, sched)
