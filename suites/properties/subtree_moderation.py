"""A node inside the privacy model's subtree sent to moderation, and the records of the closing's moves (histories5,
issue 44 items 2 and 5).

The closing moved the answer (locked, then sent to moderation) and, since histories3, locked one private comment on
its own; no node inside the subtree went to moderation, so a server whose moderation path forgets a comment's privacy,
or whose record of it is rendered apart for a private comment, passed. Now, before the answer's moves, moderator (Send
already published question to moderation) sends a private reply of the subtree it reads to moderation: a leaf, the
under the answer (its lists are the ones every account reads) and by another account where there is one, else under
the question. Then every account
reads every list in both orders. Only what the description states is judged: who reads a node in moderation is not
shown, so the moved reply is judged for leaks only (a private comment shown to a reader it is not private to,
COMMENT-PRIVACY-LIST / -CONTENT / -IDS), every other comment of the subtree exactly as before (a move of one node
says nothing of the others), and a reply to the moved one asking another visibility must still not be accepted (rule
4; whether a node in moderation takes comments is not stated: any refusal). The action's record is judged as the
closing's are: "Returns an action record with verb sent and private true", realUser the caller, and node.id the
node of the path ("node | object | id (integer), type (string)"), here on a comment.

One accepted write, from the suites' share (privacy_history.SubtreeModel.in_suites_share): left out and counted when
that share is spent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from qaconform.target.client import ApiResponse

if TYPE_CHECKING:
    from privacy_history import SubtreeModel
    from privacy_world import Comment

RECORDS = {"lockNode": "lockAction", "sendToModeration": "sendToModAction"}
"""The key of each move's record in the result ("The ways the record is wrapped are listed under Endpoints")."""
SHAPES = {"lockNode": "SHAPE-LOCK-NODE", "sendToModeration": "SHAPE-SEND-TO-MODERATION"}
"""The rule each move's 200 response states: "Response: 200 with {success: boolean, result: {lockAction: <Action
record>}}." and the same with sendToModAction (accept22: the closing's send is the run's one send of an answer that
has comments, round62-sendtomod-answer-with-comments-actions-list)."""
MOVERS = {"lockNode": "Lock comments on posts, or on own posts for the node's author",
          "sendToModeration": "Send already published question to moderation"}
"""Why every move :func:`judge_move` judges is allowed (states, issue 44): each is made by the node's author (its
lock: the closing's of member's answer, the opening's of a private reply, round27) or by moderator (its sends), on a
published node; a refusal is the permission tests' to judge, a 5xx is no refusal ("Every operation requires the
permissions below": a denial is a 4xx) but an allowed move that did not answer its 200."""
NODE_TYPES = ("question", "answer", "comment", "idea", "ideacomment", "kbentry", "topic")
"""The node types the description lists ("A node has a type: ...")."""
SENDER = "moderator"


def _target(model: SubtreeModel) -> Comment | None:
    """A private reply of the subtree that moderator reads and nothing replies to: under the answer first, then under
    the question; one another account wrote first (moderator acting on another's node: a record that takes realUser
    from the node's author is then seen); the deepest. Never the shared thread (other tests read it) nor a comment
    locked on its own."""
    parents = {c.parent for c in model.comments.values()}
    leaves = [c for c in model.comments.values() if c.reply and c.private and not c.on_shared and c.id not in parents
              and c.id not in model.locked and model._entitled(c, SENDER)]
    return max(leaves, key=lambda c: (not c.on_question, c.author != SENDER, c.depth, c.id), default=None)


