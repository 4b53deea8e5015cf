"""The run's private-option comments judged in their authors' content lists (content25, issue 44).

COMMENT-PRIVACY-CONTENT: a private comment must not appear "in its author's content list as seen by a caller who is
not a recipient" ("the comment is private to those recipients"). The content-list reads judged comments private to
recipients only; the run's shared comments of the other private options (suites/conftest.py ``private_comment_of``:
member's and moderator's to the original poster, moderator's to its own groups) were in no content list read, so a
content query that filtered recipients but let an option through (round95-content-group-comments-listed) went unseen.

Reads only, no write: each of those comments (already posted by the permission cells and the stored-option checks)
is looked for in its author's content list read by every account; a reader judged is one outside the option's
audience under every reading the description leaves open:

- never the author, nor a role the profile's ``[visibility] readers`` names or leaves open (private_reader_skip:
  whether administrators or moderators read every private comment is not stated);
- to the original poster: a reader that is not the thread's question author (known for the comments on the fixture
  question, under the run's shared answer to it and under moderator's answer to member's question; else not judged);
- to its own groups: a reader sharing no group with the author, both users' groups as User.groups gives them (the
  expert lists, read once as admin: a user they do not list is not judged);
- to moderators: not judged (who counts as a moderator is the site's permission table, not the description).

A reader refused the content list (its permissions are not shown; the reference grants Manage data protection to
admin alone) judges nothing. Leaks are judged at once, as the privacy model judges them (a list that lags a write
shows less, never more); what must be listed to the audience is not claimed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from comment_observations import question_author_id

from qaconform.pytest.support import new_id, private_reader_skip
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

OPTION_COMMENTS = (("member", "to_original_poster"), ("moderator", "to_original_poster"),
                   ("moderator", "to_own_groups"))
"""The run's shared top-level comments of a private option whose audience can exclude a reader (replies repeating
an option, suites/option_forms.py, inherit an audience the description does not spell out)."""
READERS = ("admin", "moderator", "member", "novice")
EXPERT_LISTS = ("user/retrieveAllExperts.json", "user/retrieveEarnedExperts.json")


@dataclass(frozen=True)
class Judged:
    comment: int
    author: str
    option: str
    outside: tuple[str, ...]
    """Readers outside its audience under every reading."""


def user_groups(admin: ApiClient) -> dict[str, frozenset[str]]:
    """User id -> the ids of its groups (User.groups), for every user the expert lists show admin."""
    out: dict[str, frozenset[str]] = {}
    for path in EXPERT_LISTS:
        resp = admin.get(path, params={"pageSize": 100})
        body = resp.json() if resp.status == 200 else None
        items = body.get("list") if isinstance(body, dict) else None
        for user in items if isinstance(items, list) else []:
            if isinstance(user, dict) and isinstance(user.get("groups"), list) and user.get("id") is not None:
                out[str(user["id"])] = frozenset(str(g.get("id")) for g in user["groups"] if isinstance(g, dict))
    return out


def original_poster(request: pytest.FixtureRequest, node: int | None, question_id: int,
                    admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> Any:
    """The id of the author of the question of the thread the comment hangs on (None: not known)."""
    try:
        if node == question_id or node == request.getfixturevalue("shared_answer"):
            return question_author_id(admin, question_id, profile)
        placed = request.getfixturevalue("answer_under_members_question")
    except pytest.skip.Exception:
        return None
    return user_ids["member"] if 200 <= placed.resp.status < 300 and node == new_id(placed.resp) else None


def judged_comments(request: pytest.FixtureRequest, api: dict[str, ApiClient], shared_of: Callable[[str, str], Any],
                    question_id: int, user_ids: dict[str, int], profile: Profile) -> list[Judged]:
    """Each shared option comment the run created, with the readers outside its audience."""
    vis, out = profile.visibility, []
    groups: dict[str, frozenset[str]] | None = None
    for author, option in OPTION_COMMENTS:
        if getattr(vis, option) is None:
            continue
        shared = shared_of(author, option)
        if shared.resp.status != 201 or shared.id is None or shared.repeats:
            continue
        open_readers = [r for r in READERS if r != author and private_reader_skip(profile, r) is None]
        if option == "to_original_poster":
            op = original_poster(request, shared.node, question_id, api["admin"], profile, user_ids)
            outside = [] if op is None else [r for r in open_readers if str(user_ids[r]) != str(op)]
        else:
            groups = user_groups(api["admin"]) if groups is None else groups
            mine = groups.get(str(user_ids[author]))
            outside = [] if mine is None else [r for r in open_readers if str(user_ids[r]) in groups
                                               and not groups[str(user_ids[r])] & mine]
        if outside:
            out.append(Judged(int(shared.id), author, option, tuple(outside)))
    return out
