"""A failure message cut to its length cap keeps every curl whole or leaves it out (qa20: four messages cut mid-curl
lost their ``# as <role>``, so their curl kept the ``"$USER:$PASSWORD"`` placeholder and could not be pasted)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from report_builders import CATALOG, FAIL_TEST, PLANTED, make_results

from qaconform.report.junit import build_junit
from qaconform.report.model import build_report
from qaconform.target.curl_line import CUT_MARK, PLACEHOLDER, cut_outside_curl, personalise_text

ACCOUNTS = {"member": {"username": "qa-member", "password_env": None}}
CURL = ('curl -sS -X GET "http://127.0.0.1:9999/services/v2/question.json?spaceId={n}&sort=newest&page=2" '
        f"-u {PLACEHOLDER} -H 'Accept: application/json'  # as member")


def walk_message(curls: int) -> str:
    """A message the way FILTER-SPACEID's second walk writes one: a sentence, then a curl per step."""
    lines = ["[FILTER-SPACEID] a question of another space listed under spaceId (the second walk):"]
    lines += [f"  step {n}: {CURL.format(n=n)}" for n in range(curls)]
    return "\n".join(lines)


def assert_every_curl_pastes(text: str) -> None:
    personal = personalise_text(text, ACCOUNTS) or ""
    assert PLACEHOLDER not in personal, personal
    for line in personal.splitlines():
        if "curl " in line:
            assert line.endswith("# as member") and '-u "qa-member:$QACONFORM_MEMBER_PASSWORD"' in line, line


def test_a_cut_that_falls_inside_a_curl_cuts_before_it() -> None:
    text = walk_message(12)
    for limit in range(200, len(text), 37):  # every place a cap may fall: prose, a step's words, the curl itself
        cut = cut_outside_curl(text, limit)
        assert len(cut) <= limit and cut.endswith(CUT_MARK.lstrip()), (limit, cut)
        assert_every_curl_pastes(cut)
        kept = cut.removesuffix(CUT_MARK.lstrip()).rstrip()
        assert text.startswith(kept), limit  # nothing changed but the end left out


def test_a_cut_in_prose_keeps_the_prose_up_to_the_cap_and_a_short_message_is_left_as_it_is() -> None:
    prose = "x " * 300
    cut = cut_outside_curl(prose, 100)
    assert cut == prose[:100 - len(CUT_MARK)].rstrip() + CUT_MARK
    short = walk_message(2)
    assert cut_outside_curl(short, len(short)) == short


def test_junit_text_past_its_cap_has_only_whole_curls_and_no_password() -> None:
    res = make_results(planted=True)
    failing = next(t for t in res["tests"] if t["nodeid"] == FAIL_TEST)
    failing["message"] = walk_message(120)  # longer than the JUnit text's cap (8,000 characters)
    assert len(failing["message"]) > 8000
    xml = build_junit(build_report(res, CATALOG))
    assert PLANTED not in xml
    failure = ET.fromstring(xml).find(".//failure")
    assert failure is not None and failure.text is not None
    assert failure.text.endswith(CUT_MARK.lstrip()), failure.text[-300:]
    assert PLACEHOLDER not in failure.text
    for line in failure.text.splitlines():
        if "curl " in line:
            assert line.endswith("# as member"), line
