"""One write of a form matrix as a row: who wrote it, in which input form its body travelled.

The answer form matrix (answer_responses.Row) and the comment form matrix (comment_responses.Row) judge their
operation's response rules on rows of this one shape, named as the input form matrix names its combinations
(input_forms.Case.label, with no other field beside the body): a test id that reads the same in the three matrices.
Pure: no request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class FormRow:
    """A writer and the form its body travelled in; a subclass names the write operation."""

    writer: str
    form: str
    other: str | None = None
    """What stands beside the body (spec/dimensions.yaml ``other_fields``: ``none``, or ``stated`` for a comment that
    names the full visibility, round38); None where the matrix has no such dimension (the answers')."""
    operation: ClassVar[str]
    """The write operation of the matrix (``postAnswer``, ``postComment``)."""

    @property
    def label(self) -> str:
        """As the input form matrix's ids, no other field beside the body (``postAnswer-form-none-moderator``)."""
        return f"{self.operation}-{self.form}-{self.other or 'none'}-{self.writer}"
