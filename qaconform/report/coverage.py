"""What a run covered of the interface, from what was actually sent and received (coverage.json).

Not from test names: the exchanges every process of the run logged (``qaconform.pytest.exchange_log``) are matched
to the 19 operations of spec/openapi.yaml by method and path, and tallied per operation and account: requests,
statuses, the query parameters and body fields sent, each form counted apart (``recipients`` as an integer or as a
numeric string, a user by id, email or name, a field in the body or as a query parameter). A test that reached a
verdict (passed, failed, observed) checked its must-rules at the operations and accounts its exchanges touched.
What the description states that no request exercised (an operation an account never called, a parameter or a body
field never sent) is listed with why, read from the run's selection and its tests' skips, never guessed from names.

Two steps, because the rule statuses are the report's: :func:`interface_map` (the runner, from the exchanges and
the results) and :func:`rules_checked` (the report model, from its rule entries): how many must-rules the run checked
of all of them, the share ``--fail-under`` compares.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import yaml

from qaconform.report.records import ReportRecord

FORMAT = "qaconform-coverage/1"
ACCOUNTS = ("admin", "moderator", "member", "novice", "anonymous")
"""The accounts of the permission table (docs/profile.md "The roles"): the matrix's columns."""
VERDICTS = frozenset({"passed", "failed", "observed"})
"""Test outcomes that judged their rules (blocked, skipped and error did not)."""
INTERFACE_KEYS = ("accounts", "other_callers", "exchanges", "outside_operations", "operations", "unexercised")
"""What :func:`interface_map` gives, as coverage.json holds it at its top level."""
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")


@dataclass(frozen=True)
class Shape:
    """An operation as a request shows it: method, a pattern of its path, and the names the description states
    for it (query parameters and body fields), each with where it goes."""

    operation_id: str
    method: str
    pattern: re.Pattern[str]
    stated: Mapping[str, str]
    write: bool


def shapes(contract: Any) -> list[Shape]:
    """The 19 operations as :class:`Shape`s, the most literal paths first (``/user/retrieveAllExperts.json`` before
    ``/user/{userId}/...``); op 19's tracker segment matches any one segment."""
    openapi = getattr(contract, "openapi", None)  # parsed once by the contract: PyYAML again was 0.1-0.2 s a run
    if not isinstance(openapi, Mapping):
        openapi = yaml.safe_load(Path(contract.openapi_path).read_text(encoding="utf-8"))
    out = []
    for op in contract.operations.values():
        stated = {p.name: p.location for p in op.parameters if p.location == "query"}
        for name in _body_fields(contract, openapi, op):
            stated.setdefault(name, "body")
        regex = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(op.api_path))
        if op.api_path.startswith("/tracker/"):
            regex = "/[^/]+" + re.escape(op.api_path[len("/tracker"):])
        out.append(Shape(op.operation_id, op.method.upper(), re.compile(regex + "$"), stated,
                         op.method.upper() not in ("GET", "HEAD")))
    return sorted(out, key=lambda s: -len(re.sub(r"\[\^/\]\+", "", s.pattern.pattern)))


def _body_fields(contract: Any, openapi: Mapping[str, Any], op: Any) -> list[str]:
    """The top-level properties of an operation's JSON request body schema (spec/schemas), or none."""
    for item in (openapi.get("paths") or {}).values():
        for body in (item or {}).values():
            if not isinstance(body, Mapping) or body.get("operationId") != op.operation_id:
                continue
            content = ((body.get("requestBody") or {}).get("content") or {})
            ref = ((content.get("application/json") or {}).get("schema") or {}).get("$ref")
            if ref:
                schema = contract.schema(str(ref).rsplit("/", 1)[-1])
                return list((schema.get("properties") or {}).keys())
    return []


def match(ops: Iterable[Shape], method: str, url: str) -> Shape | None:
    """The operation a request called, by method and path (None: a request outside the 19 operations)."""
    return _match_path(ops, method, urlsplit(url).path)


def _match_path(ops: Iterable[Shape], method: str, path: str) -> Shape | None:
    for s in ops:
        if s.method == method.upper() and s.pattern.search(path):
            return s
    return None


