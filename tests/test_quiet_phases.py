"""qaconform/pytest/quiet_phases.py (issue 44, speed5): an xdist worker leaves out only the passed setup and teardown
reports that the controller's readers read nothing of, and only when the controller said so."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from qaconform.pytest import quiet_phases

STATS = ("qaconform.properties.stats", {"statuses": {}})


def _report(when: str, outcome: str = "passed", props: list[Any] | None = None, sections: Any = ()) -> dict[str, Any]:
    return {"nodeid": "suites/x.py::test_a", "when": when, "outcome": outcome,
            "user_properties": list(props or []), "sections": list(sections)}


class WorkerInteractor:
    """Stands in for xdist's (found by its class name): keeps what it sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    def sendevent(self, name: str, **kwargs: Any) -> None:
        self.sent.append((name, kwargs.get("data", kwargs)))


def _worker() -> tuple[Any, WorkerInteractor]:
    interactor = WorkerInteractor()
    config = SimpleNamespace(pluginmanager=SimpleNamespace(get_plugins=lambda: [object(), interactor]))
    assert quiet_phases.install(config)  # type: ignore[arg-type]
    return config, interactor


def test_a_passing_test_sends_its_call_report_alone() -> None:
    _, worker = _worker()
    rules = [("qaconform.rules", ["R-1"])]
    worker.sendevent("logstart", nodeid="suites/x.py::test_a", location=("x", 1, "test_a"))
    for when in ("setup", "call", "teardown"):
        worker.sendevent("testreport", data=_report(when, props=rules))
    worker.sendevent("runtest_protocol_complete", item_index=0, duration=0.1)
    assert [(name, data.get("when")) for name, data in worker.sent] == [
        ("logstart", None), ("testreport", "call"), ("runtest_protocol_complete", None)]


def test_what_a_reader_reads_is_still_sent() -> None:
    _, worker = _worker()
    kept = [_report("setup", "skipped"), _report("setup", "failed"), _report("setup", sections=[("Captured", "x")]),
            _report("teardown", "failed")]
    for data in kept:
        worker.sendevent("testreport", data=data)
    assert [data for _, data in worker.sent] == kept
    # the generated tests' statistics arrive with the teardown: new user properties, sent
    worker.sendevent("testreport", data=_report("call", props=[]))
    worker.sendevent("testreport", data=_report("teardown", props=[STATS]))
    assert worker.sent[-1][1]["user_properties"] == [STATS]


def test_a_teardown_whose_call_report_was_not_sent_is_sent() -> None:
    _, worker = _worker()
    worker.sendevent("testreport", data=_report("teardown"))
    assert len(worker.sent) == 1


def test_the_call_properties_are_copied_when_sent_since_the_item_list_grows() -> None:
    _, worker = _worker()
    props: list[Any] = [("qaconform.rules", ["R-1"])]
    call = _report("call")
    call["user_properties"] = props  # pytest hands every phase the item's own list
    worker.sendevent("testreport", data=call)
    props.append(STATS)  # added while tearing down
    teardown = _report("teardown")
    teardown["user_properties"] = props
    worker.sendevent("testreport", data=teardown)
    assert len(worker.sent) == 2


def _controller(names: list[str], durations: int | None = None) -> Any:
    impls = [SimpleNamespace(plugin_name=n) for n in names]
    hook = SimpleNamespace(pytest_runtest_logreport=SimpleNamespace(get_hookimpls=lambda: impls))
    return SimpleNamespace(option=SimpleNamespace(durations=durations), pluginmanager=SimpleNamespace(hook=hook))


def test_the_controller_allows_it_only_when_every_reader_is_known_and_no_durations_are_asked() -> None:
    kit = ["qaconform-results", "terminalreporter", "logging-plugin", "session", "qaconform-properties-summary"]
    assert quiet_phases.controller_allows(_controller(kit))
    assert not quiet_phases.controller_allows(_controller([*kit, "junitxml"])), "a user's --junitxml: every report"
    assert not quiet_phases.controller_allows(_controller(kit, durations=10)), "--durations lists setup times"


def test_without_an_interactor_nothing_is_wrapped() -> None:
    config = SimpleNamespace(pluginmanager=SimpleNamespace(get_plugins=lambda: [object()]))
    assert not quiet_phases.install(config)  # type: ignore[arg-type]
