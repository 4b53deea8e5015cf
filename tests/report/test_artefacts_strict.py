"""What CI consumes parses with strict parsers, whatever the target sent: junit.xml with expat, report.json
with NaN and Infinity refused; and the redaction that runs before both never breaks either file."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from report_builders import CATALOG, PLANTED, PLANTED_B64, exchange, make_results, strict_json, strict_junit

from qaconform.report.redact import secret_variants
from qaconform.report.writer import build_and_write

HOSTILE_TEXT = 'a <b>&amp; "quoted" \'single\' ]]> \x00\x07\x1b\x7f \ud800 \ufffe\uffff end'
"""What a target can put in a body, a header or a message: XML-special characters, a CDATA end, C0 controls,
DEL, a lone surrogate (a JSON string may carry one) and the two non-characters XML 1.0 forbids."""
CHALLENGE = 'Basic realm="Community <Q&A>"'
"""A WWW-Authenticate challenge: no credential, and full of characters XML must escape."""


def hostile_results() -> dict[str, Any]:
    """The report builders' results with hostile text in every field a target can reach, and numbers JSON lacks."""
    res = make_results(planted=True)
    failed, error = res["tests"][1], res["tests"][2]
    failed["message"] = f"[FAIL-1] {HOSTILE_TEXT}\nReproduce with: curl -sS -i -X GET -u \"$USER:$PASSWORD\" " \
                        f"'http://127.0.0.1:9999/services/v2/question.json'   # as member"
    failed["longrepr"] = f"AssertionError: {HOSTILE_TEXT}"
    failed["exchanges"].append(exchange(400))  # as the client records it: with the placeholder and "# as member"
    failed["exchanges"][0]["response_body"] = HOSTILE_TEXT
    failed["exchanges"][0]["response_headers"]["x-echo"] = HOSTILE_TEXT
    failed["exchanges"][0]["response_headers"]["www-authenticate"] = CHALLENGE
    failed["failure"] = {"rules": ["FAIL-1"], "curl": 'curl -sS -i -X GET -u "$USER:$PASSWORD" '
                                                      "'http://127.0.0.1:9999/x'   # as member"}
    error["message"] = f"KeyError: {HOSTILE_TEXT!r}"
    res["tests"][5]["message"] = (  # the privacy model's form: the curl in the middle of a line
        '[SAFE-1] member is shown comment 9; reproduce with: curl -sS -u "$USER:$PASSWORD" '
        "'http://127.0.0.1:9999/services/v2/answer/8/comment.json'   # as member (seed 3; rerun with --seed 3)")
    observed = res["tests"][3]
    observed["observations"] = [{"rule": "OBS-1", "facts": {"www_authenticate": CHALLENGE, "text": HOSTILE_TEXT,
                                                            "ratio": math.nan, "limit": math.inf}}]
    observed["duration"] = math.nan
    res["tests"][0]["nodeid"] = f"suites/contract/test_paging.py::test_page[{HOSTILE_TEXT}]"
    return res


def written(tmp_path: Path, **kwargs: Any) -> dict[str, str]:
    secrets = secret_variants([PLANTED], ["qa-member"])
    _, paths = build_and_write(hostile_results(), tmp_path, rules=CATALOG, secrets=secrets, **kwargs)
    return {key: p.read_text(encoding="utf-8") for key, p in paths.items()}


def test_junit_parses_with_expat_whatever_the_target_sent(tmp_path: Path) -> None:
    root = strict_junit(written(tmp_path)["junit"])
    failure = root.find(".//failure")
    assert failure is not None and "<b>&amp;" in (failure.get("message") or ""), "the message lost its text"
    assert "\\x00\\x07" in (failure.text or ""), "control characters are shown, not dropped"
    values = [p.get("value") or "" for p in root.iter("property") if p.get("name") == "observation"]
    assert any(CHALLENGE in v for v in values), f"the challenge was mangled or redacted: {values}"


