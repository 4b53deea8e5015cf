"""The suites on several pytest-xdist workers (``qaconform run --jobs N``, or ``pytest suites -n N``).

Most suite tests create what they read, so any worker may run them. The tests that share state *on the target*
must run one after another on one worker, as in a serial run: they are grouped here, by where they live (a table
the kit's own tests check against the fixtures the suites use). Every other test is its own unit of work.

The scheduler (``GroupScheduling``) is xdist's scope scheduler with three changes:
- a unit is a group of :data:`GROUPS` or a single test, never a module;
- the metamorphic relations' units start before anything writes (:data:`READ_FIRST`), then the longest chains: the
  generated tests that send hundreds of requests one after another start on
  an idle worker at once, instead of last behind a queue (the run cannot end before its longest chain does);
- tests that share a node id (the schemathesis tests, one per operation) are told apart by their position.

The controller checks the target once (a refused credential or an unreachable target ends the run before any
worker starts, with the same message and exit code as a serial run), starts the reference server when no profile
is given, and hands the profile and one run tag to every worker, so that all of them test the same target and tag
everything they create alike.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import pytest

from qaconform.pytest import quiet_phases

ONE_SHOT_FIXTURES = ("unfavorite_once", "cancelwiki_own_once", "cancelwiki_once")
"""suites/conftest.py: each consumes a node of the profile that only one call can act on."""


@dataclass(frozen=True)
class Group:
    """Tests that must run on one worker, one after another, and why."""

    name: str
    prefixes: tuple[str, ...]
    """Node ids starting with one of these belong to the group."""
    why: str
    by_param: bool = False
    """One group per value of the test's first parameter (``name:value``, the value before the id's first ``-``)
    instead of one for all: tests of one list share their walks, the lists spread over the workers."""

    by_list: bool = False
    """One group per list the test's id names (its first ``-``-separated part that is a list's operationId,
    ``list`` and a capital) instead of one for all: each row reads one list, and the rows of one list share their
    reads (a later page with its earlier ones, an effect with its plain read); rows of different lists share only
    the reads of the run (qaconform/pytest/shared_reads.py), which any worker takes."""

    def unit(self, nodeid: str) -> str:
        """The unit of work ``nodeid`` (one of the group's) belongs to."""
        if not (self.by_param or self.by_list) or "[" not in nodeid:
            return self.name
        if self.by_list:
            parts = nodeid.split("[", 1)[1].rstrip("]").split("-")
            named = next((p for p in parts if p.startswith("list") and p[4:5].isupper()), None)
            return f"{self.name}:{named}" if named else self.name
        return f"{self.name}:{nodeid.split('[', 1)[1].split('-', 1)[0].rstrip(']')}"


GROUPS: tuple[Group, ...] = (
    Group("one-shot", (
        "suites/scenarios/test_node_actions.py::",
        "suites/contract/test_operation_shapes.py::test_unfavoriting_gives_200_with_the_favorite_action_and_count",
        "suites/contract/test_operation_shapes.py::test_unwikifying_own_node_gives_200_with_the_wikify_action",
        "suites/contract/test_operation_shapes.py::test_unwikifying_anothers_node_with_mark_as_wiki_gives_200_with_",
        "suites/scenarios/test_permissions.py::test_refused_unfavorites_leave_members_favorite_in_place",
        "suites/scenarios/test_permissions.py::test_refused_unwikifies_leave_the_node_wiki",
        "suites/scenarios/test_permissions.py::test_unwikifying_anothers_wiki_node_is_refused_without_the_permission",
        "suites/scenarios/test_permissions.py::test_a_comment_on_a_wiki_node_is_created_with_201_and_its_location",
        "suites/scenarios/test_permissions.py::test_locking_anothers_node_member_unfavorited_is_refused",
        "suites/contract/test_observations_silent.py::test_record_the_verbs_of_the_favorite_and_wiki_actions",
        "suites/contract/test_bare_array_readers.py::test_the_content_list_of_a_user_who_undid_an_action_is_still_a_",
    ), "the profile's one-shot nodes (favorite, wiki) can be acted on once; the tests read what that one call did "
       "and what the node shows after it"),
    Group("gdpr", ("suites/scenarios/test_gdpr_jobs.py::",),
          "data-protection jobs are judged by the time frames the target holds for every caller"),
    Group("permissions", ("suites/scenarios/test_permissions.py::",),
          "the permission matrix reads back, as novice, lists of answers that its own refused calls must not change"),
    Group("comment-privacy", ("suites/scenarios/test_comment_privacy.py::",),
          "one comment thread per module, made once and read by every test of the module"),
    Group("stated-forms", ("suites/contract/test_stated_forms.py::",),
          "one write carries several stated forms (an account's body in one carrier, every script at once), made "
          "once by the module and read by every test that checks one of them"),
    Group("param-wins", (
        "suites/contract/test_request_conventions.py::test_a_comment_body_given_as_parameter_and_in_the_body_is_sto",
        "suites/contract/test_request_conventions.py::test_a_comment_visibility_given_as_parameter_and_in_the_body_",
    ), "one comment gives body and visibility both as parameters and in the body (fixture given_both): both tests "
       "read it, not written per worker"),
    Group("answers", ("suites/scenarios/test_answers.py::",),
          "the module's answers are posted once and read back by the tests that follow"),
    Group("matrix", ("suites/contract/test_matrix.py::",),
          "the rules crossed pairwise share one read per combination (the fetch cache of one process); "
          "each list is a unit of its own", by_list=True),  # speed (issue 44): the run's longest chain, split
    Group("list-access", ("suites/contract/test_list_access.py::",),
          "the list permissions crossed pairwise share one read (or pair of reads) per row (the caches of one "
          "process); each list is a unit of its own", by_list=True),  # speed (issue 44): the longest chain, split
    Group("action-matrix", ("suites/contract/test_action_matrix.py::",),
          "the node actions' rules crossed pairwise share one call per combination (the scene of one process)"),
    # listcross (issue 44): every response rule of a list on one read per row
    Group("list-responses", ("suites/contract/test_list_responses.py::",),
          "the response rules of the lists share one read per row (the fetch cache of one process); each list is a "
          "unit of its own", by_list=True),  # speed (issue 44): the run's longest chain, split
    Group("found-relations", ("suites/contract/test_found_relations.py::",),
          "the refused actions on nodes found with reads share one read of each node before the first call and one "
          "after the last (histories6)"),
    Group("subtree-rows", ("suites/contract/test_subtree_rows.py::",),
          "the comment rules on every row of the privacy thread's comment list share one read-ahead (commentcross)"),
    Group("relations", ("suites/contract/test_list_relations.py::",),
          "the metamorphic relations of one list share its walks (one per account and parameters per process); "
          "each list is a unit of its own", by_param=True),
    # speed3 (issue 44): rows read ahead together in one process
    Group("readback", ("suites/contract/test_readback.py::",),
          "the late reader judges every accepted write the run's ledger holds (qaconform.pytest.readback): it starts "
          "after every other unit (:func:`_rank`), reading the ledger all workers append to"),
    Group("wrong-password-rows", ("suites/contract/test_wrong_password_rows.py::",),
          "each row is one read with a wrong password; the module reads them all ahead, a few at once, in one process "
          "(its read_ahead), about 9 round trips instead of 45 on as many units"),
)

LONG_CHAINS = (
    "suites/properties/test_privacy_model.py::",
    "suites/properties/test_stateful_links.py::",
    "suites/properties/test_openapi.py::",
)
"""Units that start first, in this order: each sends its requests one after another for its share of the
generated tests' time budget (suites/properties/plugin.py)."""


UNITS_BY_FILE = "qaconform_units_by_file"
UNITS_BY_FOLDER = "qaconform_units_by_folder"
"""Ini options (linelists of node-id prefixes) for tests that are not the suites', such as a checkout's own tests
(the kit's ``pytest -n 2``, CI's command): a test under a ``by_file`` prefix goes with the rest of its file, one under
a ``by_folder`` prefix with the rest of that folder, so that a module's or a folder's fixtures (a reference server,
a set of kit runs started together) are made once, on one worker, as in a serial run. The layout is the checkout's
to say (its pytest configuration), not the scheduler's."""


UNITS_FIRST = "qaconform_units_first"
"""Ini option (a linelist of node-id prefixes, longest first) for a checkout's own tests: the tests under each prefix
are one unit of work of their own (a single test's id takes it out of its file's unit), started before every other
unit, in the order listed; a worker running one gets only the least urgent unit queued behind it (xdist's worker runs
a test once the next one has come) until it ends. Why: on CI's two workers the run cannot end before its longest
unit does, and the kit's files ranked after every suites' group, the fault self-test (5.4 min of a 16 min run) and
the variant self-test (1.9 min) one unit, one after the other on one worker; queued behind a long unit, the next
unit would wait for that worker while the other one ran dry (issue 44, ci4)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(UNITS_BY_FILE, type="linelist", default=[],
                  help="under pytest-xdist, each test file under these node-id prefixes is one unit of work")
    parser.addini(UNITS_FIRST, type="linelist", default=[],
                  help="under pytest-xdist, the tests under each of these node-id prefixes are one unit of work, "
                       "started before every other unit in the order given (longest first; before "
                       f"{UNITS_BY_FOLDER} and {UNITS_BY_FILE})")
    parser.addini(UNITS_BY_FOLDER, type="linelist", default=[],
                  help="under pytest-xdist, the tests under each of these node-id prefixes are one unit of work "
                       f"(before {UNITS_BY_FILE})")


def group_of(nodeid: str) -> str | None:
    for g in GROUPS:
        if nodeid.startswith(g.prefixes):
            return g.unit(nodeid)
    return None


READ_FIRST = "relations"
"""The group whose units start before everything else: the metamorphic relations walk whole lists, and on lists the
run has not written to yet they are short and hold still (their walks are then taken once, not again and again
while the generated tests and scenarios add answers and comments to them), so they cost seconds, not a third of
the run. They finish before the long chains have got far: every worker takes the next list's unit."""


LAST = "readback"
"""The group whose unit starts after every other (readback: it reads back what the others wrote)."""


@functools.cache
def _rank(scope: str) -> tuple[int, int]:
    """Lower starts earlier: the relations (:data:`READ_FIRST`), the long generated chains, then the other groups
    (longest first), then single tests. Cached: the scheduler ranks the whole queue at every assignment (about 400
    times 200 scopes in a run), which without it cost the controller 1 to 2 s of CPU."""
    if scope.startswith(f"{READ_FIRST}:") or scope == READ_FIRST:
        return (-1, 0)
    if scope == LAST:
        return (3, 0)
    for i, prefix in enumerate(LONG_CHAINS):
        if scope.startswith(prefix):
            return (0, i)
    for i, g in enumerate(GROUPS):
        if scope == g.name or scope.startswith(f"{g.name}:"):
            return (1, i)
    return (2, 0)


class _Ranks(dict[str, tuple[int, int]]):
    """A unit's rank by its name, found on first use: :func:`_rank`, with the checkout's longest units
    (``first``: :data:`UNITS_FIRST` by place) before everything, in order. cpu8 (issue 44): every assignment ranks
    every unit still queued (~680,000 ranks in a 5-worker run, a Python call each, on the controller, whose CPU the
    workers share); ``min(queue, key=ranks.__getitem__)`` makes that a dictionary look-up."""

    def __init__(self, first: dict[str, int]) -> None:
        super().__init__()
        self.first = first

    def __missing__(self, scope: str) -> tuple[int, int]:
        place = self.first.get(scope)
        rank = self[scope] = (-2, place) if place is not None else _rank(scope)
        return rank


def _unique(collection: list[str]) -> list[str]:
    """Node ids made unique by position (``id#2`` for the second test with that id): the scheduler keys by id."""
    seen: dict[str, int] = {}
    out = []
    for nodeid in collection:
        n = seen[nodeid] = seen.get(nodeid, 0) + 1
        out.append(nodeid if n == 1 else f"{nodeid}#{n}")
    return out


def _make_scheduler_class() -> type:
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]
        """xdist's scope scheduler with qaconform's units and order (see the module docstring).

        It starts with the first collection that arrives instead of waiting for every worker's: workers forked from
        the fork server collect a few at a time (qaconform/pytest/collect_gate.py), and the first ones test while
        the rest collect. A worker gets work once its own collection has arrived and is the first one's (one that
        differs is reported as a collection error, as xdist does, and gets no work)."""

        def __init__(self, config: Any, log: Any = None) -> None:
            super().__init__(config, log)
            self.by_folder = tuple(config.getini(UNITS_BY_FOLDER))
            self.by_file = tuple(config.getini(UNITS_BY_FILE))
            self.first = {prefix: i for i, prefix in enumerate(config.getini(UNITS_FIRST))}
            """The checkout's longest units (:data:`UNITS_FIRST`) and their place in the order."""
            self._positions: dict[str, int] | None = None
            """Each node id's position in the collection, made at the first assignment."""
            self._left: dict[tuple[int, str], int] = {}
            """Tests of a unit a worker has not finished yet, by (worker, unit)."""
            self._ranks = _Ranks(self.first)
            """Each unit's rank (:meth:`_rank`), found once."""

        @property
        def collection_is_completed(self) -> bool:
            return bool(self.registered_collections)

        def schedule(self) -> None:
            """xdist's; at the first distribution, when there are fewer units than workers, xdist lets go of the
            workers it added last: those still collecting are put last, so that the one whose collection is in
            keeps the work (``pytest -n 2`` on one file of the kit's tests was an INTERNALERROR)."""
            if self.collection is None:
                work = self.assigned_work
                for late in [n for n in work if n not in self.registered_collections]:
                    work[late] = work.pop(late)  # to the end: let go first
            super().schedule()

        def add_node_collection(self, node: Any, collection: Any) -> None:
            if node not in self.assigned_work:  # let go before its collection came: fewer units than workers
                return
            collection = _unique(list(collection))
            if self.collection is not None and collection != self.collection:
                from xdist.scheduler.loadscope import report_collection_diff

                first = next(iter(self.registered_collections))
                msg = report_collection_diff(self.collection, collection, first.gateway.id, node.gateway.id)
                self.log(msg)
                self.config.hook.pytest_collectreport(report=pytest.CollectReport(
                    nodeid=node.gateway.id, outcome="failed", longrepr=msg, result=[]))
                node.shutdown()
                return
            self.registered_collections[node] = collection

        def _reschedule(self, node: Any) -> None:
            if node not in self.registered_collections:  # still collecting: work comes once its collection has
                if not self.workqueue and not node.shutting_down:
                    node.shutdown()  # nothing left for it (it ends after its collection)
                return
            workload = self.assigned_work[node]
            if self.workqueue and not node.shutting_down and any(s in self.first for s in workload):
                # a long unit runs there: the next unit goes to whichever worker is free first. A worker runs a test
                # only once the one after it has come (xdist's worker: its teardown depends on the next), so a long
                # unit's last test gets the least urgent unit behind it, not the next one
                if self._pending_of(workload) < 2:
                    self._assign_work_unit(node, least_urgent=True)
            else:
                super()._reschedule(node)
            if not self.workqueue:
                # nothing left for anyone: every worker is told, so that it runs its last test; xdist tells only the
                # worker that asked, and one given its last unit as the queue ran out would wait for a next forever
                for other in self.nodes:
                    if other in self.registered_collections and not other.shutting_down:
                        other.shutdown()

        def _split_scope(self, nodeid: str) -> str:
            base = nodeid.split("#", 1)[0] if "#" in nodeid.rsplit("]", 1)[-1] else nodeid
            for prefix in self.first:  # the checkout's longest units (UNITS_FIRST)
                if base.startswith(prefix):
                    return prefix
            for folder in self.by_folder:  # the checkout's own layout (UNITS_BY_FOLDER)
                if base.startswith(folder):
                    return folder
            if base.startswith(self.by_file):
                return base.split("::", 1)[0]
            return group_of(base) or nodeid

        def _assign_work_unit(self, node: Any, least_urgent: bool = False) -> None:
            """xdist's, with the next unit by :func:`_rank` and each test's position from an index made once (xdist
            looks each test up in the collection's ids, ``list.index``). ``least_urgent``: the last unit by rank
            instead, a single test if there is one, the fewest tests (to queue behind a long unit)."""
            if node not in self.registered_collections:
                return
            queue: OrderedDict[str, Any] = self.workqueue
            if least_urgent:  # never the late reader (LAST) while another unit waits: it reads what they write
                pool = [s for s in queue if s != LAST] or list(queue)
                scope = max(pool, key=lambda s: (self._rank(s), "::" in s, -len(queue[s])))
            else:
                scope = min(queue, key=self._ranks.__getitem__)  # a C call per queued unit, not a method's
            work_unit = queue.pop(scope)
            self.assigned_work.setdefault(node, {})[scope] = work_unit
            if self._positions is None:  # every worker's collection is the first one's, or it gets no work
                self._positions = {}
                for i, nodeid in enumerate(self.collection or self.registered_collections[node]):
                    self._positions.setdefault(nodeid, i)
            todo = [self._positions[nodeid] for nodeid, completed in work_unit.items() if not completed]
            self._left[(id(node), scope)] = len(todo)
            node.send_runtest_some(todo)

        def _rank(self, scope: str) -> tuple[int, int]:
            """:func:`_rank`, with the checkout's longest units (:data:`UNITS_FIRST`) before everything, in order."""
            return self._ranks[scope]

        def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
            """xdist's, and a unit whose tests have all run leaves the worker's workload (xdist counts the pending
            tests of every unit a worker ever had, after each test and at every event). What a crashed worker
            leaves (``remove_node``) is its units with tests still pending, as before."""
            nodeid = self.registered_collections[node][item_index]
            scope = self._split_scope(nodeid)
            workload = self.assigned_work[node]
            workload[scope][nodeid] = True
            key = (id(node), scope)
            self._left[key] = self._left.get(key, 1) - 1
            if self._left[key] <= 0:
                del workload[scope], self._left[key]
            self._reschedule(node)

    return GroupScheduling


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Our units and order for the load-balancing modes; any other --dist the user chose is left alone."""
    if config.getoption("dist", "no") not in ("load", "loadgroup", "worksteal"):
        return None
    return _make_scheduler_class()(config, log)


# ----------------------------------------------------------------------------------------------------------
# one target, one tag, one verdict on exit for all workers

def _is_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", None)) \
        and config.getoption("dist", "no") != "no"


def pytest_configure(config: pytest.Config) -> None:
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        _WORKER_CONFIG["config"] = config
        if worker.get(quiet_phases.KEY):  # speed5 (issue 44): passed setups and teardowns nobody there reads
            quiet_phases.install(config)
        if worker.get("qc_target_file"):  # the controller's resolved target: read, never resolved again
            config.option.qc_target_file = worker["qc_target_file"]
        if worker.get("qc_run_tag"):
            config.option.qc_run_tag = worker["qc_run_tag"]
        return
    if _is_controller(config) and not config.getoption("qc_run_tag", None):
        config.option.qc_run_tag = "qc-" + uuid.uuid4().hex[:8]
    if _is_controller(config) and _suites_selected(config):  # use_for takes only local popen workers
        from qaconform.pytest import forked_workers, worker_shim

        given = os.environ.get(worker_shim.ENV, "")
        if given and os.path.exists(given):  # qaconform run started one before it checked the target
            config.stash[_FORK_SERVER] = forked_workers.ForkServer.adopt(given)
        elif forked_workers.enabled():  # started now: it imports while the controller checks the target
            try:
                config.stash[_FORK_SERVER] = forked_workers.ForkServer()
            except OSError:
                pass  # the workers start as their own interpreters, as xdist does


_FORK_SERVER = pytest.StashKey[Any]()
"""On the controller: the fork server the workers are forked from (qaconform/pytest/forked_workers.py)."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: list[Any]) -> None:
    server = config.stash.get(_FORK_SERVER, None)
    if server is not None:
        from qaconform.pytest import forked_workers

        forked_workers.use_for(specs, server)


