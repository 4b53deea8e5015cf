"""The profile a self-test's suites get: the reference server's full one, or a default one (``--default-profile``).

Apart from ``selftest`` because it is what a profile may leave out, not how runs are made; it imports nothing of
the self-test.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

OPTIONAL_FIXTURES = ("member_wiki_node_id", "wiki_node_id", "favorite_node_id", "hidden_space_id",
                     "gdpr_csv_file_id", "issue_tracker", "wiki_answer_id", "accepted_wiki_question_id")
"""The fixtures a profile may leave out (README: Pointing it at your server)."""


@dataclass(frozen=True)
class ProfileShape:
    """Which profile the suites get: the reference server's full one, or a default one (``--default-profile``)."""

    default: bool = False
    keep: tuple[str, ...] = ()

    def rewrite(self, text: str) -> str:
        """The reference profile's TOML with the optional fixtures (but ``keep``) and the safety consent removed."""
        if not self.default:
            return text
        dropped = tuple(f for f in OPTIONAL_FIXTURES if f not in self.keep)
        out = []
        for line in text.splitlines():
            key = line.split("=", 1)[0].strip()
            if key in dropped or key in ("gdpr_user", "gdpr_user_email"):
                continue
            out.append("destructive = false" if key == "destructive" else line)
        return "\n".join(out) + "\n"

    def profile_for(self, source: str, folder: Path) -> str:
        """The profile path a run gets from the server's profile ``source``: itself, or (a default profile) its
        rewrite in ``folder`` with the server's record of its one-shot fixtures (fresh, or consumed by an "earlier
        run") beside it: without that record a kept favorite's state is unknown, and a fault that removes it would
        only skip."""
        if not self.default:
            return source
        from qaconform.target.ledger import ledger_path

        profile = folder / "default-profile.toml"
        profile.write_text(self.rewrite(Path(source).read_text()))
        if ledger_path(Path(source)).exists():
            shutil.copy(ledger_path(Path(source)), ledger_path(profile))
        return str(profile)
