"""Where the faults of fix33 (issue 44, :mod:`faults_fix33`) bite: a comment on a community-wiki node refused to a
caller the permission table lets comment (comments.py). Each leaves the request alone unless its own fault is on."""

from __future__ import annotations

import sqlite3

from . import faults
from .auth import Caller
from .errors import denied

WIKI_COMMENT_REFUSED = "fix33-wiki-comment-refused-403"


def comment_parent(caller: Caller, parent: sqlite3.Row) -> None:
    """A comment directly on a community-wiki question or answer is refused (403) to a logged-in caller who holds
    Comment: the wiki branch checks an edit permission instead."""
    if faults.is_on(WIKI_COMMENT_REFUSED) and parent["wiki"] and parent["type"] != "comment" and not caller.anonymous:
        raise denied(False, stated_403=True)
