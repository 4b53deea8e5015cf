"""The node actions' rules crossed with who calls, in which relation to the node, on which kind of node, in which
state, pairwise (issues 33 and 44).

A permission holds "for the caller's own node" (the node acted on: not its parent, not its question), and an effect
of the state table ("verb sent and private true", "the prompt is stored as extra") and of the action record (the node
it names, the user who acted) holds on every kind of node the action takes; a server that decides ownership on the
wrong node (the parent's author, the question's), grants an action with no own-node clause to a node's or a
question's author, or forgets an effect on one kind of node passes every test aimed at one answer. Each rule declares
the dimensions it must hold across and the actions it is crossed over in spec/dimensions.yaml; action_cases.py draws,
per action, a covering array over the caller's role, its relation to the node (author, parent's author, question's
author, none), the node's kind and its state (allpairspy, seeded by the run's ``--seed``), limited to the combinations
the run can make within its write budget, and says what each expects.

Each combination is a test whose id names it (``lockNode-parent_author-comment-created``). One call per
combination, shared by every rule judged on it (the ``acted`` cache of one process: parallel.GROUPS
"action-matrix"). Refused calls cost nothing; the calls the description allows that change a node are the run's
shared writes (suites/conftest.py), read, not sent again: two accepted writes of the matrix's own by default (the
lock of a comment; moderator's answer to a question member wrote, the node under which member is the question's
author and not the node's). With no write budget (``--thorough``) more combinations are drawn (the moderation of a
comment, each allowed change on every kind and state, on a node built for it).

What a call is expected to answer:
- refused by the permission table: 401 or 403; where the node is not in the state the action needs (no pool node
  is a favorite or wiki, a lock of a locked node, a send of a node in moderation) a refusal for the state (400, 404,
  409, 422) too, since the description does not order the two checks; never a 2xx;
- allowed: never 401 or 403, never a 5xx; a lock or a send to moderation of a node as created (unlocked, published):
  a 2xx, whose record then holds the state table's effects.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
from action_cases import (
    ASSUMED_LOCKED_QUESTION_AUTHOR,
    ASSUMED_QUESTION_AUTHOR,
    LOCK,
    LOCKED,
    LOCKED_QUESTION_AUTHOR,
    MODERATED,
    POOL,
    QUESTION_AUTHOR,
    REUSED_NODES,
    SEND,
    Case,
    OptionCase,
    PoolNode,
    array,
    built_node,
    fits,
    node_for,
    option_cases,
)
from action_responses import RESPONSE_RULES, actions_of, judges
from action_responses import judge as judge_response
from covering import parametrize_by_rule, thorough
from locked_question_node import answer_under_locked_question, locked_question_author

from qaconform.contract import Dimensions, load_contract
from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import off_the_interface, shown, why_not_refused
from qaconform.pytest.support import (
    answer_posted,
    expect_created,
    find_listed,
    new_id,
    post_answer,
    post_comment,
    refused_in_body,
)
from qaconform.target.client import ApiClient, ApiResponse

pytestmark = [pytest.mark.actions, pytest.mark.writes]

STATE_REFUSALS = (400, 404, 409, 422)
"""A refusal for the node's state (not a favorite or wiki of the caller, already locked, not published, or a node in
moderation the caller may not see): the description does not order the state and the permission checks."""
RECORD = {LOCK: "lockAction", SEND: "sendToModAction"}
"""The key of the action record in each changing action's result."""
EFFECT_RULES = ("ACTION-LOCK-EXTRA", "ACTION-VERBS", "ACTION-SENDTOMOD-VERB", "ACTION-SENDTOMOD-PRIVATE",
                "ACTION-NODE-ID", "AUTH-ACTING-USER", "ACTION-SENDTOMOD-REALUSER", "ACTION-RECORD-SHAPE")
