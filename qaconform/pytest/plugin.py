"""The pytest side of qaconform: target selection, rule markers, observations, created ids, results file.

Registered through the ``pytest11`` entry point (pyproject.toml), so ``pytest --pyargs qaconform.suites
--target-profile p.toml`` works from any folder once the kit is installed. Inert in other projects: every hook
acts only on tests that carry rule markers or live under the kit's suites. Rule ids come from markers
(``@pytest.mark.rule("COMMENT-4")``) and are checked
against spec/rules.yaml at collection, so coverage by rule is a query over the results, not a list kept by hand.
The results file (``--qaconform-results PATH``) is what ``qaconform.report`` turns into junit/json/html.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import json
import os
import platform
import time
import uuid
from collections.abc import Callable, Generator, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit

import pytest

from qaconform import exitcodes
from qaconform.pytest.markers import AREAS, MARKERS
from qaconform.pytest.outcomes import RuleFailure, SkipKind, skip, skip_of
from qaconform.pytest.redaction import scrub_report
from qaconform.status import Status
from qaconform.target.client import ApiClient, Recorder, TargetError, TargetUnreachable
from qaconform.target.profile import ROLES, Profile, ProfileError, load_profile
from qaconform.target.writes import (
    DEFAULT_WRITE_BUDGET,
    SUITES,
    THOROUGH_COST,
    UNLIMITED,
    WriteBudget,
    parse_budget,
    pool_for,
    write_summary,
    writes_text,
)

if TYPE_CHECKING:  # the doctor imports the contract (jsonschema): loaded when a suite needs a target, not before
    from qaconform.target.doctor import Diagnosis

_PROP = "qaconform."

pytest_plugins = [
    "qaconform.pytest.properties.plugin",  # --max-examples/--time-budget/--seed of the generated tests
    # -n / qaconform run --jobs: tests that share state on the target, one target for all workers
    "qaconform.pytest.parallel",
]


@dataclass
class Stopped:
    """Why a run ended before its verdict, written into the results file (``qaconform run`` reads it there)."""

    reason: str
    """``profile`` (bad profile or credential), ``unreachable`` (the target does not answer), ``usage``,
    ``interrupted``, ``internal`` (pytest's own meanings)."""
    message: str


@dataclass
class RunState:
    """What the plugin keeps for one pytest process (``config.stash[STATE]``)."""

    holder: _TargetHolder
    started: float = field(default_factory=time.time)
    created_ids: set[str] = field(default_factory=set)
    created_emitted: set[tuple[str, str]] = field(default_factory=set)
    """(kind, id) of every created object already written to the results: one object, one entry."""
    results: list[dict[str, Any]] = field(default_factory=list)
    unmarked_writers: list[str] = field(default_factory=list)
    gone: str | None = None
    """Set when the target stopped answering: the run ends after the current test."""
    stopped: Stopped | None = None


STATE = pytest.StashKey[RunState]()


def state(config: pytest.Config) -> RunState:
    return config.stash[STATE]


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
                     "QACONFORM_WRITE_BUDGET); a test "
                     "that meets a spent budget is 'not checked: write budget spent'")
    g.addoption("--thorough", dest="qc_thorough", action="store_true",
                help=f"release QA: no write budget and the generated tests' full example counts ({THOROUGH_COST})")
    g.addoption("--reference-size", dest="qc_ref_size", default="small",
                help="size of the embedded reference server's dataset when no profile is given")


# ----------------------------------------------------------------------------------------------------------
# the target

@dataclass
class Target:
    """The profile in use and, when the kit started it, the reference server behind it."""

    profile: Profile
    recorder: Recorder
    started_reference: bool = False
    clients: dict[str, ApiClient] = field(default_factory=dict)
    diagnosis: Diagnosis = field(default_factory=lambda: _no_findings())
    """What the doctor found before any test (the profile above is already resolved by it)."""


def _no_findings() -> Diagnosis:
    from qaconform.target.doctor import Diagnosis

    return Diagnosis()


