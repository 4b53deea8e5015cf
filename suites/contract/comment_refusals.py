"""Every comment the description refuses, on every parent the run can reach (issue 44, combos2): the caller's role
and its relation to the parent (the parent's author, the author of the node the parent is under, of its question,
none), the parent's kind and state, and the visibility option given, crossed in full, not pairwise.

Pure: no request is made here. The refusals are the permission table's and rule 7's, whatever the parent:

- anonymous holds no Comment permission ("Every operation requires the permissions below"; AUTH-ANONYMOUS-WRITES):
  every option is refused, with a 4xx; so is a caller with a wrong password ("Requests are authenticated with HTTP
  Basic authentication": AUTH-BAD-CREDENTIALS, no status stated), placed as anonymous is (refusals2);
- novice lacks Use Private Comments ("A private visibility option ... used by a caller who lacks the permission to
  use private comments ... gives 403": COMMENT-7-NO-PRIVATE-PERMISSION): the three private options are refused with
  403; visibility recipients needs Use Private Comments too (the permission table; no status is stated: 401 or 403);
- member lacks Send private comments to own groups ("or lacks the permission for that option, gives 403":
  COMMENT-7-NO-OPTION-PERMISSION): to_own_groups is refused with 403.

On a parent not as created (locked, in moderation, an answer whose question is locked) whether it takes comments at
all is not stated, so any 4xx is a refusal there; only an accepted comment (or an answer from outside the interface:
qaconform/pytest/refusals.py) breaks the rule. The parents are the action matrix's pool (action_cases.POOL: the
run's shared answers and comments and the questions its accounts wrote), the first node of the combination's kind
and state to which the caller stands in the relation and which it can see; a refusal costs no accepted write and is
sent once. What no pool node gives is named with its reason in spec/dimensions.yaml ``comment_cells.unreachable``
(tests/test_comment_refusals.py fails when a combination is neither drawn nor named, or both).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from itertools import product

from action_cases import CREATED, POOL, THOROUGH_ONLY, PoolNode, fits

from qaconform.pytest.refusals import ANY_4XX

ROLES = ("admin", "moderator", "member", "novice", "anonymous", "wrong_password")
RELATIONS = ("author", "parent_author", "question_author", "none")
KINDS = ("question", "answer", "comment")
STATES = ("created", "locked", "moderated", "question_locked", "wiki")
OPTIONS = ("none", "to_original_poster", "to_moderators", "to_own_groups", "recipients")
"""The values of each dimension (the action matrix's, spec/dimensions.yaml; ``wiki`` a parent state of its own here,
and the visibility options of comment rules 1-7, ``none`` for no visibility given)."""

WRONG_PASSWORD = "wrong_password"
"""member's username with a wrong password (refusals2, issue 44): refused before any parent is read, whatever the
option; it is no one, so it stands in no relation to a node and is placed as anonymous is."""

PRIVATE = ("to_original_poster", "to_moderators", "to_own_groups")
"""The three private options rule 7 names."""


def refusal(role: str, option: str) -> tuple[str, Collection[int]] | None:
    """The rule that refuses ``role``'s comment with ``option`` on a published parent, and the statuses it states;
    None where the description allows the comment (an accepted write, not tried here)."""
    if role == "anonymous":
        return "AUTH-ANONYMOUS-WRITES", ANY_4XX
    if role == WRONG_PASSWORD:  # refusals2 (issue 44): "authenticated with HTTP Basic authentication"; no status
        return "AUTH-BAD-CREDENTIALS", ANY_4XX
    if role == "novice" and option in PRIVATE:
        return "COMMENT-7-NO-PRIVATE-PERMISSION", (403,)
    if role == "novice" and option == "recipients":
        return "COMMENT-7-NO-PRIVATE-PERMISSION", (401, 403)
    if role == "member" and option == "to_own_groups":
        return "COMMENT-7-NO-OPTION-PERMISSION", (403,)
    return None


@dataclass(frozen=True)
class CommentCase:
    """One refused comment: who, in what relation to which kind and state of parent, with what option."""

    role: str
    relation: str
    kind: str
    state: str
    option: str
    node: str
    """The pool key of the parent (action_cases.POOL)."""

    @property
    def rule(self) -> str:
        found = refusal(self.role, self.option)
        assert found is not None, f"{self.label} is allowed, so it is no refusal case"
        return found[0]

    @property
    def statuses(self) -> Collection[int]:
        """The statuses a refusal may have: the rule's on a parent as created, any 4xx on a moved one."""
        found = refusal(self.role, self.option)
        assert found is not None, f"{self.label} is allowed, so it is no refusal case"
        return found[1] if self.state == CREATED else ANY_4XX

    @property
    def label(self) -> str:
        return f"{self.role}-{self.relation}-{self.kind}-{self.state}-{self.option}"

    @property
    def cell(self) -> tuple[str, str, str, str, str]:
        return self.role, self.relation, self.kind, self.state, self.option


def parent_for(role: str, relation: str, kind: str, state: str) -> PoolNode | None:
    """The first pool node of that kind and state standing to the caller in ``relation`` that it can see; never a
    paid node of --thorough only, and a question the run did not write (``found``) never for anonymous (whether
    anonymous sees it is not known)."""
    caller = "anonymous" if role == WRONG_PASSWORD else role
    return next((n for n in POOL if n.kind == kind and n.state == state and fits(n, caller, relation)
                 and n.key not in THOROUGH_ONLY and not (n.found and caller == "anonymous")), None)


def refused_cells() -> list[tuple[str, str, str, str, str]]:
    """Every combination the description refuses (role, relation, kind, state, option)."""
    return [c for c in product(ROLES, RELATIONS, KINDS, STATES, OPTIONS) if refusal(c[0], c[4]) is not None]


def cases() -> list[CommentCase]:
    """Every refused combination a default run reaches, once each."""
    out = []
    for role, relation, kind, state, option in refused_cells():
        node = parent_for(role, relation, kind, state)
        if node is not None:
            out.append(CommentCase(role, relation, kind, state, option, node.key))
    return out


def cases_of(rule: str) -> list[CommentCase]:
    return [c for c in cases() if c.rule == rule]


@cache
def _positions() -> dict[str, int]:
    return {c.label: i for i, c in enumerate(cases())}


def other_typed(case: CommentCase) -> bool:
    """Whether the case's comment goes in the JSON typing the run's charset draw does not give its caller (round101,
    issue 44): every second refused combination, in the order of :func:`cases`, so that each role's refusals are
    sent both as ``application/json`` and as ``application/json; charset=UTF-8`` ("A body sent with a request must
    have the format that matches ... the request's Content-Type header": either typing names JSON), whichever half
    of the accounts the seed draws to carry the charset (qaconform/pytest/seed_draws.py ``CHARSET_SENDERS``). A
    permission a server checks in one typing's reader only is then refused in the other; no request more."""
    return _positions().get(case.label, 0) % 2 == 1

