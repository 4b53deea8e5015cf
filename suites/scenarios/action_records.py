"""The node-action suite's calls and how it reads the action records they return (its tests: test_node_actions.py).

A node action answers ``{success: true, result: {<key>: <action record>}}``; :func:`action_of` checks the wrapper and
the schema, and every check names the rules it concerns among the test's (:func:`blamed`): a schema violation is
sorted by the field it is at (:func:`schema_error_rules`), a refusal by its status (:func:`refusal_rule`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from qaconform.contract import SchemaError
from qaconform.pytest.outcomes import expect, fail
from qaconform.pytest.refusals import off_the_interface
from qaconform.pytest.support import answer_posted, new_id, post_answer
from qaconform.target.client import ApiClient, ApiResponse

DENIED = (401, 403)
NODE_TYPES = {"question", "answer", "comment", "ideacomment", "idea", "kbentry", "topic"}

SHAPE_RULE = {"favoriteAction": "SHAPE-UNMARK-FAVORITE", "wikifyAction": "SHAPE-CANCEL-WIKI",
              "lockAction": "SHAPE-LOCK-NODE", "sendToModAction": "SHAPE-SEND-TO-MODERATION"}
"""The shape rule of each operation, by the key of its action record: its result schema is that rule's."""
CANCELED_RULE = {"favoriteAction": "ACTION-UNFAVORITE-CANCELED", "wikifyAction": "ACTION-CANCELWIKI-CANCELED"}
"""The rule that pins canceled true in the result schema of the moves that cancel an action."""


def not_wiki(item: dict[str, Any] | None) -> bool:
    """A wiki read-back has settled once the list no longer shows the node as wiki (or does not list it)."""
    return item is None or item.get("wiki") is not True


def blamed(concerned: Iterable[str], rules: Sequence[str], fallback: Iterable[str] = ()) -> list[str]:
    """The rules a failed check charges: those it concerns among the test's ``rules``; else the concerned ones as
    they are (none of the test's: the check was a precondition, and the test is reported blocked by them, the
    failure charged to them once); only when a check concerns no rule, the ``fallback`` rules among the test's.
    None without ``rules``: the failure is then charged to the rules of the test that called the helper."""
    if not rules:
        return []
    concerned = list(dict.fromkeys(concerned))
    return [r for r in concerned if r in rules] or concerned or [r for r in dict.fromkeys(fallback) if r in rules]


def schema_error_rules(error: SchemaError, key: str, whole: bool = True) -> tuple[list[str], list[str]]:
    """(concerned, fallback) rules of one violation (``$.result.lockAction.extra: ...``) of an action result schema
    (``whole``) or of action.json alone (the record at ``$``), from where it is and which keyword failed. Fallback:
    the operation's shape rule."""
    shape = SHAPE_RULE.get(key, "ACTION-RECORD-SHAPE")
    path = error.path
    required = error.keyword == "required"
    record: tuple[str | int, ...] = ("result", key) if whole else ()
    if whole and path[:len(record)] != record:
        # the wrapper: success, result, the record's key, favoriteCount
        if error.missing == "favoriteCount":
            return ["ACTION-WRAPPERS", "ACTION-UNFAVORITE-COUNT"], [shape]
        if "favoriteCount" in path:  # fix24 (issue 44): its type is the shape's line too ("favoriteCount: integer")
            return ["ACTION-WRAPPERS", "ACTION-UNFAVORITE-COUNT", shape], [shape]
        return ["ACTION-WRAPPERS"], [shape]
    rest = path[len(record):]
    field = error.missing if required and not rest else (rest[0] if rest and isinstance(rest[0], str) else "")
    const = error.keyword == "const"
    if field in ("canceledByUser", "canceledDate"):
        return ["ACTION-CANCELED-FIELDS"], [shape]
    if field == "realUser":
        return ["ACTION-SENDTOMOD-REALUSER"], [shape]
    if required and not rest:
        return ["ACTION-RECORD-SHAPE"], [shape]
    if field == "actionDate":
        return ["SHAPE-ACTIONDATE"], [shape]
    if field == "canceled" and const and key in CANCELED_RULE:
        return [CANCELED_RULE[key]], [shape]
    if field == "private" and const and key == "sendToModAction":
        return ["ACTION-SENDTOMOD-PRIVATE"], [shape]
    if field == "extra" and key == "lockAction":
        return ["ACTION-LOCK-EXTRA"], [shape]
    if field == "node":
        return ["ACTION-RECORD-SHAPE", "ACTION-NODE-ID"], [shape]
    if field == "verb":
        return ["ACTION-RECORD-SHAPE", "ACTION-VERBS"], [shape]
    return ["ACTION-RECORD-SHAPE"], [shape]


def schema_rules(errors: list[SchemaError], key: str, rules: Sequence[str], whole: bool = True) -> list[str]:
    """The rules a failed schema check charges: every violation's rules (see schema_error_rules)."""
    concerned: list[str] = []
    fallback: list[str] = []
    for e in errors:
        c, f = schema_error_rules(e, key, whole)
        concerned += c
        fallback += f
    return blamed(concerned, rules, fallback)


