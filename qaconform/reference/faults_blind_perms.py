"""Planted faults of a blind round on permissions, roles and relations (issue 44, blindp): written from the
interface description and the reference server's code alone, by someone who had not read the suites, the way an
outside team plants faults in a server it did not write. Each breaks ONE stated rule on ONE path only (one optional
parameter given, one account, one relation of the caller to the node, one node kind or state, one input form), the
sentence it breaks quoted above it.

Part of the registry (:mod:`faults`); the code that bites is in :mod:`blind_perms` (one call where each bites) or,
for a permission decided differently at the door, the ``overrides`` of the entry. What each one is and whether the
suites caught it: the session's notes, blind-perms.md. Two faults of phase 1 were taken out (their code and reason
kept there): an unwikify own clause taken from a comment's answer, and a refused lock that still locks a comment;
through the interface neither can be told from a conforming server (no node in the state they need, no read that
shows a lock).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override

_F = Fault
BLIND_PERMS: tuple[Fault, ...] = (
    # --- lists: who may read which, with one parameter (site_lists.py)
    # "| 17 Groups | Edit users and groups (Site Administration Roles). |"
    _F("blindp-groups-later-page-empty-for-denied", "PERM-GROUPS",
       "a signed-in caller without Edit users and groups asking the group list for a page after the first gets 200 "
       "with an empty page instead of the refusal (the permission lives in the first page's query)",
       (Override(("listGroups",), "signed-in", Effect.ALLOW, when=("page",)),)),
    # "| not given | Group list | Caller lacks the required permission | JSON {errors: {message: <same permission
    #  text>}}."
    _F("blindp-groups-denied-body-wrapped", "PERM-DENIED-BODY",
       "the refusal of the group list asked with wrap has the body {success: false, error: <text>} (the legacy "
       "wrapper's), not {errors: {message}}; without wrap it is right"),
    # "| 9 Spaces | Use site (Anonymous Roles); View the questions list for each space that is to appear. |" and
    # "Only spaces for which the caller has View the questions list appear."
    _F("blindp-spaces-hidden-on-later-pages", "PERM-SPACES-PER-SPACE",
       "from page 2 on the space list is filtered by no role (the per-space permission is applied to the first "
       "page's query only): a novice sees the hidden space on a later page"),
    # "| 401 | Expert lists | Missing or bad credentials | Either JSON {errors: {message: ...}} or an HTML error page
    #  titled HTTP Status 401 - Bad credentials"
    _F("blindp-experts-bad-password-403", "EXPERTS-401",
       "a WRONG PASSWORD for a known account on the active expert list is answered 403 (the account was found, so "
       "it is treated as signed in without the permission); missing credentials and the earned list are right"),
    # "| 5, 6 Experts | USE API role and View User's Profile (Anonymous Roles). |"
    _F("blindp-earned-experts-realname-needs-publish", "PERM-EXPERTS",
       "the earned expert list sorted by realname checks Publish answer (a 'trusted user' flag) on top of the "
       "stated permissions: novice is refused 403 with sort=realname only"),
    # --- own clauses decided on the wrong node, or granted where the table has none (actions.py)
    # "| 11 Unwikify | Mark as community wiki; for the caller's own node, Convert own posts to community wiki. |"
    _F("blindp-cancelwiki-wrap-mark-wiki-ignored", "PERM-CANCELWIKI",
       "with wrap given, Mark as community wiki is not consulted: a moderator or admin unwikifying ANOTHER's node "
       "is refused 403 as if it held only Convert own posts; without wrap it is right"),
    # "| 13 Lock | Lock comments on posts; for the caller's own node, Lock comments on own posts (Moderation Roles). |"
    _F("blindp-lock-novice-own-comment", "PERM-LOCK",
       "a caller with neither lock permission (novice) may lock its OWN COMMENT (an own clause granted where the "
       "caller holds no own permission); on another's node or its own answer it is refused",
       (Override(("lockNode",), "novice", Effect.ALLOW),)),
    _F("blindp-lock-own-skipped-on-questions", "PERM-LOCK-OWN",
       "the own check of Lock comments on own posts is skipped for QUESTIONS: member locks a question another "
       "wrote; answers and comments are judged right"),
    # "| 12 Send to moderation | Send already published question to moderation (Moderation Roles). |"
    _F("blindp-sendtomod-moderated-node-unchecked", "PERM-SENDTOMOD",
       "a caller without Send already published question to moderation is let in on a node ALREADY IN MODERATION "
       "(the permission is checked on the publish-to-moderation path only, not on the repeat); published nodes are "
       "refused right",
       (Override(("sendToModeration",), "signed-in", Effect.ALLOW),)),
    # --- writes: publish decided on the wrong account, a permission skipped for one input form (answers.py,
    #     comments.py)
    # "| 7 Post answer | Answer questions (Standard Roles). Publish answer (Standard Roles) to publish directly;
    #  otherwise the answer goes to moderation. |"
    _F("blindp-answer-publish-by-question-author", "PERM-ANSWER-PUBLISH",
       "whether a new answer is published is decided by the permissions of the QUESTION's author, not the caller's: "
       "member answering novice's question goes to moderation, novice answering member's is published"),
    # "A private visibility option ... used by a caller who lacks the permission to use private comments ... gives
    #  403."
    _F("blindp-comment-private-form-unchecked", "COMMENT-7-NO-PRIVATE-PERMISSION",
       "in a FORM-ENCODED body, a private visibility option is not checked against the caller's permissions (the "
       "form path takes the site's default permission set): novice posts a private comment, 201; JSON and "
       "parameters are refused right"),
    # "| 1 Post comment | Comment (Other Standard Roles); View answers in the question page and View the question
    #  page (Anonymous Roles)."
    _F("blindp-comment-anonymous-reply-accepted", "PERM-COMMENT",
       "an anonymous caller may post a REPLY to a comment (the Comment permission is checked on the path that "
       "comments a post only); comments on questions and answers are refused right",
       (Override(("postComment",), "anonymous", Effect.ALLOW),)),
    # --- refusals: the stated status of a refusal on one path (actions.py)
    # "Every operation requires the permissions below." (a refusal is a 4xx, never a 2xx)
    _F("blindp-cancelwiki-own-refusal-success-false", "PERM-DENIED-STATUS",
       "when the own check of unwikify refuses (member on another's node) the answer is 200 {success: false} "
       "instead of a 4xx; refusals at the door (novice, anonymous) are right"),
)
