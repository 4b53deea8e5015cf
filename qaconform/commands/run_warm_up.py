"""What `qaconform run` imports only after the suites, imported while they run (issue 31).

The runner imports at the top only what its start needs (the profile, the contract, the client and the doctor);
the cleanup, the interface map and the report are imported where they are used. So that the end of a run does not
wait for them instead, a thread imports them while the suites' pytest runs and the runner only streams its output.
"""

from __future__ import annotations

import importlib
import threading

AFTER_SUITES = ("qaconform.commands.cleanup", "qaconform.target.cleanup", "qaconform.report.coverage",
                "qaconform.report.har", "qaconform.report.model", "qaconform.report.html_page",
                "qaconform.report.junit", "qaconform.report.compact", "qaconform.report.diff",
                "qaconform.report.loadstats", "qaconform.report.terminal", "qaconform.report.verdict")
"""What the runner imports once the suites have ended (cleanup, coverage, the report): imported while they run."""


def start(modules: tuple[str, ...]) -> None:
    """Import ``modules`` in a thread while the suites run, so that neither the start (they are imported where
    they are used, not at the top) nor the end of a run waits for them; a module that fails here is imported
    again where it is used, and fails there as it would have."""
    def load() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - said where the runner imports it
                return

    threading.Thread(target=load, name="qc-warm-up", daemon=True).start()
