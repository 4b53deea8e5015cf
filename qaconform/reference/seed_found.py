"""Nodes seeded for the found-relations walk (suites/contract/found_relations.py), paths15 (issue 44): a relation the
walk tells apart needs a node in that relation that the profile's accounts wrote before the run, and the run may not
write one (an accepted write on a node not the run's). Each is seeded after every other node and dated before them
(or added after its question's fields are drawn), so that no other node's id, no question's counts or last activity
and no list's first page moves.
"""

from __future__ import annotations

from typing import Any

from .seed_people import BASE_MS, DAY_MS

_FIXTURE_SPACE_ID = 1
_WIKI_COLUMN = 23
"""The position of ``wiki`` in a node row (seed.NODE_COLUMNS)."""
_Builder = Any
"""seed._Builder (seed.py imports this module, so it is not imported back: tests/reference/test_reference_layout.py)."""


def reply_under(b: _Builder, comment: tuple[Any, ...], author: int) -> None:
    """A public reply by ``author`` under a public comment of another's (found_relations.REPLY): the comment's
    author then stands to a reply it did not write as the author of the comment it is under, the relation
    round38-lock-own-reply-by-thread-root takes for "own". The seed held no reply outside the fixture question, under
    which the walk never acts."""
    cid, question, answer, space, date = comment[0], comment[3], comment[4], comment[5], comment[9]
    b.nodes.append(b.child("comment", cid, question, answer, space, author, "<p>It does; the topics move with it.</p>",
                           date=date + 3_600_000, depth=3))


def answered_wiki_question(b: _Builder) -> int:
    """A community-wiki question of moderator's with a published answer of member's (found_relations.ANSWERER): the
    one node member did not write and answered that is wiki, so the walk tries member's refused unwikify, lock and
    send where "caller answered the node" could be taken for "own" (round41-cancelwiki-own-by-answerer). The fixture
    wiki nodes have no answer, and the run writes none under them. round48 (issue 44): the answer is the accepted one
    (marked, and the question with it), so that member also stands to it as the author of its accepted answer
    (found_relations.Found.accepted), the relation round48-lock-question-by-accepted-answerer takes for "own"; the
    fixture question's accepted answer is member's too, but the walk never acts under a fixture."""
    moderator, member = 2, 3
    qid = b.new_id()
    date = BASE_MS - 34 * DAY_MS
    answer = b.child("answer", qid, qid, None, _FIXTURE_SPACE_ID, member,
                     "<p>Ctrl+K opens the search box on every page.</p>", date=date + 3_600_000, depth=1, marked=1)
    b.question(qid, _FIXTURE_SPACE_ID, moderator, "Keyboard shortcuts (community wiki)", children=[answer],
               topics=(6,), wiki=1, marked=1, date=date)
    b.action("wikified", moderator, qid, date)
    return qid


def wiki_answers(b: _Builder) -> None:
    """Community-wiki answers of moderator's, one under a question of member's and one under a question of admin's
    (found_relations: an unwikify cell takes a wiki node first, round50): member then stands to a wiki node it did not
    write as its question's author and in no relation, so the walk tries member's refused unwikify where "the
    question's author" could be taken for "own" (round50-cancelwiki-question-author-owns-answer) and where a wiki
    answer's ownership is not checked at all. The fixture wiki nodes are questions, and the run writes no wiki
    answer. round55 (issue 44): member and novice each wrote a public comment under the one on admin's question, so
    the walk's commenter cells of an unwikify (found_relations.COMMENTER) meet a wiki answer too; on an answer that is
    not wiki the node's state refuses everyone (round55-cancelwiki-answer-commenter-owns)."""
    moderator, member, novice = 2, 3, 4
    for n, (asker, title) in enumerate(((3, "Moving saved reports between sites"), (1, "Archiving old spaces"))):
        qid = b.new_id()
        date = BASE_MS - (36 + n) * DAY_MS
        answer = list(b.child("answer", qid, qid, None, _FIXTURE_SPACE_ID, moderator,
                              "<p>Export them as CSV from the report page, then import the file.</p>",
                              date=date + 3_600_000, depth=1))
        answer[_WIKI_COLUMN] = 1
        b.question(qid, _FIXTURE_SPACE_ID, asker, title, children=[tuple(answer)], topics=(6,), date=date)
        b.action("wikified", moderator, int(answer[0]), date + 3_600_000)
        for k, commenter in enumerate((member, novice) if n == 1 else ()):  # round55 (issue 44): commenters
            b.nodes.append(b.child("comment", int(answer[0]), qid, int(answer[0]), _FIXTURE_SPACE_ID, commenter,
                                   "<p>Worth adding the import limits here.</p>", date=date + (2 + k) * 3_600_000,
                                   depth=2))


def unwikified_answer(b: _Builder) -> int:
    """wiki20 (issue 44 items 2 and 5): a community-wiki answer of moderator's under a question of another user's
    (none of the profile's accounts), the one the drawn unwikifier unwikifies on the seeds that draw "an answer"
    (the profile's wiki_answer_id since wiki21, seed.py; wiki20 found it with reads: a wiki answer of moderator's or
    admin's under a question no account wrote). The found-relations walk acts only under the accounts' questions, so
    its refused unwikify cells keep the wiki answers above; one unwikify per run of the answer seeds (a fresh database
    per self-test run)."""
    moderator, other = 2, 6
    qid = b.new_id()
    date = BASE_MS - 38 * DAY_MS
    answer = list(b.child("answer", qid, qid, None, _FIXTURE_SPACE_ID, moderator,
                          "<p>Name the file after the space and the date of the export.</p>",
                          date=date + 3_600_000, depth=1))
    answer[_WIKI_COLUMN] = 1
    b.question(qid, _FIXTURE_SPACE_ID, other, "Naming exported files", children=[tuple(answer)], topics=(6,),
               date=date)
    b.action("wikified", moderator, int(answer[0]), date + 3_600_000)
    return int(answer[0])


def accepted_wiki_question(b: _Builder) -> int:
    """round59 (issue 44, a stated effect on some node states only): a community-wiki question of another user's (none
    of the profile's accounts) holding an accepted answer (marked, the question with it), the node the drawn
    unwikifier unwikifies on the seeds that draw "an accepted question" (the profile's accepted_wiki_question_id since
    wiki21, seed.py).
    Every accepted unwikify of the run was of a wiki node in no other state, so a server that keeps an accepted
    thread's wiki flag elsewhere (round59-cancelwiki-accepted-question-stays-wiki) was never met. The found-relations
    walk acts only on the accounts' nodes, so none of its refused calls meets it; one unwikify per run of those
    seeds (a fresh database per self-test run)."""
    other, answerer = 6, 7
    qid = b.new_id()
    date = BASE_MS - 40 * DAY_MS
    answer = b.child("answer", qid, qid, None, _FIXTURE_SPACE_ID, answerer,
                     "<p>Keep one page per release and link the older ones from it.</p>", date=date + 3_600_000,
                     depth=1, marked=1)
    b.question(qid, _FIXTURE_SPACE_ID, other, "Release notes layout (community wiki)", children=[answer],
               topics=(6,), wiki=1, marked=1, date=date)
    b.action("wikified", other, qid, date)
    return qid
