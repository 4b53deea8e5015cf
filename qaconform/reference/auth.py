"""Who is calling and what they may do.

Roles are sets of the permission names of the interface description, exactly as target-profile.md gives the four
accounts, so that a suite reading the profile can predict every answer. Passwords are stored as salted PBKDF2
hashes; successful and failed verifications are cached by a SHA-256 of the Authorization header so a request does
not pay the hash cost each time (the stored passwords never change while the server runs).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
from dataclasses import dataclass, field

from . import faults

# Anonymous Roles
VIEW_QUESTIONS_LIST = "View the questions list"
VIEW_ANSWERS = "View answers in the question page"
VIEW_QUESTION_PAGE = "View the question page"
VIEW_PROFILE = "View User's Profile"
VIEW_USERS_LIST = "View users list"
USE_SITE = "Use site"
# Standard Roles and Other Standard Roles
COMMENT = "Comment"
ANSWER = "Answer questions"
PUBLISH_ANSWER = "Publish answer"
MARK_FAVORITE = "Mark as favorite"
USE_PRIVATE_COMMENTS = "Use Private Comments"
PRIVATE_TO_OP = "Send private comments to original poster"
PRIVATE_TO_MODS = "Send private comments to moderators"
PRIVATE_TO_GROUPS = "Send private comments to own groups"
CONVERT_OWN_TO_WIKI = "Convert own posts to community wiki"
LOCK_OWN = "Lock comments on own posts"
# Moderation Roles
MARK_WIKI = "Mark as community wiki"
SEND_TO_MODERATION = "Send already published question to moderation"
LOCK_ANY = "Lock comments on posts"
VIEW_MODERATION_QUEUE = "View the moderation queue"
# Site Administration Roles
EDIT_USERS_AND_GROUPS = "Edit users and groups"
MANAGE_DATA_PROTECTION = "Manage data protection"
# API
USE_API = "USE API"
# Site actions outside the description's 19 operations (the delete action real sites of this product have)
DELETE_OWN = "Delete own posts"
DELETE_ANY = "Delete posts"

ANONYMOUS_ROLES = frozenset(
    {VIEW_QUESTIONS_LIST, VIEW_ANSWERS, VIEW_QUESTION_PAGE, VIEW_PROFILE, VIEW_USERS_LIST, USE_SITE}
)
STANDARD_ROLES = frozenset(
    {
        COMMENT,
        ANSWER,
        PUBLISH_ANSWER,
        MARK_FAVORITE,
        USE_PRIVATE_COMMENTS,
        PRIVATE_TO_OP,
        PRIVATE_TO_MODS,
        PRIVATE_TO_GROUPS,
        CONVERT_OWN_TO_WIKI,
        LOCK_OWN,
    }
)
MODERATION_ROLES = frozenset({MARK_WIKI, SEND_TO_MODERATION, LOCK_ANY, VIEW_MODERATION_QUEUE})
SITE_ADMINISTRATION_ROLES = frozenset({EDIT_USERS_AND_GROUPS, MANAGE_DATA_PROTECTION})

ROLE_PERMISSIONS: dict[str, frozenset[str]] = {
    "admin": ANONYMOUS_ROLES | STANDARD_ROLES | MODERATION_ROLES | SITE_ADMINISTRATION_ROLES | {USE_API},
    "moderator": ANONYMOUS_ROLES | STANDARD_ROLES | MODERATION_ROLES | {USE_API},
    "member": ANONYMOUS_ROLES | (STANDARD_ROLES - {PRIVATE_TO_GROUPS}) | {USE_API},
    "novice": ANONYMOUS_ROLES | {COMMENT, ANSWER, USE_API},
    "user": ANONYMOUS_ROLES | (STANDARD_ROLES - {PRIVATE_TO_GROUPS}) | {USE_API},
    "anonymous": ANONYMOUS_ROLES,
}
for _role in ("admin", "moderator", "member", "novice", "user"):
    ROLE_PERMISSIONS[_role] |= {DELETE_OWN} | ({DELETE_ANY} if _role in ("admin", "moderator") else set())
"""Permission set of each role. "user" is the role of the generated demo users. Every signed-in role may delete its
own posts, admin and moderator any post (the site's delete action, outside the 19 operations: deletion.py)."""

PRIVATE_OPTION_PERMISSION: dict[str, str] = {"op": PRIVATE_TO_OP, "mod": PRIVATE_TO_MODS, "group": PRIVATE_TO_GROUPS}
"""Permission each private visibility option needs on top of Use Private Comments."""

PBKDF2_ITERATIONS = 1_000
"""Enough to keep the demo passwords out of the database file in clear; they are no secret (they are in the source
and in every profile the server writes). 20 000 cost ~8 ms of CPU per new Authorization value, ~7 % of the server's
CPU in a serial run (which sends some twenty distinct ones, most of them wrong on purpose) and ~40 ms per start.
A database seeded with another count still verifies: each hash carries its own."""


def hash_password(password: str, salt: bytes | None = None) -> str:
    """Salted PBKDF2-SHA256, stored as ``iterations$salt_hex$hash_hex``."""
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, PBKDF2_ITERATIONS)
    return f"{PBKDF2_ITERATIONS}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str | None) -> bool:
    if not stored:
        return False
    try:
        iterations_s, salt_hex, hash_hex = stored.split("$")
        digest = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt_hex), int(iterations_s))
    except ValueError:
        return False
    return hmac.compare_digest(digest.hex(), hash_hex)


