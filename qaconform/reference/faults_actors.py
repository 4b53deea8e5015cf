"""Faults of the actors round (issue 44, Build items 2, 3 and 5), each breaking one stated rule on one path: an
action's stated effect wrong for one account the permission table grants it to, an "own" clause decided by a
relation other than authorship (last active user, answered the question), and a posted answer's field derived from
the content of its text. The first three are blind misses re-planted (/work/notes/s6/blind-round16.md, 17.md);
their names stay those of their round. The code is :mod:`actors_paths` (hooked through request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault

ACTORS: tuple[Fault, ...] = (
    # "Wikified node | PUT cancelwiki | Caller has Mark as community wiki ... Returns the wiki action with canceled
    # true." (re-planted from round16: admin holds Mark as community wiki too)
    Fault("round16-cancelwiki-admin-not-canceled", "ACTION-CANCELWIKI-CANCELED",
          "cancelwiki as site administrator returns the wiki action with canceled false (the record as read before"
          " the update)"),
    Fault("actors-unfavorite-admin-node-id-action-id", "ACTION-NODE-ID",
          "unfavorite as site administrator returns a favorite action whose node.id is the action's own id"),
    # "for the caller's own node, Convert own posts to community wiki" (re-planted from round17)
    Fault("round17-cancelwiki-own-by-last-active", "PERM-CANCELWIKI-OWN",
          "a caller with Convert own posts to community wiki may unwikify another user's node on which it is the"
          " last active user (it commented or answered there): ownership read from last_active_user_id"),
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
    # "for the caller's own node, Convert own posts to community wiki": own is the node's author only
    Fault("actors-cancelwiki-own-by-answer-under", "PERM-CANCELWIKI-OWN",
          "a caller with Convert own posts to community wiki may unwikify another user's question it answered"
          " (the thread's participants taken for its owners)"),
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
