"""paths16 (issue 44): faults on the paths last session's blind rounds left out, one more of each kind closed (where
they bite: :mod:`paths16_paths`, one ``request_hooks.Hook``). Each breaks one stated rule on one path only, was missed
by main's suites at paths16's branch point 9d4b908 (``qaconform run --suites /work/main/suites --reference-fault
NAME --only RULE``, at a seed drawing the fault's ``draws``) and is caught after (``qaconform selftest --fault NAME
--no-clean --jobs 1``; ARCHITECTURE.md, paths16):

- an unwikify by the administrator (round43-cancelwiki-admin-not-canceled's kind): the account that unwikifies
  wiki_node_id is drawn by the run's seed (``qaconform.pytest.seed_draws.UNWIKIFIERS``), so the faults of admin's
  path name the admin draw and the self-test runs them at a seed that draws it;
- a record rule judged on a comment directly on a question (round43-sendtomod-question-comment-names-question's
  kind): moderator's send of member's comment on the wiki question judged ACTION-NODE-ID without naming the rule, so
  the rule's own tests (the self-test's batch) never ran it; the test names it now;
- rule 5 by the author of the public parent (round44-own-public-reply-privacy-dropped's kind): the public comment the
  run's shared private reply goes under is drawn by the seed (``seed_draws.PRIVATE_REPLY_PARENTS``): a public reply
  of novice's, or member's own comment, so member replies privately in its own public thread on half the seeds.
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_F = Fault

_ALL: tuple[Fault, ...] = (
    _F("paths16-cancelwiki-admin-stays-wiki", "ACTION-CANCELWIKI-NOT-WIKI",
       "'| Wikified node (wiki true) | PUT cancelwiki | ... | Not wiki |': an administrator's unwikify of a wiki "
       "node answers 200 with the wiki action canceled but leaves the node wiki (the administration branch cancels "
       "the action and never clears the node's flag); moderator's and the author's unwikify clear it",
       draws=("unwikifier=admin",)),
    _F("paths16-sendtomod-question-comment-type-table", "ACTION-NODE-ID",
       "'| node | object | id (integer), type (string). |': sending to moderation a comment written directly on a "
       "question returns a record whose node.type is the storage table's name, question_comment, not a node type; "
       "comments under answers or comments, answers and questions get their type"),
    _F("paths16-own-public-reply-listed-full", "COMMENT-VISIBILITY-RETURNED",
       "'When visibility is recipients and recipients lists ids, the comment is private to those recipients and a "
       "GET returns the given settings.': in an answer's comment list, a private reply whose writer also wrote the "
       "public comment it answers is shown with full visibility and no recipients (listed as its thread's top "
       "comment is); stored as set, and replies under another's comment are listed right",
       draws=("private reply parent=the replier's own comment",)),
)

_MISSED_REASONS: dict[str, str] = {}
"""Missed after paths16's change, with why it stays out (none)."""

# PATHS16: missed on main before paths16's change and caught after it: registered in faults.py.
PATHS16, PATHS16_MISSED = split_missed(_ALL, _MISSED_REASONS)
