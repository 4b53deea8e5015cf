"""An xdist worker's terminal reporter without its per-test hooks (issue 44, speed).

A worker's standard output is /dev/null (execnet keeps the real one for its channel): the controller prints every
test's progress from the reports the workers send it. Yet pytest's terminal reporter in each worker still took
every test's reports, asked every plugin for each one's status letter and wrote a dot nobody reads: 1.2 s of CPU
across the five workers of a run (measured with the thread CPU of each hook). The reporter stays registered (pytest
asks it for its terminal writer, to colour an assertion's explanation) with only ``pytest_runtest_logstart`` and
``pytest_runtest_logreport`` taken out. Nothing a worker sends changes: its reports go to the controller through
xdist's own hooks, which are left as they are. Loaded by the qaconform plugin (``pytest_plugins``).
"""

from __future__ import annotations

import pytest

PER_TEST_HOOKS = ("pytest_runtest_logstart", "pytest_runtest_logreport")
"""What the reporter does for each test (and each of its phases) and nothing else needs from a worker's reporter."""


@pytest.hookimpl(trylast=True)  # after pytest's terminal plugin registered its reporter
def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):
        return  # the controller, or pytest without workers: its terminal is the user's
    quiet_per_test_hooks(config)


def quiet_per_test_hooks(config: pytest.Config) -> bool:
    """Take the per-test hooks out of this process's terminal reporter; False when it has none (``-p no:terminal``)."""
    manager = config.pluginmanager
    reporter = manager.get_plugin("terminalreporter")
    if reporter is None:
        return False
    manager.unregister(reporter)
    for name in PER_TEST_HOOKS:
        setattr(reporter, name, None)  # not a routine: pluggy registers no hook by this name for the instance
    manager.register(reporter, "terminalreporter")
    return True
