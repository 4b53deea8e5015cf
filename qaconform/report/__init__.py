"""Reports of a run: a results file (from the pytest plugin) + spec/rules.yaml -> junit.xml, report.json, report.html.

The pieces are separate modules so that each output can be rebuilt, tested and read on its own:
``model`` decides each rule's status (``qaconform.status`` says what each status and level means: exit code, JUnit
element, section of the page, colour, one line each), ``redact`` makes sure no credential reaches a file, ``reproduce``
writes curls with named password variables and rerun commands, ``junit``/``html_page``/``allure`` render,
``loadstats`` and ``charts`` turn the load harness's output into figures, ``compact`` keeps report.json small,
``writer`` puts the files in a run folder, ``diff`` compares two runs (``volatile``: what it ignores), ``expect``
reads the expected-failures file, ``options`` holds the flags ``qaconform run`` and ``report`` share, ``cli`` is
``qaconform report``.

May import: the core (``qaconform.vocabulary``: the kinds of skip and the stop reasons a results file records) and
``qaconform.target``. Never: ``pytest``, ``load``, ``commands``, ``reference``. ``progress`` and ``tables``, the
terminal helpers, are here so that the load harness and the commands share them without an arrow pointing up.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["build_report", "new_run_dir", "write_reports"]

_LAZY = {"build_report": "qaconform.report.model", "new_run_dir": "qaconform.report.writer",
         "write_reports": "qaconform.report.writer"}
"""The package's names, imported on first use: importing one of its modules (``redact``, ``coverage`` ...) must not
import the model and the page renderers too (a third of a second of ``qaconform run``'s start, issue 31)."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
