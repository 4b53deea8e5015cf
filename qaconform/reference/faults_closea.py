"""closea (issue 44): one more fault of each kind closea closed, on another path or rule than the blind miss it
closed, missed before the change and caught after (docs/blind-rounds.md). The hooks are in :mod:`closea`.
"""

from __future__ import annotations

from .fault_model import Fault

CLOSEA: tuple[Fault, ...] = (
    # round78-gdpr-user-email-as-parameter-refused's kind: a job's object field given as a request parameter
    Fault(
        "closea-kind-reassign-username-as-parameter-refused", "GDPR-REASSIGN-FORMS",
        "A job whose reassignUser object comes as a query PARAMETER (reassignUser={\"username\": ...}) rather than "
        "in the body is refused 400 'The provided 'reassignUser' is/are invalid' (the parameter binder maps "
        "reassignUser.id only): breaks 'Identifies the user to whom content is reassigned, by exactly one of "
        "username or id.' for the username form given as a parameter only.",
    ),
    # round78-reassign-id-no-realname-refused's kind: a job's user form decided by what the user's profile holds
    Fault(
        "closea-kind-job-user-id-no-realname-refused", "GDPR-USER-FORMS",
        "An individual job whose user is given by id naming a user WITHOUT a real name is refused 400 with the "
        "missing-user message (the id lookup joins the profile's display name); by email or username, or a user "
        "with a real name, it is taken: breaks 'Exactly one of username, email, id.' for those users by id only.",
    ),
    # round76-comment-novice-param-body-refused's kind: a plain comment refused 403 in one input form and writer
    Fault(
        "closea-kind-comment-member-form-body-refused", "PERM-COMMENT",
        "A plain comment (no privacy field) by member whose body comes form-encoded is refused 403 (the form "
        "controller checks Use Private Comments' group for every comment): breaks '| 1 Post comment | Comment "
        "(Other Standard Roles); ...' for member's form-encoded comments only.",
        draws=("novice comment form=param_wins",),  # member's form is the one before novice's: form
    ),
)
