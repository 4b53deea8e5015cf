"""report.html is one self-contained page with the summary, every rule, failures, observations, created, load."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from report_builders import CATALOG, FAIL_TEST, write_locust_csvs

from qaconform.report.writer import build_and_write


def build(tmp_path: Path, results: dict[str, Any], with_load: bool = True) -> str:
    if with_load:
        write_locust_csvs(tmp_path / "load")
    _, paths = build_and_write(results, tmp_path, rules=CATALOG,
                               meta={"run_id": "RUN1", "load": {"status": "ran"}} if with_load else {"run_id": "RUN1"})
    return paths["html"].read_text(encoding="utf-8")


def test_the_page_fetches_nothing_from_the_network(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html, re.IGNORECASE)
    assert "@import" not in html and "<link" not in html
    assert "<style>" in html and "<script>" in html


def test_the_page_has_a_row_per_rule_and_the_sections_qa_reads(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results)
    for rule in CATALOG:
        assert f'id="rule-{rule.id}"' in html
    for section in ("failed", "error", "summary", "rules", "observations", "created", "load", "target"):
        assert f'<section id="{section}">' in html
    assert 'data-status="not covered"' in html and 'data-status="error"' in html
    assert "not checked: needs fixture wiki_node_id" in html  # what a richer profile would check
    assert "has_error_body" in html  # the observation's facts
    assert "qc-test0001" in html  # the run tag next to what was created


def test_a_failure_shows_request_response_and_a_copyable_curl(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results)
    block = html[html.index('<section id="failed">'):html.index('<section id="error">')]
    assert "test_reply_with_other_visibility_is_400" in block
    assert "POST http://127.0.0.1:9999/services/v2/node/5/comment.json" in block
    assert "qcCopy(this)" in block and "curl -sS -i -X POST" in block
    errors = html[html.index('<section id="error">'):html.index('<section id="summary">')]
    assert "the kit broke" in errors and "ERR-1" in errors  # labelled as the kit's error, not the target's


def test_failures_come_first_each_failed_rule_once_with_the_rest_folded(tmp_path: Path,
                                                                         results: dict[str, Any]) -> None:
    first = results["tests"][1]
    results["tests"] += [{**first, "nodeid": f"{first['nodeid']}[{i}]", "message": f"repeat {i} of the failure"}
                         for i in range(3)]
    html = build(tmp_path, results, with_load=False)
    order = [html.index(f'<section id="{s}">') for s in ("failed", "error", "summary", "rules", "observations")]
    assert order == sorted(order), "failed rules, then errors, then the summary and the full table"
    failed = html[order[0]:order[1]]
    assert failed.count('class="rule-card failed"') == 1, "FAIL-1 fails in 4 tests and is shown once"
    assert "reply inherits visibility" in failed  # the rule's statement
    assert "4 of 4 test(s) failed" in failed
    assert "3 more failing test(s) of this rule" in failed and failed.index("<details") < failed.index("repeat 0")
    rows = re.findall(r'<tr class="rule-row" id="rule-([A-Z0-9-]+)" data-status="([a-z ]+)"', html)
    assert rows[0] == ("FAIL-1", "failed") and rows[1] == ("ERR-1", "error"), rows[:3]
    assert len(rows) == len(CATALOG)


def test_a_failure_carries_a_personal_curl_and_the_command_that_reruns_it(tmp_path: Path,
                                                                          results: dict[str, Any]) -> None:
    profile = tmp_path / "site.toml"
    rerun = {"pytest": ["python3", "-m", "pytest", "/srv/kit/suites", "-p", "no:locust"], "suites": "/srv/kit/suites",
             "profile": str(profile), "password_env": {"member": "QA_PW"}}
    _, paths = build_and_write(results, tmp_path, rules=CATALOG, meta={"run_id": "RUN1", "rerun": rerun})
    html = paths["html"].read_text(encoding="utf-8")
    failed = html[html.index('<section id="failed">'):html.index('<section id="error">')]
    assert "-u &quot;qa-member:$QA_PW&quot;" in failed and "$USER:$PASSWORD" not in failed
    assert "<code>QA_PW</code> (the password of <code>qa-member</code>, role member)" in failed
    assert f"python3 -m pytest /srv/kit/{FAIL_TEST} -p no:locust --target-profile {profile}" in failed
    assert f"qaconform run --profile {profile} --only FAIL-1" in failed
    report = json.loads(paths["json"].read_text(encoding="utf-8"))
    fail = next(r for r in report["rules"] if r["id"] == "FAIL-1")["evidence"]["failures"][0]
    assert fail["curl"].startswith('curl -sS -i -X POST -u "qa-member:$QA_PW"')
    assert fail["rerun"]["test"].endswith(f"--target-profile {profile}")
    assert report["reproduce"]["env_variables"] == {"member": "QA_PW"}


def test_without_password_env_the_report_names_its_own_variable(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results, with_load=False)
    assert "-u &quot;qa-member:$QACONFORM_MEMBER_PASSWORD&quot;" in html
    assert "export QACONFORM_MEMBER_PASSWORD=..." in html


def test_load_results_become_three_inline_svg_charts(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results)
    load = html[html.index('<section id="load">'):]
    assert load.count("<svg") == 3
    for title in ("Throughput over time", "Latency percentiles over time", "Failures per operation"):
        assert f"<title>{title}</title>" in load
    assert "<polyline" in load
    assert "HTTPError(&#x27;500 Server Error&#x27;)" in load


def test_without_a_load_run_there_is_no_load_section(tmp_path: Path, results: dict[str, Any]) -> None:
    html = build(tmp_path, results, with_load=False)
    assert '<section id="load">' not in html


def test_text_from_the_target_is_escaped(tmp_path: Path, results: dict[str, Any]) -> None:
    results["tests"][1]["message"] = "<script>alert(1)</script>"
    html = build(tmp_path, results, with_load=False)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_what_the_run_consumed_and_what_is_left_heads_the_page_and_report_json(tmp_path: Path,
                                                                              results: dict[str, Any]) -> None:
    results = {**results, "consumed": [{"fixture": "favorite_node_id", "node": 63, "run": "qc-test0001",
                                        "at": "2026-11-22T07:00:05+00:00", "base_url": "http://127.0.0.1:9999"}],
               "doctor": {"record": "/p/site.consumed.json", "findings": [
                   {"severity": "fixture", "key": "fixtures.wiki_node_id", "message": "wiki_node_id: nothing left",
                    "fix": "renew it: give a node in its state under [fixtures] wiki_node_id"}],
                   "unusable": {"wiki_node_id": "not checked: fixture wiki_node_id consumed (node 13 ...)"},
                   "one_shots": {"favorite_node_id": {"name": "favorite_node_id", "pool": [14, 63, 66],
                                                      "chosen": 63, "consumed": [14], "left_after": 1}}}}
    tests = [t for t in results["tests"] if "cancelwiki" not in t["nodeid"]]
    tests.append({**tests[0], "nodeid": "suites/scenarios/test_node_actions.py::test_x", "outcome": "skipped",
                  "rules": ["SKIP-1"], "skip_kind": "fixture not in its state",
                  "message": "not checked: fixture wiki_node_id consumed (node 13 ...)"})
    html = build(tmp_path, {**results, "tests": tests}, with_load=False)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["fixtures"]["consumed"] == [{"fixture": "favorite_node_id", "node": 63}]
    assert report["fixtures"]["one_shots"]["favorite_node_id"] == {"pool": [14, 63, 66], "used": 63,
                                                                   "consumed_before": [14], "left_after": 1,
                                                                   "state_unknown": []}
    assert report["fixtures"]["not_in_state"]["wiki_node_id"]["renew"].startswith("renew")
    skipped = next(r for r in report["rules"] if r["id"] == "SKIP-1")
    assert skipped["skip_category"] == "fixture not in its state"
    assert skipped["reason"].startswith("not checked: fixture wiki_node_id consumed")
    top = html.index('<section id="fixtures">')
    assert top < html.index('<section id="failed">'), "what the run did to the target comes first"
    section = html[top:html.index("</section>", top)]
    for words in ("consumed one-shot fixtures: favorite_node_id 63", "favorite_node_id 1",
                  "not in its state: wiki_node_id", "created on the target: 1 comment"):
        assert words in section, words


def test_a_skipped_rules_detail_is_on_the_page_beside_it(tmp_path: Path, results: dict[str, Any]) -> None:
    """A skip's detail (the target's facts, kept out of the reason CI compares) was in results.json, report.json and
    JUnit but not on the page a QA lead reads (user14)."""
    tests = [*results["tests"], {**results["tests"][0], "nodeid": "suites/contract/test_x.py::test_y",
                                 "outcome": "skipped", "rules": ["SKIP-1"], "skip_kind": "list too long",
                                 "message": "not checked: the list is longer than the longest page",
                                 "skip_detail": "it holds <29> items"}]
    html = build(tmp_path, {**results, "tests": tests}, with_load=False)
    section = html[html.index('<section id="skipped">'):]
    section = section[:section.index("</section>")]
    assert "SKIP-1" in section and "it holds &lt;29&gt; items" in section, section


def test_a_one_shot_node_an_earlier_build_consumed_is_not_said_to_be_consumed_by_this_one(
        tmp_path: Path, results: dict[str, Any]) -> None:
    """Build 2 of a CI job from a fresh folder tries the favorite build 1 consumed: its call meets the node not in its
    state and its tests skip. The record beside the profile gets the call, but the page must not say this run
    consumed the node: it says an earlier one did."""
    results = {**results, "consumed": [{"fixture": "favorite_node_id", "node": 14, "run": "qc-test0002",
                                        "at": "2026-11-22T07:00:05+00:00", "base_url": "http://127.0.0.1:9999"}]}
    tests = [t for t in results["tests"] if "cancelwiki" not in t["nodeid"]]
    tests.append({**tests[0], "nodeid": "suites/scenarios/test_node_actions.py::test_x", "outcome": "skipped",
                  "rules": ["SKIP-1"], "skip_kind": "fixture not in its state",
                  "message": "not checked: fixture not in its state: favorite_node_id node 14 answered 404 ...",
                  "met_consumed": {"fixture": "favorite_node_id", "node": 14}})
    html = build(tmp_path, {**results, "tests": tests}, with_load=False)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["fixtures"]["consumed"] == []
    assert report["fixtures"]["consumed_earlier"] == [{"fixture": "favorite_node_id", "node": 14}]
    top = html.index('<section id="fixtures">')
    section = html[top:html.index("</section>", top)]
    assert "consumed one-shot fixtures" not in section
    assert "consumed before this run: favorite_node_id 14" in section


def test_a_relation_not_checked_because_its_list_is_too_long_is_listed_never_held(
        tmp_path: Path, results: dict[str, Any]) -> None:
    """PASS-1 held in one test and was not checked in another (SkipKind.LIST_TOO_LONG): the rule entry, the
    summary, the terminal and the page name that test as not checked; a rule whose only test it is reads skipped
    under "not checked: list too long"."""
    from qaconform.report.terminal import format_summary

    why = "not checked: listNodeFollowers as member: the follower list holds 900 items, more than a walk reads whole"
    tests = [*results["tests"],
             {**results["tests"][0], "nodeid": "suites/contract/test_list_relations.py::test_f[a]", "outcome":
              "skipped", "skip_kind": "list too long", "message": why},
             {**results["tests"][0], "nodeid": "suites/contract/test_list_relations.py::test_f[b]", "outcome":
              "skipped", "skip_kind": "list too long", "message": why, "rules": ["NC-1"]}]
    html = build(tmp_path, {**results, "tests": tests}, with_load=False)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    rules = {r["id"]: r for r in report["rules"]}
    assert rules["PASS-1"]["status"] == "passed"
    assert [n["test"] for n in rules["PASS-1"]["not_checked"]] == ["suites/contract/test_list_relations.py::test_f[a]"]
    assert rules["NC-1"]["status"] == "skipped" and rules["NC-1"]["skip_category"] == "not checked: list too long"
    assert report["summary"]["not_checked"] == {"tests": 2, "rules": ["PASS-1", "NC-1"]}
    assert "not checked (list too long): 2 test(s) of PASS-1, NC-1; e.g. not checked: listNodeFollowers" in \
        format_summary(report)
    assert "Not checked, list too long: 2 test(s) of" in html


def test_every_data_protection_job_is_listed_for_a_person_on_the_page_and_the_terminal(tmp_path: Path) -> None:
    """Issue 46: runs scheduled real jobs and the report listed only their ids: nobody could find or cancel them.
    The job's facts come from the request that scheduled it (qaconform.target.recording.job_facts)."""
    from report_builders import entry, make_results

    from qaconform.report.terminal import fixture_lines
    from qaconform.report.writer import build_and_write
    from qaconform.target.recording import job_facts

    sent = json.dumps({"type": "individual", "user": {"email": "gdpr-target@example.invalid"},
                       "scheduleDate": {"formatted": "07/01/2064 22:44"}, "operations": ["suspend", "delete"],
                       "reassignUser": {"username": "qa-admin"}}).encode()
    job = job_facts("http://h/services/v2/jobs/gdpr/schedule.json?operations=anonymize", sent)
    assert job["operations"] == "anonymize", "a parameter wins over the body's field, as on the target"
    results = make_results()
    results["tests"].append(entry("suites/scenarios/test_gdpr_jobs.py::test_main_job", "passed", ["SAFE-1"],
                                  created=[{"kind": "gdpr-job", "id": 41, "by": "admin", "job": job,
                                            "test": "suites/scenarios/test_gdpr_jobs.py::test_main_job"}]))
    report, paths = build_and_write(results, tmp_path)
    line = next(x for x in fixture_lines(report) if x.startswith("  job 41"))
    for fact in ("email gdpr-target@example.invalid", "07/01/2064 22:44", "anonymize", "username qa-admin"):
        assert fact in line, line
    page = paths["html"].read_text(encoding="utf-8")
    assert 'id="jobs"' in page and "07/01/2064 22:44" in page and "<code>41</code>" in page


