"""options (issue 44, twenty-fourth session): an ALLOWED call made with one of its stated options (wrap, v1) answered
against a rule that holds whatever the option: the caller's permission ("Every operation requires the permissions
below": an option is no permission), a sort's stated order ("sort must be one of reputation, username, realname,
recent, oldest, default"), a stated filter ("spaceId (integer; restricts to one space)"). Each bites on one path only,
written before the judges that catch them by kind; the hooks are in :mod:`options_hooks` (the permission faults are
route-table overrides). Registered: those the suites catch (``OPTIONS``); the others stay wired, out of the registry,
with the reason (``OPTIONS_MISSED``).

Measured on the base (de705fb, `qaconform selftest --fault ... --no-clean --jobs 1`, seed 20260801, with the two
round90 misses of the kind): 3 of 7 caught (the lock and the send refused to the account whose shared call carries the
options at this seed, the filter in the matrix's pairwise rows); missed both expert sorts under an option and
round90's two (the expert sorts were never read under wrap or v1, moderator's send under v1 was not judged).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    Fault(
        "options-earned-username-v1-first-last", "SORT-EXPERTS-ORDER",
        "The earned expert list sorted by username and asked with v1=true serves its first user last (the v1 "
        "cursor starts one user late and wraps around); without v1, and every other sort, in order: breaks 'sort "
        "must be one of reputation, username, realname, recent, oldest, default' (username orders by username, in "
        "one direction) under v1 only.",
    ),
    Fault(
        "options-active-oldest-wrap-newest-first", "SORT-EXPERTS-ORDER",
        "The active expert list sorted by oldest and asked with wrap=true lists its users newest first (the wrapped "
        "path reuses the recent sort's comparator); without wrap in order: breaks 'sort must be one of reputation, "
        "username, realname, recent, oldest, default' (oldest: oldest first) under wrap only.",
    ),
    Fault(
        "options-moderator-lock-wrap-refused", "PERM-LOCK",
        "A lock asked with wrap=true refuses moderator 403 (the wrapping controller checks Site Administration on "
        "top of the stated permission); admin, member's own locks and every bare lock are served: breaks '| 13 Lock "
        "| Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation Roles). |' with "
        "wrap for moderator only.",
        overrides=(Override(("lockNode",), "moderator", Effect.DENY, when=("wrap",)),),
    ),
    Fault(
        "options-admin-send-v1-refused", "PERM-SENDTOMOD",
        "A send to moderation asked with v1=true refuses admin 403 (the v1 controller maps admin's role by its "
        "legacy name, which holds no Moderation Roles permission); moderator, and every bare send, are served: "
        "breaks '| 12 Send to moderation | Send already published question to moderation (Moderation Roles). |' "
        "with v1 for admin only.",
        overrides=(Override(("sendToModeration",), "admin", Effect.DENY, when=("v1",)),),
    ),
    Fault(
        "options-questions-v1-includeonly-spaceid-ignored", "FILTER-SPACEID",
        "The question list asked with v1=true and includeOnly ignores spaceId (the legacy projection query has no "
        "space clause); with either alone, or neither, the filter holds: breaks '3. Query: ... spaceId (integer; "
        "restricts to one space)' under v1 and includeOnly together only.",
    ),
)

_MISSED_REASONS: dict[str, str] = {}

OPTIONS, OPTIONS_MISSED = split_missed(_ALL, _MISSED_REASONS)