class _TargetHolder:
    """Starts (once, lazily) the reference server when no profile is given, and stops it at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.target: Target | None = None
        self._stack = contextlib.ExitStack()
        self.error: str | None = None

    def get(self) -> Target:
        if self.target is not None:
            return self.target
        if self.error:
            _stop(self.config, "profile", self.error, exitcodes.PYTEST_BAD_PROFILE)
        path = self.config.getoption("qc_profile")
        started = False
        if not path:
            from qaconform.reference import ReferenceServer  # imported lazily: a real target never needs it

            size_opt = self.config.getoption("qc_ref_size")
            size: str | int = int(size_opt) if str(size_opt).isdecimal() else size_opt
            srv = self._stack.enter_context(ReferenceServer(size=size))
            path = str(srv.profile_path)
            started = True
        try:
            profile = load_profile(path, option="--target-profile (or QACONFORM_PROFILE)")
        except ProfileError as exc:
            self.error = str(exc)
            _stop(self.config, "profile", str(exc), exitcodes.PYTEST_BAD_PROFILE)
        base_url = _base_url_override(self.config)
        if base_url:
            from dataclasses import replace
            profile = replace(profile, base_url=base_url.rstrip("/"))
        recorder = Recorder(secrets=set(profile.passwords()))
        diagnosis = self._diagnose(profile, recorder)
        if diagnosis.base_url and diagnosis.base_url != profile.base_url.rstrip("/"):
            _stop(self.config, "usage", f"the doctor examined {diagnosis.base_url}, but this session would test "
                  f"{profile.base_url} (--base-url or QACONFORM_BASE_URL): one run tests one target. Unset the "
                  "override, or give it to `qaconform run` itself so that its doctor examines that URL",
                  exitcodes.PYTEST_BAD_PROFILE)
        self.target = Target(profile=diagnosis.resolve(profile), recorder=recorder, started_reference=started,
                             diagnosis=diagnosis)
        ApiClient.write_budget = _write_budget(self.config, self.target.profile)
        return self.target

    def _diagnose(self, profile: Profile, recorder: Recorder) -> Diagnosis:
        """The doctor's findings: handed over (by the controller to a worker, by ``qaconform run`` in a file), else
        examined now, with reads only. A profile that cannot be used ends the run here, every problem in the one
        message (exit 2; 3 when nothing answers), before any test."""
        from qaconform.target.doctor import Diagnosis, Severity, examine

        handed = getattr(self.config, "workerinput", {}).get("qc_doctor")
        given = self.config.getoption("qc_doctor")
        if handed is not None:
            diagnosis = Diagnosis.from_dict(handed)
        elif given:
            try:
                diagnosis = Diagnosis.from_dict(json.loads(Path(given).read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                _stop(self.config, "usage", f"--qaconform-doctor {given}: cannot be read ({exc}); leave the option "
                      "out and the doctor examines the target itself", exitcodes.PYTEST_BAD_PROFILE)
        else:
            diagnosis = examine(profile, recorder)
        recorder.take()
        problems = diagnosis.of(Severity.STOP, Severity.UNREACHABLE)
        if problems:
            text = "; ".join(f"{f.message}" + (f" (fix: {f.fix})" if f.fix else "") for f in problems)
            if diagnosis.exit_code == 3:
                _stop(self.config, "unreachable", text, exitcodes.PYTEST_UNREACHABLE)
            _stop(self.config, "profile", f"profile {profile.path}: {text}", exitcodes.PYTEST_BAD_PROFILE)
        return diagnosis

    def close(self) -> None:
        if self.target:
            for c in self.target.clients.values():
                c.close()
        self._stack.close()


WRITE_REFUSED = "not allowed by safety: --read-only (the test sends"


def _refuse_write(method: str, url: str) -> None:
    skip(SkipKind.WRITE_REFUSED, f"{WRITE_REFUSED} {method} {urlsplit(url).path})")


def budget_of(config: pytest.Config, profile: Profile) -> int | None:
    """The run's write budget: none under --thorough, else --write-budget, else the profile's (None: unlimited)."""
    if config.getoption("qc_thorough", False):
        return None
    given = config.getoption("qc_write_budget", None)
    if given is None or str(given).strip() == "":
        return profile.safety.write_budget_value
    try:
        return parse_budget(str(given), "--write-budget (or QACONFORM_WRITE_BUDGET)")
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def _write_budget(config: pytest.Config, profile: Profile) -> WriteBudget:
    """The run's write budget, counted in a file every xdist worker of the run shares (in memory on one process)."""
    path = None
    worker = getattr(config, "workerinput", None)
    factory = getattr(config, "_tmp_path_factory", None)
    if worker is not None and factory is not None:
        path = Path(factory.getbasetemp().parent) / f"qc-writes-{worker['testrunuid']}.json"
    return WriteBudget(budget_of(config, profile), path)


