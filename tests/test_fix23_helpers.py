"""fix23 (issue 44): the helpers that give three of blind round 23's kinds their breadth judge what they say.

- search_words.shared_fragments: the fragments two names or more share, most shared first (the topic search then has
  two items or more for the order rules);
- matrix_reads.explicit_default_forms: every query parameter whose default spec/openapi.yaml states, left out by the
  request, also given at that default (read from the contract, not a list kept by hand);
- posted_texts: every shared answer and plain comment holds the characters a form or query decoder changes.
"""

from __future__ import annotations

from matrix_reads import explicit_default_forms
from search_words import shared_fragments

from qaconform.contract import load_contract
from suites import posted_texts


def test_shared_fragments_are_held_by_two_names_or_more_most_shared_first() -> None:
    names = ["api", "billing", "install", "security", "performance", "ui", "mobile", "search", "export", "admin"]
    frags = shared_fragments(names)
    assert frags, "the seed's topic names share fragments"
    held = [sum(f in n for n in names) for f in frags]
    assert all(h >= 2 for h in held), list(zip(frags, held, strict=True))
    assert held == sorted(held, reverse=True), "most shared first"
    assert shared_fragments(["alpha", "omega"]) == [], "one letter in common is no fragment (2 letters at least)"
    assert shared_fragments(["one"]) == [], "a single name shares nothing"


def test_explicit_default_forms_give_each_stated_default_left_out() -> None:
    stated = {p.name: p.schema["default"] for p in load_contract().operation("listNodeFollowers").parameters
              if p.location == "query" and "default" in p.schema}
    assert {"details", "active"} <= set(stated), stated
    forms = explicit_default_forms("listNodeFollowers", {"pageSize": "2"}, {})
    assert forms[0] == {}, "the request as asked comes first"
    assert {"details": "false"} in forms and {"active": "true"} in forms, forms
    assert all(len(f) == 1 for f in forms[1:]), "each default given alone"
    given = explicit_default_forms("listNodeFollowers", {"details": "true"}, {"active": "false"})
    assert all("details" not in f and f.get("active") == "false" for f in given), "nothing asked is overridden"


def test_every_shared_text_holds_what_a_form_decoder_changes() -> None:
    for ch in "+%&=;":
        assert ch in posted_texts.FORM_DECODED, ch
    for writer in ("admin", "moderator", "member", "novice"):
        assert posted_texts.FORM_DECODED in posted_texts.comment_text(writer)
        for form in ("json", "query", "form", "param_wins"):
            assert posted_texts.FORM_DECODED in posted_texts.with_content("an answer", writer, form, "someone")
