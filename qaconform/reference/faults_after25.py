"""after25 (issue 44, a comment's privacy right after a state change, the kind of
round96-comment-on-moderated-node-privacy-dropped): faults on member's private comment on a node after its unwikify,
one private option and one stated rule each (where they bite: :mod:`after25_hooks`, one ``request_hooks.Hook``). Each
names the seed draw that makes member send its option (``seed_draws.AFTER_STATE_OPTIONS``). Measured on after25's
base d17af7fb (``qaconform selftest --fault NAME --no-clean --jobs 1``) before the closing (ARCHITECTURE.md,
"after25").
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    Fault("after25-recipients-comment-after-unwikify-recipients-dropped", "COMMENT-2",
          "'When visibility is recipients and recipients lists ids, the comment is private to those recipients and "
          "a GET returns the given settings.': a comment with visibility recipients on a node that was UNWIKIFIED "
          "before (its wiki action canceled) is stored with its visibility but no recipients (the unwikified "
          "node's comment form keeps the option, not the list); on other nodes the recipients are kept",
          draws=("member wiki send=after its unwikify", "after-state comment option=recipients")),
    Fault("after25-op-comment-after-unwikify-returned-as-recipients", "COMMENT-VISIBILITY-RETURNED",
          "'Both visibility and recipients are returned when a comment is retrieved': a comment 'to the original "
          "poster' (visibility op) on a node that was UNWIKIFIED before is stored as visibility recipients naming "
          "the node's author (the option resolved to its audience once the wiki's editors are gone), so a GET "
          "returns recipients, not op; on other nodes it is stored as sent",
          draws=("after-state comment option=to_original_poster",)),
    Fault("after25-recipients-comment-after-unwikify-in-authors-content", "COMMENT-PRIVACY-CONTENT",
          "'When visibility is recipients and recipients lists ids, the comment is private to those recipients': a "
          "comment to recipients on a node that was UNWIKIFIED before shows in its author's content list to every "
          "reader (the unwikified node's comments are indexed as the wiki's were, public); elsewhere the content "
          "list keeps it to its audience",
          draws=("member wiki send=after its unwikify", "after-state comment option=recipients")),
)

_MISSED_REASONS: dict[str, str] = {}
"""Missed after after25's change (by the self-test's default mode), with why it stays out. clean26: none;
after25-recipients-comment-after-unwikify-in-authors-content, out for the self-test's batch mode, is in again (the
batch of its rule's files at its own seed lacked suites/contract on sys.path: ``selftest_rules.import_path``)."""

AFTER25, AFTER25_MISSED = split_missed(_ALL, _MISSED_REASONS)