def pytest_unconfigure(config: pytest.Config) -> None:
    server = config.stash.get(_FORK_SERVER, None)
    if server is not None:
        del config.stash[_FORK_SERVER]
        server.stop()


_TARGET_FILE = pytest.StashKey[str]()
"""On the controller: the resolved target (target.json) every worker reads, its path handed to each in its
workerinput: the target is resolved and examined once, and reaches the workers by this road alone."""


def worker_output(config: pytest.Config) -> dict[str, Any] | None:
    """xdist's ``config.workeroutput`` in a worker (what the controller reads when the worker ends), else None."""
    output = getattr(config, "workeroutput", None)
    return output if isinstance(output, dict) else None


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """On the controller, before any worker starts: the target once (reference server, the doctor, limits)."""
    config = session.config
    if not _is_controller(config) or not _suites_selected(config):
        return
    from qaconform.pytest.run_state import state
    from qaconform.target.politeness import Limits

    target = state(config).holder.get()  # a pytest.exit(...) here ends the run cleanly, before any worker starts

    limits = Limits(target.profile.safety.max_concurrency, target.profile.safety.max_rps)
    cap = limits.max_jobs()
    workers = int(config.option.numprocesses)
    if cap is not None and workers > cap:
        raise pytest.UsageError(f"-n {workers}: the profile {target.profile.path} allows {limits.describe()} "
                                f"([safety] max_concurrency / max_rps), which {workers} workers cannot share; use "
                                f"-n {cap} or fewer")
    config.stash[_TARGET_FILE] = str(state(config).holder.handed_to_workers())


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_collection(session: pytest.Session) -> Any:
    """A forked worker collects in one of the fork server's slots (qaconform/pytest/collect_gate.py)."""
    if not hasattr(session.config, "workerinput"):
        yield
        return
    from qaconform.pytest import collect_gate

    with collect_gate.slot():
        yield


