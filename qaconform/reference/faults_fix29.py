"""fix29 (issue 44): round 29's kind on neighbouring paths, planted to show the widening that closed it.

Round 29's round29-moderator-content-enveloped served one kind of user's content list (a moderator's) from another
branch; the suites read two users' content (member's, admin's). test_bare_array_readers.py now reads every account's;
these two faults break it for an account main never read (moderator's entries, novice's envelope), missed before
that widening and caught after. Wired in :mod:`fix29_paths`.
"""

from __future__ import annotations

from .fault_model import Fault

FIX29: tuple[Fault, ...] = (
    Fault("fix29-moderator-content-accepted-int", "SHAPE-LIST-USER-CONTENT",
          "'Response: 200, a JSON array of User content entries' (node.accepted: boolean) -> the content list of a "
          "user whose role is moderator gives each entry's node.accepted as 0 or 1 (the moderation log's integer); "
          "every other user's entries carry booleans"),
    Fault("fix29-novice-content-enveloped", "LIST-ARRAY-CONTENT",
          "'Not wrapped in the paged envelope.' -> the content list of a user whose role is novice (a user whose "
          "posts wait for moderation) comes in the paged envelope; every other user's list is a bare array"),
)
"""Registered in faults.py (block fix29)."""