def _budget_spent(pool: str, method: str, url: str) -> None:
    """A write whose pool of the write budget is spent: the running test is not checked (never the target's fault)."""
    budget = ApiClient.write_budget
    limit = budget.limit(pool) if budget is not None else None
    total = budget.budget if budget is not None else None
    share = "the hand-written suites' share" if pool == SUITES else f"the {pool} share"
    skip(SkipKind.WRITE_BUDGET, f"write budget spent: {share} ({limit} of the run's {total} accepted writes) is used "
         f"up, so {method} {urlsplit(url).path} was not sent (a larger --write-budget, or --thorough, checks this "
         "test)")


def pool_of(item: pytest.Item) -> str:
    """The share of the write budget a test spends (qaconform.target.writes.pool_for): a generated test's own, the
    observations' for a test of observed-level rules only, else the suites'."""
    from qaconform.contract import load_contract

    rules = load_contract().rules
    return pool_for(Path(str(item.fspath)), {rules[r].level for r in _rule_ids(item) if r in rules})


def _stop(config: pytest.Config, reason: str, message: str, code: int) -> NoReturn:
    """End the run with ``message``, and say why in the results file."""
    state(config).stopped = Stopped(reason, message)
    pytest.exit(message, returncode=code)


def _base_url_override(config: pytest.Config) -> str | None:
    """pytest-base-url's --base-url (or its base_url ini value), else $QACONFORM_BASE_URL."""
    value = config.getoption("base_url", default=None) or config.getini("base_url") if _has_base_url(config) else None
    return value or os.environ.get("QACONFORM_BASE_URL") or None


def _has_base_url(config: pytest.Config) -> bool:
    try:
        config.getini("base_url")
    except ValueError:
        return False
    return True


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
    ApiClient.budget_spent = None


def pytest_report_header(config: pytest.Config) -> list[str]:
    path = config.getoption("qc_profile")
    if path:
        override = _base_url_override(config)
        return [f"qaconform target: profile {path}" + (f" (base_url {override})" if override else "")]
    return ["qaconform target: embedded reference server (started on 127.0.0.1 at first use, fresh database)"]


# ----------------------------------------------------------------------------------------------------------
# collection: rule markers

def _rule_ids(item: pytest.Item) -> list[str]:
    ids: list[str] = []
    for m in item.iter_markers("rule"):
        ids.extend(str(a) for a in m.args)
    return ids


def _in_suites(item: pytest.Item) -> bool:
    return "suites" in Path(str(item.fspath)).parts


def pytest_collection_finish(session: pytest.Session) -> None:
    """Under plain pytest too, the doctor examines the target before the first test (a parallel run's controller did
    it at session start): a profile it refuses ends the run here, with reads only sent. Not for --collect-only, nor
    for a session that collected no suite test (the kit's own tests need no target)."""
    config = session.config
    if config.option.collectonly or not any(_rule_ids(i) or _in_suites(i) for i in session.items):
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


# ----------------------------------------------------------------------------------------------------------
# fixtures

def _target(request: pytest.FixtureRequest) -> Target:
    return state(request.config).holder.get()


@pytest.fixture(scope="session")
def qc_target(request: pytest.FixtureRequest) -> Target:
    return _target(request)


@pytest.fixture(scope="session")
def profile(qc_target: Target) -> Profile:
    return qc_target.profile


