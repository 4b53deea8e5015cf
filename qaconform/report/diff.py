"""``qaconform diff RUN_A RUN_B``: what changed between two runs, rule by rule (or, for two capacity.json files,
capacity by scenario: qaconform.report.capacity_diff).

How QA compares a release candidate with the last release, or two implementations with each other. Inputs are
report.json files or run folders. Verdicts are compared per rule; observations by shape and value with what differs
between any two runs (ids, timestamps, run tags: ``qaconform.report.volatile``) left out, so two runs of the same
server print "no change". A rule whose one-shot fixture an earlier run consumed (B skipped its tests: the fixture is not
in the state the profile says) is listed as "not checked: fixture consumed", never as a regression, and so are the
observations its tests no longer recorded. Exit 1 when a rule regressed (held in A, failed or errored in B; an expected
failure of B is listed but does not count), 0 otherwise, 2 when an input cannot be read.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from qaconform import exitcodes
from qaconform.report.coverage import shrank, shrank_lines
from qaconform.report.files import read_run_json
from qaconform.report.model import canonical
from qaconform.report.records import ReportRecord, RuleView
from qaconform.report.volatile import normalise
from qaconform.status import Effect, Status
from qaconform.vocabulary import SkipCategory

_ABSENT = ("not covered", "absent")
FIXTURE_NOT_IN_STATE = SkipCategory.FIXTURE_STATE.value
"""The skip category of a rule whose profile fixture the doctor found not in its state (consumed by an earlier run)."""
NOT_THIS_RUN = tuple(c.value for c in SkipCategory if c.this_run_only)
"""Skip categories that say what one run could afford, not what the target does: a rule one run checked and the
other left for its write budget or the target's pace is listed apart ("checked by one run only"), never a change."""
HELD = tuple(s.value for s in Status if s.effect is Effect.HELD)
BROKEN = tuple(s.value for s in Status if s.effect in (Effect.BROKE, Effect.WARN, Effect.KIT))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_a", metavar="RUN_A", help="the baseline: a report.json or a run folder")
    parser.add_argument("run_b", metavar="RUN_B", help="the run to compare with it")
    parser.add_argument("--json", action="store_true", help="print the differences as JSON")
    parser.add_argument("--tolerance", type=float, default=5.0, help="two capacity.json files: the fall in percent "
                        "that is still no regression (default 5)")


def read_report(path: str | Path) -> dict[str, Any]:
    """A report.json as a dict, or RunFileError (a UsageError, and a ValueError) with a message for the user."""
    return read_run_json(path, "report.json", "rules", "pass a report.json or a run folder under reports/",
                         "not a qaconform report.json (no 'rules' list); if it is a results file, build its report "
                         "first with `qaconform report`")


def _observations(report: ReportRecord) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for rid, items in report.observations.items():
        for o in items:
            out.setdefault((rid, str(o.get("test"))), []).append(canonical(normalise(o.get("facts"))))
    return out


GENERATED = "properties/"
"""Where the generated tests live (``suites/properties/``): what they send, and so what they observe, is drawn
from the run's seed."""


def generated_seeds(report: ReportRecord | Mapping[str, Any]) -> set[int]:
    """The seeds the generated tests of a run drew their requests from (each observation of theirs names it)."""
    return {seed for items in ReportRecord.of(report).observations.values() for o in items
            for seed in [(o.get("facts") or {}).get("seed") if isinstance(o.get("facts"), dict) else None]
            if isinstance(seed, int)}


def _drawn_apart(key: tuple[str, str], seeds_a: set[int], seeds_b: set[int]) -> bool:
    """Whether an observation was made by a generated test of two runs that drew with different seeds: which
    requests they sent differs, so what they saw is not the target changing. Same seeds: compared as any other."""
    return GENERATED in key[1] and seeds_a != seeds_b