def send_a_reply(model: SubtreeModel) -> None:
    """The send, its record judged, then every account reading and rule 4 tried on the moved reply."""
    w = model.world
    c = _target(model)
    if c is None:
        w.budget.over_budget["privacy model: a reply sent to moderation (no private reply moderator reads)"] += 1
        return
    w.budget.check("sendToModeration (privacy model: a reply)", writes=1)
    resp = w.api[SENDER].put(f"node/{c.id}/sendToMod.json", operation="sendToModeration")
    w.budget.record("sendToModeration (privacy model: a reply)", resp.status)
    where = "the question" if c.on_question else f"answer {model.answer}"
    judge_move(model, "sendToModeration", SENDER, resp, None, c.id,
               f"{SENDER}'s sendToModeration of reply {c.id} by {c.author} (depth {c.depth} under {where}, private to "
               f"{sorted(c.audience)})")
    if resp.status != 200:
        return  # who may send a comment to moderation is the permission tests' to judge
    model.moderated.add(c.id)
    model.judged = (0, "")
    model.views_judged()
    model.refusals_at_every_depth(only=c)


def judge_move(model: SubtreeModel, operation: str, role: str, resp: ApiResponse, prompt: str | None,
               node: int | None = None, what: str | None = None) -> None:
    """A move that was taken (200), judged by the action record it returns (issue 44, blind round on histories): the
    closing's send to moderation comes from another account than the lock before it, on a node that account did not
    lock, which no single action's test meets. "Some state-changing operations record both the effective user (user)
    and the real authenticated user (realUser)": realUser is the caller, not the holder of the node's lock; "The
    prompt is stored as extra of the returned lock action"; the record's verb (locked, sent), private true on the
    send, the acting user taken from the credentials, and (histories5) node.id the node moved. Refusals are not judged
    here (the action's own tests judge who may call it). ``node``: the node moved (default the model's answer)."""
    body = resp.json() if resp.status == 200 else None
    result = body.get("result") if isinstance(body, dict) else None
    record = result.get(RECORDS[operation]) if isinstance(result, dict) else None
    node = node or model.answer
    what = what or f"{role}'s {operation} of answer {model.answer} (member wrote and locked it)"
    if not isinstance(record, dict):
        if resp.status == 200:  # accept22 (issue 44): the closing's send is of an answer that has comments
            model._fail(SHAPES[operation], f"{what} answers 200 without result.{RECORDS[operation]} (an Action "
                                           f"record); got result {_keys(result)}", resp)
        if resp.status >= 500:  # states (issue 44): every move judged here is allowed (MOVERS), a 5xx no refusal
            model._fail(SHAPES[operation], f"{what} answers {resp.status}: the caller may make this move "
                                           f"({MOVERS[operation]}), whose response is a 200 with "
                                           f"result.{RECORDS[operation]}", resp)
        return
    w = model.world

    def names_caller(user: Any) -> bool:
        return isinstance(user, dict) and (user.get("id") == w.user_ids[role]
                                           or user.get("username") == w.api[role].username)

    if operation == "lockNode":
        wrong = [("AUTH-ACTING-USER", "user", record.get("user"), "the caller")] * (
            not names_caller(record.get("user")))
        wrong += [("ACTION-LOCK-EXTRA", "extra", record.get("extra"), repr(prompt))] * (
            record.get("extra") != prompt)
        wrong += [("ACTION-VERBS", "verb", record.get("verb"), "'locked'")] * (record.get("verb") != "locked")
    else:
        wrong = [("ACTION-SENDTOMOD-REALUSER", "realUser", record.get("realUser"), "the caller")] * (
            not names_caller(record.get("realUser")))
        wrong += [("ACTION-SENDTOMOD-VERB", "verb", record.get("verb"), "'sent'")] * (record.get("verb") != "sent")
        wrong += [("ACTION-SENDTOMOD-PRIVATE", "private", record.get("private"), "true")] * (
            record.get("private") is not True)
    moved = record.get("node")
    if isinstance(moved, dict) and (str(moved.get("id")) != str(node) or moved.get("type") not in NODE_TYPES):
        wrong += [("ACTION-NODE-ID", "node", moved, f"id {node} and a node type")]
    for rule_id, name, got, want in wrong:
        model._fail(rule_id, f"{what} returns a record whose {name} is {got!r}; expected {want}", resp)


def _keys(result: Any) -> str:
    """What the result holds instead of the record: its keys, or its type where it is no object."""
    return repr(sorted(result)) if isinstance(result, dict) else type(result).__name__
