"""The pytest side of qaconform: options, rule markers and selection, and the parts it loads: ``session_target``
(the target), ``fixtures``, ``results`` (the results file), ``run_state`` (what they share), ``parallel``.

Registered through the ``pytest11`` entry point (pyproject.toml), so ``pytest --pyargs qaconform.suites
--target-profile p.toml`` works from any folder once the kit is installed. Inert in other projects: every hook
acts only on tests that carry rule markers or live under the kit's suites. Rule ids come from markers
(``@pytest.mark.rule("COMMENT-4")``) and are checked
against spec/rules.yaml at collection, so coverage by rule is a query over the results, not a list kept by hand.
The results file (``--qaconform-results PATH``) is what ``qaconform.report`` turns into junit/json/html.
"""

from __future__ import annotations

import atexit
import gc
import os

import pytest

from qaconform.pytest import request_fixture
from qaconform.pytest.fixtures import CreatedRegistry, UserIds
from qaconform.pytest.markers import MARKERS
from qaconform.pytest.results import _Reporter
from qaconform.pytest.run_state import STATE, RunState, Stopped, _in_suites, _rule_ids, state
from qaconform.pytest.session_target import (
    Target,
    _base_url_override,
    _budget_spent,
    _held_back,
    _refuse_write,
    _TargetHolder,
)
from qaconform.target.client import ApiClient
from qaconform.target.politeness import PACE
from qaconform.target.writes import DEFAULT_WRITE_BUDGET, THOROUGH_COST, UNLIMITED

__all__ = ["STATE", "CreatedRegistry", "RunState", "Stopped", "Target", "UserIds", "state"]

pytest_plugins = [
    "qaconform.pytest.properties.plugin",  # --max-examples/--time-budget/--seed of the generated tests
    # -n / qaconform run --jobs: tests that share state on the target, one target for all workers
    "qaconform.pytest.parallel",
    "qaconform.pytest.fixtures",  # the suites' fixtures
    "qaconform.pytest.results",  # each test's outcome as fields, the results file
    "qaconform.pytest.found_gone",  # a 404 of a found node another run deleted: skipped, not the server's failure
    "qaconform.pytest.worker_terminal",  # an xdist worker's terminal reporter without its per-test hooks
    "qaconform.pytest.readback",  # readback: the ledger of accepted writes, its late reader last
]

# ----------------------------------------------------------------------------------------------------------
# options

def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("qaconform", "Community Q&A conformance")
    g.addoption("--target-profile", dest="qc_profile", default=os.environ.get("QACONFORM_PROFILE"),
                help="target profile TOML (env QACONFORM_PROFILE); without it the embedded reference server runs. "
                     "pytest-base-url's --base-url (env QACONFORM_BASE_URL) overrides its base_url")
    g.addoption("--rule", dest="qc_rules", action="append", default=[],
                help="run only tests that check this rule id (repeatable; a prefix ending in * matches many)")
    g.addoption("--qaconform-results", dest="qc_results", default=None,
                help="write per-test results with rule ids, observations and exchanges to this JSON file")
    g.addoption("--qaconform-target", dest="qc_target_file", default=None,
                help="the run's resolved target (target.json, written by `qaconform run`, or by a parallel session's "
                     "controller for its workers): the profile, the base URL and the doctor's findings for it, "
                     "instead of applying overrides and examining the target again")
    g.addoption("--qaconform-doctor", dest="qc_doctor", default=None,
                help="the doctor's findings (JSON, written by `qaconform run`) instead of examining the target again")
    g.addoption("--read-only", dest="qc_read_only", action="store_true",
                help="run only tests that do not write to the target")
    g.addoption("--run-tag", dest="qc_run_tag", default=os.environ.get("QACONFORM_RUN_TAG"),
                help="tag put in the body of everything the run creates (default: a random qc-xxxxxxxx)")
    g.addoption("--strict-should", dest="qc_strict_should", action="store_true",
                help="a failure of a should-level rule fails the run (default: it is reported as a warning and the "
                     "test shows as skipped; `qaconform run --strict` passes this)")
    g.addoption("--write-budget", dest="qc_write_budget", default=os.environ.get("QACONFORM_WRITE_BUDGET"),
                help="accepted writes the run may make on the target, all workers together (default: the profile's "
                     f"[safety] write_budget, else {DEFAULT_WRITE_BUDGET}; '{UNLIMITED}' for none; env "
                     "QACONFORM_WRITE_BUDGET); a test that meets a spent budget is 'not checked: write budget spent'")
    g.addoption("--thorough", dest="qc_thorough", action="store_true",
                help=f"release QA: no write budget and the generated tests' full example counts ({THOROUGH_COST})")
    g.addoption("--qaconform-timeout", dest="qc_timeout", type=float, default=None,
                help="stop the run after the test running when this many seconds have passed since it started; "
                     "the results say so (stopped: time_budget)")
    g.addoption("--reference-size", dest="qc_ref_size", default="small",
                help="size of the embedded reference server's dataset when no profile is given")


