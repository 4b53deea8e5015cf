"""Builders of hand-made results files and Locust CSVs for the report tests: one rule per status, a planted password.

The rule catalog here is our own (not spec/rules.yaml) so that these tests pin the report's logic and do not move
when rules are added to the spec.
"""

from __future__ import annotations

import argparse
import base64
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

from qaconform.contract import Rule

PLANTED = "Planted-Pa55word-7f3e"
"""A password planted in an exchange; it must appear in none of the report files."""
PLANTED_B64 = base64.b64encode(f"qa-member:{PLANTED}".encode()).decode()

CATALOG = [
    Rule("PASS-1", "must", "paging", ("listQuestions",), "1.6.3", "pages hold what they say", "Paging"),
    Rule("FAIL-1", "must", "comments", ("postComment",), "2.16.0", "reply inherits visibility", "1. Rules 4"),
    Rule("ERR-1", "must", "contract", ("listSpaces",), "1.6.3", "space list has the envelope", "9."),
    Rule("OBS-1", "observed", "actions", ("lockNode",), "1.6.3", "lock without prompt", "13."),
    Rule("SKIP-1", "must", "actions", ("cancelWiki",), "1.6.3", "cancelwiki returns the action", "11."),
    Rule("SAFE-1", "must", "gdpr", ("scheduleGdprJob",), "1.6.3", "a job is scheduled", "2."),
    Rule("NC-1", "must", "gdpr", ("listUserContent",), "1.6.3", "invalid user id gives 422", "8."),
]


def exchange(status: int = 400, *, planted: bool = False) -> dict[str, Any]:
    """A recorded exchange; with ``planted`` the password appears everywhere a careless kit could leak it."""
    body = '{"body": "qc reply", "visibility": "op"}'
    headers = {"Accept": "application/json", "Content-Type": "application/json", "Authorization": "<redacted>"}
    url = "http://127.0.0.1:9999/services/v2/node/5/comment.json"
    curl = f"curl -sS -i -X POST -u \"$USER:$PASSWORD\" --data-binary '{body}' '{url}'   # as member"
    response = '{"error": "Visibility on comment can\'t be defined since it\'s inherited"}'
    if planted:
        headers["Authorization"] = f"Basic {PLANTED_B64}"
        body = json.dumps({"body": "x", "password": PLANTED})
        url = f"http://qa-member:{PLANTED}@127.0.0.1:9999/services/v2/node/5/comment.json?password={PLANTED}"
        curl = f"curl -sS -u qa-member:{PLANTED} -X POST '{url}'"
        response = json.dumps({"echo": {"user": "qa-member", "password": PLANTED}, "note": f"you sent {PLANTED}"})
    return {
        "role": "member", "method": "POST", "url": url, "status": status, "request_headers": headers,
        "request_body": body, "response_headers": {"content-type": "application/json"}, "response_body": response,
        "elapsed_ms": 3.2, "curl": curl, "operation": "postComment",
    }


def entry(nodeid: str, outcome: str, rules: list[str], **kw: Any) -> dict[str, Any]:
    entry = {"nodeid": nodeid, "when": "call", "outcome": outcome, "rules": rules, "areas": [], "duration": 0.25,
             "message": None, "longrepr": None, "exchanges": [], "observations": [], "created": []}
    entry.update(kw)
    return entry



FAIL_TEST = "suites/scenarios/test_comment_privacy.py::test_reply_with_other_visibility_is_400"


