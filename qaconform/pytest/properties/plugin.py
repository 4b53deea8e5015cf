"""Run-wide options and bookkeeping of the generated tests (schemathesis and hypothesis in suites/properties).

Generated tests are only useful when they are reproducible and bounded: every run has one seed (given or drawn,
always printed), a number of examples per operation and a time budget in seconds, so that the default run stays
well under two minutes on a 2-core machine. The terminal summary prints how many requests were generated and which
statuses each operation answered, because a property that only ever met 404s proved nothing.

Why a plugin and not suites/properties/conftest.py: a conftest below the starting directory is loaded only while
collecting, too late for command-line options of ``pytest suites`` and never on an xdist controller (which does not
collect), so the seed could not be shared with the workers nor the statuses summed. The root conftest.py loads this
module; the fixtures live in suites/properties/conftest.py.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from qaconform.target.client import ApiClient
from qaconform.target.writes import share_text

DEFAULT_MAX_EXAMPLES = 12
DEFAULT_TIME_BUDGET_S = 40.0
THOROUGH_MAX_EXAMPLES = 100
"""Examples per generated test under ``--thorough``: Schemathesis's (and Hypothesis's) own default, so that a release
run generates at least what a stock ``st run`` would (issue 46: 12 missed what 50 found)."""
THOROUGH_TIME_BUDGET_S = 900.0
"""The generated tests' time budget under ``--thorough``: enough for 100 examples of every operation at a remote
target's pace; a run that spends it says how many cases it counted but did not send."""
SHARES = {"test_openapi.py": 0.5, "test_stateful_links.py": 0.2, "test_privacy_model.py": 0.3}
"""Each generated test's share of --time-budget."""
_ENV = {"max_examples": "QACONFORM_MAX_EXAMPLES", "time_budget": "QACONFORM_TIME_BUDGET", "seed": "QACONFORM_SEED"}
_SEED_KEY = "qc_properties_seed"
STATS_KEY = "qaconform-properties.sent"

ONLY_4XX_EXPECTED: dict[str, str] = {
    "unmarkFavorite": "the interface cannot make a favorite, so generated calls meet nodes that are not one "
                      "(OBS-UNFAVORITE-NOT-FAVORITE); the one-shot favorite_node_id is never used",
    "cancelWiki": "the interface cannot make a wiki node, so generated calls meet nodes that are not wiki "
                  "(OBS-CANCELWIKI-NOT-WIKI); the one-shot wiki nodes are never used",
    "postComment (privacy model: refused)": "refusals by design: rules 6 and 7",
    "postComment (privacy model: reply with another visibility)": "refusals by design: rule 4",
    "scheduleGdprJob": "every generated job is dated in the past: the run's (at most three) successful jobs are "
                       "the data-protection suite's",
}
"""Operations that may be reached only with 4xx, with the reason the summary prints next to them."""


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("qaconform-properties", "qaconform generated tests (suites/properties)")
    g.addoption("--max-examples", dest="qc_max_examples", type=int, default=None,
                help=f"generated cases per operation, and examples of each state machine (default "
                     f"{DEFAULT_MAX_EXAMPLES}, {THOROUGH_MAX_EXAMPLES} with --thorough; env {_ENV['max_examples']})")
    g.addoption("--time-budget", dest="qc_time_budget", type=float, default=None,
                help=f"seconds the generated tests may send requests for, all together (default "
                     f"{DEFAULT_TIME_BUDGET_S:g}, {THOROUGH_TIME_BUDGET_S:g} with --thorough; env "
                     f"{_ENV['time_budget']}); cases past it are counted, not sent")
    g.addoption("--seed", dest="qc_seed", type=int, default=None,
                help=f"seed of every generated test (default: drawn at random and printed; env {_ENV['seed']})")


def option(config: pytest.Config, name: str, kind: type, default: Any) -> Any:
    """The command-line value, else the QACONFORM_* environment variable, else the default."""
    value = config.getoption(f"qc_{name}", default=None)
    raw = os.environ.get(_ENV[name])
    if value is None and raw:
        try:
            value = kind(raw)
        except ValueError:
            raise pytest.UsageError(f"{_ENV[name]}={raw!r} is not a {kind.__name__}; unset it or fix it") from None
    return default if value is None else value


class BudgetSpent(KeyboardInterrupt):
    """Raised by a state machine (privacy model, link chains) once its share of --time-budget, or of the write
    budget (qaconform.target.writes), is spent.

    Why a KeyboardInterrupt: it is the one exception hypothesis takes as "stop here, this example never happened".
    It records nothing of the interrupted example in its tree of choices, so no later example is compared with a
    half-run one. Skipping steps instead (returning early once the clock ran out) made the same choices draw
    differently before and after the deadline: hypothesis's FlakyStrategyDefinition. The test that runs the machine
    catches it (:meth:`Budget.run_machine`) and passes with what was sent.
    """


