"""The run's shared answer posted with the option wrap, its body a parameter beside a JSON body (trade12, issue 44).

member's shared answer under the fixture question (suites/conftest.py ``shared_answer``) is read for its id only:
comments hang under it, lists are read around it, nothing judges its 201 nor its body. So it carries, at no write of
its own, a path no other write of a budgeted run takes: "Option wrap" on postAnswer with the body given both as a query
parameter and in the JSON body ("When both are given, the parameter wins"). round23 planted a server whose wrapped
branch parses the JSON body after the parameters (r23-answer-wrap-body-wins); member's param_wins answer of the
answer form matrix is sent without wrap, since its 201 is judged and what wrap does to a response is not shown.

The parameter's text is the text the plain post gave it, so every reader sees the answer it saw before. The id comes
from the 2xx (its body or Location), else from member's answer list (found by its text: wrap may change the
response's shape); a refusal of the wrapped post (the option's values are not shown) costs no write, and the answer is
posted plain as before. test_request_conventions.py reads the stored body back from member's answer list.

round81 (issue 44): the parameter's text carries text beyond ASCII (posted_texts.BEYOND_ASCII) after its ASCII head,
judged as TEXT-NON-ASCII on that read-back ("body (string, the answer text)" in any stated form, with the stated
option): every answer text of the run beyond ASCII went as a plain post, so a wrapped branch that decodes its
parameters as ASCII was never met. Which body won is judged on the head alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import fail
from qaconform.pytest.support import (
    LOSING_BODY,
    answer_posted,
    body_holds,
    list_all,
    once_per_run,
    post_answer,
)
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.created_id import created_id
from qaconform.target.profile import Profile

from .posted_texts import BEYOND_ASCII

TEXT = "shared answer"
"""The text of the shared answer (as ``post_answer`` wraps it: ``<p>TEXT [run tag]</p>``)."""
OPTION = {"wrap": "true"}
"""The option sent: its values are not shown, so a refusal is not judged (the plain post stands in)."""


def posted(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str, created: Any,
           profile: Profile) -> dict[str, Any]:
    """The shared answer, once per run and target: ``id``, ``wrapped`` (whether the wrapped post made it),
    ``status`` of the wrapped post, ``text`` the body parameter sent, ``head`` its ASCII head (round81)."""
    return dict(once_per_run(request, profile.base_url, "shared_answer",
                             lambda: _post(request, api["member"], question_id, run_tag, created)))


def _post(request: pytest.FixtureRequest, member: ApiClient, question_id: int, run_tag: str,
          created: Any) -> dict[str, Any]:
    text = f"<p>{TEXT} [{run_tag}] {BEYOND_ASCII}</p>"  # round81: text beyond ASCII, in the wrapped parameter form
    resp = member.post(contract_path("postAnswer", questionId=question_id), operation="postAnswer",
                       params={"body": text, **OPTION}, json={"body": f"<p>{LOSING_BODY} [{run_tag}]</p>"})
    if not 200 <= resp.status < 300:
        plain = answer_posted(post_answer(member, question_id, run_tag, created, text=TEXT))
        return {"id": plain, "wrapped": False, "status": resp.status, "text": text}
    node = _id(request, member, resp, run_tag)
    created.add("answer", node, member.role)
    return {"id": node, "wrapped": True, "status": resp.status, "text": text, "head": f"{TEXT} [{run_tag}]"}


def _id(request: pytest.FixtureRequest, member: ApiClient, resp: ApiResponse, run_tag: str) -> int:
    """The new answer's id from the 2xx, else from member's answer list: the answer whose body holds this run's
    shared-answer text (or the JSON body's, which a target that let it win stored)."""
    try:
        body = resp.json() if resp.content.strip() else None
    except AssertionError:
        body = None
    found = created_id(body, resp.headers.get("location"))
    if found is not None:
        return found
    user = request.getfixturevalue("user_ids").get("member")
    path = contract_path("listUserAnswers", userId=user) if user is not None else None
    marks = (f"{TEXT} [{run_tag}]", f"{LOSING_BODY} [{run_tag}]")

    def hit(items: list[dict[str, Any]]) -> bool:
        return any(any(body_holds(i.get("body"), m) for m in marks) for i in items)

    for item in [] if path is None else list_all(member, path, until=hit):
        if any(body_holds(item.get("body"), m) for m in marks):
            return int(item["id"])
    fail(["ANSWER-PUBLISHED"], f"member's shared answer (the option wrap given) was answered {resp.status} but names "
                               "no id, and member's answer list does not hold it: member holds Publish answer, so it "
                               "is published at once", resp)
    raise AssertionError("unreachable")


@pytest.fixture(scope="session")
def shared_answer_wrapped(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                       created: Any, profile: Profile) -> dict[str, Any]:
    """:func:`posted`, for the test that reads the wrapped post back (test_request_conventions.py)."""
    return posted(request, api, question_id, run_tag, created, profile)
