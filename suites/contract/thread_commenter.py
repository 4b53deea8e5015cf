"""hist26 (issue 44 item 2, ownership on the wrong relation): member's comment under an ANSWER of another account's
wiki question, and member's refused unwikify of that question right after it.

"| 11 Unwikify | Mark as community wiki; for the caller's own node, Convert own posts to community wiki. |": member
holds the second only, so its unwikify of a question another account wrote is refused, whatever member wrote in the
question's thread. Member's refused unwikifies met a wiki question after member's comment ON it (one_shot_calls.py
CONTRIBUTION) and after member's answer under it (the found-relations walk's ANSWERER), never after a comment under
one of its answers: a server reading "own" from the caller's posts anywhere in the thread
(round94-cancelwiki-thread-commenter-owns) passed.

The placement, no write more: the run's comment whose parent no rule needs (forms25's learned comment,
test_request_conventions.py ``recipients_learned``: member's comment private to moderator, every field a
form-encoded request parameter, judged by id and by its answer's comment list wherever it is) goes under the first
answer of the profile's accepted_wiki_question_id (another account's community-wiki question holding an accepted
answer), where the profile names it and the question list shows it wiki with an answer (read once per run); else
under the shared answer, as before. Then member's unwikify of that question is tried (a refusal: no accepted write on a
conforming target; a target that takes it is recorded as having consumed the fixture). On the seeds drawing "an
accepted question" (seed_draws.WIKI_NODE_KINDS) the drawn unwikifier's unwikify of the same question comes after it
(one_shot_calls.py ``cancelwiki_once`` asks for this refusal first).
"""

from __future__ import annotations

import base64
import contextlib
import random
from typing import Any

import pytest
from recipient_encodings import ENCODINGS, encoded

from qaconform import contract
from qaconform.pytest.support import charged_to_suites, new_id, once_per_run
from qaconform.target import ledger
from qaconform.target.client import ApiClient, ApiResponse, Exchange, TargetError
from qaconform.target.created_id import as_id

FIXTURE = "accepted_wiki_question_id"
"""The profile's fixture whose thread the learned comment goes into: another account's wiki question (wiki21)."""
PAGE_SIZE = 100
LAST_PAGES = 3
"""The question list is read at its first page and its last :data:`LAST_PAGES` (bounded: the fixture is old)."""


def _listed_question(admin: ApiClient, node: int) -> dict[str, Any] | None:
    """The question list's item of ``node`` (first page, then the last pages), or None."""
    pages, seen = [1], set()
    while pages:
        page = pages.pop(0)
        seen.add(page)
        try:
            resp = admin.get(contract.path("listQuestions"), params={"page": page, "pageSize": PAGE_SIZE})
            body = resp.json() if resp.status == 200 else None
        except (TargetError, ValueError):
            return None
        if not isinstance(body, dict) or not isinstance(body.get("list"), list):
            return None
        hit = next((i for i in body["list"] if isinstance(i, dict) and as_id(i.get("id")) == node), None)
        if hit is not None:
            return hit
        count = body.get("pageCount")
        if page == 1 and isinstance(count, int) and not isinstance(count, bool):
            pages = [p for p in range(count, max(count - LAST_PAGES, 1), -1) if p not in seen]
    return None


