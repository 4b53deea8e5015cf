"""The comment rules judged on the run's own subtree are crossed by default (suites/contract/subtree_rows.py,
spec/dimensions.yaml ``subtree_responses``): every rule derived there has a check, every check its rule, each is
judged on every row of its lists but where spec/ says why not, and the crossing figure counts exactly those.

A comment rule of a subtree list with no check, a check whose rule is gone, a rule marked on a row it cannot judge, or
a rule counted crossed that no row judges would leave a path untried while the figure says it is crossed.
"""

from __future__ import annotations

from list_responses import SHAPE_OPTIONS, array
from privacy_thread import THREAD, thread_of
from subtree_rows import CHECKS, Seen, items_judged, load, rules_of, subtree_rules

from qaconform.contract import NONE, READER, load_contract
from qaconform.kit import spec_dir
from qaconform.report.crossing import crossing
from qaconform.target.profile import VisibilityOptions

SEEDS = (1, 2, 20260801, 987654321)


def test_every_subtree_rule_has_a_check_and_every_check_its_rule() -> None:
    assert set(subtree_rules()) == set(CHECKS)


def test_every_subtree_rule_is_judged_on_every_row_but_the_items_under_wrap_or_v1() -> None:
    contract = load_contract()
    section = load(contract)
    rules = subtree_rules(contract, section)
    for seed in SEEDS:
        for op in section.lists:
            rows = array(op, seed, contract=contract)
            assert {r.reader for r in rows} == set(contract.dimensions.values[READER])
            for row in rows:
                judged = set(rules_of(row, rules, section))
                left = {rule for rule in rules if set(section.not_across.get(rule, {})) & set(SHAPE_OPTIONS)}
                want = set(rules) - left if not items_judged(row) else set(rules)
                assert judged == want, f"{row.label}: {sorted(judged ^ want)}"
                if any(row.value(o) != NONE for o in SHAPE_OPTIONS):
                    assert not items_judged(row)


def test_the_crossing_counts_a_subtree_rule_crossed_on_its_lists() -> None:
    contract = load_contract()
    figures = crossing(spec_dir(), contract.rules.values())
    partly = {p["rule"]: p["missing"] for p in figures["not_fully"]}
    section = load(contract)
    for rule, ops in subtree_rules(contract, section).items():
        for op in ops:
            assert op not in partly.get(rule, {}), f"{rule} is judged on every row of {op}, yet counted partly"
    for rule in section.left_out:
        assert any(op in partly.get(rule, {}) for op in section.lists), f"{rule} is left out, yet counted crossed"


def _seen(reader: str, items: list[dict[str, object]], body: object = None) -> Seen:
    user_ids = {"admin": 1, "moderator": 2, "member": 3, "novice": 4}
    raw = {"answer": 9, "comments": {str(10 + n): [a, THREAD[p][1] if p is not None and r is None else r,
                                                     f"c{n}: é", f"c{n}:", None if p is None else 10 + p,
                                                     p is not None and r is None]
                                     for n, (a, r, p) in enumerate(THREAD)}}
    row = next(r for r in array("listAnswerComments", 1) if r.reader == reader and items_judged(r))
    return Seen(row, thread_of(raw), VisibilityOptions(), user_ids, True, body or {"list": items}, items)


