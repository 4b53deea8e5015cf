"""The action matrix's nodes and calls (moved out of test_action_matrix.py by combos2, issue 44, so the comment
refusal matrix reaches the same pool): the pool's nodes on this target, got on first use from the run's shared
writes (suites/conftest.py), one call per combination, and the check that the target's fixture and locked questions
put the caller in the relation a combination needs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

import pytest
from action_cases import (
    ASSUMED_LOCKED_QUESTION_AUTHOR,
    ASSUMED_QUESTION_AUTHOR,
    LOCK,
    LOCKED,
    LOCKED_QUESTION_AUTHOR,
    MODERATED,
    POOL,
    QUESTION_AUTHOR,
    REUSED_NODES,
    SEND,
    UNDER_DRAWN_PARENT,
    Case,
    PoolNode,
    built_node,
    fits,
    node_for,
    relations,
    written_key,
)
from action_options import OptionCase
from locked_question_node import answer_under_locked_question, locked_question_author
from unwikified_node import locked_after_unwikify, sent_after_unwikify, sent_before_unwikify, unwikified_node

from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.support import (
    MARKUP_TEXT,
    answer_posted,
    expect_created,
    find_listed,
    new_id,
    post_answer,
    post_comment,
)
from qaconform.target.client import ApiClient, ApiResponse

LOCKERS = {"answer_of:member": "member", "answer_of:admin": "moderator"}
"""Who locks each locked shared answer (suites/conftest.py LOCKS, read the other way; admin's lock acts on the answer
it sent to moderation since round34, suites/conftest.py ``LOCK_AFTER_OWN_SEND``)."""
POOL_BY_KEY = {n.key: n for n in POOL}
QUESTION_PAGES = 10
"""Pages of an account's question list read to learn whether it wrote the fixture question (bounded)."""


def no_budget(config: pytest.Config) -> bool:
    """True when the run has no write budget (``--thorough``, ``--write-budget unlimited``): then the combinations
    whose allowed call changes a node built for it are drawn too."""
    given = str(config.getoption("qc_write_budget", None) or "").strip().lower()
    return bool(config.getoption("qc_thorough", False)) or given == "unlimited"


class Placed(Protocol):
    """What :meth:`Scene.relation_holds` reads of a combination: a node action's or a refused comment's."""

    @property
    def role(self) -> str: ...

    @property
    def relation(self) -> str: ...

    @property
    def label(self) -> str: ...


# --- the nodes and the calls ------------------------------------------------------------------------------------