@dataclass(frozen=True)
class Caller:
    """The acting user of one request (id -1 for anonymous)."""

    id: int
    username: str
    role: str
    permissions: frozenset[str]
    group_ids: frozenset[int] = field(default_factory=frozenset)

    @property
    def anonymous(self) -> bool:
        return self.id < 0

    @property
    def sees_moderation(self) -> bool:
        """Holders of a Moderation Roles permission see the moderation queue and comments "to moderators"."""
        return bool(self.permissions & MODERATION_ROLES)

    def can(self, *permissions: str) -> bool:
        return all(p in self.permissions for p in permissions)


ANONYMOUS = Caller(id=-1, username="", role="anonymous", permissions=ROLE_PERMISSIONS["anonymous"])
CLOSED_SITE_ANONYMOUS = Caller(id=-1, username="", role="anonymous", permissions=frozenset())
"""Anonymous on a site that grants it no Anonymous Roles (faults.closed_site)."""


def anonymous() -> Caller:
    return CLOSED_SITE_ANONYMOUS if faults.closed_site() else ANONYMOUS


CREDENTIALS_FAULTS = frozenset({"auth-colon-password-refused-on-experts", "auth-password-latin1-on-writes"})
"""The planted faults that read the Authorization header in their own way (planted_credentials)."""


def credentials_planted() -> bool:
    """Whether a fault of CREDENTIALS_FAULTS is on: only then does a request need its path read for them."""
    return not CREDENTIALS_FAULTS.isdisjoint(faults.active())


def planted_credentials(header: str | None, method: str, path: str) -> str | None:
    """The Authorization header as a planted credentials fault reads it on this request (faults.py): split at the
    last colon on the expert lists, or decoded as Latin-1 on writes; the header itself when no such fault is on."""
    experts = faults.is_on("auth-colon-password-refused-on-experts") and "/user/retrieve" in path
    latin1 = faults.is_on("auth-password-latin1-on-writes") and method in ("POST", "PUT")
    if not header or not (experts or latin1):
        return header
    scheme, _, token = header.partition(" ")
    try:
        raw = base64.b64decode(token.strip(), validate=True)
    except (binascii.Error, ValueError):
        return header
    text = raw.decode("latin-1") if latin1 else raw.decode("utf-8", "replace")
    if experts and text.count(":") > 1:  # the username is then what precedes the last colon: no such user
        text = "\x00" + text
    return f"{scheme} {base64.b64encode(text.encode('utf-8')).decode('ascii')}"


class BadCredentials(Exception):
    """The Authorization header names no known user, or the password is wrong."""


@dataclass(frozen=True)
class StoredUser:
    id: int
    username: str
    role: str
    password_hash: str | None
    group_ids: frozenset[int]


class Authenticator:
    """Resolves an Authorization header to a Caller, caching by a SHA-256 of the header."""

    MAX_CACHE = 10_000

    def __init__(self, lookup: dict[str, StoredUser]) -> None:
        self._users = lookup
        self._cache: dict[bytes, Caller | None] = {}

    def caller(self, header: str | None) -> Caller:
        if not header:
            return anonymous()
        key = hashlib.sha256(header.encode("utf-8", "surrogateescape")).digest()
        if faults.is_on("blind6-auth-cache-by-username"):  # blind6 (issue 44): the cache keyed by the username
            key = hashlib.sha256(_username_of(header).encode("utf-8", "surrogateescape")).digest()
        if key in self._cache:
            cached = self._cache[key]
            if cached is None:
                raise BadCredentials()
            return cached
        result = self._verify(header)
        if len(self._cache) >= self.MAX_CACHE:
            self._cache.clear()
        self._cache[key] = result
        if result is None:
            raise BadCredentials()
        return result

    def named(self, header: str | None) -> Caller | None:
        """The account the header's username names, its password unchecked: only for a planted fault that lets a
        wrong password in (planted.wrong_password_let_in)."""
        try:
            username = base64.b64decode((header or "").partition(" ")[2].strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return None
        user = self._users.get(username.partition(":")[0])
        if user is None:
            return None
        return Caller(id=user.id, username=user.username, role=user.role, permissions=ROLE_PERMISSIONS[user.role],
                      group_ids=user.group_ids)

    def _verify(self, header: str) -> Caller | None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "basic" or not token.strip():
            return None
        try:
            decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return None
        username, sep, password = decoded.partition(":")
        if not sep:
            return None
        user = self._users.get(username)
        if user is None:
            return None
        if not verify_password(password, user.password_hash) and not (
            faults.is_on("wrong-password-accepted") and user.password_hash
        ) and not (password == "" and faults.is_on("auth-empty-password-accepted")):
            return None
        return Caller(
            id=user.id,
            username=user.username,
            role=user.role,
            permissions=ROLE_PERMISSIONS[user.role],
            group_ids=user.group_ids,
        )


def _username_of(header: str) -> str:
    """The username an Authorization header names (the whole header when it names none): the key of the planted
    fault blind6-auth-cache-by-username."""
    try:
        decoded = base64.b64decode(header.partition(" ")[2].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return header
    username, sep, _ = decoded.partition(":")
    return "user:" + username if sep else header
