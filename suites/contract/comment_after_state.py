"""One model of a comment posted right after a node's state changed (unwiki25, issue 44): the history, what the
description states of it, and who reads it back.

A state change (an unwikify, a send to moderation, a lock) is one write; the next comment on the node is another, and
a server may carry the state onto it (round91-93: a non-author's comment refused after an unwikify, a plain comment
stored "to the original poster"). Each :class:`History` names the node, the change and the comments the run posts
after it (:class:`Posted`: writer, the private option sent or none, the 201 or refusal); the model says what a quoted
sentence states of each, whatever the change:

- **who may post it** (:func:`allowed_rule`): the permission table's "1 Post comment" row names no node state
  ("Comment (Other Standard Roles); ... For visibility and recipients: Use Private Comments plus one of ..."), and the
  state table's "(new comment)" row takes any "public node or a question". So on a node that is a question or
  published (:attr:`History.stated`), a refusal (401, 403) of a writer the table lets in fails PERM-COMMENT (plain)
  or PERM-COMMENT-PRIVATE (an option the writer holds). "Afterwards only the node's author can edit it" (the
  unwikify's row) speaks of editing the node, not of adding a comment under it. Where the node is in moderation
  (who sees it is not shown: the variant moderated-hidden-from-author refuses its author too) nothing is judged
  of a refusal.
- **its settings** (:func:`settings_rule`): "Without visibility and recipients the comment has full visibility and no
  recipients, and a later GET returns exactly that" (COMMENT-1); "Both visibility and recipients are returned when a
  comment is retrieved" (COMMENT-VISIBILITY-RETURNED: the option sent; which recipients an option implies is not
  shown, so they are not judged). Read at the 201's Location
  (a question has no comment list) by :data:`READERS_OF` each; a Location not served to a reader judges nothing
  for that reader (LOCATION-READABLE's, a should).
- **its Location** ("The Location response header holds the URL of the new comment", COMMENT-201-LOCATION).

Histories so far (suites/scenarios/test_comment_after_state.py): the unwikified question (member's one-shot
member_wiki_node_id; suites/contract/unwikified_node.py ``commented_after_unwikify``: novice's plain comment and
member's private one (the option the seed draws, after25; on the node, or, hist26, on the seeds drawing it, a reply to
novice's comment: :attr:`Posted.reply_to`), right after member's unwikify and before admin's send)
and novice's answer in moderation (budget24's ``comment_on_moderated_answer``, no write more). A later history
(after a lock) is one more name in :data:`HISTORIES`, a branch of the judge's ``_history`` and its writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from qaconform.target.client import ApiResponse

HISTORIES = ("unwikified question", "answer in moderation")
"""The histories the run makes (test ids of suites/scenarios/test_comment_after_state.py)."""

PLAIN = None
"""A comment's :attr:`Posted.option` when it was sent without visibility and recipients."""


@dataclass(frozen=True)
class Posted:
    """One comment posted after the change: the writer, the private option sent (a VisibilityOptions field name:
    ``to_moderators``; :data:`PLAIN` for none), the wire value sent, and the response (None: held back by the write
    budget, with :attr:`held` saying so)."""

    writer: str
    option: str | None
    value: str | None
    resp: ApiResponse | None
    held: str = ""
    recipients: tuple[str, ...] = ()
    """after25: the roles the comment named as recipients (the option ``recipients`` only)."""
    reply_to: str = ""
    """hist26: the writer of the public comment this one replies to, in the node's thread ("": on the node)."""


@dataclass(frozen=True)
class History:
    """A node after one state change, and the comments posted on it right after."""

    name: str
    node: int
    change: str
    """What happened to the node before the comments, in the state table's words."""
    stated: bool
    """Whether the state table's "(new comment)" row holds for the node as the comments met it (a published node or
    a question not in moderation): then a writer the permission table lets in may not be refused."""
    why_not: str
    """Why a refusal is not judged, where :attr:`stated` is false."""
    comments: tuple[Posted, ...]


def allowed_rule(posted: Posted) -> tuple[str, ...]:
    """The permission rules that let the writer in: every signed-in account of the profile holds Comment (novice and
    up: PERM-COMMENT); the private options are posted only by an account holding Use Private Comments and that
    option (member: to original poster and to moderators; PERM-COMMENT-PRIVATE); a private reply to a public comment
    (hist26) is COMMENT-5's too ("A reply to a public comment may set its own visibility and recipients: 201.")."""
    if posted.option is PLAIN:
        return ("PERM-COMMENT",)
    return ("PERM-COMMENT-PRIVATE", "COMMENT-5") if posted.reply_to else ("PERM-COMMENT-PRIVATE",)


def settings_rule(posted: Posted) -> tuple[str, ...]:
    """The rules a read-back of the comment's settings is judged by: COMMENT-1 (plain), COMMENT-2 (visibility
    recipients with ids: "a GET returns the given settings", recipients too), else COMMENT-VISIBILITY-RETURNED; a
    private reply to a public comment (hist26, :attr:`Posted.reply_to`) by COMMENT-5 too ("A reply to a public
    comment may set its own visibility and recipients: 201.": settings lost are settings it did not get to set)."""
    if posted.option is PLAIN:
        return ("COMMENT-1",)
    own = ("COMMENT-2",) if posted.option == "recipients" else ("COMMENT-VISIBILITY-RETURNED",)
    return (*own, "COMMENT-5") if posted.reply_to else own


READERS_OF = {PLAIN: ("writer", "admin"), "to_moderators": ("writer",), "to_original_poster": ("writer",),
              "recipients": ("writer", "recipient")}
"""Who reads each comment back at its Location: its writer, and for a plain comment (full visibility: "a later GET
returns exactly that", whoever reads) admin too; one to recipients its writer and each recipient ("the comment is
private to those recipients and a GET returns the given settings"); another private one by its writer only (whether
moderator reads a comment "to moderators", or the original poster one "to the original poster", at its URL is not
shown)."""

CONTENT_NON_RECIPIENTS = ("admin", "novice")
"""after25: who reads the writer's content list as a NON-recipient of a comment to recipients (COMMENT-PRIVACY-CONTENT:
"the comment is private to those recipients"): admin (who lists every account's content; not judged where the
profile's ``[visibility] readers`` names it or leaves it open: support.private_reader_skip) and novice (where it may
list another account's content), neither named by the option drawn. Only the option ``recipients`` names its
audience; who else reads a comment "to moderators" or "to the original poster" is not shown
(OBS-COMMENT-OP-AUDIENCE), so those are not judged there."""
