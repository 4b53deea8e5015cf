"""Readers (issue 44, Build items 1, 2 and 6): a list's permission decided differently once one optional parameter
is given, on the parameters the Conventions state for every list (paging, sort, projection, wrap, v1) where the
list's own section does not name them, both ways (a reader refused that the table lets in, one let in that it
refuses); and a bare-array list's stated shape broken for one reader only. Two faults of the blind rounds the
suites missed are planted again here (/work/notes/s6/blind-round16.md, blind-round17.md). The code of the shape
faults is :mod:`readers_paths` (request_hooks.HOOKS "readers"); the permission faults are rows of the route table.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

READERS: tuple[Fault, ...] = (
    # "| 18 Answer's comments | View answers in the question page and View the question page (Anonymous Roles). |"
    # and "Paging parameters: page (integer, default 1), pageSize (...), sort (string)." (Conventions)
    Fault("round17-answer-comments-anon-refused-pagesize", "PERM-ANSWER-COMMENTS",
          "anonymous refused (401) on an answer's comment list when pageSize is given (without it: served)",
          (Override(("listAnswerComments",), "anonymous", Effect.DENY, when=("pageSize",)),)),
    Fault("readers-answer-comments-member-refused-sort", "PERM-ANSWER-COMMENTS",
          "member refused (403) on an answer's comment list when sort is given",
          (Override(("listAnswerComments",), "member", Effect.DENY, when=("sort",)),)),
    # "Projection parameters: include, exclude, includeOnly." (Conventions)
    Fault("readers-answer-comments-novice-refused-includeonly", "PERM-ANSWER-COMMENTS",
          "novice refused (403) on an answer's comment list when includeOnly is given",
          (Override(("listAnswerComments",), "novice", Effect.DENY, when=("includeOnly",)),)),
    Fault("readers-answer-comments-moderator-refused-include", "PERM-ANSWER-COMMENTS",
          "moderator refused (403) on an answer's comment list when include is given",
          (Override(("listAnswerComments",), "moderator", Effect.DENY, when=("include",)),)),
    # "| 5, 6 Experts | USE API role and View User's Profile (Anonymous Roles). |" and "Errors: 401"
    Fault("readers-active-experts-anon-let-in-includeonly", "PERM-EXPERTS",
          "anonymous served the active experts (200) when includeOnly is given (without it: 401)",
          (Override(("listActiveExperts",), "anonymous", Effect.ALLOW, when=("includeOnly",)),)),
    # "Other options accepted by most endpoints: wrap, v1." (Conventions)
    Fault("readers-earned-experts-anon-let-in-wrap", "PERM-EXPERTS",
          "anonymous served the earned experts (200) when wrap is given (without it: 401)",
          (Override(("listEarnedExperts",), "anonymous", Effect.ALLOW, when=("wrap",)),)),
    Fault("readers-earned-experts-moderator-refused-exclude", "PERM-EXPERTS",
          "moderator refused (403) on the earned experts when exclude is given",
          (Override(("listEarnedExperts",), "moderator", Effect.DENY, when=("exclude",)),)),
    Fault("readers-active-experts-novice-refused-v1", "PERM-EXPERTS",
          "novice refused (403) on the active experts when v1 is given",
          (Override(("listActiveExperts",), "novice", Effect.DENY, when=("v1",)),)),
    # "19 ... Response: 200, a JSON array of objects with name (string)."
    Fault("round16-issuetypes-wrapped-non-admin", "SHAPE-LIST-ISSUE-TYPES",
          "the issue-type list served to member, novice and moderator as {issueTypes: [...]} (admin: the array)"),
    Fault("readers-issuetypes-enveloped-novice", "SHAPE-LIST-ISSUE-TYPES",
          "the issue-type list served to novice in the paged list envelope (every other reader: the array)"),
)
