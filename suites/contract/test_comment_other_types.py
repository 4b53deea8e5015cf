"""Every stated field of a comment in each JSON type its schema does not state, on refusal paths only (types, issue
44; the cells: other_types.py, derived from spec/schemas/comment-request.json, recipients as null left out: whether
a null is "given" is not stated, and a server reading it as absent would take the comment, an accepted write).

Each request gives recipients beside a visibility that is not recipients ("recipients given while visibility is not
recipients gives 400.", rule 6): full visibility (else a private option the writer holds, as the input form
matrix's COMMENT-6 rows), or the visibility of another type under test. So a conforming target refuses every one
and none writes:

- visibility or recipients of another type: 400, the status rule 6 states (a visibility that is not a string is
  not recipients; recipients of another type are still given);
- body of another type: refused (a 4xx, COMMENT-6: a 2xx is a comment created with recipients beside another
  visibility); which status a body of another type draws is not stated (variant body-any-type reads it as text).

The 14 cells go to the parent kinds (the shared question, the shared answer) and the writers holding Use Private
Comments (member, moderator, admin) in turn, so that each field meets both parent kinds and all three writers: a
converter broken on one parent kind or one account is met without a request more.
"""

from __future__ import annotations

from typing import Any

import pytest
from other_types import other_types, value_of

from qaconform import contract
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.refusals import ANY_4XX, shown, why_not_refused
from qaconform.pytest.support import register_wrongly_created
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.comments, pytest.mark.writes, pytest.mark.refused_writes]

PARENTS = ("question", "answer")
WRITERS = ("member", "moderator", "admin")
OWN_OPTION = {"member": "to_original_poster", "admin": "to_moderators", "moderator": "to_own_groups"}
"""A private option each writer holds (docs/profile.md's permission table), where full visibility has no wire value."""
CELLS = [(field, kind, PARENTS[i % len(PARENTS)], WRITERS[i % len(WRITERS)])
         for i, (field, kind) in enumerate(
             (f, k) for f, k in other_types("comment-request.json") if (f, k) != ("recipients", "null"))]


@pytest.mark.rule("COMMENT-6")
@pytest.mark.parametrize("cell", CELLS, ids=lambda c: f"{c[0]}-as-{c[1]}-on-{c[2]}-by-{c[3]}")
def test_a_comment_field_of_another_json_type_beside_recipients_is_refused(
        cell: tuple[str, str, str, str], api: dict[str, ApiClient], profile: Profile, question_id: int,
        shared_answer: int, created: Any, run_tag: str, user_ids: dict[str, int]) -> None:
    field, kind, parent_kind, writer = cell
    if not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility and recipients were added in 2.16.0, "
                                     f"the target runs {profile.service_version}")
    if "moderator" not in user_ids:
        skip(SkipKind.OTHER, "not judged: no id of moderator is known to name as a recipient")
    other = profile.visibility.full or getattr(profile.visibility, OWN_OPTION[writer])
    if other is None:
        skip(SkipKind.OTHER, f"not judged: the profile's [visibility] gives no wire value of full visibility or of "
                             f"{OWN_OPTION[writer]}, so no visibility that is not recipients can be sent")
    fields: dict[str, Any] = {"body": f"comment field of another type [{run_tag}]", "visibility": other,
                              "recipients": [{"id": user_ids["moderator"]}], field: value_of(kind, field)}
    parent = question_id if parent_kind == "question" else shared_answer
    resp = api[writer].post(contract.path("postComment", nodeId=parent), json=fields, operation="postComment")
    register_wrongly_created(resp, created, writer)
    allowed = ANY_4XX if field == "body" else (400,)
    if (why := why_not_refused(resp, allowed)) is not None:
        fail(["COMMENT-6"], f"{writer}'s comment on the {parent_kind} {parent} with {field} as a JSON {kind} "
                            f"({fields[field]!r}) gives recipients while visibility is "
                            f"{fields['visibility']!r}, not recipients: \"recipients given while visibility is not "
                            f"recipients gives 400.\"; expected {shown(allowed)}, "
                            f"{why}", resp)