class Scene:
    """The pool's nodes on this target, got on first use from the run's shared writes (suites/conftest.py), and one
    call per combination (``acted``)."""

    def __init__(self, request: pytest.FixtureRequest, api: dict[str, ApiClient], question_id: int, run_tag: str,
                 created: Any, user_ids: dict[str, int]) -> None:
        self.request = request
        self.api = api
        self.question_id = question_id
        self.run_tag = run_tag
        self.created = created
        self.user_ids = user_ids
        self.acted: dict[tuple[str, ...], tuple[ApiResponse, int, str]] = {}
        self._question_author: str | None = None
        self._locked_author: str | None = None

    def fixture(self, name: str) -> Any:
        return self.request.getfixturevalue(name)

    def node(self, key: str) -> int:
        """The id of pool node ``key``, in its state (a locked answer: the run's shared lock of it made first)."""
        key = written_key(key)  # locks25: both placements of the locked comment are one node
        if key == "question":
            return self.question_id
        if key == "shared_answer":
            return int(self.fixture("shared_answer"))
        if key in ("members_question", "novices_question"):  # found with reads: only refused calls are drawn on them
            return int(self.fixture(f"{key}_id"))
        if key == "unwikified:member":  # member's one-shot wiki question once member unwikified it (fix30, issue 44)
            return unwikified_node(self.request, self.api, self.fixture("profile"), self.user_ids)
        if key == "answer_under:locked_question":  # an answer whose question is locked (combos, issue 44)
            return answer_under_locked_question(self.request, self.fixture("profile"), POOL_BY_KEY[key])
        kind, _, role = key.partition(":")
        if kind == "answer_of":
            if key in LOCKERS:
                self.fixture("locked_by")(LOCKERS[key])
            posted = self.fixture("answer_of")(role).resp
            if role == "novice":  # no Publish answer: "Answer is created", status not given
                if not 200 <= posted.status < 300:
                    fail(["ANSWER-MODERATION"], "novice could not post an answer to act on (expected a 2xx)", posted)
                return new_id(posted)
            return answer_posted(posted, "for the action matrix")
        if kind == "sent_to_mod":
            return int(self.fixture("sent_to_mod_by")(role).node)
        if kind == "answer_under":  # moderator's answer to a question member wrote (found with reads)
            posted = self.fixture("answer_under_members_question").resp
            if 400 <= posted.status < 500:  # a state of that question no read shows (a lock): not the rule's
                skip(SkipKind.OTHER, f"not judged: moderator could not answer the question member wrote "
                                     f"({posted.status}), so no node stands to member as its question's author")
            return answer_posted(posted, "to a question member wrote, for the action matrix")
        if kind == "comment_of":
            return expect_created(self.fixture("comment_of")(role).resp, "SHAPE-POST-COMMENT",
                                  f"{role} could not post the plain comment the action matrix acts on")
        return int(self.fixture(key).node)  # locked_comment, moderated_comment

    def question_author(self) -> str:
        """The fixture question's author as far as the relations need it: novice, member, or ``?`` (another
        account), read once from their question lists (bounded)."""
        if self._question_author is None:
            self._question_author = "?"
            for role in (ASSUMED_QUESTION_AUTHOR, "member"):
                uid = self.user_ids.get(role)
                listed = None if uid is None else find_listed(
                    self.api["admin"], contract_path("listUserQuestions", userId=uid), self.question_id,
                    page_size=100, max_pages=QUESTION_PAGES)
                if listed is not None:
                    self._question_author = role
                    break
        return self._question_author

    def relation_holds(self, node: PoolNode, case: Placed) -> None:
        """Skip the case when the target's fixture question, which the pool takes to be novice's, puts the caller in
        another relation to ``node`` than the case needs (its author is read from the accounts' question lists);
        the same for the locked question's author; and when the run's seed placed the locked comment under another
        parent than the pool node says (locks25: :data:`action_cases.UNDER_DRAWN_PARENT`), the relation it gives."""
        if node.key in UNDER_DRAWN_PARENT:
            placed = replace(node, parent_author=self.fixture("locked_comment_parent"))
            if not fits(placed, case.role, case.relation):
                skip(SkipKind.OTHER, f"not judged at this seed: member's reply that admin locks and sends to "
                     f"moderation went under {placed.parent_author}'s shared comment (seed_draws 'locked comment "
                     f"parent'), so {case.role} stands to it as {sorted(relations(placed, case.role))[0]}, not "
                     f"{case.relation}; the cell of that relation judges it")
        if LOCKED_QUESTION_AUTHOR in (node.parent_author, node.question_author):
            if self._locked_author is None:
                self._locked_author = locked_question_author(self.api, self.user_ids, self.fixture("profile"))
            if (self._locked_author != ASSUMED_LOCKED_QUESTION_AUTHOR
                    and not fits(node, case.role, case.relation, locked_author=self._locked_author)):
                skip(SkipKind.OTHER, f"not judged: on this target the locked question's author is "
                     f"{self._locked_author}, so {case.role} does not stand to {node.key} as {case.label} needs")
        if QUESTION_AUTHOR not in (node.author, node.parent_author, node.question_author):
            return
        actual = self.question_author()
        if actual != ASSUMED_QUESTION_AUTHOR and not fits(node, case.role, case.relation, actual):
            skip(SkipKind.OTHER, f"not judged: on this target the fixture question's author is {actual}, so "
                 f"{case.role} does not stand to {node.key} as {case.label} needs ({case.relation})")

    def reused(self, case: Case) -> tuple[ApiResponse, int, str]:
        """The shared write a combination reads: its response, the node acted on, the prompt sent."""
        key = case.reused or ""
        self.relation_holds(REUSED_NODES[key], case)
        if key == "sent_after_unwikify":  # fix30 (issue 44): a send after the state change unwikify
            if sent_before_unwikify(self.request):  # wiki20: the seed drew the send while the node was wiki
                skip(SkipKind.OTHER, "not judged in this state: the run's seed drew admin's send of "
                     "member_wiki_node_id BEFORE member's unwikify (seed_draws.MEMBER_WIKI_SENDS), so the send "
                     "was of a wiki node, not of one unwikified; test_followed_node_send.py judges its record")
            resp, node = sent_after_unwikify(self.request, self.api, self.fixture("profile"), self.user_ids)
            return resp, node, ""
        if key == "locked_after_unwikify":  # accept24: a lock after the unwikify and another account's send
            return locked_after_unwikify(self.request, self.api, self.fixture("profile"), self.user_ids, self.prompt)
        kind, _, role = key.partition(":")
        shared = self.fixture("locked_by")(role) if kind == "locked_by" else \
            self.fixture("sent_to_mod_by")(role) if kind == "sent_to_mod" else self.fixture(key)
        return shared.resp, int(shared.node), shared.text

    def built(self, case: Case) -> int:
        """A node built for an allowed change (no write budget): an answer to the fixture question or a comment
        under the shared answer, by the caller for its own node, else by member (action_cases.built_node), put in the
        case's state by another account with the permission."""
        built = built_node(case.kind, case.role, case.relation)
        assert built is not None, f"{case.label} was drawn without a node to build (action_cases.admissible)"
        self.relation_holds(built, case)
        writer = self.api[built.author]
        if case.kind == "answer":
            node = answer_posted(post_answer(writer, self.question_id, self.run_tag, self.created,
                                             text="built for the action matrix"), "for the action matrix")
        else:
            node = expect_created(post_comment(writer, int(self.fixture("shared_answer")), self.run_tag, self.created,
                                               text="built for the action matrix"), "SHAPE-POST-COMMENT",
                                  f"{built.author} could not post a comment for the action matrix")
        other = "moderator" if case.role == "admin" else "admin"  # never the caller: it changes the node after
        if case.state == LOCKED:
            resp = self.call(LOCK, other, node)
            if resp.status != 200:
                fail(["PERM-LOCK"], f"{other} could not lock the node built for {case.label}", resp)
        elif case.state == MODERATED:
            resp = self.call(SEND, other, node)
            if resp.status != 200:
                fail(["PERM-SENDTOMOD"], f"{other} could not send the node built for {case.label} to moderation", resp)
        return node

    def call(self, action: str, role: str, node: int, option: str | None = None) -> ApiResponse:
        params = {"prompt": self.prompt} if action == LOCK else {}
        if option is not None:
            params[option] = "true"
        return self.api[role].put(contract_path(action, nodeId=node), params=params or None, operation=action)

    @property
    def prompt(self) -> str:
        return f"action matrix lock: {MARKUP_TEXT} [{self.run_tag}]"  # round14 (issue 44): extra is plain text

    def act(self, case: Case) -> tuple[ApiResponse, int, str]:
        """The combination's response, the node it acted on and the prompt it sent (one call per combination)."""
        key = (case.label,)
        if key in self.acted:
            return self.acted[key]
        if case.reused is not None:
            self.acted[key] = self.reused(case)
            return self.acted[key]
        if case.changes_node:
            node = self.built(case)
        else:
            pool = node_for(case.action, case.kind, case.state, case.role, case.relation,
                            no_budget(self.request.config))
            assert pool is not None, f"{case.label} was drawn without a node to act on (action_cases.admissible)"
            self.relation_holds(pool, case)
            node = self.node(pool.key)
        self.acted[key] = (self.call(case.action, case.role, node), node, self.prompt)
        return self.acted[key]

    def act_with(self, given: OptionCase) -> ApiResponse:
        """A combination that changes nothing, on its pool node, with the option given."""
        case = given.case
        pool = node_for(case.action, case.kind, case.state, case.role, case.relation, no_budget(self.request.config))
        assert pool is not None, f"{case.label} was drawn without a node to act on (action_cases.admissible)"
        self.relation_holds(pool, case)
        return self.call(case.action, case.role, self.node(pool.key), given.option)
