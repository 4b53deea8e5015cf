"""qa18: every observation reads as a sentence (what was asked, what the target did, where the description is
silent), made once in the report model and read by report.json, report.html and the terminal alike."""

from __future__ import annotations

import html as html_lib
import json
import re
from pathlib import Path
from typing import Any

from report_builders import CATALOG, entry, make_results, strict_json

from qaconform.contract.rules import Rule
from qaconform.report.observation_words import ObservationSummary, silence, summarise
from qaconform.report.terminal import format_summary
from qaconform.report.writer import build_and_write

PAGE_SIZE_ZERO = {"operation": "listQuestions", "pageSize_asked": 0, "status": 400,
                  "content_type": "application/json", "keys": ["error"], "error": "'pageSize' must be 1 or more"}


def test_the_sentence_says_what_was_asked_what_came_back_and_leaves_the_media_type_to_the_facts() -> None:
    words = summarise("OBS-PAGESIZE-ZERO", PAGE_SIZE_ZERO, silence("Paging (bounds: not shown)"))
    assert words.sentence == ("Asked listQuestions, pageSize_asked 0: the target answered 400 "
                              "\u201c'pageSize' must be 1 or more\u201d.")
    assert words.silent == "Paging (bounds: not shown)" and "application/json" not in words.sentence


def test_an_error_inside_a_json_body_is_quoted_and_a_long_fact_is_cut_with_the_rest_counted() -> None:
    facts = {"status": 404, "body": '{"error": "no such node"}', "a": "x" * 200, "b": 1, "c": 2, "d": 3, "e": 4}
    words = summarise("R", facts, "")
    assert words.sentence.startswith("The target answered 404 \u201cno such node\u201d with a xxx"), words.sentence
    assert "\u2026" in words.did and words.did.endswith("and 1 more fact(s)") and "body" not in words.did


def test_a_rule_with_a_quote_is_silent_with_that_quote_and_without_a_source_says_so() -> None:
    assert silence("Errors", "error bodies of other endpoints") == "Errors: \u201cerror bodies of other endpoints\u201d"
    assert "names no place" in silence("")


def test_report_json_html_and_terminal_say_the_same_sentence(tmp_path: Path) -> None:
    res = make_results()
    res["tests"].append(entry("suites/contract/test_obs.py::test_page_size_zero[listQuestions]", "observed",
                              ["OBS-1"], observations=[{"rule": "OBS-1", "facts": PAGE_SIZE_ZERO}]))
    report, paths = build_and_write(res, tmp_path, rules=CATALOG, meta={"run_id": "RUN1"})
    on_disk: dict[str, Any] = strict_json(paths["json"].read_text(encoding="utf-8"))
    items = on_disk["observations"]["OBS-1"]
    assert [o["summary"]["silent"] for o in items] == ["13.", "13."]  # CATALOG's source of OBS-1
    sentence = items[1]["summary"]["sentence"]
    assert sentence.startswith("Asked listQuestions, pageSize_asked 0: the target answered 400"), sentence
    assert ObservationSummary.of("OBS-1", items[1]).sentence == sentence
    page = paths["html"].read_text(encoding="utf-8")
    section = page[page.index('<section id="observations">'):]
    section = section[:section.index("</section>")]
    assert html_lib.escape(sentence, quote=False) in section or html_lib.escape(sentence) in section
    assert "2 observation(s) recorded for 1 rule(s)" in section and "2 observation(s) from 2 test(s)" in section
    assert re.search(r"<details><summary[^>]*>facts of <code>suites/contract/test_obs\.py", section)
    assert "The description is silent: 13." in section
    said = format_summary(report)
    assert "observations (the description is silent; never a failure): 2 recorded for 1 rule(s)" in said, said
    assert f"  OBS-1 (2): {items[0]['summary']['sentence']}" in said, said


def test_a_report_json_of_an_older_kit_without_words_gets_them_from_its_facts() -> None:
    older = {"test": "t", "facts": {"status": 200, "sort": ""}}
    words = ObservationSummary.of("OBS-DEFAULT-SORT", older)
    assert words.sentence == "The target answered 200 with sort \u2018\u2019." and words.silent == ""
    assert json.loads(json.dumps(words.as_dict()))["sentence"] == words.sentence


def test_the_rules_quote_is_read_from_rules_yaml_and_from_a_report_entry() -> None:
    assert Rule.of({"id": "X", "quote": "Current page."}).quote == "Current page."


def test_the_kits_own_why_follows_the_answer_in_brackets_and_the_seed_stays_in_the_facts() -> None:
    facts = {"operation": "cancelWiki", "status": 405, "why": "the description does not list 405 for cancelWiki",
             "request": "TRACE /services/v2/node/100/cancelwiki.json", "seed": 768850534}
    assert summarise("OBS-GENERATED-STATUS", facts, "").sentence == (
        "Asked cancelWiki, TRACE /services/v2/node/100/cancelwiki.json: the target answered 405 "
        "(the description does not list 405 for cancelWiki).")
