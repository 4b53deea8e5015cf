"""histories4 (issue 44): a list's permission decided differently only once two optional parameters are given
together, one of them a parameter the Conventions state for every list (paging, sort, projection, wrap, v1) where the
list's own section does not name it. Each reader is tried plain and with each such parameter alone
(suites/contract/list_access.single_rows), and the covering array never holds a Conventions parameter, so a server
whose check is skipped on the path that handles two of them at once (a projected page served from another query)
passed. The faults are rows of the route table (``Override.when`` and ``and_when``).

And TEXT-NON-ASCII on the paths of postComment the carrier comment (member's, on one answer, in four forms:
test_stated_forms.py) never takes: the parameter that wins beside a JSON body, and one writer's comments; the comment
form matrix (suites/contract/comment_responses.py) now judges it on every writer's shared comment, each in the form
the seed gives it. Their code is :mod:`histories4_paths`.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

PROJECTION = ("include", "exclude", "includeOnly")
PAGING = ("page", "pageSize")

HISTORIES4: tuple[Fault, ...] = (
    # "| 18 Answer's comments | View answers in the question page and View the question page (Anonymous Roles). |",
    # "Paging parameters: page, pageSize, sort" and "Projection parameters: include, exclude, includeOnly"
    Fault("histories4-answer-comments-novice-refused-paged-projection", "PERM-ANSWER-COMMENTS",
          "novice refused (403) on an answer's comment list when a paging and a projection parameter are given "
          "together (either alone, or neither: served)",
          (Override(("listAnswerComments",), "novice", Effect.DENY, when=PAGING, and_when=PROJECTION),)),
    # "| 5, 6 Experts | USE API role and View User's Profile (Anonymous Roles). |" and "Errors: 401"
    Fault("histories4-active-experts-anon-let-in-sorted-projection", "PERM-EXPERTS",
          "anonymous served the active experts (200) when sort and a projection parameter are given together "
          "(either alone: 401)",
          (Override(("listActiveExperts",), "anonymous", Effect.ALLOW, when=("sort",), and_when=PROJECTION),)),
    # "Other options accepted by most endpoints: wrap, v1." (Conventions)
    Fault("histories4-earned-experts-member-refused-wrapped-page", "PERM-EXPERTS",
          "member refused (403) on the earned experts when wrap and a paging parameter are given together",
          (Override(("listEarnedExperts",), "member", Effect.DENY, when=("wrap",), and_when=PAGING),)),
    # "body (string, the comment text, required)", "On POST endpoints that take a body, each body field may also be
    # given as a request or query parameter of the same name. When both are given, the parameter wins."
    Fault("histories4-comment-param-wins-latin1", "TEXT-NON-ASCII",
          "a comment whose body is a query parameter beside a JSON body stores the parameter's non-ASCII text read "
          "as Latin-1 (mojibake); the parameter alone, a form body or JSON: kept"),
    Fault("histories4-novice-comment-astral-dropped", "TEXT-NON-ASCII",
          "novice's comments lose every character beyond the Basic Multilingual Plane (emoji, 4-byte UTF-8); every "
          "other account's: kept"),
)