@pytest.fixture(scope="session")
def api(qc_target: Target) -> dict[str, ApiClient]:
    """ApiClient per role, plus 'anonymous' and 'wrong_password' (member's username, a wrong password)."""
    p, rec = qc_target.profile, qc_target.recorder
    if not qc_target.clients:
        for role in ROLES:
            a = p.accounts[role]
            qc_target.clients[role] = ApiClient(p, role, a.username, a.password, rec, user_id=a.id)
        qc_target.clients["anonymous"] = ApiClient(p, "anonymous", None, None, rec)
        wrong = "qc-wrong-" + uuid.uuid4().hex[:8]
        qc_target.clients["wrong_password"] = ApiClient(p, "wrong_password", p.accounts["member"].username, wrong, rec)
    return qc_target.clients


def _client_of(role: str) -> Any:
    """A session fixture named ``role``: that account's client (``api[role]``), for tests that need one caller."""

    @pytest.fixture(scope="session", name=role)
    def client(api: dict[str, ApiClient]) -> ApiClient:
        return api[role]

    client.__doc__ = f"The {role} account's client (api[{role!r}])."
    return client


admin, moderator, member, novice, anonymous = (_client_of(r) for r in (*ROLES, "anonymous"))


@pytest.fixture(scope="session")
def contract() -> Any:
    from qaconform.contract import load_contract

    return load_contract()


@pytest.fixture(scope="session")
def run_tag(request: pytest.FixtureRequest) -> str:
    tag = request.config.getoption("qc_run_tag")
    if not tag:
        tag = "qc-" + uuid.uuid4().hex[:8]
        request.config.option.qc_run_tag = tag
    return str(tag)


class UserIds(dict[str, int]):
    """Role -> user id. A role whose id could not be found fails the test that needs it, with what to do: a
    KeyError would count as a bug of the kit when it is the target's expert lists (or the profile) that lack it."""

    def __missing__(self, role: str) -> int:
        raise AssertionError(f"the user id of {role} is not in the profile and the target's expert lists do not "
                             f"show it; add id = <number> under [accounts.{role}] in the profile")


@pytest.fixture(scope="session")
def user_ids(api: dict[str, ApiClient], profile: Profile, run_tag: str, created: Any) -> dict[str, int]:
    """Role -> user id: from the profile, else as the doctor found them in the lists, else from content the run
    creates (each missing account comments on an answer member posts; the comment list shows its author)."""
    ids = UserIds({r: c.user_id for r, c in api.items() if c.user_id is not None and r in ROLES})
    missing = [r for r in ROLES if r not in ids]
    if missing:
        ids.update(_ids_from_own_comments(api, profile.fixtures.question_id, missing, run_tag, created))
    for role in list(ids):
        if role in api:
            api[role].user_id = ids[role]
    return ids


def _ids_from_own_comments(api: dict[str, ApiClient], question_id: int, roles: list[str], run_tag: str,
                           created: Any) -> dict[str, int]:
    """The ids of ``roles`` as the comment list shows the authors of comments they post (writes: only for roles
    no list the doctor read shows). What cannot be posted or read leaves the role out; its tests say so."""
    from qaconform.contract import path
    from qaconform.pytest.support import new_id, post_answer, post_comment

    answer = post_answer(api["member"], question_id, run_tag, created, text="finds the accounts' user ids")
    if answer.status != 201:
        return {}
    try:
        answer_id = new_id(answer)
    except AssertionError:
        return {}
    marks: dict[str, str] = {}
    for role in roles:
        text = f"whoami-{role}-{uuid.uuid4().hex[:6]}"
        if post_comment(api[role], answer_id, run_tag, created, text=text).status == 201:
            marks[text] = role
    found: dict[str, int] = {}
    resp = api["admin"].get(path("listAnswerComments", answerId=answer_id), params={"pageSize": 50})
    body = resp.json() if resp.status == 200 else None
    for item in body.get("list") or [] if isinstance(body, dict) else []:
        author = item.get("author") if isinstance(item, dict) else None
        shown = str(item.get("body", "")) if isinstance(item, dict) else ""
        mark = next((m for m in marks if m in shown), None)
        if mark and isinstance(author, dict) and isinstance(author.get("id"), int):
            found[marks[mark]] = author["id"]
    return found


