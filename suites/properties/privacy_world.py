"""What the privacy model (privacy_history.py) records: each comment the run posted (Comment: who wrote it, who it is
private to, which private comment a reply inherited through, where it hangs) and what it needs from the run (World:
accounts, ids, the budget, the shared comments), with the roles and the writes of one history's opening and closing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qaconform.pytest.properties.plugin import Budget
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

ROLES = ("admin", "moderator", "member", "novice")
MAY_USE_PRIVATE = ("admin", "moderator", "member")  # target-profile.md: novice lacks Use Private Comments
OPENING_WRITES = 6
"""The answer, the private comment, its reply (the same fields, ids as strings), a reply to that reply (without
fields), and under the question's private comment a reply without fields and a reply to it with the same fields
(histories2, issue 44: depth 2 under both kinds of parent, each of rule 3's forms at each depth)."""
CLOSING_WRITES = 2
"""The lock and the send to moderation of the answer: every drawn step leaves room for them."""


@dataclass(frozen=True)
class Comment:
    id: int
    author: str
    private: bool
    recipients: frozenset[str]  # roles named as recipients (inherited ones for a reply)
    reply: bool
    thread_authors: frozenset[str] = frozenset()
    """Authors of the private comments this reply inherited its settings through: whether they read it is not
    stated (OBS-REPLY-AUDIENCE)."""
    on_question: bool = False
    """Under the fixture question, not the model's answer: the answer's comment list never shows it (its author's
    content list and the question's ids do)."""
    depth: int = 0
    """Levels below the answer or the question (0: a comment on it)."""
    on_shared: bool = False
    """Under the run's shared answer (public_parent.py, histories5): its comment list, not the model's answer's."""
    parent: int = 0
    """The comment it replies to (0: none, or not the model's)."""
    as_strings: frozenset[str] = frozenset()
    """Recipients whose ids were sent as strings (recip, issue 44: the shared comment on the question mixes forms)."""

    @property
    def audience(self) -> frozenset[str]:
        """Roles entitled to see it: everyone when public, else its author and its recipients."""
        return self.recipients | {self.author} if self.private else frozenset(ROLES)


@dataclass
class World:
    """What the machine needs from the run: accounts, ids, wire values, where to write."""

    api: dict[str, ApiClient]
    user_ids: dict[str, int]
    profile: Profile
    run_tag: str
    created: Any
    budget: Budget
    steps: int = 0
    readers: frozenset[str] = frozenset()
    """Roles that read every private comment ([visibility] readers)."""
    undecided: frozenset[str] = frozenset()
    """Roles whose view of private comments the profile does not give: not judged on them."""
    private_reads: dict[str, bool] = field(default_factory=dict)  # an undecided role seen reading them (priv23)
    thread_views: dict[tuple[int, str], bool] = field(default_factory=dict)
    """(reply, thread author outside its audience) -> whether the last read showed it (OBS-REPLY-AUDIENCE)."""
    question_comment: int | None = None
    """member's comment on the fixture question private to moderator (the run's shared one), when it was created."""
    question_comment_resp: ApiResponse | None = None
    """Its 201 (fix1819, issue 44): its Location is read back like the model's own comments' (rule 2 on a question)."""
    public_reply: tuple[int, ApiResponse] | None = None
    """(the shared public comment, the 201 of member's reply to it private to moderator): public_parent.py."""
    public_parent: tuple[str, bool] = ("member", False)
    """That public comment's author and whether it is a reply (recip: novice's reply to admin's, depth 2)."""
    recipient_reply: ApiResponse | None = None
    """moderator's reply without fields to that private reply (suites/public_threads.py), whatever its status."""
    shared_answer: int = 0
    """The answer both sit under, whose comment list every account reads too."""
    rounds: int = 0
    """Read rounds so far: the order of the readers varies with it (subtree_views.reading_order)."""
    closings: int = 0
    """Examples that went through the whole state table."""
