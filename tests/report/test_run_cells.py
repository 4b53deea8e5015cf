"""The crossing cells a run judged, counted from its recorded results (crossing10, issue 44 item 1): the found
relations, the shared writes' drawn forms (by seed, never as crossed in one run), rule 7 in every form and the list
rows; a run that did not end gets no crossing figure, only what it judged. Built from a small results file as
`qaconform run` writes it, and read back from coverage.json strictly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from report_builders import strict_json

from qaconform.contract import load_contract
from qaconform.report.coverage import terminal_lines
from qaconform.report.crossing import crossing_line
from qaconform.report.model import build_report
from qaconform.report.run_cells import run_cells

FORMS = ["json", "query", "form", "param_wins"]
PRIVATE = ["json", "query", "param_wins"]


def _t(nodeid: str, outcome: str, family: str, **values: Any) -> dict[str, Any]:
    return {"nodeid": nodeid, "outcome": outcome, "when": "call", "rules": ["PERM-LOCK"],
            "cell": {"family": family, **values}}


def _results(stopped: dict[str, str] | None = None) -> dict[str, Any]:
    found = dict(action="lockNode", role="novice", kind="answer")
    return {"stopped": stopped, "tests": [
        _t("f.py::t[a]", "passed", "found_relations", relation="author", **found),
        _t("f.py::t[b]", "failed", "found_relations", relation="none", **found),
        _t("f.py::t[c]", "skipped", "found_relations", relation="parent_author", **found),
        # one test, two phases: its call passed, its teardown broke: an error, as the report merges it
        _t("f.py::t[d]", "passed", "found_relations", relation="question_author", **found),
        {**_t("f.py::t[d]", "error", "found_relations", relation="question_author", **found), "when": "teardown"},
        _t("w.py::s[1]", "passed", "write_forms", operation="postAnswer", slot="a1", form="json", forms=FORMS),
        _t("w.py::s[2]", "passed", "write_forms", operation="postAnswer", slot="a2", form="query", forms=FORMS),
        _t("w.py::s[3]", "skipped", "write_forms", operation="postComment", slot="c1", form="form", forms=FORMS),
        _t("w.py::s[4]", "observed", "write_forms", operation="postComment", slot="p1", form="json", forms=PRIVATE),
        _t("w.py::r[1]", "passed", "form_refusals", rule="COMMENT-7-NO-PRIVATE-PERMISSION", form="json",
           parent="question"),
        _t("w.py::r[2]", "blocked", "form_refusals", rule="COMMENT-7-NO-OPTION-PERMISSION", form="query",
           parent="answer"),
        _t("l.py::row[1]", "passed", "list_rows", list="listSpaces", reader="admin", form="accept_json", owner=None,
           values={"paging": "page=2", "sort": "none"}),
        _t("l.py::row[2]", "skipped", "list_rows", list="listSpaces", reader="novice", form="accept_json", owner=None,
           values={"paging": "page=3&pageSize=1", "sort": "none"}),
        {"nodeid": "x.py::plain", "outcome": "passed", "rules": ["PERM-LOCK"]},  # no cell: counted nowhere
    ]}



def test_each_family_counts_only_the_cells_a_verdict_judged() -> None:
    cells = run_cells(_results()["tests"])
    assert cells["found_relations"] == {"cells": 4, "judged": 2}  # a skip is no verdict; two phases are one test
    assert cells["form_refusals"] == {"cells": 2, "judged": 1}  # blocked judged nothing
    forms = cells["write_forms"]
    assert (forms["cells"], forms["judged"], forms["by_seed"]) == (4, 3, 4)
    assert forms["operations"] == {"postAnswer": {"forms": sorted(FORMS), "judged": ["json", "query"]},
                                   "postComment": {"forms": sorted(FORMS), "judged": ["json"]}}
    rows = cells["list_rows"]
    # (list, dimension, value): paging page=2 and page=3&pageSize=1, sort none, reader admin and novice, form
    assert (rows["cells"], rows["judged"], rows["values"], rows["values_judged"], rows["lists"]) == (2, 1, 6, 4, 1)
    assert run_cells([{"nodeid": "x", "outcome": "passed"}]) == {}


def test_the_figure_says_what_the_run_judged_and_coverage_json_holds_it_strictly(tmp_path: Path) -> None:
    report = build_report(_results(), load_contract().rules.values())
    path = tmp_path / "coverage.json"
    path.write_text(json.dumps(report["coverage"], allow_nan=False), encoding="utf-8")
    crossing = strict_json(path.read_text(encoding="utf-8"))["crossing"]
    assert crossing["must_rules_with_dimensions"] >= 1, "the spec's figure is there for a run that ended"
    assert "not_counted" not in crossing
    assert crossing["run_cells"] == strict_json(json.dumps(run_cells(_results()["tests"])))
    line = crossing_line(crossing)
    assert "found relations: 2 of 4 refused (action, role, relation, kind) cells judged" in line
    assert "2 not judged (skipped, blocked or not reached: coverage.json crossing.run_cells)" in line
    assert ("write forms: 3 of 4 shared writes judged in their drawn form (this run: postAnswer 2 of 4 forms, "
            "postComment 1 of 4; by seed: each write takes every form it may over at most 4 runs with consecutive "
            "seeds)") in line
    assert "rule 7 refused in 1 of 2 (form, parent kind) cells" in line
    assert "list rows: 1 of 2 judged, 4 of 6 (list, parameter, value) pairs read on a judged row" in line


def test_a_run_that_did_not_end_gets_no_figure_only_what_it_judged(tmp_path: Path) -> None:
    stopped = {"reason": "interrupted", "message": "the run was interrupted (Ctrl-C, or a collection error)"}
    report = build_report(_results(stopped), [{"id": "PERM-LOCK", "level": "must"}])
    crossing = strict_json(json.dumps(report["coverage"], allow_nan=False))["crossing"]
    assert set(crossing) == {"not_counted", "stopped", "run_cells"}, "no figure of spec/ for a run that did not end"
    assert crossing["stopped"] == "interrupted"
    line = crossing_line(crossing)
    assert line.startswith("crossing: not counted, the run did not end (interrupted); judged before it stopped: "
                           "found relations: 2 of 4 "), line
    assert "must-rules crossed" not in line and "node actions" not in line
    nothing = build_report({"stopped": stopped, "tests": []}, [{"id": "PERM-LOCK", "level": "must"}])
    assert crossing_line(nothing["coverage"]["crossing"]) == \
        "crossing: not counted, the run did not end (interrupted) (coverage.json: crossing)"
    cov = {**report["coverage"], "summary": {"operations_exercised": 0, "operations": 19, "cells_exercised": 0,
                                             "cells": 95, "requests": 0, "fields_not_sent": 0}}
    assert any(t.startswith("crossing: not counted") for t in terminal_lines(cov))