@pytest.fixture(scope="session")
def usable_fixture(qc_target: Target) -> Callable[[str], Any]:
    """``usable_fixture("wiki_node_id")``: the id this run uses, or a skip saying why there is none: not in the
    profile (missing fixture), or not in the state the profile says (the doctor's reason: consumed by an earlier
    run, a hidden space novice lists ...). Session-scoped, for the one-shot fixtures of suites/conftest.py."""

    def need(name: str) -> Any:
        reason = qc_target.diagnosis.unusable.get(name)
        if reason:
            skip(SkipKind.FIXTURE_STATE, reason)
        value = getattr(qc_target.profile.fixtures, name, None)
        if value is None:
            skip(SkipKind.MISSING_FIXTURE, f"fixture {name} not in profile", fixtures=[name])
        return value

    return need


@pytest.fixture
def require_fixture(usable_fixture: Callable[[str], Any]) -> Callable[[str], Any]:
    """``require_fixture("wiki_node_id")`` returns the id or skips with the reason the report shows."""
    return usable_fixture


@pytest.fixture
def observe(request: pytest.FixtureRequest) -> Callable[..., None]:
    """Record what the target does where the description is silent. Never fails the test."""

    def record(rule_id: str, **facts: Any) -> None:
        request.node.user_properties.append((_PROP + "observation", {"rule": rule_id, "facts": _jsonable(facts)}))

    return record


class CreatedRegistry:
    """Everything the run created on the target, listed in the report (and used by safety checks)."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self._node: pytest.Item | None = None

    def add(self, kind: str, id: Any, by: str) -> None:
        entry = {"kind": kind, "id": id, "by": by, "test": self._node.nodeid if self._node else None}
        self.items.append(entry)
        if self._node is not None:
            self._node.user_properties.append((_PROP + "created", entry))


@pytest.fixture(scope="session")
def created() -> CreatedRegistry:
    return CreatedRegistry()


@pytest.fixture(autouse=True)
def _qaconform_item_context(request: pytest.FixtureRequest) -> Iterator[None]:
    """Per suite test: version gate, safety gate, created-id attribution, and a fresh exchange recorder."""
    item = request.node
    ids = _rule_ids(item)
    if not ids and not _in_suites(item):
        yield
        return
    target = _target(request)
    p = target.profile
    if p.service_version:
        from qaconform.contract import load_contract

        rules = load_contract().rules
        late = [r for r in ids if r in rules and not p.supports(rules[r].since)]
        if late and len(late) == len(ids):
            r0 = rules[late[0]]
            skip(SkipKind.CONFIGURATION, f"disabled by configuration: {r0.id} was added in {r0.since}, "
                 f"the target runs {p.service_version}")
    if item.get_closest_marker("destructive") and not p.safety.destructive:
        skip(SkipKind.SAFETY, "not allowed by safety: the profile has [safety] destructive = false")
    if item.get_closest_marker("writes") and request.config.getoption("qc_read_only"):
        skip(SkipKind.SAFETY, "not allowed by safety: --read-only")
    target.recorder.take()
    target.recorder.take_settles()
    if "created" in request.fixturenames:
        reg: CreatedRegistry = request.getfixturevalue("created")
        reg._node = item
    yield


# ----------------------------------------------------------------------------------------------------------
# results

def _attach_created(item: pytest.Item) -> None:
    """List what the client saw created (every 201 to a POST) under this test, unless a test already registered it:
    the report's list of created content must not depend on every test calling ``created.add``."""
    holder = state(item.config).holder
    if holder.target is None or not holder.target.recorder.created:
        return
    new, holder.target.recorder.created = holder.target.recorder.created, []
    listed = state(item.config).created_ids
    listed |= {str(v.get("id")) for k, v in item.user_properties if k == _PROP + "created" and isinstance(v, dict)}
    mine = {str(v.get("id")): v for k, v in item.user_properties if k == _PROP + "created" and isinstance(v, dict)}
    for entry in new:
        if str(entry["id"]) not in listed:
            listed.add(str(entry["id"]))
            item.user_properties.append((_PROP + "created", {**entry, "test": item.nodeid}))
        elif str(entry["id"]) in mine and entry.get("url"):  # registered by the test: add where it was posted
            mine[str(entry["id"])].setdefault("url", entry["url"])  # (the cleanup reads a comment's parent there)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before any fixture of the test (session ones too): the share of the write budget its writes are taken from."""
    if ApiClient.write_budget is not None:
        ApiClient.write_budget.pool = pool_of(item)
        ApiClient.write_budget.overdraft = False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    if call.when == "setup":
        item.user_properties.append((_PROP + "rules", _rule_ids(item)))
    if call.when in ("setup", "call"):
        _attach_created(item)
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    holder = state(item.config).holder
    if (call.when == "call" or (call.when == "setup" and not report.passed)) and holder.target is not None:
        settles = holder.target.recorder.take_settles()
        if settles:  # the test's read-backs after writes (support.settle), its fixtures' included
            report.user_properties.append((_PROP + "settle", settles))
        writes = holder.target.recorder.take_writes()
        if writes:  # the test's writes per operation (its fixtures' included), and the share they came from
            report.user_properties.append((_PROP + "writes", {"pool": pool_of(item), **writes}))
    state(item.config).created_ids.update(
        str(v.get("id")) for v in _props(report, "created") if isinstance(v, dict))
    typed_skip = skip_of(call.excinfo.value) if report.skipped and call.excinfo is not None else None
    if typed_skip is not None:
        report.user_properties.append((_PROP + "skip", {"kind": typed_skip[0].value, "fixtures": list(typed_skip[1])}))
    if report.failed:
        kind = Status.ERROR
        if call.excinfo is not None and isinstance(call.excinfo.value, RuleFailure):
            report.user_properties.append((_PROP + "failure", {"rules": list(call.excinfo.value.rules),
                                                               "curl": call.excinfo.value.curl}))
        if call.excinfo is not None and call.excinfo.errisinstance(AssertionError):
            kind = Status.FAILED  # the target broke a rule (TargetError and RuleFailure are AssertionErrors too)
        elif call.excinfo is not None and call.excinfo.errisinstance(TargetUnreachable):
            kind = _target_gone(item.config, str(call.excinfo.value))
        if kind is Status.FAILED:
            kind = _blame(item, call, report)
        report.user_properties.append((_PROP + "kind", kind.value))  # plain str: xdist carries no enum
        if holder.target is not None:
            exchanges = [e.as_dict() for e in holder.target.recorder.exchanges[-8:]]
            report.user_properties.append((_PROP + "exchanges", exchanges))
    if holder.target is not None and (report.longrepr is not None or report.sections):
        scrub_report(report, holder.target.recorder.redact)  # last: what the hooks above wrote is scrubbed too


