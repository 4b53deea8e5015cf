"""fix33 (issue 44): the kind blind round 18 left out (a write on one node state whose failure the suite read as a
refusal, not its rule's, and skipped: blind18-comment-on-wiki-500), planted on its neighbouring value (the same
comment refused with 403); and round24's (a send to moderation's effects on a node with active followers, a state
the interface cannot make: the reference seed's one-shot wiki question is followed by its author, as sites do),
planted on the record's neighbouring field (its verb). Hooks in :mod:`fix33_paths`."""

from __future__ import annotations

from .fault_model import Fault

FIX33: tuple[Fault, ...] = (
    Fault("fix33-wiki-comment-refused-403", "PERM-COMMENT",
          "'| 1 Post comment | Comment (Other Standard Roles); ...' -> a comment posted directly on a community-wiki"
          " question or answer is refused with 403 to every logged-in caller (the wiki branch asks for an edit"
          " permission); comments on other nodes are right"),
    Fault("fix33-sendtomod-followed-verb-notified", "ACTION-SENDTOMOD-VERB",
          "'Returns an action record with verb sent and private true.' (Published node, PUT sendToMod) ->"
          " the record of a send to moderation of a node with active followers has verb \"notified\" (the"
          " notifying branch's), not \"sent\"; nodes no one follows are right"),
)
