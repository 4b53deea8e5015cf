"""A private comment's own URL read by an account it is not private to, right after its author read it there
(round48, issue 44: a read order a cache keyed by URL gets wrong, on the comment's own URL).

The privacy model reads every list that shows the subtree back to back in both orders (subtree_views.py), but the
URL the 201's Location names was read by the comment's author only: a server that keeps that URL's answer for a few
seconds whoever asks (round48-comment-read-cached-by-url) handed the next reader the comment. "When visibility is
recipients and recipients lists ids, the comment is private to those recipients": right after the author's read, one
account the model says may not see it (the least privileged first) reads the same URL, and the comment itself (its
id, as the author's read showed it) must not come back. What that URL answers such a reader is not shown (a 404, a
403, a page of its own): only the comment handed over is judged. One read per private comment the model posts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from qaconform.target.client import ApiClient, ApiResponse

OUTSIDERS = ("novice", "member", "anonymous", "moderator", "admin")
"""The order an outsider is chosen in: the least privileged account the comment is not private to."""


def rule_of(private: bool, reply: bool, inherited: bool) -> str | None:
    """The rule a private comment shown to an outsider breaks: rule 3 for a reply that inherited its settings, rule 5
    for a reply with its own, rule 2 otherwise; None for a public comment (everyone may read it)."""
    if not private:
        return None
    return "COMMENT-3" if reply and inherited else "COMMENT-5" if reply else "COMMENT-2"


def shows(resp: ApiResponse, comment_id: int) -> bool:
    """Whether ``resp`` hands over the comment itself: a 2xx whose JSON object is the comment (its id)."""
    if not 200 <= resp.status < 300:
        return False
    try:
        body: Any = resp.json()
    except Exception:  # noqa: BLE001 - not JSON: no comment handed over in the form the author read it
        return False
    return isinstance(body, dict) and str(body.get("id")) == str(comment_id)


def judge(comment: Any, path: str, api: dict[str, ApiClient], leaked: Callable[[Any, str], bool],
          fail: Callable[..., Any]) -> None:
    """Read ``path`` (the comment's Location, just read by its author) as the first outsider ``leaked`` names, and
    fail the comment's rule when the comment comes back."""
    rule = rule_of(comment.private, comment.reply, bool(comment.thread_authors))
    who = next((r for r in OUTSIDERS if r in api and leaked(comment, r)), None)
    if rule is None or who is None:
        return
    got = api[who].get(path)
    if shows(got, comment.id):
        fail(rule, f"comment {comment.id} by {comment.author} is private to {sorted(comment.audience)}, yet {who}, "
                   f"reading its URL right after its author, gets it back (a cache keyed by URL?)", got)
