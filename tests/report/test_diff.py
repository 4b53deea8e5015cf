"""`qaconform diff` names regressions, recoveries, coverage changes and changed observations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_builders import CATALOG, entry, invoke, make_results

from qaconform import exitcodes
from qaconform.report import diff as command
from qaconform.report.diff import compare
from qaconform.report.writer import build_and_write


def run(tmp_path: Path, name: str, results: dict[str, Any]) -> Path:
    build_and_write(results, tmp_path / name, rules=CATALOG, meta={"run_id": name})
    return tmp_path / name


def test_a_rule_that_held_and_now_fails_is_a_regression(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = run(tmp_path, "clean", make_results(fail=False))
    broken = run(tmp_path, "broken", make_results(fail=True))
    assert invoke(command, [str(clean), str(broken)]) == exitcodes.RULE_FAILED
    out = capsys.readouterr().out
    assert "regressed (held in A, broken in B): 1" in out
    assert "FAIL-1: passed -> failed" in out
    assert "reproduce: curl" in out


def test_the_reverse_is_a_recovery_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = run(tmp_path, "clean", make_results(fail=False))
    broken = run(tmp_path, "broken", make_results(fail=True))
    assert invoke(command, [str(broken / "report.json"), str(clean / "report.json")]) == exitcodes.OK
    out = capsys.readouterr().out
    assert "recovered: 1" in out and "FAIL-1: failed -> passed" in out
    assert "verdict: no regression" in out


def test_coverage_changes_and_observation_changes_are_listed(tmp_path: Path) -> None:
    a = make_results(fail=False)
    b = make_results(fail=False)
    b["tests"].append(entry("suites/gdpr/test_content.py::test_invalid_user", "passed", ["NC-1"]))
    b["tests"][3]["observations"] = [{"rule": "OBS-1", "facts": {"status": 422, "has_error_body": True}}]
    ra = json.loads((run(tmp_path, "a", a) / "report.json").read_text())
    rb = json.loads((run(tmp_path, "b", b) / "report.json").read_text())
    d = compare(ra, rb)
    assert [e["rule"] for e in d["newly_covered"]] == ["NC-1"]
    assert d["observations_changed"] == [{"rule": "OBS-1",
                                          "test": "suites/scenarios/test_lock.py::test_lock_without_prompt",
                                          "before": [{"status": 400, "has_error_body": True}],
                                          "after": [{"status": 422, "has_error_body": True}]}]
    assert d["exit_code"] == exitcodes.OK
    assert [e["rule"] for e in compare(rb, ra)["uncovered"]] == ["NC-1"]


def test_an_expected_failure_in_b_is_listed_but_does_not_count(tmp_path: Path) -> None:
    ra = json.loads((run(tmp_path, "a", make_results(fail=False)) / "report.json").read_text())
    rb = json.loads((run(tmp_path, "b", make_results(fail=True)) / "report.json").read_text())
    rb["rules"][1]["expected"] = {"rule": "FAIL-1", "reason": "known", "link": None, "state": "expected failure"}
    d = compare(ra, rb)
    assert d["regressed"][0]["expected"] == "known" and d["exit_code"] == exitcodes.OK


@pytest.mark.parametrize("bad", ["missing", "notjson", "results"])
def test_unreadable_input_exits_2_with_a_message(tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    good = run(tmp_path, "good", make_results())
    path = tmp_path / "bad.json"
    if bad == "notjson":
        path.write_text("{not json")
    elif bad == "results":
        path.write_text(json.dumps(make_results()))
    assert invoke(command, [str(good), str(path)]) == exitcodes.USAGE
    err = capsys.readouterr().err
    assert err.startswith("qaconform diff: ") and "Traceback" not in err


def test_the_installed_command_dispatches_diff(tmp_path: Path) -> None:
    import subprocess
    import sys

    clean = run(tmp_path, "clean", make_results(fail=False))
    broken = run(tmp_path, "broken", make_results(fail=True))
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "diff", str(clean), str(broken)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == exitcodes.RULE_FAILED, proc.stderr
    assert "FAIL-1: passed -> failed" in proc.stdout


def test_a_changed_observation_is_shown_as_the_facts_that_differ() -> None:
    from qaconform.report.diff import describe_change

    before = [{"status": 200, "listCount": 0, "sort": "name"}]
    after = [{"status": 200, "listCount": 1, "sort": "name", "extra": True}]
    assert describe_change(before, after) == "[0].extra: (absent) -> true; [0].listCount: 0 -> 1"


def _with_facts(facts: dict[str, Any], tag: str) -> dict[str, Any]:
    res = make_results(fail=False)
    res["run_tag"] = tag
    res["tests"][3]["observations"] = [{"rule": "OBS-1", "facts": facts}]
    return res


def _facts(answer_id: int, when: str, tag: str, status: int = 400) -> dict[str, Any]:
    """Facts shaped like those of OBS-LOCK-TWICE / OBS-COMMENT-RESPONSE-BODY in a real run."""
    return {"status": status, "answer_id": answer_id, "error": f"node {answer_id} is not a community wiki",
            "second": {"body": {"lockAction": {"id": answer_id + 7, "actionDate": when,
                                               "extra": f"qaconform lock reason 0badc0de [{tag}]"}}},
            "snippet": (f'{{"id":{answer_id},"creationDate":1795442664904,'
                        '"creationDateFormatted":"11/23/2026 02:04 PM"}'),
            "first": [when], "sent": 2773588500000 + answer_id}


def test_ids_timestamps_and_run_tags_are_no_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = run(tmp_path, "a", _with_facts(_facts(210, "2026-11-23 14:04:25.0", "qc-8107e6e4"), "qc-8107e6e4"))
    b = run(tmp_path, "b", _with_facts(_facts(230, "2026-11-23 14:09:07.9", "qc-0000abcd"), "qc-0000abcd"))
    assert invoke(command, [str(a), str(b)]) == exitcodes.OK
    out = capsys.readouterr().out
    assert "no change" in out and "observations that changed" not in out, out


def test_a_changed_value_beside_changed_ids_is_still_reported(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    a = run(tmp_path, "a", _with_facts(_facts(210, "2026-11-23 14:04:25.0", "qc-8107e6e4"), "qc-8107e6e4"))
    b = run(tmp_path, "b", _with_facts(_facts(230, "2026-11-23 14:09:07.9", "qc-0000abcd", status=409), "qc-x"))
    assert invoke(command, [str(a), str(b)]) == exitcodes.OK  # an observation is never a regression
    out = capsys.readouterr().out
    assert "observations that changed: 1" in out and "status: 400 -> 409" in out, out
    assert "answer_id" not in out and "14:09" not in out, "only what really changed is listed"


def test_a_volatile_field_that_changes_shape_is_reported(tmp_path: Path) -> None:
    from qaconform.report.volatile import normalise

    assert normalise({"answer_id": 5}) == normalise({"answer_id": 9})
    assert normalise({"answer_id": 5}) != normalise({"answer_id": None})  # an id that went missing is a change
    assert normalise({"error": "node 245 is not a favorite"}) == normalise({"error": "node 9 is not a favorite"})
    assert normalise({"error": "not a favorite"}) != normalise({"error": "not a wiki"})


def test_report_html_shows_what_changed_since_a_baseline_run(tmp_path: Path) -> None:
    a = run(tmp_path, "a", _with_facts(_facts(210, "2026-11-23 14:04:25.0", "qc-8107e6e4"), "qc-8107e6e4"))
    b = _with_facts(_facts(230, "2026-11-23 14:09:07.9", "qc-0000abcd", status=409), "qc-0000abcd")
    b["tests"][1] = entry(b["tests"][1]["nodeid"], "failed", ["FAIL-1"], message="expected 400, got 201")
    report, paths = build_and_write(b, tmp_path / "b", rules=CATALOG, meta={"run_id": "b"}, baseline=a)
    assert report["baseline"]["status_changes"] == [{"rule": "FAIL-1", "before": "passed", "after": "failed"}]
    html = paths["html"].read_text(encoding="utf-8")
    changed = html[html.index('<section id="changed">'):html.index('<section id="summary">')]
    assert "Changed since a" in changed and "FAIL-1" in changed and "status: 400 -&gt; 409" in changed
    assert html.index('<section id="failed">') < html.index('<section id="changed">') < html.index('id="rules"')


def _two_runs_of_one_server(first: int) -> dict[str, Any]:
    """Facts shaped like those a real run records where the server hands out ids and the kit's writes move counts:
    OBS-LOCATION-READABLE, OBS-MODERATED-IN-IDS, OBS-ANSWERCOUNT-MISMATCH, OBS-SORT-INVALID-OTHER."""
    grown = first * 2
    return {"location": f"/services/v2/answer/{first}.json", "absolute": f"http://h:1/services/v2/comment/{first}.json",
            "other_path": f"/questions/1/{first}.html", "query": f"/services/v2/node.json?nodeId={first}&page=2",
            "answer": first + 1, "mismatched": [{"id": 1, "answerCount": grown, "answers": grown + 3}],
            "totalCount": grown, "pageCount": grown // 15 + 1, "listCount": 15, "array_length": grown,
            "pageSize": 15, "status": 200}


def test_ids_in_urls_and_counts_moved_by_the_kits_writes_are_no_change() -> None:
    from qaconform.report.volatile import normalise

    assert normalise(_two_runs_of_one_server(278)) == normalise(_two_runs_of_one_server(545))


@pytest.mark.parametrize("field,before,after", [
    ("location", "/services/v2/answer/278.json", "http://h:1/services/v2/answer/545.json"),  # another form
    ("location", "/services/v2/answer/278.json", "/services/v2/comment/545.json"),  # another path
    ("totalCount", 0, 12),  # an empty list that is no longer empty
    ("answer", 5, None),  # an id that went missing
    ("pageSize", 15, 20),  # not a count the kit's writes move
    ("status", 200, 404),
])
def test_what_really_changed_beside_ids_and_counts_is_still_a_change(field: str, before: Any, after: Any) -> None:
    from qaconform.report.volatile import normalise

    a, b = _two_runs_of_one_server(278), _two_runs_of_one_server(545)
    a[field], b[field] = before, after
    assert normalise(a) != normalise(b)


def _report(rules: list[dict[str, Any]], observations: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"run_id": "r", "target": {"base_url": "http://h"}, "rules": rules, "observations": observations or {}}


def test_a_rule_whose_one_shot_fixture_was_consumed_is_not_checked_never_a_regression(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Run B found the favorite consumed by run A (the doctor's finding): its rules were skipped, not broken."""
    why = ("not checked: fixture favorite_node_id is not in the state the profile says (consumed by an earlier run?)")
    a = _report([{"id": "SHAPE-UNMARK-FAVORITE", "status": "passed"}, {"id": "OBS-ACTION-VERBS", "status": "observed"},
                 {"id": "PASS-1", "status": "passed"}],
                {"OBS-ACTION-VERBS": [{"test": "t::verbs", "facts": {"status": 200, "verb": "favorited"}}]})
    b = _report([{"id": "SHAPE-UNMARK-FAVORITE", "status": "skipped", "skip_category": "fixture not in its state",
                  "reason": why},
                 {"id": "OBS-ACTION-VERBS", "status": "skipped", "skip_category": "fixture not in its state",
                  "reason": why}, {"id": "PASS-1", "status": "passed"}])
    d = compare(a, b)
    assert [e["rule"] for e in d["not_checked_fixture_consumed"]] == ["OBS-ACTION-VERBS", "SHAPE-UNMARK-FAVORITE"]
    assert not d["regressed"] and not d["other_changes"] and not d["observations_changed"]
    assert d["exit_code"] == exitcodes.OK
    print(command.format_diff(d))
    out = capsys.readouterr().out
    assert "not checked: fixture consumed" in out and "verdict: no regression" in out and "regress" not in out[:-30]
    skipped_otherwise = _report([
        {"id": "SHAPE-UNMARK-FAVORITE", "status": "skipped", "skip_category": "missing fixture"},
        {"id": "OBS-ACTION-VERBS", "status": "observed"}, {"id": "PASS-1", "status": "passed"}])
    assert [e["rule"] for e in compare(a, skipped_otherwise)["other_changes"]] == ["SHAPE-UNMARK-FAVORITE"]


