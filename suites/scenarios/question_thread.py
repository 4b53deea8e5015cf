"""A public comment in a question's own thread for the comment rules the suite tries under answers (fix32, issue 44:
each comment rule under every parent kind's thread), and the read of a comment there.

The run's replies to public comments sat under the shared answer only; a server deciding a reply's privacy by the
thread's top node (the question, public) refuses or drops a private reply in a question's own thread and passes every
answer thread (round31-reply-public-question-thread-private-refused). The parent here is a write the run makes
anyway: novice's plain comment on a question novice wrote (suites/conftest.py ``comment_on_own_node``, the permission
table's postComment cell of novice), so a reply under it costs what the reply under the answer's public reply cost.
No list the description gives returns a comment of a question's thread with its settings: the reply is read back at
its Location (LOCATION-READABLE, a should), where the target serves it.
"""

from __future__ import annotations

from typing import Any

import pytest

from qaconform.pytest.support import location_path, new_id
from qaconform.target.client import ApiClient, ApiResponse, TargetError
from qaconform.target.profile import VisibilityOptions


def public_comment_on_question(request: pytest.FixtureRequest) -> tuple[int, ApiResponse] | None:
    """(id, 201) of novice's shared public comment on its own question, or None where the target lists no question of
    novice's or did not take the comment (the reply then goes under an answer's thread, as before)."""
    shared = request.getfixturevalue("comment_on_own_node")("novice")
    if shared is None or shared.resp.status != 201:
        return None
    return int(new_id(shared.resp)), shared.resp


def at_location(client: ApiClient, request: pytest.FixtureRequest, resp: ApiResponse) -> dict[str, Any] | None:
    """The node the 201's Location names, as ``client`` reads it, or None when the target gives no Location under
    the service root or does not serve it with the node (LOCATION-READABLE's to judge, a should)."""
    path = location_path(request.getfixturevalue("profile").api_root, resp.headers.get("location", ""))
    got = client.get(path) if path else None
    try:
        body = got.json() if got is not None and got.status == 200 else None
    except TargetError:
        return None
    return body if isinstance(body, dict) and str(body.get("id")) == str(new_id(resp)) else None


def reply_keeps_own_settings(member: ApiClient, request: pytest.FixtureRequest, reply: ApiResponse,
                             parent: ApiResponse, value: Any, vis: VisibilityOptions) -> None:
    """member's reply (``reply``, a 201) to the public comment on the question, with visibility ``value`` and no
    recipients, read at its Location by member (its author) carries those settings, and the parent (``parent``'s
    Location) stays public: "A reply to a public comment may set its own visibility and recipients". A Location not
    served leaves the 201 judged alone (the caller asserted it)."""
    item = at_location(member, request, reply)
    if item is not None:
        got = item.get("recipients")
        assert item.get("visibility") == value and not got, (
            f"the reply to a public comment on a question keeps its own settings (visibility {value!r}, no "
            f"recipients); member read it at its Location with visibility {item.get('visibility')!r} recipients "
            f"{got!r}\n{reply.describe()}")
    above = at_location(member, request, parent)
    if above is not None:
        assert vis.reads_as_full(above.get("visibility")), (
            f"the public parent {new_id(parent)} must stay public after a private reply; it reads "
            f"{above.get('visibility')!r} at its Location\n{reply.describe()}")
