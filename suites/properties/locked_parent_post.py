"""A private comment posted on the privacy model's answer once it is locked (round32, issue 44: a comment private to
recipients posted on a locked answer was stored with full visibility; the model posts under a comment locked on its
own, never on the locked answer itself).

"When visibility is recipients and recipients lists ids, the comment is private to those recipients and a GET returns
the given settings" (rule 2) names no state of the parent. In the closing, right after the answer's lock (and before
its send to moderation), member, its author, comments on it private to moderator: a refusal is not judged (whether a
locked node takes comments is not stated), a 201 is read back at its Location (rule 2) and every account reads every
list of the subtree again (who sees it: COMMENT-PRIVACY-LIST / -CONTENT / -IDS).

One accepted write beyond the model's share of a budgeted run (8 of 8: the opening's six and the closing's two), so
it is charged to the suites' share (``SubtreeModel.in_suites_share``, as the reply sent to moderation is): trade12
(issue 44) freed one write there (the permission matrix's member's answer is the run's shared answer,
suites/scenarios/permission_calls.py ``Scene.member_answer``). Where that share is spent it is left out and counted in
the run's terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from privacy_history import SubtreeModel

AUTHOR, RECIPIENT = "member", "moderator"
"""The answer's author (Use Private Comments, Send private comments to original poster and to moderators) and the one
it is private to."""


def private_comment_on_locked_answer(model: SubtreeModel) -> None:
    w = model.world
    with model.in_suites_share("a private comment on the locked answer") as room:
        if not room:
            return
        resp = model._post(AUTHOR, model.answer, w.profile.visibility.recipients, [RECIPIENT],
                           "private comment on the locked answer")
    if not 200 <= resp.status < 300:
        return  # whether a locked node takes comments is not stated: any refusal will do
    model._record(resp, AUTHOR, frozenset({RECIPIENT}), reply=False)
    model.judged = (0, "")
    model.views_judged()
