"""Planted faults of the kind forms9 closes (issue 44 item 3): a stated input form of a write taken wrong on one
operation or one parent kind only (the form right everywhere else). Each breaks one stated rule on one path, quotes
the rule's sentence, and was missed by the suites before forms9 (``qaconform selftest --fault NAME --no-clean`` on
main's suites) and caught after. Part of the registry (:mod:`faults`); each is wired through :mod:`forms9_paths`
(one entry of request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

_F = Fault
FORMS9: tuple[Fault, ...] = (
    # "each body field may also be given as a request or query parameter of the same name" (Conventions)
    _F("forms9-question-comment-query-visibility-ignored", "COMMENT-7-NO-OPTION-PERMISSION",
       "\"each body field may also be given as a request or query parameter of the same name\": on a comment posted "
       "directly on a question, visibility given as a query parameter is ignored (the comment is posted at full "
       "visibility); under an answer or a comment the parameter is read"),
    # "When both are given, the parameter wins." (Conventions)
    _F("forms9-reply-to-reply-body-visibility-wins", "COMMENT-7-NO-PRIVATE-PERMISSION",
       "\"When both are given, the parameter wins.\": on a comment whose parent is itself a reply (a comment on a "
       "comment), the JSON body's visibility wins over the query parameter's; everywhere else the parameter wins"),
    _F("forms9-reply-form-visibility-dropped", "COMMENT-7-NO-PRIVATE-PERMISSION",
       "\"each body field may also be given as a request or query parameter of the same name\": on a reply to a top "
       "comment (the parent a comment on an answer or question), a form-encoded visibility is dropped; the "
       "form-encoded body is read, and on every other parent kind visibility too"),
    _F("forms9-question-comment-form-body-ignored", "CONV-PARAM-AS-BODY-FIELD",
       "\"each body field may also be given as a request or query parameter of the same name\": a form-encoded "
       "comment posted directly on a question is read as having no fields (refused for want of a body); under an "
       "answer or a comment the form is read"),
    _F("forms9-question-comment-body-visibility-wins", "COMMENT-7-NO-OPTION-PERMISSION",
       "\"When both are given, the parameter wins.\": on a comment posted directly on a question, the JSON body's "
       "visibility wins over the query parameter's (a private option the caller lacks, given as the parameter, is "
       "never seen); under an answer or a comment the parameter wins"),
    _F("forms9-answer-param-loses-on-anothers-question", "CONV-PARAM-WINS-ANSWER",
       "\"When both are given, the parameter wins.\": an answer to a question the caller did not write keeps the "
       "JSON body's body over the query parameter's; on the caller's own question the parameter wins"),
)
