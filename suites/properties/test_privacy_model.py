"""A model of comment privacy (rules 1-7 of operation 1) against random sequences of posts by every account.

Hand-written privacy tests check the cases we listed; this one lets hypothesis pick who posts what under a fresh
answer: public comments, comments private to random recipients, replies that inherit, replies that try another
visibility, private options used by callers who lack them. Each example is a history of one subtree across the
state table (privacy_history.py): a fixed opening (replies at depths 1 and 2 under the answer and under the
question, each depth in both forms of rule 3, every refusal at every depth), the drawn steps, and a closing that
locks the answer and sends it to moderation. After every step every account (anonymous too) reads every list that
shows the subtree (subtree_views.py: the answer's comments, the writers' content, the ids the answer and the
question name), back to back in an order a cache keyed by URL gets wrong and then in the other order, and must see
exactly what the model says it may see. When it does not, hypothesis shrinks the sequence to a short reproducer
(printed as the steps), and the message names the rule, the seed and the curl.

What the model claims, from the description alone:
- full visibility (no privacy fields): every account sees the comment (COMMENT-1);
- visibility recipients: its author and its recipients see it, nobody else (COMMENT-2, COMMENT-PRIVACY-LIST);
- a reply to a private comment without privacy fields, or with the same ones, inherits them (COMMENT-3): its author
  and the recipients it inherits see it, nobody else but those below; with another visibility it is refused with 400
  (COMMENT-4);
- a reply to a public comment sets its own settings (COMMENT-5);
- recipients with a visibility other than recipients: 400 (COMMENT-6);
- a private option used by novice (no Use Private Comments) or member's "own groups": 403 (COMMENT-7);
- every comment carries the settings it was given or inherited wherever it is returned: read at its Location right
  after its 201, and in the answer's comment list to every reader in every state (COMMENT-VISIBILITY-RETURNED).
Where the description is silent the model claims nothing: who sees op/mod/group comments (only their refusals are
generated), whether replies appear in the answer's list at all (a listed reply must be listed to every caller
entitled to it and to nobody else), replies by novice to private comments, and whether the authors of the private
comments a reply inherited its settings through (the private comment it answers, earlier ones of the thread) read
it: that is recorded (OBS-REPLY-AUDIENCE), never judged.

Lists may lag writes (a search index, a cache): each read of every account's view is repeated within the profile's
settle window until nothing the model says must be listed is missing (support.settle); what is shown too widely is
judged at once.

Under a write budget one example's history takes the model's whole share (8: privacy_history.OPENING_WRITES and
CLOSING_WRITES), so only part 1 runs; its refusals cost nothing. Two more writes come from the suites' share
(histories3, issue 44; privacy_history.SubtreeModel.in_suites_share): a reply at depth 3 under the answer, and the
lock of the opening's first reply on its own before anyone replies to it (round27), every account reading after it,
so that the replies below it are posted under a private comment locked on its own; and one more (histories5) for a
reply of the subtree sent to moderation (subtree_moderation.py), paid by a write of comment privacy's shared with the
model: the run's thread below a public comment (public_parent.py), which the model reads at no write of its own.
--thorough runs every part and every example.
"""

from __future__ import annotations

import contextlib
from typing import Any

import hypothesis
import hypothesis.internal.conjecture.engine
import public_parent
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from privacy_history import INHERITED_MESSAGE, SubtreeModel
from privacy_world import CLOSING_WRITES, MAY_USE_PRIVATE, OPENING_WRITES, ROLES, Comment, World
from recipient_forms import QUESTION_AS_INTEGER, QUESTION_AS_STRING

from qaconform.contract import path as contract_path
from qaconform.pytest.outcomes import SkipKind, skip
from qaconform.pytest.properties.plugin import SHARES, Budget
from qaconform.pytest.support import PRIVILEGED_READERS, answer_posted, new_id, post_answer
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile
from qaconform.target.writes import SUITES


def in_suites_share() -> contextlib.AbstractContextManager[Any]:
    """Writes charged to the suites' share (the shared writes the model reads, posted by whoever asks first)."""
    budget = ApiClient.write_budget
    return budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext()


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


