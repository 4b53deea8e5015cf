"""The privacy model and its history across the state table (its data: privacy_world.py; test_privacy_model.py holds
the drawn steps).

One model serves every history: the comments the run posted (who wrote each, who it is private to, which private
comment a reply inherited through, whether it hangs under the answer or the question) and the state the answer is
in. The model is the description's rules, written small and grown with the state table, not the embedded reference
server run as an oracle: the suites never import the reference server (ARCHITECTURE.md), an oracle would share its
misreadings, and where the description is silent the model must say nothing (variants.py lists those readings),
which a second implementation would decide one way.

The history of one example: an opening (a fresh answer, a private comment with replies at depths 1 and 2, a reply
under the shared private comment on the question, rule 3's two forms each at both depths and under both kinds of
parent, the same fields with ids as strings and as integers, and every refusal of rules 4, 6 and 7 tried at every
depth and under every kind of parent, which a conforming target refuses and so costs no write),
the drawn steps, and a closing that moves the answer through the state table: locked by its author, then sent to
moderation. Each comment is read back at its Location right after its 201 (its settings, whatever its parent: a
thread under the question shows in no list that returns them). After each step, every account reads every list that
shows the subtree (subtree_views.py) and every comment the answer's list shows carries its settings:
- "Locked: Only the user who locked it can edit it" says nothing of who reads it: after the lock every account must
  be shown exactly what it was before; whether a locked node takes comments is not stated, so the refusals tried
  again after it must only not be accepted (any refusal will do);
- who sees a node in moderation is not shown: after it nothing is judged but leaks (a private comment shown to a
  reader it is not private to) and refusals accepted.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, ClassVar, NoReturn

import location_order
import locked_parent_post
import public_parent
import pytest
import recipient_relation
import subtree_moderation
import undecided_readers
from created_location import location_problem
from privacy_world import CLOSING_WRITES, ROLES, Comment, World
from recipient_forms import lost_only_strings
from subtree_views import READERS, Views, count_problem, privileged_last, read_views, reading_order, settings_of

from qaconform.invariants import listcount_problems
from qaconform.pytest.outcomes import fail
from qaconform.pytest.support import PRIVILEGED_READERS, location_path, new_id, post_comment, settle
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.writes import SUITES

INHERITED_MESSAGE = "Visibility on comment can't be defined since it's inherited"
"""The message of rule 4's 400 ("message: Visibility on comment can't be defined since it's inherited")."""


