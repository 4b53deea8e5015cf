"""The profile a self-test's suites get: the reference server's full one, or a default one (``--default-profile``).

Apart from ``selftest`` because it is what a profile may leave out, not how runs are made; it imports nothing of
the self-test.
"""

from __future__ import annotations

from dataclasses import dataclass

OPTIONAL_FIXTURES = ("member_wiki_node_id", "wiki_node_id", "favorite_node_id", "hidden_space_id",
                     "gdpr_csv_file_id", "issue_tracker")
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
