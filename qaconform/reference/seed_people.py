"""The reference server's people and places: the demo accounts the profile names, the data-protection target,
groups and memberships, spaces (one hidden from novices), and the seeding of them with generated users.

Apart from :mod:`qaconform.reference.seed` (which builds the content) because accounts, groups and spaces are fixed
tables the content is built on; ``seed`` re-exports ``ACCOUNTS`` and ``GDPR_USER``. The seed's clock (``BASE_MS``,
``DAY_MS``) lives here because the people are the first rows it dates.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .auth import hash_password
from .db import Database

BASE_MS = 1_546_300_800_000  # 2019-01-01T00:00:00Z
DAY_MS = 86_400_000


@dataclass(frozen=True)
class DemoAccount:
    role: str
    id: int
    username: str
    password: str
    realname: str


ACCOUNTS: tuple[DemoAccount, ...] = (
    DemoAccount("admin", 1, "admin", "ref-admin-pw", "Ada Admin"),
    DemoAccount("moderator", 2, "moderator", "ref-moderator-pw", "Moe Moderator"),
    DemoAccount("member", 3, "member", "ref-member-pw", "Mia Member"),
    DemoAccount("novice", 4, "novice", "novice-pw:naïve:✓日本", "Ned Novice"),
)
"""Demo credentials of a loopback-only server; written into the profile the server writes. novice's password holds
colons and non-ASCII characters, so that the suites' credential forms (a colon belongs to the password, UTF-8)
run against this server."""

GDPR_USER = DemoAccount("user", 5, "gdpr-target", "ref-gdpr-pw", "Gail Target")


GROUPS = (
    (1, "Users", "Everyone else"),
    (2, "Team A", "Member and moderator"),
    (3, "Admins", None),
    (4, "Newcomers", "Accounts still learning the ropes"),
)
USER_GROUPS = {1: (3,), 2: (2,), 3: (2,), 4: (4,), 5: (1,)}
SPACES = (
    (1, "General", "general", "en", None),
    (2, "Products", "products", "en", None),
    (3, "Staff Room", "staff", "en", None),
    (4, "Product Help", "product-help", None, 2),
)


HIDDEN_SPACE_ID = 3


def seed_people(db: Database, rng: random.Random, n_extra: int) -> None:
    """Groups, the demo accounts and ``n_extra`` generated users, their memberships, spaces and the hidden space."""
    conn = db.conn
    conn.executemany(
        "INSERT INTO groups(id, name, description, creation_date, modification_date) VALUES (?, ?, ?, ?, ?)",
        [
            (gid, name, desc, BASE_MS - 400 * DAY_MS + gid * DAY_MS, BASE_MS - 100 * DAY_MS + gid * DAY_MS)
            for gid, name, desc in GROUPS
        ],
    )
    rows = [*_account_rows(), *_generated_user_rows(rng, n_extra)]
    conn.executemany(
        "INSERT INTO users(id, username, realname, email, password_hash, role, reputation, gold, silver, bronze,"
        " earned_expert, creation_date, modification_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(*r, r[-1] + DAY_MS) for r in rows],
    )
    memberships = [(uid, gid) for uid, gids in USER_GROUPS.items() for gid in gids]
    memberships += [(6 + k, 1) for k in range(n_extra)]
    conn.executemany("INSERT INTO user_groups(user_id, group_id) VALUES (?, ?)", memberships)
    conn.executemany(
        "INSERT INTO spaces(id, name, prefix, locale, parent_id, active, creation_date) VALUES (?, ?, ?, ?, ?, 1, ?)",
        [(*s, BASE_MS - 200 * DAY_MS + s[0] * DAY_MS) for s in SPACES],
    )
    conn.execute("INSERT INTO space_denied(space_id, role) VALUES (?, 'novice')", (HIDDEN_SPACE_ID,))


def _account_rows() -> list[tuple[Any, ...]]:
    """The user rows of the profile's accounts and the data-protection target (passwords hashed)."""
    rows: list[tuple[Any, ...]] = []
    for i, acc in enumerate((*ACCOUNTS, GDPR_USER)):
        rep = (5000, 2500, 800, 3)[i] if i < 4 else 40
        rows.append(
            (acc.id, acc.username, acc.realname, f"{acc.username}@example.invalid", hash_password(acc.password),
             acc.role, rep, i % 3, i, 2 * i, int(i in (1, 2)), BASE_MS - (300 - i) * DAY_MS)
        )
    return rows


def _generated_user_rows(rng: random.Random, n_extra: int) -> list[tuple[Any, ...]]:
    """Demo users without a password (ids from 6): reputation by a Pareto law, some without a real name."""
    rows: list[tuple[Any, ...]] = []
    for k in range(n_extra):
        uid = 6 + k
        rep = int(rng.paretovariate(1.2) * 20)
        realname = None if k % 5 == 0 else ("" if k % 7 == 0 else f"Demo User {uid}")
        rows.append(
            (uid, f"user{uid}", realname, f"user{uid}@example.invalid", None, "user", rep, rep // 2000, rep // 500,
             rep // 100, int(rng.random() < 0.2), BASE_MS - rng.randint(1, 299) * DAY_MS)
        )
    return rows
