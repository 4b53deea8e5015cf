"""The route table: one row per operation of the description, all under /services/v2, each naming its method,
path, handler and the permissions it requires (:mod:`access` checks them before the handler runs; the planted
permission faults are overrides of these rows, in faults.py).

Handlers are ``async`` and call SQLite directly: the single connection is used only from the event loop thread,
so requests are serialised without locks and a write is visible to the next request at once.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.routing import Route

from . import actions, answers, comments, deletion, faults, gdpr_jobs, node_lists, rate_limit, site_lists, variants
from .access import Requires
from .auth import (
    ANSWER,
    COMMENT,
    CONVERT_OWN_TO_WIKI,
    DELETE_ANY,
    DELETE_OWN,
    EDIT_USERS_AND_GROUPS,
    LOCK_ANY,
    LOCK_OWN,
    MANAGE_DATA_PROTECTION,
    MARK_FAVORITE,
    MARK_WIKI,
    SEND_TO_MODERATION,
    USE_API,
    USE_SITE,
    VIEW_ANSWERS,
    VIEW_PROFILE,
    VIEW_QUESTION_PAGE,
    VIEW_QUESTIONS_LIST,
    VIEW_USERS_LIST,
)
from .db import Database
from .dispatch import Operation, endpoint, http_error, server_error
from .http_io import PREFIX
from .service import Service

_O = Operation
ROUTES: tuple[Operation, ...] = (
    _O("postComment", "POST", "/node/{node_id}/comment.json", comments.post_comment,
       Requires((COMMENT, VIEW_ANSWERS, VIEW_QUESTION_PAGE))),
    _O("scheduleGdprJob", "POST", "/jobs/gdpr/schedule.json", gdpr_jobs.schedule_gdpr_job,
       Requires((MANAGE_DATA_PROTECTION,))),
    _O("listQuestions", "GET", "/question.json", node_lists.list_questions, Requires((VIEW_QUESTIONS_LIST,))),
    _O("listActiveExperts", "GET", "/user/retrieveAllExperts.json", site_lists.list_active_experts,
       Requires((USE_API, VIEW_PROFILE)), html_401=True),
    _O("listEarnedExperts", "GET", "/user/retrieveEarnedExperts.json", site_lists.list_earned_experts,
       Requires((USE_API, VIEW_PROFILE)), html_401=True),
    _O("listUserAnswers", "GET", "/user/{user_id}/answer.json", node_lists.list_user_answers,
       Requires((VIEW_QUESTIONS_LIST, VIEW_ANSWERS))),
    _O("postAnswer", "POST", "/question/{question_id}/answer.json", answers.post_answer, Requires((ANSWER,))),
    _O("listUserContent", "GET", "/users/gdpr/{user_id}/content.json", node_lists.list_user_content,
       Requires((MANAGE_DATA_PROTECTION,))),
    _O("listSpaces", "GET", "/space.json", site_lists.list_spaces, Requires((USE_SITE,))),
    _O("unmarkFavorite", "PUT", "/node/{node_id}/unmarkfavorite.json", actions.unmark_favorite,
       Requires((MARK_FAVORITE, VIEW_QUESTION_PAGE)), state_first=actions.unfavorite_state_first),
    _O("cancelWiki", "PUT", "/node/{node_id}/cancelwiki.json", actions.cancel_wiki,
       Requires(one_of=(MARK_WIKI, CONVERT_OWN_TO_WIKI)), state_first=actions.cancelwiki_state_first),
    _O("sendToModeration", "PUT", "/node/{node_id}/sendToMod.json", actions.send_to_moderation,
       Requires((SEND_TO_MODERATION,))),
    _O("lockNode", "PUT", "/node/{node_id}/lock.json", actions.lock, Requires(one_of=(LOCK_ANY, LOCK_OWN))),
    _O("listTopics", "GET", "/topic.json", site_lists.list_topics, Requires((VIEW_USERS_LIST,))),
    _O("listUserQuestions", "GET", "/user/{user_id}/question.json", node_lists.list_user_questions,
       Requires((VIEW_QUESTIONS_LIST,))),
    _O("listNodeFollowers", "GET", "/node/{node_id}/followers.json", site_lists.list_followers,
       Requires((VIEW_USERS_LIST,))),
    _O("listGroups", "GET", "/group.json", site_lists.list_groups, Requires((EDIT_USERS_AND_GROUPS,))),
    _O("listAnswerComments", "GET", "/answer/{answer_id}/comment.json", node_lists.list_answer_comments,
       Requires((VIEW_ANSWERS, VIEW_QUESTION_PAGE))),
    _O("listIssueTypes", "GET", "/{tracker}/issuetype.json", site_lists.list_issue_types, Requires((USE_API,))),
)
"""The 19 operations of the description, in its order (the operationIds of spec/openapi.yaml, typed again here:
the reference server reads nothing of spec/)."""

LOCATION_ROUTES: tuple[Operation, ...] = (
    _O("readComment", "GET", "/comment/{node_id}.json", node_lists.read_node, Requires((VIEW_QUESTION_PAGE,))),
    _O("readAnswer", "GET", "/answer/{node_id}.json", node_lists.read_node, Requires((VIEW_QUESTION_PAGE,))),
    _O("readPostedNode", "GET", "/questions/{question_id}/{node_id}.html", node_lists.read_node,
       Requires((VIEW_QUESTION_PAGE,))),
)
"""Where the Location of a new comment or answer points, so that it can be read (should-level LOCATION-READABLE);
not served under the variant location-not-readable."""

SITE_ROUTES: tuple[Operation, ...] = (
    _O("deleteNode", "PUT", "/node/{node_id}/delete.json", deletion.delete_node,
       Requires(one_of=(DELETE_ANY, DELETE_OWN))),
    _O("undeleteNode", "PUT", "/node/{node_id}/undelete.json", deletion.undelete_node, Requires((DELETE_ANY,))),
)
"""Actions of the site OUTSIDE the description's 19 operations (not in spec/openapi.yaml; the suites never call
them): the delete action real sites of this product have, which the profile names under [cleanup] so that a run
removes what it created, and its undelete (deletion.py)."""


def _prefix(path: str) -> str:
    """/services/v2, except for the issue types under the planted fault issuetypes-under-v1 (faults.py)."""
    if path.endswith("/issuetype.json") and faults.is_on("issuetypes-under-v1"):
        return "/services/v1"
    return PREFIX


def create_app(db: Database, page_size: int = 15, tracker: str = "tracker") -> Starlette:
    svc = Service(db, page_size, tracker)
    rate_limit.reset()
    table = (ROUTES if variants.is_on("location-not-readable") else ROUTES + LOCATION_ROUTES) + SITE_ROUTES
    routes = [Route(_prefix(op.path) + op.path, endpoint(svc, op), methods=[op.method]) for op in table]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.service = svc
    return app
