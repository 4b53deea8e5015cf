"""Every private option judged in its author's content list (content25, issue 44): the run's shared comments to the
original poster and to own groups, each looked for in its author's user content list by every account outside the
option's audience under every reading (option_content.py says who is outside; reads only). Apart from
test_comment_privacy.py, which judges the comments private to recipients, so that each module stays under 600 lines
(tests/package/test_module_size.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import option_content
import pytest

from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.comments, pytest.mark.writes]  # as test_comment_privacy.py: the shared comments it asks for

@pytest.mark.rule("COMMENT-PRIVACY-CONTENT")
def test_private_option_comments_are_not_in_their_authors_content_list_outside_their_audience(
        request: pytest.FixtureRequest, api: dict[str, ApiClient], private_comment_of: Callable[[str, str], Any],
        question_id: int, user_ids: dict[str, int], profile: Profile) -> None:
    """content25 (issue 44): the run's shared comments to the original poster and to own groups, each looked for in
    its author's content list by every account outside the option's audience (option_content.py: who is outside,
    reads only)."""
    judged = option_content.judged_comments(request, api, private_comment_of, question_id, user_ids, profile)
    if not judged:
        skip(SkipKind.OTHER, "no private-option comment of the run has a reader outside its audience known here "
                             "(no wire value, not created, or the profile leaves every reader open)")
    leaks, read_by = [], []
    for author in sorted({j.author for j in judged}):
        path = f"users/gdpr/{user_ids[author]}/content.json"
        for reader in sorted({r for j in judged if j.author == author for r in j.outside}):
            resp = api[reader].get(path, operation="listUserContent")
            entries = resp.json() if resp.status == 200 else None
            if not isinstance(entries, list):
                continue  # refused the list (its permissions are not shown), or COMMENT-PRIVACY-CONTENT's shape test
            read_by.append(f"{reader} of {author}")
            shown = {str(e["node"].get("id")) for e in entries
                     if isinstance(e, dict) and isinstance(e.get("node"), dict)}
            leaks += [f"{reader} is shown {author}'s comment {j.comment} ({j.option}) in GET {path}\n{resp.describe()}"
                      for j in judged if j.author == author and reader in j.outside and str(j.comment) in shown]
    if not read_by:
        skip(SkipKind.OTHER, "no reader outside a private option's audience may read its author's content list")
    assert not leaks, ("a comment private to an option's audience is in its author's content list as seen by a "
                       "reader outside that audience under every reading:\n" + "\n".join(leaks))
