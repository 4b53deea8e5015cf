"""fix33 (issue 44): the kind blind round 18 left out (a write on one node state whose failure the suite read as a
refusal, not its rule's, and skipped: blind18-comment-on-wiki-500), planted on its neighbouring value: the same
comment refused with 403. Hook in :mod:`fix33_paths`."""

from __future__ import annotations

from .fault_model import Fault

FIX33: tuple[Fault, ...] = (
    Fault("fix33-wiki-comment-refused-403", "PERM-COMMENT",
          "'| 1 Post comment | Comment (Other Standard Roles); ...' -> a comment posted directly on a community-wiki"
          " question or answer is refused with 403 to every logged-in caller (the wiki branch asks for an edit"
          " permission); comments on other nodes are right"),
)