def test_a_leak_is_found_whatever_the_shape_and_what_is_due_is_missed_only_when_absent() -> None:
    # novice is entitled to the public comment 10 and admin's reply 13 private to it, to none of 11, 12, 14, 15
    leak = {"wrapped": {"node": {"id": 12, "body": "c2: é"}}}
    assert CHECKS["COMMENT-PRIVACY-LIST"].problems(_seen("novice", [], leak))
    assert CHECKS["COMMENT-PRIVACY-IDS"].problems(_seen("novice", [], {"x": [{"id": 10, "commentIds": [14]}]}))
    public = [{"id": 10, "body": "c0: é", "recipients": []}]
    seen = _seen("novice", public)
    assert not CHECKS["COMMENT-PRIVACY-LIST"].problems(seen)
    assert not CHECKS["COMMENT-LISTED"].on_items(seen) and not CHECKS["TEXT-NON-ASCII"].on_items(seen)
    assert CHECKS["COMMENT-LISTED"].on_items(_seen("novice", public[1:]))
    mangled = [{**i, "body": "c0: Ã©"} if i["id"] == 10 else i for i in public]
    assert CHECKS["TEXT-NON-ASCII"].on_items(_seen("novice", mangled))
    assert CHECKS["COMMENT-1"].on_items(_seen("novice", [{**public[0], "recipients": [{"id": 3}]}]))
    assert CHECKS["COMMENT-2"].on_items(_seen("moderator", public))  # member's comment private to moderator
    # 15 is member's reply to its comment 11 (private to moderator), inheriting its settings: admin may not see it
    assert CHECKS["COMMENT-3"].problems(_seen("admin", [], {"list": [{"id": 15}]}))
    assert not CHECKS["COMMENT-2"].problems(_seen("admin", [], {"list": [{"id": 15}]}))
    reply = {"id": 15, "body": "c5: é", "visibility": "recipients", "recipients": [{"id": 2}]}
    assert not CHECKS["COMMENT-3"].on_items(_seen("moderator", [reply]))
    assert CHECKS["COMMENT-3"].on_items(_seen("moderator", [{**reply, "recipients": []}]))
    # 13 is admin's reply to member's public comment 10, private to novice (its own settings)
    assert CHECKS["COMMENT-5"].problems(_seen("member", [], {"list": [{"id": 13}]}))
    own_reply = {"id": 13, "body": "c3: é", "visibility": "recipients", "recipients": [{"id": 4}]}
    assert not CHECKS["COMMENT-5"].on_items(_seen("novice", [*public, own_reply]))
    assert CHECKS["COMMENT-5"].on_items(_seen("novice", [*public, {**own_reply, "visibility": "op"}]))
    own = [{"id": 11, "visibility": "recipients", "recipients": [{"id": 2}]},  # member's, private to moderator
           {"id": 12, "visibility": "recipients", "recipients": [{"id": 1}]}]  # moderator's own, private to admin
    assert not CHECKS["COMMENT-2"].on_items(_seen("moderator", public + own))


def test_an_id_named_with_its_comment_shown_is_the_lists_leak_not_the_ids_rule() -> None:
    """A list that shows a reader a comment private to others (another reader's whole list, served from a cache)
    names its id in its parent's childrenIds too: one leak, charged to COMMENT-PRIVACY-LIST; the id named while the
    comment itself is withheld is still COMMENT-PRIVACY-IDS's."""
    whole = {"list": [{"id": 10, "childrenIds": [14]}, {"id": 14, "body": "c4: é"}]}
    assert CHECKS["COMMENT-PRIVACY-LIST"].problems(_seen("novice", [], whole))
    assert not CHECKS["COMMENT-PRIVACY-IDS"].problems(_seen("novice", [], whole))
    named_only = {"list": [{"id": 10, "childrenIds": [14]}]}
    assert CHECKS["COMMENT-PRIVACY-IDS"].problems(_seen("novice", [], named_only))
    assert not CHECKS["COMMENT-PRIVACY-LIST"].problems(_seen("novice", [], named_only))


def test_a_wrong_password_is_sent_on_every_combination_of_each_list_whose_refusal_is_stated() -> None:
    from credential_rows import EMAILED, SIGNED_IN, UNKNOWN, array, credential_rules

    contract = load_contract()
    rules = credential_rules(contract)
    assert rules == {"AUTH-BAD-CREDENTIALS": ("listActiveExperts", "listGroups"),
                     "EXPERTS-401": ("listActiveExperts", "listEarnedExperts")}  # blind10: bad credentials' 401
    figures = crossing(spec_dir(), contract.rules.values())
    partly = {p["rule"] for p in figures["not_fully"]}
    assert not set(rules) & partly
    for seed in SEEDS:
        for op in ("listActiveExperts", "listGroups"):
            rows = array(op, seed, contract=contract)
            assert {r.combination.reader for r in rows} == {*SIGNED_IN, UNKNOWN, EMAILED}  # blind10, round91
            for dim in contract.dimensions.of_list(op)[1:]:
                values = {r.combination.value(dim) for r in rows}
                assert len(values) > 1, f"{op}: {dim} takes one value only"
            assert all(r.wrong("secret:pw") != "secret:pw" for r in rows)
