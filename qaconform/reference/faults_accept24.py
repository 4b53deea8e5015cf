"""Planted faults of the kinds accept24 closes (issue 44 item 5: histories across the state table). A stated effect of
the lock broken only on a node ANOTHER account sent to moderation before, and only on a node UNWIKIFIED before: no lock
of a run met either history before accept24 (moderator now locks the one-shot unwikified question right after admin
sent it to moderation: suites/contract/unwikified_node.py ``locked_after_unwikify``, the action matrix's
``lockNode-moderator-question-unwikified``). Each is the same history as a blind miss (round67, paths15, round75;
round61, round78) on another field of the record, quotes the sentence it breaks, was missed before (``qaconform
selftest --fault NAME --no-clean --jobs 1`` without the suites' change) and is caught after. Part of the registry
(fault_list18.py); wired through :mod:`accept24_paths` (one entry of request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

ACCEPT24: tuple[Fault, ...] = (
    Fault("accept24-kind-lock-after-others-send-verb-sent", "ACTION-VERBS",
          "'| verb | string | Values seen: favorited, wikified, sent, locked. |' with the lock sample's verb locked "
          "(node-lock.json): the lock of a node ANOTHER account sent to moderation before returns its record with "
          "that send's verb, sent (the moderation queue's entry is read back as the newest action); a node the "
          "caller sent itself, or none sent, as before"),
    Fault("accept24-kind-lock-after-unwikify-user-is-unwikifier", "AUTH-ACTING-USER",
          "'The acting user is taken from the credentials.': the lock of a node UNWIKIFIED before names as its "
          "record's user the account that unwikified it (the canceled wiki action's canceler, whom the revision "
          "path takes for the editor), when that is not the caller; a node never unwikified as before"),
)
