"""The privacy model's comments in the one relation the action matrix does not give: member as a recipient of a
private comment it did not write (round32, issue 44: "own" read as "a party of the comment" let member lock a
comment addressed to it).

"| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation Roles). |":
member holds Lock comments on own posts only, and a comment private to member is another's node, whatever it is
private to. The action matrix (suites/contract/action_cases.py) crosses the caller's relation to the node with the
node's author, its parent's author, its question's author and none, on public nodes; the model's subtree holds the
private ones. Each time the model tries its refusals (after the opening and after the answer's lock), member asks
to lock every comment of the subtree that is private to it and written by another account. A conforming target
refuses every one (PERM-LOCK-OWN, any 4xx): no write is spent. Comments locked or sent to moderation on their own
are left out (a repeat's answer, and the order of the state and permission checks, are not shown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qaconform.pytest.refusals import why_not_refused

if TYPE_CHECKING:
    from privacy_history import SubtreeModel

CALLER = "member"
"""The one account of the profile holding Lock comments on own posts without Lock comments on posts."""


def locks_refused(model: SubtreeModel) -> None:
    """member's lock of each comment of the subtree private to it and written by another: refused (PERM-LOCK-OWN)."""
    w = model.world
    prompt = {"prompt": f"privacy model: a recipient's lock [{w.run_tag}]"}
    for c in sorted(model.comments.values(), key=lambda c: c.id):
        if not c.private or c.author == CALLER or CALLER not in c.recipients or c.id in model.locked | model.moderated:
            continue
        w.budget.check("lockNode (privacy model: member on a comment private to it)", writes=1)
        resp = w.api[CALLER].put(f"node/{c.id}/lock.json", params=prompt, operation="lockNode")
        w.budget.record("lockNode (privacy model: member on a comment private to it)", resp.status)
        if (why := why_not_refused(resp)) is not None:
            model._fail("PERM-LOCK-OWN", f"member locked comment {c.id}, {c.author}'s comment private to "
                        f"{sorted(c.recipients)}: Lock comments on own posts admits the caller's own node only, and "
                        f"a comment addressed to member is not member's; it must be refused (4xx); {why}", resp)