RECORD_FIELDS = ("id", "ip", "user", "actionDate", "canceled", "private", "verb", "node")
USER_FIELDS = ("id", "username", "avatarUrl")
"""The action record's fields every record has, and its user's (ACTION-RECORD-SHAPE: "Action record ... Returned by
the state-changing node operations"; the others are present on some only: realUser, canceledByUser, canceledDate)."""
LOCKERS = {"answer_of:member": "member", "answer_of:admin": "moderator", "answer_of:novice": "admin"}
"""Who locks each locked shared answer (suites/conftest.py LOCKS, read the other way)."""
POOL_BY_KEY = {n.key: n for n in POOL}
QUESTION_PAGES = 10
"""Pages of an account's question list read to learn whether it wrote the fixture question (bounded)."""


def _no_budget(config: pytest.Config) -> bool:
    """True when the run has no write budget (``--thorough``, ``--write-budget unlimited``): then the combinations
    whose allowed call changes a node built for it are drawn too."""
    given = str(config.getoption("qc_write_budget", None) or "").strip().lower()
    return bool(config.getoption("qc_thorough", False)) or given == "unlimited"


def _repeat(case: Case) -> bool:
    """A lock of a locked node, a send of a node in moderation: what it answers is not stated (OBS-LOCK-TWICE,
    OBS-SENDTOMOD-TWICE), so the effects are not judged on it."""
    return (case.action, case.state) in ((LOCK, LOCKED), (SEND, MODERATED))


def _judged_by(rule: str, case: Case) -> bool:
    """Whether ``rule`` has something to judge on the case: a permission rule the calls it decides; an effect rule
    the allowed changes that are not repeats."""
    if rule in EFFECT_RULES:
        return case.changes_node and not _repeat(case)
    return case.rule == rule


def _cases(rule: str, dims: Dimensions, seed: int, config: pytest.Config) -> list[Case]:
    """Every row of the covering array of each action ``rule`` is crossed over that the rule judges."""
    no_budget, every = _no_budget(config), thorough(config)
    return [c for action in dims.rules[rule].actions for c in array(action, dims, seed, no_budget, every).cases
            if _judged_by(rule, c)]


def _response_rows(config: pytest.Config) -> list[Any]:
    """Every (rule, row) of action_responses.RESPONSE_RULES: each rule on every row of the arrays of the actions its
    operations name that has something for it to judge (the same rows, the same calls), the rule as the row's
    marker."""
    from qaconform.pytest.properties.plugin import STATE

    dims, rules = load_contract().dimensions, load_contract().rules
    seed, no_budget, every = config.stash[STATE].seed, _no_budget(config), thorough(config)
    rows = []
    for rule in RESPONSE_RULES:
        for action in actions_of(rule, rules[rule].operations, dims.actions):
            rows += [pytest.param(rule, c, id=f"{rule}-{c.label}", marks=pytest.mark.rule(rule))
                     for c in array(action, dims, seed, no_budget, every).cases if judges(rule, c)]
    return rows


