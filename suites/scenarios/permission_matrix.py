"""Who may call what: the permission table of target-profile.md, transcribed as data.

Why a module of data and not a list of tests: the table in ../shared/design/target-profile.md is derived from the
description's permission table (Authentication) and the profile's role definitions. Keeping it here, cell for
cell, lets a reviewer compare the two side by side, and lets test_permissions.py turn every cell into one test
(``lockNode-novice-deny``). Nothing here knows how to call an operation; test_permissions.py does that.

Cell values:
- ``allow``: not 401/403; a 2xx where the operation has no state precondition.
- ``deny``: 401 or 403 (the description fixes 403 for the private-comment options and 401 for the expert lists;
  a wrong password may be refused with any 4xx, rule AUTH-BAD-CREDENTIALS), and no effect.
- ``own``: allowed on the caller's own node, denied on another's node (one test checks both).
- ``obs``: the description does not say; the status is recorded with observe(), never judged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ALLOW = "allow"
DENY = "deny"
OWN = "own"
OBS = "obs"

CALLERS: tuple[str, ...] = ("admin", "moderator", "member", "novice", "anonymous", "wrong_password")
"""Columns: the four profile roles, a caller without credentials, and member's username with a wrong password."""

PRIVATE_COMMENTS_SINCE = "2.16.0"


@dataclass(frozen=True)
class Row:
    """One line of the table: a request and what each caller gets."""

    key: str
    """Test-id prefix: the operationId, with a suffix when one operation has several lines (postComment-op)."""
    operation: str
    """operationId of ARCHITECTURE.md."""
    cells: tuple[str, ...]
    """One value per CALLERS column."""
    allow_rules: tuple[str, ...]
    """Rule ids checked by the allowed cells of this line (own cells check both lists)."""
    deny_rules: tuple[str, ...]
    """Rule ids checked by the denied cells of this line."""
    for_caller: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Caller -> the rules its cell checks, where they differ from allow_rules/deny_rules (own cells, rule 7)."""
    observed: str | None = None
    """Rule id recorded by the obs cells of this line."""
    writes: bool = False
    """True when a cell may create or change content (the test is marked ``writes``)."""
    denied_status: tuple[int, ...] = (401, 403)
    """Statuses that count as a denial for an authenticated caller with valid credentials."""
    since: str | None = None
    """Service version that introduced the line's feature; older targets report the cells as disabled."""

    def cell(self, caller: str) -> str:
        return self.cells[CALLERS.index(caller)]


def rule(*ids: str) -> tuple[str, ...]:
    """Rule ids of a line, written where tests/test_rule_coverage.py reads them (literals in a rule(...) call)."""
    return ids


def _row(key: str, operation: str, cells: str, *, allow: tuple[str, ...], deny: tuple[str, ...] = (),
         **kw: object) -> Row:
    values = tuple(cells.split())
    if len(values) != len(CALLERS) or not set(values) <= {ALLOW, DENY, OWN, OBS}:
        raise ValueError(f"permission matrix line {key}: {cells!r} must hold {len(CALLERS)} of allow/deny/own/obs")
    return Row(key, operation, values, allow, deny, **kw)  # type: ignore[arg-type]


_P = PRIVATE_COMMENTS_SINCE
_NO_CREDENTIALS_COMMENT = {
    "anonymous": rule("PERM-COMMENT", "PERM-DENIED-STATUS", "PERM-DENIED-NO-EFFECT"),
    "wrong_password": rule("PERM-COMMENT", "PERM-DENIED-STATUS", "PERM-DENIED-NO-EFFECT"),
}
"""Callers without valid credentials lack Comment itself: theirs is the plain denial, not rule 7 of comments."""