def assert_action_valid(contract: Any, action: dict[str, Any], key: str, rules: Sequence[str] = ()) -> None:
    """contract.assert_valid("action", action, key), failing for the rules the violations break."""
    errors = contract.schema_errors("action", action)
    if errors:
        shown = "\n  ".join(e.line for e in errors[:20])
        more = f"\n  ... and {len(errors) - 20} more" if len(errors) > 20 else ""
        fail(schema_rules(errors, key, rules, whole=False),
             f"{key} does not match action.json ({len(errors)} error(s)):\n  {shown}{more}")


def assert_action_node(action: dict[str, Any], node_id: int, resp: ApiResponse, what: str = "") -> None:
    """The action record names the node acted on: its id, and a node type."""
    node = action.get("node") or {}
    expect(node.get("id") == node_id, "ACTION-NODE-ID", f"node.id must be {what}{node_id}", resp)
    expect(node.get("type") in NODE_TYPES, "ACTION-NODE-ID",
           f"node.type must be a node type, got {node.get('type')!r}", resp)


def action_of(resp: ApiResponse, key: str, schema: str, contract: Any, rules: Sequence[str] = (),
              perm: Sequence[str] = ()) -> dict[str, Any]:
    """The action record of a 200 {success: true, result: {key: <action>}}, after checking the wrapper and schema.

    ``rules``: the test's rule ids; each failure then names the ones its check concerns (without them, none: the
    test's own rules are charged). ``perm``: the rules that allow this caller the move, named when it is refused
    (401/403)."""
    shape = SHAPE_RULE.get(key, "ACTION-WRAPPERS")
    status_rules = perm if resp.status in DENIED and perm else [shape]
    expect(resp.status == 200, blamed(status_rules, rules), "the action must answer 200", resp)
    body = resp.json()
    expect(isinstance(body, dict) and body.get("success") is True, blamed(["ACTION-WRAPPERS"], rules),
           "the response must be {success: true, result: ...}", resp)
    result = body.get("result")
    # the operation's shape rule quotes the same response line (blind10, issue 44: a record missing from one response)
    expect(isinstance(result, dict) and isinstance(result.get(key), dict), blamed(["ACTION-WRAPPERS", shape], rules),
           f"result must hold the action record under {key!r}", resp)
    errors = contract.schema_errors(schema, body)
    if errors:
        shown = "\n  ".join(e.line for e in errors[:15])
        fail(schema_rules(errors, key, rules), f"the body does not match {schema}.json:\n  {shown}", resp)
    return result[key]


def refusal_rule(resp: ApiResponse, perm: str) -> str:
    """A move that had to be refused: a 2xx (or a 4xx other than 401/403) means the permission rule ``perm`` was not
    applied; anything else (a 5xx, or an answer redirected away from the interface: qaconform/pytest/refusals.py) is
    a denial in the wrong form (PERM-DENIED-STATUS: a 4xx, never 2xx or 5xx)."""
    if off_the_interface(resp):
        return "PERM-DENIED-STATUS"
    return perm if 200 <= resp.status < 300 or 400 <= resp.status < 500 else "PERM-DENIED-STATUS"


def user_is(action_user: Any, client: ApiClient, user_ids: dict[str, int]) -> bool:
    """Whether an action record's user object (id, username, avatarUrl) names this client's account."""
    if not isinstance(action_user, dict) or action_user.get("username") != client.username:
        return False
    known = user_ids.get(client.role)
    return known is None or action_user.get("id") == known


def answer_to_act_on(client: ApiClient, question_id: int, run_tag: str, created: Any, what: str) -> int:
    resp = post_answer(client, question_id, run_tag, created, text=what)
    if client.role == "novice":  # no Publish answer: "Answer is created", status not given
        expect(200 <= resp.status < 300, "ANSWER-MODERATION",
               "novice could not post an answer to act on (expected a 2xx)", resp)
        return new_id(resp)
    return answer_posted(resp, "to act on (expected 201)")


def lock_node(client: ApiClient, node_id: int, prompt: str | None) -> ApiResponse:
    params = None if prompt is None else {"prompt": prompt}
    return client.put(f"node/{node_id}/lock.json", params=params, operation="lockNode")


def send_to_mod(client: ApiClient, node_id: int) -> ApiResponse:
    return client.put(f"node/{node_id}/sendToMod.json", operation="sendToModeration")


def summary(resp: ApiResponse) -> dict[str, Any]:
    """Status and body of a response, for observations (the body cut short; JSON kept as JSON when it is)."""
    try:
        body: Any = resp.json()
        if isinstance(body, dict):
            body = {k: body[k] for k in list(body)[:10]}
    except AssertionError:
        body = resp.text[:300]
    return {"status": resp.status, "content_type": resp.content_type, "body": body}
