"""Forked workers collect at most one per slot (qaconform/pytest/collect_gate.py), and the scheduler starts with the
first collection that arrives (qaconform/pytest/parallel.py ``GroupScheduling``): the first workers test while the
others still collect (issue 31). What must hold whatever the timing: no more collections at once than slots, a slot
freed when its holder dies, no run stopped by the gate, and a worker given work only once its own collection is in
and equal to the first one."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from xdist_fakes import FakeNode, make_scheduler

from qaconform.pytest import collect_gate
from qaconform.pytest.parallel import UNITS_BY_FILE, UNITS_BY_FOLDER


def test_no_more_collections_at_once_than_slots_and_none_is_stopped(tmp_path: Path) -> None:
    collect_gate.open_slots(tmp_path, 2)
    try:
        with collect_gate.slot() as one, collect_gate.slot() as two:
            assert one and two
            began = time.monotonic()
            with collect_gate.slot(patience_s=0.3) as three:
                assert not three, "both slots are held: a third collection waits"
                assert time.monotonic() - began >= 0.3, "it waited its patience before going ahead"
        with collect_gate.slot(patience_s=0.3) as again:
            assert again, "slots held by blocks that ended are free again"
    finally:
        collect_gate.FOLDER = None


def test_a_slot_held_by_a_worker_that_dies_is_free_again(tmp_path: Path) -> None:
    collect_gate.open_slots(tmp_path, 1)
    try:
        holder = subprocess.Popen(
            [sys.executable, "-c", "import sys, time; from qaconform.pytest import collect_gate\n"
             f"with collect_gate.slot({str(tmp_path)!r}) as got:\n    print(got, flush=True); time.sleep(60)"],
            stdout=subprocess.PIPE, text=True)
        assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
        with collect_gate.slot(patience_s=0.2) as got:
            assert not got, "the only slot is held by the other process"
        holder.kill()
        holder.wait()
        with collect_gate.slot(patience_s=5) as got:
            assert got, "the kernel released the dead holder's lock"
    finally:
        collect_gate.FOLDER = None


def test_without_slots_a_worker_collects_at_once() -> None:
    assert collect_gate.FOLDER is None
    began = time.monotonic()
    with collect_gate.slot() as got:
        assert not got
    assert time.monotonic() - began < 1


def _scheduler(nodes: int, reports: list[Any], ini: dict[str, list[str]] | None = None) -> Any:
    return make_scheduler(nodes, ini, lambda report: reports.append(report))  # the hook is called by keyword


COLLECTION = [f"suites/contract/test_x.py::test_{i}" for i in range(12)]


def test_the_first_collection_starts_the_run_and_later_ones_join_it() -> None:
    reports: list[Any] = []
    sched = _scheduler(3, reports)
    first, second, odd = FakeNode("gw0"), FakeNode("gw1"), FakeNode("gw2")
    for node in (first, second, odd):
        sched.add_node(node)
    sched.add_node_collection(first, COLLECTION)
    assert sched.collection_is_completed
    sched.schedule()
    assert first.sent and not second.sent and not odd.sent, "only the worker whose collection is in gets work"
    sched.add_node_collection(second, COLLECTION)
    sched.schedule()
    assert second.sent, "a worker gets work as soon as its collection is in"
    sched.add_node_collection(odd, COLLECTION[:-1])
    sched.schedule()
    assert odd.shutting_down and not odd.sent, "a collection that differs gets no work"
    assert len(reports) == 1 and reports[0].outcome == "failed" and "gw2" in str(reports[0].longrepr)
    given = sorted(i for node in (first, second) for batch in node.sent for i in batch)
    assert given == sorted(set(given)), "no test is given twice"


def test_a_worker_still_collecting_when_the_work_runs_out_is_shut_down() -> None:
    sched = _scheduler(2, [])
    fast, slow = FakeNode("gw0"), FakeNode("gw1")
    sched.add_node(fast)
    sched.add_node(slow)
    sched.add_node_collection(fast, COLLECTION[:1])
    sched.schedule()
    assert fast.sent == [[0]]
    assert slow.shutting_down, "nothing is left for it: it ends once it has collected"


def test_the_kits_own_tests_go_by_file_or_folder_as_the_checkout_says_and_the_suites_by_their_groups(
        pytestconfig: pytest.Config) -> None:
    """CI runs the checkout's tests on two workers: a kit test file is one unit (its module fixtures, a server or a set
    of kit runs, are made once, on one worker), a folder whose session fixture all its modules share is one unit as a
    whole (tests/hostile/ starts every module's kit runs at once), while the suites keep their groups and single
    tests. The layout comes from the checkout's pytest configuration, not from the scheduler."""
    ini = {name: pytestconfig.getini(name) for name in (UNITS_BY_FILE, UNITS_BY_FOLDER)}
    sched = _scheduler(2, [], ini)
    assert sched._split_scope("tests/hostile/test_run_hostile.py::test_a[dies-mid-run]") == "tests/hostile/"
    assert sched._split_scope("tests/hostile/test_safety.py::test_b") == "tests/hostile/"
    assert sched._split_scope("tests/test_init.py::test_b") == "tests/test_init.py"
    assert sched._split_scope("tests/load/test_load_runs.py::test_c") == "tests/load/test_load_runs.py"
    assert sched._split_scope("suites/contract/test_x.py::test_3") == "suites/contract/test_x.py::test_3"
    assert sched._split_scope("suites/scenarios/test_answers.py::test_c") == "answers"
    plain = _scheduler(2, [])  # pytest anywhere else (`qaconform run`): no such units
    assert plain._split_scope("tests/test_init.py::test_b") == "tests/test_init.py::test_b"
