"""How the permission suite calls each line of the permission table, and how it tells that a refusal changed nothing.

test_permissions.py holds the tests; permission_matrix.py the table as data. Here: the scene a run's cells share (the
accounts, the nodes they act on, the nodes a refused-yet-changed cell spent), one way to call each operation
(:data:`OPS`, on the caller's own node or another's), and the checks a refused call leaves behind (nothing changed,
nothing created).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import pytest
from refused_ledger import Ledger

from qaconform.contract import path
from qaconform.pytest import one_shots
from qaconform.pytest.outcomes import expect
from qaconform.pytest.refusals import off_the_interface
from qaconform.pytest.support import (
    answer_posted,
    body_holds,
    find_listed,
    list_all,
    new_id,
    post_answer,
    post_comment,
    present,
    wire_value,
)
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile
from qaconform.target.writes import SUITES

NO_EFFECT = "PERM-DENIED-NO-EFFECT"
DENIED_BODY = "PERM-DENIED-BODY"
DENIED_STATUS = "PERM-DENIED-STATUS"
"""The rules of a denial's form and effect, which every denied cell checks beside its line's own."""


class Scene:
    """The nodes the cells act on, created on first use (a read-only cell creates nothing)."""

    def __init__(self, api: dict[str, ApiClient], profile: Profile, question_id: int, run_tag: str, created: Any,
                 user_ids: dict[str, int], shared: dict[str, Callable[..., Any]]) -> None:
        self.api = api
        self.shared = shared
        """The run's shared writes by kind (suites/conftest.py): answer, comment, lock, sendToMod."""
        self.profile = profile
        self.question_id = question_id
        self.run_tag = run_tag
        self.created = created
        self.user_ids = user_ids

    def answer_by(self, role: str, text: str) -> int:
        resp = post_answer(self.api[role], self.question_id, self.run_tag, self.created, text=text)
        node = answer_posted(resp, "for the permission matrix")
        self.authors[node] = role
        return node

    def shared_answer(self, role: str, text: str) -> int:
        """:meth:`answer_by` for an answer several cells act on (:attr:`member_answer`, :attr:`admin_answer`,
        :attr:`moderator_answer` and their renewals): charged to the suites' share whichever test asks first. An
        observation cell (test_what_denials_outside_the_group_and_expert_lists_carry acts on moderator's) asking
        first charged it to the observations' share, so what a run spent depended on test order; a narrowed run
        now charges the same."""
        budget = ApiClient.write_budget
        with budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext():
            return self.answer_by(role, text)

    @cached_property
    def spent(self) -> set[int]:
        """Shared answers a call was let in on, or that a refused call changed anyway (a denied caller's lock or
        moderation the target wrongly carried out): no later cell acts on them, so that one wrong answer of the target
        cannot change what the next cell sees."""
        return set()

    @cached_property
    def refused(self) -> Ledger:
        """noeffect (issue 44): every refused call of the module, judged after the last cell (refused_ledger.py)."""
        return Ledger()

    @cached_property
    def authors(self) -> dict[int, str]:
        """Answer id -> the role that posted it, for reading it back in its author's answer list."""
        return {}

    @cached_property
    def member_answer(self) -> int:
        """member's answer: comments go under it; unfavorite/cancelwiki act on it (not a favorite, not wiki).
        trade12 (issue 44): the run's shared answer of member's under the fixture question (suites/conftest.py
        ``shared_answer``, made anyway: the shared comments hang under it) when the scene was given it, one accepted
        write less (the write saved pays for the privacy model's private comment on its locked answer,
        suites/properties/locked_parent_post.py). Every call on it here is refused on a conforming target, so nothing
        lands under it; a comment a faulty target lets in lands beside the shared comments, which other suites read
        too (they then fail as well: blame spread, no catch lost)."""
        shared = self.shared.get("memberAnswer")
        if shared is None:
            return self.shared_answer("member", "permission matrix: member's answer")
        node = int(shared())
        self.authors[node] = "member"
        return node

    @cached_property
    def admin_answer(self) -> int:
        """admin's answer: "another's node" for member's own-node cells; the run's shared one (suites/conftest.py
        ``others_answer``, which test_node_actions.py's refused lock acts on too) when the scene was given it."""
        shared = self.shared.get("othersAnswer")
        if shared is None:
            return self.shared_answer("admin", "permission matrix: admin's answer")
        node = int(shared())
        self.authors[node] = "admin"
        return node

    @cached_property
    def moderator_answer(self) -> int:
        """moderator's answer: the node denied callers try to unfavorite or unwikify. budget9 (issue 44): the run's
        shared answer of moderator's under a question member wrote (suites/conftest.py
        ``answer_under_members_question``, which the action matrix acts on with refused calls only) when the scene
        was given it and the target created it: one accepted write where there were two (the write saved pays for
        member's comment on the wiki question, one_shot_calls.py ``wiki_refusals``); else one of its own."""
        shared = self.shared.get("deniedAnswer")
        posted = None
        if shared is not None:
            with contextlib.suppress(pytest.skip.Exception):  # no question member wrote: one of its own
                posted = shared().resp
        if posted is None or posted.status != 201:
            return self.shared_answer("moderator", "permission matrix: moderator's answer")
        node = answer_posted(posted, "to a question member wrote, for the permission matrix")
        self.authors[node] = "moderator"
        self.borrowed.add(node)
        return node

    @cached_property
    def borrowed(self) -> set[int]:
        """Nodes another suite wrote and acts on too (:attr:`moderator_answer`): a call of that suite wrongly let in
        (a lock or a moderation by a caller the table refuses) may have moved it, which only a faulty target does;
        a cell that judges a refusal by its effect first reads that the node is still listed, else it acts on one
        of the scene's own (:func:`_put`), so that the other suite's catch is not charged here as well."""
        return set()

    def comment_parents(self) -> dict[str, int]:
        """The other kinds of node a comment is posted to ("nodeId: the question, answer or comment being commented
        on"), for the refused comment cells: the fixture question and member's shared plain comment (suites/conftest.py
        ``comment_of``, made anyway; left out when the target did not create it)."""
        parents = {"question": self.question_id}
        posted = self.shared["postComment"]("member").resp
        if 200 <= posted.status < 300:
            with contextlib.suppress(AssertionError):
                parents["comment"] = new_id(posted)
        return parents

    def node_for(self, target: str, fresh: bool) -> int:
        """The node a cell acts on. ``other`` and ``denied`` (a call the table refuses): the shared answer, a new one
        only once a call was let in on it (:attr:`spent`). ``fresh`` (a call that consumes its node, allowed):
        a new answer of member's each time."""
        if target == "other":
            if self.admin_answer in self.spent:
                self.__dict__["admin_answer"] = self.shared_answer("admin", "permission matrix: another's node")
            return self.admin_answer
        if target == "denied":
            if self.moderator_answer in self.spent:
                self.__dict__["moderator_answer"] = self.shared_answer(
                    "moderator", "permission matrix: node a denied caller acts on")
            return self.moderator_answer
        if not fresh:
            return self.member_answer
        return self.answer_by("member", "permission matrix: node to act on")


