"""types (issue 44): faults of one kind, a field given in another JSON type than the description states, each on
one operation and one field only (the hooks are in :mod:`types_hooks`). The kind the blind rounds keep meeting
(round83-gdpr-operations-string-message-body: operations as a string answered with a {message} body): a server's
body converter or validator refuses or reads a value of the wrong type off the interface, on a refusal path the run
judged only with values of the stated type.
"""

from __future__ import annotations

from .fault_model import Fault

TYPES: tuple[Fault, ...] = (
    Fault(
        "types-job-type-number-html-400", "GDPR-ERROR-BODY",
        "A job request whose type is a JSON number or boolean (not the stated string) is refused 400 with the "
        "container's HTML error page (the enum converter fails before the controller): breaks 'Errors: 400 with "
        "{error: <message>}; see Errors.' for a type of another JSON type only.",
    ),
    Fault(
        "types-job-user-string-message-body", "GDPR-ERROR-BODY",
        "A job request whose user is a JSON string (not the stated object) is refused 400 with the JSON converter's "
        "{message} body: breaks 'Errors: 400 with {error: <message>}; see Errors.' for a user of another JSON type "
        "only.",
    ),
    Fault(
        "types-job-reassign-number-errors-body", "GDPR-ERROR-BODY",
        "A job request whose reassignUser is a JSON number (not the stated object) is refused 400 with an "
        "{errors: {message}} body (the permission-style error wrapper): breaks 'Errors: 400 with {error: "
        "<message>}; see Errors.' for a reassignUser of another JSON type only.",
    ),
    Fault(
        "types-comment-visibility-number-dropped", "COMMENT-6",
        "A comment whose visibility is a JSON number or boolean (not the stated string) has its privacy fields "
        "dropped (visibility and recipients) and is created with full visibility: 201 where recipients were given "
        "beside a visibility that is not recipients; breaks 'recipients given while visibility is not recipients "
        "gives 400.' for a visibility of another JSON type only.",
    ),
    Fault(
        "types-answer-comment-recipients-object-dropped", "COMMENT-6",
        "A comment on an answer whose recipients is a JSON object (not the stated array) has its recipients dropped: "
        "201 where recipients were given beside a visibility that is not recipients; breaks 'recipients given while "
        "visibility is not recipients gives 400.' for recipients of another JSON type on an answer only.",
    ),
)
"""The kind's five faults (docs/blind-rounds.md's closings by types)."""