def _blame(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> Status:
    """A failure whose message names none of the test's rules but names rule X (a fixture, or a step the test
    needed first, met X broken) blocks the test: "blocked"
    with ``blocked_by`` X, charged to X, not to the test's own rules. A failure charged only to should-level rules
    is a warning: the test shows as skipped and the results keep it as failed (the report lists it apart), unless
    --strict-should."""
    from qaconform.blame import rules_named
    from qaconform.contract import load_contract

    rules = load_contract().rules
    error = call.excinfo.value if call.excinfo is not None else None
    message = str(error) if error is not None else ""
    own = _rule_ids(item)
    # a RuleFailure says which rules broke; a plain assertion names them at the start of its message
    named = [r for r in error.rules if r in rules] if isinstance(error, RuleFailure) else rules_named(message, rules)
    named_own = [r for r in named if r in own] if call.when == "call" else []
    if not named_own:
        # a fixture, or a step the test needed before its own check (posting the answer it acts on), failed on
        # another rule: the test could not run; that rule is charged, not the test's own
        if named:
            report.user_properties.append((_PROP + "blocked_by", named))
            return Status.BLOCKED
    charged = named_own or own
    only_should = bool(charged) and all(r in rules and rules[r].level == "should" for r in charged)
    if only_should and not item.config.getoption("qc_strict_should"):
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0,
                           f"should-level warning ({', '.join(charged)}; fails the run only with --strict): "
                           f"{message.splitlines()[0] if message else ''}"[:2000])
        report.user_properties.append((_PROP + "warning", charged))
    return Status.FAILED