def _suites_selected(config: pytest.Config) -> bool:
    """Whether this run includes the suites (the kit's own tests need no target)."""
    args = [str(a) for a in config.args]
    return any("suites" in a.replace("\\", "/").split("/") for a in args)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    config = node.config
    node.workerinput["qc_run_tag"] = config.getoption("qc_run_tag", None)
    node.workerinput["qc_target_file"] = config.stash.get(_TARGET_FILE, None)
    node.workerinput[quiet_phases.KEY] = quiet_phases.controller_allows(config)


def pytest_keyboard_interrupt(excinfo: pytest.ExceptionInfo[BaseException]) -> None:
    """In a worker: keep why the plugin ended the run (the target stopped answering) for the controller."""
    from qaconform.pytest.run_state import state
    from qaconform.vocabulary import StopReason

    config = _WORKER_CONFIG.get("config")
    if config is None or not isinstance(excinfo.value, pytest.exit.Exception):
        return
    stopped = state(config).stopped
    output = worker_output(config)
    if output is not None:
        # plain str: execnet carries no enum (a StopReason in the worker's output lost the whole output)
        reason = str(stopped.reason.value) if stopped else StopReason.UNREACHABLE.value
        output["qc_exit"] = {"reason": reason, "message": str(excinfo.value.msg), "code": excinfo.value.returncode}


_WORKER_CONFIG: dict[str, pytest.Config] = {}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """On the controller: a worker that ended with a pytest.exit (the target stopped answering) ends the run with
    the same message and exit code as a serial run would."""
    from qaconform.pytest.run_state import Stopped, state
    from qaconform.vocabulary import StopReason

    out = getattr(node, "workeroutput", None) or {}
    stop = out.get("qc_exit")
    if stop and stop.get("code") not in (None, 0, 1):
        state(node.config).stopped = Stopped(StopReason.of(stop["reason"]) or StopReason.INTERNAL, stop["message"])
        pytest.exit(stop["message"], returncode=stop["code"])
