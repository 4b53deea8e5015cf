"""junit.xml: one testcase per test, rule ids as properties, failures with their message and curl.

CI systems read JUnit, not our JSON, so what they need to show a failure (the rule, the message, how to
reproduce it) must be inside the XML. Expected failures (``--expect``) are written as skipped with the reason, the
way pytest writes xfail, so that CI does not go red on a known deviation; errors stay ``<error>``, never
``<failure>``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from qaconform.status import Status
from qaconform.target.curl_line import cut_outside_curl

_TEXT_LIMIT = 8000


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 cannot carry at all, not even as a character reference: most C0 controls, lone surrogates
(a body decoded with surrogateescape, a JSON string with a lone \\ud800) and the two non-characters."""


def _clean(text: Any) -> str:
    """Text an XML 1.0 parser accepts: what a hostile target sends (NUL, bell, lone surrogates) shown as ``\\xNN``
    / ``\\uNNNN`` instead; ``&``, ``<`` and quotes are escaped by ElementTree when the tree is written."""
    s = "" if text is None else str(text)
    return cut_outside_curl(_NOT_XML.sub(_shown, s), _TEXT_LIMIT)  # a curl whole or not at all (qa20)


def _shown(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _sub(parent: ET.Element, tag: str, text: Any = None, **attrs: Any) -> ET.Element:
    """A child element whose every attribute and text is clean (:func:`_clean`): nothing of the target's reaches
    the file unfiltered, whichever attribute it ends up in."""
    el = ET.SubElement(parent, tag, {k: _clean(v) for k, v in attrs.items()})
    if text is not None:
        el.text = _clean(text)
    return el


def _split(nodeid: str) -> tuple[str, str]:
    path, _, name = nodeid.partition("::")
    module = path.removesuffix(".py").replace("/", ".")
    if "::" in name:
        cls, _, name = name.rpartition("::")
        module = f"{module}.{cls}"
    return module, name or nodeid


def _failure_text(test: Mapping[str, Any]) -> str:
    lines = [str(test.get("message") or "")]
    curls = [x.get("curl") for x in test.get("exchanges") or [] if isinstance(x, Mapping) and x.get("curl")]
    curls = curls or list(test.get("curls") or [])
    if curls:
        lines.append("")
        lines.append("Reproduce with:")
        lines.extend(f"  {c}" for c in curls[-3:])
    rerun = test.get("rerun") or {}
    if rerun.get("test"):
        lines += ["", "Rerun this test alone:", f"  {rerun['test']}"]
    if test.get("longrepr"):
        lines += ["", str(test["longrepr"])]
    return "\n".join(lines)


def _testcase(suite: ET.Element, t: Mapping[str, Any], expected: Mapping[str, Mapping[str, Any]],
              warnings: frozenset[str] = frozenset()) -> str | None:
    """One test's testcase element: rules, areas and observations as properties, and the element its status
    gives (failure, error, skipped; an expected failure is skipped, and so is a warning: a failure of should-rules
    only, on a run they do not fail). Returns the count it adds to, if any."""
    classname, name = _split(str(t["nodeid"]))
    case = _sub(suite, "testcase", classname=classname, name=name, time=f"{float(t.get('duration') or 0):.3f}")
    cprops = _sub(case, "properties")
    for rid in t.get("rules") or []:
        _sub(cprops, "property", name="rule", value=rid)
    for area in t.get("areas") or []:
        _sub(cprops, "property", name="area", value=area)
    for o in t.get("observations") or []:
        if isinstance(o, Mapping):
            _sub(cprops, "property", name="observation", value=f"{o.get('rule')}: {o.get('facts')}")
    outcome = t.get("outcome")
    status = Status.of(outcome)
    element = status.junit if status is not None else "error"
    msg = str(t.get("message")).splitlines()[0] if t.get("message") else outcome
    if status is Status.WARNING:
        element = "failure"  # written below as a warning: skipped, with the whole failure in its output
        warnings = warnings | frozenset(t.get("failed_rules") or t.get("rules") or [])
    if element == "failure":
        rules = t.get("failed_rules") or t.get("rules") or []
        if rules and all((expected.get(r) or {}).get("state") == "expected failure" for r in rules):
            why = "; ".join(f"{r}: {expected[r]['reason']}" + (f" ({expected[r]['link']})" if expected[r].get("link")
                                                              else "") for r in rules)
            _sub(case, "skipped", _failure_text(t), type="qaconform.expected_failure",
                 message=f"expected failure: {why}")
            return "skipped"
        if rules and all(r in warnings for r in rules):
            # GitLab's and GitHub's test reports show a <failure> red on a build that exited 0; a warning is
            # neither passed nor failed there: skipped, with the whole failure in the test's output
            _sub(case, "skipped", type="qaconform.warning",
                 message=f"warning ({', '.join(rules)}: a should-rule; fails the run only with --strict): {msg}")
            _sub(case, "system-out", _failure_text(t))
            return "skipped"
        _sub(case, "failure", _failure_text(t), type="qaconform.rule_failed", message=msg)
        return "failures"
    if element == "error":
        _sub(case, "error", _failure_text(t), type="qaconform.kit_error", message=msg)
        return "errors"
    if element == "skipped":
        kind = "pytest.skip" if status is Status.SKIPPED else f"qaconform.{status}"
        # the reason is the message CI compares from build to build; what varies (a list's size, an id drawn at
        # random) is the element's text
        _sub(case, "skipped", t.get("skip_detail") or None, type=kind, message=msg)
        return "skipped"
    return None


def build_junit(report: Mapping[str, Any]) -> str:
    """The XML text for a report.json-shaped dict (its ``tests`` and ``rules``)."""
    expected = {r["id"]: r["expected"] for r in report.get("rules", []) if r.get("expected")}
    warnings = frozenset((report.get("summary") or {}).get("warning_rules") or ())
    tests = report.get("tests") or []
    suite = ET.Element("testsuite", name="qaconform", tests=str(len(tests)))
    counts = {"failures": 0, "errors": 0, "skipped": 0}
    total = 0.0
    props = _sub(suite, "properties")
    for k, v in (("run_id", report.get("run_id")), ("base_url", (report.get("target") or {}).get("base_url")),
                 ("verdict", report.get("verdict"))):
        if v is not None:
            _sub(props, "property", name=k, value=v)
    for t in tests:
        total += float(t.get("duration") or 0)
        counted = _testcase(suite, t, expected, warnings)
        if counted is not None:
            counts[counted] += 1
    # qa21: the run's own duration, as pytest's junitxml writes it; the tests' durations add up to more than the
    # run took when workers ran them side by side (a 415 s CI build's suite said 852 s)
    if isinstance(report.get("duration_s"), int | float):
        total = float(report["duration_s"])
    suite.set("time", f"{total:.3f}")
    if report.get("started"):
        suite.set("timestamp", str(report["started"]))
    for k, v in counts.items():
        suite.set(k, str(v))
    root = ET.Element("testsuites", {"name": "qaconform", "tests": str(len(tests)), "time": f"{total:.3f}",
                                     **{k: str(v) for k, v in counts.items()}})
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
