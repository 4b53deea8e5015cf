"""The controller's bookkeeping in qaconform/pytest/parallel.py ``GroupScheduling`` (issue 44, speed): each test's
position from an index made once, and a unit whose tests have all run leaving its worker's workload. The same tests
go out once each, with the positions xdist's ``list.index`` gave; the run ends when every test has reported, and a
worker that dies still hands back the test it was running and its unrun units."""

from __future__ import annotations

from typing import Any

from xdist_fakes import FakeNode, make_scheduler


def _scheduler(nodes: int) -> Any:
    return make_scheduler(nodes)


COLLECTION = ([f"suites/contract/test_x.py::test_{i}" for i in range(30)]
              + ["suites/properties/test_openapi.py::test_generated"] * 3  # one id, told apart by position
              + [f"suites/scenarios/test_answers.py::test_{i}" for i in range(5)])  # one group: one unit


def _run_all(sched: Any, nodes: list[FakeNode]) -> dict[int, str]:
    """Every test sent, reported complete in the order sent, until the scheduler has nothing left: position -> id."""
    ran: dict[int, str] = {}
    done = {node: 0 for node in nodes}
    while not sched.tests_finished:
        progressed = False
        for node in nodes:
            given = [i for batch in node.sent for i in batch]
            while done[node] < len(given):
                i = given[done[node]]
                assert i not in ran, f"test {i} sent twice"
                ran[i] = sched.registered_collections[node][i]
                done[node] += 1
                sched.mark_test_complete(node, i)
                progressed = True
        assert progressed, "the scheduler waits for a test it never sent"
    return ran


def test_every_test_goes_out_once_at_its_position_and_the_run_ends() -> None:
    sched = _scheduler(2)
    nodes = [FakeNode("gw0"), FakeNode("gw1")]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, list(COLLECTION))
    sched.schedule()
    ran = _run_all(sched, nodes)
    collection = sched.registered_collections[nodes[0]]
    assert sorted(ran) == list(range(len(COLLECTION))), "each position, once"
    assert all(collection[i] == nodeid for i, nodeid in ran.items())
    assert collection[30:33] == ["suites/properties/test_openapi.py::test_generated",
                                 "suites/properties/test_openapi.py::test_generated#2",
                                 "suites/properties/test_openapi.py::test_generated#3"]
    assert not sched.has_pending and sched.tests_finished
    assert all(not workload for workload in sched.assigned_work.values()), "finished units leave the workload"


def test_a_worker_that_dies_hands_back_the_test_it_was_running_and_its_unrun_tests() -> None:
    sched = _scheduler(1)
    node = FakeNode("gw0")
    sched.add_node(node)
    sched.add_node_collection(node, list(COLLECTION))
    sched.schedule()
    first_batch = [i for batch in node.sent for i in batch]
    sched.mark_test_complete(node, first_batch[0])
    queued_before = sum(len(unit) for unit in sched.workqueue.values())
    crashed = sched.remove_node(node)
    pending = [i for i in first_batch[1:]]
    if pending:
        assert crashed == sched.registered_collections[node][pending[0]]
        assert sum(len(unit) for unit in sched.workqueue.values()) > queued_before, "its units go back to the queue"
    else:
        assert crashed is None