def _target_gone(config: pytest.Config, message: str) -> Status:
    """A test met no answer at all. Not the kit's fault: if the target still answers, it dropped this one request
    (the test failed); if not, it stopped answering, and the run ends with exit 3 after this test."""
    holder = state(config).holder
    if holder.target is None:
        return Status.ERROR
    from qaconform.contract import path

    probe = ApiClient(holder.target.profile, "anonymous", None, None, Recorder())
    try:
        probe.get(path("listQuestions"), params={"pageSize": 1})
    except TargetUnreachable:
        state(config).gone = message
    except TargetError:
        pass
    finally:
        probe.close()
    return Status.FAILED


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield
    gone = state(item.config).gone
    if gone:
        holder = state(item.config).holder
        base = holder.target.profile.base_url if holder.target else "the target"
        _stop(item.config, "unreachable", f"target {base} stopped answering during the run: {gone}",
              exitcodes.PYTEST_UNREACHABLE)


def _props(report: pytest.TestReport, name: str) -> list[Any]:
    return [v for k, v in report.user_properties if k == _PROP + name]


class _Reporter:
    """The hooks that collect results: a plugin object holding its config (``pytest_runtest_logreport`` gets only
    the report), registered at configure time."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        entry = _entry(report)
        if entry is None:
            return
        run = state(self.config)
        if entry.get("skip_kind") == SkipKind.WRITE_REFUSED and not {"writes", "destructive"} & set(report.keywords):
            run.unmarked_writers.append(report.nodeid)
        entry["created"] = _new_created(run, report)
        run.results.append(entry)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The writes of the run against its budget; under --read-only: tests that tried to write without the
        ``writes`` marker (their writes were refused all the same, but ``qaconform run --dry-run`` lists writing
        tests by that marker, so it missed these)."""
        holder = state(self.config).holder
        if holder.target is not None and any(r.get("writes") for r in state(self.config).results):
            data = _budget_data(self.config, holder.target)
            terminalreporter.write_line(writes_text(write_summary(state(self.config).results, data)))
        unmarked = state(self.config).unmarked_writers
        if unmarked:
            terminalreporter.write_sep("-", f"{len(unmarked)} test(s) write without the writes marker")
            for nodeid in unmarked:
                terminalreporter.write_line(nodeid)

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        path = self.config.getoption("qc_results")
        if not path or hasattr(self.config, "workerinput"):
            return
        run = state(self.config)
        holder = run.holder
        stopped = run.stopped or _stopped_by_pytest(int(exitstatus))
        payload = {
            "run_tag": self.config.getoption("qc_run_tag"),
            "started": datetime.fromtimestamp(run.started, UTC).isoformat(),
            "finished": datetime.now(UTC).isoformat(),
            "exitstatus": int(exitstatus),
            "stopped": asdict(stopped) if stopped else None,
            "target": holder.target.profile.redacted() if holder.target else None,
            "doctor": holder.target.diagnosis.as_dict() if holder.target else None,
            "consumed": _consumed_by(holder.target, self.config.getoption("qc_run_tag")),
            "reference": bool(holder.target and holder.target.started_reference),
            "write_budget": _budget_data(self.config, holder.target),
            "versions": _versions(),
            "tests": run.results,
        }
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(payload, indent=1, default=str)
        if holder.target:
            text = holder.target.recorder.redact(text)
        Path(path).write_text(text)


def _budget_data(config: pytest.Config, target: Target | None) -> dict[str, Any] | None:
    """The run's write budget and its shares for the results file (the report sums the tests' ``writes``)."""
    if target is None:
        return None
    budget = WriteBudget(budget_of(config, target.profile))
    return {"budget": budget.budget, "limits": budget.limits, "thorough": bool(config.getoption("qc_thorough"))}


def _consumed_by(target: Target | None, run_tag: str | None) -> list[dict[str, Any]]:
    """The one-shot fixtures this run consumed, from the record its one-shot calls kept beside the profile."""
    if target is None or not run_tag:
        return []
    from qaconform.target import ledger

    return [asdict(c) for c in ledger.of_run(target.profile.path, target.profile.base_url, run_tag)]