def make_results(*, planted: bool = False, fail: bool = True) -> dict[str, Any]:
    """Results with one rule in every status (FAIL-1 passes instead when ``fail`` is False)."""
    fail_entry = (
        entry(FAIL_TEST, "failed",
                   ["FAIL-1"], message="expected 400, got 201\nReproduce with: curl ...",
                   longrepr="AssertionError: expected 400, got 201", exchanges=[exchange(201, planted=planted)],
                   created=[{"kind": "comment", "id": 77, "by": "member",
                             "test": FAIL_TEST}])
        if fail else
        entry(FAIL_TEST, "passed",
                   ["FAIL-1"], exchanges=[exchange(400)])
    )
    return {
        "run_tag": "qc-test0001",
        "started": "2026-11-22T07:00:00+00:00",
        "finished": "2026-11-22T07:00:12.5+00:00",
        "exitstatus": 1,
        "target": {"name": "unit", "base_url": "http://127.0.0.1:9999", "service_version": "2.16.0",
                   "accounts": {"member": {"username": "qa-member", "id": 3, "password": PLANTED}}},
        "reference": False,
        "versions": {"python": "3.11.7", "pytest": "9.0"},
        "tests": [
            entry("suites/contract/test_paging.py::test_page_size_is_honoured", "passed", ["PASS-1"],
                       areas=["paging"]),
            fail_entry,
            entry("suites/contract/test_spaces.py::test_space_envelope", "error", ["ERR-1"],
                       message="KeyError: 'list'", longrepr="Traceback ...\nKeyError: 'list'",
                       exchanges=[exchange(200)]),
            entry("suites/scenarios/test_lock.py::test_lock_without_prompt", "observed", ["OBS-1"],
                       observations=[{"rule": "OBS-1", "facts": {"status": 400, "has_error_body": True}}]),
            entry("suites/scenarios/test_actions.py::test_cancelwiki_returns_action", "skipped", ["SKIP-1"],
                       when="setup", message="fixture wiki_node_id not in profile", skip_kind="missing fixture",
                       needs_fixtures=["wiki_node_id"]),
            entry("suites/scenarios/test_gdpr.py::test_individual_job_scheduled", "skipped", ["SAFE-1"],
                       when="setup", message="not allowed by safety: the profile has [safety] destructive = false",
                       skip_kind="not allowed by safety"),
        ],
    }


def write_locust_csvs(folder: Path, prefix: str = "mixed", failures: int = 3) -> Path:
    """The three CSVs Locust 2.x writes with ``--csv folder/prefix`` (headers as in locust/stats.py)."""
    folder.mkdir(parents=True, exist_ok=True)
    pct = "50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%"
    (folder / f"{prefix}_stats.csv").write_text(
        "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,"
        f"Max Response Time,Average Content Size,Requests/s,Failures/s,{pct}\n"
        "GET,listQuestions,900,0,4,5.1,1,40,2000,90.0,0.0,4,5,6,6,8,10,14,18,35,40,40\n"
        f"POST,postComment,100,{failures},9,11.2,3,80,300,10.0,0.3,9,11,12,13,18,25,40,60,80,80,80\n"
        f",Aggregated,1000,{failures},4,5.7,1,80,1830,100.0,0.3,4,5,6,7,9,12,18,25,60,80,80\n")
    rows = []
    for i in range(10):
        rows.append(f"{1763794800 + i},10,,Aggregated,{90 + i:.6f},{0.3 if i > 5 else 0:.6f},"
                    f"{4 + i % 2},5,6,7,9,{12 + i},18,{25 + i},60,80,80,{100 * (i + 1)},{failures if i > 5 else 0},"
                    "4,5.7,1,80,1830")
    rows.insert(0, "1763794799,0,,Aggregated,0.000000,0.000000," + "N/A," * 11 + "0,0,0,0,0,0,0")
    (folder / f"{prefix}_stats_history.csv").write_text(
        f"Timestamp,User Count,Type,Name,Requests/s,Failures/s,{pct},Total Request Count,Total Failure Count,"
        "Total Median Response Time,Total Average Response Time,Total Min Response Time,Total Max Response Time,"
        "Total Average Content Size\n" + "\n".join(rows) + "\n")
    (folder / f"{prefix}_failures.csv").write_text(
        "Method,Name,Error,Occurrences,First Seen,Last Seen\n"
        + (f"POST,postComment,\"HTTPError('500 Server Error')\",{failures},1763794806,1763794809\n"
           if failures else ""))
    return folder