@dataclass
class Budget:
    """Seed, examples and the shared deadline of one process's generated tests, plus what they sent."""

    seed: int
    max_examples: int
    time_budget_s: float
    deadline: float = 0.0
    deadlines: dict[str, float] = field(default_factory=dict)
    _failing: bool = False
    statuses: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    over_budget: Counter[str] = field(default_factory=Counter)

    def begin(self, share: float, key: str = "") -> None:
        """Give the test about to run its file's share of the budget (a slow first file cannot starve the others).

        The per-operation tests of one file share one deadline, started by the first of them (``key``).
        """
        if key:
            self.deadline = self.deadlines.setdefault(key, time.monotonic() + self.time_budget_s * share)
        else:
            self.deadline = time.monotonic() + self.time_budget_s * share
        self.failing = False

    @property
    def failing(self) -> bool:
        """Set once a generated test failed: its shrinking replays (and hypothesis's final replay of the failing
        example) are cut short neither by the deadline nor by the test's share of the write budget: a failure found
        is reported, never turned into a skip for want of writes."""
        return self._failing

    @failing.setter
    def failing(self, value: bool) -> None:
        self._failing = value
        if ApiClient.write_budget is not None:
            ApiClient.write_budget.overdraft = value

    @property
    def exhausted(self) -> bool:
        return not self.failing and time.monotonic() > self.deadline

    @staticmethod
    def writes_left(need: int = 1) -> bool:
        """Whether the running test's share of the write budget still holds ``need`` accepted writes."""
        budget = ApiClient.write_budget
        if budget is None or budget.overdraft:
            return True
        left = budget.remaining()
        return left is None or left >= need

    @staticmethod
    def share_text() -> str:
        """The running test's share of the write budget, for a skip's reason (``6 of a budget of 100 ...``)."""
        budget = ApiClient.write_budget
        if budget is None:
            return "no write budget"
        return share_text(budget.limit(), budget.budget)

    def check(self, what: str, writes: int = 0) -> None:
        """Stop the running state machine (:class:`BudgetSpent`) once past the deadline, or when the test's share of
        the write budget cannot take the ``writes`` the next step may have accepted; counts ``what`` with why."""
        if self.exhausted or (writes and not self.failing and not self.writes_left(writes)):
            self.over_budget[not_sent_key(what, TIME if self.exhausted else share_spent(writes))] += 1
            raise BudgetSpent(what)

    @staticmethod
    def run_machine(run: Any) -> bool:
        """Run a state machine test (``TestCase().runTest``); False when it stopped at the budget."""
        try:
            run()
        except BudgetSpent:
            return False
        return True

    def record(self, operation: str, status: int) -> None:
        self.statuses[operation][status] += 1

    def take(self) -> dict[str, Any]:
        """What was sent since the last call, as plain data for the test report (it crosses xdist workers)."""
        out = {"statuses": {op: {str(s): n for s, n in c.items()} for op, c in self.statuses.items()},
               "over_budget": dict(self.over_budget)}
        self.statuses = defaultdict(Counter)
        self.over_budget = Counter()
        return out


TIME = "time budget"
"""Why a generated case was not sent: the test's share of the run's time was up."""


def not_sent_key(op: str, why: str) -> str:
    """``over_budget``'s key: the operation and why its case was not sent (crossing11: "budget" alone read as the
    write budget after a run stopped by its time budget, and a share named as spent that still held writes)."""
    return f"{op}\t{why}"


def share_spent(need: int = 1) -> str:
    """What of the write budget stopped a case needing ``need`` accepted writes: the running test's share, with what
    it had spent of what it holds (``the openapi share: 6 of 6 spent``)."""
    budget = ApiClient.write_budget
    limit = budget.limit() if budget is not None else None
    if budget is None or limit is None:
        return "write budget"
    spent = min(budget.spent(), limit)
    room = f"; the case needed {need}" if spent < limit else ""
    return f"the {budget.pool} share of the write budget: {spent} of {limit} spent{room}"


@dataclass
class PropertiesState:
    """This process's seed, budget and what the generated tests sent (``config.stash[STATE]``)."""

    seed: int
    budget: Budget | None = None
    statuses: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    over_budget: Counter[str] = field(default_factory=Counter)
    used: bool = False


STATE = pytest.StashKey[PropertiesState]()


def pytest_configure(config: pytest.Config) -> None:
    """One seed for the whole run: drawn (or given) by the controller and handed to every xdist worker."""
    worker = getattr(config, "workerinput", None)
    if worker is not None and _SEED_KEY in worker:
        seed = int(worker[_SEED_KEY])
    else:
        seed = option(config, "seed", int, None)
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
    config.stash[STATE] = PropertiesState(seed=seed)
    config.pluginmanager.register(_Summary(config), "qaconform-properties-summary")
    _CONFIG["config"] = config


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Any:
    """A generated test whose budget ran out mid-way (:class:`BudgetSpent` from ``SchemaSender.send``) stopped
    generating there and passes with the cases it sent; hypothesis takes the interrupt as "this example never
    happened". Without this the interrupt would end the whole session."""
    try:
        return (yield)
    except BudgetSpent:
        return True


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give each per-operation schemathesis test its own node id (``test_x[GET /services/v2/question.json]``).

    schemathesis names its items ``test_x[METHOD path]`` without a pytest callspec, and pytest 9.2 builds node ids
    from the function name and the callspec only, so all 19 shared one id: the results file, the report and
    xdist's scheduler keep tests apart by that id. Older pytest already includes the name's suffix (no-op there).
    """
    for item in items:
        name, node_id = item.name, getattr(item, "_id", None)
        if not name.endswith("]") or "[" not in name or node_id is None or getattr(node_id, "params", "") is not None:
            continue
        item._id = node_id.with_params(name[name.index("[") + 1:-1])


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    node.workerinput[_SEED_KEY] = node.config.stash[STATE].seed


def budget_for(config: pytest.Config) -> Budget:
    """This process's budget, created when the first generated test asks (the clock starts then)."""
    st = config.stash[STATE]
    if st.budget is None:
        examples, seconds = defaults(config)
        st.budget = Budget(seed=st.seed, max_examples=max(1, option(config, "max_examples", int, examples)),
                           time_budget_s=option(config, "time_budget", float, seconds))
    return st.budget


