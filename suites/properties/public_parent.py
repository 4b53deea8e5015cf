"""The privacy model's thread under a public comment (histories5, issue 44 items 2 and 5).

The model's own subtree holds no public comment under a write budget, so a private reply whose parent is public, and
a reply that inherits through it, were a path no history took: rule 5 sets the reply's own settings, rule 3 then
passes them one level further down, and a server that decides a reply's privacy by the thread's top comment (public
here) shows or stores it wrongly. The run's shared writes hold that thread (suites/public_threads.py: member's plain
comment on the shared answer, member's reply to it private to moderator, and moderator's reply without fields to
that, which inherits, COMMENT-3; comment privacy reads all three). The model takes them into its subtree at no write
of its own, and after every step every account reads the shared answer's comment list beside the model's lists, in
both orders (the writers' content lists and the ids the lists name were read already).

What is judged there, from the description alone and only on the comments the model knows (other tests write
under the shared answer too): a private one shown to a reader it is not private to (COMMENT-PRIVACY-LIST, and the
rule that gave it its settings), the public parent listed to every signed-in account (COMMENT-1), a listed reply
listed to all of its audience (rule 5's or rule 3's: whether replies are listed there at all is not stated), and
every listed one carrying its settings (COMMENT-VISIBILITY-RETURNED). The shared answer is not moved through the
state table, so its thread is judged in every state of the model's answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privacy_world import Comment
from subtree_views import READERS, Views

from qaconform.pytest.support import new_id

if TYPE_CHECKING:
    from privacy_history import SubtreeModel

ROLES = ("admin", "moderator", "member", "novice")


def open_thread(model: SubtreeModel) -> None:
    """The shared public comment, the private reply under it and moderator's reply to that (without privacy fields:
    it inherits, rule 3) into the model, each reply read back at its Location (the private reply's own settings:
    rule 5). Nothing when the shared writes were not made (their share spent, or refused: their own tests say so)."""
    w = model.world
    if w.public_reply is None or w.public_reply[1].status != 201:
        return
    parent_id, resp = w.public_reply
    author, is_reply = w.public_parent  # recip (issue 44): novice's public reply, so the private reply is at depth 3
    parent = Comment(parent_id, author, False, frozenset(), is_reply, on_shared=True, depth=int(is_reply))
    reply = Comment(new_id(resp), "member", True, frozenset({"moderator"}), True, on_shared=True,
                    depth=parent.depth + 1, parent=parent.id)
    model.comments[parent.id] = parent
    model.comments[reply.id] = reply
    model._judge_stored(resp, reply)
    below = w.recipient_reply
    if below is not None and below.status == 201:
        model._record(below, "moderator", reply.recipients, reply=True, under=reply)


def _rules(c: Comment) -> tuple[str, ...]:
    """The rule that gave ``c`` its settings: rule 3 for a reply that inherited them, rule 5 for a reply to a public
    comment, rule 1 for a public comment."""
    if not c.private:
        return ("COMMENT-1",)
    return ("COMMENT-3",) if c.thread_authors else ("COMMENT-5",)


def judge_leaks(model: SubtreeModel, views: Views) -> None:
    """Each read round (both orders): a private comment of the thread shown to a reader it is not private to, and the
    settings every listed comment of the thread carries."""
    url = f"{model.world.profile.api_root}/answer/{model.world.shared_answer}/comment.json"
    for role in READERS:
        for cid in sorted((views.shared.get(role) or set()) & set(model.comments)):
            c = model.comments[cid]
            if c.on_shared and model._leaked(c, role):
                model._fail((*_rules(c), "COMMENT-PRIVACY-LIST"),
                            f"{role} is shown comment {c.id} by {c.author} (depth {c.depth} under the shared answer "
                            f"{model.world.shared_answer}, below a public comment), which is private to "
                            f"{sorted(c.audience)}; reproduce with: curl -sS -u \"$USER:$PASSWORD\" '{url}'   # as "
                            f"{role}", views.answers.get(("shared", role)))
        for cid, (visibility, recipients) in sorted((views.shared_settings.get(role) or {}).items()):
            c = model.comments.get(cid)
            wrong = model._settings_wrong(c, visibility, recipients) if c is not None and c.on_shared else None
            if c is not None and wrong:
                model._fail("COMMENT-VISIBILITY-RETURNED" if c.private else "COMMENT-1",
                            f"{role} is shown comment {c.id} by {c.author} (depth {c.depth}, below a public comment) "
                            f"in the comment list of the shared answer {model.world.shared_answer} with {wrong}",
                            views.answers.get(("shared", role)))


def _shown(model: SubtreeModel, views: Views) -> dict[int, set[str]]:
    return {c.id: {r for r in ROLES if c.id in (views.shared.get(r) or set())}
            for c in model.comments.values() if c.on_shared}


def _absent(model: SubtreeModel, c: Comment, role: str, shown: set[str]) -> bool:
    """Whether ``role`` must be shown ``c`` and is not: a top comment to everyone entitled; a reply, once it is
    listed to anyone, to all of its audience but its author (whether replies are listed at all is not stated)."""
    if role in shown or not model._judged(c, role) or not model._entitled(c, role):
        return False
    return not c.reply or (bool(shown) and role != c.author and role in c.audience)


def missing(model: SubtreeModel, views: Views) -> bool:
    """Whether the shared answer's list misses a comment of the thread it must show (a list that lags writes)."""
    return any(_absent(model, model.comments[cid], r, shown) for cid, shown in _shown(model, views).items()
               for r in ROLES)


def judge_listed(model: SubtreeModel, views: Views) -> None:
    """After the settled round: each comment of the thread listed to everyone the model says must be shown it."""
    for cid, shown in sorted(_shown(model, views).items()):
        c = model.comments[cid]
        absent = sorted(r for r in ROLES if _absent(model, c, r, shown))
        if absent:
            model._fail(_rules(c), f"comment {c.id} by {c.author} (depth {c.depth} under the shared answer "
                                   f"{model.world.shared_answer}, below a public comment; reply: {c.reply}) is listed "
                                   f"to {sorted(shown)} but not to {absent}, who may see it ({sorted(c.audience)})",
                        views.answers.get(("shared", absent[0])))
