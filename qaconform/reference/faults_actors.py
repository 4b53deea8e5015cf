"""Faults of the actors round (issue 44, Build items 1, 3 and 5), each breaking one stated rule on one path: an
action's stated effect wrong for one account the permission table grants it to (admin's unfavorite, made after
member's), and a posted answer's field derived from the content of its text (suites/posted_texts.py). The first is a
blind miss re-planted (/work/notes/s6/blind-round16.md), under its round's name. The code is :mod:`actors_paths`
(hooked through request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

ACTORS: tuple[Fault, ...] = (
    # "plug | Present on a newly posted answer; it is null there." (re-planted from round16)
    Fault("round16-answer-plug-link-preview", "ANSWER-PLUG-NULL",
          "an answer whose text holds an http(s) link gets that link as its plug (a link preview)"),
    # "Returns the favorite action with canceled true" (every account holding Mark as favorite)
    Fault("actors-unfavorite-admin-not-canceled", "ACTION-UNFAVORITE-CANCELED",
          "unfavorite as site administrator returns its favorite action with canceled false"),
    Fault("actors-unfavorite-admin-canceleddate-missing", "ACTION-CANCELED-FIELDS",
          "unfavorite as site administrator returns its canceled favorite action without canceledDate"),
    Fault("actors-unfavorite-admin-node-id-action-id", "ACTION-NODE-ID",
          "unfavorite as site administrator returns a favorite action whose node.id is the action's own id"),
    # "Caller has Answer questions and Publish answer | Published"
    Fault("actors-answer-link-held-for-review", "ANSWER-PUBLISHED",
          "a publisher's answer whose text holds a link is held for review (in moderation), not published"),
    # "body (string, the answer text)": the text kept whatever it holds
    Fault("actors-answer-markup-escaped", "ANSWER-BODY-KEPT",
          "inline markup (<b>, <em> ...) in a posted answer's body comes back escaped (&lt;b&gt;)"),
    Fault("actors-answer-mention-stripped", "ANSWER-BODY-KEPT",
          "@mentions are taken out of a posted answer's body"),
    Fault("actors-answer-long-body-truncated", "ANSWER-BODY-KEPT",
          "a posted answer's body longer than 500 characters comes back cut at 500"),
    # "The Location header holds the new item's URL." (whatever the text holds)
    Fault("actors-answer-long-location-missing", "ANSWER-LOCATION",
          "the 201 to an answer whose body is longer than 500 characters has no Location header"),
)
