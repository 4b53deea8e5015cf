"""An xdist worker does not send the passed setup and teardown reports that nothing on the controller reads.

Why (issue 44, speed5): a worker sends six messages per test (logstart, a report per phase, logfinish, completion).
The controller unpickles each report in execnet's receiving thread, builds a ``TestReport`` and passes it to every
``pytest_runtest_logreport``; measured on a 5-worker run of the suites (4,342 tests, 13,008 reports), the
controller's receiving threads spent 2.9 s of CPU and its main thread 4.1 s, on a 2-core machine where the kit's
CPU is the run's floor. Two reports in three are a passed setup or teardown that the kit's readers drop at once
(qaconform/pytest/results.py ``_entry`` keeps none of them; pytest's terminal files them under no outcome).

What is still sent: every call report; every setup or teardown report that did not pass, or carries captured output
(``sections``: ``-rP`` prints a teardown's), or user properties its test's call report did not carry (the generated
tests' statistics come in the teardown report: qaconform/pytest/properties/plugin.py); and every report of a
teardown whose call report was not sent (a setup that failed or skipped). Only when the controller decided so
(:func:`controller_allows`): every plugin there that reads reports is one of :data:`READERS`, which read nothing of
such a report, and no ``--durations`` is asked (it lists setup and teardown times). A ``--junitxml`` (its test cases
close on the teardown report), or any other plugin that reads reports, gets every report as xdist sends it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

KEY = "qc_quiet_phases"
"""The controller's decision, handed to each worker in its ``workerinput``."""

READERS = frozenset({
    "qaconform-results",  # results.py: passed setup and teardown give no entry
    "qaconform-properties-summary",  # properties/plugin.py: teardown reports with its statistics (still sent)
    "terminalreporter",  # pytest: no letter, no count for them; their sections (still sent) for -rP
    "logging-plugin",  # pytest: live logging's phase name only
    "session",  # pytest: counts failures only
})
"""The controller plugins (pytest's names) whose ``pytest_runtest_logreport`` reads nothing of a passed setup or
teardown report that has no captured output and no new user properties."""


def controller_allows(config: pytest.Config) -> bool:
    """On the controller: whether its workers may leave such reports out (see the module docstring)."""
    if getattr(config.option, "durations", None) is not None:
        return False
    readers = {impl.plugin_name for impl in config.pluginmanager.hook.pytest_runtest_logreport.get_hookimpls()}
    return readers <= READERS


def unread(data: dict[str, Any], call_properties: dict[str, list[Any]]) -> bool:
    """Whether the serialized report ``data`` is one the controller's readers read nothing of. ``call_properties``:
    node id -> the user properties its call report carried (as they were when it was sent)."""
    when = data.get("when")
    if when not in ("setup", "teardown") or data.get("outcome") != "passed" or data.get("sections"):
        return False
    if when == "setup":
        return True  # its user properties are the start of the call report's (a test's list only grows)
    sent = call_properties.pop(str(data.get("nodeid")), None)
    return sent is not None and list(data.get("user_properties") or []) == sent


def install(config: pytest.Config) -> bool:
    """In a worker: its xdist interactor's messages go through :func:`unread` first. False when there is no
    interactor to wrap (then every report is sent, as before)."""
    interactor = next((p for p in config.pluginmanager.get_plugins() if type(p).__name__ == "WorkerInteractor"), None)
    send: Callable[..., None] | None = getattr(interactor, "sendevent", None)
    if interactor is None or send is None:
        return False
    calls: dict[str, list[Any]] = {}

    def sendevent(name: str, **kwargs: Any) -> None:
        data = kwargs.get("data")
        if name == "testreport" and isinstance(data, dict):
            if data.get("when") == "call":  # a copy: the item's list is the report's, and grows in teardown
                calls[str(data.get("nodeid"))] = list(data.get("user_properties") or [])
            elif unread(data, calls):
                return
        send(name, **kwargs)

    interactor.sendevent = sendevent
    return True