class PrivacyModel(SubtreeModel, RuleBasedStateMachine):
    # ---- rules --------------------------------------------------------------------------------------------

    @initialize(data=st.data())
    def a_fresh_answer_with_a_private_thread(self, data: st.DataObject) -> None:
        """A fresh answer, and under it a comment private to one recipient with a reply to it (the same fields, ids as
        strings) and a reply to that reply (without fields), and under the question's private comment a reply without
        fields and a reply to it with the same fields: they inherit (COMMENT-3), before any drawn step.

        Why a fixed opening: the run's write budget gives the model a few accepted writes (qaconform.target.writes),
        so a sequence cannot count on drawing a private comment and then a chain under it by chance; inheritance two
        levels down is where servers break (a reply to a reply falling back to full visibility). One recipient
        leaves an account outside the thread's audience, who must not see any of it. The authors and the
        recipient are still drawn, the recipient so that member or novice (who read only what they are entitled to,
        unlike the privileged readers a site may configure) stays outside, and admin too where the profile says it
        reads no private comment of others (blind round on histories, issue 44): a user's content list may be readable
        by admin alone (who reads it is not shown), and a comment by admin or private to admin judges no leak there,
        so a content list that shows a private comment under a locked node to every reader went unseen. Where the
        profile does not say (priv23): admin outside too, its comment is what shows whether it reads private ones
        (undecided_readers.py).
        """
        plain = {r for r in ROLES if r not in PRIVILEGED_READERS}
        w = self.world
        outside = {"admin"} if "admin" not in w.readers else set()
        author = data.draw(st.sampled_from([r for r in MAY_USE_PRIVATE if r not in outside]), label="author")
        recipient = data.draw(st.sampled_from([r for r in ROLES if not plain <= {author, r}
                                               and not outside & {author, r}]), label="recipient")
        w.budget.check("postComment (privacy model)", writes=OPENING_WRITES + CLOSING_WRITES)  # the whole history
        resp = post_answer(w.api["member"], w.profile.fixtures.question_id, w.run_tag, w.created,
                           text="privacy model answer")
        self.answer = answer_posted(resp)
        # the fresh answer's comment list, empty, read once by its author (blind6, issue 44): an empty page is
        # served by a path of its own, and no other list of the run is read empty
        empty = w.api["member"].get(contract_path("listAnswerComments", answerId=self.answer))
        self.judge_sorts(empty, f"the comment list of answer {self.answer} before any comment")
        resp = self._post(author, self.answer, w.profile.visibility.recipients, [recipient], "private comment")
        self._expect(resp, 201, "COMMENT-2", f"{author} posts a comment private to {[recipient]}")
        self._record(resp, author, frozenset({recipient}), reply=False)
        # every account reads before the replies too (blindr, issue 44): the replies are then read right after a
        # read of the same lists, what a count or a page kept a few seconds after a read gets wrong
        self.views_judged()
        parent = self.comments[new_id(resp)]
        # Rule 3's two forms ("without privacy fields, or with the same ones") crossed with the depth, the kind of
        # parent the thread hangs under and the recipients' stated id forms, in the opening's four replies: a reply
        # and a reply to it under the answer and under the question (depths 1 and 2 under both kinds of parent:
        # histories2, issue 44), each depth and each kind of parent meeting both forms; the same ones with ids as
        # strings and as integers (blind round of issue 44: a thread under a question, ids given as strings).
        first = self._reply_inheriting(data, parent, "same fields", ids_as_strings=True)
        # the reply locked by its author before anyone replies to it (round27, issue 44: a rule after a state change;
        # histories3 locked the private comment at the closing, when its replies were all posted): the reply to it
        # without fields, and the one below it, are posted under a private comment locked on its own
        with self.in_suites_share("the lock of a private comment") as room:
            if room:
                self.lock_a_private_comment(first)
        second = self._reply_inheriting(data, first, "no fields")
        # depth 3 under the answer, the same fields as integers (histories3, issue 44): paid by the suites' share,
        # where the run's writes that only repeated another's request were shared (privacy_history.in_suites_share)
        with self.in_suites_share("a reply at depth 3") as room:
            self._reply_inheriting(data, second, "same fields", send=room)
        if w.question_comment is not None:
            question = Comment(w.question_comment, "member", True, frozenset(QUESTION_AS_INTEGER + QUESTION_AS_STRING),
                               False, on_question=True, as_strings=frozenset(QUESTION_AS_STRING))  # recip: both forms
            self.comments[question.id] = question
            if w.question_comment_resp is not None:  # "a GET returns the given settings" under a question too
                self._judge_stored(w.question_comment_resp, question)
            on_question = self._reply_inheriting(data, question, "no fields")
            self._reply_inheriting(data, on_question, "same fields")  # depth 2 under the question
        public_parent.open_thread(self)  # histories5 (issue 44): a private reply under a public comment
        self.opened = True
        self.views_judged()  # before the refusals: a reply that did not inherit is COMMENT-3's, not COMMENT-4's
        self.refusals_at_every_depth()

    def _reply_inheriting(self, data: st.DataObject, parent: Comment, how: str, ids_as_strings: bool = False,
                          send: bool = True) -> Comment:
        """A reply to a private comment by a drawn account of its audience, without privacy fields or with the same
        ones (``ids_as_strings``: the recipients' ids as strings, a stated form of an id): it inherits them
        (COMMENT-3). ``send`` False: the replier is drawn (every example draws alike) and nothing is sent."""
        replier = data.draw(st.sampled_from(sorted(r for r in parent.audience if r in MAY_USE_PRIVATE)),
                            label="replier")
        if not send:
            return parent
        vis = self.world.profile.visibility
        fields = (None, None) if how == "no fields" else (vis.recipients, sorted(parent.recipients))
        resp = self._post(replier, parent.id, *fields, "reply in a chain", ids_as_strings=ids_as_strings)
        if parent.id in self.locked and not 200 <= resp.status < 300:
            return parent  # whether a locked node takes comments is not stated: a refusal leaves the chain here
        # blind7 (issue 44): a 404 is the kind of parent's, not rule 3's. round61: so is any other 4xx to a reply rule
        # 3 allows that is not rule 4's 400 (no rule lets a comment on a readable comment be refused: a depth limit,
        # a parent's kind refused, is COMMENT-PARENT-KINDS's as much as rule 3's)
        refused_reply = 400 <= resp.status < 500 and resp.status != 404 and (
            how == "no fields" or INHERITED_MESSAGE not in resp.text)
        if self.state == "published" and (resp.status == 404 or refused_reply):
            self._fail(("COMMENT-PARENT-KINDS", "COMMENT-3") if refused_reply else "COMMENT-PARENT-KINDS",
                       f"{replier} replies with {how} at depth "
                       f"{parent.depth + 1} to comment {parent.id} (under the "
                       f"{'question' if parent.on_question else 'answer'}), which it reads: a comment may be posted "
                       f"on a comment wherever it sits; got {resp.status}", resp)
        self._expect(resp, 201, "COMMENT-3", f"{replier} replies with {how} at depth {parent.depth + 1} to private "
                                             f"comment {parent.id} (under the "
                                             f"{'question' if parent.on_question else 'answer'})")
        self._record(resp, replier, parent.recipients, reply=True, under=parent)
        return self.comments[new_id(resp)]

    def teardown(self) -> None:
        """The closing: the answer locked, then sent to moderation, every account reading after each
        (privacy_history.SubtreeModel.closing)."""
        self.closing()

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
            what = f"{author} replies to private comment {parent.id} with {option}"
            self._expect(resp, 400, "COMMENT-4", what)
            self._judge_inherited_message(resp, what)  # round13 (issue 44): at every depth the model reaches
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
            self._record(resp, author, frozenset(recipients), reply=True, parent=parent)
        else:
            resp = self._post(author, parent.id, None, None, "public reply")
            self._expect(resp, 201, "COMMENT-5", f"{author} replies to public comment {parent.id}")
            self._record(resp, author, None, reply=True, parent=parent)

    # ---- what every account sees ---------------------------------------------------------------------------

    @invariant()
    def every_account_sees_exactly_what_the_model_allows(self) -> None:
        self.views_judged()