def test_a_job_dated_by_timestamp_shows_the_date_a_person_reads() -> None:
    """"on timeStamp 2602695720000" told the person who may cancel the job nothing: the date is shown beside the
    number as sent, with the unit it was read in (the description does not state it)."""
    from qaconform.report.terminal import scheduled_jobs

    def job(stamp: object) -> str:
        created = [{"kind": "gdpr-job", "id": 7, "by": "admin", "job": {"type": "individual", "user": {"id": 5},
                                                                       "scheduleDate": {"timeStamp": stamp}}}]
        return scheduled_jobs({"created": created})[0]["what"]

    assert "on timeStamp 2602695720000 (2052-06-22 19:02 UTC, read as milliseconds)" in job(2602695720000)
    assert "on timeStamp 2602695720 (2052-06-22 19:02 UTC, read as seconds)" in job(2602695720)
    assert "on timeStamp soon, operations" in job("soon"), "a value that is no number is shown as sent"


def test_the_header_says_when_the_run_started_as_a_person_reads_it(tmp_path: Path, results: dict[str, Any]) -> None:
    """The page printed ``started 2026-11-30T03:25:50.651778+00:00 · 158.876 s``: report.json's exact values. A
    person reads the time to the second, in UTC, and the duration to a tenth."""
    from datetime import datetime

    html = build(tmp_path, results, with_load=False)
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    started = datetime.fromisoformat(data["started"]).strftime("%Y-%m-%d %H:%M:%S UTC")
    header = html.split('class="meta"', 1)[-1][:2000] if 'class="meta"' in html else html
    assert f"started {started}" in header, header[:600]
    assert f"{data['duration_s']:.1f} s" in header
    assert data["started"] not in html.split("<script", 1)[0]


def test_a_rule_with_no_reason_gives_its_statement_the_reason_column_too(tmp_path: Path,
                                                                        results: dict[str, Any]) -> None:
    """Most rows (every passed and observed rule) have no reason: their empty reason cell took a third of the row's
    width and squeezed the statement beside it (seen in Chromium). Such a row's statement spans both columns; a row
    with a reason keeps two cells."""
    html = build(tmp_path, results, with_load=False)
    rows = {m.group(1): m.group(0) for m in re.finditer(r'<tr class="rule-row" id="rule-([^"]+)".*?</tr>', html,
                                                         re.DOTALL)}
    assert '<th>statement</th><th>reason</th>' in html
    passed = rows["PASS-1"]
    assert passed.count("<td") == 6 and '<td colspan="2">pages hold what they say' in passed, passed
    with_reason = rows["NC-1"]  # not covered: the reason says why
    assert with_reason.count("<td") == 7 and 'colspan' not in with_reason, with_reason
    assert re.search(r"invalid user id gives 422.*?</td><td>[^<]+", with_reason, re.DOTALL), with_reason
