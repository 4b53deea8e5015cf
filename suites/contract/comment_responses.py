"""Every response rule of a posted plain comment, judged on every shared plain comment of the run (issue 44: "let
the run's existing shared writes draw their input form and writer from a covering array so that the rules checked on
them are crossed with those dimensions at no extra write cost").

The rows are suites/conftest.py ``comment_of(writer)``: each account's plain comment under the shared answer, its body
in the input form the run's seed gives that account (support.comment_form: every form each run, each by another
writer; four seeds pair every writer with every form). Which rows a rule judges follows from what it is:

- :data:`EVERY`: every row (COMMENT-1 skips a row that named the full visibility: round38, issue 44, the row of an
  account without Use Private Comments names it where the profile gives its value, support.FULL_NAMED_BY): created
  (SHAPE-POST-COMMENT "Success: 201", PERM-COMMENT: every account holds Comment, and a full visibility named is no
  private option;
  VERSION-PATH: served under /services/v2; CONV-JSON-EXTENSION: a body, when there is one, is JSON),
  its Location (COMMENT-201-LOCATION), and read back by novice in the answer's comment list (COMMENT-LISTED, with its
  body; COMMENT-1: full visibility and no recipients, "and a later GET returns exactly that"; AUTH-ACTING-USER: its
  author is the writer; TEXT-NON-ASCII: its text beyond ASCII, which every writer's carries (posted_texts.BEYOND_ASCII),
  reads back unchanged: histories4, issue 44);
- :data:`PARAMETER`: the rows whose body came as a request parameter (query, form-encoded, or beside a JSON body):
  CONV-PARAM-AS-BODY-FIELD, the comment holds the parameter's text;
- :data:`BOTH`: the row whose body came both ways: CONV-PARAM-WINS-COMMENT, the parameter's text and not the body's.

Pure: no request. qaconform/report/crossing.py counts these rules crossed with the dimensions of ``validations:
postComment`` unless spec/dimensions.yaml ``write_crossing.exclude`` says why not (tests/test_write_crossing.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from form_rows import FormRow

from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.support import LOSING_BODY, body_holds
from qaconform.target.client import ApiResponse
from qaconform.target.profile import VisibilityOptions

EVERY, PARAMETER, BOTH = "every", "parameter", "both"
JSON, PARAM_WINS = "json", "param_wins"

RESPONSE_RULES: dict[str, str] = {
    "SHAPE-POST-COMMENT": EVERY,
    "VERSION-PATH": EVERY,
    "CONV-JSON-EXTENSION": EVERY,
    "PERM-COMMENT": EVERY,
    "COMMENT-201-LOCATION": EVERY,
    "COMMENT-LISTED": EVERY,
    "COMMENT-1": EVERY,
    "AUTH-ACTING-USER": EVERY,
    "TEXT-NON-ASCII": EVERY,  # histories4 (issue 44): in every stated input form, by every writer
    "CONV-PARAM-AS-BODY-FIELD": PARAMETER,
    "CONV-PARAM-WINS-COMMENT": BOTH,
}
"""rule -> the rows it judges (the module's docstring)."""


class Row(FormRow):
    """One shared plain comment: who wrote it, in which form its body travelled and what beside it
    (``postComment-form-none-admin``, ``postComment-json-stated-novice``: the full visibility named, round38)."""

    operation = "postComment"


def judges(rule: str, row: Row) -> bool:
    kind = RESPONSE_RULES[rule]
    return kind == EVERY or (kind == PARAMETER and row.form != JSON) or (kind == BOTH and row.form == PARAM_WINS)


@dataclass(frozen=True)
class Posted:
    """What the row's comment got and how to read it back: the response, the text sent, the form it travelled in
    (the JSON form when the target refused the drawn one), the writer's username, and ``read()``: the comment as
    novice lists it under the shared answer (None when it is not listed within the settle window)."""

    resp: ApiResponse
    text: str
    form: str
    username: str
    read: Callable[[int], dict[str, Any] | None]
    location_names: Callable[[ApiResponse, int, str, str], None]
    new_id: Callable[[ApiResponse], int]
    vis: VisibilityOptions
    privacy_fields: bool
    """Whether the target is 2.16.0 or later (visibility is read back only there)."""
    named_full: bool = False
    """Whether the comment named the full visibility beside its body (support.comment_other_fields, round38)."""
    refused: ApiResponse | None = None
    """The target's answer to the drawn form when it refused it (``form`` is then JSON: suites/conftest.py
    ``comment_of``)."""


def judge(rule: str, row: Row, posted: Posted) -> None:
    """``rule`` on the row's comment."""
    resp, what = posted.resp, f"{row.label}: {row.writer}'s plain comment, its body as {row.form}"
    denied = posted.refused if posted.refused is not None and posted.refused.status in (401, 403) else None
    if posted.form != row.form and denied is not None and rule in ("PERM-COMMENT", "CONV-PARAM-AS-BODY-FIELD",
                                                                   "CONV-PARAM-WINS-COMMENT"):
        fail(["PERM-COMMENT", "CONV-PARAM-AS-BODY-FIELD"], f"{what}: every account holds Comment, and \"each body "
             f"field may also be given as a request or query parameter of the same name\", yet the target refused "
             f"the plain comment in that form with {denied.status}", denied)  # closea: a permission in one form
    if posted.form != row.form and rule in ("CONV-PARAM-AS-BODY-FIELD", "CONV-PARAM-WINS-COMMENT"):
        fail(["CONV-PARAM-AS-BODY-FIELD"], f"{what}: \"each body field may also be given as a request or query "
                                           f"parameter of the same name\", yet the target refused it", resp)
    if resp.status != 201:
        rules = ["PERM-COMMENT"] if resp.status in (401, 403) else ["VERSION-PATH"] if resp.status == 404 else \
            ["SHAPE-POST-COMMENT"]
        fail(rules, f"{what}: every account holds Comment, and a plain comment on a visible answer is \"Success: "
                    f"201\"; got {resp.status}", resp)
    if rule == "CONV-JSON-EXTENSION" and resp.content.strip():  # "Response body: not shown": JSON when there is one
        try:
            resp.json()
        except ValueError:
            fail([rule], f"{what}: \"Each path ends in .json, which selects the JSON format\": the 201 carries a "
                         "body that is not JSON", resp)
    if rule in ("SHAPE-POST-COMMENT", "PERM-COMMENT", "VERSION-PATH", "CONV-JSON-EXTENSION"):
        return
    if rule == "COMMENT-1" and posted.named_full:
        skip(SkipKind.OTHER, f"not judged: {what} named the full visibility, and COMMENT-1 is about a comment "
                             "\"Without visibility and recipients\" (judged on the other writers' rows)")
    new = posted.new_id(resp)
    if rule == "COMMENT-201-LOCATION":
        posted.location_names(resp, new, what, rule)
        return
    item = posted.read(new)
    if item is None:
        fail(["COMMENT-LISTED"], f"{what}: a full-visibility comment is listed under its answer for every caller; "
                                 f"novice does not see comment {new}", resp)
    assert item is not None
    body = item.get("body")
    if rule == "COMMENT-LISTED" and not body_holds(body, posted.text):
        fail([rule], f"{what}: listed, the comment's body holds {posted.text!r}; got {body!r}", resp)
    if rule == "CONV-PARAM-AS-BODY-FIELD" and not body_holds(body, posted.text):
        fail([rule], f"{what}: the body given as a parameter is the comment's text {posted.text!r}; got {body!r}", resp)
    if rule == "CONV-PARAM-WINS-COMMENT" and (body_holds(body, LOSING_BODY) or not body_holds(body, posted.text)):
        fail([rule], f"{what}: \"When both are given, the parameter wins\": the comment reads {body!r}", resp)
    if rule == "TEXT-NON-ASCII" and not body_holds(body, posted.text):
        fail([rule], f"{what}: \"body (string, the comment text)\": its text beyond ASCII reads back unchanged; "
                     f"listed, the body must hold {posted.text!r}; got {body!r}", resp)
    if rule == "AUTH-ACTING-USER":
        author = item.get("author")
        if not (isinstance(author, dict) and author.get("username") == posted.username):
            fail([rule], f"{what}: \"The acting user is taken from the credentials\": the author is "
                         f"{posted.username!r}; got {author!r}", resp)
    if rule == "COMMENT-1":
        visibility, recipients = item.get("visibility"), item.get("recipients")
        if posted.privacy_fields and not posted.vis.reads_as_full(visibility):
            fail([rule], f"{what}: \"Without visibility and recipients the comment has full visibility\"; novice "
                         f"reads visibility={visibility!r}", resp)
        if recipients not in (None, []):
            fail([rule], f"{what}: \"... and no recipients, and a later GET returns exactly that\"; novice reads "
                         f"recipients={recipients!r}", resp)

