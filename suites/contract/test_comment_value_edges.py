"""Every stated field of a comment at its value edges inside its type, on refusal paths only (edges, issue 44; the
cells: value_edges.py ``comment_edges``, derived from spec/schemas/comment-request.json and the recipient's
definition in common.json): body and visibility empty and whitespace only, each recipient's id the nearest id no user
holds (value_edges.nearest_unknown_user: the target itself answers 404 for that user), as a number and as its digits
(the recipient's id is "integer or string" in the schema).

Each request gives recipients beside a visibility that is not recipients ("recipients given while visibility is not
recipients gives 400.", rule 6), so a conforming target refuses every one and none writes:

- visibility empty or blank (the field under test; recipients name moderator): no visibility is recipients, so 400;
- a recipient's id at its edge, beside full visibility (else a private option the writer holds): 400, whatever the
  target makes of an id no user holds (the description states no answer of its own for one);
- body empty or blank beside moderator as recipient and full visibility: refused (a 4xx: a blank body may be
  refused for itself first, with a status the description does not give; COMMENT-6 forbids a 2xx).

The 6 cells go to the parent kinds (the shared question, the shared answer) and the writers holding Use Private
Comments (member, moderator, admin) in turn: each (parent, writer) pair once.
"""

from __future__ import annotations

from typing import Any

import pytest
from value_edges import BLANK, Edge, comment_edges, nearest_unknown_user

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
CELLS = [(e, PARENTS[i % len(PARENTS)], WRITERS[i % len(WRITERS)]) for i, e in enumerate(comment_edges())]


def _value(edge: Edge, unknown: tuple[int | None, str]) -> Any:
    if edge.edge in ("empty", "blank"):
        return "" if edge.edge == "empty" else BLANK
    if unknown[0] is None:
        skip(SkipKind.OTHER, f"not judged: no unknown user id near the known ones ({unknown[1]})")
    return unknown[0] if edge.edge == "nearest_unknown" else str(unknown[0])


@pytest.mark.rule("COMMENT-6")
@pytest.mark.parametrize("cell", CELLS, ids=lambda c: f"{c[0].label}-on-{c[1]}-by-{c[2]}")
def test_a_comment_field_at_an_edge_of_its_type_beside_recipients_is_refused(
        cell: tuple[Edge, str, str], api: dict[str, ApiClient], admin: ApiClient, profile: Profile,
        question_id: int, shared_answer: int, created: Any, run_tag: str, user_ids: dict[str, int]) -> None:
    edge, parent_kind, writer = cell
    if not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: visibility and recipients were added in 2.16.0, "
                                     f"the target runs {profile.service_version}")
    if "moderator" not in user_ids:
        skip(SkipKind.OTHER, "not judged: no id of moderator is known to name as a recipient")
    other = profile.visibility.full or getattr(profile.visibility, OWN_OPTION[writer])
    if other is None:
        skip(SkipKind.OTHER, f"not judged: the profile's [visibility] gives no wire value of full visibility or of "
                             f"{OWN_OPTION[writer]}, so no visibility that is not recipients can be sent")
    known = [*user_ids.values(), *([profile.safety.gdpr_user_id] if profile.safety.gdpr_user_id else [])]
    value = _value(edge, nearest_unknown_user(admin, known) if edge.top == "recipients" else (None, ""))
    fields: dict[str, Any] = {"body": f"comment field at an edge [{run_tag}]", "visibility": other,
                              "recipients": [{"id": user_ids["moderator"]}]}
    if edge.top == "recipients":
        fields["recipients"] = [{"id": value}]
    else:
        fields[edge.top] = value
    parent = question_id if parent_kind == "question" else shared_answer
    resp = api[writer].post(contract.path("postComment", nodeId=parent), json=fields, operation="postComment")
    register_wrongly_created(resp, created, writer)
    allowed = ANY_4XX if edge.top == "body" else (400,)
    if (why := why_not_refused(resp, allowed)) is not None:
        fail(["COMMENT-6"], f"{writer}'s comment on the {parent_kind} {parent} with {edge.field} {value!r} "
                            f"({edge.edge.replace('_', ' ')}) gives recipients {fields['recipients']} while "
                            f"visibility is {fields['visibility']!r}, not recipients: \"recipients given while "
                            f"visibility is not recipients gives 400.\"; expected {shown(allowed)}, {why}", resp)