def invoke(module: ModuleType, argv: list[str]) -> int:
    """Run one command module (``add_arguments`` + ``main``) in-process without the dispatcher, which imports every
    command (the load command's may pull in locust, which must never load inside a pytest process). An error the
    command stops with is said as the dispatcher says it (``cli.stopped``: message on stderr, its exit code)."""
    from qaconform.commands.cli import COMMANDS, stopped
    from qaconform.errors import KitError

    name = next(n for n, c in COMMANDS.items() if c.module == module.__name__)
    parser = argparse.ArgumentParser(prog=f"qaconform {name}")
    module.add_arguments(parser)
    try:
        return int(module.main(parser.parse_args(argv)))
    except KitError as exc:
        return stopped(name, exc)


def write_summary_json(folder: Path, *, breached: bool = True) -> Path:
    """The load harness's summary.json (shape of qaconform/load: exact percentiles from its histogram, thresholds)."""
    folder.mkdir(parents=True, exist_ok=True)
    ops = {"listQuestions": {"count": 900, "failures": 0, "rps": 90.0, "p50_ms": 5.324, "p95_ms": 10.847,
                             "p99_ms": 18.2, "max_ms": 40.1},
           "postComment": {"count": 100, "failures": 3, "rps": 10.0, "p50_ms": 9.113, "p95_ms": 25.4,
                           "p99_ms": 60.0, "max_ms": 80.2}}
    thresholds = [
        {"name": "listQuestions.p95_ms", "operation": "listQuestions", "metric": "p95_ms", "limit": 500.0,
         "actual": 10.847, "ok": True},
        {"name": "postComment.failure_ratio", "operation": "postComment", "metric": "failure_ratio", "limit": 0.01,
         "actual": 0.03, "ok": not breached},
    ]
    summary = {"scenario": "mixed", "duration_s": 10.0, "users": 10, "rate": None, "workers": 0, "requests": 1000,
               "failures": 3, "rps": 100.0, "operations": ops, "thresholds": thresholds, "lost": [],
               "generator_cpu_warning": False, "verdict": "fail" if breached else "pass",
               "total": {"count": 1000, "failures": 3, "rps": 100.0, "p50_ms": 5.324, "p95_ms": 10.847,
                         "p99_ms": 25.03, "max_ms": 80.2},
               "latency_source": "histogram",
               "checks": {"every_answer": ["status", "Content-Type"],
                          "sampled": {"what": "list answers parsed", "one_in": 16}},
               # what the load processes tallied (check_rules.RuleTally): the failures by the check that raised them
               "failed_rules": {"charged": {"SHAPE-POST-COMMENT": {"postComment": 2}},
                                "uncharged": {"HTTPError": 1},
                                "checks": {"HTTPError": 1, "status_expected": 2}}}
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    return folder


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON: a strict parser (JavaScript's JSON.parse, jq, CI's) refuses it")


def _once_each(items: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in items]
    if len(keys) != len(set(keys)):
        raise ValueError(f"a key given twice in one object: {keys} (a strict parser keeps one of them, silently)")
    return dict(items)


def strict_json(text: str) -> Any:
    """``text`` parsed as CI's parsers read JSON: ``NaN``, ``Infinity`` and ``-Infinity`` are errors, not numbers
    (Python's json module accepts them by default), and so is a key given twice in one object (parsers differ on
    which value they keep)."""
    return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_once_each)


def strict_junit(text: str) -> ET.Element:
    """``text`` parsed by expat, which stops at the first byte that is not well-formed XML 1.0, as GitLab's
    ``reports: junit`` and the JUnit actions do; the root must be <testsuites> holding a <testsuite>."""
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites" and root.find("testsuite") is not None, root.tag
    return root