def compare(report_a: ReportRecord | Mapping[str, Any], report_b: ReportRecord | Mapping[str, Any]) -> dict[str, Any]:
    """The differences between two reports (report.json's content, read here into records), grouped the way QA
    reads them."""
    a, b = ReportRecord.of(report_a), ReportRecord.of(report_b)
    ra, rb = a.rules, b.rules
    regressed, recovered, covered, uncovered, changed, new_failures, consumed = [], [], [], [], [], [], []
    one_run: list[dict[str, Any]] = []
    other_settings: list[dict[str, Any]] = []
    settings = settings_differ(a, b)
    deeper = "; ".join(d for d in settings if d.startswith(("seed", "examples")))
    for rid in sorted(set(ra) | set(rb)):
        sa = ra[rid].status if rid in ra else "absent"
        sb = rb[rid].status if rid in rb else "absent"
        if sa == sb or sa in HELD and sb in HELD:
            continue  # passed <-> observed: the rule held in both (an observation's facts are compared below)
        entry: dict[str, Any] = {"rule": rid, "before": sa, "after": sb}
        if rid in rb:
            fails = rb[rid].failures
            if fails:
                entry["message"] = fails[0].message
                entry["curl"] = fails[0].curl
            if rb[rid].level == "should":
                entry["should"] = True  # a warning, as qaconform run says: it fails a run only with --strict
            if rb[rid].expected_state == "expected failure":
                entry["expected"] = rb[rid].expected_reason
        if sb == Status.SKIPPED.value and rb[rid].skip_category == FIXTURE_NOT_IN_STATE:
            entry["message"] = rb[rid].reason
            consumed.append(entry)
        elif _left_for(ra.get(rid)) or _left_for(rb.get(rid)):
            entry["message"] = _left_for(rb.get(rid)) or _left_for(ra.get(rid))
            one_run.append(entry)
        elif sa in HELD and sb in BROKEN and deeper and _found_by_generated(rb[rid]):
            entry["message"] = (f"found by the generated tests, which ran with other settings ({deeper}): run A "
                                "did not send what found it")
            other_settings.append(entry)
        elif sa in HELD and sb in BROKEN:
            regressed.append(entry)
        elif sa in BROKEN and sb in HELD:
            recovered.append(entry)
        elif sb in BROKEN and sa not in BROKEN:
            new_failures.append(entry)
        elif sa in _ABSENT and sb not in _ABSENT:
            covered.append(entry)
        elif sb in _ABSENT and sa not in _ABSENT:
            uncovered.append(entry)
        else:
            changed.append(entry)
    oa, ob = _observations(a), _observations(b)
    seeds_a, seeds_b = generated_seeds(a), generated_seeds(b)
    not_checked = {e["rule"] for e in consumed}
    one_side = {e["rule"] for e in one_run}
    observations, drawn_apart = [], []
    for key in sorted(set(oa) | set(ob)):
        if key[0] in not_checked and key not in ob:
            continue  # its rule is listed as not checked: the fixture its tests need was consumed
        if key[0] in one_side and (key not in oa or key not in ob):
            continue  # its rule is listed as checked by one run only
        if oa.get(key) != ob.get(key) and _drawn_apart(key, seeds_a, seeds_b):
            drawn_apart.append({"rule": key[0], "test": key[1]})
        elif oa.get(key) != ob.get(key):
            observations.append({"rule": key[0], "test": key[1],
                                 "before": [json.loads(x) for x in oa.get(key, [])],
                                 "after": [json.loads(x) for x in ob.get(key, [])]})
    counting = [r for r in regressed if "expected" not in r and "should" not in r]
    return {
        "a": {"run_id": a.run_id, "target": a.base_url},
        "b": {"run_id": b.run_id, "target": b.base_url},
        "regressed": regressed,
        "recovered": recovered,
        "new_failures": new_failures,
        "newly_covered": covered,
        "uncovered": uncovered,
        "other_changes": changed,
        "not_checked_fixture_consumed": consumed,
        "checked_by_one_run_only": one_run,
        "found_with_other_settings": other_settings,
        "settings_differ": settings,
        "observations_changed": observations,
        "generated_not_compared": {"seeds": [sorted(seeds_a), sorted(seeds_b)], "observations": drawn_apart},
        "coverage_shrank": shrank(a, b),
        "exit_code": exitcodes.RULE_FAILED if counting else exitcodes.OK,
    }


