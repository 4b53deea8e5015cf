"""What a caller may see, as SQL: one place, used by every list and by childrenIds, so they cannot disagree.

- Nodes in moderation: only their author and holders of a Moderation Roles permission.
- Nodes in a space where the caller's role lacks "View the questions list": nobody of that role.
- Private comments: the author; for ``recipients`` the listed users; for ``op`` the author of the thread's
  question; for ``mod`` holders of a Moderation Roles permission; for ``group`` users sharing a group with the
  comment's author. Nobody else, not even admin unless covered above (variant reply-readable-by-thread-authors: a
  reply under private comments is read by their authors too).
- Lists only (variant lists-lag-writes): a new answer or comment shows once the "search index" has it.
"""

from __future__ import annotations

from typing import Any

from . import variants
from .auth import Caller

INTERNAL = ("full", "recipients", "op", "mod", "group")
"""How the database stores the visibility options; the wire names come from :func:`wire_name`."""


def wire_name(internal: str) -> str | None:
    """The visibility value a client sends and reads (None: the field is left out), per the active variants."""
    if internal == "full":
        if variants.is_on("public-comment-no-privacy-fields") or variants.is_on("no-private-comments"):
            return None
        return "public" if variants.is_on("visibility-full-public") else "full"
    if variants.is_on("visibility-options-named"):
        return {"mod": "moderators", "group": "groups"}.get(internal, internal)
    return internal


def internal_name(wire: str) -> str | None:
    """The stored option a client's visibility value names; None when it names none. "full" is always accepted."""
    if wire == "full":
        return "full"
    for internal in INTERNAL:
        if wire_name(internal) == wire:
            return internal
    return None


def private_readers() -> frozenset[str]:
    """Roles that read every private comment under the active variants (site configuration)."""
    if variants.is_on("private-readable-by-moderators"):
        return frozenset({"admin", "moderator"})
    if variants.is_on("private-readable-by-admins"):
        return frozenset({"admin"})
    return frozenset()


class Visibility:
    """Builds WHERE fragments for a caller; the denied spaces per role are read once at start."""

    def __init__(self, denied_spaces: dict[str, frozenset[int]]) -> None:
        self.denied_spaces = denied_spaces

    def spaces_hidden_from(self, caller: Caller) -> frozenset[int]:
        return self.denied_spaces.get(caller.role, frozenset())

    def clause(
        self, caller: Caller, alias: str = "n", comments: bool = True, moderation: bool = True, spaces: bool = True,
        by_id: bool = False,
    ) -> tuple[str, list[Any]]:
        """``(sql, params)`` true for the rows of ``alias`` the caller may see; ``"1"`` when it sees all.

        ``moderation`` False: nodes in moderation count as visible (variant moderated-answers-listed, for ids).
        ``spaces`` False: the spaces hidden from the caller count as visible (planted bugs of the question list).
        ``by_id`` True: a read or a write naming the node by its id, which sees it before lists do (lists-lag-writes).
        """
        parts: list[str] = []
        params: list[Any] = []
        if not by_id and variants.is_on("lists-lag-writes"):
            parts.append(f"{alias}.listed = 1")
        if not caller.sees_moderation and moderation and variants.is_on("moderated-hidden-from-author"):
            parts.append(f"{alias}.in_moderation = 0")
        elif not caller.sees_moderation and moderation:
            parts.append(f"({alias}.in_moderation = 0 OR {alias}.author_id = ?)")
            params.append(caller.id)
        hidden = self.spaces_hidden_from(caller) if spaces else frozenset()
        if hidden:
            parts.append(f"{alias}.space_id NOT IN ({','.join(str(int(s)) for s in sorted(hidden))})")
        if comments:
            sql, p = self.comment_clause(caller, alias)
            parts.append(sql)
            params += p
        return (" AND ".join(parts) if parts else "1"), params

    @staticmethod
    def comment_clause(caller: Caller, alias: str = "n") -> tuple[str, list[Any]]:
        me = caller.id
        if caller.role in private_readers():
            return "1", []
        branches = [
            f"{alias}.visibility = 'full'",
            f"{alias}.author_id = ?",
            f"({alias}.visibility = 'recipients' AND EXISTS (SELECT 1 FROM comment_recipients r"
            f" WHERE r.comment_id = {alias}.id AND r.user_id = ?))",
            f"({alias}.visibility = 'op' AND EXISTS (SELECT 1 FROM nodes q WHERE q.id = {alias}.question_id"
            " AND q.author_id = ?))",
        ]
        params: list[Any] = [me, me, me]
        if variants.is_on("reply-readable-by-thread-authors"):
            branches.append(
                f"({alias}.visibility <> 'full' AND EXISTS (WITH RECURSIVE up(id, author, parent) AS ("
                f" SELECT p.id, p.author_id, p.parent_id FROM nodes p WHERE p.id = {alias}.parent_id"
                " AND p.type = 'comment' AND p.visibility <> 'full'"
                " UNION ALL SELECT p.id, p.author_id, p.parent_id FROM nodes p JOIN up ON p.id = up.parent"
                " WHERE p.type = 'comment' AND p.visibility <> 'full') SELECT 1 FROM up WHERE up.author = ?))"
            )
            params.append(me)
        if caller.sees_moderation:
            branches.append(f"{alias}.visibility = 'mod'")
        if caller.group_ids:
            groups = ",".join(str(int(g)) for g in sorted(caller.group_ids))
            branches.append(
                f"({alias}.visibility = 'group' AND EXISTS (SELECT 1 FROM user_groups g"
                f" WHERE g.user_id = {alias}.author_id AND g.group_id IN ({groups})))"
            )
        return "(" + " OR ".join(branches) + ")", params