@pytest.mark.properties
@pytest.mark.comments
@pytest.mark.writes
@pytest.mark.rule("COMMENT-RECIPIENT-ID-FORMS",  # recip (issue 44): the shared comment on the question's id forms
                  "COMMENT-1", "COMMENT-2", "COMMENT-3", "COMMENT-4", "COMMENT-400-MESSAGE", "COMMENT-5", "COMMENT-6",
                  "COMMENT-7-NO-PRIVATE-PERMISSION", "COMMENT-7-NO-OPTION-PERMISSION", "COMMENT-PRIVACY-LIST",
                  "COMMENT-PRIVACY-CONTENT", "COMMENT-PRIVACY-IDS", "COMMENT-VISIBILITY-RETURNED",
                  "OBS-REPLY-AUDIENCE", "PAGING-TOTALCOUNT-UNION",  # TOTALCOUNT: each read round
                  # the closing's lock and send to moderation, by two accounts (privacy_history._judge_move)
                  "ACTION-SENDTOMOD-REALUSER", "ACTION-SENDTOMOD-VERB", "ACTION-SENDTOMOD-PRIVATE", "ACTION-LOCK-EXTRA",
                  "ACTION-VERBS", "AUTH-ACTING-USER", "ACTION-NODE-ID",  # histories5: a reply sent to moderation too
                  "SHAPE-LOCK-NODE", "SHAPE-SEND-TO-MODERATION",  # accept22: a 200 without the record
                  # each read round's refusals and sorts, the empty list read first (blind6, issue 44)
                  "PERM-ANSWER-COMMENTS", "PAGING-SORTS-COMMENTS", "PAGING-LISTCOUNT",  # round43: every state
                  "COMMENT-PARENT-KINDS",  # every reply of the opening, under the answer and the question (blind7)
                  "COMMENT-201-LOCATION",  # round44 (issue 44): every 201's Location, at every depth
                  # each read round's items at every depth (round26, issue 44: subtree_views.ITEM_RULES)
                  "NODE-ORIGINAL-PARENT-ID", "NODE-TITLE-ANSWERS-COMMENTS", "SHAPE-DATES-MILLIS", "LIST-ITEM-TYPE",
                  "SHAPE-LIST-ANSWER-COMMENTS",
                  "PERM-LOCK-OWN")  # round32 (issue 44): member's lock of a comment private to it (recipient_relation)