SHARED_CALLERS = {"postAnswer": ("admin", "moderator", "member", "novice"),
                  "postComment": ("admin", "moderator", "member", "novice"),
                  "lockNode": ("admin", "moderator", "member"), "sendToModeration": ("admin", "moderator")}
"""Callers whose allowed call of an operation is the run's shared write (suites/conftest.py): the same request the
cell would send (a plain answer, a plain comment, a lock of another's answer or, member, of its own, a send to
moderation of a new answer)."""


def on_own_node(scene: Scene, operation: str, client: ApiClient) -> dict[str, Attempt]:
    """trade (issue 44): an allowed call again on a node the caller wrote, where the run makes one (the shared
    comment of suites/conftest.py ``comment_on_own_node``): the table grants it whoever wrote the node, so an "own
    posts" right the description does not have refuses it. By the kind of node; empty for the others."""
    get = scene.shared.get("ownNodeComment")
    if operation != "postComment" or get is None:
        return {}
    posted = get(client.role)
    return {} if posted is None else {"question the caller wrote": Attempt(posted.resp)}


OTHER_AUTHOR_TARGETS = {"cancelWiki": {"moderator": "other", "admin": "denied"}}
"""round72 (issue 44): the allowed cells of an operation whose permission has no author clause for the callers who
hold it (Mark as community wiki), and the node written by ANOTHER holder each one's call is tried on again: moderator
on admin's answer (``other``), admin on moderator's (``denied``). The seed draws which of the two unwikifies the
one-shot wiki node (seed_draws ``unwikifier``); the other's cell acted on member's answer only, so a refusal decided
by the node author's role (a moderator refused on an administrator's node) was met at half of the seeds. The nodes
are not wiki: the call is answered by the node's state (no accepted write), and only a permission refusal fails."""