def settings_differ(report_a: ReportRecord | Mapping[str, Any],
                    report_b: ReportRecord | Mapping[str, Any]) -> list[str]:
    """How two runs differ in what decides how deep they looked (report.json ``settings`` and ``selection``):
    "seed 11 -> 22", "examples 12 -> 100", "write budget 100 -> unlimited", "suites: all -> paging"."""
    a, b = ReportRecord.of(report_a), ReportRecord.of(report_b)
    sa, sb = a.settings, b.settings
    out = []
    for key, label in (("seed", "seed"), ("max_examples", "examples per generated test"),
                       ("write_budget", "write budget"), ("strict", "--strict")):
        if key in sa and key in sb and sa[key] != sb[key]:
            out.append(f"{label} {sa[key]} -> {sb[key]}")
    chosen_a, chosen_b = " ".join(a.chosen) or "all", " ".join(b.chosen) or "all"
    if chosen_a != chosen_b:
        out.append(f"suites: {chosen_a} -> {chosen_b}")
    return out


def _found_by_generated(rule: RuleView) -> bool:
    """Whether every failure of ``rule`` came from a generated test (``suites/properties/``)."""
    return bool(rule.failures) and all(GENERATED in f.test for f in rule.failures)


def _left_for(rule: RuleView | None) -> str | None:
    """Why a run left ``rule`` unchecked, when that was its budget or the target's pace (:data:`NOT_THIS_RUN`)."""
    if rule is None or rule.status != Status.SKIPPED.value or rule.skip_category not in NOT_THIS_RUN:
        return None
    return str(rule.reason or rule.skip_category)


def changes_since(baseline: Mapping[str, Any], report: Mapping[str, Any]) -> dict[str, Any]:
    """What report.html shows as "Changed since <baseline>": rule status changes and changed observations."""
    base = ReportRecord.of(baseline)
    d = compare(base, report)
    statuses = [{"rule": e["rule"], "before": e["before"], "after": e["after"]}
                for key in ("regressed", "recovered", "new_failures", "other_changes", "not_checked_fixture_consumed")
                for e in d[key]]
    statuses.sort(key=lambda e: e["rule"])
    return {"run_id": base.run_id, "status_changes": statuses,
            "observations_changed": [{"rule": o["rule"], "test": o["test"],
                                      "change": "new observation" if not o["before"] else "no longer recorded"
                                      if not o["after"] else describe_change(o["before"], o["after"])}
                                     for o in d["observations_changed"]]}


