"""One shared write of the run (suites/conftest.py's factories return it; moved out of conftest.py by closeb)."""

from __future__ import annotations

from dataclasses import dataclass

from qaconform.pytest.support import new_id
from qaconform.target.client import ApiResponse


@dataclass(frozen=True)
class SharedWrite:
    """One shared write: the response, the text its body or prompt was given (what read-backs look for) and the
    node it acted on (an action's node, a comment's parent; the new node's id is ``id``)."""

    resp: ApiResponse
    text: str
    node: int | None = None
    form: str = "json"
    """The input form a post's body travelled in (spec/dimensions.yaml ``input_form``; answers: :func:`answer_in`)."""
    refused: ApiResponse | None = None
    """The refusal this write stands in for: a post on a locked node the target refused (what a lock does to new
    posts is not shown), made again where it goes otherwise (:func:`answer_in`); a plain comment's drawn form."""
    repeats: int | None = None
    """The private comment this one was sent as a reply to, repeating its option (:data:`REPEATS_OPTION_OF`); the
    reply's refusal, if any, is :attr:`refused`."""
    repeats_under: int | None = None
    """The answer the comment :attr:`repeats` is under (qa21: whether the replier reads it there)."""
    key: str = ""
    """The shared write's key: the reads made around a post are kept under it (counts_after_posts.py)."""
    question: int | None = None
    """closeb: the question a sent answer is under (suites/conftest.py ``sent_to_mod_by``: a child space's question
    where the run found one, else the fixture question); None where no answer was sent."""

    @property
    def id(self) -> int | None:
        """The id of what a post created (any 2xx: an answer held in moderation), else None."""
        return new_id(self.resp) if 200 <= self.resp.status < 300 else None
