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

from collections.abc import Callable
from typing import Any

import pytest
from action_cases import (
    LOCK,
    LOCKED,
    MODERATED,
    SEND,
    Case,
    array,
    unseen_refusal,
)
from action_options import OptionCase, option_cases
from action_responses import RESPONSE_RULES, actions_of, judges
from action_responses import judge as judge_response
from action_scene import Scene
from action_scene import no_budget as _no_budget
from cells import cell_marks
from covering import parametrize_by_rule, thorough

from qaconform.contract import Dimensions, load_contract
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import off_the_interface, shown, why_not_refused
from qaconform.pytest.support import (
    refused_in_body,
    same_plain_text,
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
            rows += [pytest.param(rule, c, id=f"{rule}-{c.label}", marks=[pytest.mark.rule(rule), *cell_marks(c)])
                     for c in array(action, dims, seed, no_budget, every).cases if judges(rule, c)]
    return rows


def _option_rows(config: pytest.Config) -> list[Any]:
    """Every action's stated options (its optional query parameters: wrap, v1) on the combinations that change
    nothing (action_options.option_cases), each marked with the permission rule that decides it."""
    from qaconform.pytest.properties.plugin import STATE

    contract = load_contract()
    seed, no_budget, every = config.stash[STATE].seed, _no_budget(config), thorough(config)
    rows = []
    for action in contract.dimensions.actions:
        options = [p.name for p in contract.operation(action).parameters if p.location == "query" and not p.required]
        rows += [pytest.param(o, id=o.label, marks=[pytest.mark.rule(o.case.rule), *cell_marks(o)])
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
    own = metafunc.definition.get_closest_marker("rule")
    permission = own is not None and str(own.args[0]).startswith("PERM-")
    # cross17 (issue 44 item 7): judge_permission names PERM-DENIED-STATUS on a refused row (a 5xx, off-interface)
    parametrize_by_rule(metafunc, "case", _cases, "an action matrix",
                        also_of=lambda c: ("PERM-DENIED-STATUS",) if permission and not c.allowed else ())


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


def _a(kind: str) -> str:
    """``kind`` with its article, for the messages: "an answer", "a question", "a comment"."""
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


def judge_permission(case: Case, resp: ApiResponse, option: str = "") -> None:
    """The permission table's answer to this caller on this node (the module's docstring), ``option`` given."""
    what = f"{case.label}: {_who(case)} calls {case.action} on {_a(case.kind)} ({case.state})"
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
    refusals = (401, 403) if case.state_met and not unseen_refusal(case) else (401, 403, *STATE_REFUSALS)
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
    """``got`` is the plain text ``sent`` (as test_node_actions.py): non-ASCII references resolved, NFC; an escaped
    ASCII character is a change (round14, issue 44: the prompt holds MARKUP_TEXT)."""
    return same_plain_text(got, sent)


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
                                    f"action, on {_a(case.kind)} too; extra is {record.get('extra')!r}", resp)


def _lock_verb(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
    if record.get("verb") != "locked":
        fail(["ACTION-VERBS"], f"{case.label}: the lock action's verb is locked, on {_a(case.kind)} too; got "
                               f"{record.get('verb')!r}", resp)


def _sent_verb(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
    if record.get("verb") != "sent":
        fail(["ACTION-SENDTOMOD-VERB"], f"{case.label}: \"Returns an action record with verb sent\", on a "
                                        f"{case.kind} too; got {record.get('verb')!r}", resp)


def _private(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
    if record.get("private") is not True:
        fail(["ACTION-SENDTOMOD-PRIVATE"], f"{case.label}: \"... and private true\", on {_a(case.kind)} too; got "
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
             f"{', '.join(USER_FIELDS)}, on {_a(case.kind)} too; missing: {', '.join(missing)}", resp)


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
                 f"action's user is {case.role}, who called it, on {_a(case.kind)} too; got {record.get('user')!r}",
                 resp)
    return check


def _real_user(scene: Scene) -> Check:
    def check(case: Case, record: dict[str, Any], resp: ApiResponse, node: int, prompt: str) -> None:
        if not _names_caller(record, "realUser", case, scene):
            fail(["ACTION-SENDTOMOD-REALUSER"], f"{case.label}: realUser is \"the real authenticated user\", "
                 f"{case.role}, on {_a(case.kind)} too; got {record.get('realUser')!r}", resp)
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
@pytest.mark.rule("PERM-DENIED-STATUS")  # cross17: its checks name them (tests/test_blame_in_marks.py)
def test_every_action_permission_holds_whatever_option_is_given(given: OptionCase, action_scene: Scene) -> None:
    """"Every operation requires the permissions below", whatever "Option wrap" or v1 is given: a permission checked
    on one code path only (the legacy wrapper's) refuses a moderator or lets member in with the option alone."""
    judge_permission(given.case, action_scene.act_with(given), given.option)