def _flat(value: Any, prefix: str = "") -> dict[str, str]:
    """Dotted paths to leaf values, so two sets of facts can be compared field by field."""
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for k, v in value.items():
            out.update(_flat(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(_flat(v, f"{prefix}[{i}]"))
        return out or {prefix: "[]"}
    return {prefix: canonical(value)}


def describe_change(before: Any, after: Any, limit: int = 6) -> str:
    """Only the facts that differ: ``[0].listCount: 0 -> 1``."""
    a, b = _flat(before), _flat(after)
    changed = [f"{k.lstrip('.')}: {a.get(k, '(absent)')} -> {b.get(k, '(absent)')}"
               for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    text = "; ".join(changed[:limit]) + (f"; ... {len(changed) - limit} more" if len(changed) > limit else "")
    return text[:600] or "(same facts, different order)"


CHANGES = ("regressed", "recovered", "new_failures", "newly_covered", "uncovered", "other_changes",
           "not_checked_fixture_consumed", "observations_changed", "coverage_shrank")
"""What ``compare`` lists as a change: with none of them, the two runs say "no change" (what only one run checked
and the generated tests' observations of two seeds are listed, and are not changes)."""


def format_diff(d: Mapping[str, Any]) -> str:
    lines = [f"A: {d['a']['run_id']} ({d['a']['target']})", f"B: {d['b']['run_id']} ({d['b']['target']})"]
    if d.get("settings_differ"):
        lines.append("the runs differ in: " + "; ".join(d["settings_differ"]) + " (a failure only the deeper run "
                     "could find is listed apart, not as a regression)")
    sections = (("regressed (held in A, broken in B)", "regressed"), ("recovered", "recovered"),
                ("newly failing (not held in A either)", "new_failures"), ("newly covered", "newly_covered"),
                ("no longer covered", "uncovered"), ("other status changes", "other_changes"),
                ("not checked: fixture consumed (its one-shot fixture is not in the state the profile says; renew it "
                 "or give a pool)", "not_checked_fixture_consumed"),
                ("checked by one run only (the other's write budget or the target's pace left it unchecked; not a "
                 "change)", "checked_by_one_run_only"),
                ("found with other settings (not a regression: run A did not send what found it)",
                 "found_with_other_settings"))
    for title, key in sections:
        items = d[key]
        if not items:
            continue
        lines.append(f"{title}: {len(items)}")
        for e in items:
            extra = f"  [expected in B: {e['expected']}]" if e.get("expected") else ""
            extra += "  [should-level: a warning, not counted]" if e.get("should") else ""
            msg = str(e.get("message") or "").strip().splitlines()
            lines.append(f"  {e['rule']}: {e['before']} -> {e['after']}{extra}"
                         + (f"  {textwrap.shorten(msg[0], 100, placeholder=' ...')}" if msg else ""))
            if key == "regressed" and e.get("curl"):
                lines.append(f"    reproduce: {e['curl']}")
    if d["observations_changed"]:
        lines.append(f"observations that changed: {len(d['observations_changed'])}")
        for o in d["observations_changed"]:
            what = ("new observation" if not o["before"] else "no longer recorded" if not o["after"]
                    else describe_change(o["before"], o["after"]))
            lines.append(f"  {o['rule']} ({o['test']}): {what}")
    lines += shrank_lines(d.get("coverage_shrank"))
    apart = d.get("generated_not_compared") or {}
    if apart.get("observations"):
        seeds = " and ".join(",".join(map(str, s)) or "none" for s in apart["seeds"])
        lines.append(f"not compared: {len(apart['observations'])} observation(s) of the generated tests, which drew "
                     f"their requests from other seeds ({seeds}); to compare them, run both with the same --seed")
    if not any(d[key] for key in CHANGES) and not d.get("found_with_other_settings"):
        lines.append("no change (rule verdicts and observations are the same; ids, timestamps, run tags and counts "
                     "the kit's own writes moved aside)")
    lines.append("verdict: " + ("regression" if d["exit_code"] else "no regression"))
    return "\n".join(lines)


def _capacity_diff(args: argparse.Namespace) -> int | None:
    """Two capacity reports (`qaconform capacity`'s capacity.json): capacity per scenario, exit 1 on a fall beyond
    --tolerance. None when either input is not one (then they are compared as conformance reports)."""
    from qaconform.report.capacity_diff import CompareError, compare_capacity, compare_text, read_capacity

    try:
        a, b = read_capacity(args.run_a), read_capacity(args.run_b)
    except CompareError:
        return None
    changes = compare_capacity(a, b, args.tolerance)
    print(json.dumps(changes, indent=1) if args.json else compare_text(changes, args.tolerance))
    return exitcodes.RULE_FAILED if any(c["regressed"] for c in changes) else exitcodes.OK


def main(args: argparse.Namespace) -> int:
    capacity = _capacity_diff(args)
    if capacity is not None:
        return capacity
    a, b = read_report(args.run_a), read_report(args.run_b)  # RunFileError (exit 2) when one is not a report
    d = compare(a, b)
    print(json.dumps(d, indent=1, default=str) if args.json else format_diff(d))
    return int(d["exit_code"])