def on_others_node(scene: Scene, operation: str, client: ApiClient) -> dict[str, Attempt]:
    """round72 (issue 44): an allowed call again on a node another holder of the permission wrote
    (:data:`OTHER_AUTHOR_TARGETS`), by who wrote it; empty for the other operations and callers."""
    target = OTHER_AUTHOR_TARGETS.get(operation, {}).get(client.role)
    if target is None:
        return {}
    return {f"answer {'admin' if target == 'other' else 'moderator'} wrote": OPS[operation].call(client, scene, target)}


def shared_write(scene: Scene, operation: str, client: ApiClient, target: str) -> Attempt | None:
    """The run's shared write for an allowed (``any``) or own-node call, else None (the cell sends its own)."""
    if target not in ("any", "own") or client.role not in SHARED_CALLERS.get(operation, ()):
        return None
    return Attempt(scene.shared[operation](client.role).resp)


def refused_other(operation: str, client: ApiClient, scene: Scene) -> Attempt:
    """trades20 (issue 44): an own-node cell's call on another's node (admin's shared answer), which the table
    refuses: a refusal, sent as a probe into the refusals' share once the suites' share is spent (it held
    cancelWiki-member-own and lockNode-member-own back as "write budget spent"; refused, it costs nothing)."""
    budget = ApiClient.write_budget
    with budget.as_refusals() if budget is not None else contextlib.nullcontext():
        return OPS[operation].call(client, scene, "other")


@dataclass
class Attempt:
    """A request made for a cell, and how to tell that a refused one changed nothing."""

    resp: ApiResponse
    no_effect: Callable[[], None] | None = None
    state_unmet: bool = False
    """The node's state would refuse the request whoever asks (not the caller's favorite, not wiki)."""


def node_snapshot(scene: Scene, node: int, just_posted: bool = False) -> tuple[bool, Any]:
    """What the interface shows of an answer to novice (no moderation rights): listed?, nodeStates.

    A lock has no documented field (nodeStates shows closed and accepted; "only the user who locked it can edit it"
    needs an edit operation the interface lacks): a refused lock can be shown to change nothing only where it would
    change these; moderation takes the answer out of novice's view. ``just_posted``: the list is read again within
    the settle window until the answer shows (a list may lag writes)."""
    author = scene.authors[node]
    item = find_listed(scene.api["novice"], path("listUserAnswers", userId=scene.user_ids[author]), node,
                       until=present if just_posted else None)
    if item is None:
        return False, None
    scene.refused.seen_listed.add(int(node))
    return True, item.get("nodeStates")


def unchanged(scene: Scene, node: int, what: str) -> Callable[[], None]:
    before = node_snapshot(scene, node, just_posted=True)
    expect(before[0], "ANSWER-PUBLISHED",
           f"answer {node} was just published, so novice must see it in its author's answer list before the {what} "
           "attempt")

    def check() -> None:
        after = node_snapshot(scene, node)
        if after != before:
            scene.spent.add(node)  # refused, yet changed: the next cell acts on a new node
        expect(after == before, NO_EFFECT,
               f"a refused {what} must change nothing, yet answer {node} as novice sees it went from (listed, "
               f"nodeStates) {before} to {after}")

    return check


def comment_absent(scene: Scene, client: ApiClient, marker: str) -> Callable[[], None]:
    def check() -> None:
        readers = [scene.api["admin"], scene.api["member"]]
        if client.role in ("moderator", "novice"):
            readers.append(client)
        for reader in readers:
            items = list_all(reader, path("listAnswerComments", answerId=scene.member_answer))
            hits = [i.get("id") for i in items if body_holds(i.get("body"), marker)]
            expect(not hits, NO_EFFECT,
                   f"a refused comment must not be created, yet {reader.role} lists it: ids {hits}")

    return check


def _comment(option: str | None) -> Callable[[ApiClient, Scene, str], Attempt]:
    def call(client: ApiClient, scene: Scene, target: str) -> Attempt:
        if option is None:
            shared = shared_write(scene, "postComment", client, target)
            if shared is not None:
                return shared
        elif target == "any" and client.role in ("admin", "moderator", "member"):
            # allowed: the run's shared comment of this account with this option (suites/conftest.py)
            return Attempt(scene.shared["privateComment"](client.role, option).resp)
        value = wire_value(scene.profile, option) if option else None
        marker = f"matrix {option or 'full'} {uuid.uuid4().hex[:10]}"
        resp = post_comment(client, scene.member_answer, scene.run_tag, scene.created, text=marker,
                            visibility=value)
        scene.refused.note(resp, "postComment", client.role, scene.member_answer, "answer", "JSON", marker)
        return Attempt(resp, comment_absent(scene, client, marker))

    return call


