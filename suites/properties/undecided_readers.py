"""A content list's leak to an account whose view of private comments the profile leaves unset (priv23, issue 44).

Why: whether administrators or moderators read every private comment is site configuration (``[visibility] readers``),
and the privacy model judged no private comment on an account the profile says nothing of (``World.undecided``). A
profile written by ``qaconform init`` leaves it unset, and a user's content list (operation 8) is read by the accounts
holding Manage data protection alone, on the reference server admin: so COMMENT-PRIVACY-CONTENT ("the comment is
private to those recipients") was judged by nobody, and a private reply under a question shown in its author's content
list to admin was missed on the clean server as much as on one whose admins read every private comment.

The site's configuration is one for every list: an account that reads every private comment reads them in the
answer's comment list too, where each top-level comment it is entitled to must be shown (COMMENT-2). So when an
undecided account is shown, in a content list, a private comment it is neither author nor recipient of, the answer's
comment list is read again as that account (after the content list: a list that lags writes has listed the older
comment by then) and looked up for a top-level private comment of the model's answer it is not entitled to either. Not
shown there: this site does not let it read private comments, and the content list's is a leak. Shown: it reads them
(remembered for the run, no judgement). No such comment, or the answer not published: nothing is judged. Reads only.
"""

from __future__ import annotations

from typing import Any

from subtree_views import Views, _answer_comments

from qaconform import contract


def _witness(model: Any, role: str) -> Any:
    """A published top-level private comment of the model's answer that ``role`` neither wrote nor is named in."""
    return next((c for c in sorted(model.comments.values(), key=lambda c: c.id)
                 if c.private and not c.reply and not (c.on_question or c.on_shared or c.id in model.moderated)
                 and role not in c.audience and role not in c.thread_authors), None)


def judge(model: Any, views: Views) -> None:
    """Fail COMMENT-PRIVACY-CONTENT for a private comment a content list shows to an undecided account that the
    answer's comment list, read again now, shows this site does not let read private comments."""
    w = model.world
    if model.state != "published" or not model.answer:
        return
    for role in sorted(w.undecided):
        if w.private_reads.get(role) or role not in w.api:
            continue
        shown = [(author, c) for (reader, author), ids in sorted(views.content.items()) if reader == role
                 for c in (model.comments.get(i) for i in sorted(ids or ()))
                 if c is not None and c.private and role not in c.audience and role not in c.thread_authors]
        witness = _witness(model, role) if shown else None
        if witness is None:
            continue
        first: list[Any] = []
        seen, _named, _settings, _problems = _answer_comments(w.api[role], model.answer, first)
        if seen is None:
            continue  # refused or another form: nothing shows what the site lets it read
        if witness.id in seen:
            w.private_reads[role] = True  # it reads private comments on this site: the content list may show them
            continue
        author, c = shown[0]
        where = "the question" if c.on_question else f"answer {model.answer}"
        path = contract.path("listAnswerComments", answerId=model.answer)
        model._fail("COMMENT-PRIVACY-CONTENT",
                    f"{role} is shown {author}'s comment {c.id} under {where} (depth {c.depth}) in {author}'s content "
                    f"list (users/gdpr/{w.user_ids[author]}/content.json), though it is private to "
                    f"{sorted(c.audience)}; the profile does not say whether {role} reads every private comment "
                    f"([visibility] readers), and this site does not let it: read right after, {path} does not show "
                    f"{role} comment {witness.id} by {witness.author}, private to {sorted(witness.audience)}",
                    views.answers.get(("content:" + author, role)))