def generation(config: pytest.Config) -> dict[str, Any] | None:
    """What decides which requests the generated tests send, for the results file: seed, examples per test and time
    budget (``qaconform diff`` says when two runs differ in them: what one found the other could not have sent)."""
    if STATE not in config.stash:
        return None
    examples, seconds = defaults(config)
    return {"seed": config.stash[STATE].seed,
            "max_examples": max(1, int(option(config, "max_examples", int, examples))),
            "time_budget_s": float(option(config, "time_budget", float, seconds))}


def defaults(config: pytest.Config) -> tuple[int, float]:
    """Examples per test and time budget when neither option nor variable gives them: the thorough ones under
    ``--thorough`` (the main plugin's option), else the default run's."""
    if config.getoption("qc_thorough", default=False):
        return THOROUGH_MAX_EXAMPLES, THOROUGH_TIME_BUDGET_S
    return DEFAULT_MAX_EXAMPLES, DEFAULT_TIME_BUDGET_S


_CONFIG: dict[str, pytest.Config] = {}
"""The configured pytest run, for the test module that builds its schemathesis tests at import (no fixture then)."""


def collection_budget() -> Budget:
    """Seed and examples of this run while pytest collects (the eager schemathesis tests are built then).

    Without this plugin configured (the module imported by hand) the environment variables and defaults apply.
    """
    config = _CONFIG.get("config")
    if config is not None and STATE in config.stash:
        return budget_for(config)
    seed = os.environ.get(_ENV["seed"])
    return Budget(seed=int(seed) if seed and seed.isdecimal() else 0,
                  max_examples=int(os.environ.get(_ENV["max_examples"]) or DEFAULT_MAX_EXAMPLES),
                  time_budget_s=float(os.environ.get(_ENV["time_budget"]) or DEFAULT_TIME_BUDGET_S))


class _Summary:
    """Sums what every generated test sent (from the reports, so across xdist workers) and prints it at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        st = self.config.stash[STATE]
        for key, value in report.user_properties:
            if key != STATS_KEY or report.when != "teardown":
                continue
            st.used = True
            data = cast(dict[str, Any], value)
            for op, statuses in data["statuses"].items():
                for code, n in statuses.items():
                    st.statuses[op][int(code)] += n
            for op, n in data["over_budget"].items():
                st.over_budget[op] += n

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        _print_summary(terminalreporter, self.config.stash[STATE])


def _by_operation(over: Counter[str]) -> dict[str, Counter[str]]:
    """op -> why -> cases not sent, from ``over_budget``'s keys (:func:`not_sent_key`)."""
    out: dict[str, Counter[str]] = {}
    for key, n in over.items():
        op, _, why = key.partition("\t")
        out.setdefault(op, Counter())[why] += n  # no why: the label says it (a suite's own step, left out)
    return out


def _print_summary(tr: Any, st: PropertiesState) -> None:
    if not st.used:
        return
    statuses, over = st.statuses, _by_operation(st.over_budget)
    tr.section("qaconform generated tests")
    total = sum(sum(c.values()) for c in statuses.values())
    seed = st.seed
    tr.write_line(f"seed {seed} (rerun with --seed {seed}); {total} generated requests sent, "
                  f"{sum(sum(c.values()) for c in over.values())} cases not sent (each says why: the test's time "
                  f"budget, or its share of the write budget; an operation stops generating at its first)")
    width = max((len(op) for op in set(statuses) | set(over)), default=10)
    for op in sorted(set(statuses) | set(over)):
        c = statuses.get(op, Counter())
        shown = ", ".join(f"{s}x{n}" for s, n in sorted(c.items()))
        extra = "".join(f"; {n} not sent" + (f" ({why})" if why else "") for why, n in sorted(over.get(op, {}).items()))
        flag = ""
        if c and all(400 <= s < 500 for s in c):
            flag = "  <- reached only with 4xx" + (f" ({ONLY_4XX_EXPECTED[op]})" if op in ONLY_4XX_EXPECTED else "")
        sent = f"{sum(c.values()):>5} sent" + (f": {shown}" if shown else "")  # "0 sent: ; 1 not sent" read as a typo
        tr.write_line(f"  {op:<{width}}  {sent}{extra}{flag}")