def value_form(value: Any) -> str:
    """How a value was sent, so that each stated form counts apart: integer, numeric string, email, string ..."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if value is None:
        return "null"
    if isinstance(value, list):
        forms = sorted({value_form(v) for v in value})
        return "array of " + "/".join(forms) if forms else "empty array"
    if isinstance(value, dict):  # a recipient {"id": 5} and {"id": "5"} are two forms
        return "object{" + ", ".join(f"{k}: {value_form(v)}" for k, v in sorted(value.items())[:6]) + "}"
    text = str(value)
    if re.fullmatch(r"-?\d+", text):
        return "numeric string"
    if _EMAIL.match(text):
        return "email"
    if text in ("true", "false"):
        return "boolean string"
    return "string"


def sent_fields(ex: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(name, form) of every query parameter and top-level body field of one exchange; a form names where it went
    (``query: numeric string``, ``body: integer``)."""
    for name, value in parse_qsl(urlsplit(str(ex.get("url") or "")).query, keep_blank_values=True):
        yield name, f"query: {value_form(value)}"
    body = ex.get("request_body")
    if not body:
        return
    ctype = next((str(v) for k, v in (ex.get("request_headers") or {}).items() if k.lower() == "content-type"), "")
    try:
        data = json.loads(body)
    except ValueError:
        if "form" in ctype:
            for name, value in parse_qsl(str(body), keep_blank_values=True):
                yield name, f"form: {value_form(value)}"
        return
    if isinstance(data, dict):
        for name, value in data.items():
            yield str(name), f"body: {value_form(value)}"


@dataclass
class _Cell:
    requests: int = 0
    statuses: Counter[str] | None = None
    fields: dict[str, Counter[str]] | None = None
    tests: set[str] | None = None

    def add(self, ex: Mapping[str, Any], fields: Iterable[tuple[str, str]] | None = None) -> None:
        """Count one exchange; ``fields``: its :func:`sent_fields`, when the caller has them already. A ``shared``
        line (an answer read once and judged by another test too, qaconform.pytest.exchange_log) adds its test
        only: it was sent once, and counted then."""
        self.statuses = self.statuses if self.statuses is not None else Counter()
        self.fields = self.fields if self.fields is not None else {}
        self.tests = self.tests if self.tests is not None else set()
        if ex.get("shared"):
            if ex.get("test"):
                self.tests.add(str(ex["test"]))
            return
        self.requests += 1
        self.statuses[str(ex.get("status")) if ex.get("status") is not None else "no answer"] += 1
        for name, form in sent_fields(ex) if fields is None else fields:
            self.fields.setdefault(name, Counter())[form] += 1
        if ex.get("test"):
            self.tests.add(str(ex["test"]))


def interface_map(exchanges: Iterable[Mapping[str, Any]], tests: Iterable[Mapping[str, Any]], contract: Any,
                  *, read_only: bool = False, only: Iterable[str] = ()) -> dict[str, Any]:
    """The operations x accounts map of a run (coverage.json's ``operations``, ``callers``, ``unexercised``).

    ``tests``: the results file's tests (outcome, rules, skip kind) — which tests judged which must-rules, and why a
    part of the interface went unexercised."""
    ops = shapes(contract)
    rules = contract.rules
    must_of: dict[str, set[str]] = {s.operation_id: set() for s in ops}
    for r in rules.values():
        if r.level == "must":
            for op in r.operations:
                must_of.setdefault(op, set()).add(r.id)
    results = {str(t.get("nodeid")): t for t in tests}
    cells: dict[tuple[str, str], _Cell] = {}
    outside = Counter[str]()
    total = 0
    # a run repeats its requests' methods and paths, and their query strings: each is matched and read once
    matched: dict[tuple[str, str], Shape | None] = {}
    queried: dict[str, tuple[tuple[str, str], ...]] = {}
    for ex in exchanges:
        total += 0 if ex.get("shared") else 1  # a shared line was sent once, and counted then
        method, url = str(ex.get("method") or ""), str(ex.get("url") or "")
        parts = urlsplit(url)
        key = (method, parts.path)
        if key not in matched:
            matched[key] = _match_path(ops, method, parts.path)
        shape = matched[key]
        if shape is None:
            if not ex.get("shared"):
                outside[f"{ex.get('method')} {parts.path}"] += 1
            continue
        fields = None
        if not ex.get("request_body"):  # the query alone: the same query string gives the same fields
            if parts.query not in queried:
                queried[parts.query] = tuple(sent_fields({"url": url}))
            fields = queried[parts.query]
        cells.setdefault((shape.operation_id, str(ex.get("role") or "anonymous")), _Cell()).add(ex, fields)
    operations = []
    callers = sorted({role for _, role in cells} - set(ACCOUNTS))
    for s in sorted(ops, key=lambda s: list(contract.operations).index(s.operation_id)):
        by_account = {}
        for role in (*ACCOUNTS, *callers):
            cell = cells.get((s.operation_id, role))
            by_account[role] = _cell_json(cell, must_of[s.operation_id], results)
        sent = {n for role in by_account for n in by_account[role]["fields"]}
        operations.append({
            "operation": s.operation_id,
            "method": s.method,
            "path": contract.operations[s.operation_id].api_path,
            "must_rules": sorted(must_of[s.operation_id]),
            "stated": dict(s.stated),
            "accounts": by_account,
            "requests": sum(a["requests"] for a in by_account.values()),
            "must_checked": sorted({r for a in by_account.values() for r in a["must_checked"]}),
            "fields_not_sent": sorted(set(s.stated) - sent),
        })
    gaps = _unexercised(operations, ops, rules, list(results.values()), read_only, list(only))
    return {
        "accounts": list(ACCOUNTS),
        "other_callers": callers,
        "exchanges": total,
        "outside_operations": dict(outside.most_common(20)),
        "operations": operations,
        "unexercised": gaps,
    }