GENERATED_TEST = "suites/properties/test_openapi.py::test_ops[GET /services/v2/group.json]"


def _generated(seed: int, status: int) -> dict[str, Any]:
    return {"OBS-GENERATED-STATUS": [{"test": GENERATED_TEST,
                                      "facts": {"seed": seed, "request": "GET /x", "status": status}}]}


def test_generated_tests_with_other_seeds_are_not_compared_and_with_the_same_seed_they_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two runs of one server with the default random seed drew other requests: their generated observations
    differ without the target changing, so diff says "no change" and why it did not compare them."""
    rules = [{"id": "OBS-GENERATED-STATUS", "status": "observed"}]
    a, b = _report(rules, _generated(11, 404)), _report(rules, _generated(22, 400))
    d = compare(a, b)
    assert d["observations_changed"] == [] and d["exit_code"] == exitcodes.OK
    assert d["generated_not_compared"] == {"seeds": [[11], [22]],
                                           "observations": [{"rule": "OBS-GENERATED-STATUS", "test": GENERATED_TEST}]}
    text = command.format_diff(d)
    assert "no change" in text and "other seeds (11 and 22)" in text
    same = compare(_report(rules, _generated(11, 404)), _report(rules, _generated(11, 400)))
    assert [o["rule"] for o in same["observations_changed"]] == ["OBS-GENERATED-STATUS"]
    assert "no change" not in command.format_diff(same)


def test_the_consumed_category_is_the_doctors() -> None:
    from qaconform.pytest.outcomes import SkipKind
    from qaconform.report.diff import FIXTURE_NOT_IN_STATE

    assert SkipKind.FIXTURE_STATE.category == FIXTURE_NOT_IN_STATE


def test_a_should_rule_that_held_and_now_fails_is_listed_but_is_no_regression() -> None:
    """qaconform run only warns about a failed should-rule (it fails a run with --strict); diff agrees."""
    a = _report([{"id": "PROJ-SAME-ITEMS", "level": "should", "status": "passed"}])
    b = _report([{"id": "PROJ-SAME-ITEMS", "level": "should", "status": "failed"}])
    d = compare(a, b)
    assert [e["rule"] for e in d["regressed"]] == ["PROJ-SAME-ITEMS"] and d["exit_code"] == exitcodes.OK
    assert "should-level: a warning" in command.format_diff(d)
    must = compare(_report([{"id": "R", "level": "must", "status": "passed"}]),
                   _report([{"id": "R", "level": "must", "status": "failed"}]))
    assert must["exit_code"] == exitcodes.RULE_FAILED


def test_the_targets_origin_in_a_url_is_no_change() -> None:
    """Two runs of the reference server listen on two ports: an absolute Location names them (CI's new user saw
    ``location: "http://127.0.0.1:42187/..." -> ":38391/..."`` as a changed observation)."""
    from qaconform.report.volatile import normalise

    assert normalise({"location": "http://127.0.0.1:42187/services/v2/answer/7.json"}) == normalise(
        {"location": "http://127.0.0.1:38391/services/v2/answer/9.json"})
    assert normalise({"location": "http://127.0.0.1:42187/services/v2/answer/7.json"}) != normalise(
        {"location": "/services/v2/answer/9.json"}), "an absolute URL against a relative one is still a change"


@pytest.mark.parametrize("category", ["write budget spent", "not checked: held back by the target"])
def test_a_rule_one_run_could_not_afford_is_checked_by_one_run_only_never_a_change(
        category: str, capsys: pytest.CaptureFixture[str]) -> None:
    """CI's new user: run 2 left three observations for its write budget that run 1 had recorded (which ones
    was first come, first served then); a rule only one run checked is listed apart, and the runs say no change."""
    recorded = _report([{"id": "OBS-GDPR-SCHEDULETIME", "status": "observed"}, {"id": "PASS-1", "status": "passed"}],
                       {"OBS-GDPR-SCHEDULETIME": [{"test": "t::schedule_time", "facts": {"status": 422}}]})
    left = _report([{"id": "OBS-GDPR-SCHEDULETIME", "status": "skipped", "skip_category": category,
                     "reason": "write budget spent: the observations' share"}, {"id": "PASS-1", "status": "passed"}])
    for a, b in ((recorded, left), (left, recorded)):
        d = compare(a, b)
        assert [e["rule"] for e in d["checked_by_one_run_only"]] == ["OBS-GDPR-SCHEDULETIME"]
        assert not d["other_changes"] and not d["observations_changed"] and d["exit_code"] == exitcodes.OK
        print(command.format_diff(d))
        out = capsys.readouterr().out
        assert "checked by one run only" in out and "no change" in out, out
    failed = _report([{"id": "OBS-GDPR-SCHEDULETIME", "status": "observed"}, {"id": "PASS-1", "status": "failed"}])
    d = compare(left, failed)
    assert "no change" not in command.format_diff(d), "a real change beside it is still one"


def test_a_rule_the_target_held_back_in_a_real_run_is_checked_by_one_run_only(tmp_path: Path) -> None:
    """Issue 47: the report grouped a rule whose every test was held back as plain "skipped" (the category was
    missing from the model's order) and diff listed it under "other changes". Here the category is not written by
    hand: a real pytest run of the plugin records the skip's kind, the report derives the category from it."""
    import subprocess
    import sys

    from qaconform.report.model import build_report

    (tmp_path / "test_held.py").write_text(
        "import os, pytest\n"
        "from qaconform.pytest.outcomes import SkipKind, skip\n\n"
        "@pytest.mark.rule('PAGING-LISTCOUNT')\n"
        "def test_list_count() -> None:\n"
        "    if os.environ.get('HELD') == '1':\n"
        "        skip(SkipKind.HELD_BACK, 'held back by the target: 429 with Retry-After 3600 s')\n", encoding="utf-8")
    reports = []
    for held in ("0", "1"):
        out = tmp_path / f"results-{held}.json"
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_held.py",
                               "--qaconform-results", str(out)], cwd=tmp_path, capture_output=True, text=True,
                              env={**__import__("os").environ, "HELD": held}, timeout=120, check=False)
        assert out.is_file(), proc.stdout + proc.stderr
        reports.append(build_report(json.loads(out.read_text(encoding="utf-8")), CATALOG))
    rule = next(r for r in reports[1]["rules"] if r["id"] == "PAGING-LISTCOUNT")
    assert rule["status"] == "skipped" and rule["skip_category"] == "not checked: held back by the target", rule
    for a, b in ((reports[0], reports[1]), (reports[1], reports[0])):
        d = compare(a, b)
        assert [e["rule"] for e in d["checked_by_one_run_only"]] == ["PAGING-LISTCOUNT"], d
        assert not d["other_changes"] and d["exit_code"] == exitcodes.OK, d


