"""Every read-back by every account a write names, and by one it does not (reads16, issue 44 item 2).

Why: a write that names accounts (a comment's recipients) was read back by its author and by some of the accounts
it named: the reply that repeats its parent's two recipients (test_comment_privacy.py) was read by its author and
the recipient named second, never by the one named first; the comment whose visibility travels as a parameter
(test_request_conventions.py) by its author only. A server that lists a comment to some of its recipients (an
audience built from part of the list) passed wherever the one left out never looked. blind42 closed this for the
recipient-id forms' comment alone (recipient_reads.py); here is the same read-back for any write: each account the
write names reads the list that shows the result and must find it, charged to the rule of the field it was named in;
one account it does not name (neither author nor recipient, and not one the profile says reads every private
comment) must not find it, charged to the rule that makes it private. Reads only: no write of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from qaconform import contract
from qaconform.pytest.outcomes import fail
from qaconform.pytest.support import find_listed, present, private_reader_skip
from qaconform.target.client import ApiClient, ApiResponse

OUTSIDERS = ("novice", "member", "moderator", "admin")
"""The accounts tried, in this order, as the one the write does not name (the least privileged first: the one a
private comment is least likely to be shown by a site's own rules)."""


def roles_of(user_ids: Mapping[str, int], ids: Iterable[Any]) -> list[str]:
    """The profile's accounts whose user id is among ``ids`` (integers or strings), in the order the ids were given."""
    by_id = {str(v): k for k, v in user_ids.items()}
    return [by_id[str(i)] for i in ids if str(i) in by_id]


def outsider(api: Mapping[str, ApiClient], profile: Any, author: str, named: Iterable[str]) -> str | None:
    """The first account of :data:`OUTSIDERS` that neither wrote nor is named, and whose view of a private comment
    the profile decides (``[visibility] readers``); None when there is none."""
    left_out = {author, *named}
    return next((r for r in OUTSIDERS if r in api and r not in left_out and private_reader_skip(profile, r) is None),
                None)


def judge_each(api: Mapping[str, ApiClient], profile: Any, answer: int, cid: int, author: str,
               named: Mapping[str, str], outsider_rule: str, what: str, resp: ApiResponse | None = None) -> None:
    """Each account of ``named`` (role -> the rule of the field it was named in) reads the comment list of
    ``answer`` and must find comment ``cid`` (read again within the settle window: a list may lag a write); then one
    account the write does not name must not find it (judged at once). Fails once, naming every rule broken."""
    path = contract.path("listAnswerComments", answerId=answer)
    rules: set[str] = set()
    whys: list[str] = []
    for role, rule in named.items():
        if role == author or role not in api:
            continue
        if find_listed(api[role], path, cid, until=present) is None:
            rules.add(rule)
            whys.append(f"{role}, named in it, does not find it in the comment list of answer {answer}")
    other = outsider(api, profile, author, named)
    if other is not None and find_listed(api[other], path, cid) is not None:
        rules.add(outsider_rule)
        whys.append(f"{other}, neither its author nor named in it, finds it in the comment list of answer {answer} "
                    "(\"the comment is private to those recipients\")")
    if whys:
        fail(sorted(rules), f"{what}: every account a write names reads it back, and only those: "
                            f"{'; '.join(whys)}", resp)


def judge_reply(api: Mapping[str, ApiClient], profile: Any, answer: int, cid: int, user_ids: Mapping[str, int],
                recipients: list[int]) -> None:
    """member's reply ``cid`` to a private comment, which inherits (rule 3) ``recipients``: each of them reads it
    back (the one named first in the same-fields reply was never a reader), one account not named must not see it;
    both are COMMENT-3's ("inherits the parent's settings")."""
    named = dict.fromkeys(roles_of(user_ids, recipients), "COMMENT-3")
    judge_each(api, profile, answer, cid, "member", named, "COMMENT-3", f"member's reply {cid} to a private comment")
