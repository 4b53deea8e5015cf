"""The Location of every comment the privacy model posts (round44, issue 44: a history at depth).

"Success: 201. The Location response header holds the URL of the new comment." The run judged it on the shared plain
comments, on a comment on a question, an answer and a public comment, never on a reply that inherits a private
comment's settings nor on a reply to a reply: a server that builds the URL from the thread (its root, or the private
comment a reply inherits from) and gets it wrong at depth 2 or 3 passed. The privacy model posts comments at every
depth under both kinds of parent and reads each back at its Location (privacy_history ``_judge_stored``), where a
missing Location was a silent skip; every one of its 201s is now judged first. Pure: no request, no write.
"""

from __future__ import annotations

import re

from qaconform.target.client import ApiResponse


def location_problem(resp: ApiResponse, new: int) -> str | None:
    """What is wrong with the Location of the 201 that created comment ``new``, or None: present, a URL (absolute,
    or an absolute path, as the other Location checks accept), and naming the new comment's id (not its parent's)."""
    location = resp.headers.get("location", "")
    if not location:
        return "a 201 must carry a Location header; none came"
    if not location.startswith(("http://", "https://", "/")):
        return f"Location {location!r} is not a URL (absolute, or an absolute path)"
    if not re.search(rf"(?<!\d){new}(?!\d)", location):
        return f"Location {location!r} does not name the new comment {new} (the URL of another node?)"
    return None
