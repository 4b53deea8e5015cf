"""What the comment-privacy suite records where the description is silent (test_comment_privacy.py holds its tests).

The observations (OBS-COMMENT-OP-AUDIENCE, OBS-REPLY-AUDIENCE, OBS-VISIBILITY-VALUES) gather facts, never judge
them: a POST that was not a 201, or a 201 without an id, is recorded as what it was rather than failed, so every
helper here answers a value to record whatever the target did.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from comment_reads import comments_as, observe_post, visible_comments

from qaconform.pytest.support import find_item, find_listed, new_id
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile, VisibilityOptions

VIEWERS = ("admin", "moderator", "member", "novice", "anonymous")
"""Every account whose view of the thread an audience observation records."""


def created_id(resp: ApiResponse) -> int | None:
    """The new comment's id when the POST was a 201 that names it; else None (recorded, not failed)."""
    if resp.status != 201:
        return None
    try:
        return new_id(resp)
    except AssertionError:
        return None


def seen_by(api: dict[str, ApiClient], thread_answer: int, posted: dict[str, int | None]
            ) -> dict[str, dict[str, bool | str]]:
    """For each viewer, whether each posted comment (option -> id) is in its view of the thread's comment list."""
    seen: dict[str, dict[str, bool | str]] = {}
    for viewer in VIEWERS:
        items, refusal = visible_comments(api[viewer], thread_answer)
        ids = {str(i.get("id")) for i in items}
        seen[viewer] = {opt: ("list refused" if refusal else str(cid) in ids)
                        for opt, cid in posted.items() if cid is not None}
    return seen


def seen_under(api: dict[str, ApiClient], under: dict[str, int], posted: dict[str, int | None]
               ) -> dict[str, dict[str, bool | str]]:
    """:func:`seen_by` for comments under several answers (option -> the answer it is under; round51, issue 44)."""
    seen: dict[str, dict[str, bool | str]] = {}
    for answer in sorted(set(under.values())):
        for viewer, got in seen_by(api, answer, {o: c for o, c in posted.items() if under.get(o) == answer}).items():
            seen.setdefault(viewer, {}).update(got)
    return seen


def question_author_id(admin: ApiClient, question_id: int, profile: Profile) -> Any:
    """The fixture question's author id as admin lists it (None when not listed): "original poster" may mean it."""
    question = find_listed(admin, "question.json", question_id, params={"spaceId": profile.fixtures.space_id})
    return (question or {}).get("author", {}).get("id") if isinstance(question, dict) else None


def listed_to(reader: ApiClient, writer: ApiClient, thread_answer: int, resp: ApiResponse) -> Any:
    """Whether ``reader`` is listed the comment ``resp`` created, once ``writer``'s list shows it (it has caught up);
    what the POST was, when it created none."""
    cid = created_id(resp)
    if cid is None:
        return f"not created ({resp.status})"
    comments_as(writer, thread_answer, showing=[cid])
    return find_item(comments_as(reader, thread_answer), cid) is not None


def visibility_read_back(client: ApiClient, thread_answer: int, resp: ApiResponse) -> Any:
    """The visibility the comment ``resp`` created reads back with ("<absent>" when the field is missing)."""
    cid = created_id(resp)
    if cid is None:
        return f"not created ({resp.status})"
    item = find_item(comments_as(client, thread_answer, showing=[cid]), cid)
    return "not listed" if item is None else item.get("visibility", "<absent>")


def statuses_by_visibility_value(admin: ApiClient, thread_answer: int, run_tag: str, created: Any,
                                 vis: VisibilityOptions, user_ids: dict[str, int],
                                 private_comment_of: Callable[[str, str], Any]) -> dict[str, int]:
    """The status admin's comment gets with each visibility value: the profile's, "full" and an unknown one. A value
    of a private option is admin's comment with it that the run shares (the permission table's cell), not a new one."""
    accepted: dict[str, int] = {}
    shared_options = {getattr(vis, o): o for o in ("to_original_poster", "to_moderators", "to_own_groups")
                      if getattr(vis, o) is not None}
    for value in (v for v in (vis.recipients, vis.to_original_poster, vis.to_moderators, vis.to_own_groups, "full",
                              "qc-unknown-option") if v is not None):
        if value in shared_options:
            accepted[value] = private_comment_of("admin", shared_options[value]).resp.status
            continue
        recipients = [user_ids["moderator"]] if value == vis.recipients else None
        resp, _ = observe_post(admin, thread_answer, run_tag, created, text=f"visibility {value}",
                               visibility=value, recipients=recipients)
        accepted[value] = resp.status
    return accepted