def test_report_json_is_strict_json_and_keeps_nothing_a_parser_refuses(tmp_path: Path) -> None:
    for keep_all in (False, True):
        folder = tmp_path / str(keep_all)
        report = strict_json(written(folder, keep_all=keep_all)["json"])
        facts = report["observations"]["OBS-1"][0]["facts"]
        assert facts["ratio"] is None and facts["limit"] is None and facts["www_authenticate"] == CHALLENGE


def test_no_file_holds_the_password_nor_a_raw_marker_inside_markup(tmp_path: Path) -> None:
    texts = written(tmp_path)
    for key, text in texts.items():
        assert PLANTED not in text and PLANTED_B64 not in text, f"a credential is in the {key} file"
    assert "<redacted>" not in texts["junit"].replace("&lt;redacted&gt;", ""), "a raw marker in the XML"
    assert "<redacted>" not in texts["html"].replace("&lt;redacted&gt;", ""), "a raw marker in the HTML"


def test_every_curl_of_the_report_names_the_accounts_password_variable(tmp_path: Path) -> None:
    texts = written(tmp_path)
    report = json.loads(texts["json"])
    curls = [str(f.get("curl")) for r in report["rules"] for f in r["evidence"]["failures"]]
    assert curls and all('"$USER:$PASSWORD"' not in c for c in curls), curls
    messages = [str(t.get("message")) for t in report["tests"] if "reproduce with" in str(t.get("message")).lower()]
    assert any('-u "qa-member:$QACONFORM_MEMBER_PASSWORD"' in m for m in messages), messages
    assert all("$USER:$PASSWORD" not in m for m in messages), messages
    note = texts["html"][texts["html"].index('id="env-note"'):]
    note = note[:note.index("</div>")]
    assert "<code>QACONFORM_MEMBER_PASSWORD</code> (the password of <code>qa-member</code>, role member)" in note
    assert "<code>PASSWORD</code>" not in note and "role ?" not in note, note


def test_the_json_writer_turns_numbers_json_lacks_into_null_and_leaves_the_rest_as_it_is() -> None:
    from qaconform.report.files import strict_json as write

    def parse(text: str) -> object:
        return json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} written: not JSON"))

    plain = {"a": 1.5, "b": [1, (2, 3)], "c": {"d": None}, "e": Path("x")}
    assert parse(write(plain)) == {"a": 1.5, "b": [1, [2, 3]], "c": {"d": None}, "e": "x"}
    odd = {"a": float("nan"), "b": [1.0, float("inf")], "c": {"d": -float("inf")}, "e": (float("nan"),)}
    assert parse(write(odd, indented=True)) == {"a": None, "b": [1.0, None], "c": {"d": None}, "e": [None]}


def test_the_json_writer_writes_what_json_would_where_orjson_would_write_it_another_way_or_refuses() -> None:
    """orjson writes the files (fast); what it would write another way than ``json.dumps(default=str)`` (a dataclass,
    a date) or refuses (an integer beyond 64 bits, a key that is not a string, a lone surrogate) reads the same."""
    import dataclasses
    from datetime import UTC, datetime

    from qaconform.report.files import strict_json as write

    @dataclasses.dataclass
    class Point:
        x: int

    when = datetime(2026, 11, 27, 23, 0, tzinfo=UTC)
    cases = [{"big": 2**70}, {1: "int key"}, {"s": "\ud800 lone"}, {"p": Point(1)}, {"t": when},
             {"text": "é ü \u2028 \x01", "nested": [{"a": [1, 2.5, None, True]}]}]
    for value in cases:
        for indented in (False, True):
            text = write(value, indented=indented)
            assert json.loads(text) == json.loads(json.dumps(value, default=str)), (value, text)
    assert write({"a": [1]}, indented=True) == '{\n  "a": [\n    1\n  ]\n}'
    assert write({"a": [1]}) == '{"a":[1]}'
