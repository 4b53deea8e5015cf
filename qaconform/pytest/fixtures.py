"""The fixtures the suites use: the target, its profile, a client per role, the run tag, user ids, usable one-shot
fixtures, observations, the created-ids registry, and the per-test context (version gate, safety gate).

PYTEST_DONT_REWRITE: plugin code, no assertion to explain; ``qaconform.pytest.plugin`` imports it before pytest
loads it as a plugin, so pytest would otherwise warn on every run that it cannot rewrite it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.run_state import _PROP, _in_suites, _rule_ids, state
from qaconform.pytest.session_target import Target
from qaconform.target.client import ApiClient
from qaconform.target.profile import ROLES, Profile


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
    target.recorder.take_holds()
    if "created" in request.fixturenames:
        reg: CreatedRegistry = request.getfixturevalue("created")
        reg._node = item
    yield


def _jsonable(value: Any) -> Any:
    """Plain JSON data only: user_properties travel between xdist processes, which serialize no custom class."""
    return json.loads(json.dumps(value, default=repr))
