"""Fixtures the suites share. The target is known only through the profile (architecture rule 3)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest

from qaconform.contract import path as contract_path
from qaconform.pytest import found_nodes, one_shots, support
from qaconform.pytest.found_nodes import found_once, members_question, novices_question, question_or_skip
from qaconform.pytest.outcomes import fail
from qaconform.pytest.properties.plugin import STATE
from qaconform.pytest.support import (
    ANSWER_PUBLISHERS,
    MARKUP_TEXT,
    NON_ASCII_TEXTS,
    answer_form,
    answer_posted,
    comment_form,
    comment_other_fields,
    expect_created,
    new_id,
    post_answer,
    post_answer_in,
    post_comment,
    post_comment_in,
    wire_value,
)
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile, VisibilityOptions
from qaconform.target.writes import SUITES

from . import counts_after_posts, placed_forms, plain_after_private, posted_texts, question_options, shared_answer_post
from .moderated_history import comment_on_moderated_answer  # noqa: F401 - budget24: a comment in moderation
from .one_shot_calls import *  # noqa: F403 - the one-shot fixtures (one_shot_calls.__all__), for every suite
from .option_forms import REPEATS_OPTION_OF, option_form_refusal, post_option  # noqa: F401 - forms20: drawn forms
from .option_forms import shared as _shared  # the session's shared writes (forms20 reads them too)
from .own_question_private import before_lock  # accept23: member's to_moderators comment before a lock
from .own_question_private import parent as own_parent
from .placed_forms import placed_write  # noqa: F401 - forms9 (issue 44 item 3): the drawn forms' outcomes
from .properties import recipient_forms  # the privacy model reads it too, as a sibling (no package name there)
from .public_threads import *  # noqa: F403 - histories5: the shared thread under a public comment's fixtures
from .shared_answer_post import shared_answer_wrapped  # noqa: F401 - trade12: how the shared answer was posted
from .shared_write import SharedWrite
from .wiki_own_question import listed_before_the_moves, novice_wiki_placed, wiki_question  # noqa: F401 - accept22


@pytest.fixture(scope="session")
def question_id(profile: Profile) -> int:
    return profile.fixtures.question_id


@pytest.fixture(scope="session")
def vis(profile: Profile) -> VisibilityOptions:
    """Wire values of the visibility options for this target."""
    return profile.visibility


@pytest.fixture(scope="session")
def shared_answer(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                  created: Any, profile: Profile) -> int:
    """One answer by member under the fixture question, shared by read-mostly tests of a run (once_per_run)."""
    return _answer_id(request, api, question_id, run_tag, created, profile)


def _shared_answer(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                   created: Any, profile: Profile) -> int:
    """The id of :func:`shared_answer`, posted by the first test of the run that needs it; a factory of shared writes
    asks for it only when it writes under it, so that a fixture holding the factory writes nothing (a permission
    cell that never comments is not blocked by an answer member could not post)."""
    return int(shared_answer_post.posted(request, api, question_id, run_tag, created, profile)["id"])  # trade12


@pytest.fixture
def fresh_answer(member: ApiClient, question_id: int, run_tag: str, created: Any) -> int:
    """A new answer by member under the fixture question, for tests that change what is under it."""
    resp = post_answer(member, question_id, run_tag, created)
    return answer_posted(resp)


# ------------------------------------------------------------------------------------------------ shared writes
# Issue 29: at most 100 accepted writes. A write several checks read is made ONCE per run and target (every worker
# reads it); a test whose case is its own request still sends it. forms9: forms drawn by the seed (placed_forms.py).


def _answer_id(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
               created: Any, profile: Profile) -> int:
    """:func:`shared_answer`'s id, once per process (the session's stash) and once per run (:func:`_shared_answer`)."""
    ids: dict[str, int] = request.session.stash.setdefault(_SHARED_ANSWER, {})
    if "id" not in ids:
        ids["id"] = _shared_answer(request, api, question_id, run_tag, created, profile)
    return ids["id"]


_SHARED_ANSWER = pytest.StashKey[dict[str, int]]()


ANSWER_TEXT = "réponse naïve, 日本語の回答, ümlaut ✓"
"""Plain text beyond ASCII in every shared answer: accents, CJK and a symbol are the same text, in the 201 and when
listed (test_answers.py reads member's for ANSWER-BODY-KEPT)."""


@pytest.fixture(scope="session")
def answer_in(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
              created: Any, profile: Profile) -> Callable[[str, str], SharedWrite]:
    """``answer_in(role, form)``: role's plain answer under the fixture question (member's param_wins one under a
    question member wrote: :data:`OWN_QUESTION_ANSWER`; ``node`` names the question) whose body travels in ``form``
    (spec/dimensions.yaml ``input_form``: json, query, form, param_wins; support.post_answer_in), posted once per run.
    The answer form matrix (suites/contract/test_answer_form_matrix.py) judges each; :func:`answer_of` is one of them
    per account, so the forms cost no write of their own where an account's answer is posted anyway."""
    seed = request.config.stash[STATE].seed if STATE in request.config.stash else None  # round46: param_wins body
    def get(role: str, form: str) -> SharedWrite:
        if role == "moderator":  # blindh (issue 44): after the run's send of its own node to moderation (a shared
            with contextlib.suppress(pytest.skip.Exception):  # write): "Published" whatever its other nodes' state
                request.getfixturevalue("sent_to_mod_by")(role)
        text = f"answer by {role}: {ANSWER_TEXT}" if form == answer_form(role) else \
            f"answer by {role} as {form}: {ANSWER_TEXT}"
        # actors (issue 44): a link, markup, an @mention or a long text, across the run's answers
        mentioned = api["member" if role != "member" else "moderator"].username or "moderator"
        text = posted_texts.with_content(text, role, form, mentioned)
        key = f"answer of {role}" if form == "json" else f"answer of {role} as {form}"
        locked = profile.fixtures.locked_question_id
        refused = None
        if role == LOCKED_QUESTION_WRITER and form == answer_form(role) and locked is not None:
            resp = _shared(request, profile, f"{key} to the locked question", counts_after_posts.around(
                request, profile, f"{key} to the locked question", _answer_lists(api, role),
                lambda: post_answer_in(api[role], locked, run_tag, created, text, form, seed,
                                       support.answer_options(role, form, seed))))  # forms20: the options too
            if not 400 <= resp.status < 500:  # a refusal: what a lock does to new answers is not shown
                return SharedWrite(resp, text, node=locked, form=form, key=f"{key} to the locked question")
            refused = resp
        question = _own_question(request) if (role, form) == OWN_QUESTION_ANSWER else question_id
        question = found_nodes.child_space_or(request, api, profile, role, form, question)  # blind12 (issue 44)
        question = found_nodes.novice_placed(request, api, profile, role, form, seed, question)  # placements
        question = novice_wiki_placed(request, role, form, seed, question)  # round97: a wiki question member wrote
        resp = _shared(request, profile, key, counts_after_posts.around(  # fix23: counts read around the post
            request, profile, key, _answer_lists(api, role), lambda: post_answer_in(  # round50: admin's the options
                api[role], question, run_tag, created, text, form, seed, support.answer_options(role, form, seed))))
        return SharedWrite(resp, text, node=question, form=form, refused=refused, key=key)

    return get


def _answer_lists(api: dict[str, ApiClient], role: str) -> list[tuple[ApiClient, str]]:
    """The paged lists a new answer of ``role`` lands in, read around the post (fix23): its answers, read by admin.
    Not by the writer: a server whose cache of a user's answer list for other readers is cleared by the author's own
    read (blind18-user-answers-cached-for-others) would have it cleared by these reads, and the stale list no other
    test would see any more."""
    uid = api[role].user_id
    return [] if uid is None else [(api["admin"], contract_path("listUserAnswers", userId=uid))]


LOCKED_QUESTION_WRITER = "moderator"
"""Whose shared answer (in its account's form) goes under the profile's ``locked_question_id``: "Caller has Answer
questions and Publish answer | Published" names no exception for a locked question, and the interface creates no
question and undoes no lock (blind round of issue 44). No lock, comment or relation of the action matrix rests on
moderator's answer; a 4xx there (not shown either way) puts it under the fixture question, no write more."""


@pytest.fixture(scope="session")
def locked_question_writer() -> str:
    """:data:`LOCKED_QUESTION_WRITER` for the test that judges that answer (test_answers.py): one definition, since
    a test module does not import a conftest."""
    return LOCKED_QUESTION_WRITER


OWN_QUESTION_ANSWER = ("member", "param_wins")
"""The answer of the matrix posted under a question its writer wrote (:func:`members_question`), not the fixture
question (novice's): "Caller has Answer questions and Publish answer | Published" holds whoever wrote the question,
and the run writes no question, so without it a publisher answering its own question is never met (blind round of
issue 44: self-answers held for review). member's param_wins answer is posted anyway (CONV-PARAM-WINS-ANSWER's)."""


def _own_question(request: pytest.FixtureRequest) -> int:
    """member's wiki question while it is one (accept22: wiki_own_question.py), else :func:`members_question_id`, or
    the fixture question where member wrote none novice lists."""
    if (wiki := wiki_question(request)) is not None:
        return wiki
    try:
        return int(request.getfixturevalue("members_question_id"))
    except pytest.skip.Exception:
        return int(request.getfixturevalue("question_id"))


@pytest.fixture(scope="session")
def answer_of(answer_in: Callable[[str, str], SharedWrite]) -> Callable[[str], SharedWrite]:
    """``answer_of(role)``: role's plain answer under the fixture question, posted once per run: the permission
    table's postAnswer cell, the answer's 201 shape, its author and its listing all read this one write. Nothing
    comments on it; the shared locks act on admin's, moderator's and member's (:func:`locked_by`).

    Its body travels in the account's input form (support.answer_form: member JSON, admin query parameters,
    moderator a form-encoded body, novice JSON), so every test reading it reads an answer of that form too. When the
    target refuses that form with a 4xx (CONV-PARAM-AS-BODY-FIELD's to judge, the answer form matrix does), the
    account's JSON answer stands in, so that no other rule is charged with a refused form."""

    def get(role: str) -> SharedWrite:
        form = answer_form(role)
        posted = answer_in(role, form)
        if form != "json" and 400 <= posted.resp.status < 500:
            return answer_in(role, "json")
        return posted

    return get


COMMENT_ON_LOCKED = {"moderator": "member"}
"""Whose shared plain comment goes on a locked node, and whose lock: moderator's on the answer member locked
(:func:`locked_by`). Rule 1 of operation 1 and the state table's "(new comment)" row (a locked node is still public)
name no exception for a lock; without it no budgeted write posts a plain comment on a locked node (blind round of
issue 44). What a lock does to new comments is not shown: a 4xx puts it under the shared answer, no write more."""


COMMENT_AS_REPLY = {"novice": "admin"}
"""blind9 (issue 44): whose shared plain comment replies to whose (under the shared answer, which ``node`` names).
"nodeId: the question, answer or comment being commented on", Comment whatever the node: else no budgeted write by an
account without Use Private Comments replies to a comment (a reply path checking that permission passed)."""


def _reply_parent(get: Callable[[str], SharedWrite], role: str, answer: int) -> int | None:
    """The comment :data:`COMMENT_AS_REPLY` names for ``role``, when a 201 under ``answer`` (else None: the answer)."""
    to = COMMENT_AS_REPLY.get(role)
    if to is None:
        return None
    parent = get(to)
    return parent.id if parent.resp.status == 201 and parent.node == answer else None


def _locked_parent(request: pytest.FixtureRequest, role: str) -> int | None:
    """The node of :data:`COMMENT_ON_LOCKED` for ``role``'s plain comment, once its lock is a 200 that did not say
    ``success: false``; None for the other accounts, or when the lock did not take (their shared answer then)."""
    locker = COMMENT_ON_LOCKED.get(role)
    if locker is None:
        return None
    lock = request.getfixturevalue("locked_by")(locker)
    try:
        body = lock.resp.json() if lock.resp.status == 200 else None
    except ValueError:
        body = None
    if not isinstance(body, dict) or body.get("success") is False or lock.node is None:
        return None
    return int(lock.node)


def _comment_lists(api: dict[str, ApiClient], role: str, answer: int) -> list[tuple[ApiClient, str]]:
    """The paged list a new comment of ``role`` lands in, read by ``role`` around the post (fix23): the answer's
    comments (a reply is listed under the answer too)."""
    return [(api[role], contract_path("listAnswerComments", answerId=answer))]


@pytest.fixture(scope="session")
def reads_around_post(request: pytest.FixtureRequest, profile: Profile) -> Callable[[str], dict[str, Any] | None]:
    """``reads_around_post(key)``: the list reads made just before and right after the shared post of ``key``
    (counts_after_posts.py), for test_counts_after_posts.py."""
    return lambda key: counts_after_posts.reads_around(request, profile, key)


@pytest.fixture(scope="session")
def comment_of(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
               created: Any, profile: Profile) -> Callable[[str], SharedWrite]:
    """``comment_of(role)``: role's plain comment (no privacy fields) under :func:`shared_answer` (moderator's on a
    locked answer: :data:`COMMENT_ON_LOCKED`; novice's a reply to admin's: :data:`COMMENT_AS_REPLY`; ``node`` names
    the answer it is listed under), posted once per run: the permission
    table's postComment cell, the comment's 201 shape and its default visibility read it.

    Its body travels in the input form the run's seed gives the account (support.comment_form: every form each run,
    each by another writer), so every rule judged on it is judged in that form too (issue 44; the comment form
    matrix, suites/contract/test_comment_form_matrix.py, judges every response rule on each). A form the target
    refuses with a 4xx (CONV-PARAM-AS-BODY-FIELD's to judge) is replaced by the account's JSON comment."""

    seed = request.config.stash[STATE].seed if STATE in request.config.stash else 0

    def get(role: str) -> SharedWrite:
        plain_after_private.private_first(request, role)  # round46 (issue 44): its private one first
        text = posted_texts.comment_text(role)  # fix3 (issue 44): quotes, markup, a link, newlines, non-ASCII
        form = comment_form(role, seed)
        named = profile.visibility.full if comment_other_fields(
            role, profile.visibility.full, profile.supports("2.16.0")) == "stated" else None  # round38 (issue 44)
        suffix = "" if form == "json" else f" as {form}"
        locked = _locked_parent(request, role)
        if locked is not None:
            key = f"comment of {role} on a locked node{suffix}"
            resp = _shared(request, profile, key, counts_after_posts.around(  # fix23: counts read around the post
                request, profile, key, _comment_lists(api, role, locked),
                lambda: post_comment_in(api[role], locked, run_tag, created, text, form, visibility=named)))
            if not 400 <= resp.status < 500:  # a refusal: the lock's effect on new comments is not shown
                return SharedWrite(resp, text, locked, form=form, key=key)
        shared_answer = _answer_id(request, api, question_id, run_tag, created, profile)
        parent = _reply_parent(get, role, shared_answer) or shared_answer  # blind9: a reply, listed under the answer
        key = f"comment of {role}{suffix}"
        resp = _shared(request, profile, key, counts_after_posts.around(
            request, profile, key, _comment_lists(api, role, shared_answer),
            lambda: post_comment_in(api[role], parent, run_tag, created, text, form, visibility=named)))
        if form != "json" and 400 <= resp.status < 500:  # the form not taken: the comment form matrix judges it
            return SharedWrite(_shared(request, profile, f"comment of {role}", lambda: post_comment(
                api[role], parent, run_tag, created, text=text, visibility=named)), text, shared_answer, refused=resp)
        return SharedWrite(resp, text, shared_answer, form=form, key=key)

    return get


@pytest.fixture(scope="session")
def private_comment_of(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                       created: Any, profile: Profile) -> Callable[[str, str], SharedWrite]:
    """``private_comment_of(role, option)``: role's comment with visibility ``option`` (a wire value, else a skip), no
    recipients, once per run, under :func:`shared_answer` (member's to the original poster under an answer to its own
    question: own_question_private.py; question_options.on_question's on the question); the private-option cells,
    rule 7's control and the observations read it."""

    def get(role: str, option: str) -> SharedWrite:
        value, text = wire_value(profile, option), f"{option} comment by {role}"
        shared_answer = own_parent(request, role, option) or _answer_id(  # round51 (issue 44): own_question_private
            request, api, question_id, run_tag, created, profile)
        refused = repeated = under = None
        on = question_id if (role, option) == question_options.on_question(  # paths18, round64: COMMENT-8
            one_shots.run_seed(request.config)) else shared_answer
        key = f"{option} comment of {role}"

        def sent(as_key: str, node: int) -> ApiResponse:  # forms20 (issue 44 item 3): in the form the seed draws
            return post_option(request, profile, role, option, as_key, lambda f: post_comment_in(
                api[role], node, run_tag, created, text, f, visibility=value))
        if (role, option) in REPEATS_OPTION_OF:  # fix22 (issue 44): a reply repeating its parent's option
            parent = get(REPEATS_OPTION_OF[role, option], option)
            under = parent.node
            if parent.resp.status == 201 and parent.id is not None:
                reply = sent(f"{key} as a reply", repeated := parent.id)
                if 200 <= reply.status < 300:
                    return SharedWrite(reply, text, parent.node or shared_answer, repeats=repeated)
                refused = reply
        resp = plain_after_private.reply_follows(request, role, option, lambda: sent(key, on))  # paths18: reply next
        return SharedWrite(resp, text, on, refused=refused, repeats=repeated, repeats_under=under)

    return get



@pytest.fixture(scope="session")
def private_comment_on_question(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int,
                                run_tag: str, created: Any, profile: Profile,
                                user_ids: dict[str, int]) -> SharedWrite:
    """member's comment on the fixture question itself, private to moderator (visibility recipients), posted once
    per run: comment privacy's ids in the question list and the privacy model's thread under a question read it. Its
    recipients carry both id forms (recip, issue 44). Charged to the suites' share whoever asks first."""
    text = "private comment on the question"

    def post(form: str) -> ApiResponse:  # forms9 (issue 44 item 3): visibility in a drawn form (placed_forms.py)
        budget = ApiClient.write_budget
        with budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext():
            return placed_forms.post_private(api["member"], question_id, run_tag, created, text, profile,
                                             recipient_forms.question_recipients(user_ids), form)

    return SharedWrite(placed_forms.placed(request, profile, "private_comment_on_question", "private comment on the "
                                           "question", post), text, question_id)


@pytest.fixture(scope="session")
def private_comment_on_answer(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int,
                              run_tag: str, created: Any, profile: Profile, user_ids: dict[str, int]) -> SharedWrite:
    """member's comment on :func:`shared_answer`, private to moderator (visibility recipients), posted once per run:
    comment privacy's thread (scenarios/conftest.py ``private_comment``) and VERSION-PRIVATE-COMMENTS-2160 sent the
    same request each (histories3, issue 44: the write saved pays for the privacy model's reply at depth 3)."""
    text = "private to moderator"
    shared_answer = _answer_id(request, api, question_id, run_tag, created, profile)
    resp = placed_forms.placed(request, profile, "private_comment_on_answer", "private comment on the shared answer",
                               lambda form: placed_forms.post_private(api["member"], shared_answer, run_tag, created,
                                                                      text, profile, [user_ids["moderator"]], form))
    return SharedWrite(resp, text, shared_answer)


LOCK_PROMPT = " / ".join(f"{script}: {text}" for script, text in sorted(NON_ASCII_TEXTS.items())) + (
    f" / markup: {MARKUP_TEXT}")
"""Every shared lock's prompt holds every script of NON_ASCII_TEXTS (the non-ASCII prompt test reads the lock the
permission and shape tests read) and HTML-special characters (MARKUP_TEXT; round14): extra is the prompt given."""

LOCKS = {"admin": "novice", "moderator": "admin", "member": "member"}
"""Whose shared answer each account locks: admin and moderator (Lock comments on posts) another account's, member
(Lock comments on own posts) its own. admin's is member's answer it sent to moderation itself (round34, issue 44: a
lock after the caller's own action on the node; novice's, held in moderation, if that send failed): a node "In
moderation" and unlocked, the table's lock of a node in another state (issue 44 item 5), at no write of its own."""


@pytest.fixture(scope="session")
def locked_by(request: pytest.FixtureRequest, api: dict[str, ApiClient], answer_of: Callable[[str], SharedWrite],
              run_tag: str, profile: Profile) -> Callable[[str], SharedWrite]:
    """``locked_by(role)``: role locks the shared answer of :data:`LOCKS` once per run (:data:`LOCK_PROMPT`): the
    allowed lock cells, the lock's shape, extra and the acting user read it. A lock consumes its node: one each."""

    def get(role: str) -> SharedWrite:
        author, sent = LOCKS[role], request.getfixturevalue("answer_sent_to_mod_by_admin") if role == "admin" else None
        posted = answer_of(author).resp
        if sent is not None and sent.resp.status == 200 and sent.node is not None:  # round34: see LOCKS
            node = int(sent.node)
        elif author in ANSWER_PUBLISHERS:
            node = answer_posted(posted, f"for {role} to lock")
        elif 200 <= posted.status < 300:  # held in moderation: "Answer is created", its status not given
            node = new_id(posted)
        else:
            fail(["ANSWER-MODERATION"], f"{author} could not post the answer {role} locks (expected a 2xx)", posted)
        prompt = f"{LOCK_PROMPT} [{run_tag}]"

        def lock() -> ApiResponse:
            if sent is not None and node == sent.node:  # paths14: another account's refusal right before
                request.getfixturevalue("refused_before_admin_lock")
            before_lock(request, role)  # accept23: member's to_moderators comment under the answer, when it goes there
            return one_shots.act(api[role], request.config, "lockNode", role, node, prompt)  # paths17: options

        return SharedWrite(_shared(request, profile, f"lock by {role}", lock), prompt, node)

    return get


@pytest.fixture(scope="session")
def sent_to_mod_by(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                   created: Any, profile: Profile) -> Callable[[str], SharedWrite]:
    """``sent_to_mod_by(role)``: role (admin or moderator) sends a new published node to moderation, once per run:
    the permission cell, the action's shape and its record read it. moderator's is its OWN answer (a moderator acting
    on its own node as well as an admin on another's: issue 44) to the question of a child space the run found
    (found_nodes.child_space_found, closeb: no other send acts in a child space, round76-sendtomod-child-space-verb-
    moved), else to the fixture question (``question``: which one, for its readers), admin's a comment
    of member's under :func:`shared_answer` that admin locked first (:func:`locked_comment`: a locked node is still
    a "Published node", so the state table's row holds for it). The action matrix sees the effects of a send to
    moderation on both kinds, and on a locked node, without another write. The node is its own (moderation takes
    it out of other callers' lists, which the shared answers and comments must stay in)."""

    def get(role: str) -> SharedWrite:
        text = f"to be sent to moderation by {role}"
        under = None
        if role == "admin":  # locked first (:func:`locked_comment`): a send of a node already locked
            node = int(request.getfixturevalue("locked_comment").node)
        else:
            under = found_nodes.child_space_found(request, api, profile) or question_id  # closeb (issue 44)
            answer = placed_forms.placed(request, profile, "sent_to_mod_by", f"answer to send to moderation by "
                                         f"{role}", lambda form: post_answer_in(api[role], under, run_tag,
                                                                                created, text, form))
            node = answer_posted(answer, "to send to moderation")
            listed_before_send(api[role], under, node)
        resp = _shared(request, profile, f"sendToMod by {role}", lambda: one_shots.act(  # paths17: options
            api[role], request.config, "sendToModeration", role, node))
        return SharedWrite(resp, "", node, question=under)

    return get


def listed_before_send(client: ApiClient, question_id: int, node: int) -> None:
    """qa21: the new answer read back in the question's ``answers`` until it shows (at most the settle window), so
    that what OBS-SENDTOMOD-LISTED records after the send is moderation's effect on the lists, not a list that had
    not yet taken the new answer in (lists-lag-writes: two CI builds of one server recorded it listed and not)."""
    support.find_listed(client, "question.json", question_id, {"includeOnly": "id,answers"}, max_pages=10,
                        until=lambda q: q is not None and node in (q.get("answers") or []))


@pytest.fixture(scope="session")
def answer_sent_to_mod_by_admin(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int,
                                run_tag: str, created: Any, profile: Profile) -> SharedWrite:
    """admin sends a new published answer of member's to moderation, once per run: the action matrix's send of
    ANOTHER account's answer (suites/contract/action_cases.py REUSED), whose record's realUser must name admin, the
    caller, not the answer's author. moderator's shared send is of its own answer and admin's other one of a comment
    (:func:`sent_to_mod_by`), so without it no send of another's answer is made (blind round of issue 44: realUser
    taken from the answer's author). Two accepted writes; the answer is its own (moderation takes it out of other
    callers' lists, which the shared answers must stay in)."""
    answer = placed_forms.placed(request, profile, "answer_sent_to_mod_by_admin", "answer of member's to send to "
                                 "moderation by admin", lambda form: post_answer_in(  # forms9: a drawn form
        api["member"], question_id, run_tag, created, "answer of member's to be sent to moderation by admin", form))
    node = answer_posted(answer, "for admin to send to moderation")
    resp = _shared(request, profile, "sendToMod of an answer by admin", lambda: one_shots.act(  # paths17: options
        api["admin"], request.config, "sendToModeration", "admin's of member's answer", node))
    return SharedWrite(resp, "", node)


# trade (issue 44 item 5): one answer of another's for the refused calls of two suites, not one each
@pytest.fixture(scope="session")
def others_answer(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                  created: Any, profile: Profile) -> int:
    """admin's plain answer under the fixture question, posted once per run: "another's node" on which member's
    refused calls act (permission_calls.Scene.admin_answer; test_node_actions.py: member may not lock another's
    answer). A call wrongly let in on it fails its test; the permission matrix then acts on a new one (Scene.spent)."""
    resp = placed_forms.placed(request, profile, "others_answer", "answer of admin's for refused calls", lambda form:
                               post_answer_in(api["admin"], question_id, run_tag, created, "permission matrix: "
                                              "another's node", form))  # forms9 (issue 44): a drawn form
    return answer_posted(resp, "for refused calls on another's node")


OWN_NODE_COMMENTERS = ("novice",)
"""trade (fix22's r22-novice-comment-on-own-node-refused, issue 44): accounts whose plain comment on a node they
wrote is a shared write of its own ("Comment" names no "own posts" right; novice's shared comment is a reply to
admin's). The others' shared comments sit under member's answer (member's own node is met there)."""


@pytest.fixture(scope="session")
def comment_on_own_node(request: pytest.FixtureRequest, api: dict[str, ApiClient], run_tag: str, created: Any,
                        profile: Profile) -> Callable[[str], SharedWrite | None]:
    """``comment_on_own_node(role)``: role's plain comment on a question role wrote (found with reads:
    found_nodes.novices_question), posted once per run, for :data:`OWN_NODE_COMMENTERS` (None for the others, or
    where the target lists no such question: nothing to judge). One accepted write, the permission table's
    postComment cell of novice judges it as it judges novice's shared comment."""

    def get(role: str) -> SharedWrite | None:
        if role not in OWN_NODE_COMMENTERS:
            return None
        try:
            node = int(request.getfixturevalue("novices_question_id"))
        except pytest.skip.Exception:
            return None  # the target lists no such question: nothing to judge
        resp = placed_forms.placed(request, profile, "comment_on_own_node", f"comment of {role} on its own question",
                                   lambda form: post_comment_in(api[role], node, run_tag, created, f"plain comment "
                                                                f"by {role} on a question {role} wrote", form))
        return SharedWrite(resp, "", node)

    return get


MATRIX_LOCK_PROMPT = f"locked by the action matrix: {MARKUP_TEXT}"  # round14 (issue 44): plain, not HTML
"""The prompt of :func:`locked_comment`'s lock (the run tag is added)."""


@pytest.fixture(scope="session")
def locked_comment(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                   created: Any, profile: Profile) -> SharedWrite:
    """admin (Lock comments on posts) locks member's reply to its shared plain comment (:func:`comment_of`, else a
    comment on :func:`shared_answer`) that admin then sends to moderation (:func:`sent_to_mod_by`), once per run: the
    action matrix's lock of a comment, the node of its send to moderation of a locked node. One accepted write."""
    # paths18: the reply right after member's shared to_moderators comment (plain_after_private.member_reply)
    posted = plain_after_private.reply_after_private(request)
    node = expect_created(posted, "SHAPE-POST-COMMENT", "member could not post the comment to lock and send to "
                                                        "moderation")
    prompt = f"{MATRIX_LOCK_PROMPT} [{run_tag}]"
    resp = _shared(request, profile, "lock of a comment by admin", lambda: one_shots.act(  # paths17: options
        api["admin"], request.config, "lockNode", "admin's of a comment", node, prompt))
    return SharedWrite(resp, prompt, node)


@pytest.fixture(scope="session")
def locked_comment_parent(request: pytest.FixtureRequest) -> str:
    """locks25 (issue 44): who wrote the parent of :func:`locked_comment`'s reply as the run placed it (member, or
    admin on the seeds drawing "the locker's own comment": plain_after_private.reply_parent), so the action matrix
    judges admin's lock and send of it under the relation admin holds there."""
    return plain_after_private.reply_parent(request)[1]


@pytest.fixture(scope="session")
def moderated_comment(request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                      created: Any, profile: Profile) -> SharedWrite:
    """moderator sends a new plain comment of novice's (under :func:`shared_answer`) to moderation, once per run: the
    action matrix's moderation of a comment. A comment of its own: moderation takes it out of other callers' lists,
    which the shared comments must stay in. Two accepted writes: the matrix draws it only with no write budget
    (suites/contract/action_cases.py THOROUGH_ONLY)."""
    shared_answer = _answer_id(request, api, question_id, run_tag, created, profile)
    posted = _shared(request, profile, "comment to send to moderation", lambda: post_comment(
        api["novice"], shared_answer, run_tag, created, text="comment the action matrix sends to moderation"))
    node = expect_created(posted, "SHAPE-POST-COMMENT", "novice could not post the comment the action matrix sends "
                          "to moderation")
    resp = _shared(request, profile, "sendToMod of a comment by moderator", lambda: one_shots.act(  # paths17
        api["moderator"], request.config, "sendToModeration", "moderator's of a comment", node))
    return SharedWrite(resp, "", node)


# ------------------------------------------------------------------------------------- relations (issue 44)
@pytest.fixture(scope="session")
def novices_question_id(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                        user_ids: dict[str, int]) -> int:
    """:func:`novices_question`, found once per run (found_nodes.found_once), or a skip saying why not judged."""
    return question_or_skip("novice", found_once(request, api, profile, user_ids, novices_question))


@pytest.fixture(scope="session")
def members_question_id(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile,
                        user_ids: dict[str, int]) -> int:
    """:func:`members_question`, found once per run (found_nodes.found_once), or a skip saying why not judged."""
    return question_or_skip("member", found_once(request, api, profile, user_ids, members_question))


@pytest.fixture(scope="session")
def answer_under_members_question(request: pytest.FixtureRequest, api: dict[str, ApiClient], run_tag: str,
                                  created: Any, profile: Profile, members_question_id: int) -> SharedWrite:
    """moderator answers a question member wrote (:func:`members_question`), once per run: the node on which member
    is the author of the parent and the question and not of the node, and moderator of the node. The run writes
    answers and comments but no question, so without it a server that takes "own" from the question's author is
    never met. One accepted write; every call the action matrix makes on it that changes it is refused (member's,
    novice's, anonymous') or none (moderator's and admin's unfavorite and unwikify of a node that is neither)."""
    resp = placed_forms.placed(request, profile, "answer_under_members_question", "answer under a question of "
                               "member's", lambda form: post_answer_in(  # forms9 (issue 44): a drawn form
        api["moderator"], members_question_id, run_tag, created, "answer to a question member wrote", form))
    return SharedWrite(resp, "", members_question_id)
