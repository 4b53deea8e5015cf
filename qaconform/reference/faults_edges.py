"""edges (issue 44): faults of one kind, a value at an edge INSIDE a field's stated type (an empty or blank string,
the nearest id no user holds, an enum's blank item), each on one operation and one field only (the hooks are in
:mod:`edges_hooks`). The kind the blind rounds 89 and 90 met (an existing user's email as reassignUser.username, type
"", the id one above the highest user id): a binder or a lookup that reads an edge value of the right type as
absent, as a default or as another stated form, on a refusal path the run judged only with values far from the edge.
"""

from __future__ import annotations

from .fault_model import Fault

EDGES: tuple[Fault, ...] = (
    Fault(
        "edges-reassign-id-next-unknown-taken", "GDPR-REASSIGN-INVALID",
        "A job whose reassignUser.id is the id one above the highest user id (the id the users sequence hands out "
        "next) is scheduled 201 with no reassignment (the lookup treats the next id as a user being created); ids "
        "further out are refused: breaks '| 400 | Schedule job | reassignUser does not exist | {error: The "
        "provided 'reassignUser' is/are invalid} |' for that one id only.",
    ),
    Fault(
        "edges-operations-blank-read-as-suspend", "GDPR-OPERATIONS-INVALID",
        "A job whose operations list holds only empty or whitespace-only names is scheduled 201 as a suspend job "
        "(the enum binder gives a blank item the enum's first value); unknown names are refused: breaks '| 400 | "
        "Schedule job | Empty or invalid operations list | {error: The provided 'operations' is/are invalid} |' "
        "for blank names only.",
    ),
    Fault(
        "edges-reassign-username-blank-ignored", "GDPR-REASSIGN-INVALID",
        "A BULK job whose reassignUser.username is empty or whitespace only is scheduled 201 with no reassignment "
        "(the bulk branch trims the name and reads an empty one as no reassignUser); individual jobs, and unknown "
        "names, are refused: breaks '| 400 | Schedule job | reassignUser does not exist | {error: The provided "
        "'reassignUser' is/are invalid} |' for a blank name on a bulk job only.",
    ),
    Fault(
        "edges-content-id-blank-empty", "GDPR-CONTENT-422",
        "A user's content list asked with a userId that is whitespace only (a blank path segment, %20) answers 200 "
        "with an empty array (the path converter trims it to nothing and the query then matches no author); "
        "zero, negative, unknown and non-numeric ids give 422 {error: Invalid User Id}: breaks 'Error: 422 with "
        "{error: Invalid User Id}.' for a blank id only.",
    ),
    Fault(
        "edges-comment-visibility-blank-recipients-taken", "COMMENT-6",
        "A comment whose visibility is whitespace only, given beside recipients, is created 201 private to those "
        "recipients (the binder trims the visibility and an empty one beside recipients defaults to recipients); "
        "an empty or unknown visibility is refused: breaks 'recipients given while visibility is not recipients "
        "gives 400.' for a blank visibility only.",
    ),
    Fault(
        "edges-answer-comment-unknown-recipients-dropped", "COMMENT-6",
        "A comment on an ANSWER whose recipients name only ids no user holds is created 201 with full visibility "
        "beside a visibility that is not recipients (the answer's comment binder drops recipients it cannot find "
        "before the rule-6 check); known recipients, and comments on questions, are refused: breaks 'recipients "
        "given while visibility is not recipients gives 400.' for unknown recipients under an answer only.",
    ),
)