def _strings_in(value: Any) -> list[str]:
    """Every string of a JSON value (where a 400's message sits is not shown: any key, any depth)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings_in(v)]
    return []


class SubtreeModel:
    """What the model knows and how it judges; the state machine's rules are in test_privacy_model.py."""

    world: ClassVar[World]

    def __init__(self) -> None:
        super().__init__()
        self.answer = 0
        self.comments: dict[int, Comment] = {}
        self.opened = False
        self.state = "published"
        """The answer's state: published, locked, in moderation."""
        self.failed = False
        self.moderated: set[int] = set()
        """Comments of the model sent to moderation on their own (histories5: who reads them then is not shown)."""
        self.probing = False
        """round87 (issue 44): the posts sent now are refusals sent as probes (:meth:`refusals_after`)."""
        self.locked: set[int] = set()
        """Comments of the model locked on their own (histories3: a private comment, then every read and rule 4)."""
        self.judged: tuple[int, str] = (0, "")
        """What the last read round saw judged: the number of comments and the answer's state."""
        """A step of this example failed: its closing is not sent (hypothesis's replay of it, a new machine, does)."""

    # ---- posting --------------------------------------------------------------------------------------------

    def out_of_time(self) -> None:
        """Past this test's share of --time-budget, or without room for the step and the closing: stop the whole
        run here (BudgetSpent), before anything is sent.

        Never a step that returns early: the same choices would then draw differently before and after the deadline
        (a reply draws its parent only when it runs), which hypothesis reports as FlakyStrategyDefinition.
        """
        self.world.budget.check("postComment (privacy model)", writes=1 + CLOSING_WRITES)

    def _post(self, author: str, parent: int, visibility: str | None, recipients: list[str] | None,
              text: str, ids_as_strings: bool = False) -> ApiResponse:
        """``ids_as_strings``: the recipients' ids sent as strings ("Each item has id (integer or string)")."""
        w = self.world
        w.budget.check(f"postComment (privacy model: {text})", writes=0 if self.probing else 1)  # a chain posts several
        w.steps += 1
        ids: list[Any] | None = None
        if recipients is not None:
            ids = [str(w.user_ids[r]) if ids_as_strings else w.user_ids[r] for r in recipients]
        resp = post_comment(w.api[author], parent, w.run_tag, w.created, text=text, visibility=visibility,
                            recipients=ids)
        w.budget.record(f"postComment (privacy model: {text})", resp.status)
        return resp

    def _fail(self, rules: str | tuple[str, ...], message: str, response: ApiResponse | None = None) -> NoReturn:
        """Fail the step for ``rules``; from now on the deadline no longer cuts steps, so shrinking replays the same
        sequence."""
        self.world.budget.failing = self.failed = True
        seed = self.world.budget.seed
        fail(rules, f"{message} (answer {self.state}; seed {seed}; rerun with --seed {seed})", response)

    def _expect(self, resp: ApiResponse, status: int, rule: str, what: str, locked: bool = False) -> None:
        """``locked``: posted under a comment locked on its own, which may refuse any post (not stated): only a 2xx
        of what the rule refuses is judged."""
        if (self.state != "published" or locked) and 200 <= resp.status < 300:
            self._fail(rule, f"{what} with the answer {self.state}: expected a refusal (the rule's {status}, or "
                             f"the state's), got {resp.status}", resp)
        if self.state == "published" and not locked and resp.status != status:
            self._fail(rule, f"{what}: expected {status}, got {resp.status}", resp)

    def _judge_inherited_message(self, resp: ApiResponse, what: str) -> None:
        """round13 (issue 44): the 400 of rule 4 carries the stated message at every depth of a private thread, not
        only on a direct reply to the private comment ("message: Visibility on comment can't be defined since it's
        inherited"); judged wherever the model meets that 400 on a published answer (after a state change a 4xx may
        be the state's own refusal, whose message is not shown)."""
        if resp.status != 400 or self.state != "published":
            return
        try:
            texts = [t.strip() for t in _strings_in(resp.json())]
        except AssertionError:
            texts = [resp.text.strip()]
        if INHERITED_MESSAGE not in texts:
            self._fail("COMMENT-400-MESSAGE", f"{what}: the 400 must carry the message {INHERITED_MESSAGE!r}; the "
                                              f"body's strings are {texts[:10]}", resp)

    def _record(self, resp: ApiResponse, author: str, recipients: frozenset[str] | None, reply: bool,
                under: Comment | None = None, parent: Comment | None = None, on_question: bool = False) -> None:
        """``under``: the private comment a reply inherits its settings from; ``parent``: the comment it answers."""
        cid = new_id(resp)
        thread = under.thread_authors | {under.author} if under is not None else frozenset()
        parent = parent or under
        self.comments[cid] = Comment(cid, author, recipients is not None, recipients or frozenset(), reply, thread,
                                     on_question or (parent is not None and parent.on_question),
                                     parent.depth + 1 if parent is not None else 0,
                                     on_shared=parent is not None and parent.on_shared,
                                     parent=parent.id if parent is not None else 0)
        self._judge_stored(resp, self.comments[cid])

    def _judge_stored(self, resp: ApiResponse, c: Comment) -> None:
        """The new comment read back by its author at its Location, right after its 201: "a later GET returns exactly
        that" (rule 1), "a GET returns the given settings" (rule 2), and a reply inherits (rule 3), whatever the
        parent (a thread under the question shows in no list that returns the settings). Not judged where the
        target gives no Location under the service root, or does not serve it (LOCATION-READABLE's, should); the
        Location itself is judged first on every 201, at every depth (round44: created_location.py)."""
        w = self.world
        if resp.status == 201 and (problem := location_problem(resp, c.id)):
            self._fail("COMMENT-201-LOCATION", f"comment {c.id} by {c.author} (depth {c.depth}, reply: {c.reply}): "
                                               f"\"The Location response header holds the URL of the new comment\"; "
                                               f"{problem}", resp)
        path = location_path(w.profile.api_root, resp.headers.get("location", ""))
        got = w.api[c.author].get(path) if path else None
        body = got.json() if got is not None and got.status == 200 else None
        if not isinstance(body, dict) or str(body.get("id")) != str(c.id):
            return
        location_order.judge(c, path, w.api, self._leaked, self._fail)  # round48: an outsider reads the URL next
        wrong = self._settings_wrong(c, *settings_of(body))
        if wrong:
            inherited = c.reply and bool(c.thread_authors)
            rule_id = "COMMENT-1" if not c.private else "COMMENT-3" if inherited else (
                "COMMENT-5" if c.reply else "COMMENT-2")
            if c.as_strings and lost_only_strings(frozenset(str(w.user_ids[r]) for r in c.as_strings),
                                                  {str(w.user_ids[r]) for r in c.recipients}, settings_of(body)[1]):
                rule_id = "COMMENT-RECIPIENT-ID-FORMS"  # "Each item has id (integer or string)": the strings lost
            full = c.private and self.world.profile.visibility.reads_as_full(body.get("visibility"))
            rules = (rule_id,) if not c.private or full else (rule_id, "COMMENT-VISIBILITY-RETURNED")
            where = "the question" if c.on_question else f"answer {w.shared_answer if c.on_shared else self.answer}"
            self._fail(rules, f"comment {c.id} by {c.author} under {where} (depth {c.depth}, reply: {c.reply}) reads "
                              f"back at its Location with {wrong}", got)

    def _settings_wrong(self, c: Comment, visibility: Any, recipients: set[str] | None) -> str | None:
        """What is wrong with a comment's returned settings by the model, or None: a private comment carries
        visibility recipients and exactly its recipients' ids; a public one full visibility and no recipient."""
        w = self.world
        if c.private:
            want = {str(w.user_ids[r]) for r in c.recipients}
            if visibility == w.profile.visibility.recipients and recipients == want:
                return None
            return (f"visibility={visibility!r} recipients={sorted(recipients) if recipients is not None else None}, "
                    f"though it is private to {sorted(c.recipients)}: visibility {w.profile.visibility.recipients!r} "
                    f"and recipients {sorted(want)}")
        if w.profile.visibility.reads_as_full(visibility) and not recipients:
            return None
        return (f"visibility={visibility!r} recipients={sorted(recipients) if recipients else recipients}, though it "
                f"was posted without privacy fields: full visibility and no recipients")

    def _visible_to(self, role: str, private: bool) -> list[int]:
        """Newest first: hypothesis favours early choices, so replies to replies (deeper chains) come up often."""
        return sorted((c.id for c in self.comments.values() if role in c.audience and c.private == private),
                      reverse=True)

    # ---- judging --------------------------------------------------------------------------------------------

    def _judged(self, c: Comment, role: str) -> bool:
        """Whether the model says if ``role`` sees ``c``: not for a private comment and a role whose view of private
        comments the profile does not give, nor for a thread author outside a reply's inherited audience."""
        if c.private and role in self.world.undecided:
            return False
        return not (c.private and role in c.thread_authors and not self._entitled(c, role))

    def _entitled(self, c: Comment, role: str) -> bool:
        return role in c.audience or (c.private and role in self.world.readers)

    def _leaked(self, c: Comment, role: str) -> bool:
        """A private comment shown to ``role``, which it is not private to (anonymous never is)."""
        return c.private and self._judged(c, role) and not self._entitled(c, role)

    def _missing(self, seen_by: dict[str, set[int] | None]) -> bool:
        """Whether a comment the model says is listed to a role is not (what a list that lags writes explains).
        Nothing is missing while the answer is in moderation (who sees it then is not shown)."""
        if self.state == "in moderation":
            return False
        on_answer = [c for c in self.comments.values() if not (c.on_question or c.on_shared or c.id in self.moderated)]
        for c in on_answer:
            shown = {r for r in ROLES if c.id in (seen_by.get(r) or set())}
            for role in ROLES:
                if not self._judged(c, role) or not self._entitled(c, role) or c.id in (seen_by.get(role) or set()):
                    continue
                if not c.reply or (shown and role != c.author and role in c.audience):
                    return True
        return False

    def read_round(self) -> Views:
        """Every list of the subtree as every account is shown it, read back to back in this round's order; leaks
        are judged on every read at once, then the reads are repeated within the settle window until nothing the
        model says must be listed is missing."""
        w = self.world

        def once() -> Views:
            w.rounds += 1
            return self._read_and_judge(lambda entitled: reading_order(entitled, w.rounds))

        return settle(w.api["member"], f"every account's view of the subtree of answer {self.answer}", once,
                      lambda views: not self._missing(views.comments) and not public_parent.missing(self, views))

    def _read_and_judge(self, order: Any, per_thread: bool = False) -> Views:
        """Every list of the subtree read once by every reader in ``order`` (a function of how many comments each
        reader is entitled to; ``per_thread``: the lists that show one thread only ordered by what each reader is
        entitled to of that thread); what is shown too widely, refused, miscounted or without sorts judged at once."""
        w = self.world

        def entitled(on_question: bool | None) -> dict[str, int]:
            return {r: sum(self._entitled(c, r) for c in self.comments.values()
                           if on_question is None or c.on_question == on_question) for r in ROLES}

        authors = {c.author: w.user_ids[c.author] for c in self.comments.values()}
        by_list = {"answer": order(entitled(False)), "question": order(entitled(True))} if per_thread else None
        views = read_views(w.api, self.answer, authors, w.profile.fixtures.question_id,
                           w.profile.fixtures.space_id, w.user_ids["member"], order(entitled(None)), by_list,
                           w.shared_answer if any(c.on_shared for c in self.comments.values()) else 0)
        public_parent.judge_leaks(self, views)  # histories5 (issue 44): the thread under a public comment
        self._judge_served(views)
        self._judge_leaks(views)
        undecided_readers.judge(self, views)  # priv23 (issue 44): a content list's leak to an undecided reader
        self._judge_counts(views)
        self._judge_items(views)
        return views

    def other_order_round(self) -> None:
        """The step's lists read again at once in the other order (histories2, issue 44): the privileged accounts
        last and anonymous right after the one entitled to the most of what that URL shows (the answer's thread or
        the question's), so that after every step every URL is read with a privileged read both right before and
        right after an unprivileged one, and anonymous right after the privileged read that shows the most. Leaks,
        refusals, counts and each listed comment's settings are judged; what must be listed was settled by the round
        before."""
        views = self._read_and_judge(lambda entitled: privileged_last(entitled, PRIVILEGED_READERS), per_thread=True)
        self.world.budget.statuses["listAnswerComments (privacy model)"][200] += len(READERS)
        self._judge_listed_settings(views)

    def _judge_served(self, views: Views) -> None:
        """The answer's comment list as each signed-in account is served it in every state the history passes
        through, refusals in every state but moderation (blind6, issue 44: a state flag on a read path). "| 18
        Answer's comments | View answers in the question page and View the question page (Anonymous Roles)":
        every account holds those, and a lock says nothing of who reads ("Only the user who locked it can edit
        it"), so a 401 or 403 after the lock breaks the list's permission; and "sorts ... Present on question and
        comment lists" on every page, in moderation too (round43, issue 44: only a refusal is the state's to decide
        there; a list the target serves is a comment list whatever state its answer is in)."""
        moderated = self.state == "in moderation"  # who reads a node in moderation is not shown: a refusal may be
        for role in ROLES:  # the state's
            resp = views.answers.get(("comments", role))
            if resp is not None and resp.status in (401, 403) and not moderated:
                self._fail("PERM-ANSWER-COMMENTS", f"{role} is refused the comment list of answer {self.answer} "
                                                   f"(answer {self.state}), which every account may list", resp)
            if resp is not None:
                self.judge_sorts(resp, f"answer {self.answer}'s comment list read by {role}")

    def judge_sorts(self, resp: ApiResponse, what: str) -> None:
        """"sorts | array of string | Present on question and comment lists" and (round43, issue 44) "listCount |
        Number of items in this page": on a 200 envelope of the answer's comment list, whatever it holds (an empty
        list too: the serializer of an empty page is a path of its own) and whatever state the answer is in."""
        body = resp.json() if resp.status == 200 else None
        if not isinstance(body, dict) or not isinstance(body.get("list"), list):
            return  # not an envelope: the list's shape rules judge that on their own reads
        if counted := listcount_problems(body):  # a page over its pageSize too (one response: no lag to wait for)
            self._fail("PAGING-LISTCOUNT", f"{what}: {'; '.join(counted)}", resp)
        sorts = body.get("sorts")
        if not (isinstance(sorts, list) and all(isinstance(x, str) for x in sorts)):
            self._fail("PAGING-SORTS-COMMENTS", f"{what} ({len(body['list'])} items) carries no sorts array of "
                                                f"strings: {sorts!r}", resp)

    def _judge_items(self, views: Views) -> None:
        """The comment list's item rules (subtree_views.ITEM_RULES) on every comment of the subtree as each reader is
        shown it after the step (round26, issue 44): the lists of the seeded nodes hold no reply to a reply, the
        history holds one at every depth it reaches."""
        for role in READERS:
            for rule, problems in sorted((views.items.get(role) or {}).items()):
                self._fail(rule, f"answer {self.answer}'s comment list read by {role} (answer {self.state}): "
                                 f"{'; '.join(problems[:3])}", views.answers.get(("comments", role)))

    def _judge_counts(self, views: Views) -> None:
        """The answer's comment count as each reader is shown it right after the step (blindr, issue 44: a count
        kept a few seconds after a write, on the one list whose writes are the model's own, so no other test's
        write moves it between the count and the items of one response)."""
        for role in READERS:
            resp = views.answers.get(("comments", role))
            problem = count_problem(resp) if resp is not None else None
            if problem:
                self._fail("PAGING-TOTALCOUNT-UNION", f"answer {self.answer}'s comment list read by {role} right "
                                                      f"after the step (before it: {self._before(views, role)}): "
                                                      f"{problem}", resp)

    def _judge_leaks(self, views: Views) -> None:
        """What is shown too widely, in any list: charged to the rule of that list (COMMENT-3 too for a reply in the
        comment list, which had to inherit its parent's privacy)."""
        curl = f"curl -sS -u \"$USER:$PASSWORD\" '{self.world.profile.api_root}/answer/{self.answer}/comment.json'"
        for role in READERS:
            for cid in sorted((views.comments.get(role) or set()) & set(self.comments)):
                c = self.comments[cid]
                if self._leaked(c, role):
                    rules = ("COMMENT-3", "COMMENT-PRIVACY-LIST") if c.reply else ("COMMENT-PRIVACY-LIST",)
                    self._fail(rules, f"{role} is shown comment {c.id} by {c.author} (depth {c.depth}), which is "
                                      f"private to {sorted(c.audience)} (reply: {c.reply}); reproduce with: {curl}"
                                      f"   # as {role}, right after {self._before(views, role)}",
                               views.answers.get(("comments", role)))
            for (reader, author), ids in sorted(views.content.items()):
                for cid in sorted((ids or set()) & set(self.comments)) if reader == role else ():
                    c = self.comments[cid]
                    if self._leaked(c, role):
                        where = "the question" if c.on_question else f"answer {self.answer}"
                        self._fail("COMMENT-PRIVACY-CONTENT",
                                   f"{role} is shown {author}'s comment {c.id} under {where} (depth {c.depth}) in "
                                   f"{author}'s content list (users/gdpr/{self.world.user_ids[author]}/content.json), "
                                   f"though it is private to {sorted(c.audience)}",
                                   views.answers.get(("content:" + author, role)))
            for where, ids in sorted(views.named.get(role, {}).items()):
                for cid in sorted(ids & set(self.comments)):
                    c = self.comments[cid]
                    if self._leaked(c, role):
                        self._fail("COMMENT-PRIVACY-IDS",
                                   f"{role} is shown the id of comment {c.id} by {c.author} in commentIds or "
                                   f"childrenIds in {where}, though it is private to {sorted(c.audience)}")

    def views_judged(self) -> None:
        """Every account reads every list (:meth:`read_round`: leaks judged there) and is shown exactly what the
        model allows in the answer's comment list: each top-level comment it is entitled to, each reply to all of
        its audience or to none of it (whether replies are listed there at all is not stated)."""
        if not self.answer or self.judged == (len(self.comments), self.state):
            return  # nothing changed since the last round (the refusals after the opening change nothing)
        self.judged = (len(self.comments), self.state)
        w = self.world
        views = self.read_round()
        w.budget.statuses["listAnswerComments (privacy model)"][200] += len(READERS)
        self._judge_listed_settings(views)
        self.other_order_round()  # histories2 (issue 44): both orders after every step
        public_parent.judge_listed(self, views)  # histories5: the shared answer is in no state of the model's
        if self.state == "in moderation":
            return  # who reads a node in moderation is not shown: only leaks are judged
        on_answer = [c for c in self.comments.values() if not (c.on_question or c.on_shared or c.id in self.moderated)]
        seen_by = {r: views.comments.get(r) or set() for r in ROLES}
        curl = f"curl -sS -u \"$USER:$PASSWORD\" '{w.profile.api_root}/answer/{self.answer}/comment.json'"
        for role, seen in seen_by.items():
            unknown = seen - set(self.comments)
            if unknown:
                self._fail("COMMENT-PRIVACY-LIST", f"{role} is shown comments {sorted(unknown)} under answer "
                                                   f"{self.answer} that nobody posted in this sequence")
            for c in on_answer:
                if not self._judged(c, role):
                    if c.private and role in c.thread_authors and role not in w.undecided:
                        w.thread_views[(c.id, role)] = c.id in seen
                    continue
                if not c.reply and self._entitled(c, role) and c.id not in seen:
                    rule_id = "COMMENT-2" if c.private else "COMMENT-1"
                    what = f"private to {sorted(c.audience)}" if c.private else "public"
                    self._fail(rule_id, f"{role} is not shown comment {c.id} by {c.author} although it is {what}; "
                                        f"reproduce with: {curl}   # as {role}", views.answers.get(("comments", role)))
        for c in on_answer:
            shown = {r for r in ROLES if c.id in seen_by[r]}
            missing = sorted(r for r in c.audience if r not in shown and r != c.author) if c.reply and shown else []
            if missing:
                self._fail("COMMENT-3", f"reply {c.id} by {c.author} (depth {c.depth}) is listed to {sorted(shown)} "
                                        f"but not to {missing}, who may see it (it inherits {sorted(c.audience)})")

    def _judge_listed_settings(self, views: Views) -> None:
        """Every comment of the model the answer's comment list shows, to every reader, in every state, carries the
        settings it was given or inherited: "Both visibility and recipients are returned when a comment is
        retrieved" (a list that loads them for the answer's own comments only drops them on replies)."""
        for role in READERS:
            for cid, (visibility, recipients) in sorted((views.settings.get(role) or {}).items()):
                c = self.comments.get(cid)
                wrong = None if c is None else self._settings_wrong(c, visibility, recipients)
                if c is not None and wrong:
                    self._fail("COMMENT-VISIBILITY-RETURNED" if c.private else "COMMENT-1",
                               f"{role} is shown comment {c.id} by {c.author} (depth {c.depth}, reply: {c.reply}) in "
                               f"the comment list of answer {self.answer} with {wrong}",
                               views.answers.get(("comments", role)))

    @staticmethod
    def _before(views: Views, role: str) -> str:
        order = list(views.comments)
        at = order.index(role) if role in order else 0
        return f"{order[at - 1]}'s read of the same URL" if at else "no other read of it"

    # ---- the history ------------------------------------------------------------------------------------------

    def refusals_at_every_depth(self, only: Comment | None = None) -> None:
        """Every refusal of operation 1 tried under every kind of parent at every depth of the subtree: rule 4 (a
        reply to a private comment with another visibility: 400) on each private comment of both threads, rules 6
        and 7 (recipients without visibility recipients: 400; a private option the caller lacks: 403) on the answer,
        the question and each public comment. A conforming target refuses them all: no write is spent. ``only``:
        rule 4 on that comment alone (histories3: right after its own lock)."""
        w, vis = self.world, self.world.profile.visibility
        question = w.profile.fixtures.question_id
        for c in sorted(self.comments.values(), key=lambda c: (c.on_question, c.depth, c.id)):
            if c.private and (only is None or c.id == only.id):
                option = "to_moderators" if c.author == "member" else "to_own_groups"
                if getattr(vis, option) is None:
                    option = "to_original_poster"
                resp = self._post(c.author, c.id, getattr(vis, option), None, "reply with another visibility")
                what = (f"{c.author} replies at depth {c.depth + 1} to private comment {c.id} (under the "
                        f"{'question' if c.on_question else 'answer'}) with {option}")
                self._expect(resp, 400, "COMMENT-4", what, locked=c.id in self.locked | self.moderated)
                if c.id not in self.locked | self.moderated:
                    self._judge_inherited_message(resp, what)
        if only is not None:
            return
        recipient_relation.locks_refused(self)  # round32 (issue 44): member as a recipient is no owner
        public = [(f"answer {self.answer}", self.answer), (f"question {question}", question)] + [
            (f"public comment {c.id} (depth {c.depth})", c.id) for c in self.comments.values() if not c.private]
        for label, node in public:
            for author, option, recipients, status, rule_id in (
                    ("member", "to_original_poster", ["moderator"], 400, "COMMENT-6"),
                    ("novice", "recipients", ["moderator"], 403, "COMMENT-7-NO-PRIVATE-PERMISSION"),
                    ("member", "to_own_groups", None, 403, "COMMENT-7-NO-OPTION-PERMISSION")):
                value = getattr(vis, option)
                if value is None:
                    continue  # the profile does not give this option's wire value (site configuration)
                resp = self._post(author, node, value, recipients, "refused")
                if rule_id == "COMMENT-7-NO-PRIVATE-PERMISSION" and resp.status == 401:
                    continue  # for visibility recipients any denial will do (test_comment_privacy.py says why)
                self._expect(resp, status, rule_id, f"{author} comments on {label} with {option} and recipients "
                                                    f"{recipients}")

    def closing(self) -> None:
        """The answer through the state table: locked by its author (Lock comments on own posts), every account
        reads, the refusals are tried again; then sent to moderation by moderator, every account reads, the refusals
        are tried again (round87, issue 44: a reply with another visibility accepted once the answer was sent)."""
        w = self.world
        if not self.opened or self.state != "published" or self.failed:
            return
        prompt = {"prompt": f"privacy model history [{w.run_tag}]"}
        with self.in_suites_share("a reply of the subtree sent to moderation") as room:
            if room:  # histories5 (issue 44): a node inside the subtree moved, the rest judged as before
                subtree_moderation.send_a_reply(self)
        moves = (("locked", "member", "lock.json", "lockNode", prompt),
                 ("in moderation", "moderator", "sendToMod.json", "sendToModeration", None))
        for state, role, verb, operation, params in moves:
            w.budget.check(f"{operation} (privacy model)", writes=1)
            resp = w.api[role].put(f"node/{self.answer}/{verb}", params=params, operation=operation)
            w.budget.record(f"{operation} (privacy model)", resp.status)
            subtree_moderation.judge_move(self, operation, role, resp, (params or {}).get("prompt"))
            self.state = state  # refused or not, privacy holds: judged as if the move took
            self.views_judged()
            self.refusals_after(state)  # round87 (issue 44): after every move, the send to moderation too
            if state == "locked":
                locked_parent_post.private_comment_on_locked_answer(self)  # round32 (issue 44)
        w.closings += 1

    def refusals_after(self, state: str) -> None:
        """The refusals tried again after a move of the closing (round87, issue 44: a reply asking another visibility
        accepted only once the answer was sent to moderation). After the lock the model's share still holds the send;
        after the send it holds nothing, so they go out as the refusals they are on a conforming target: charged to
        the suites' share as ``refused_writes`` are, a probe of the refusals' share once it is spent (writes.REFUSALS),
        never an accepted write more on a conforming target; one it cannot send ends the step, counted."""
        budget = ApiClient.write_budget
        if state == "locked" or budget is None or budget.budget is None:
            self.refusals_at_every_depth()
            return
        self.probing = True
        try:
            with budget.charged_to(SUITES), budget.as_refusals():
                self.refusals_at_every_depth()
        except pytest.skip.Exception:
            self.world.budget.over_budget[f"privacy model: the refusals with the answer {state} (no probe room)"] += 1
        finally:
            self.probing = False

    @contextlib.contextmanager
    def in_suites_share(self, what: str) -> Iterator[bool]:
        """Writes of the history beyond the model's share (histories3, issue 44: the reply at depth 3, the lock of a
        private comment) are charged to the suites' share, where two writes that repeated another test's request
        are now shared (suites/conftest.py ``private_comment_on_answer``, and test_comment_privacy.py's comment on
        the question reads ``private_comment_on_question``): yields whether that share has room (always, without a
        budget); without room the step is left out and counted."""
        budget = ApiClient.write_budget
        if budget is None or budget.budget is None:
            yield True
            return
        with budget.charged_to(SUITES):
            room = self.world.budget.writes_left()
            if not room:
                self.world.budget.over_budget[f"privacy model: {what} (the suites' share is spent)"] += 1
            yield room

    def lock_a_private_comment(self, c: Comment) -> None:
        """A private reply of the opening locked by its author (Lock comments on own posts; admin and moderator hold
        Lock comments on posts) before anyone replies to it, the answer still published (histories3, issue 44; moved
        from the closing into the opening by round27, so that replies are posted under it: rule 3 after a state
        change). A lock says nothing of who reads it ("Only the user who locked it can edit it"), so every account must
        be shown exactly what it was before, on every list, in both orders; and a reply to it asking another
        visibility must still not be accepted (rule 4; whether a locked node takes comments is not stated, so any
        refusal will do)."""
        w = self.world
        prompt = {"prompt": f"privacy model history [{w.run_tag}]"}
        w.budget.check("lockNode (privacy model: a private comment)", writes=1)
        resp = w.api[c.author].put(f"node/{c.id}/lock.json", params=prompt, operation="lockNode")
        w.budget.record("lockNode (privacy model: a private comment)", resp.status)
        subtree_moderation.judge_move(self, "lockNode", c.author, resp, prompt["prompt"], c.id,  # states (issue 44)
                                      f"{c.author}'s lockNode of its private comment {c.id} (depth {c.depth}, private "
                                      f"to {sorted(c.audience)})")
        if resp.status != 200:
            return  # a refusal: who may lock a comment is the permission tests' to judge (a 5xx judged above)
        self.locked.add(c.id)
        self.judged = (0, "")
        self.views_judged()
        self.refusals_at_every_depth(only=c)