def test_runs_with_other_settings_say_so_and_a_failure_only_the_deeper_one_could_find_is_no_regression(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 46: a run with --max-examples 50 found what the release run (12) had not, and diff called it a
    regression without saying that seeds and example counts differed."""
    a = {**_report([{"id": "SHAPE-POST-COMMENT", "status": "passed"}, {"id": "PASS-1", "status": "passed"}]),
         "settings": {"seed": 11, "max_examples": 12, "write_budget": 100, "strict": False}}
    failing = {"id": "SHAPE-POST-COMMENT", "status": "failed", "level": "must", "evidence": {"failures": [
        {"test": "suites/properties/test_openapi.py::test_operation[postComment]", "message": "a 500 to a body"}]}}
    b = {**_report([failing, {"id": "PASS-1", "status": "passed"}]),
         "settings": {"seed": 11, "max_examples": 50, "write_budget": 100, "strict": False}}
    d = compare(a, b)
    assert d["settings_differ"] == ["examples per generated test 12 -> 50"]
    assert not d["regressed"] and [e["rule"] for e in d["found_with_other_settings"]] == ["SHAPE-POST-COMMENT"]
    assert d["exit_code"] == exitcodes.OK
    text = command.format_diff(d)
    assert "the runs differ in: examples per generated test 12 -> 50" in text and "no change" not in text, text
    same = compare({**a, "settings": b["settings"]}, b)
    assert [e["rule"] for e in same["regressed"]] == ["SHAPE-POST-COMMENT"], "same settings: a regression"
    hand = {**failing, "evidence": {"failures": [{"test": "suites/contract/test_x.py::t", "message": "m"}]}}
    assert [e["rule"] for e in compare(a, {**b, "rules": [hand]})["regressed"]] == ["SHAPE-POST-COMMENT"], (
        "a hand-written test sends the same requests whatever the examples: still a regression")


def test_passed_to_observed_is_no_change_and_reasons_are_never_cut_mid_word() -> None:
    a = _report([{"id": "OBS-1", "status": "passed"}, {"id": "R", "status": "passed"}])
    b = _report([{"id": "OBS-1", "status": "observed"},
                 {"id": "R", "status": "failed", "level": "must", "evidence": {"failures": [
                     {"test": "t::r", "message": "the listCount of the answer list was one more than the items it "
                      "held, consistently, on every page of every account's walk"}]}}])
    d = compare(a, b)
    assert not d["other_changes"] and [e["rule"] for e in d["regressed"]] == ["R"]
    line = next(x for x in command.format_diff(d).splitlines() if x.startswith("  R:"))
    assert line.endswith(" ...") and line.split("  ")[-1].split()[-2] in "the listCount of the answer list was one "\
        "more than the items it held, consistently, on every page of every account's walk".split(), line


def _posted_comment_body(node_id: int, epoch_ms: int, run_tag: str) -> str:
    return (f'{{"id":{node_id},"type":"comment","creationDate":{epoch_ms},'
            f'"creationDateFormatted":"2026-12-01T14:19:02.123Z","body":"plain comment by member with \\"double '
            "quotes\\\", 'single quotes' and a back\\\\slash C++ and 1+1=2; 50% of a%20b & c=d, in other scripts: "
            f'réponse naïve, 日本語, ✓, déjà vu, 日本語, emoji 😀 𝔘𝔫𝔦 [{run_tag}] and more text"}}')


def test_a_snippet_cut_where_ids_of_other_lengths_moved_the_cut_is_no_change() -> None:
    """qa20: two CI builds of one server showed OBS-COMMENT-RESPONSE-BODY's ``snippet`` (``resp.text[:300]``) as a
    changed observation, ``... [qc-188`` -> ``... [qc-1c``: the comment's id had another number of digits, so the
    cut fell elsewhere in the run tag."""
    from qaconform.report.volatile import normalise

    a = {"status": 201, "snippet": _posted_comment_body(188, 1764598742123, "qc-188a01f2")[:300]}
    b = {"status": 201, "snippet": _posted_comment_body(1234, 1764598861456, "qc-1c0f77e9")[:300]}
    assert a["snippet"][-8:] != b["snippet"][-8:], "the two cuts must fall in different places for this test"
    assert normalise(a) == normalise(b)
    changed = {"status": 201, "snippet": _posted_comment_body(1234, 1764598861456, "qc-1c0f77e9")
               .replace('"type":"comment"', '"type":"answer"')[:300]}
    assert normalise(a) != normalise(changed), "what the body says before the cut is still compared"
    short_a, short_b = {"snippet": '{"error":"no such node 12"}'}, {"snippet": '{"error":"no such node"}'}
    assert normalise(short_a) != normalise(short_b), "a snippet shorter than any cut is compared whole"
