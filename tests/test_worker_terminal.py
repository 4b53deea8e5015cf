"""An xdist worker's terminal reporter loses its per-test hooks, and nothing else (qaconform/pytest/worker_terminal.py;
issue 44, speed): its output is /dev/null, the controller prints the progress."""

from __future__ import annotations

import pytest

from qaconform.pytest.worker_terminal import PER_TEST_HOOKS, quiet_per_test_hooks

pytest_plugins = ["pytester"]


def _impls(config: pytest.Config, hook: str) -> list[object]:
    return [impl.plugin for impl in getattr(config.hook, hook).get_hookimpls()]


def test_a_workers_reporter_keeps_its_writer_and_summary_but_not_its_per_test_hooks(pytester: pytest.Pytester) -> None:
    config = pytester.parseconfigure("-p", "no:qaconform")
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    assert reporter is not None and all(reporter in _impls(config, h) for h in PER_TEST_HOOKS)
    assert quiet_per_test_hooks(config)
    assert config.pluginmanager.get_plugin("terminalreporter") is reporter
    assert all(reporter not in _impls(config, h) for h in PER_TEST_HOOKS)
    assert reporter in _impls(config, "pytest_sessionfinish"), "only the per-test hooks go"
    assert config.get_terminal_writer() is reporter._tw, "an assertion's explanation still finds its writer"


def test_the_controllers_and_a_serial_runs_reporter_are_left_alone(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_one():\n    assert 1 == 2\n")
    result = pytester.runpytest("-p", "no:qaconform", "-p", "qaconform.pytest.worker_terminal")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*test_one*", "*assert 1 == 2*", "*1 failed*"])


def test_the_workers_reports_still_reach_the_controller_with_their_explanations(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_one():\n    assert [1, 2] == [1, 3]\n\ndef test_two():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:qaconform", "-p", "qaconform.pytest.worker_terminal",
                                           "-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*At index 1 diff: 2 != 3*", "*1 failed, 1 passed*"])
