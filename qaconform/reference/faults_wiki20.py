"""wiki20 (issue 44 items 2 and 5): faults on accepted actions on wiki nodes the run never took before, one more of
each kind closed (where they bite: :mod:`wiki20_paths`, one ``request_hooks.Hook``). Each breaks one stated rule on
one path only, was missed by the suites at wiki20's branch point 0ebe0f7 (``qaconform run --suites
/work/wt-int18/suites --reference-fault NAME --only RULE``, at a seed drawing the fault's ``draws``) and is caught
after (``qaconform selftest --fault NAME --no-clean --jobs 1``; ARCHITECTURE.md, wiki20):

- an accepted unwikify of an ANSWER (round51-cancelwiki-answer-stays-wiki's kind): the node the drawn unwikifier
  unwikifies is drawn by the run's seed (``qaconform.pytest.seed_draws.WIKI_NODE_KINDS``): wiki_node_id's question,
  or a wiki answer found by reads (suites/wiki_answer.py), so the faults of the answer path name that draw;
- a send to moderation while the node is wiki (round55-sendtomod-wiki-realuser-author's kind): admin's send of
  member_wiki_node_id comes before member's unwikify on half the seeds (``seed_draws.MEMBER_WIKI_SENDS``).
"""

from __future__ import annotations

from .fault_model import Fault, split_missed

_ALL: tuple[Fault, ...] = (
    Fault("wiki20-kind-cancelwiki-answer-node-is-question", "ACTION-NODE-ID",
          "'| node | object | id (integer), type (string). |': unwikifying an ANSWER answers 200 with the canceled "
          "wiki action whose node is the answer's question (the answer service builds the record from the thread "
          "it updates); a question's unwikify names the question",
          draws=("wiki node kind=an answer",)),
    Fault("wiki20-kind-sendtomod-wiki-not-private", "ACTION-SENDTOMOD-PRIVATE",
          "'Returns an action record with verb sent and private true.': sending a community-wiki node (wiki true) "
          "to moderation returns the record with private false (the wiki's public history taken for the record's "
          "audience); a node that is not wiki gets private true",
          draws=("member wiki send=before its unwikify",)),
)

_MISSED_REASONS: dict[str, str] = {}
"""Missed after wiki20's change, with why it stays out (none)."""

# WIKI20: missed on int18 (0ebe0f7) before wiki20's change and caught after it: registered in fault_list.py.
WIKI20, WIKI20_MISSED = split_missed(_ALL, _MISSED_REASONS)
