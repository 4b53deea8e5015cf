"""The run's node actions judged by who called them (options, issue 44, twenty-fourth session): pure helpers for the
late reader of suites/contract/test_readback.py.

An allowed action made with one of its stated options (wrap, v1: "Values and effect of wrap and v1: not shown") was
judged only where its own test judged it, and most accepted calls carrying an option are another test's shared write
(the locks and sends of paths17, the one-shot calls of round47, the writes' record of test_observations_contract.py):
round90-sendtomod-moderator-v1-refused (moderator's send with v1 refused 403) passed. The run's ledger
(qaconform.pytest.readback) notes every write denied 401 or 403 with the fields it sent, options included, in every
process; here each denied action is checked against the permission table ("Every operation requires the permissions
below": an option is no permission), whatever test sent it and whatever options it carried: a caller the table lets
call the action on any node (action_cases.ALLOWED: admin and moderator for the four actions, member for unfavorite),
or member on a node the ledger shows member wrote (the own-node clauses: "for the caller's own node"), is never
denied. Refusals of other callers, and member's on nodes the run did not write, are left out with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable

from action_cases import ALLOWED, AUTHOR, FAVORITE, LOCK, PERMISSION_RULE, RELATIONS, SEND, WIKI

from qaconform.pytest.readback import Write

ACTION_OF = {"lock.json": LOCK, "sendtomod.json": SEND, "cancelwiki.json": WIKI, "unmarkfavorite.json": FAVORITE}
"""The last part of an action's path (lower case) -> its operation."""
RULES = tuple(sorted({rule for pair in PERMISSION_RULE.values() for rule in pair}))
"""Every rule the reader can blame: each action's permission rule and member's own-node rule."""


def rule_of(action: str, role: str) -> str:
    """The permission rule that decides ``role``'s call (member's: the own-node rule, as action_cases.Case.rule)."""
    own, other = PERMISSION_RULE[action]
    return own if role == "member" else other


def allowed_calls(writes: Iterable[Write]) -> tuple[list[tuple[Write, str]], int, list[str]]:
    """The ledger's actions denied to a caller the permission table lets in, each with the rule it breaks; how many
    actions by such callers the ledger holds (accepted and denied); and why the other denials are left out."""
    writes = list(writes)
    authors = {w.node: w.by for w in writes if w.kind in ("answer", "comment")}
    denied: list[tuple[Write, str]] = []
    left: list[str] = []
    allowed = 0
    for w in writes:
        action = ACTION_OF.get(w.action.lower()) if w.kind in ("acted", "refused") else None
        if action is None:
            continue
        relations = ALLOWED[action].get(w.by, frozenset())
        let_in = relations == RELATIONS or (AUTHOR in relations and authors.get(w.node) == w.by)
        if not let_in:
            if w.kind == "refused":
                left.append(f"{w.by}'s {w.action} of node {w.node}: the table does not let {w.by} in on every node, "
                            "and the run did not write this one as " + w.by)
            continue
        allowed += 1
        if w.kind == "refused":
            denied.append((w, rule_of(action, w.by)))
    return denied, allowed, left


def options_of(w: Write) -> str:
    """The options a denied call carried, for the message ("no option" when it carried none)."""
    given = sorted(k for k in w.fields if k in ("wrap", "v1"))
    return ", ".join(f"{k}={w.fields[k]}" for k in given) if given else "no option"