def pytest_configure(config: pytest.Config) -> None:
    for marker, text in MARKERS.items():
        config.addinivalue_line("markers", f"{marker}: {text}")
    config.stash[STATE] = RunState(holder=_TargetHolder(config))
    config.pluginmanager.register(_Reporter(config), "qaconform-results")
    # verify_tls = false is the profile's explicit choice for a self-signed staging site: urllib3 would repeat
    # its warning for every test in the summary, burying the results (with verification on it never fires).
    config.addinivalue_line("filterwarnings", "ignore::urllib3.exceptions.InsecureRequestWarning")
    if config.getoption("qc_read_only", False):
        ApiClient.write_guard = _refuse_write  # every client, also those a suite makes itself
    ApiClient.budget_spent = _budget_spent
    ApiClient.held_back = _held_back
    request_fixture.install()  # the `request` pseudo-fixture without inspect.signature per use (issue 44)
    atexit.register(_exit_without_collecting)


def _exit_without_collecting() -> None:
    """When the interpreter exits: no more cyclic garbage collection (``gc.freeze``).

    At exit Python collects garbage again and again while it tears its modules down: about 0.25 s for a process that
    imported schemathesis and hypothesis, and more after a run. A parallel run waits for that in each of its workers
    before it can end, the self-test in each of its hundreds of runs. Nothing of it is needed: every file is written
    and the memory goes back to the system with the process. Done at exit only, so a process that runs pytest and
    goes on living (``pytest.main``) keeps its collector.
    """
    gc.disable()
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    if STATE in config.stash:
        state(config).holder.close()
    ApiClient.write_guard = None
    ApiClient.write_budget = None
    ApiClient.charset_roles = frozenset()
    ApiClient.budget_spent = None
    ApiClient.held_back = None
    PACE.share_through(None)
    request_fixture.uninstall()


def pytest_report_header(config: pytest.Config) -> list[str]:
    path = config.getoption("qc_profile")
    if path:
        override = _base_url_override(config)
        return [f"qaconform target: profile {path}" + (f" (base_url {override.url})" if override else "")]
    return ["qaconform target: embedded reference server (started on 127.0.0.1 at first use, fresh database)"]


# ----------------------------------------------------------------------------------------------------------
# collection: rule markers
def pytest_collection_finish(session: pytest.Session) -> None:
    """Under plain pytest too, the doctor examines the target before the first test (a parallel run's controller did
    it at session start): a profile it refuses ends the run here, with reads only sent. Not for --collect-only, nor
    for a session that collected no suite test (the kit's own tests need no target), nor for the self-test's
    collection that each fork runs against its own target (qaconform/pytest/fault_batch.py: the fork does it)."""
    config = session.config
    if config.option.collectonly or config.getoption("qc_batch", None):
        return
    if not any(_rule_ids(i) or _in_suites(i) for i in session.items):
        return
    state(config).holder.get()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    problems: list[str] = []
    if not any(_rule_ids(i) or _in_suites(i) for i in items):
        return  # the kit's own tests: no rule markers to check, no contract needed
    from qaconform.contract import load_contract

    known = set(load_contract().rules)
    for item in items:
        ids = _rule_ids(item)
        if _in_suites(item) and not ids:
            problems.append(f"{item.nodeid}: has no @pytest.mark.rule(...) marker")
        for rid in ids:
            if known and rid not in known:
                problems.append(f"{item.nodeid}: rule {rid!r} is not in spec/rules.yaml")
    if problems:
        raise pytest.UsageError("rule markers are wrong:\n  " + "\n  ".join(problems[:30]))
    wanted = config.getoption("qc_rules")
    if wanted:
        keep: list[pytest.Item] = []
        drop: list[pytest.Item] = []
        for item in items:
            ids = _rule_ids(item)
            hit = any(rid == w or (w.endswith("*") and rid.startswith(w[:-1])) for rid in ids for w in wanted)
            (keep if hit else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
        items[:] = keep
