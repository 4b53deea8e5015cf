"""Task sets per activity (browse, write, moderate, gdpr), each an abstract user class; the profile files in
loadtests/ combine them with a role and a weight.

Every task makes exactly one request, so that in open-model runs (``--rate``) tasks per second are requests
per second. Ids to browse are learnt passively from earlier list answers (question ids, their answers, their
authors), so browsing costs no extra discovery requests; the profile's fixtures seed them.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

from locust import task

from qaconform.contract import envelope, load_contract, path
from qaconform.load.locust_checks import (
    CREATED,
    OK_ARRAY,
    OK_LIST,
    OK_LIST_OR_GONE,
    STATE_CHANGE,
    Expect,
    expect_status,
)
from qaconform.load.write_budget import ONE_SHOT

from . import hooks
from .base import QaUser
from .settings import SETTINGS

FX = SETTINGS.profile.fixtures
VIS = SETTINGS.profile.visibility
_CAP = 500  # ids remembered per kind and process
QUESTION_SORTS = envelope().sorts_seen
EXPERT_SORTS: tuple[str, ...] = load_contract().operation("listActiveExperts").parameter("sort").values
INCLUDE_ONLY = ("id,title", "id,title,author,answerCount", "id,type,creationDate")
PAGE_SIZES = (None, 15, 50)
LOCK_PROMPT_QS = "prompt=" + quote("load test: locked")
CREATED_PRIVATE = Expect(statuses=CREATED.statuses, classes=CREATED.classes, rule="PERM-COMMENT-PRIVATE")
"""A private comment with an option the role holds (private_options_for): a refusal breaks PERM-COMMENT-PRIVATE."""
LOCK_OWN = Expect(state_change=True, rule="PERM-LOCK-OWN")
"""A member's lock of its own answer (Lock comments on own posts): a refusal breaks PERM-LOCK-OWN."""
BULK_WITHOUT_CSV = expect_status(400, rule="GDPR-BULK-NO-CSV")
INDIVIDUAL_WITHOUT_USER = expect_status(400, rule="GDPR-INDIVIDUAL-NO-USER")
INVALID_USER_CONTENT = expect_status(422, rule="GDPR-CONTENT-422")
QUESTIONS = path("listQuestions")
ANSWER_FIXTURE_QUESTION = path("postAnswer", questionId=FX.question_id)
TOPICS = path("listTopics")
SPACES = path("listSpaces")
ACTIVE_EXPERTS = path("listActiveExperts")
EARNED_EXPERTS = path("listEarnedExperts")
GROUPS = path("listGroups")
_PATHS: dict[tuple[str, str, int], str] = {}
_PATHS_CAP = 8 * _CAP


def id_path(op: str, name: str, value: int) -> str:
    """``path(op, name=value)``, remembered: the browse tasks ask for the same few hundred known ids again and
    again, and building a path from the contract costs 1.8 µs (bounded: past the cap, paths are built each time)."""
    key = (op, name, value)
    p = _PATHS.get(key)
    if p is None:
        p = path(op, **{name: value})
        if len(_PATHS) < _PATHS_CAP:
            _PATHS[key] = p
    return p
_PAGE_COUNT = re.compile(rb'\s*:\s*(\d+)')


def page_count(content: bytes) -> int | None:
    """``pageCount`` of an unparsed page: a substring search, then the digits after it."""
    at = content.find(b'"pageCount"')
    if at < 0:
        return None
    m = _PAGE_COUNT.match(content, at + 11)
    return int(m.group(1)) if m else None


def pick(rng: Any, seq: tuple[str, ...]) -> str:
    """``rng.choice`` without its Python-level rejection sampling (it runs several times per request)."""
    return seq[int(rng.random() * len(seq))]
_CLAIMED: set[str] = set()