def _comment_elsewhere(option: str | None) -> Callable[[ApiClient, Scene], dict[str, Attempt]]:
    """A refused comment cell's call on every other kind of parent (blindp, issue 44): a permission checked on the
    path that comments a post only lets a reply in. A refusal writes nothing; that it created nothing is judged on
    the answer's comment list, the one list a comment shows in (the status is judged here)."""
    def call(client: ApiClient, scene: Scene) -> dict[str, Attempt]:
        value = wire_value(scene.profile, option) if option else None
        out = {}
        for kind, parent in scene.comment_parents().items():
            text = f"matrix {option or 'full'} on a {kind} {uuid.uuid4().hex[:10]}"
            resp = post_comment(client, parent, scene.run_tag, scene.created, text=text, visibility=value)
            scene.refused.note(resp, "postComment", client.role, parent, kind, "JSON", text)  # noeffect: judged late
            out[kind] = Attempt(resp)
        return out

    return call


REFUSAL_FORMS = {"query": "its fields as query parameters", "form": "its fields form-encoded"}
"""The stated forms beside JSON that a refused comment or answer is sent in again (blind8, issue 44: "every write in
every stated form ... on success paths as well as refusals"; "each body field may also be given as a request or query
parameter"): a server whose permission check answers a browser's form post, or a request carrying its fields as
parameters, another way than a JSON one (a redirect to a login page) passes every test that sends JSON."""


def _in_form(client: ApiClient, scene: Scene, operation: str, node: dict[str, int], fields: dict[str, str],
             form: str, text: str) -> Attempt:
    """``fields`` (scalars) POSTed to ``operation`` as query parameters or as a form-encoded body; what a target that
    wrongly took it created is registered as the run's; a refusal is noted with ``text`` (its unique body)."""
    kw: dict[str, Any] = {"params": fields} if form == "query" else {"data": fields}
    resp = client.post(path(operation, **node), operation=operation, **kw)
    (key, parent), = node.items()
    scene.refused.note(resp, operation, client.role, parent, "question" if key == "questionId" else "answer",
                       REFUSAL_FORMS[form], text)
    if 200 <= resp.status < 300:
        with contextlib.suppress(AssertionError, ValueError, KeyError, TypeError):
            scene.created.add("comment" if operation == "postComment" else "answer", new_id(resp), client.role)
    return Attempt(resp)


def _refused_in_forms(operation: str, option: str | None = None) -> Callable[[ApiClient, Scene], dict[str, Attempt]]:
    """A refused comment (with ``option``'s visibility) or answer cell's call again in each of :data:`REFUSAL_FORMS`,
    on the node the cell's own call uses (member's answer, the fixture question)."""
    def call(client: ApiClient, scene: Scene) -> dict[str, Attempt]:
        out: dict[str, Attempt] = {}
        for form, how in REFUSAL_FORMS.items():
            text = f"matrix {option or 'full'} {how} {uuid.uuid4().hex[:10]} [{scene.run_tag}]"
            if operation == "postAnswer":
                out[f"question, {how}"] = _in_form(client, scene, operation, {"questionId": scene.question_id},
                                                   {"body": f"<p>{text}</p>"}, form, text)
                continue
            fields = {"body": text}
            if option is not None:
                fields["visibility"] = str(wire_value(scene.profile, option))
            out[f"answer, {how}"] = _in_form(client, scene, operation, {"nodeId": scene.member_answer}, fields, form,
                                             text)
        return out

    return call


def _comment_or_forms(option: str | None) -> Callable[[ApiClient, Scene], dict[str, Attempt]]:
    """:func:`_comment_elsewhere` and :func:`_refused_in_forms` of a comment cell, one after the other."""
    kinds, forms = _comment_elsewhere(option), _refused_in_forms("postComment", option)
    return lambda client, scene: {**kinds(client, scene), **forms(client, scene)}


redirected_off_the_interface = off_the_interface
"""Whether the answer came from outside the interface (the one judge: qaconform/pytest/refusals.py)."""


_READS: set[Callable[[ApiClient, Scene, str], Attempt]] = set()
"""The calls made by :func:`_get`: one read each, whoever asks and whatever the target (:func:`is_read`)."""


