"""The suites' dimensions drawn by the run's seed that a planted fault may need: one source for the suites (which draw
them) and the self-test (which runs such a fault at a seed that draws its path).

Why: a run tries one value of such a dimension where trying each would cost accepted writes (the order of
favorite_node_id's two unfavorites: one node, two holders, two writes either way, and no second node to try the
other order on), so consecutive seeds try the values in turn. A fault that bites on one value only is caught at the
seeds that draw it; the self-test ran every fault at one seed. A fault of the registry names the draws it needs
(``Fault.draws``: ``"dimension=value"``), and :func:`seed_drawing` finds the first seed from the self-test's own that
draws them all (``qaconform/commands/selftest_seeds.py``). Only dimensions listed in :data:`DRAWS` can be named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

UNFAVORITE_ORDERS = ("member first", "admin first")
"""unfav14 (issue 44: "unfavorite by one account while another holds a favorite"): the order in which the two
holders of favorite_node_id (member, and admin where the profile's ``favorite_also_held_by`` says so) unfavorite it,
drawn by the run's seed (its parity, as the shared writes' input forms are: suites/contract/placed_slots.py), so that
two runs with consecutive seeds try each holder unfavoriting while the other still holds one, the older favorite's
holder as well as the newer's. The same two writes either way; no read shows a favorite, so one order per run."""


def order_for_seed(seed: int) -> str:
    """The :data:`UNFAVORITE_ORDERS` entry ``seed`` draws: odd seeds member first, even ones admin first. The
    registered faults unfavorite-first-users-favorite and round21-unfavorite-newest-favorite are caught in member-first
    order (they take the node's first or newest favorite by action id: admin's on the reference data),
    round38-unfavorite-newest-holder (newest by date: member's) in admin-first order; each names its order
    (``Fault.draws``) and the self-test runs it at a seed that draws it (tests/test_unfavorite_order.py)."""
    return UNFAVORITE_ORDERS[(seed + 1) % len(UNFAVORITE_ORDERS)]


PARAM_WINS_BODIES = ("novice form", "novice json")
"""round46 (issue 44: "every write in every stated form", crossed with the writer): the format of the losing body
beside the body parameter of the shared param_wins answers (qaconform/pytest/support.py ``param_wins_over_form``).
Under a write budget member's (a publisher) and novice's (whose answer goes to moderation) are posted; "novice form"
is the pairing before round46 (member JSON, novice form-encoded), "novice json" the other (member form-encoded,
novice JSON). Every run tries both formats; two consecutive seeds pair each writer with both, at no write of their
own. Odd seeds (the self-test's default among them) draw "novice form"."""


def param_wins_body_for_seed(seed: int) -> str:
    """The :data:`PARAM_WINS_BODIES` entry ``seed`` draws: odd seeds "novice form", even ones "novice json"."""
    return PARAM_WINS_BODIES[(seed + 1) % len(PARAM_WINS_BODIES)]
UNWIKIFIERS = ("moderator", "admin")
"""paths16 (issue 44 item 5: "unwikify"): the account that unwikifies wiki_node_id, another's wiki node, drawn by the
run's seed. Both hold Mark as community wiki; the one-shot node is unwikified once a run (one accepted write), so a
run tries one of them and consecutive pairs of seeds try each: an administrator's unwikify answered by another code
path (round43-cancelwiki-admin-not-canceled) was never met while moderator's was the only one. The caller not drawn
keeps its permission cell on a node the run created (test_permissions.py ``ONE_SHOT``), as admin's did before."""