def claim_once(name: str) -> bool:
    """True for the first caller in the run (all local worker processes: a file created exclusively in the run
    folder), False for every later one: a one-shot state change is sent once, never repeated on a node that is no
    longer in the state it needs."""
    if name in _CLAIMED:
        return False
    _CLAIMED.add(name)
    if not SETTINGS.run_dir:
        return True
    try:
        os.close(os.open(os.path.join(SETTINGS.run_dir, f"oneshot-{name}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


class Known:
    """Ids one role has seen in this process, learnt from its list answers; shared by that role's users.

    Per role, because what one role may see another may not (a hidden space, an answer in moderation). The
    fixture question's answers are not learnt: write and moderate users churn them (an answer sent to
    moderation disappears for readers), and browsing should read what exists, not race the writers.
    """

    def __init__(self) -> None:
        self.questions: list[int] = [FX.question_id]
        self.answers: list[int] = []
        self.users: list[int] = [a.id for a in SETTINGS.profile.accounts.values() if a.id]
        self._seen: set[tuple[int, int]] = set()
        for bucket in (self.questions, self.users):
            self._seen.update((id(bucket), v) for v in bucket)
        self.learnt = 0  # question pages learnt from

    def _add(self, bucket: list[int], value: Any) -> None:
        if type(value) is int and len(bucket) < _CAP and (id(bucket), value) not in self._seen:
            self._seen.add((id(bucket), value))
            bucket.append(value)

    def forget_answer(self, answer: int) -> None:
        """An answer no longer shown to this role (sent to moderation since it was learnt): never read again."""
        if answer in self.answers:
            self.answers.remove(answer)

    def learn_questions(self, js: Any) -> None:
        self.learnt += 1
        for item in js.get("list", ())[:20] if isinstance(js, dict) else ():
            if not isinstance(item, dict):
                continue
            self._add(self.questions, item.get("id"))
            author = item.get("author")
            if isinstance(author, dict):
                self._add(self.users, author.get("id"))
            if str(item.get("id")) != str(FX.question_id):  # an id may come as a string: never learn the churned
                for a in item.get("answers") or ():
                    self._add(self.answers, a)


_KNOWN: dict[str, Known] = {}


def known(role: str) -> Known:
    k = _KNOWN.get(role)
    if k is None:
        k = _KNOWN[role] = Known()
    return k


class BrowseTasks(QaUser):
    """The list operations, weighted like a real site: question lists dominate, with paging across pages."""

    abstract = True

    def on_start(self) -> None:
        super().on_start()
        self.known = known(self.role)
        size = self.rng.choice(PAGE_SIZES)
        self.page_size_qs = f"&pageSize={size}" if size else ""
        self.next_page: dict[str, int] = {}

    def read_instead(self) -> None:
        self.list_questions()

    def _paged(self, op: str, path: str, qs: str, parse: bool) -> Any:
        """One page of a list, walking on to the next page on the next call (back to 1 after the last)."""
        page = self.next_page.get(op, 1)
        qs = f"{qs}&page={page}{self.page_size_qs}"
        js, r = self.call(op, "GET", path, OK_LIST, qs, parse=parse)
        count: Any = js.get("pageCount") if isinstance(js, dict) else None
        if js is None and r is not None and r.status_code == 200 and self.last_content:
            count = page_count(self.last_content)
        self.next_page[op] = page + 1 if isinstance(count, int) and page < count else 1
        return js

    @task(30)
    def list_questions(self) -> None:
        qs = "sort=" + pick(self.rng, QUESTION_SORTS)
        r = self.rng.random()
        projected = r < 0.25
        if projected:
            qs += "&includeOnly=" + pick(self.rng, INCLUDE_ONLY)
        elif r < 0.45:
            qs += f"&spaceId={FX.space_id}"
        sampled = self.sample()
        learn = not projected and (sampled or self.known.learnt < 20)
        js = self._paged("listQuestions", QUESTIONS, qs, parse=learn or sampled)
        if js is not None and learn:
            self.known.learn_questions(js)

    @task(5)
    def list_user_questions(self) -> None:
        uid = self.rng.choice(self.known.users) if self.known.users else None
        if uid is None:
            return self.list_questions()
        self.call("listUserQuestions", "GET", id_path("listUserQuestions", "userId", uid), OK_LIST,
                  parse=self.sample())

    @task(5)
    def list_user_answers(self) -> None:
        uid = self.rng.choice(self.known.users) if self.known.users else None
        if uid is None:
            return self.list_questions()
        self.call("listUserAnswers", "GET", id_path("listUserAnswers", "userId", uid), OK_LIST,
                  parse=self.sample())

    @task(6)
    def list_answer_comments(self) -> None:
        if not self.known.answers:
            return self.list_questions()
        aid = self.rng.choice(self.known.answers)
        _, r = self.call("listAnswerComments", "GET", id_path("listAnswerComments", "answerId", aid),
                         OK_LIST_OR_GONE, parse=self.sample())
        if r is not None and r.status_code in OK_LIST_OR_GONE.gone:
            self.known.forget_answer(aid)

    @task(3)
    def list_node_followers(self) -> None:
        qid = self.rng.choice(self.known.questions)
        self.call("listNodeFollowers", "GET", id_path("listNodeFollowers", "nodeId", qid), OK_LIST,
                  parse=self.sample())

    @task(5)
    def list_topics(self) -> None:
        self._paged("listTopics", TOPICS, "sort=popularity", parse=self.sample())

    @task(3)
    def list_spaces(self) -> None:
        self.call("listSpaces", "GET", SPACES, OK_LIST, parse=self.sample())

    @task(2)
    def list_active_experts(self) -> None:
        self.call("listActiveExperts", "GET", ACTIVE_EXPERTS, OK_LIST,
                  "sort=" + pick(self.rng, EXPERT_SORTS), parse=self.sample())

    @task(2)
    def list_earned_experts(self) -> None:
        self.call("listEarnedExperts", "GET", EARNED_EXPERTS, OK_LIST,
                  "sort=" + pick(self.rng, EXPERT_SORTS), parse=self.sample())


class AdminBrowseTasks(BrowseTasks):
    """What only an administrator may list: groups (Edit users and groups) and the tracker's issue types."""

    abstract = True

    @task(2)
    def list_groups(self) -> None:
        self.call("listGroups", "GET", GROUPS, OK_LIST, parse=self.sample())

    @task(1)
    def list_issue_types(self) -> None:
        if FX.issue_tracker:
            self.call("listIssueTypes", "GET", path("listIssueTypes", tracker=FX.issue_tracker), OK_ARRAY)
        else:
            self.list_questions()


class WriteTasks(QaUser):
    """Answers to the fixture question and comments (public and private) on this user's own answers.

    Every 201 is remembered (hooks.record_created) for the nothing-lost check. Comments go to this user's
    first few answers, so the check lists a handful of comment lists, not one per answer.
    """

    abstract = True
    private_options: tuple[str, ...] = ()

    def on_start(self) -> None:
        super().on_start()
        self.my_answers: list[int] = []
        self.n = 0

    def _text(self, what: str) -> str:
        self.n += 1
        return f"<p>{what} {SETTINGS.run_tag} {self.role} {id(self):x} #{self.n}</p>"

    @task(3)
    def post_answer(self) -> None:
        if not self.may_write():
            return self.read_instead()
        js, r = self.call("postAnswer", "POST", ANSWER_FIXTURE_QUESTION, CREATED,
                          body={"body": self._text("load answer")})
        aid = self.created_id(js, r)
        if aid is None:
            return
        author = js.get("author") if isinstance(js, dict) else None
        uid = author.get("id") if isinstance(author, dict) else self.account.id
        if len(self.my_answers) < 3:
            self.my_answers.append(aid)
        hooks.record_created("answer", aid, self.role, FX.question_id, uid if isinstance(uid, int) else None)

    def _comment(self, body: dict[str, Any], expect: Expect = CREATED) -> None:
        if not self.my_answers:
            return self.post_answer()
        if not self.may_write():
            return self.read_instead()
        parent = self.rng.choice(self.my_answers)
        js, r = self.call("postComment", "POST", path("postComment", nodeId=parent), expect, body=body)
        cid = self.created_id(js, r)
        if cid is not None:
            hooks.record_created("comment", cid, self.role, parent, self.account.id)

    @task(4)
    def post_public_comment(self) -> None:
        self._comment({"body": self._text("load comment")})

    @task(2)
    def post_private_comment(self) -> None:
        if not self.private_options:
            return self.post_public_comment()
        self._comment({"body": self._text("load private comment"), "visibility": self.rng.choice(self.private_options)},
                      CREATED_PRIVATE)


class ModerateTasks(QaUser):
    """lock / send to moderation on answers this user created, each answer getting one state change only: a new
    answer is published and unlocked, the state both changes need, and after either it no longer is in the state
    the *other* needs for sure (the description's table gives each change one starting state and nothing about
    mixing them), nor in the one the same change needs. A refusal of either (a 4xx, ``success: false``) is a failure
    row (``refused: got 400``). unfavorite (member's favorite, by member) / cancelwiki on the profile's one-shot
    fixtures, once per run (``claim_once``), under their own request names (``cancelWiki (one-shot)``): an earlier
    run may have consumed the fixture, so their refusals are failure rows the verdict does not hold against the
    target. The answers created here are recorded for the nothing-lost check like WriteTasks' (those sent to
    moderation marked so: whether their author's list still shows them is not stated)."""

    abstract = True
    own_only = False  # member: only its own nodes (Lock comments on own posts)

    def on_start(self) -> None:
        super().on_start()
        self.fresh: list[int] = []  # published and unlocked: no state change sent yet

    def _fresh_node(self) -> int | None:
        """A node of this user's in the starting state, taken out of the pool with a write of the budget (its one
        change is about to be sent); None after this task's one request went elsewhere (creating a node when the
        pool is empty, a read when the budget allows no write)."""
        if not self.fresh:
            self.create_node()
            return None
        if not self.may_write():
            self.read_instead()
            return None
        return self.fresh.pop()

    @task(1)
    def create_node(self) -> None:
        if not self.may_write():
            return self.read_instead()
        js, r = self.call("postAnswer", "POST", ANSWER_FIXTURE_QUESTION, CREATED,
                          body={"body": f"<p>moderation target {SETTINGS.run_tag}</p>"})
        nid = self.created_id(js, r)
        if nid is None:
            return
        author = js.get("author") if isinstance(js, dict) else None
        uid = author.get("id") if isinstance(author, dict) else self.account.id
        hooks.record_created("answer", nid, self.role, FX.question_id, uid if isinstance(uid, int) else None)
        if len(self.fresh) < 20:
            self.fresh.append(nid)

    @task(3)
    def lock_node(self) -> None:
        nid = self._fresh_node()
        if nid is not None:
            self.call("lockNode", "PUT", path("lockNode", nodeId=nid), LOCK_OWN if self.own_only else STATE_CHANGE,
                      LOCK_PROMPT_QS)

    @task(2)
    def send_to_moderation(self) -> None:
        if self.own_only:
            return self.lock_node()
        nid = self._fresh_node()
        if nid is not None:
            hooks.record_moderated(nid)
            self.call("sendToModeration", "PUT", path("sendToModeration", nodeId=nid), STATE_CHANGE)

    def _one_shot(self, op: str, node: int) -> None:
        """``op`` on a one-shot fixture, once per run and within the budget; otherwise this task locks a node (always
        in a capacity step: a call whose answer an earlier run decided must not decide a step)."""
        if not SETTINGS.one_shots:
            return self.lock_node()
        if not hooks.BUDGET.available():
            return self.read_instead()
        if not claim_once(f"{op}-{node}"):
            return self.lock_node()
        self.may_write()  # available a moment ago, and no other greenlet ran since
        self.call(op + ONE_SHOT, "PUT", path(op, nodeId=node), STATE_CHANGE)

    @task(1)
    def unmark_favorite(self) -> None:
        node = FX.favorite_node_id  # member's favorite (target-profile.md): nobody else's to unfavorite
        if node is None or self.role != "member":
            return self.lock_node()
        self._one_shot("unmarkFavorite", node)

    @task(1)
    def cancel_wiki(self) -> None:
        node = FX.member_wiki_node_id if self.own_only else FX.wiki_node_id
        if node is None:
            return self.lock_node()
        self._one_shot("cancelWiki", node)


def _future(days: int) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).strftime("%m/%d/%Y %H:%M")


FIRST_JOB_WAIT_S = 3.0
"""How long a data-protection user waits at its start for a write of the budget (GdprTasks.on_start)."""


class GdprTasks(QaUser):
    """The data-protection schedule operation's error paths only: requests that cannot schedule a job.

    A successful job cannot be undone, so none is ever attempted here (not even with [safety] destructive);
    the user-content listing (read-only) rides along.
    """

    abstract = True

    def on_start(self) -> None:
        """One refused job first, waiting up to :data:`FIRST_JOB_WAIT_S` for the write budget's next token: the
        operation is measured in every run, however short and however busy its writers (see may_write_within)."""
        super().on_start()
        if self.may_write_within(FIRST_JOB_WAIT_S):
            self.call("scheduleGdprJob", "POST", path("scheduleGdprJob"), BULK_WITHOUT_CSV,
                      body={"type": "bulk", "operations": ["suspend"], "scheduleDate": {"formatted": _future(30)}})

    def _schedule_error(self, body: dict[str, Any], expect: Expect) -> None:
        if not self.may_write():  # a POST: a target that wrongly accepts it schedules a job
            return self.read_instead()
        self.call("scheduleGdprJob", "POST", path("scheduleGdprJob"), expect, body=body)

    @task(2)
    def bulk_without_csv(self) -> None:
        self._schedule_error({"type": "bulk", "operations": ["suspend"],
                              "scheduleDate": {"formatted": _future(30)}}, BULK_WITHOUT_CSV)

    @task(2)
    def individual_without_user(self) -> None:
        self._schedule_error({"type": "individual", "operations": ["anonymize"],
                              "scheduleDate": {"formatted": _future(30)}}, INDIVIDUAL_WITHOUT_USER)

    @task(2)
    def list_user_content(self) -> None:
        uid = self.account.id or (known(self.role).users[0] if known(self.role).users else None)
        if uid is None:
            return self.list_invalid_user_content()
        self.call("listUserContent", "GET", path("listUserContent", userId=uid), OK_ARRAY)

    @task(1)
    def list_invalid_user_content(self) -> None:
        self.call("listUserContent", "GET", path("listUserContent", userId=0), INVALID_USER_CONTENT)


def private_options_for(role: str) -> tuple[str, ...]:
    """Private comment options the role holds (target-profile.md): member lacks 'own groups'. Only those the profile
    names a wire value for: `qaconform init` leaves to_moderators and to_own_groups as TODOs (the description shows
    no value), and a load run then sent "visibility": null, which the target refused, as a PERM-COMMENT-PRIVATE
    failure and a breached postComment threshold the verdict held against the target."""
    if role == "member":
        options = (VIS.to_original_poster, VIS.to_moderators)
    elif role in ("moderator", "admin"):
        options = (VIS.to_original_poster, VIS.to_moderators, VIS.to_own_groups)
    else:
        options = ()
    return tuple(o for o in options if o)