def _cell_json(cell: _Cell | None, must: set[str], results: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    if cell is None:
        return {"requests": 0, "statuses": {}, "fields": {}, "tests": 0, "must_checked": []}
    checked = set()
    for nodeid in cell.tests or ():
        t = results.get(nodeid)
        if t is not None and (t.get("outcome") in VERDICTS or t.get("warning")):
            checked |= must & set(t.get("rules") or [])
    return {
        "requests": cell.requests,
        "statuses": dict(sorted((cell.statuses or Counter()).items())),
        "fields": {n: dict(sorted(f.items())) for n, f in sorted((cell.fields or {}).items())},
        "tests": len(cell.tests or ()),
        "must_checked": sorted(checked),
    }


def _unexercised(operations: list[dict[str, Any]], ops: list[Shape], rules: Mapping[str, Any],
                 tests: list[Mapping[str, Any]], read_only: bool, only: list[str]) -> list[dict[str, Any]]:
    """Every (operation, account) never called and every stated parameter or field never sent, with why."""
    write = {s.operation_id: s.write for s in ops}
    touched = _tests_by_operation(rules, tests)
    out = []
    for op in operations:
        why = _why(op["operation"], write[op["operation"]], rules, tests, read_only, only, touched)
        for role in ACCOUNTS:
            if not op["accounts"][role]["requests"]:
                out.append({"operation": op["operation"], "account": role, "why": why})
        for name in op["fields_not_sent"]:
            out.append({"operation": op["operation"], "field": name, "in": op["stated"][name],
                        "why": why if op["requests"] == 0 else "no test sends it"})
    return out


def _tests_by_operation(rules: Mapping[str, Any], tests: list[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Operation id -> the tests (in their order) with a rule at that operation: one pass over the tests instead of
    one per operation (19 x 1,500 tests x their rules was a tenth of a second)."""
    out: dict[str, list[Mapping[str, Any]]] = {}
    for t in tests:
        ops: dict[str, None] = {}
        for r in t.get("rules") or []:
            ops.update(dict.fromkeys(getattr(rules.get(r), "operations", ())))
        for op in ops:
            out.setdefault(op, []).append(t)
    return out


def _why(op_id: str, write: bool, rules: Mapping[str, Any], tests: list[Mapping[str, Any]], read_only: bool,
         only: list[str], touched: Mapping[str, list[Mapping[str, Any]]] | None = None) -> str:
    """Why a part of an operation went unexercised, from the run: its selection, then its tests' skips.
    ``touched``: :func:`_tests_by_operation` of the same rules and tests, when the caller has it."""
    if write and read_only:
        return "--read-only"
    if touched is not None:
        mine = touched.get(op_id, [])
    else:
        mine = [t for t in tests
                if any(op_id in getattr(rules.get(r), "operations", ()) for r in t.get("rules") or [])]
    if only and not mine:
        return f"not selected by --only {' '.join(only)}"
    kinds = Counter(str(t.get("skip_kind")) for t in mine if t.get("outcome") == "skipped" and t.get("skip_kind"))
    fixtures = sorted({f for t in mine for f in t.get("needs_fixtures") or []})
    if kinds:
        kind = kinds.most_common(1)[0][0]
        return {"missing fixture": "fixture missing" + (f" ({', '.join(fixtures)})" if fixtures else ""),
                "fixture not in its state": "fixture not in its state",
                "not allowed by safety": "safety (--read-only or [safety])",
                "write refused": "--read-only",
                "write budget spent": "write budget spent"}.get(kind, kind)
    return "no test sends it"


def rules_checked(rules: Iterable[Mapping[str, Any]], interface: Mapping[str, Any] | None,
                  whys: Mapping[str, str] | None = None, tests: Iterable[Any] = (),
                  stopped: Mapping[str, Any] | None = None, selection: str | None = None) -> dict[str, Any]:
    """The run's coverage as the report holds it: the interface map, and the must-rules checked (a must-rule is
    checked when its status is a verdict: passed or failed) of all must-rules, with why for each not checked:
    ``whys`` (rule id -> a reason short enough to group by, which :mod:`qaconform.report.model` makes with the
    rule's status), else the rule's skip category or status. Never read out of a reason's wording. ``tests`` (the
    run's results) and ``stopped`` (why it stopped early, if it did) give the crossing what the run reached;
    ``selection``: what --only selected (the crossing then counts only the must-rules it ran)."""
    whys = whys or {}
    must = [r for r in rules if r.get("level") == "must"]
    checked = [r["id"] for r in must if r.get("status") in ("passed", "failed")]
    share = round(100.0 * len(checked) / len(must), 1) if must else 100.0
    unchecked = [{"rule": r["id"], "status": r.get("status"), "operations": list(r.get("operations") or []),
                  "why": whys.get(r["id"]) or str(r.get("skip_category") or r.get("status"))}
                 for r in must if r["id"] not in checked]
    inter = {k: v for k, v in (interface or {}).items() if k in INTERFACE_KEYS}
    ops = inter.get("operations") or []
    cells = [(o["operation"], a) for o in ops for a in ACCOUNTS]
    exercised = [(o["operation"], a) for o in ops for a in ACCOUNTS if o["accounts"][a]["requests"]]
    return {
        "format": FORMAT,
        "summary": {
            "must_rules": len(must),
            "must_checked": len(checked),
            "share": share,
            "operations": len(ops),
            "operations_exercised": sum(1 for o in ops if o["requests"]),
            "cells": len(cells),
            "cells_exercised": len(exercised),
            "requests": sum(o["requests"] for o in ops),
            "fields_not_sent": sum(len(o["fields_not_sent"]) for o in ops),
        },
        "must_rules_not_checked": unchecked,
        "crossing": _crossing(must, tests, stopped, selection),
        **inter,
    }


def _crossing(must: list[Mapping[str, Any]], tests: Iterable[Any] = (),
              stopped: Mapping[str, Any] | None = None, selection: str | None = None) -> dict[str, Any]:
    """How far the must-rules are crossed with the dimensions their operations admit (qaconform.report.crossing),
    and the cells the run judged (qaconform.report.run_cells). A run that stopped early gets no figure: spec/'s
    would say what a whole run crosses; only what it reached is kept (crossing10, issue 44)."""
    from qaconform.kit import spec_dir
    from qaconform.report.crossing import PLAN, PLAN_EXCLUDED, RUN, RUN_CELLS, crossing, load_spec, not_counted
    from qaconform.report.run_cells import run_cells
    from qaconform.report.run_crossing import run_crossing

    tests = list(tests)
    cells = run_cells(tests)
    if stopped and stopped.get("reason"):
        return not_counted(str(stopped["reason"]), cells)
    ran = {str(r) for t in tests for r in (t.get("rules") if isinstance(t, Mapping) else t.rules) or ()}
    if selection:  # --only: the figure counts the must-rules the run selected (crossing11)
        must = [r for r in must if r.get("id") in ran]
    try:
        out = crossing(spec_dir(), must)
        if out.get(PLAN) is not None:
            values = (load_spec(spec_dir()) or {}).get("dimensions") or {}
            out[RUN] = run_crossing(out.pop(PLAN), values, tests, int(out["must_rules_with_dimensions"]),
                                    ran if selection else None, selection or "", out.pop(PLAN_EXCLUDED, None))
    except (OSError, ValueError, TypeError, AttributeError):  # a spec folder without dimensions.yaml, or an old one
        out = {}
    return {**out, RUN_CELLS: cells} if cells else out


def checked_text(cov: Mapping[str, Any]) -> str:
    """"checked N of M must-rules (P%)": what every verdict line of a run says."""
    s = cov.get("summary") or {}
    return f"checked {s.get('must_checked', 0)} of {s.get('must_rules', 0)} must-rules ({s.get('share', 0):g}%)"


def terminal_lines(cov: Mapping[str, Any] | None) -> list[str]:
    """The run's summary on coverage: what was called, and why must-rules went unchecked (when some did)."""
    if not cov or not cov.get("summary"):
        return []
    s = cov["summary"]
    why = Counter(str(u.get("why")).removeprefix("not checked: ").strip()
                  for u in cov.get("must_rules_not_checked") or [])
    shown = why.most_common(4)
    reasons = ", ".join(f"{n} {w}" for w, n in shown)
    rest = sum(why.values()) - sum(n for _, n in shown)
    if rest:  # the counts must add up to M - N of "checked N of M": name where the rest are listed
        reasons += f", {rest} for {len(why) - len(shown)} other reason(s) (coverage.json: must_rules_not_checked)"
    first = (f"interface coverage: {s['operations_exercised']} of {s['operations']} operations, "
             f"{s['cells_exercised']} of {s['cells']} operation x account cells called ({s['requests']} requests); "
             f"{s['fields_not_sent']} stated parameters/fields never sent (coverage.json)")
    from qaconform.report.crossing import crossing_line

    crossed = [line for line in [crossing_line(cov.get("crossing"))] if line]
    # the verdict line below always says "checked N of M"; this line adds why the rest were not checked
    return [first, *crossed, f"{checked_text(cov)}; not checked: {reasons}"] if reasons else [first, *crossed]


def fail_under(cov: Mapping[str, Any] | None, pct: float | None, source: str = "--fail-under") -> str | None:
    """The one line that fails a run checking a smaller share of must-rules than ``pct``, else None; ``source``
    names where the threshold came from (the option, QACONFORM_FAIL_UNDER, the profile's fail_under)."""
    if pct is None or not cov or not cov.get("summary"):
        return None
    share = float(cov["summary"].get("share", 0.0))
    if share + 1e-9 >= pct:
        return None
    return f"{checked_text(cov)}, under {source} {pct:g}%"


def shrank(a: ReportRecord | Mapping[str, Any], b: ReportRecord | Mapping[str, Any]) -> dict[str, Any] | None:
    """What run B covered less than run A (``qaconform diff``): must-rules no longer checked, operation x account
    cells no longer called; None when nothing shrank. Parameters and fields are left out: the generated tests draw
    them anew with every seed, so two runs of one server would differ there without any change."""
    ra, rb = ReportRecord.of(a), ReportRecord.of(b)
    ca, cb = ra.checked_must_rules(), rb.checked_must_rules()
    both = ra.has_operations and rb.has_operations
    out = {
        "must_checked": [len(ca), len(cb)],
        "rules_no_longer_checked": sorted(ca - cb),
        "cells_no_longer_called": sorted(ra.called - rb.called) if both else [],
    }
    if not (out["rules_no_longer_checked"] or out["cells_no_longer_called"]):
        return None
    return out


def shrank_lines(d: Mapping[str, Any] | None) -> list[str]:
    """``qaconform diff``'s lines on coverage that shrank from A to B."""
    if not d:
        return []
    a, b = d["must_checked"]
    out = [f"coverage shrank: checked {a} -> {b} must-rules"]
    for key, title in (("rules_no_longer_checked", "must-rules no longer checked"),
                       ("cells_no_longer_called", "operation x account no longer called")):
        items = d.get(key) or []
        if items:
            out.append(f"  {title} ({len(items)}): {', '.join(items[:12])}" + (" ..." if len(items) > 12 else ""))
    return out
