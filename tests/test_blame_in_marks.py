"""Every rule a suite test can blame is among its marks, unless the blame is a step's (cross17, issue 44 item 7).

The self-test runs a fault's tests by their rule marks (``qaconform/pytest/fault_batch.py``, ``rule_map.py``); a test
whose failure names a rule it is not marked with is charged that rule in a whole run (blocked by it:
``qaconform.pytest.results._blame``) but never run for that rule's faults, so the whole run catches what the
self-test misses (round 43's question-comment send, ACTION-NODE-ID). tests/blame_scan.py reads, from the source,
the rule ids that reach a ``fail``/``expect``/``RuleFailure`` of each test and of the helpers it calls; the marks
are the collection's (``rule_map``: parametrized rows' marks included, a function's rows together). What is left
must be one of:

- :data:`STEPS`: a helper whose failure says the content, read or action the test needed did not come (blocked,
  as by a fixture: ``support.expect_created``'s design), the rule judged where it is the test's own;
- :data:`GUARDED`: a charge the helper makes only under a condition the source shows and the scanner cannot follow
  (``if "EXPERTS-401" in rules``), each with its guard.

Each entry must still be met (a stale one fails), so the tables stay the reasons they claim.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from blame_scan import Scanner

from qaconform.contract import load_contract

ROOT = Path(__file__).resolve().parents[1]

STEPS: dict[str, str] = {
    "served": "a list read the test needed was refused to a reader the table lets in, or failed with a 5xx: the "
              "row cannot be judged (test_list_access and test_list_responses judge each row's permission and 5xx)",
    "_body": "the subtree row's read failed with a 5xx: nothing to judge (its list rows judge CONV-NO-SERVER-ERROR)",
    "_envelope": "the read's 5xx or unusable envelope: nothing to judge for the visibility (the list rows judge it)",
    "envelope": "the combination's read is no paged envelope: nothing to judge (test_list_responses judges "
                "PAGING-ENVELOPE on every row)",
    "_created": "the answer the test judges was not created: blocked, as support.expect_created",
    "answer_to_act_on": "the answer the test acts on was not created: blocked, as support.expect_created",
    "action_of": "the action the test reads the record of was refused or answered no record: blocked",
    "read_comment": "the comment the test reads back is not in its author's list: blocked by the rule the caller "
                    "names for seeing it",
    "_effect": "the effect test's call was refused where the table allows it, or answered no record (record_of): "
               "blocked (the permission and ACTION-WRAPPERS rows of the same matrix judge the same call)",
    "_created_rule": "the write the test compares was not created: blocked, as support.expect_created",
    "read_back": "the comment the test reads is not listed to its reader: blocked by the rule the caller names",
}
"""Helper (anywhere on the call trail) -> why the rule it charges is a step the test needed, not its own check."""

GUARDED: dict[tuple[str, str], str] = {
    ("window_count_violation", "PAGING-PAGECOUNT"): "only with pagecount=True; test_envelope_and_paging's walk "
                                                    "passes False (another test names PAGING-PAGECOUNT)",
    ("judge_first", "EXPERTS-401"): "only `if \"EXPERTS-401\" in rules`: the row's own rules, its marks",
    ("rules_for_schema_error", "PAGING-ENVELOPE"): "only for a body holding a list (is_list): no action, answer "
                                                   "or job response, nor a bare array, is one (the list tests are "
                                                   "marked with it)",
    ("rules_for_schema_error", "LIST-ITEM-TYPE"): "only for a body holding a list (is_list), as PAGING-ENVELOPE",
    ("_judge", "COMMENT-7-NO-PRIVATE-PERMISSION"): "the case's refusal rule (comment_refusals.refusal), which its "
                                                   "row is marked with (test_deep_refusals._params)",
    ("_success_rule", "*"): "the rule of the form the run's seed drew for the slot, which its row is marked with "
                            "(test_write_forms.pytest_generate_tests)",
    ("_send_and_judge", "GDPR-DATE-TIMESTAMP"): "only for form timeStamp; the optional-field rows send the "
                                                "formatted date",
    ("judge", "ANSWER-MODERATION"): "the row's answer by a writer without Publish answer was not created: blocked; "
                                    "the form matrix's ANSWER-MODERATION test judges the same shared write",
}
"""(helper on the trail, rule) -> the condition under which it charges the rule, which the source shows."""


def _scanner() -> Scanner:
    files = sorted((ROOT / "suites").rglob("*.py")) + sorted((ROOT / "qaconform" / "pytest").rglob("*.py"))
    return Scanner(ROOT, files, load_contract().rules)


SEED = 20260801
"""The seed the covering arrays are drawn with at collection (the default run's, `qaconform run --seed 20260801`)."""


def _marks(tmp: Path, seed: int = SEED) -> dict[tuple[str, str], set[str]]:
    """(file, test function) -> the rules its collected rows are marked with, all rows together."""
    out = tmp / "rules.json"
    done = subprocess.run([sys.executable, "-m", "pytest", "suites", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-p", "no:randomly", "-p", "qaconform.pytest.rule_map", "--qaconform-rule-map", str(out),
                           "--seed", str(seed)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    marks: dict[tuple[str, str], set[str]] = {}
    for nodeid, rules in json.loads(out.read_text())["tests"].items():
        path, _, qual = nodeid.split("[", 1)[0].partition("::")
        marks.setdefault((path, qual.replace("::", ".")), set()).update(rules)
    return marks


def _excused(trail: str, rule: str, used: set[object]) -> bool:
    hops = [h.split("(", 1)[0] for h in trail.split(" -> ")]
    for hop in hops:
        if hop in STEPS:
            used.add(hop)
            return True
        for key in ((hop, rule), (hop, "*")):
            if key in GUARDED:
                used.add(key)
                return True
    return False


def test_the_scanner_follows_literals_constants_locals_parameters_and_helpers() -> None:
    source = '''
from qaconform.pytest.outcomes import expect, fail
TABLE = {"a": "R-TABLE"}
BOTH = ("R-C1", "R-C2")

def helper(resp, rule):
    expect(resp.ok, rule, "x")

def step(resp):
    fail(["R-STEP-IN"], "y")

def picked(op):
    return TABLE[op]

def test_a(resp):
    rules = []
    rules.append("R-LOCAL")
    fail(rules, "z")
    helper(resp, "R-PARAM")
    fail(BOTH, "w")
    fail([picked("a")], "v")
    expect_created(resp, "R-STEP", "u")
    assert "R-NOT-BLAMED" != resp.text
'''
    known = {"R-LOCAL", "R-PARAM", "R-C1", "R-C2", "R-STEP", "R-STEP-IN", "R-TABLE", "R-NOT-BLAMED"}
    scanner = Scanner(ROOT, [], known)
    scanner.add("m.py", source)
    got = scanner.blame("m.py", "test_a")
    assert set(got.rules) == {"R-LOCAL", "R-PARAM", "R-C1", "R-C2"}, got.rules  # a table's entry is the data's
    assert set(got.steps) == {"R-STEP"}, got.steps
    assert got.rules["R-PARAM"] == "test_a -> helper(rule)"
    assert "R-STEP-IN" not in got.rules  # a function the test never calls


@pytest.mark.slow
def test_every_rule_a_test_can_blame_is_among_its_marks_or_a_step(tmp_path: Path) -> None:
    scanner = _scanner()
    used: set[object] = set()
    found: list[str] = []
    for (path, qual), marks in sorted(_marks(tmp_path).items()):
        if path not in scanner.mods or qual not in scanner.mods[path].funcs:
            found.append(f"{path}::{qual}: not found by the scanner (a test defined in a way it cannot read)")
            continue
        blame = scanner.blame(path, qual)
        for rule, trail in sorted(blame.rules.items()):
            if rule not in marks and not _excused(trail, rule, used):
                found.append(f"{path}::{qual} can fail naming {rule} ({trail}), not among its marks")
    assert not found, (f"{len(found)} blame(s) outside the test's marks: the self-test never runs the test for "
                       "that rule's faults; add the mark (a parametrized matrix: its `also`), or charge the test's "
                       "own rule, or name the step in STEPS / the guard in GUARDED with why:\n  "
                       + "\n  ".join(found))
    stale = (set(STEPS) | {k for k in GUARDED if k[1] != "*"}) - used  # "*": which rule is unmarked is the seed's
    assert not stale, f"entries no test's blame meets any more (remove them): {sorted(map(str, stale))}"
