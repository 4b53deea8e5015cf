"""A model of comment privacy (rules 1-7 of operation 1) against random sequences of posts by every account.

Hand-written privacy tests check the cases we listed; this one lets hypothesis pick who posts what under a fresh
answer: public comments, comments private to random recipients, replies that inherit, replies that try another
visibility, private options used by callers who lack them. After every step every account lists the answer's
comments (operation 18) and must see exactly what the model says it may see. When it does not, hypothesis shrinks
the sequence to a short reproducer (printed as the steps), and the message names the rule, the seed and the curl.

What the model claims, from the description alone:
- full visibility (no privacy fields): every account sees the comment (COMMENT-1);
- visibility recipients: its author and its recipients see it, nobody else (COMMENT-2, COMMENT-PRIVACY-LIST);
- a reply to a private comment without privacy fields, or with the same ones, inherits them (COMMENT-3): its author
  and the recipients it inherits see it, nobody else but those below; with another visibility it is refused with 400
  (COMMENT-4);
- a reply to a public comment sets its own settings (COMMENT-5);
- recipients with a visibility other than recipients: 400 (COMMENT-6);
- a private option used by novice (no Use Private Comments) or member's "own groups": 403 (COMMENT-7).
Where the description is silent the model claims nothing: who sees op/mod/group comments (only their refusals are
generated), whether replies appear in the answer's list at all (a listed reply must be listed to every caller
entitled to it and to nobody else), replies by novice to private comments, and whether the authors of the private
comments a reply inherited its settings through (the private comment it answers, earlier ones of the thread) read
it: that is recorded (OBS-REPLY-AUDIENCE), never judged.

Lists may lag writes (a search index, a cache): each read of every account's view is repeated within the profile's
settle window until nothing the model says must be listed is missing (support.settle); what is shown too widely is
judged at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, NoReturn

import hypothesis
import hypothesis.internal.conjecture.engine
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.properties.plugin import SHARES, Budget
from qaconform.pytest.support import (
    PRIVILEGED_READERS,
    answer_posted,
    comment_ids_seen,
    for_each,
    new_id,
    post_answer,
    post_comment,
    settle,
)
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import Profile

ROLES = ("admin", "moderator", "member", "novice")
MAY_USE_PRIVATE = ("admin", "moderator", "member")  # target-profile.md: novice lacks Use Private Comments
REFUSED = [
    ("novice", "recipients", True, 403, "COMMENT-7-NO-PRIVATE-PERMISSION"),
    ("novice", "to_original_poster", False, 403, "COMMENT-7-NO-PRIVATE-PERMISSION"),
    ("novice", "to_moderators", False, 403, "COMMENT-7-NO-PRIVATE-PERMISSION"),
    ("novice", "to_own_groups", False, 403, "COMMENT-7-NO-PRIVATE-PERMISSION"),
    ("member", "to_own_groups", False, 403, "COMMENT-7-NO-OPTION-PERMISSION"),
    ("member", "to_original_poster", True, 400, "COMMENT-6"),
    ("moderator", "to_moderators", True, 400, "COMMENT-6"),
    ("admin", "to_own_groups", True, 400, "COMMENT-6"),
]
"""(author, visibility option, with recipients, status, rule): refusals rules 6 and 7 fix (target-profile.md says
which account lacks which option)."""
STEPS = 10
SHRINK_SECONDS = 30
PARTS = 3
"""The examples are split over this many tests (each its own answer, seed run seed + part): one test of a few
hundred requests that must follow one another would be the longest chain of a parallel run (qaconform run --jobs);
parts run on different workers. Each part has its share of the file's time budget, so that serially the parts
send what one test did."""


@dataclass(frozen=True)
class Comment:
    id: int
    author: str
    private: bool
    recipients: frozenset[str]  # roles named as recipients (inherited ones for a reply)
    reply: bool
    thread_authors: frozenset[str] = frozenset()
    """Authors of the private comments this reply inherited its settings through: whether they read it is not
    stated (OBS-REPLY-AUDIENCE)."""

    @property
    def audience(self) -> frozenset[str]:
        """Roles entitled to see it: everyone when public, else its author and its recipients."""
        return self.recipients | {self.author} if self.private else frozenset(ROLES)


@dataclass
class World:
    """What the machine needs from the run: accounts, ids, wire values, where to write."""

    api: dict[str, ApiClient]
    user_ids: dict[str, int]
    profile: Profile
    run_tag: str
    created: Any
    budget: Budget
    steps: int = 0
    readers: frozenset[str] = frozenset()
    """Roles that read every private comment ([visibility] readers)."""
    undecided: frozenset[str] = frozenset()
    """Roles whose view of private comments the profile does not give: not judged on them."""
    thread_views: dict[tuple[int, str], bool] = field(default_factory=dict)
    """(reply, thread author outside its audience) -> whether the last read showed it (OBS-REPLY-AUDIENCE)."""


class PrivacyModel(RuleBasedStateMachine):
    world: ClassVar[World]

    def __init__(self) -> None:
        super().__init__()
        self.answer = 0
        self.comments: dict[int, Comment] = {}

    # ---- helpers ------------------------------------------------------------------------------------------

    def out_of_time(self) -> None:
        """Past this test's share of --time-budget: stop the whole run here (BudgetSpent), before anything is sent.

        Never a step that returns early: the same choices would then draw differently before and after the deadline
        (a reply draws its parent only when it runs), which hypothesis reports as FlakyStrategyDefinition.
        """
        self.world.budget.check("postComment (privacy model)", writes=1)

    def _post(self, author: str, parent: int, visibility: str | None, recipients: list[str] | None,
              text: str) -> ApiResponse:
        w = self.world
        w.budget.check(f"postComment (privacy model: {text})", writes=1)  # a chain of replies posts several
        w.steps += 1
        ids = [w.user_ids[r] for r in recipients] if recipients is not None else None
        resp = post_comment(w.api[author], parent, w.run_tag, w.created, text=text, visibility=visibility,
                            recipients=ids)
        w.budget.record(f"postComment (privacy model: {text})", resp.status)
        return resp

    def _fail(self, rules: str | tuple[str, ...], message: str, response: ApiResponse | None = None) -> NoReturn:
        """Fail the step for ``rules``; from now on the deadline no longer cuts steps, so shrinking replays the same
        sequence."""
        self.world.budget.failing = True
        seed = self.world.budget.seed
        fail(rules, f"{message} (seed {seed}; rerun with --seed {seed})", response)

    def _expect(self, resp: ApiResponse, status: int, rule: str, what: str) -> None:
        if resp.status != status:
            self._fail(rule, f"{what}: expected {status}, got {resp.status}", resp)

    def _visible_to(self, role: str, private: bool) -> list[int]:
        """Newest first: hypothesis favours early choices, so replies to replies (deeper chains) come up often."""
        return sorted((c.id for c in self.comments.values() if role in c.audience and c.private == private),
                      reverse=True)

    def _record(self, resp: ApiResponse, author: str, recipients: frozenset[str] | None, reply: bool,
                under: Comment | None = None) -> None:
        """``under``: the private comment a reply inherits its settings from."""
        cid = new_id(resp)
        thread = under.thread_authors | {under.author} if under is not None else frozenset()
        self.comments[cid] = Comment(cid, author, recipients is not None, recipients or frozenset(), reply, thread)

    def _judged(self, c: Comment, role: str) -> bool:
        """Whether the model says if ``role`` sees ``c``: not for a private comment and a role whose view of private
        comments the profile does not give, nor for a thread author outside a reply's inherited audience."""
        if c.private and role in self.world.undecided:
            return False
        return not (c.private and role in c.thread_authors and not self._entitled(c, role))

    def _entitled(self, c: Comment, role: str) -> bool:
        return role in c.audience or (c.private and role in self.world.readers)

    def _missing(self, seen_by: dict[str, set[int]]) -> bool:
        """Whether a comment the model says is listed to a role is not (what a list that lags writes explains)."""
        for c in self.comments.values():
            shown = {r for r in ROLES if c.id in seen_by[r]}
            for role in ROLES:
                if not self._judged(c, role) or not self._entitled(c, role) or c.id in seen_by[role]:
                    continue
                if not c.reply or (shown and role != c.author and role in c.audience):
                    return True
        return False

    # ---- rules --------------------------------------------------------------------------------------------

    @initialize(author=st.sampled_from(MAY_USE_PRIVATE), data=st.data())
    def a_fresh_answer_with_a_private_thread(self, author: str, data: st.DataObject) -> None:
        """A fresh answer, and under it a comment private to one recipient with a reply to it and a reply to that
        reply (no privacy fields: they inherit, COMMENT-3), before any drawn step.

        Why a fixed opening: the run's write budget gives the model a few accepted writes (qaconform.target.writes),
        so a sequence cannot count on drawing a private comment and then a chain under it by chance; inheritance two
        levels down is where servers break (a reply to a reply falling back to full visibility). One recipient
        leaves an account outside the thread's audience, who must not see any of it. The authors and the
        recipient are still drawn, the recipient so that member or novice (who read only what they are entitled to,
        unlike the privileged readers a site may configure) stays outside.
        """
        plain = {r for r in ROLES if r not in PRIVILEGED_READERS}
        recipient = data.draw(st.sampled_from([r for r in ROLES if not plain <= {author, r}]), label="recipient")
        self.out_of_time()
        w = self.world
        resp = post_answer(w.api["member"], w.profile.fixtures.question_id, w.run_tag, w.created,
                           text="privacy model answer")
        self.answer = answer_posted(resp)
        self.out_of_time()
        resp = self._post(author, self.answer, w.profile.visibility.recipients, [recipient], "private comment")
        self._expect(resp, 201, "COMMENT-2", f"{author} posts a comment private to {[recipient]}")
        self._record(resp, author, frozenset({recipient}), reply=False)
        parent = self.comments[new_id(resp)]
        for _ in range(2):
            authors = sorted(r for r in parent.audience if r in MAY_USE_PRIVATE)
            replier = data.draw(st.sampled_from(authors), label="replier")
            resp = self._post(replier, parent.id, None, None, "reply in a chain")
            self._expect(resp, 201, "COMMENT-3", f"{replier} replies without fields to private comment {parent.id}")
            self._record(resp, replier, parent.recipients, reply=True, under=parent)
            parent = self.comments[new_id(resp)]

    @rule(author=st.sampled_from(ROLES))
    def a_public_comment(self, author: str) -> None:
        self.out_of_time()
        resp = self._post(author, self.answer, None, None, "public comment")
        self._expect(resp, 201, "COMMENT-1", f"{author} posts a comment without privacy fields")
        self._record(resp, author, None, reply=False)

    @rule(author=st.sampled_from(MAY_USE_PRIVATE), recipients=st.sets(st.sampled_from(ROLES), min_size=1, max_size=3))
    def a_comment_private_to_recipients(self, author: str, recipients: set[str]) -> None:
        self.out_of_time()
        ordered = sorted(recipients)
        resp = self._post(author, self.answer, self.world.profile.visibility.recipients, ordered, "private comment")
        self._expect(resp, 201, "COMMENT-2", f"{author} posts a comment private to {ordered}")
        self._record(resp, author, frozenset(recipients), reply=False)

    @rule(refused=st.sampled_from(REFUSED), recipients=st.sets(st.sampled_from(ROLES), min_size=1, max_size=2))
    def a_refused_comment(self, refused: tuple[str, str, bool, int, str], recipients: set[str]) -> None:
        """Private options the caller lacks (403) and recipients with another visibility (400).

        Only refusals of op, mod and group: who may see such a comment once accepted is not described.
        """
        self.out_of_time()
        author, option, with_recipients, status, rule_id = refused
        value = getattr(self.world.profile.visibility, option)
        if value is None:
            return  # the profile does not give this option's wire value (site configuration)
        given = sorted(recipients) if with_recipients else None
        resp = self._post(author, self.answer, value, given, "refused")
        self._expect(resp, status, rule_id, f"{author} posts with visibility {option} and recipients {given}")

    @precondition(lambda self: any(c.private for c in self.comments.values()))
    @rule(data=st.data(), author=st.sampled_from(MAY_USE_PRIVATE),
          how=st.sampled_from(["no fields", "same fields", "another visibility"]))
    def a_reply_to_a_private_comment(self, data: st.DataObject, author: str, how: str) -> None:
        """Novice does not reply here: whether a caller without private comments may reply to one is not described."""
        self.out_of_time()
        visible = self._visible_to(author, private=True)
        if not visible:
            return
        parent = self.comments[data.draw(st.sampled_from(visible), label="parent")]
        vis = self.world.profile.visibility
        if how == "another visibility":
            option = "to_moderators" if author == "member" else "to_own_groups"
            if getattr(vis, option) is None:  # not given by the profile: op differs from recipients as well
                option = "to_original_poster"
            resp = self._post(author, parent.id, getattr(vis, option), None, "reply with another visibility")
            self._expect(resp, 400, "COMMENT-4", f"{author} replies to private comment {parent.id} with {option}")
            return
        if how == "no fields":
            resp = self._post(author, parent.id, None, None, "reply without fields")
        else:
            resp = self._post(author, parent.id, vis.recipients, sorted(parent.recipients), "reply with same fields")
        self._expect(resp, 201, "COMMENT-3", f"{author} replies to private comment {parent.id} with {how}")
        self._record(resp, author, parent.recipients, reply=True, under=parent)  # inherits the parent's recipients

    @precondition(lambda self: any(c.private for c in self.comments.values()))
    @rule(data=st.data(), depth=st.integers(min_value=2, max_value=3))
    def a_chain_of_replies_under_a_private_comment(self, data: st.DataObject, depth: int) -> None:
        """Replies to replies: inheritance must hold at every depth, not only under the first private comment."""
        self.out_of_time()
        private = sorted((c.id for c in self.comments.values() if c.private), reverse=True)
        parent = self.comments[data.draw(st.sampled_from(private), label="first parent")]
        for _ in range(depth):
            authors = sorted(r for r in parent.audience if r in MAY_USE_PRIVATE)
            if not authors:
                return
            author = data.draw(st.sampled_from(authors), label="author")
            resp = self._post(author, parent.id, None, None, "reply in a chain")
            self._expect(resp, 201, "COMMENT-3", f"{author} replies without fields to private comment {parent.id}")
            self._record(resp, author, parent.recipients, reply=True, under=parent)
            parent = self.comments[new_id(resp)]

    @precondition(lambda self: any(not c.private for c in self.comments.values()))
    @rule(data=st.data(), author=st.sampled_from(ROLES), private=st.booleans())
    def a_reply_to_a_public_comment(self, data: st.DataObject, author: str, private: bool) -> None:
        self.out_of_time()
        parent = self.comments[data.draw(st.sampled_from(self._visible_to(author, private=False)), label="parent")]
        if private and author in MAY_USE_PRIVATE:
            recipients = data.draw(st.sets(st.sampled_from(ROLES), min_size=1, max_size=2), label="recipients")
            resp = self._post(author, parent.id, self.world.profile.visibility.recipients, sorted(recipients),
                              "private reply to a public comment")
            self._expect(resp, 201, "COMMENT-5", f"{author} replies privately to public comment {parent.id}")
            self._record(resp, author, frozenset(recipients), reply=True)
        else:
            resp = self._post(author, parent.id, None, None, "public reply")
            self._expect(resp, 201, "COMMENT-5", f"{author} replies to public comment {parent.id}")
            self._record(resp, author, None, reply=True)

    # ---- what every account sees ---------------------------------------------------------------------------

    @invariant()
    def every_account_sees_exactly_what_the_model_allows(self) -> None:
        if not self.answer:
            return
        w = self.world
        answer = self.answer
        seen_by = settle(w.api["member"], f"every account's view of answer {answer}'s comments",
                         lambda: for_each(ROLES, lambda role: comment_ids_seen(w.api[role], answer)),
                         lambda views: not self._missing(views))
        w.budget.statuses["listAnswerComments (privacy model)"][200] += len(ROLES)
        for role, seen in seen_by.items():
            unknown = seen - set(self.comments)
            if unknown:
                self._fail("COMMENT-PRIVACY-LIST", f"{role} is shown comments {sorted(unknown)} under answer "
                                                   f"{self.answer} that nobody posted in this sequence")
            for c in self.comments.values():
                if not self._judged(c, role):
                    if c.private and role in c.thread_authors and role not in w.undecided:
                        w.thread_views[(c.id, role)] = c.id in seen
                    continue
                entitled = self._entitled(c, role)
                curl = (f"curl -sS -u \"$USER:$PASSWORD\" '{w.profile.api_root}/answer/{self.answer}/comment.json'"
                        f"   # as {role}")
                if c.id in seen and not entitled:
                    # a reply shown too widely did not inherit its parent's privacy (rule 3), or the list leaks
                    leaked = ("COMMENT-3", "COMMENT-PRIVACY-LIST") if c.reply else ("COMMENT-PRIVACY-LIST",)
                    self._fail(leaked, f"{role} is shown comment {c.id} by {c.author}, which is private "
                                       f"to {sorted(c.audience)} (reply: {c.reply}); reproduce with: {curl}")
                if not c.reply and entitled and c.id not in seen:
                    rule_id = "COMMENT-2" if c.private else "COMMENT-1"
                    what = f"private to {sorted(c.audience)}" if c.private else "public"
                    self._fail(rule_id, f"{role} is not shown comment {c.id} by {c.author} although it is {what}; "
                                        f"reproduce with: {curl}")
        for c in self.comments.values():
            if not c.reply:
                continue
            shown = {r for r in ROLES if c.id in seen_by[r]}
            if shown:
                missing = sorted(r for r in c.audience if r not in shown and r != c.author)
                if missing:
                    self._fail("COMMENT-3", f"reply {c.id} by {c.author} is listed to {sorted(shown)} but not to "
                                            f"{missing}, who may see it (it inherits {sorted(c.audience)})")