def _option_rows(config: pytest.Config) -> list[Any]:
    """Every action's stated options (its optional query parameters: wrap, v1) on the combinations that change
    nothing (action_cases.option_cases), each marked with the permission rule that decides it."""
    from qaconform.pytest.properties.plugin import STATE

    contract = load_contract()
    seed, no_budget, every = config.stash[STATE].seed, _no_budget(config), thorough(config)
    rows = []
    for action in contract.dimensions.actions:
        options = [p.name for p in contract.operation(action).parameters if p.location == "query" and not p.required]
        rows += [pytest.param(o, id=o.label, marks=pytest.mark.rule(o.case.rule))
                 for o in option_cases(array(action, contract.dimensions, seed, no_budget, every), options, every)]
    return rows


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``case``: every row of the covering array of each action the test's rule is crossed over; ``response_rule``
    and ``row``: every response rule on every row it judges (action_responses.py); ``given``: the actions' options
    on the rows that change nothing."""
    if "given" in metafunc.fixturenames:
        metafunc.parametrize("given", _option_rows(metafunc.config))
        return
    if "row" in metafunc.fixturenames:
        metafunc.parametrize(("response_rule", "row"), _response_rows(metafunc.config))
        return
    parametrize_by_rule(metafunc, "case", _cases, "an action matrix")


# --- the nodes and the calls ------------------------------------------------------------------------------------

class Scene:
    """The pool's nodes on this target, got on first use from the run's shared writes (suites/conftest.py), and one
    call per combination (``acted``)."""

    def __init__(self, request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                 created: Any, user_ids: dict[str, int]) -> None:
        self.request = request
        self.api = api
        self.question_id = question_id
        self.run_tag = run_tag
        self.created = created
        self.user_ids = user_ids
        self.acted: dict[tuple[str, ...], tuple[ApiResponse, int, str]] = {}
        self._question_author: str | None = None
        self._locked_author: str | None = None

    def fixture(self, name: str) -> Any:
        return self.request.getfixturevalue(name)

    def node(self, key: str) -> int:
        """The id of pool node ``key``, in its state (a locked answer: the run's shared lock of it made first)."""
        if key == "question":
            return self.question_id
        if key == "shared_answer":
            return int(self.fixture("shared_answer"))
        if key in ("members_question", "novices_question"):  # found with reads: only refused calls are drawn on them
            return int(self.fixture(f"{key}_id"))
        if key == "answer_under:locked_question":  # an answer whose question is locked (combos, issue 44)
            return answer_under_locked_question(self.request, self.fixture("profile"), POOL_BY_KEY[key])
        kind, _, role = key.partition(":")
        if kind == "answer_of":
            if key in LOCKERS:
                self.fixture("locked_by")(LOCKERS[key])
            posted = self.fixture("answer_of")(role).resp
            if role == "novice":  # no Publish answer: "Answer is created", status not given
                if not 200 <= posted.status < 300:
                    fail(["ANSWER-MODERATION"], "novice could not post an answer to act on (expected a 2xx)", posted)
                return new_id(posted)
            return answer_posted(posted, "for the action matrix")
        if kind == "sent_to_mod":
            return int(self.fixture("sent_to_mod_by")(role).node)
        if kind == "answer_under":  # moderator's answer to a question member wrote (found with reads)
            posted = self.fixture("answer_under_members_question").resp
            if 400 <= posted.status < 500:  # a state of that question no read shows (a lock): not the rule's
                skip(SkipKind.OTHER, f"not judged: moderator could not answer the question member wrote "
                                     f"({posted.status}), so no node stands to member as its question's author")
            return answer_posted(posted, "to a question member wrote, for the action matrix")
        if kind == "comment_of":
            return expect_created(self.fixture("comment_of")(role).resp, "SHAPE-POST-COMMENT",
                                  f"{role} could not post the plain comment the action matrix acts on")
        return int(self.fixture(key).node)  # locked_comment, moderated_comment

    def question_author(self) -> str:
        """The fixture question's author as far as the relations need it: novice, member, or ``?`` (another
        account), read once from their question lists (bounded)."""
        if self._question_author is None:
            self._question_author = "?"
            for role in (ASSUMED_QUESTION_AUTHOR, "member"):
                uid = self.user_ids.get(role)
                listed = None if uid is None else find_listed(
                    self.api["admin"], contract_path("listUserQuestions", userId=uid), self.question_id,
                    page_size=100, max_pages=QUESTION_PAGES)
                if listed is not None:
                    self._question_author = role
                    break
        return self._question_author

    def relation_holds(self, node: PoolNode, case: Case) -> None:
        """Skip the case when the target's fixture question, which the pool takes to be novice's, puts the caller in
        another relation to ``node`` than the case needs (its author is read from the accounts' question lists);
        the same for the locked question's author."""
        if LOCKED_QUESTION_AUTHOR in (node.parent_author, node.question_author):
            if self._locked_author is None:
                self._locked_author = locked_question_author(self.api, self.user_ids, self.fixture("profile"))
            if (self._locked_author != ASSUMED_LOCKED_QUESTION_AUTHOR
                    and not fits(node, case.role, case.relation, locked_author=self._locked_author)):
                skip(SkipKind.OTHER, f"not judged: on this target the locked question's author is "
                     f"{self._locked_author}, so {case.role} does not stand to {node.key} as {case.label} needs")
        if QUESTION_AUTHOR not in (node.author, node.parent_author, node.question_author):
            return
        actual = self.question_author()
        if actual != ASSUMED_QUESTION_AUTHOR and not fits(node, case.role, case.relation, actual):
            skip(SkipKind.OTHER, f"not judged: on this target the fixture question's author is {actual}, so "
                 f"{case.role} does not stand to {node.key} as {case.label} needs ({case.relation})")

    def reused(self, case: Case) -> tuple[ApiResponse, int, str]:
        """The shared write a combination reads: its response, the node acted on, the prompt sent."""
        key = case.reused or ""
        self.relation_holds(REUSED_NODES[key], case)
        kind, _, role = key.partition(":")
        shared = self.fixture("locked_by")(role) if kind == "locked_by" else \
            self.fixture("sent_to_mod_by")(role) if kind == "sent_to_mod" else self.fixture(key)
        return shared.resp, int(shared.node), shared.text

    def built(self, case: Case) -> int:
        """A node built for an allowed change (no write budget): an answer to the fixture question or a comment
        under the shared answer, by the caller for its own node, else by member (action_cases.built_node), put in the
        case's state by another account with the permission."""
        built = built_node(case.kind, case.role, case.relation)
        assert built is not None, f"{case.label} was drawn without a node to build (action_cases.admissible)"
        self.relation_holds(built, case)
        writer = self.api[built.author]
        if case.kind == "answer":
            node = answer_posted(post_answer(writer, self.question_id, self.run_tag, self.created,
                                             text="built for the action matrix"), "for the action matrix")
        else:
            node = expect_created(post_comment(writer, int(self.fixture("shared_answer")), self.run_tag, self.created,
                                               text="built for the action matrix"), "SHAPE-POST-COMMENT",
                                  f"{built.author} could not post a comment for the action matrix")
        other = "moderator" if case.role == "admin" else "admin"  # never the caller: it changes the node after
        if case.state == LOCKED:
            resp = self.call(LOCK, other, node)
            if resp.status != 200:
                fail(["PERM-LOCK"], f"{other} could not lock the node built for {case.label}", resp)
        elif case.state == MODERATED:
            resp = self.call(SEND, other, node)
            if resp.status != 200:
                fail(["PERM-SENDTOMOD"], f"{other} could not send the node built for {case.label} to moderation", resp)
        return node

    def call(self, action: str, role: str, node: int, option: str | None = None) -> ApiResponse:
        params = {"prompt": self.prompt} if action == LOCK else {}
        if option is not None:
            params[option] = "true"
        return self.api[role].put(contract_path(action, nodeId=node), params=params or None, operation=action)

    @property
    def prompt(self) -> str:
        return f"action matrix lock [{self.run_tag}]"

    def act(self, case: Case) -> tuple[ApiResponse, int, str]:
        """The combination's response, the node it acted on and the prompt it sent (one call per combination)."""
        key = (case.label,)
        if key in self.acted:
            return self.acted[key]
        if case.reused is not None:
            self.acted[key] = self.reused(case)
            return self.acted[key]
        if case.changes_node:
            node = self.built(case)
        else:
            pool = node_for(case.action, case.kind, case.state, case.role, case.relation,
                            _no_budget(self.request.config))
            assert pool is not None, f"{case.label} was drawn without a node to act on (action_cases.admissible)"
            self.relation_holds(pool, case)
            node = self.node(pool.key)
        self.acted[key] = (self.call(case.action, case.role, node), node, self.prompt)
        return self.acted[key]

    def act_with(self, given: OptionCase) -> ApiResponse:
        """A combination that changes nothing, on its pool node, with the option given."""
        case = given.case
        pool = node_for(case.action, case.kind, case.state, case.role, case.relation, _no_budget(self.request.config))
        assert pool is not None, f"{case.label} was drawn without a node to act on (action_cases.admissible)"
        self.relation_holds(pool, case)
        return self.call(case.action, case.role, self.node(pool.key), given.option)


@pytest.fixture(scope="session")
def action_scene(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                 created: Any, user_ids: dict[str, int]) -> Scene:
    return Scene(request, api, question_id, run_tag, created, user_ids)


# --- judging ------------------------------------------------------------------------------------------------------

def _who(case: Case) -> str:
    relation = {"author": "the node's author", "parent_author": "the author of the node it is under, not of the node",
                "question_author": "the author of the question it is under, not of the node",
                "none": "author of neither it, its parent nor its question"}
    return case.role if case.role == "anonymous" else f"{case.role}, {relation[case.relation]}"


def judge_permission(case: Case, resp: ApiResponse, option: str = "") -> None:
    """The permission table's answer to this caller on this node (the module's docstring), ``option`` given."""
    what = f"{case.label}: {_who(case)} calls {case.action} on a {case.kind} ({case.state})"
    what += f" with {option}=true (an option changes no permission)" if option else ""
    if case.allowed:
        if resp.status in (401, 403):
            fail([case.rule], f"{what}; the permission table allows it, yet it is refused with {resp.status}", resp)
        if resp.status >= 500:
            fail([case.rule], f"{what}; allowed, but the target failed with {resp.status}", resp)
        if case.state_stated and not 200 <= resp.status < 300:
            fail([case.rule], f"{what}; allowed, and the state table's row holds for a {case.state} node (an "
                 f"unlocked node for a lock, a published one for a send), so a 2xx is expected, got {resp.status}",
                 resp)
        return
    refusals = (401, 403) if case.state_met else (401, 403, *STATE_REFUSALS)
    why = why_not_refused(resp, refusals)
    if why is None:
        return
    off = off_the_interface(resp)
    rule = "PERM-DENIED-STATUS" if off or resp.status >= 500 or refused_in_body(resp) else case.rule
    fail([rule], f"{what}; the permission table refuses it (the own-node clause is the node acted on), expected "
         f"{shown(refusals)}, {why}", resp)


def record_of(case: Case, resp: ApiResponse) -> dict[str, Any]:
    """The action record of an allowed change, or the skip or blocked failure that says why it cannot be judged."""
    if not 200 <= resp.status < 300:
        if case.state_stated:
            fail([case.rule], f"{case.label}: allowed on a {case.state} node, whose row of the state table holds, "
                              f"yet answered {resp.status}", resp)
        skip(SkipKind.OTHER, f"not judged: {case.label} answered {resp.status}; what the action answers on a "
                             f"{case.state} node is not stated")
    body = resp.json()
    result = body.get("result") if isinstance(body, dict) else None
    action = result.get(RECORD[case.action]) if isinstance(result, dict) else None
    if not isinstance(action, dict):
        fail(["ACTION-WRAPPERS"], f"{case.label}: the result must hold the action record under "
                                  f"{RECORD[case.action]!r}", resp)
    return action


def same_text(got: Any, sent: str) -> bool:
    """``got`` is the text ``sent``, character references resolved and NFC-normalised (as test_node_actions.py)."""
    def norm(text: str) -> str:
        return unicodedata.normalize("NFC", html.unescape(text))

    return isinstance(got, str) and norm(got) == norm(sent)


Check = Callable[[Case, dict[str, Any], ApiResponse, int, str], None]


# --- the rules: the permissions ----------------------------------------------------------------------------------

def _permission(case: Case, action_scene: Scene) -> None:
    resp, _, _ = action_scene.act(case)
    judge_permission(case, resp)


@pytest.mark.rule("PERM-LOCK")
@pytest.mark.permissions
def test_lock_permission_in_every_combination(case: Case, action_scene: Scene) -> None:
    """"Lock comments on posts": moderator and admin on any node; novice, even on its own, and anonymous refused."""
    _permission(case, action_scene)


@pytest.mark.rule("PERM-LOCK-OWN")
@pytest.mark.permissions
def test_lock_own_node_permission_in_every_combination(case: Case, action_scene: Scene) -> None:
    """"for the caller's own node, Lock comments on own posts": member locks what it wrote, not what is under its
    answer, whatever the kind and state of the node."""
    _permission(case, action_scene)


@pytest.mark.rule("PERM-SENDTOMOD")
@pytest.mark.permissions
def test_send_to_moderation_permission_in_every_combination(case: Case, action_scene: Scene) -> None:
    """"Send already published question to moderation (Moderation Roles)": no own-node clause, so a node's author
    without it is refused like anyone else."""
    _permission(case, action_scene)


@pytest.mark.rule("PERM-CANCELWIKI")
@pytest.mark.permissions
def test_unwikify_permission_in_every_combination(case: Case, action_scene: Scene) -> None:
    """"Mark as community wiki": moderator and admin; novice and anonymous refused (or answered by the node's
    state: no pool node is wiki)."""
    _permission(case, action_scene)


@pytest.mark.rule("PERM-CANCELWIKI-OWN")
@pytest.mark.permissions
def test_unwikify_own_node_permission_in_every_combination(case: Case, action_scene: Scene) -> None:
    """"for the caller's own node, Convert own posts to community wiki": member on what it wrote only."""
    _permission(case, action_scene)


@pytest.mark.rule("PERM-UNFAVORITE")
@pytest.mark.permissions
def test_unfavorite_permission_in_every_combination(case: Case, action_scene: Scene) -> None:
    """"Mark as favorite (Standard Roles)": every signed-in account but novice, on every kind of node."""
    _permission(case, action_scene)


# --- the rules: the state table's effects, on every kind of node ------------------------------------------------

def _effect(case: Case, action_scene: Scene, check: Check) -> None:
    resp, node, prompt = action_scene.act(case)
    if resp.status in (401, 403) or resp.status >= 500:
        judge_permission(case, resp)  # fails naming the permission rule: the effect is blocked by it
    check(case, record_of(case, resp), resp, node, prompt)


def _extra(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
    if not same_text(record.get("extra"), prompt):
        fail(["ACTION-LOCK-EXTRA"], f"{case.label}: the prompt {prompt!r} is stored as extra of the returned lock "
                                    f"action, on a {case.kind} too; extra is {record.get('extra')!r}", resp)


def _lock_verb(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
    if record.get("verb") != "locked":
        fail(["ACTION-VERBS"], f"{case.label}: the lock action's verb is locked, on a {case.kind} too; got "
                               f"{record.get('verb')!r}", resp)


def _sent_verb(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
    if record.get("verb") != "sent":
        fail(["ACTION-SENDTOMOD-VERB"], f"{case.label}: \"Returns an action record with verb sent\", on a "
                                        f"{case.kind} too; got {record.get('verb')!r}", resp)


def _private(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
    if record.get("private") is not True:
        fail(["ACTION-SENDTOMOD-PRIVATE"], f"{case.label}: \"... and private true\", on a {case.kind} too; got "
                                           f"{record.get('private')!r}", resp)


def _node_id(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
    named = record.get("node")
    acted: dict[str, Any] = named if isinstance(named, dict) else {}
    if acted.get("id") != node or acted.get("type") != case.kind:
        fail(["ACTION-NODE-ID"], f"{case.label}: the record's node is the node of the path ({node}, of type "
                                 f"{case.kind}: \"node | object | id (integer), type (string)\"), got "
                                 f"{record.get('node')!r}", resp)


def _record_fields(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
    user = record.get("user")
    missing = [f for f in RECORD_FIELDS if f not in record]
    missing += [f"user.{f}" for f in USER_FIELDS if isinstance(user, dict) and f not in user]
    if missing:
        fail(["ACTION-RECORD-SHAPE"], f"{case.label}: the action record has {', '.join(RECORD_FIELDS)} and its user "
             f"{', '.join(USER_FIELDS)}, on a {case.kind} too; missing: {', '.join(missing)}", resp)


def _names_caller(record: dict[str, Any], field: str, case: Case, scene: Scene) -> bool:
    """Whether the record's ``field`` (user, realUser: id, username, avatarUrl) names the caller's account."""
    named = record.get(field)
    client = scene.api[case.role]
    if not isinstance(named, dict) or named.get("username") != client.username:
        return False
    known = scene.user_ids.get(case.role)
    return known is None or named.get("id") == known


def _acting_user(scene: Scene) -> Check:
    def check(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
        if not _names_caller(record, "user", case, scene):
            fail(["AUTH-ACTING-USER"], f"{case.label}: \"The acting user is taken from the credentials\": the lock "
                 f"action's user is {case.role}, who called it, on a {case.kind} too; got {record.get('user')!r}",
                 resp)
    return check


def _real_user(scene: Scene) -> Check:
    def check(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
        if not _names_caller(record, "realUser", case, scene):
            fail(["ACTION-SENDTOMOD-REALUSER"], f"{case.label}: realUser is \"the real authenticated user\", "
                 f"{case.role}, on a {case.kind} too; got {record.get('realUser')!r}", resp)
    return check


@pytest.mark.rule("ACTION-LOCK-EXTRA")
@pytest.mark.actions
def test_lock_stores_the_prompt_on_every_kind_of_node(case: Case, action_scene: Scene) -> None:
    _effect(case, action_scene, _extra)


@pytest.mark.rule("ACTION-VERBS")
@pytest.mark.actions
def test_lock_verb_on_every_kind_of_node(case: Case, action_scene: Scene) -> None:
    _effect(case, action_scene, _lock_verb)


@pytest.mark.rule("ACTION-SENDTOMOD-VERB")
@pytest.mark.actions
def test_send_to_moderation_verb_on_every_kind_of_node(case: Case, action_scene: Scene) -> None:
    _effect(case, action_scene, _sent_verb)


@pytest.mark.rule("ACTION-SENDTOMOD-PRIVATE")
@pytest.mark.actions
def test_send_to_moderation_is_private_on_every_kind_of_node(case: Case, action_scene: Scene) -> None:
    _effect(case, action_scene, _private)


@pytest.mark.rule("ACTION-NODE-ID")
@pytest.mark.actions
def test_action_record_names_the_node_on_every_kind_of_node(case: Case, action_scene: Scene) -> None:
    _effect(case, action_scene, _node_id)


@pytest.mark.rule("AUTH-ACTING-USER")
@pytest.mark.actions
def test_lock_record_names_the_caller_on_every_kind_of_node(case: Case, action_scene: Scene) -> None:
    _effect(case, action_scene, _acting_user(action_scene))


@pytest.mark.rule("ACTION-SENDTOMOD-REALUSER")
@pytest.mark.actions
def test_send_to_moderation_names_the_real_user_on_every_kind_of_node(case: Case, action_scene: Scene) -> None:
    _effect(case, action_scene, _real_user(action_scene))


@pytest.mark.rule("ACTION-RECORD-SHAPE")
@pytest.mark.actions
def test_action_record_has_its_fields_on_every_kind_of_node(case: Case, action_scene: Scene) -> None:
    _effect(case, action_scene, _record_fields)


# --- every response rule of the action, on every row it judges (issue 44) -------------------------------------

def test_every_response_rule_of_the_action_in_every_combination(response_rule: str, row: Case, action_scene: Scene,
                                                                contract: Any) -> None:
    """The matrix's own call, judged for a rule it was not drawn for: a refusal is a 4xx, an anonymous write is
    refused, the 200 of a lock or a send to moderation has its section's wrappers, action date and shape, whoever
    calls on whichever kind of node (action_responses.py says which rows each rule judges)."""
    resp, _, _ = action_scene.act(row)
    schema = contract.operation(row.action).response_schema(200)
    judge_response(response_rule, row, resp, lambda body: contract.schema_errors(schema, body))


# --- the permission whatever option is given (blindp, issue 44) -------------------------------------------------

@pytest.mark.permissions
def test_every_action_permission_holds_whatever_option_is_given(given: OptionCase, action_scene: Scene) -> None:
    """"Every operation requires the permissions below", whatever "Option wrap" or v1 is given: a permission checked
    on one code path only (the legacy wrapper's) refuses a moderator or lets member in with the option alone."""
    judge_permission(given.case, action_scene.act_with(given), given.option)