def placement(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Once per run and target: ``question`` and ``answer`` (the first answer the question list names) where the
    profile's :data:`FIXTURE` is listed wiki, with an answer, and written by another account than member; else
    ``why`` not."""
    profile = request.getfixturevalue("profile")

    def find() -> dict[str, Any]:
        node = getattr(profile.fixtures, FIXTURE, None)
        if node is None:
            return {"why": f"the profile names no {FIXTURE}"}
        item = _listed_question(request.getfixturevalue("api")["admin"], int(node))
        if item is None:
            return {"why": f"{FIXTURE} {node} is not in the question list's first or last pages"}
        answers = [a for a in (as_id(x) for x in item.get("answers") or ()) if a is not None]
        author = as_id((item.get("author") or {}).get("id"))
        member = request.getfixturevalue("user_ids").get("member")
        if item.get("wiki") is not True or not answers or author is None or author == member:
            return {"why": f"{FIXTURE} {node} is listed with wiki {item.get('wiki')!r}, answers {answers[:3]} and "
                           f"author {author} (member {member}): not another's wiki question with an answer"}
        return {"question": int(node), "answer": answers[0]}

    return once_per_run(request, profile.base_url, "hist26 thread commenter placement", find)


def learned_saved(request: pytest.FixtureRequest) -> dict[str, Any] | None:
    """forms25's learned comment (once per run and target): member's comment private to moderator, every field a
    form-encoded request parameter, recipients in each encoding of recipient_encodings.ENCODINGS in turn until the
    target takes one (a 4xx before it is a refusal), else visibility a query parameter beside recipients in the JSON
    body; under :func:`placement`'s answer where there is one, else the shared answer. The saved response, the
    encoding taken, the encodings refused and the ``parent``; None where the write cannot be made (before 2.16.0, no
    wire value of recipients, no id of moderator)."""
    profile = request.getfixturevalue("profile")
    value, user_ids = profile.visibility.recipients, request.getfixturevalue("user_ids")
    if not profile.supports("2.16.0") or value is None or "moderator" not in user_ids:
        return None
    member: ApiClient = request.getfixturevalue("api")["member"]
    run_tag = request.getfixturevalue("run_tag")

    def learn() -> dict[str, Any]:
        parent = placement(request).get("answer") or request.getfixturevalue("shared_answer")
        path, ids = contract.path("postComment", nodeId=parent), [user_ids["moderator"]]
        refused: list[tuple[str, int]] = []
        for encoding in ENCODINGS:
            pairs = [("body", f"visibility recipients, form-encoded [{run_tag}] {random.randrange(10**9)}"),
                     ("visibility", value), *encoded(encoding, ids)]
            resp = member.post(path, data=dict(pairs), operation="postComment")  # typed as the charset draw says
            if not 400 <= resp.status < 500:
                return _listed(resp, {"encoding": encoding, "refused": refused, "parent": int(parent)})
            refused.append((encoding, resp.status))
        body = {"body": f"visibility recipients as a parameter [{run_tag}] {random.randrange(10**9)}",
                "recipients": [{"id": i} for i in ids]}
        resp = member.post(path, params={"visibility": value}, json=body, operation="postComment")
        return _listed(resp, {"encoding": None, "refused": refused, "parent": int(parent)})

    def _listed(resp: ApiResponse, saved: dict[str, Any]) -> dict[str, Any]:
        if resp.status == 201:  # in the report's created list whichever test asked first (test_safety.py)
            request.getfixturevalue("created").add("comment", new_id(resp), "member")
        return {**saved, "resp": _as_json(resp)}

    saved: dict[str, Any] = once_per_run(request, profile.base_url, "forms25 recipients encoding", learn)
    return saved


def refusal(request: pytest.FixtureRequest) -> dict[str, Any]:
    """member's unwikify of :func:`placement`'s question right after the learned comment under its answer, once per
    run and target: the saved response, the question, the answer and the comment's id; ``why`` where it was not tried
    (no placement, the comment not posted there or held back)."""
    profile = request.getfixturevalue("profile")
    placed = placement(request)
    if "why" in placed:
        return {"why": str(placed["why"])}
    learned = None
    with contextlib.suppress(pytest.skip.Exception):  # a spent share holds the comment back: said, not skipped
        learned = learned_saved(request)
    if learned is None or learned["resp"]["status"] != 201 or learned.get("parent") != placed["answer"]:
        status = "not posted" if learned is None else learned["resp"]["status"]
        return {"why": f"member's learned comment was not created under answer {placed['answer']} ({status})"}
    comment = new_id(response(learned))
    node, api = int(placed["question"]), request.getfixturevalue("api")

    def send() -> dict[str, Any]:
        budget = ApiClient.write_budget
        with charged_to_suites(), budget.as_refusals() if budget is not None else contextlib.nullcontext():
            sent = api["member"].put(contract.path("cancelWiki", nodeId=node), operation="cancelWiki")
        ledger.record_if_accepted(profile.path, profile.base_url, FIXTURE, node, request.getfixturevalue("run_tag"),
                                  sent.status)
        return {**_as_json(sent), "question": node, "answer": placed["answer"], "comment": comment}

    return once_per_run(request, profile.base_url, f"hist26 member cancelwiki after thread comment {node}", send)


def response(saved: dict[str, Any]) -> ApiResponse:
    """The saved response of :func:`learned_saved` or :func:`refusal`."""
    raw = saved.get("resp", saved)
    return ApiResponse(int(raw["status"]), dict(raw["headers"]), base64.b64decode(raw["content"]), str(raw["url"]),
                       Exchange(**raw["exchange"]))


def _as_json(resp: ApiResponse) -> dict[str, Any]:
    return {"status": resp.status, "headers": resp.headers, "url": resp.url,
            "content": base64.b64encode(resp.content).decode("ascii"), "exchange": resp.exchange.as_dict()}
