"""Every load failure names the rule it judges (qaconform.load.check_rules), and the self-test's load part judges the
load by them (issue 45 item 5: "Load passes on every allowed variant"): on the clean server and each variant group a
failure charged to a rule is a false positive; a fault is caught when the load charges its rule.

The fast tests check the table against spec/rules.yaml and the verdicts on made-up results; the slow one runs
`qaconform selftest --load-only` on a small subset (the clean server, ``all``, one fault) and reads its JSON strictly.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from qaconform.commands.selftest_load import LoadPart, LoadRun, servers
from qaconform.contract import load_contract
from qaconform.load import check_rules
from qaconform.load.check_rules import CLAIMS, RuleTally, charge_lost, claimed, rule_of
from qaconform.load.locust_checks import OK_LIST, CheckFailure, check_response
from qaconform.load.runner import scenarios

ROOT = Path(__file__).resolve().parents[2]


def _strict(text: str) -> Any:
    def refuse(token: str) -> None:
        raise ValueError(f"not strict JSON: {token}")

    return json.loads(text, parse_constant=refuse)


def test_every_rule_a_load_check_names_is_a_rule_of_the_spec_and_every_claim_a_scenario() -> None:
    rules = load_contract().rules
    tasks = (ROOT / "loadtests" / "qaload" / "tasks.py").read_text(encoding="utf-8")
    named = {*check_rules.CHECK_RULES.values(), *check_rules.ALLOWED_STATUS_RULES.values(),
             *check_rules.LOST_RULES.values(), check_rules.LISTCOUNT_RULE, check_rules.ENVELOPE_RULE,
             check_rules.NO_SERVER_ERROR, *re.findall(r'rule="([A-Z0-9-]+)"', tasks)}
    assert named - set(rules) == set()
    assert {c.rule for c in CLAIMS} == named, "a rule a load check names and no claim lists (or the reverse)"
    assert all(c.scenarios and set(c.scenarios) <= set(scenarios()) for c in CLAIMS)


def test_a_failed_check_names_its_rule_from_the_check_the_status_and_the_call_site() -> None:
    assert rule_of("listTopics", "list_envelope", "listCount differs from the number of items in 'list'", 200) \
        == "PAGING-LISTCOUNT"
    assert rule_of("listTopics", "list_envelope", "'list' is missing or not an array", 200) == "PAGING-ENVELOPE"
    assert rule_of("listSpaces", "json_body", "body is not valid JSON", 200) == "CONV-JSON-EXTENSION"
    assert rule_of("listGroups", "status_expected", "got 403, expected 2xx", 403) == "PERM-GROUPS"
    assert rule_of("lockNode", "refused", "got 403", 403, "PERM-LOCK-OWN") == "PERM-LOCK-OWN"
    assert rule_of("scheduleGdprJob", "status_expected", "got 500", 500, "GDPR-BULK-NO-CSV") == "CONV-NO-SERVER-ERROR"
    # what no rule decides: the target's pace, no answer at all, a one-shot fixture an earlier run may have consumed
    assert rule_of("listQuestions", "rate_limited", "429", 429) is None
    assert rule_of("listQuestions", "status_expected", "no HTTP answer", 0) is None
    assert rule_of("listQuestions", "total_time", "no complete answer", 200) is None
    assert rule_of("cancelWiki (one-shot)", "refused", "got 400", 400) is None


def test_the_checks_failure_carries_the_rule_the_user_names_and_the_tally_charges_it() -> None:
    with pytest.raises(CheckFailure) as caught:
        check_response(200, "application/json", b'{"list": [1], "listCount": 2}', OK_LIST)
    caught.value.name_rule("listTopics", 200, OK_LIST)
    assert caught.value.rule == "PAGING-LISTCOUNT"
    tally = RuleTally()
    tally.add("listTopics", caught.value)
    tally.add("listQuestions", CheckFailure("rate_limited", "429"))
    tally.add("listQuestions", ConnectionResetError())
    shipped = tally.drain()
    assert tally.to_dict() == {"charged": {}, "uncharged": {}}
    master = RuleTally()
    master.merge(shipped)
    master.merge(shipped)
    master.merge("not a tally")
    charge_lost(master, [{"kind": "answer", "problem": "missing"}, {"kind": "comment", "problem": "listed 2 times"},
                         {"kind": "answer", "problem": "not found (time budget of the check ran out)"}])
    assert master.to_dict() == {
        "charged": {"ANSWER-PUBLISHED": {"nothing-lost": 1}, "COMMENT-1": {"nothing-lost": 1},
                    "PAGING-LISTCOUNT": {"listTopics": 2}},
        "uncharged": {"ConnectionResetError": 2, "nothing_lost_unread": 1, "rate_limited": 2}}


def test_the_load_part_fails_on_a_rule_charged_on_a_variant_never_on_a_fault_the_load_does_not_notice() -> None:
    green = LoadRun("clean server", "browse", requests=90, uncharged={"rate_limited": 3})
    caught = LoadRun("envelope-listcount-wrong", "browse", rule="PAGING-LISTCOUNT", requests=90,
                     charged={"PAGING-LISTCOUNT": {"listTopics": 4}})
    unnoticed = LoadRun("answer-listed-only-for-author", "write", rule="ANSWER-PUBLISHED", requests=90)
    part = LoadPart([green, caught, unnoticed], seconds=40)
    assert part.ok and part.faults_caught() == (["envelope-listcount-wrong"], ["answer-listed-only-for-author"])
    doc = _strict(json.dumps(part.as_json()))
    assert doc["ok"] is True and doc["false_positives"] == [] and doc["faults_missed"] == [
        "answer-listed-only-for-author"]

    false = LoadRun("variant all", "mixed", variants=("all",), requests=90,
                    charged={"PERM-ANSWER-COMMENTS": {"listAnswerComments": 32}})
    part = LoadPart([green, false, caught], seconds=40)
    assert not part.ok
    assert any("LOAD FALSE POSITIVE: mixed on variant all: PERM-ANSWER-COMMENTS (listAnswerComments 32)" in line
               for line in part.lines())
    assert not LoadPart([LoadRun("x", "gdpr", rule="GDPR-BULK-NO-CSV", problem="no request was made")], 1).ok


def test_the_load_part_runs_each_fault_only_with_the_scenarios_whose_checks_name_its_rule() -> None:
    todo = servers(["envelope-listcount-wrong", "answer-denied-to-member", "node-dates-in-seconds"], [("all",)],
                   True, scenarios())
    assert [(s.label, s.scenarios) for s in todo] == [
        ("clean server", scenarios()), ("variant all", scenarios()),
        ("envelope-listcount-wrong", claimed("PAGING-LISTCOUNT")), ("answer-denied-to-member", ("write",))]


@pytest.mark.parametrize("args", [["--load-seconds", "3"], ["--load", "--load-scenario", "nosuch"],
                                  ["--load", "--load-seconds", "0"]])
def test_a_wrong_load_option_is_a_usage_error_before_anything_runs(args: list[str]) -> None:
    from qaconform.commands import selftest
    from qaconform.errors import UsageError

    parser = argparse.ArgumentParser()
    selftest.add_arguments(parser)
    with pytest.raises(UsageError, match="--load"):
        selftest.main(parser.parse_args(["--no-faults", "--no-variants", "--no-clean", *args]))


@pytest.mark.slow  # three reference servers and three Locust runs
def test_selftest_load_only_passes_the_clean_server_and_all_and_catches_a_broken_listcount(tmp_path: Path) -> None:
    out = tmp_path / "selftest.json"
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "selftest", "--load-only", "--fault",
                           "envelope-listcount-wrong", "--variant", "all", "--load-scenario", "browse",
                           "--load-seconds", "4", "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    load = _strict(out.read_text(encoding="utf-8"))["load"]
    assert load["ok"] is True and load["false_positives"] == [], load
    assert load["faults_caught"] == ["envelope-listcount-wrong"], load
    runs = {(r["label"], r["scenario"]): r for r in load["runs"]}
    assert set(runs) == {("clean server", "browse"), ("variant all", "browse"), ("envelope-listcount-wrong", "browse")}
    assert all(r["requests"] > 0 and r["problem"] is None for r in runs.values()), load
    assert "load: 2 scenario runs on the clean server and the variants, false positives 0" in proc.stdout