@pytest.mark.parametrize("part", [pytest.param(p, id=f"part-{p + 1}-of-{PARTS}") for p in range(PARTS)])
def test_every_account_sees_exactly_the_comments_the_privacy_model_allows(
    part: int, api: dict[str, ApiClient], user_ids: dict[str, int], profile: Profile, run_tag: str, created: Any,
    sent: Budget, monkeypatch: pytest.MonkeyPatch, observe: Any, request: pytest.FixtureRequest,
) -> None:
    if not profile.supports("2.16.0"):
        skip(SkipKind.CONFIGURATION, f"disabled by configuration: private comments, which the model is about, were "
                                     f"added in 2.16.0, the target runs {profile.service_version}")
    budgeted = ApiClient.write_budget is not None and ApiClient.write_budget.budget is not None
    if budgeted and part:
        skip(SkipKind.WRITE_BUDGET, f"write budget: the privacy model's share ({sent.share_text()}) holds one "
                                    f"example's history (its subtree, the lock and the move to moderation), which "
                                    f"part 1 takes; parts run at once on several workers, so a second part would "
                                    f"leave both halfway. --thorough runs every part")
    missing = [r for r in ROLES if r not in user_ids]
    assert not missing, f"user ids of {missing} are unknown: give accounts.<role>.id in the profile {profile.path}"
    known = profile.visibility.readers
    world = World(api=api, user_ids=user_ids, profile=profile, run_tag=run_tag, created=created, budget=sent,
                  readers=frozenset(known or ()),
                  undecided=frozenset() if known is not None else frozenset(PRIVILEGED_READERS))
    try:
        on_question = request.getfixturevalue("private_comment_on_question").resp
        world.question_comment = new_id(on_question) if on_question.status == 201 else None
        world.question_comment_resp = on_question if on_question.status == 201 else None
    except pytest.skip.Exception:  # the suites' share was spent before anyone posted it: no thread under the question
        sent.over_budget["postComment (shared private comment on the question: thread left out)"] += 1
    try:  # histories5 (issue 44): the shared private reply under a public comment, and the answer both sit under,
        with in_suites_share():  # shared writes (their parents too), whoever asks first
            world.public_reply = request.getfixturevalue("private_reply_to_public_comment")
            world.public_parent = request.getfixturevalue("private_reply_parent")[1:]
            world.recipient_reply = request.getfixturevalue("recipient_reply_under_public")
            world.shared_answer = int(request.getfixturevalue("shared_answer"))
    except pytest.skip.Exception:
        world.public_reply = None
        sent.over_budget["postComment (shared private reply to a public comment: thread left out)"] += 1

    class Model(PrivacyModel):
        pass

    Model.world = world
    # this part's share of the file's time budget, from now (the whole of it when it is the only part that runs)
    sent.begin(SHARES["test_privacy_model.py"] / (1 if budgeted else PARTS))
    hypothesis.seed(sent.seed + part)(Model)
    examples = -(-max(3, sent.max_examples) // PARTS)  # the run's examples, shared out between the parts
    # Under a write budget no shrinking: every replay posts a fresh answer and its comments (about 200 writes for a
    # failure found), so the failing sequence is reported as found (at most STEPS steps after the opening thread).
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
