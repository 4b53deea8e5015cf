"""Planted faults of the kind shapes25 closes (issue 44: an answer's comment list whose item shape breaks only for
one state of the listed answer). The shape tests judged the comment list of the run's own answer only (member's,
under the fixture question), so a server that renders the comments of a wiki answer through another serializer was
never met (round94-wiki-answer-comments-wiki-text). Each quotes the sentence it breaks, was measured missed on the
base (``qaconform selftest --fault NAME --no-clean --jobs 1``) and is judged by test_operation_shapes.py's comment
list of an answer in each state. Part of the registry (fault_list18.py); wired through :mod:`shapes25_hooks`.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    Fault("shapes25-child-space-answer-comments-author-id-text", "SHAPE-LIST-ANSWER-COMMENTS",
          "The comment list of an answer in a CHILD space (its space has a parent) gives each comment's author id as "
          "a string (the child space's member cache keys users by text); comments of answers in a root space keep "
          "integers: breaks 'Response: 200, paged list of Node items of type comment, with the sorts array.' "
          "('| author | object | id (integer), ...') under answers of child spaces only."),
)

_MISSED_REASONS: dict[str, str] = {}

SHAPES25, SHAPES25_MISSED = split_missed(_ALL, _MISSED_REASONS)
