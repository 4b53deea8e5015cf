"""Fourteenth blind round (issue 44, round14): one planted fault on each of fifteen must-rules drawn at random (seed
202611292135), each written from the description alone on a path a real server could get wrong while passing the
obvious tests: one value form, one account, one node state, one relation, one list length, one option. The two on the
data-protection job's date (GDPR-DATE-FORMATTED, GDPR-TIME-FRAME) are left out of the registry: a run cannot judge
them (/work/notes/s6/blind-round14.md says why and keeps their code).

Where each bites: :mod:`blind_round14` (the hooks the handlers call). Each entry quotes the sentence it breaks.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

_F = Fault
BLIND_ROUND14: tuple[Fault, ...] = (
    # "Response: 200, a JSON array of User content entries ... Not wrapped in the paged envelope."
    _F("round14-content-enveloped-from-nine-entries", "LIST-ARRAY-CONTENT",
       "a user content list of nine node entries or more goes through the paged serializer: the array is wrapped in "
       "the list envelope (shorter lists stay bare arrays)"),
    # "| originalParentId | integer | Present on answers and comments. |"
    _F("round14-reply-original-parent-null", "NODE-ORIGINAL-PARENT-ID",
       "in an answer's comment list a reply to a comment carries originalParentId null (the join finds the answer's "
       "comments only); comments directly under the answer keep the integer"),
    # "| 15 User's questions | View the questions list (Anonymous Roles). |"
    _F("round14-user-questions-staff-hidden-from-anonymous", "PERM-USER-QUESTIONS",
       "an anonymous caller listing the questions of a moderator or an administrator is refused 401 (a staff "
       "profile taken as private); other users' questions stay open to anonymous"),
    # "The version is part of the path: every endpoint lives under /services/v2."
    _F("round14-user-answers-wrap-redirects-to-v1", "VERSION-PATH",
       "a user's answer list asked with wrap is redirected (301) to the legacy /services/v1 path of the same list"),
    # "Response: 200, paged list of User items." (5 and 6)
    _F("round14-earned-experts-reputation-grouped", "SHAPE-LIST-EARNED-EXPERTS",
       "in the earned expert list a reputation of 1000 or more is rendered with a thousands separator, as a "
       "string (\"2,500\"); smaller reputations stay integers"),
    # "Response: 200 with {success: boolean, result: {lockAction: <Action record>}}."
    _F("round14-lock-moderated-node-success-missing", "SHAPE-LOCK-NODE",
       "locking a node that is in moderation answers {result: {lockAction}} without success (the moderation queue's "
       "serializer); published nodes keep success"),
    # "The prompt is stored as extra of the returned lock action."
    _F("round14-lock-extra-html-escaped", "ACTION-LOCK-EXTRA",
       "the lock prompt is stored HTML-escaped (& < > \" ' as entities): a prompt holding one of them comes back as "
       "extra changed; plain prompts are stored as given"),
    # "| pageCount | integer | Total number of pages. |"
    _F("round14-followers-pagecount-counts-inactive", "PAGING-PAGECOUNT",
       "the follower list (active relations by default) computes pageCount from every relation, inactive ones "
       "included; totalCount and the items are of the active ones"),
    # "| 17 Groups | Edit users and groups (Site Administration Roles). |"
    _F("round14-groups-moderator-under-v1", "PERM-GROUPS",
       "the group list asked with the v1 option lets a moderator in (the legacy controller checks a moderation "
       "role, not Edit users and groups)",
       (Override(("listGroups",), "moderator", Effect.ALLOW, "enter", ("v1",)),)),
    # "Every list endpoint returns this object." (the envelope: name, sort, page, ... list)
    _F("round14-empty-user-questions-no-sort", "PAGING-ENVELOPE",
       "the envelope of a user's question list with no items lacks sort (the sort echo is taken from the first "
       "item's query)"),
    # "Response: 200, paged list of Space items." (Space: id, type, name, prefix, locale, creationDate, active, ...)
    _F("round14-restricted-space-active-missing", "SHAPE-LIST-SPACES",
       "in the space list a space restricted to some accounts (seen by those allowed) lacks active"),
    # "Response: 200 with {success: boolean, result: {wikifyAction: <Action record>}}."
    _F("round14-cancelwiki-own-node-success-string", "SHAPE-CANCEL-WIKI",
       "unwikifying one's own node (Convert own posts to community wiki) answers success as the string \"true\"; "
       "on another's node success is a boolean"),
    # "Returns an action record with verb sent and private true."
    _F("round14-sendtomod-own-node-not-private", "ACTION-SENDTOMOD-PRIVATE",
       "a node sent to moderation by its own author (a moderator or admin) is recorded with private false"),
)
