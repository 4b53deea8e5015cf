"""paths15 (issue 44): faults on the paths the last session left open, one for each kind of path closed (where they
bite: :mod:`paths15_paths`, wired in actions.py, gdpr_jobs.py and one ``request_hooks.Hook``). Each breaks one stated
rule on one path only and was missed by main's suites at paths15's branch point d213639 (``qaconform selftest --fault
NAME --no-clean --jobs 1``) and caught after its change (ARCHITECTURE.md, paths15):

- "own" satisfied by answering (round41-cancelwiki-own-by-answerer's kind): the found-relations walk tells the
  relation apart (found_relations.ANSWERER) and the reference seed holds a wiki question of moderator's with a
  published answer of member's under it (seed_found.answered_wiki_question);
- a reply's owner taken from the comment it is under (round38-lock-own-reply-by-thread-root's kind): the walk reads
  the replies in the comment lists it reads anyway (found_relations.REPLY) and the seed holds novice's public reply
  under member's seeded comment (seed_found.reply_under);
- marked on the user question list for one reader: every reader reads the accepted answer's question in its asker's
  user question list (test_list_semantics.py);
- a job's own user in every stated form crossed with every account as reassignUser (test_gdpr_forms.py).

Planted on main and caught there already, so not kept (paths15's measure): a reply by the private chain's recipient
to a private reply with another visibility taken (COMMENT-4, caught by test_privacy_model.py).
"""

from __future__ import annotations

from .fault_model import Effect, Fault, Override, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    # --- "own" satisfied by answering the node
    _F("paths15-sendtomod-answerer-allowed", "PERM-SENDTOMOD",
       "'| 12 Send to moderation | Send already published question to moderation (Moderation Roles). |' (member "
       "holds no Moderation Role): member, who wrote a published answer directly under a question, may send that "
       "question to moderation (its contributors taken for its moderators); a question it did not answer, and every "
       "other kind, is refused",
       (Override(("sendToModeration",), "member", Effect.ALLOW),)),
    _F("paths15-lock-own-by-answerer", "PERM-LOCK-OWN",
       "'Lock comments on posts; for the caller's own node, Lock comments on own posts' (ownership on the wrong "
       "relation): a question under which the caller wrote an answer counts as its own, so member locks another's "
       "question it answered; every other kind, and a question it did not answer, is decided right"),
    # --- a reply's owner taken from the comment it is under
    _F("paths15-sendtomod-reply-by-parent-author", "PERM-SENDTOMOD",
       "'| 12 Send to moderation | Send already published question to moderation (Moderation Roles). |': member may "
       "send to moderation a reply (a comment under a comment) of another's under a comment member wrote (the "
       "thread's owner taken for a moderator of its replies); every other node is refused",
       (Override(("sendToModeration",), "member", Effect.ALLOW),)),
    # --- the paths issue 44's item list named, checked on main first
    _F("paths15-user-questions-anonymous-unmarked", "MARKED-ACCEPTED-QUESTION",
       "'| marked | boolean | true on an accepted answer and on the question that has it.': the user question list "
       "served to anonymous callers carries marked false on every question; signed-in callers, and every other "
       "list, get the accepted state"),
    _F("paths15-lock-user-last-accepted-caller", "AUTH-ACTING-USER",
       "'The acting user is taken from the credentials.': a lock's record names as its user the account whose "
       "ACCEPTED node action on the node came last (an audit column written on success); a lock right after the "
       "caller's own action, after a refused one, or on a node no action of the run touched, names the caller"),
    _F("paths15-reassign-moderator-emailed-user-refused", "GDPR-REASSIGN-FORMS",
       "'reassignUser ... Identifies the user to whom content is reassigned, by exactly one of username or id.': "
       "an individual job whose user is given by email refuses a reassignUser naming a moderator, by either form, "
       "as invalid (the email branch looks reassignUser up among the non-staff accounts); a user given by username "
       "or id, or a reassignUser naming any other account, is taken"),
)

_MISSED_REASONS: dict[str, str] = {
}
"""Missed after paths15's change (``qaconform selftest --fault NAME --no-clean``), with why it stays out."""

# PATHS15: Missed on main before paths15's change and caught after it: registered in faults.py.
# PATHS15_MISSED: Not registered, still wired, reasons in :data:`_MISSED_REASONS`.
PATHS15, PATHS15_MISSED = split_missed(_ALL, _MISSED_REASONS)
