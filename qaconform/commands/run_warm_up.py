"""What `qaconform run` imports only after the suites, imported while they run (issue 31).

The runner imports at the top only what its start needs (the profile, the contract, the client and the doctor);
the cleanup, the interface map and the report are imported where they are used. So that the end of a run does not
wait for them instead, a thread imports them while the suites' pytest runs and the runner only streams its output.
"""

from __future__ import annotations

import importlib
import threading
import time

AFTER_SUITES = ("qaconform.commands.cleanup", "qaconform.target.cleanup", "qaconform.report.coverage",
                "qaconform.report.har", "qaconform.report.model", "qaconform.report.html_page",
                "qaconform.report.junit", "qaconform.report.compact", "qaconform.report.diff",
                "qaconform.report.loadstats", "qaconform.report.terminal", "qaconform.report.verdict")
"""What the runner imports once the suites have ended (cleanup, coverage, the report): imported while they run."""


AFTER_START_S = 5.0
"""How long the imports wait: the start of a run (the fork server's imports, the controller's and each worker's
configuration and collection) keeps a small machine's CPUs busy for its first seconds (measured at +25 ms on 2 CPUs:
the run's processes, the delaying proxy's included, used 4.9 s of CPU in the first 3 s), and these imports (0.2 s of
CPU) would only take CPU from it; after it, the workers mostly wait for the target. A run that ends sooner imports
them where they are used."""


def start(modules: tuple[str, ...], after_s: float = AFTER_START_S) -> None:
    """Import ``modules`` in a thread while the suites run, ``after_s`` seconds after their start, so that neither
    the start of a run (they are imported where they are used, not at the top, and not before its workers test) nor
    its end waits for them; a module that fails here is imported again where it is used, and fails there as it
    would have."""
    def load() -> None:
        time.sleep(after_s)
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - said where the runner imports it
                return

    threading.Thread(target=load, name="qc-warm-up", daemon=True).start()
