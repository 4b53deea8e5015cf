"""What the kit knows about the nodes its generated requests touch, and what the description states about answers.

A generated request is judged only on what the description states for the state the kit knows the target is in.
The kit knows a node's state while it is as the kit found or made it: a fixture, or an answer or comment a
generated request created, that no state change of this run has reached since (lock, send to moderation,
unwikify, unfavorite), nor any of its parents. Once a state change reached it, what the target answers to that
node is no longer stated (locking a node in moderation, commenting on a locked answer, a second send to
moderation: 'Reverse moves ...: not shown', the state table has one row per move from one state), so a refusal
there is an observation, never a failure.

Why the ledger lives per process (on the ``Pools`` every sender shares): the per-operation tests and the link
chains act on the same pool of nodes, and a state change made by one test is still there for the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

STATE_CHANGES = {"lockNode": "locked", "sendToModeration": "sent to moderation", "cancelWiki": "unwikified",
                 "unmarkFavorite": "unfavorited"}
"""The operations that move a node to another state, and what the ledger says about a node they reached."""

REPEAT_OBSERVATIONS = {"lockNode": "OBS-LOCK-TWICE", "sendToModeration": "OBS-SENDTOMOD-TWICE"}
"""The observed rule of a state change sent again to a node this run already moved that way."""

UNLISTED = "OBS-GENERATED-STATUS"
"""The observed rule of any other status the description does not list, or a refusal in a state it does not cover."""

ERROR_BODIES_STATED = {("listUserContent", 422), ("listGroups", 403)}
"""(operation, status) whose body the Errors table gives whatever the request (Invalid User Id; the group list's
permission text). scheduleGdprJob's 400 bodies are stated for schema-valid jobs only (:func:`error_body_stated`)."""


@dataclass
class NodeLedger:
    """Which nodes this run moved to another state, and the parents of the nodes its generated requests created."""

    changed: dict[int, str] = field(default_factory=dict)
    """node id -> what was done to it (a state change that the target accepted with a 2xx)."""
    parents: dict[int, int] = field(default_factory=dict)
    """created node -> the node it was posted under (a comment's parent, an answer's question)."""

    def created(self, node: int, parent: int | None) -> None:
        if parent is not None and parent != node:
            self.parents[node] = parent

    def moved(self, node: int, operation: str) -> None:
        """A state change the target accepted. A refused one changes nothing (a refusal has no effect), so a case
        hypothesis replays meets the node as the first attempt did."""
        self.changed.setdefault(node, STATE_CHANGES.get(operation, operation))

    def change_above(self, node: int) -> str | None:
        """Why the node's state is no longer known ('node 12 was locked by this run'), or None while it is."""
        seen: set[int] = set()
        current: int | None = node
        while current is not None and current not in seen:
            if current in self.changed:
                return f"node {current} was {self.changed[current]} by this run"
            seen.add(current)
            current = self.parents.get(current)
        return None


def error_body_stated(operation: str, status: int, schema_valid: bool) -> bool:
    """Whether the Errors table states the body of this refusal: only its conditions, never e.g. an unparsable body.

    401 bodies are stated for every operation ('Missing or bad credentials': JSON errors or the HTML page). A job's
    400 is one of the table's conditions only when the job was schema-valid: the kit dates it in the past or names a
    file that does not exist, both listed; a malformed job may be refused for a reason the table does not list.
    """
    if status == 401 or (operation, status) in ERROR_BODIES_STATED:
        return True
    return operation == "scheduleGdprJob" and status == 400 and schema_valid
