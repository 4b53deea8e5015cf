"""readback (issue 44): faults of one kind, an accepted write (201) kept out of the list where the description says it
appears, each on another path the run writes: a publisher's answer by form with wiki, one by query parameters with
wiki, a full-visibility non-ASCII comment given form-encoded, one given as a query parameter in three scripts.
Written before the late reader (suites/contract/test_readback.py) that judges every accepted answer and comment of
the run; the hooks are in :mod:`readback_paths`."""

from __future__ import annotations

from .fault_model import Fault

READBACK: tuple[Fault, ...] = (
    Fault(
        "readback-form-answer-wiki-moderated", "ANSWER-PUBLISHED",
        "An answer by a caller with Publish answer sent as a FORM-ENCODED body that carries the wiki field (any "
        "value) goes to the moderation queue: its author and the moderators see it, other users do not find it in "
        "the author's answer list: breaks 'Caller has Answer questions and Publish answer | Published' for that "
        "form with wiki only.",
    ),
    Fault(
        "readback-query-answer-wiki-moderated", "ANSWER-PUBLISHED",
        "An answer by a caller with Publish answer whose body and wiki field are QUERY parameters goes to the "
        "moderation queue: breaks 'Caller has Answer questions and Publish answer | Published' for that form "
        "with wiki only.",
    ),
    Fault(
        "readback-form-comment-unlisted", "COMMENT-LISTED",
        "A comment on an answer by a caller without a Moderation Roles permission given as a FORM-ENCODED body "
        "whose text is not all ASCII, without a private visibility, is created (201) but kept out of the answer's "
        "comment list for everyone but its author and the moderators: breaks 'Without visibility and recipients "
        "the comment has full visibility and no recipients, and a later GET returns exactly that.' for such "
        "comments only.",
    ),
    Fault(
        "readback-query-comment-scripts-unlisted", "COMMENT-LISTED",
        "A comment on an answer by a caller without a Moderation Roles permission whose body is a QUERY parameter "
        "mixing three or more scripts, with no request body beside it and without a private visibility, is created "
        "(201) but kept out of the answer's comment list for everyone but its author and the moderators: breaks "
        "'Without visibility and recipients the comment has full visibility and no recipients, and a later GET "
        "returns exactly that.' for such comments only.",
    ),
)
