"""The contract suite's subtree of known audience: six comments, three of them private, each account denied at least
one, under member's answer that also holds the suite's three public comments (conftest.py ``commented_answer``, one
answer for both since trade11). test_list_relations.py judges privacy across walks of it; test_subtree_rows.py every
comment rule on every combination of the comment list's dimensions.

One write per comment, once per run (``once_per_run``: every worker reads the same answer). Each comment's text holds
plain text beyond ASCII (TEXT-NON-ASCII is judged on every read of it) behind an ASCII head that names it, so that a
body whose non-ASCII part was mangled is told from one that was lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qaconform import contract
from qaconform.pytest.outcomes import fail
from qaconform.pytest.support import NON_ASCII_TEXTS, expect_created, find_listed, post_comment, present
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

THREAD = (("member", None, None), ("member", "moderator", None), ("moderator", "admin", None), ("admin", "novice", 0),
          ("admin", "member", None), ("member", None, 1))
"""(author, recipient or None for full visibility, the comment it replies to or None): each account is denied at least
one comment. The fourth is admin's reply to member's public comment, private to novice (rule 5: a reply to a public
comment sets its own settings); the last member's reply without privacy fields to its own comment private to
moderator, which inherits its settings (rule 3; its author is the private comment's, so who reads it is stated:
OBS-REPLY-AUDIENCE asks about the others)."""
TAIL = " / ".join(NON_ASCII_TEXTS[k] for k in ("latin", "cjk", "astral"))
"""The text beyond ASCII every comment of the thread carries."""


def head(n: int) -> str:
    """The ASCII head of comment ``n``'s text."""
    return f"relations comment {n}:"


@dataclass(frozen=True)
class Posted:
    """One comment of the thread: who wrote it, whom it is private to (None: full visibility), its text."""

    author: str
    recipient: str | None
    """Whom it is private to, inherited from the comment it replies to for a reply."""
    text: str
    head: str
    parent: int | None = None
    """The comment it replies to (None: a comment on the answer)."""
    inherits: bool = False
    """A reply without privacy fields to a private comment, whose settings it inherits (rule 3); a reply with its own
    settings does not (rule 5)."""

    @property
    def audience(self) -> frozenset[str]:
        """Roles entitled to see it: its author and its recipient, or everyone (None) when public."""
        return frozenset({self.author, self.recipient}) if self.recipient is not None else frozenset()


@dataclass(frozen=True)
class Thread:
    """An answer by member with comments of known audience: roles that may see each private one."""

    answer_id: int
    private: dict[int, frozenset[str]]
    """Private comment id -> the roles entitled to it (author and recipients)."""
    posted: dict[int, Posted] = field(default_factory=dict)
    """Comment id -> what was posted (empty when the thread was not written: --read-only, a target before 2.16.0)."""


def write(api: dict[str, ApiClient], answer: int, run_tag: str, created: Any, profile: Profile,
          user_ids: dict[str, int]) -> dict[str, Any]:
    """The thread as JSON (``once_per_run`` hands it to every worker): the answer and, by comment id, its author,
    recipient and text. ``answer`` is member's answer the contract suite already wrote (conftest.py
    ``commented_answer``, trade11): one accepted write less than an answer of the thread's own."""
    comments: dict[str, list[Any]] = {}
    made_at: list[int] = []
    for n, (author, recipient, parent) in enumerate(THREAD):
        private_to = None if recipient is None else [user_ids[recipient]]
        text = f"{head(n)} {TAIL}"
        node = answer if parent is None else made_at[parent]
        if parent is not None and recipient is not None:  # rule 5 holds only under a PUBLIC parent: read it first
            _parent_is_public(api[THREAD[parent][0]], answer, node, profile)
        resp = post_comment(api[author], node, run_tag, created, text=text,
                            visibility=None if recipient is None else profile.visibility.recipients,
                            recipients=private_to)
        inherits = parent is not None and recipient is None
        top = ("SHAPE-POST-COMMENT", f"answer {answer}") if recipient is None else (
            "COMMENT-2", f"answer {answer} privately to {recipient} (visibility recipients: 201)")
        rule, what = top if parent is None else (
            "COMMENT-3", f"its private comment {node} (a reply without privacy fields inherits them: 201)") if \
            inherits else ("COMMENT-5", f"public comment {node} (a reply to it may set its own privacy: 201)")
        made = expect_created(resp, rule, f"{author} could not comment on {what}")
        made_at.append(made)
        effective = THREAD[parent][1] if inherits and parent is not None else recipient
        comments[str(made)] = [author, effective, text, head(n), None if parent is None else node, inherits]
    return {"answer": answer, "comments": comments}


def _parent_is_public(author: ApiClient, answer: int, comment: int, profile: Profile) -> None:
    """The premise of a reply with its own settings (rule 5: "a reply to a public comment"): the parent, posted
    without privacy fields, reads back public to its author. unfav14 (issue 44): the reply's refusal was charged to
    COMMENT-5 when the parent had been stored private; that is COMMENT-1's failure ("without visibility and
    recipients the comment has full visibility and no recipients"), named here before the reply is sent. One read,
    retried within the settle window until listed."""
    item = find_listed(author, contract.path("listAnswerComments", answerId=answer), comment, until=present)
    if item is None:  # not listed to its author: the list's failure, judged by the thread's readers; the reply goes
        return
    vis, recipients = item.get("visibility"), item.get("recipients")
    if not profile.visibility.reads_as_full(vis) or (isinstance(recipients, list) and recipients):
        fail(["COMMENT-1"], f"{author.role}'s comment {comment} on answer {answer}, posted without visibility and "
             f"recipients, reads back with visibility {vis!r} and recipients {recipients!r}: it must have full "
             f"visibility and no recipients. The thread's reply to it with its own settings (rule 5, a reply to a "
             f"PUBLIC comment) is not sent")


def thread_of(raw: dict[str, Any]) -> Thread:
    """The thread :func:`write` returned (as JSON)."""
    posted = {int(c): Posted(str(a), None if r is None else str(r), str(t), str(h), None if p is None else int(p),
                             bool(i)) for c, (a, r, t, h, p, i) in raw["comments"].items()}
    return Thread(int(raw["answer"]), {c: p.audience for c, p in posted.items() if p.recipient is not None}, posted)
