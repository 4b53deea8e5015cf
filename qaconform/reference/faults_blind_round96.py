"""Blind round 96 (issue 44): fifteen faults written from the interface description, spec/rules.yaml and the
reference server's own code alone, without reading the suites. Seven break one each of the must-rules drawn at random
(seed 20261213, the fourth draw of the cycle, dealt to rounds 94 to 96); eight break rules of the kinds the outside
rounds catch us on (a permission with an optional parameter, ownership on the wrong relation, an input form, an effect
on one node kind, a parameter whose echo is right, a data-protection form of the user, a rule after a state change, a
list a cache keeps by its URL). Each bites on one path only; the hooks are in :mod:`blind_round96`.

Measured blind (all 15 in one self-test run at seed 20260801): 13 caught. Of the two misses, the unwikify of an
answer is a seed-draw path (the one-shot unwikify acts on a wiki answer at the seeds drawing "an answer"): caught at
20260816 and registered with that draw; the private comment on a node sent to moderation is a path no write of the
run takes and stays out (no accepted write more in this round's brief).

Registered: the faults the self-test catches (``BLIND_round96``); the others stay wired but out of the registry
(``BLIND_round96_MISSED``), each with the path the suites did not take in ``_MISSED_REASONS`` (docs/blind-rounds.md).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_ALL: tuple[Fault, ...] = (
    # --- the seven drawn must-rules
    Fault(
        "round96-sendtomod-own-node-verb-withdrawn", "ACTION-SENDTOMOD-VERB",
        "A node sent to moderation by its OWN author (a moderator or admin sending a node it wrote) returns the "
        "sendToModAction with verb 'withdrawn' (the author's own send is recorded as a withdrawal by the workflow "
        "that lets authors pull their posts); sends of others' nodes carry verb sent: breaks 'Returns an action "
        "record with verb sent and private true.' for the caller's own nodes only.",
    ),
    Fault(
        "round96-answer-solved-question-moderated", "ANSWER-PUBLISHED",
        "An answer by a caller holding Answer questions and Publish answer to a question that already has an "
        "ACCEPTED answer (the question marked) goes to the moderation queue (late answers on solved threads are "
        "held for review, a common anti-spam rule); answers to unsolved questions are published: breaks '| (new "
        "answer) | POST answer | Caller has Answer questions and Publish answer | Published |' under solved "
        "questions only.",
    ),
    Fault(
        "round96-topics-invalid-sort-wrap-reversed", "SORT-FALLBACK-TOPICS",
        "The topic list asked with an invalid sort name AND the wrap option echoes the default sort but lists its "
        "page in the reverse of the default order (the wrapped controller's fallback builds the ORDER BY without its "
        "direction); without wrap, or with a valid sort, the order is right: breaks 'On the space, topic and group "
        "lists an invalid sort name makes the request fall back to the default sort.' with wrap only.",
    ),
    Fault(
        "round96-groups-wrap-novice-let-in", "PERM-GROUPS",
        "The group list asked with the wrap option lets novice in 200 with the groups (the wrapped route's "
        "newcomer widget checks Use site only for callers without any Standard Roles permission beyond Comment and "
        "Answer questions); admin is served, moderator and member still refused, novice without wrap refused: breaks "
        "'| 17 Groups | Edit users and groups (Site Administration Roles). |' for novice with wrap only.",
        (Override(("listGroups",), "novice", Effect.ALLOW, when=("wrap",)),),
    ),
    Fault(
        "round96-cancelwiki-answer-record-no-private", "ACTION-RECORD-SHAPE",
        "Unwikifying an ANSWER returns the wikifyAction without the field private (the answer's wiki serializer "
        "writes only the fields its own form shows); unwikifying a question or a comment gives the full record: "
        "breaks 'Returned by the state-changing node operations.' (| private | boolean |) on answers only.",
        draws=("wiki node kind=an answer",),  # seed_draws.WIKI_NODE_KINDS: the one-shot unwikify's drawn node
    ),
    Fault(
        "round96-followers-sized-relations", "FOLLOWERS-DETAILS-DEFAULT",
        "A node's follower list asked with pageSize and WITHOUT details lists follower relations ({user, node, "
        "active, followDate}), not User items (the sized query is the relation pager, which the details view "
        "uses); without pageSize, or with details=false given, the items are users: breaks 'details (boolean, "
        "default false)' / 'Response: 200, paged list (default-mode items are User items).' when pageSize is given.",
    ),
    Fault(
        "round96-user-answers-accepted-marked-string", "SHAPE-LIST-USER-ANSWERS",
        "In a user's answer list an ACCEPTED answer (marked true) gives marked as the string 'true', not a boolean "
        "(the list's profile bridge copies the solution flag from a text column, and only sets it when the answer "
        "is the solution); other answers give marked false: breaks 'Response: 200, paged list of Node items of type "
        "answer.' (| marked | boolean |) for accepted answers in that list only.",
    ),
    # --- eight of the outside kinds
    Fault(
        "round96-user-answers-v1-novice-403", "PERM-USER-ANSWERS",
        "(a permission with an optional parameter) A user's answer list asked with the v1 option refuses novice 403 "
        "(the v1 profile tab checks Publish answer, which novice lacks); without v1, and for every other account, it "
        "is served: breaks '| 4 User's answers | View the questions list and View answers in the question page "
        "(Anonymous Roles). |' with v1 for novice only.",
        (Override(("listUserAnswers",), "novice", Effect.DENY, when=("v1",)),),
    ),
    Fault(
        "round96-lock-own-under-followed-question", "PERM-LOCK-OWN",
        "(ownership on the wrong relation) A caller with Lock comments on own posts but not Lock comments on posts "
        "may lock another account's ANSWER or COMMENT under a question it FOLLOWS (an active follow: the 'my "
        "threads' view the own check reads lists the content of followed threads); the followed question itself, "
        "and nodes under unfollowed questions, are judged right: breaks '| 13 Lock | Lock comments on posts; for the "
        "caller's own node, Lock comments on own posts (Moderation Roles). |' on that relation only.",
    ),
    Fault(
        "round96-gdpr-reassign-param-beside-json-ignored", "CONV-PARAM-AS-BODY-FIELD-GDPR",
        "(an input form) A job whose reassignUser comes as a request parameter (JSON text) while its other fields "
        "come in a JSON body is scheduled without it (the JSON binder reads optional object fields from the body "
        "alone): an unknown or doubly named reassignUser given that way is not refused; type, user, csvFileId and "
        "operations as parameters count: breaks 'On POST endpoints that take a body, each body field may also be "
        "given as a request or query parameter of the same name.' for reassignUser beside a JSON body only.",
    ),
    Fault(
        "round96-answer-wiki-question-parent-author-null", "ANSWER-PARENT-FIELDS",
        "(an effect on one node kind or state) The 201 of an answer to a COMMUNITY-WIKI question (wiki true) gives "
        "parentAuthor null (a wiki question is owned by the community, so the serializer finds no author to name); "
        "answers to other questions carry parentAuthor with username: breaks '| parentAuthor | object | username, "
        "realname (string or null). Present on a newly posted answer. |' under wiki questions only.",
    ),
    Fault(
        "round96-spaces-sorted-pagesize-ignored", "PAGING-LISTCOUNT",
        "(a parameter whose echo is right but whose effect is not) The space list asked with sort AND pageSize "
        "echoes the pageSize but serves every space the caller may see on the page, listCount counting them (the "
        "sorted query takes its LIMIT from the default page size); pageSize alone is obeyed: breaks '| pageSize | "
        "integer | Items per page. |' / '| listCount | integer | Number of items in this page. |' beside a sort.",
    ),
    Fault(
        "round96-gdpr-username-user-past-accepted", "GDPR-PAST-DATE",
        "(a data-protection rule through one stated form of the user) An individual job naming its user by USERNAME "
        "and dated in the past is scheduled 201 (the username branch resolves the user through the directory and "
        "schedules at the next free frame without the date check); a user by email or id gets the 400: breaks '| "
        "400 | Schedule job | Date in the past | {error: The desired date is in the past and is it not eligible.} |' "
        "for that form of the user only.",
    ),
    Fault(
        "round96-comment-on-moderated-node-privacy-dropped", "COMMENT-2",
        "(a rule broken after a state change) A comment with visibility recipients posted on a node that was SENT "
        "TO MODERATION earlier is stored with full visibility and no recipients (the moderation queue's comment "
        "form has no privacy fields and drops them); comments on nodes never sent keep their settings: breaks 'When "
        "visibility is recipients and recipients lists ids, the comment is private to those recipients and a GET "
        "returns the given settings.' after a send to moderation only.",
        draws=("member wiki send=before its unwikify", "after-state comment option=recipients"),
    ),
    Fault(
        "round96-sorted-questions-kept-by-url", "COMMENT-PRIVACY-IDS",
        "(a response kept by URL) The question list asked with the sort parameter is kept 3 s by its URL whoever "
        "reads it (the sorted feed is a public page cache): a reader right after another account gets that "
        "account's items, a question's commentIds and childrenIds naming comments private to that account included; "
        "the unsorted list is built per reader: breaks 'the comment is private to those recipients' in that read "
        "order on sorted question lists only.",
    ),
)
"""The round's fifteen faults, as written (before the measure)."""

_MISSED_REASONS: dict[str, str] = {}
"""Closed later by after25 (twenty-fifth session): round96-comment-on-moderated-node-privacy-dropped (member's comment
right after its unwikify takes the drawn private option, recipients among them, on a node in moderation too)."""

BLIND_round96, BLIND_round96_MISSED = split_missed(_ALL, _MISSED_REASONS)
