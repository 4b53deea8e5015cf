"""Planted faults of the kind states closes (issue 44: the states an action target can be in). Each breaks one stated
must-rule of a node action only when the node acted on is a PRIVATE comment (visibility not full), on another
operation or another field than round85-lock-private-comment-extra-null, the blind miss of the kind: no action of
the run whose record a test judged acted on a private comment before states (the action pool's comments are all
public; the privacy model's lock of a private reply, round27, and its send of one, histories5, were judged for
leaks, the send's record on a 200 only). Each quotes the sentence it breaks; measured before and after the suites'
change with ``qaconform selftest --fault NAME --no-clean --jobs 1``. Part of the registry (fault_list18.py); wired
through :mod:`states_hooks` (one entry of request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

STATES: tuple[Fault, ...] = (
    Fault("states-lock-private-comment-node-parent", "ACTION-NODE-ID",
          "'| node | object | id (integer), type (string). |' (the node acted on, node-lock.json): the lock of a "
          "PRIVATE comment returns its record with node.id of the comment's parent (the private comments plugin "
          "renders the record from the thread it checks the audience on); public nodes name themselves"),
    Fault("states-lock-private-comment-user-null", "AUTH-ACTING-USER",
          "'The acting user is taken from the credentials.': the lock of a PRIVATE comment returns its record with "
          "user null (the private comments plugin writes the record before the caller is resolved); public nodes "
          "name the caller"),
    Fault("states-sendtomod-private-comment-500", "SHAPE-SEND-TO-MODERATION",
          "'Response: 200 with {success: boolean, result: {sendToModAction: <Action record>}}.': an allowed send to "
          "moderation of a PRIVATE comment answers 500 and leaves the node as it was (the moderation queue's "
          "indexer cannot read the private comment's audience); public nodes are sent"),
    Fault("states-lock-private-comment-made-public", "COMMENT-PRIVACY-LIST",
          "'the comment is private to those recipients': the lock of a PRIVATE comment stores it with full "
          "visibility and no recipients (the lock rewrites the node from the public form), so every reader lists it "
          "after the lock; public nodes are locked as they are"),
)