# Each line: key, operationId, the cells (admin moderator member novice anonymous wrong_password), the rules its
# allowed cells check (allow=), the rules its denied cells check (deny=, for_caller= per caller where they differ).
MATRIX: tuple[Row, ...] = (
    _row("postComment", "postComment", "allow allow allow allow deny deny",
         allow=rule("PERM-COMMENT"),
         deny=rule("PERM-COMMENT", "PERM-DENIED-STATUS", "PERM-DENIED-NO-EFFECT"), writes=True),
    _row("postComment-op", "postComment", "allow allow allow deny deny deny",
         allow=rule("PERM-COMMENT-PRIVATE"),
         deny=rule("COMMENT-7-NO-PRIVATE-PERMISSION", "PERM-DENIED-NO-EFFECT"),
         for_caller=_NO_CREDENTIALS_COMMENT, writes=True, denied_status=(403,), since=_P),
    _row("postComment-mod", "postComment", "allow allow allow deny deny deny",
         allow=rule("PERM-COMMENT-PRIVATE"),
         deny=rule("COMMENT-7-NO-PRIVATE-PERMISSION", "PERM-DENIED-NO-EFFECT"),
         for_caller=_NO_CREDENTIALS_COMMENT, writes=True, denied_status=(403,), since=_P),
    _row("postComment-group", "postComment", "allow allow deny deny deny deny",
         allow=rule("PERM-COMMENT-PRIVATE"),
         deny=rule("COMMENT-7-NO-PRIVATE-PERMISSION", "PERM-DENIED-NO-EFFECT"),
         for_caller={"member": rule("COMMENT-7-NO-OPTION-PERMISSION", "PERM-DENIED-NO-EFFECT"),
                   **_NO_CREDENTIALS_COMMENT},
         writes=True, denied_status=(403,), since=_P),
    _row("scheduleGdprJob", "scheduleGdprJob", "allow obs obs obs deny deny",
         allow=rule("OBS-PERM-GDPR"), deny=rule("OBS-PERM-GDPR"), observed="OBS-PERM-GDPR", writes=True),
    _row("listQuestions", "listQuestions", "allow allow allow allow obs deny",
         allow=rule("PERM-LIST-QUESTIONS"), observed="OBS-ANONYMOUS-READS"),
    _row("listUserAnswers", "listUserAnswers", "allow allow allow allow obs deny",
         allow=rule("PERM-USER-ANSWERS"), observed="OBS-ANONYMOUS-READS"),
    _row("listActiveExperts", "listActiveExperts", "allow allow allow allow deny deny",
         allow=rule("PERM-EXPERTS"), deny=rule("EXPERTS-401"), denied_status=(401,)),
    _row("listEarnedExperts", "listEarnedExperts", "allow allow allow allow deny deny",
         allow=rule("PERM-EXPERTS"), deny=rule("EXPERTS-401"), denied_status=(401,)),
    _row("postAnswer", "postAnswer", "allow allow allow allow deny deny",
         allow=rule("PERM-ANSWER"), deny=rule("PERM-ANSWER", "PERM-DENIED-STATUS"),
         for_caller={"wrong_password": rule("PERM-ANSWER", "PERM-DENIED-STATUS", "PERM-DENIED-NO-EFFECT")},
         writes=True),
    _row("listUserContent", "listUserContent", "allow obs obs obs deny deny",
         allow=rule("OBS-PERM-GDPR"), deny=rule("OBS-PERM-GDPR"), observed="OBS-PERM-GDPR"),
    _row("listSpaces", "listSpaces", "allow allow allow allow obs deny",
         allow=rule("PERM-SPACES"), observed="OBS-ANONYMOUS-READS"),
    _row("unmarkFavorite", "unmarkFavorite", "allow allow allow deny deny deny",
         allow=rule("PERM-UNFAVORITE"), deny=rule("PERM-UNFAVORITE", "PERM-DENIED-STATUS"), writes=True),
    _row("cancelWiki", "cancelWiki", "allow allow own deny deny deny",
         allow=rule("PERM-CANCELWIKI"), deny=rule("PERM-CANCELWIKI", "PERM-DENIED-STATUS"),
         for_caller={"member": rule("PERM-CANCELWIKI-OWN", "PERM-DENIED-STATUS")}, writes=True),
    _row("sendToModeration", "sendToModeration", "allow allow deny deny deny deny",
         allow=rule("PERM-SENDTOMOD"), deny=rule("PERM-SENDTOMOD", "PERM-DENIED-STATUS", "PERM-DENIED-NO-EFFECT"),
         writes=True),
    _row("lockNode", "lockNode", "allow allow own deny deny deny",
         allow=rule("PERM-LOCK"), deny=rule("PERM-LOCK", "PERM-DENIED-STATUS", "PERM-DENIED-NO-EFFECT"),
         for_caller={"member": rule("PERM-LOCK-OWN", "PERM-DENIED-STATUS", "PERM-DENIED-NO-EFFECT")}, writes=True),
    _row("listTopics", "listTopics", "allow allow allow allow obs deny",
         allow=rule("PERM-TOPICS"), observed="OBS-ANONYMOUS-READS"),
    _row("listUserQuestions", "listUserQuestions", "allow allow allow allow obs deny",
         allow=rule("PERM-USER-QUESTIONS"), observed="OBS-ANONYMOUS-READS"),
    _row("listNodeFollowers", "listNodeFollowers", "allow allow allow allow obs deny",
         allow=rule("PERM-FOLLOWERS"), observed="OBS-ANONYMOUS-READS"),
    _row("listGroups", "listGroups", "allow deny deny deny deny deny",
         allow=rule("PERM-GROUPS"), deny=rule("PERM-GROUPS", "PERM-DENIED-STATUS", "PERM-DENIED-BODY")),
    _row("listAnswerComments", "listAnswerComments", "allow allow allow allow obs deny",
         allow=rule("PERM-ANSWER-COMMENTS"), observed="OBS-ANONYMOUS-READS", writes=True),
    _row("listIssueTypes", "listIssueTypes", "allow obs obs obs obs deny",
         allow=rule("OBS-PERM-ISSUETYPES"), observed="OBS-PERM-ISSUETYPES"),
)
"""The table. wrong_password is 'deny' on every line: bad credentials are refused, never served as anonymous."""

