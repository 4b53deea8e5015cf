"""fix30 (issue 44): faults of the kind blind round 30's round30-sendtomod-after-unwikify-not-private is (an action's
stated effect broken only on a node after the state change unwikify, Wikified node -> Not wiki), on the neighbouring
fields of the same record: its verb and its realUser. Each breaks one sentence of the state table's send to
moderation on a node that was unwikified earlier only. Missed before the action matrix's node_state held
``unwikified`` (admin's send of the one-shot member_wiki_node_id after member unwikified it) and caught after. Wired in
:mod:`fix30_paths`.
"""

from __future__ import annotations

from .fault_model import Fault

FIX30: tuple[Fault, ...] = (
    Fault("fix30-sendtomod-after-unwikify-verb-wikified", "ACTION-SENDTOMOD-VERB",
          "the send to moderation of a node that was unwikified earlier returns a record with verb wikified (the "
          "verb of the node's last recorded action), though 'Returns an action record with verb sent and private "
          "true.'",
          draws=("member wiki send=after its unwikify",)),  # wiki20: the seed draws the send's order
    Fault("fix30-sendtomod-after-unwikify-realuser-author", "ACTION-SENDTOMOD-REALUSER",
          "the send to moderation of a node that was unwikified earlier names the node's author as realUser (the "
          "wiki's owner taken for the real user), though 'Some state-changing operations record both the effective "
          "user (user) and the real authenticated user (realUser).'",
          draws=("member wiki send=after its unwikify",)),  # wiki20: the seed draws the send's order
)