@pytest.mark.properties
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.rule("COMMENT-1", "COMMENT-2", "COMMENT-3", "COMMENT-4", "COMMENT-5", "COMMENT-6",
                  "COMMENT-7-NO-PRIVATE-PERMISSION", "COMMENT-7-NO-OPTION-PERMISSION", "COMMENT-PRIVACY-LIST",
                  "OBS-REPLY-AUDIENCE")
@pytest.mark.parametrize("part", [pytest.param(p, id=f"part-{p + 1}-of-{PARTS}") for p in range(PARTS)])
def test_every_account_sees_exactly_the_comments_the_privacy_model_allows(
    part: int, api: dict[str, ApiClient], user_ids: dict[str, int], profile: Profile, run_tag: str, created: Any,
    sent: Budget, monkeypatch: pytest.MonkeyPatch, observe: Any,
) -> None:
    if not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: private comments, which the model is about, were "
                                     f"added in 2.16.0, the target runs {profile.service_version}")
    missing = [r for r in ROLES if r not in user_ids]
    assert not missing, f"user ids of {missing} are unknown: give accounts.<role>.id in the profile {profile.path}"
    known = profile.visibility.readers
    world = World(api=api, user_ids=user_ids, profile=profile, run_tag=run_tag, created=created, budget=sent,
                  readers=frozenset(known or ()),
                  undecided=frozenset() if known is not None else frozenset(PRIVILEGED_READERS))

    class Model(PrivacyModel):
        pass

    Model.world = world
    sent.begin(SHARES["test_privacy_model.py"] / PARTS)  # this part's share of the file's budget, from now
    hypothesis.seed(sent.seed + part)(Model)
    examples = -(-max(3, sent.max_examples) // PARTS)  # the run's examples, shared out between the parts
    # Under a write budget no shrinking: every replay posts a fresh answer and its comments (about 200 writes for a
    # failure found), so the failing sequence is reported as found (at most STEPS steps after the opening thread).
    budgeted = ApiClient.write_budget is not None and ApiClient.write_budget.budget is not None
    phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([] if budgeted else [Phase.shrink])
    Model.TestCase.settings = settings(max_examples=examples, stateful_step_count=STEPS, phases=phases,
                                       deadline=None, suppress_health_check=list(HealthCheck), database=None)
    # Every replay of a sequence costs a fresh answer and a dozen requests: shrink for SHRINK_SECONDS at most (then
    # hypothesis reports the shortest sequence found so far) instead of hypothesis's five minutes.
    monkeypatch.setattr(hypothesis.internal.conjecture.engine, "MAX_SHRINKING_SECONDS", SHRINK_SECONDS)
    finished = sent.run_machine(Model.TestCase().runTest)
    if not world.steps and not finished and not sent.writes_left():
        skip(SkipKind.WRITE_BUDGET, f"write budget spent: the privacy model's share ({sent.share_text()}) was used up "
                                    f"before this part posted a comment (seed {sent.seed}); a larger --write-budget, "
                                    f"or --thorough, runs every part")
    if not world.steps and not finished:
        skip(SkipKind.CONFIGURATION, f"the time budget of this part ran out before the privacy model posted a comment "
                                     f"(seed {sent.seed}): raise --time-budget")
    assert world.steps, "the privacy model posted no comment at all; raise --max-examples"
    if world.thread_views:
        shown = sum(world.thread_views.values())
        observe("OBS-REPLY-AUDIENCE", replies=len({reply for reply, _ in world.thread_views}),
                thread_author_views=len(world.thread_views), shown_to_thread_authors=shown,
                not_shown_to_thread_authors=len(world.thread_views) - shown)
