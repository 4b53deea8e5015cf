"""Root conftest: loads the qaconform pytest plugin (options, target, rule markers, results).

Everything lives in ``qaconform/pytest_plugin.py`` so that the CLI and the suites share one implementation.
"""

pytest_plugins = [
    "qaconform.pytest_plugin",
    "suites.properties.plugin",  # --max-examples/--time-budget/--seed of the generated tests; must load at startup
]
