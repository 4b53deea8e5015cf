"""The combinations test_input_form_matrix.py sends: per validation rule, a covering array over the form its fields
arrive in, the other fields beside them and who sends it (spec/dimensions.yaml ``validations``), drawn by allpairspy
and seeded by the run's ``--seed``. Pure: no request (the shared answers' forms come from
qaconform.pytest.support.answer_form). The answers' success side is test_answer_form_matrix.py's.

Which values a rule may draw is decided here, from what the description states (never a form it does not give):

- ``form`` (an ``application/x-www-form-urlencoded`` body) only where every field the request needs is a scalar: a
  comment's recipients (an array of objects) and a job's user, scheduleDate and operations (objects and an array)
  have no parameter form shown, so COMMENT-6 and the job rules are not sent form-encoded (the job's past date,
  operations and reassignUser, crossing2: the job's scalar fields, type and csvFileId, take the other forms, the
  field the refusal is about stays in the JSON body), except a job without type (round80, issue 44: its objects as
  JSON text; a server reads them or not, a request without type is refused either way);
- ``param_wins`` only where a parameter and a body value can differ so that the parameter's makes the request one
  the description refuses: COMMENT-BODY-REQUIRED has none (a body given one way is a body given; an empty parameter
  is not "without body");
- ``other_fields`` ``stated`` only where the operation states a field that can stand beside the one missing or
  wrong: a comment's visibility at full visibility beside a missing body, a job's field of the other type (csvFileId
  beside an individual job, user beside a bulk one);
- ``writer``: the accounts holding Comment; a rule whose refusal is about one account (COMMENT-4: the private
  parent's author; COMMENT-7-NO-PRIVATE-PERMISSION: novice, who lacks Use Private Comments;
  COMMENT-7-NO-OPTION-PERMISSION: member, who lacks the option to own groups) or an operation of one
  account (the jobs: admin, the profile's scheduling role) does not cross it.

Every combination is one request a conforming target refuses: no accepted write (the test module's docstring).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from covering import every as every_row
from covering import pairwise

from qaconform.contract import Dimensions
from qaconform.pytest.support import ANSWER_PUBLISHERS, answer_form
from qaconform.target.client import ApiResponse

INPUT_FORM, OTHER_FIELDS, WRITER = "input_form", "other_fields", "writer"
JSON, QUERY, FORM, PARAM_WINS = "json", "query", "form", "param_wins"
NO_OTHER, STATED = "none", "stated"

ALLOWED: dict[str, dict[str, tuple[str, ...]]] = {
    "COMMENT-BODY-REQUIRED": {INPUT_FORM: (JSON, QUERY, FORM)},
    "COMMENT-6": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    "GDPR-INDIVIDUAL-NO-USER": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    "GDPR-BULK-NO-CSV": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    "GDPR-CSV-MISSING": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    # crossing2 (issue 44): the job's refusals past its file check, on a bulk job naming the profile's file
    "GDPR-PAST-DATE": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    "GDPR-OPERATIONS-INVALID": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    "GDPR-REASSIGN-AMBIGUOUS": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    "GDPR-REASSIGN-INVALID": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    "GDPR-USER-FORMS": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},  # an individual job's user by each stated form
    # crossing3 (issue 44): a bulk job's reassignUser and operations in the stated forms, on the profile's file
    "GDPR-REASSIGN-FORMS": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    "GDPR-OPERATIONS-RANGE": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},
    # jobs4 (issue 44): no type; no value of type as a parameter makes a typed body type-less. round80: form too,
    # its objects as JSON text (form_sends.py: every reading of a type-less request is a refusal)
    "GDPR-BULK-NO-TYPE": {INPUT_FORM: (JSON, QUERY, FORM)},
    "GDPR-DATE-TIMESTAMP": {INPUT_FORM: (JSON, QUERY, PARAM_WINS)},  # a bulk job dated by timeStamp, its file's
    # forms (issue 44): an answer's only required field is its body, a scalar, so every form carries it
    "ANSWER-PUBLISHED": {WRITER: ANSWER_PUBLISHERS},
}
"""rule -> dimension -> the values it may draw, where fewer than the dimension's (the module's docstring says why)."""

JOB_RESPONSE_RULES = ("GDPR-ERROR-BODY",)
"""Rules of the job endpoint's response judged on every row of every job refusal's array (writecross, issue 44:
test_input_form_matrix.py ``test_every_job_refusal_in_every_input_form_has_the_stated_error_body``)."""

FIXED_WRITER = {"COMMENT-4": "member", "COMMENT-7-NO-PRIVATE-PERMISSION": "novice",
                "COMMENT-7-NO-OPTION-PERMISSION": "member",  # blind8 (issue 44): member lacks to own groups
                "GDPR-INDIVIDUAL-NO-USER": "admin",
                "GDPR-BULK-NO-CSV": "admin", "GDPR-CSV-MISSING": "admin", "ANSWER-MODERATION": "novice",
                # crossing2 (issue 44): the job's refusals past its file check
                "GDPR-PAST-DATE": "admin", "GDPR-OPERATIONS-INVALID": "admin", "GDPR-REASSIGN-AMBIGUOUS": "admin",
                "GDPR-REASSIGN-INVALID": "admin", "GDPR-USER-FORMS": "admin",
                # crossing3 (issue 44): the stated forms of a bulk job's reassignUser and operations
                "GDPR-REASSIGN-FORMS": "admin", "GDPR-OPERATIONS-RANGE": "admin",
                "GDPR-BULK-NO-TYPE": "admin", "GDPR-DATE-TIMESTAMP": "admin"}  # jobs4 (issue 44)
"""The account of a rule that does not cross ``writer``."""


@dataclass(frozen=True)
class Case:
    """One drawn request: the rule it judges, the write operation, and the value of each dimension."""

    rule: str
    op: str
    form: str
    other: str
    writer: str
    crossed: tuple[str, ...]
    """The dimensions the rule crosses (the others hold their default: no other field, the rule's account)."""

    @property
    def label(self) -> str:
        """The test id, naming the whole combination (``postComment-form-stated-novice``)."""
        return f"{self.op}-{self.form}-{self.other}-{self.writer}"

    def value(self, dimension: str) -> str:
        return {INPUT_FORM: self.form, OTHER_FIELDS: self.other, WRITER: self.writer}[dimension]


def values(rule: str, dimension: str, dims: Dimensions) -> tuple[str, ...]:
    """The values of ``dimension`` that ``rule`` draws (:data:`ALLOWED`, else every value of the dimension)."""
    allowed = ALLOWED.get(rule, {}).get(dimension)
    return tuple(v for v in dims.values[dimension] if allowed is None or v in allowed)


def array(rule: str, dims: Dimensions, seed: int, every: bool = False) -> tuple[Case, ...]:
    """The covering array (strength 2) of ``rule``'s declared dimensions for the run's seed: the seed shuffles each
    dimension's value order, so another seed draws another array with the same guarantee. With ``every``
    (``--thorough``) every combination, in the seed's order: the product is a few dozen rows per rule."""
    declared = dims.rules[rule]
    assert len(declared.validations) == 1, f"{rule}: a validation rule is crossed over one write operation"
    op = declared.validations[0]
    rng = random.Random(f"{seed}|{rule}")
    columns: list[Sequence[str]] = []
    for name in declared.across:
        column = list(values(rule, name, dims))
        rng.shuffle(column)
        columns.append(column)
    cases = []
    for row in (every_row(columns) if every else pairwise(columns)):
        chosen = dict(zip(declared.across, row, strict=True))
        cases.append(Case(rule, op, chosen.get(INPUT_FORM, JSON), chosen.get(OTHER_FIELDS, NO_OTHER),
                          chosen.get(WRITER, FIXED_WRITER.get(rule, "member")), declared.across))
    return tuple(cases)


@dataclass(frozen=True)
class Coverage:
    covered: int
    possible: int


def coverage(rule: str, cases: Sequence[Case], dims: Dimensions) -> Coverage:
    """Distinct value pairs of two crossed dimensions the cases try, against the pairs the allowed values make; a
    rule crossing one dimension counts its values."""
    names = dims.rules[rule].across
    if len(names) == 1:
        return Coverage(len({c.value(names[0]) for c in cases}), len(values(rule, names[0], dims)))
    covered = possible = 0
    for a, b in combinations(names, 2):
        covered += len({(c.value(a), c.value(b)) for c in cases})
        possible += len(values(rule, a, dims)) * len(values(rule, b, dims))
    return Coverage(covered, possible)


def budget_answers(dims: Dimensions) -> frozenset[tuple[str, str]]:
    """The (writer, form) answers a run with a write budget posts: each publisher's shared answer in its form
    (qaconform.pytest.support.answer_form: posted anyway, read by the permission, shape and lock tests), member's
    answer whose body parameter wins (CONV-PARAM-WINS-ANSWER's, posted anyway), and novice's in every form (three
    answers beyond its shared JSON one: moderation is what a form could change, and only novice lacks Publish
    answer). Without a budget every combination is posted."""
    forms = dims.values[INPUT_FORM]
    cells = {(role, answer_form(role)) for role in (*ANSWER_PUBLISHERS, "novice")}
    cells.add((ANSWER_PUBLISHERS[0], PARAM_WINS))
    cells |= {("novice", form) for form in forms}
    return frozenset(cells)


INHERITED_MESSAGE = "Visibility on comment can't be defined since it's inherited"
"""round56 (issue 44): COMMENT-4's 400 carries this stated message in every input form (COMMENT-400-MESSAGE), not only
in the JSON body the scenarios send: a server whose parameter validator answers first gives its own message."""


def body_texts(resp: ApiResponse) -> list[str]:
    """Every string of a JSON body, stripped (the whole text when it is not JSON): where a stated message may be."""
    try:
        stack, found = [resp.json()], []
    except AssertionError:  # TargetError: not JSON
        return [resp.text.strip()]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.append(value.strip())
        elif isinstance(value, dict | list):
            stack.extend(value.values() if isinstance(value, dict) else value)
    return found
