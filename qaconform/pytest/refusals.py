"""The one judge of "this is a refusal the description states" (issue 44, combos2): a status among those the
description gives for the refusal, AND an answer that came from the interface itself.

Why the second half: the client (qaconform/target/client.py ``_follow``) follows same-origin redirects, as a browser
does, so a refusal answered with a 302 to a login page ends as that page's 4xx (a 404 or 405 for the POST sent on to
it, a 401 of a login filter) and looked like a proper refusal to every check that took "any 4xx" for one. A call's
own answer is served under the service prefix (Versioning: "every endpoint lives under /services/v2"); one served
elsewhere is no refusal of the operation, whatever its status. The permission table (suites/scenarios/
permission_calls.py), the action matrix, the action records, the comment refusals and the input-form matrix all
judge through :func:`refused` / :func:`why_not_refused`, so a redirect is judged the same wherever it comes.
"""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import urlsplit

from qaconform.contract import API_PREFIX
from qaconform.target.client import ApiResponse

ANY_4XX: Collection[int] = range(400, 500)
"""Where the description states a refusal but no status (any 4xx will do)."""


def off_the_interface(resp: ApiResponse) -> bool:
    """Whether the answer came from outside the interface: a redirect the client followed (to a login page, say)."""
    return f"{API_PREFIX}/" not in urlsplit(resp.url).path


def refused(resp: ApiResponse, statuses: Collection[int] = ANY_4XX) -> bool:
    """Whether ``resp`` is a refusal with one of ``statuses`` answered by the interface itself."""
    return resp.status in statuses and not off_the_interface(resp)


def why_not_refused(resp: ApiResponse, statuses: Collection[int] = ANY_4XX) -> str | None:
    """None when :func:`refused` holds; else what the target answered instead, for a failure message."""
    if off_the_interface(resp):
        return (f"the target answered with a redirect away from the interface (the answer came from {resp.url}, "
                f"status {resp.status} there), not with the operation's own refusal under {API_PREFIX}; a client "
                "that follows it lands on another page: answer the refusal itself")
    if resp.status in statuses:
        return None
    return f"got {resp.status}"


def shown(statuses: Collection[int]) -> str:
    """``statuses`` as a message names them ("a 4xx", "401 or 403")."""
    return "a 4xx" if statuses == ANY_4XX else " or ".join(map(str, statuses))