def _stopped_by_pytest(exitstatus: int) -> Stopped | None:
    """pytest's own reasons to stop early (when the plugin did not stop the run itself)."""
    reasons = {pytest.ExitCode.INTERRUPTED: ("interrupted", "the run was interrupted (Ctrl-C, or a collection error)"),
               pytest.ExitCode.INTERNAL_ERROR: ("internal", "pytest hit an internal error (see its output)"),
               pytest.ExitCode.USAGE_ERROR: ("usage", "pytest refused the command line or the suites")}
    found = reasons.get(pytest.ExitCode(exitstatus)) if exitstatus in {int(c) for c in pytest.ExitCode} else None
    return Stopped(*found) if found else None


def _entry(report: pytest.TestReport) -> dict[str, Any] | None:
    """One test's result as the results file holds it, or None for a report phase that adds nothing."""
    entry: dict[str, Any] | None = None
    warned = bool(_props(report, "warning"))  # a should-level failure shown as skipped: still failed in the results
    if report.when == "setup" and (report.failed or report.skipped):
        entry = {"outcome": Status.SKIPPED if report.skipped else _first(_props(report, "kind"), Status.ERROR)}
    elif report.when == "call":
        entry = {"outcome": Status.PASSED if report.passed else (
            Status.SKIPPED if report.skipped and not warned else _first(_props(report, "kind"), Status.ERROR))}
    elif report.when == "teardown" and report.failed:
        entry = {"outcome": Status.ERROR}
    if entry is None:
        return None
    observations = _props(report, "observation")
    if entry["outcome"] == Status.PASSED and observations:
        entry["outcome"] = Status.OBSERVED
    entry.update(
        nodeid=report.nodeid,
        when=report.when,
        rules=next(iter(_props(report, "rules")), []),
        areas=[k for k in AREAS if k in report.keywords],
        duration=round(report.duration, 4),
        message=_message(report),
        longrepr=str(report.longrepr)[-4000:] if report.failed else None,
        exchanges=next(iter(_props(report, "exchanges")), []),
        observations=observations,
    )
    blocked_by = next(iter(_props(report, "blocked_by")), None)
    if blocked_by:
        entry["blocked_by"] = blocked_by
    failure = next(iter(_props(report, "failure")), None)
    if failure:  # a RuleFailure: the rules it names and the curl of its exchange, as fields
        entry["failure"] = failure
    skipped = next(iter(_props(report, "skip")), None)
    if entry["outcome"] == Status.SKIPPED and not warned:
        entry["skip_kind"] = SkipKind.of(skipped["kind"] if skipped else None).value
        if skipped and skipped["fixtures"]:
            entry["needs_fixtures"] = skipped["fixtures"]
    if warned:
        entry["warning"] = True
    settle = next(iter(_props(report, "settle")), None)
    if settle:
        entry["settle"] = settle
    writes = next(iter(_props(report, "writes")), None)
    if writes:
        entry["writes"] = writes
    return entry


def _new_created(run: RunState, report: pytest.TestReport) -> list[Any]:
    """Created entries not yet in the results: a test that reports several times (schemathesis sub-tests, each with
    its own node id) carries every earlier entry of its item again in each report. One object, one entry."""
    out = []
    for c in _props(report, "created"):
        if not isinstance(c, dict) or c.get("id") is None:
            out.append(c)  # no id to tell it apart: keep it
            continue
        key = (str(c.get("kind")), str(c.get("id")))
        if key not in run.created_emitted:
            run.created_emitted.add(key)
            out.append(c)
    return out


def _first(values: list[Any], default: Any) -> Any:
    return values[0] if values else default


def _message(report: pytest.TestReport) -> str | None:
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    if report.failed:
        crash = getattr(report.longrepr, "reprcrash", None)
        if crash is not None:
            return str(crash.message)[:2000]
        return str(report.longrepr)[-500:]
    return None


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {"python": platform.python_version()}
    for dist in ("qaconform", "pytest", "schemathesis", "hypothesis", "requests", "jsonschema"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            out[dist] = metadata.version(dist)
    return out


def _jsonable(value: Any) -> Any:
    """Plain JSON data only: user_properties travel between xdist processes, which serialize no custom class."""
    return json.loads(json.dumps(value, default=repr))