def _get(operation: str, ids: Callable[[Scene], dict[str, Any]] = lambda s: {},
         **params: Any) -> Callable[[ApiClient, Scene, str], Attempt]:
    """A read of ``operation`` with the scene's ids in its path (``contract.path``)."""
    def call(client: ApiClient, scene: Scene, target: str) -> Attempt:
        return Attempt(client.get(path(operation, **ids(scene)), params=params or None, operation=operation))

    _READS.add(call)
    return call


def is_read(key: str) -> bool:
    """Whether the line ``key`` is called with one GET that writes nothing and is the same for ``any`` and
    ``denied`` (test_permissions.py reads those cells ahead, a few at once: speed3, issue 44)."""
    return OPS[key].call in _READS


def _schedule_nothing(client: ApiClient, scene: Scene, target: str) -> Attempt:
    # A bulk job without csvFileId is refused by the description (400): it schedules nothing whoever calls.
    body = {"type": "bulk", "operations": ["suspend"]}
    return Attempt(client.post(path("scheduleGdprJob"), json=body, operation="scheduleGdprJob"))


def _answer(client: ApiClient, scene: Scene, target: str) -> Attempt:
    shared = shared_write(scene, "postAnswer", client, target)
    if shared is not None:
        return shared
    marker = f"permission matrix {uuid.uuid4().hex[:10]}"
    resp = post_answer(client, scene.question_id, scene.run_tag, scene.created, text=marker)
    scene.refused.note(resp, "postAnswer", client.role, scene.question_id, "question", "JSON", marker)
    if client.role != "wrong_password":
        return Attempt(resp)

    def check() -> None:
        # a wrong password names member: a refused answer must not appear among member's answers
        items = list_all(scene.api["member"], path("listUserAnswers", userId=scene.user_ids["member"]), page_size=100,
                         max_pages=5)
        hits = [i.get("id") for i in items if body_holds(i.get("body"), marker)]
        expect(not hits, NO_EFFECT, "an answer refused for a wrong password must not be created, yet member's answer "
                                    f"list holds it: ids {hits}")

    return Attempt(resp, check)


def _put(operation: str, fresh: bool, check_effect: bool,
         params: dict[str, str] | None = None, state: bool = False) -> Callable[[ApiClient, Scene, str], Attempt]:
    """``state``: the operation has a state precondition (favorite, wiki) the matrix's answers do not meet."""
    def call(client: ApiClient, scene: Scene, target: str) -> Attempt:
        shared = shared_write(scene, operation, client, target)
        if shared is not None:
            return shared
        node = scene.node_for(target, fresh)
        if check_effect and node in scene.borrowed and not node_snapshot(scene, node)[0]:
            scene.spent.add(node)  # moved by another suite's call let in: act on one of the scene's own
            node = scene.node_for(target, fresh)
        check = unchanged(scene, node, f"{operation} by {client.role}") if check_effect and target in (
            "other", "denied") else None
        resp = client.put(path(operation, nodeId=node), params=params, operation=operation)
        if target in ("other", "denied"):
            scene.refused.note(resp, operation, client.role, node, "answer", f"on {target}'s answer")
        if target in ("other", "denied") and 200 <= resp.status < 300:
            scene.spent.add(node)  # let in: the next cell acts on a new node
        return Attempt(resp, check, state_unmet=state)

    return call


def _put_options(operation: str, params: dict[str, str] | None = None,
                 state: bool = False) -> Callable[[ApiClient, Scene], dict[str, Attempt]]:
    """A refused PUT again with each of the options "accepted by most endpoints" (wrap, v1; their effect is not
    shown, so none of them can let a caller in), on the node the denied call acts on (blind7, issue 44: a
    compatibility route that skips the permission filter for one option). round60 (issue 44): both options on every
    PUT, not only those its own section names (lock names wrap alone): "Every operation requires the permissions
    below" whatever the request carries, and a v1 route of lock or unwikify that skipped the permission went unseen.
    A refusal changes nothing; one let in spends its node (the next cell acts on a new one)."""
    def call(client: ApiClient, scene: Scene) -> dict[str, Attempt]:
        out: dict[str, Attempt] = {}
        for option in one_shots.COMMON_OPTIONS:
            node = scene.node_for("denied", False)
            resp = client.put(path(operation, nodeId=node), params=(params or {}) | {option: "true"},
                              operation=operation)
            scene.refused.note(resp, operation, client.role, node, "answer", f"{option}=true")
            if 200 <= resp.status < 300:
                scene.spent.add(node)
            out[f"{option}=true"] = Attempt(resp, state_unmet=state)
        return out

    return call


