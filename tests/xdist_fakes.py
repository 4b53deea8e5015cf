"""Stand-ins for what xdist hands qaconform's scheduler (``qaconform/pytest/parallel.py``): a worker node that keeps
what it was sent, and the config the scheduler class reads. One place for the test files that drive the scheduler
without starting a worker (test_collect_gate, test_longest_first, test_scheduler_bookkeeping): the three copies had
to change together whenever the scheduler read one more thing of xdist's."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from qaconform.pytest.parallel import _make_scheduler_class


class FakeNode:
    """A worker: its gateway id, every batch of test indices it was sent, and whether it was told to shut down."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[list[int]] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.append(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def make_scheduler(nodes: int, ini: dict[str, list[str]] | None = None,
                   on_collectreport: Callable[[Any], None] = lambda report: None) -> Any:
    """qaconform's scheduler for ``nodes`` local workers, with ``ini`` as pytest.ini's lists and the collect reports
    it emits handed to ``on_collectreport`` (called as pluggy calls a hook: ``report=...``)."""
    config = SimpleNamespace(getvalue=lambda name: [f"{nodes}*popen"], option=SimpleNamespace(loadscopereorder=True),
                             hook=SimpleNamespace(pytest_collectreport=on_collectreport),
                             getini=lambda name: (ini or {}).get(name, []))
    return _make_scheduler_class()(config)
