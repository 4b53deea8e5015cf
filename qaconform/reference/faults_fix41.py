"""fix41 (issue 44): round 41's misses closed by kind, each with one more fault of its kind planted beside it to
prove the widening closes the kind, not the one fault (ARCHITECTURE.md, "Blind round 41"). Hooks in
:mod:`blind_round41` (next to the round's own hook of the kind).

- a user id given in the user's other stated form where the description states the refusal (round41: the content
  list asked by a username; here by the user's email, the other form a job's user takes);
- a stated field beside another field of the node (round41: a JSON answer's title stored as its text; here a title
  given as a query parameter beside a body given as one).
"""

from __future__ import annotations

from .fault_model import Fault

FIX41: tuple[Fault, ...] = (
    Fault("fix41-content-email-as-id", "GDPR-CONTENT-422",
          "'422 | User content query | Invalid user id | {error: Invalid User Id}' -> a user's email given in "
          "place of the userId (an integer) is looked up and the user's content answered 200"),
    Fault("fix41-answer-query-title-replaces-body", "ANSWER-OTHER-NODE-FIELDS",
          "'body (string, the answer text); other Node fields may be supplied' -> an answer whose body and title "
          "are both given as query parameters is stored with the title as its text (JSON and form bodies keep "
          "theirs)"),
)
