"""Planted faults of the kinds closeb closes (issue 44: every role in every relation, a stated effect on some node kinds
or states only). A send to moderation of a node in a CHILD space (no send of a run acted in one before closeb:
moderator's shared send now acts on its answer to a child space's question, suites/conftest.py ``sent_to_mod_by``);
a refused unwikify of a wiki question holding an accepted answer, by an account that stands to it in no relation (the
found-relations walk now tries every found wiki node of an unwikify cell's relation, found_relations.also_placed);
a send of a question that holds an answer, met by the send's rules' tests alone since closeb (suites/
wiki_own_question.py ``reads_the_answered_send``). Each quotes the sentence it breaks, was missed before
(``qaconform selftest --fault NAME --no-clean --jobs 1`` without the suites' change) and is caught after. Part of
the registry (fault_list18.py); wired through :mod:`closeb_paths` (one entry of request_hooks.HOOKS).
"""

from __future__ import annotations

from .fault_model import Fault, allow

CLOSEB: tuple[Fault, ...] = (
    Fault("closeb-kind-sendtomod-child-space-not-private", "ACTION-SENDTOMOD-PRIVATE",
          "'Published node | PUT sendToMod | ... | Returns an action record with verb sent and private true.': the "
          "send to moderation of a node in a CHILD space (a space with a parent) returns its record with private "
          "false (the child space's own empty moderation settings are read instead of its parent's); root spaces "
          "as before"),
    Fault("closeb-kind-cancelwiki-accepted-wiki-question-any-caller", "PERM-CANCELWIKI",
          "'Wikified node (wiki true) | PUT cancelwiki | Caller has Mark as community wiki, or for own node Convert "
          "own posts to community wiki': a signed-in caller holding neither permission is let in to unwikify a "
          "wiki question that holds an accepted answer of another account's (the accepted thread's "
          "wiki flag is checked against the answer's acceptance, not the caller); other wiki nodes as before. The "
          "door lets novice in on cancelwiki; closeb_paths.before refuses it everywhere else, as before",
          allow("novice", "cancelWiki") + allow("novice", "cancelWiki", at="own")),
    Fault("closeb-kind-sendtomod-answered-question-no-node-id", "ACTION-NODE-ID",
          "'Action record: | node | object | id (integer), type (string). |': the send to moderation of a QUESTION "
          "that holds an answer returns its record naming the thread's last answer as its node (the record is "
          "built from the thread's newest post); questions without an answer and every other kind as before"),
)