def _answer_options(client: ApiClient, scene: Scene) -> dict[str, Attempt]:
    """A refused answer again with each option postAnswer states ("Option wrap": its effect not shown, so it cannot
    let a caller in; crossing10, issue 44: the run's only request with postAnswer's wrap). Nothing is written on a
    conforming target; an answer let in is registered as created."""
    out: dict[str, Attempt] = {}
    for option in stated_options("postAnswer"):
        text = f"permission matrix {option} {uuid.uuid4().hex[:10]}"
        resp = post_answer(client, scene.question_id, scene.run_tag, scene.created, text=text, **{option: "true"})
        scene.refused.note(resp, "postAnswer", client.role, scene.question_id, "question", f"{option}=true", text)
        out[f"{option}=true"] = Attempt(resp)
    return out


def stated_options(operation: str) -> tuple[str, ...]:
    """The options wrap and v1 among the query parameters spec/openapi.yaml states for ``operation``."""
    from qaconform.contract import load_contract
    return tuple(p.name for p in load_contract().operation(operation).parameters if p.name in ("wrap", "v1"))


@dataclass(frozen=True)
class Op:
    call: Callable[[ApiClient, Scene, str], Attempt]
    precondition: bool = False
    """True when an allowed call may still meet a state precondition (any status but 401/403 and 5xx passes)."""
    elsewhere: Callable[[ApiClient, Scene], dict[str, Attempt]] | None = None
    """The refused call again on each other kind of node the operation takes, and in each other stated input form
    (comments, answers), by kind (a denied cell judges each)."""
    options: Callable[[ApiClient, Scene], dict[str, Attempt]] | None = None
    """The refused call again with each option the operation states, by option (a denied cell judges each)."""


def lock_prompt() -> dict[str, str]:
    return {"prompt": "permission matrix lock"}


OPS: dict[str, Op] = {
    "postComment": Op(_comment(None), elsewhere=_comment_or_forms(None)),
    "postComment-op": Op(_comment("to_original_poster"), elsewhere=_comment_or_forms("to_original_poster")),
    "postComment-mod": Op(_comment("to_moderators"), elsewhere=_comment_or_forms("to_moderators")),
    "postComment-group": Op(_comment("to_own_groups"), elsewhere=_comment_or_forms("to_own_groups")),
    "scheduleGdprJob": Op(_schedule_nothing, precondition=True),
    "listQuestions": Op(_get("listQuestions", pageSize=5)),
    "listUserAnswers": Op(_get("listUserAnswers", lambda s: {"userId": s.user_ids["member"]}, pageSize=5)),
    "listActiveExperts": Op(_get("listActiveExperts", pageSize=5)),
    "listEarnedExperts": Op(_get("listEarnedExperts", pageSize=5)),
    "postAnswer": Op(_answer, elsewhere=_refused_in_forms("postAnswer"),  # blind8 (issue 44): in every form
                     options=_answer_options),  # crossing10 (issue 44): with its stated option
    "listUserContent": Op(_get("listUserContent", lambda s: {"userId": s.user_ids["member"]})),
    "listSpaces": Op(_get("listSpaces", pageSize=5)),
    "unmarkFavorite": Op(_put("unmarkFavorite", False, False, state=True), precondition=True,
                         options=_put_options("unmarkFavorite", state=True)),
    "cancelWiki": Op(_put("cancelWiki", False, False, state=True), precondition=True,
                     options=_put_options("cancelWiki", state=True)),
    "sendToModeration": Op(_put("sendToModeration", True, True), options=_put_options("sendToModeration")),
    "lockNode": Op(_put("lockNode", True, True, params=lock_prompt()), options=_put_options("lockNode", lock_prompt())),
    "listTopics": Op(_get("listTopics", pageSize=5)),
    "listUserQuestions": Op(_get("listUserQuestions", lambda s: {"userId": s.user_ids["member"]}, pageSize=5)),
    "listNodeFollowers": Op(_get("listNodeFollowers", lambda s: {"nodeId": s.question_id})),
    "listGroups": Op(_get("listGroups", pageSize=5)),
    "listAnswerComments": Op(_get("listAnswerComments", lambda s: {"answerId": s.member_answer})),
    "listIssueTypes": Op(_get("listIssueTypes", lambda s: {"tracker": s.profile.fixtures.issue_tracker or "tracker"})),
}
