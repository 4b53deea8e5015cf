"""Planted faults of the kind placements closes (issue 44: a write on a parent kind or relation the run's writes did
not reach). novice's moderated answers went under the fixture question alone (novice's own, a root space), and the
run's private reply to a public comment was JSON alone while the private comments on a question and on an answer took
every private form: an answer without Publish answer to ANOTHER account's question, or to a question of a CHILD space,
and a reply whose privacy travels as a parameter beside a JSON body, were never posted. Each quotes the sentence it
breaks, was measured missed on the base (``qaconform selftest --fault NAME --no-clean --jobs 1``) and is caught after
the run's existing writes were spread over those parents (suites/contract/placed_slots.py, novice's answers:
qaconform/pytest/placements.py). Part of the registry (fault_list18.py); wired through :mod:`placements_hooks`.
"""

from __future__ import annotations

from .fault_model import Fault

PLACEMENTS: tuple[Fault, ...] = (
    Fault("placements-moderated-answer-others-question-parent-id-null", "ANSWER-PARENT-FIELDS",
          "'| parentId | integer | Present on a newly posted answer. |': the 201 of an answer by a caller without "
          "Publish answer to a question ANOTHER account wrote carries parentId null (the moderation draft is built "
          "from the caller's own questions); answers to the caller's own question, and published answers, are right"),
    Fault("placements-moderated-answer-child-space-no-location", "ANSWER-LOCATION",
          "'The Location header holds the new item's URL.': the 201 "
          "of an answer by a caller without Publish answer to a question in a CHILD space carries no Location (the "
          "moderation queue's redirect is resolved by the root space only); in root spaces, and published answers "
          "everywhere, it is there"),
    Fault("placements-reply-visibility-param-beside-json-dropped", "CONV-PARAM-AS-BODY-FIELD",
          "'each body field may also be given as a request or query parameter of the same name': a REPLY whose "
          "visibility comes as a query parameter beside a JSON body (its recipients) loses the parameter (the reply "
          "binder reads the JSON body alone); on questions and answers, and for a reply whose fields are all in one "
          "place, it counts",
          draws=("private reply form=query",)),
    Fault("placements-reply-json-visibility-wins-over-param", "CONV-PARAM-WINS-COMMENT",
          "'When both are given, the parameter wins.': a REPLY whose visibility is given both as a query parameter "
          "and in its JSON body keeps the body's (the reply binder merges the parameters first); on questions and "
          "answers the parameter wins",
          draws=("private reply form=param_wins",)),
)