WRONG_PASSWORD_RULES = rule("AUTH-BAD-CREDENTIALS")
"""Checked by every wrong_password cell, on top of the line's deny rules."""
ANONYMOUS_WRITE_RULES = rule("AUTH-ANONYMOUS-WRITES")
"""Checked by the anonymous cells of the writes that rule names."""
ANONYMOUS_WRITE_RULE_OPERATIONS = frozenset({"postComment", "postAnswer", "unmarkFavorite", "cancelWiki",
                                             "sendToModeration", "lockNode"})


@dataclass(frozen=True)
class Cell:
    """One test: a line of the table and one caller."""

    row: Row
    caller: str

    @property
    def value(self) -> str:
        return self.row.cell(self.caller)

    @property
    def id(self) -> str:
        return f"{self.row.key}-{self.caller}-{self.value}"

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids this cell checks (obs cells: only the line's observed rule)."""
        if self.value == OBS:
            return (self.row.observed,) if self.row.observed else ()
        ids: list[str] = []
        if self.caller in self.row.for_caller:
            ids += self.row.for_caller[self.caller]
        else:
            if self.value in (ALLOW, OWN):
                ids += self.row.allow_rules
            if self.value in (DENY, OWN):
                ids += self.row.deny_rules
        if self.caller == "wrong_password":
            ids += WRONG_PASSWORD_RULES
        if self.caller == "anonymous" and self.row.operation in ANONYMOUS_WRITE_RULE_OPERATIONS:
            ids += ANONYMOUS_WRITE_RULES
        return tuple(dict.fromkeys(ids))


def cells() -> list[Cell]:
    """Every cell of the table, line by line."""
    return [Cell(row, caller) for row in MATRIX for caller in CALLERS]
