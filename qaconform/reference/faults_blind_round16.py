"""Sixteenth blind round (issue 44, round16): one planted fault on each of fifteen must-rules drawn at random (seed
202611292200), each written from interface-v2.md alone on a path a real server could get wrong while passing the
obvious test. The eleven the suites caught are kept here; the four they missed (ANSWER-PLUG-NULL,
SHAPE-LIST-ISSUE-TYPES, GDPR-TIME-FRAME, ACTION-CANCELWIKI-CANCELED) were taken out of the registry, their code and
why they slip through in /work/notes/s6/blind-round16.md. Their code is :mod:`blind_round16` (hooked through
``request_hooks.HOOKS``), apart from the two permission bugs, which are overrides of the route table.
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

BLIND_ROUND16: tuple[Fault, ...] = (
    Fault("round16-answer-location-moderated", "ANSWER-LOCATION",
          "a 201 to an answer that goes to moderation (caller without Publish answer) lacks the Location header"
          " (\"The Location header holds the new item's URL.\")"),
    Fault("round16-envelope-empty-page-no-list", "PAGING-ENVELOPE",
          "a user's question list whose page is empty has no list field (\"Every list endpoint returns this"
          " object.\")"),
    Fault("round16-sendtomod-realuser-first-caller", "ACTION-SENDTOMOD-REALUSER",
          "every send-to-moderation after the server's first names that first caller as realUser, not the"
          " authenticated caller (\"Same shape as user. Present on send-to-moderation.\"; the real authenticated"
          " user)"),
    Fault("round16-default-page-zero-with-pagesize", "PAGING-DEFAULT-PAGE",
          "a user's answer list asked with pageSize but no page reports page 0 (\"Current page. The default is"
          " 1.\")"),
    Fault("round16-answer-param-author-question-author", "ANSWER-BODY-KEPT",
          "an answer posted with body as a query parameter is returned with the question's author as its author"
          " (the acting user is taken from the credentials)"),
    Fault("round16-topics-sorted-member-denied", "PERM-TOPICS",
          "member (View users list) is refused the topic list when it passes sort (\"| 14 Topics | View users"
          " list (Anonymous Roles). |\")",
          (Override(("listTopics",), "member", Effect.DENY, when=("sort",)),)),
    Fault("round16-comment-private-body-optional", "COMMENT-BODY-REQUIRED",
          "a comment without body is created when it gives a visibility (\"body (string, the comment text,"
          " required)\")"),
    Fault("round16-gdpr-formatted-day-month", "GDPR-DATE-FORMATTED",
          "scheduleDate.formatted is read day first: a future date whose day is over 12 is refused as invalid"
          " (\"pattern month/day/year hour:minute in 24-hour form\")"),
    Fault("round16-experts-text-sort-paged", "SORT-EXPERTS-VALUES",
          "the active-expert list refuses sort=username or realname past page 1 with 400 (\"sort must be one of"
          " reputation, username, realname, recent, oldest, default\")"),
    Fault("round16-groups-projected-novice-allowed", "PERM-GROUPS",
          "novice (no Edit users and groups) is let into the group list when it asks for includeOnly (\"| 17 Groups"
          " | Edit users and groups (Site Administration Roles). |\")",
          (Override(("listGroups",), "novice", Effect.ALLOW, when=("includeOnly",)),)),
    Fault("round16-issuetypes-cached-raw", "ISSUETYPES-ARRAY",
          "from the second call of a server on, the issue-type list serves the tracker's cached objects, whose name"
          " is an object (\"Object with name (string).\")"),
)
"""The round's caught faults, one per drawn rule."""