def unwikifier_for_seed(seed: int) -> str:
    """The :data:`UNWIKIFIERS` entry ``seed`` draws: moderator when ``seed // 2`` is even (the self-test's own seed,
    20260801, keeps moderator, as every run did before paths16), admin when it is odd. Halved so that it does not
    move with :func:`order_for_seed`: four consecutive seeds draw every pair of the two."""
    return UNWIKIFIERS[(seed // 2) % len(UNWIKIFIERS)]


PRIVATE_REPLY_PARENTS = ("a public reply", "the replier's own comment")
"""paths16 (issue 44, COMMENT-5 by the author of the public parent): the public comment the run's shared private reply
(member's, private to moderator: suites/public_threads.py) goes under, drawn by the run's seed. "a public reply":
novice's shared plain comment, itself a public reply to admin's (recip: a private comment at depth 3 below a public
reply); "the replier's own comment": member's shared plain comment on the shared answer (depth 2, member replying in
its own thread, the path round44-own-public-reply-privacy-dropped takes). The same write either way, read by the same
tests (public_parent.py takes the parent's author and depth from the fixture), so one per run."""


def private_reply_parent_for_seed(seed: int) -> str:
    """The :data:`PRIVATE_REPLY_PARENTS` entry ``seed`` draws: a public reply when ``seed // 4`` is even (the
    self-test's own seed keeps it, as every run did before paths16), else the replier's own comment. Quartered so
    that eight consecutive seeds draw every combination with the two dimensions above."""
    return PRIVATE_REPLY_PARENTS[(seed // 4) % len(PRIVATE_REPLY_PARENTS)]


CHARSET_SENDERS = ("member and moderator", "admin, novice and anonymous")
"""paths17 (issue 44, round47-answer-json-charset-body-raw's kind: a write's Content-Type with a parameter): the
accounts whose JSON and form-encoded bodies the client types ``application/json; charset=UTF-8`` and
``application/x-www-form-urlencoded; charset=UTF-8`` (``ApiClient.charset_roles``), drawn by the run's seed; the
others send the bare media types ("The samples send Accept and Content-Type set to application/json"). Every write the
run makes anyway carries it or not, accepted or refused, so each run tries both on the writes of both halves and two
draws apart swap the halves (admin's jobs, novice's moderated answers ...) at no write of their own. A body a test
types itself (stated_forms' json-utf8 carrier, a deliberately wrong Content-Type) keeps its own; seeds23: admin's second
data-protection job takes the other typing than admin's drawn one (suites/scenarios/gdpr_jobs.py ``other_typing``)."""

CHARSET_ROLES: dict[str, frozenset[str]] = {
    "member and moderator": frozenset({"member", "moderator"}),
    "admin, novice and anonymous": frozenset({"admin", "novice", "anonymous", "wrong_password"}),
}
"""The client roles of each :data:`CHARSET_SENDERS` value (``wrong_password``'s refusals beside anonymous's)."""


def charset_senders_for_seed(seed: int) -> str:
    """The :data:`CHARSET_SENDERS` entry ``seed`` draws: member and moderator when ``seed // 8`` is even (the
    self-test's own seed, 20260801, among them), admin, novice and anonymous when it is odd. Eighthed so that it does
    not move with the three dimensions above: sixteen consecutive seeds draw every combination of the four."""
    return CHARSET_SENDERS[(seed // 8) % len(CHARSET_SENDERS)]


WIKI_NODE_KINDS = ("a question", "an answer", "an accepted question")
"""wiki20 (issue 44 items 2 and 5: "unwikify" on every node kind): the kind of node the drawn unwikifier's one-shot
unwikify (suites/one_shot_calls.py ``cancelwiki_once``, and the refused attempts before it) acts on. "a question": the
profile's wiki_node_id, as every run did before wiki20; "an answer": a community-wiki answer, the profile's
wiki_answer_id since wiki21 (wiki20 found one by reads; suites/wiki_answer.py), the path a server breaks when it
unwikifies answers on another code path (the answer service's record, its flag never cleared). round59 (issue 44, an
effect on some node states only): "an accepted question": a community-wiki question holding an accepted answer, the
profile's accepted_wiki_question_id, the path a server breaks when an accepted thread keeps its wiki flag elsewhere. The
same one accepted write whichever, so one kind per run; a profile without the drawn kind's fixture keeps wiki_node_id's
question."""

_WIKI_KIND_BY_SIXTEENTH = (0, 2, 0, 1, 0, 1, 0, 2)
"""round59: the :data:`WIKI_NODE_KINDS` index of each ``seed // 16 % 8``: a question on even sixteenths (as before),
on the odd ones an answer or an accepted question, each with both values of :func:`member_wiki_send_for_seed`."""


def wiki_node_kind_for_seed(seed: int) -> str:
    """The :data:`WIKI_NODE_KINDS` entry ``seed`` draws: a question when ``seed // 16`` is even (the self-test's own
    seed, 20260801, and every seed the registered faults' draws found before wiki20, up to 20260815); when it is odd
    an answer (20260816, as under wiki20) or an accepted question (20260848, round59), by ``seed // 16 % 8``
    (:data:`_WIKI_KIND_BY_SIXTEENTH`). Sixteenthed so that it does not move with the four dimensions above."""
    return WIKI_NODE_KINDS[_WIKI_KIND_BY_SIXTEENTH[(seed // 16) % len(_WIKI_KIND_BY_SIXTEENTH)]]


MEMBER_WIKI_SENDS = ("after its unwikify", "before its unwikify")
"""wiki20 (issue 44 items 2 and 5: "send to moderation" on a wiki node): when admin's send to moderation of member's
one-shot wiki question (member_wiki_node_id; suites/contract/unwikified_node.py, fix30) is made: "after its
unwikify", as every run did before wiki20 (a node published again after the state change unwikify), or "before its
unwikify" (suites/one_shot_calls.py ``member_wiki_sent_first``: the node is still wiki when it is sent, "Published
node" either way, and member's unwikify follows: "Wikified node (wiki true)"). The same two accepted writes in either
order; a record built from the wiki's owner only while the node is wiki (round55-sendtomod-wiki-realuser-author) is
met on half the seeds."""


def member_wiki_send_for_seed(seed: int) -> str:
    """The :data:`MEMBER_WIKI_SENDS` entry ``seed`` draws: after its unwikify when ``seed // 32`` is even (the
    self-test's own seed and every seed the registered faults' draws found before wiki20), before it when odd."""
    return MEMBER_WIKI_SENDS[(seed // 32) % len(MEMBER_WIKI_SENDS)]
OPTION_COMMENT_FORMS = ("json", "query", "form", "param_wins")
"""forms20 (issue 44 item 3, round54-comment-form-charset-privacy-dropped's kind): the input form of the run's shared
comments with a private option that needs no recipients (to the original poster, to moderators, to own groups:
suites/conftest.py ``private_comment_of``), spec/dimensions.yaml ``input_form`` in its order. They went as JSON only,
so a server dropping the option of a form-encoded comment passed. The value drawn is the form of the rotation's first
comment (suites/contract/placed_slots.py ``OPTION_COMMENTS``), each next one the next form: every run sends every
form, and each comment takes every form within any 8 consecutive seeds. The same writes, read back the same way."""


def option_comment_form_for_seed(seed: int) -> str:
    """The :data:`OPTION_COMMENT_FORMS` entry ``seed`` draws: ``(seed + seed // 16) % 4``. The sixteenth shifts it
    against the four dimensions above (all of them a function of ``seed % 16``), so that every combination of theirs
    meets every form within the self-test's search span."""
    return OPTION_COMMENT_FORMS[(seed + seed // 16) % len(OPTION_COMMENT_FORMS)]


OPTIONS_ANSWER_WRITERS = ("admin", "moderator", "member")
"""forms20 (issue 44 item 3): the publisher whose shared answer, in its own form (support.answer_form: admin query
parameters, moderator a form-encoded body, member the JSON body), carries postAnswer's stated options (round50's
``OPTIONS_ANSWER_WRITER``, admin's alone before: a form-encoded answer with an option was never sent). The same
answer either way (no write more)."""


def options_answer_writer_for_seed(seed: int) -> str:
    """The :data:`OPTIONS_ANSWER_WRITERS` entry ``seed`` draws: ``(seed + 2) % 3`` (admin at the self-test's own
    seed, 20260801, as every run before forms20); three is prime to sixteen, so it meets every combination of the
    dimensions above within the self-test's search span, and every value within any 3 consecutive seeds."""
    return OPTIONS_ANSWER_WRITERS[(seed + 2) % len(OPTIONS_ANSWER_WRITERS)]


QUESTION_OPTIONS = ("to_original_poster", "to_own_groups")
"""round64 (issue 44, an effect on some node kinds only: round64-question-comment-group-stored-full): the private
option of moderator's shared option comment posted on the fixture question (suites/question_options.py), drawn by the
run's seed; the other one goes under the shared answer. to_original_poster alone went there (paths18), so a question's
comment path that drops another option was never met. moderator posts both every run (the permission table's cells;
its to_own_groups comment is the parent of admin's repeating reply, suites/option_forms.py ``REPEATS_OPTION_OF``,
which follows it onto the question): the draw moves a write, adds none."""


def question_option_for_seed(seed: int) -> str:
    """The :data:`QUESTION_OPTIONS` entry ``seed`` draws: ``seed // 3 % 2`` (to_original_poster at the self-test's own
    seed, 20260801, as every run before round64; to_own_groups from 20260803). Three is prime to sixteen, so it meets
    every combination of the dimensions above within the self-test's search span."""
    return QUESTION_OPTIONS[(seed // 3) % len(QUESTION_OPTIONS)]


NOVICE_COMMENT_FORMS = ("json", "query", "form", "param_wins")
"""closea (issue 44, round76-comment-novice-param-body-refused's kind: a plain comment refused in one input form by one
writer): the input form of novice's shared plain comment (suites/conftest.py ``comment_of``), spec/dimensions.yaml
``input_form`` in its order. The shared plain comments take the forms in a rotation over spec/dimensions.yaml's
``writer`` (admin, moderator, member, novice) that the seed shifts (support.comment_form: every form each run, each by
another writer, every pair over four consecutive seeds); novice's value names the rotation: member takes the form
before novice's, moderator the one before that, admin the next after novice's. A dimension here so that a fault that
bites on one writer's form names it and the self-test runs it at a seed that draws it. The same writes either way."""


def novice_comment_form_for_seed(seed: int) -> str:
    """The :data:`NOVICE_COMMENT_FORMS` entry ``seed`` draws: ``(seed + 3 + 3 * (seed // 16)) % 4``. From 20260800 to
    20260815 (the self-test's own seed, 20260801: json) as every run before closea (``(seed + 3) % 4``); the sixteenth
    frees it from the four dimensions above (all of them a function of ``seed % 16``) and, thrice, from the option
    comment form's, so that consecutive builds (commands/run_draws.py) take every value."""
    return NOVICE_COMMENT_FORMS[(seed + 3 + 3 * (seed // 16)) % len(NOVICE_COMMENT_FORMS)]


FORM_PRIVACY_CARRIERS = ("form", "split")
"""types (issue 44, round85-comment-form-privacy-params-dropped's kind: fields of one comment in mixed carriers): how
moderator's form-carrier visibility comment of suites/contract/test_stated_forms.py sends its visibility: "form" in
the form-encoded body beside the body, as every run did before; "split" as a query parameter while the body stays
form-encoded ("each body field may also be given as a request or query parameter of the same name": each field in
its own carrier). The same write, read back the same way; no write more."""


def form_privacy_carrier_for_seed(seed: int) -> str:
    """The :data:`FORM_PRIVACY_CARRIERS` entry ``seed`` draws: ``seed // 6 % 2`` (form at the self-test's own seed,
    20260801; split from 20260806). Twelve divides the period of qaconform/commands/run_draws.py."""
    return FORM_PRIVACY_CARRIERS[(seed // 6) % len(FORM_PRIVACY_CARRIERS)]


PUBLIC_REPLY_RECIPIENT_FORMS = ("integer", "string")
"""close2 (issue 44, round87-reply-public-string-recipients-dropped's kind: a stated id form on one path only): how
the run's shared private reply to a public comment (member's, private to moderator: suites/public_threads.py) names
moderator in its recipients. "Each item has id (integer or string)."; "integer" as every run did before close2,
"string" the text of the same id. The same write, read the same way (the audience is the same); no write more."""


def public_reply_recipient_form_for_seed(seed: int) -> str:
    """The :data:`PUBLIC_REPLY_RECIPIENT_FORMS` entry ``seed`` draws: ``seed // 12 % 2`` (integer at the self-test's
    own seed, 20260801; string from 20260812). Twenty-four divides the period of qaconform/commands/run_draws.py."""
    return PUBLIC_REPLY_RECIPIENT_FORMS[(seed // 12) % len(PUBLIC_REPLY_RECIPIENT_FORMS)]


PRIVATE_REPLY_FORMS = ("json", "query", "param_wins")
"""placements (issue 44, round90-reply-body-param-beside-json-ignored's kind: a form met on one parent kind only):
the form of the run's shared private reply to a public comment (suites/public_threads.py), a slot of the private
forms' rotation (suites/contract/placed_slots.py ``PRIVATE_FORMS``, offset 2 after the private comments on the answer
and on the question): every run posts the three private forms, one on each parent kind (answer, question, comment),
and three consecutive seeds each form on each. The same write, read the same way; no write more."""


def private_reply_form_for_seed(seed: int) -> str:
    """The :data:`PRIVATE_REPLY_FORMS` entry ``seed`` draws: ``(seed + 2) % 3`` (JSON at the self-test's own seed,
    20260801, as every run before placements). Not a power of two: tests/test_wiki_node_kind_wiki20.py checks it
    takes every value within 128 seeds, beside the dimensions counted there."""
    return PRIVATE_REPLY_FORMS[(seed + 2) % len(PRIVATE_REPLY_FORMS)]


NOVICE_OWN_QUESTION_FORMS = ("query", "form", "param_wins")
"""place25 (issue 44, round93-novice-answer-own-question-published's kind: a moderated answer judged under one relation
only): which of novice's three parameter-form answers goes under novice's OWN question (the fixture question) while
the other two go under other accounts' questions (qaconform/pytest/found_nodes.py ``novice_answer_parent``,
placements' rotation ``(index + seed) % 3``, named here so that a fault on one form under one relation runs at a seed
that draws it). novice's JSON answer stays under its own question; every run puts a form under each relation, and three
consecutive seeds each form under each. The same three answers; no write more."""


def novice_own_question_form_for_seed(seed: int) -> str:
    """The :data:`NOVICE_OWN_QUESTION_FORMS` entry ``seed`` draws: the form whose rotation index ``i`` gives
    ``(i + seed) % 3 == 0`` (param_wins at the self-test's own seed, 20260801; form at 20260802, query at
    20260803)."""
    return NOVICE_OWN_QUESTION_FORMS[(-seed) % len(NOVICE_OWN_QUESTION_FORMS)]


SHARED_OPTION_CARRIERS = ("moderator's send, admin's and member's locks", "admin's send, moderator's lock")
"""place25 (issue 44, round90-sendtomod-moderator-v1-refused's kind: an allowed call with a stated option by one
account only): which of the run's shared accepted calls carry every option the description states (wrap, v1) and
which go bare (qaconform/pytest/one_shots.py ``drawn_options``: the calls of :data:`one_shots.SHARED_CALLS` with an
even ``index + seed``). Even seeds: moderator's send of its own answer, admin's send of member's answer, admin's and
member's locks of their answers; odd seeds: admin's send of its locked comment, moderator's lock of its answer (and
the thorough run's moderator's send of a comment and admin's lock of a comment). Every seed sends one account's
allowed send and lock with the options, which the late reader of the run's ledger judges (test_readback.py); the
other account's meets them on the next seed. The same calls; no write more."""


def shared_call_options_for_seed(seed: int) -> str:
    """The :data:`SHARED_OPTION_CARRIERS` entry ``seed`` draws: its parity (odd seeds, the self-test's own 20260801
    among them, "admin's send, moderator's lock", as every run before place25)."""
    return SHARED_OPTION_CARRIERS[seed % len(SHARED_OPTION_CARRIERS)]


LOCKED_COMMENT_PARENTS = ("the writer's own comment", "the locker's own comment")
"""locks25 (issue 44, round92-lock-moderator-comment-under-own-node-refused's kind: a lock on a relation the run's
locks never took): the parent of member's reply that admin locks and then sends to moderation (suites/conftest.py
``locked_comment``, suites/plain_after_private.py ``member_reply``). "the writer's own comment": member's shared plain
comment, as every run before locks25 (admin stands in no relation to the comment it locks); "the locker's own
comment": admin's shared plain comment on the same answer, so admin locks (and sends to moderation) ANOTHER
account's comment whose PARENT admin wrote, the lock the permission table grants through "Lock comments on posts"
whatever the caller wrote around the node. The same write and the same lock either way; the action matrix reads
them as the cells of the relation drawn (suites/contract/action_cases.py ``UNDER_LOCKER``), so one per run."""


def locked_comment_parent_for_seed(seed: int) -> str:
    """The :data:`LOCKED_COMMENT_PARENTS` entry ``seed`` draws: ``seed // 5 % 2`` (the writer's own comment at the
    self-test's own seed, 20260801, as every run before locks25; the locker's from 20260805 to 20260809). Not a power
    of two: tests/test_wiki_node_kind_wiki20.py checks it takes both values within 128 seeds."""
    return LOCKED_COMMENT_PARENTS[(seed // 5) % len(LOCKED_COMMENT_PARENTS)]


AFTER_STATE_OPTIONS = ("to_original_poster", "to_moderators", "recipients")
"""after25 (issue 44, round96-comment-on-moderated-node-privacy-dropped's kind: a comment's privacy after a state
change): the private option of member's comment right after its unwikify of member_wiki_node_id
(suites/contract/unwikified_node.py ``commenters``), one of the options member holds (a VisibilityOptions field name;
``recipients`` names moderator). It went to moderators only, so a server dropping another option's settings on a node
after its unwikify, or after a send to moderation, passed. ``seed % 3`` against :func:`member_wiki_send_for_seed`'s
``seed // 32``: every history (the unwikify alone; the unwikify of a node in moderation) meets each option within any
32 consecutive seeds of its block. The same write, read back the same way."""


def after_state_option_for_seed(seed: int) -> str:
    """The :data:`AFTER_STATE_OPTIONS` entry ``seed`` draws: ``seed % 3`` (to moderators at the self-test's own seed,
    20260801, as before after25; recipients at 20260802 and 20260832, to the original poster at 20260803)."""
    return AFTER_STATE_OPTIONS[seed % len(AFTER_STATE_OPTIONS)]


AFTER_STATE_PARENTS = ("the node", "novice's comment")
"""hist26 (issue 44 item 5, round95-reply-public-after-unwikify-privacy-dropped's kind: a reply's own settings after a
state change): where member's comment right after its unwikify of member_wiki_node_id goes
(suites/contract/unwikified_node.py ``commented_after_unwikify``): on the node itself, as every run before hist26, or
as a REPLY to novice's plain comment posted there just before it (a reply with its own visibility to a public comment,
COMMENT-5, in the thread of a node after its unwikify). The same write either way, read back the same way; one
placement per run, since the faults on a comment whose parent is the unwikified node (unwiki25, after25, round96) need
the node."""


def after_state_parent_for_seed(seed: int) -> str:
    """The :data:`AFTER_STATE_PARENTS` entry ``seed`` draws: ``seed // 15 % 2`` (the node at the self-test's own seed,
    20260801, and at every seed the after-state faults' draws found before hist26: 20260802, 20260803, 20260832;
    novice's comment from 20260815 to 20260829). Period 30 (a divisor of run_draws.PERIOD), so it takes both values
    with every after-state comment option (``seed % 3``) and member wiki send (``seed // 32``) within 128 seeds."""
    return AFTER_STATE_PARENTS[(seed // 15) % len(AFTER_STATE_PARENTS)]


DRAWS: dict[str, tuple[Callable[[int], str], tuple[str, ...]]] = {
    "unfavorite order": (order_for_seed, UNFAVORITE_ORDERS),
    "param_wins body": (param_wins_body_for_seed, PARAM_WINS_BODIES),
    "unwikifier": (unwikifier_for_seed, UNWIKIFIERS),
    "private reply parent": (private_reply_parent_for_seed, PRIVATE_REPLY_PARENTS),
    "charset senders": (charset_senders_for_seed, CHARSET_SENDERS),
    "wiki node kind": (wiki_node_kind_for_seed, WIKI_NODE_KINDS),
    "member wiki send": (member_wiki_send_for_seed, MEMBER_WIKI_SENDS),
    "option comment form": (option_comment_form_for_seed, OPTION_COMMENT_FORMS),
    "options answer writer": (options_answer_writer_for_seed, OPTIONS_ANSWER_WRITERS),
    "question option": (question_option_for_seed, QUESTION_OPTIONS),
    "novice comment form": (novice_comment_form_for_seed, NOVICE_COMMENT_FORMS),
    "form privacy carrier": (form_privacy_carrier_for_seed, FORM_PRIVACY_CARRIERS),
    "public reply recipient form": (public_reply_recipient_form_for_seed, PUBLIC_REPLY_RECIPIENT_FORMS),
    "private reply form": (private_reply_form_for_seed, PRIVATE_REPLY_FORMS),
    "novice own-question form": (novice_own_question_form_for_seed, NOVICE_OWN_QUESTION_FORMS),
    "shared call options": (shared_call_options_for_seed, SHARED_OPTION_CARRIERS),
    "locked comment parent": (locked_comment_parent_for_seed, LOCKED_COMMENT_PARENTS),
    "after-state comment option": (after_state_option_for_seed, AFTER_STATE_OPTIONS),
    "after-state comment parent": (after_state_parent_for_seed, AFTER_STATE_PARENTS),
}
"""Each seeded dimension a fault may name: the function giving a seed's value, and its values."""

SEARCH_SPAN = 64
"""How many seeds from the self-test's own :func:`seed_drawing` tries: every dimension of :data:`DRAWS` cycles its
values within a few consecutive seeds, so a draw not found there is a combination no seed gives."""


def split(draw: str) -> tuple[str, str]:
    """``"dimension=value"`` as (dimension, value)."""
    dimension, _, value = draw.partition("=")
    return dimension.strip(), value.strip()


def unknown(draws: Iterable[str]) -> list[str]:
    """The draws that name no dimension of :data:`DRAWS` or no value of it (a typo would run the fault at a seed
    that draws nothing in particular)."""
    bad = []
    for draw in draws:
        dimension, value = split(draw)
        if dimension not in DRAWS or value not in DRAWS[dimension][1]:
            bad.append(draw)
    return bad


def draws_at(draws: Iterable[str], seed: int) -> bool:
    """Whether ``seed`` draws every one of ``draws``."""
    return all(DRAWS[d][0](seed) == v for d, v in map(split, draws))


def seed_drawing(draws: Iterable[str], start: int) -> int:
    """The first seed from ``start`` on that draws every one of ``draws`` (``start`` itself when there are none).
    Raises ValueError when none within :data:`SEARCH_SPAN` does, or a draw is unknown."""
    wanted = tuple(draws)
    bad = unknown(wanted)
    if bad:
        raise ValueError(f"unknown draws {bad}: name a dimension of qaconform/pytest/seed_draws.py DRAWS and one of "
                         "its values, as 'dimension=value'")
    for seed in range(start, start + SEARCH_SPAN):
        if draws_at(wanted, seed):
            return seed
    raise ValueError(f"no seed from {start} to {start + SEARCH_SPAN - 1} draws {', '.join(wanted)} together")
