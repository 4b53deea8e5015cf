"""Run folders and the three report files.

A run folder is ``<parent>/<UTC timestamp>-<random>``: sortable by time, unique even when two runs start in the
same second (CI matrix jobs), and never reused, so an earlier report is never overwritten.

The renderers and the report model are imported where the files are written, not at the top: `qaconform run` makes
its run folder before the suites and writes the report after them (issue 31: a sixth of a second of its start).
"""

from __future__ import annotations

import json
import secrets as _secrets
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from qaconform.report.expect import Expectation

RESULTS_NAME = "results.json"
"""The pytest plugin's results file inside a run folder."""
RUN_META_NAME = "run.json"
"""What the runner knew beyond the results (selection, load status, kit errors), so `qaconform report` can rebuild."""
COVERAGE_NAME = "coverage.json"
"""What the run covered (qaconform.report.coverage) and every collected test's rule ids
(qaconform.report.coverage_plugin), to tell "not selected" from "not covered"."""
_ATTEMPTS = 20


def read_coverage(folder: Path) -> dict[str, Any] | None:
    """The coverage file of a run folder, or None when the run did not write one (or it is unreadable)."""
    try:
        data = json.loads((folder / COVERAGE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    return data if isinstance(data.get("rules"), dict) or isinstance(data.get("operations"), list) else None


def new_run_id(now: datetime | None = None) -> str:
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{_secrets.token_hex(3)}"


def new_run_dir(parent: str | Path) -> Path:
    """Create and return a fresh run folder under ``parent``; an existing folder is never reused."""
    base = Path(parent)
    base.mkdir(parents=True, exist_ok=True)
    for _ in range(_ATTEMPTS):
        d = base / new_run_id()
        try:
            d.mkdir()
        except FileExistsError:
            continue
        return d
    raise RuntimeError(f"could not create a new run folder under {base} after {_ATTEMPTS} attempts")


def write_reports(report: Mapping[str, Any], out_dir: str | Path, secrets: Iterable[str] = (),
                  keep_all: bool = False, redacted: bool = False) -> dict[str, Path]:
    """Write junit.xml, report.json and report.html from the report with every known secret removed.

    The data is redacted before it is serialised (a marker written raw into XML would make the file unreadable to
    CI; ``redacted``: :func:`build_report` did it already, with these secrets), then each text gets a last pass
    for the escaped forms of the known secrets. report.json holds the summarised copy
    (``qaconform.report.compact``) unless ``keep_all``, and is strict JSON: a number that is not finite (a NaN a
    target or Locust produced) is written as null, never as the ``NaN`` strict parsers refuse."""
    from qaconform.report.compact import compact
    from qaconform.report.files import strict_json
    from qaconform.report.html_page import render_html
    from qaconform.report.junit import build_junit
    from qaconform.report.redact import redact, scrub_serialised

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    secrets = tuple(secrets)
    clean: Mapping[str, Any] = report if redacted else redact(report, secrets)
    as_json = {**clean, "detail": "all"} if keep_all else compact(clean)
    texts = {
        "junit": ("junit.xml", "xml", build_junit(clean)),
        "json": ("report.json", "json", strict_json(as_json, indented=True) + "\n"),
        "html": ("report.html", "html", render_html(clean)),
    }
    paths = {}
    for key, (name, fmt, text) in texts.items():
        p = out / name
        # a lone surrogate (a target's JSON may hold "\\ud800") cannot be UTF-8: written as its escape instead
        p.write_text(scrub_serialised(text, secrets, fmt) if secrets else text, encoding="utf-8",
                     errors="backslashreplace")
        paths[key] = p
    return paths


def build_and_write(
    results: Mapping[str, Any],
    out_dir: str | Path,
    *,
    rules: Iterable[Any] | None = None,
    expectations: Mapping[str, Expectation] | None = None,
    meta: Mapping[str, Any] | None = None,
    load_dir: str | Path | None = None,
    secrets: Iterable[str] = (),
    baseline: str | Path | None = None,
    keep_all: bool = False,
) -> tuple[dict[str, Any], dict[str, Path]]:
    """Build the report data from a results dict (and the Locust CSVs under ``load_dir``) and write the files.

    ``baseline``: an earlier run (report.json or run folder); what changed since is shown near the top of the page.
    Raises ValueError when it cannot be read."""
    from qaconform.report.diff import changes_since, read_report
    from qaconform.report.loadstats import load_section
    from qaconform.report.model import build_report

    meta = dict(meta or {})
    out = Path(out_dir)
    load_dir = Path(load_dir) if load_dir is not None else out / "load"
    load = load_section(load_dir, meta.get("load"))
    secrets = tuple(secrets)
    report = build_report(results, rules, expectations=expectations, meta=meta, load=load, secrets=secrets)
    if baseline is not None:
        report["baseline"] = changes_since(read_report(baseline), report)
    return report, write_reports(report, out, secrets, keep_all=keep_all, redacted=True)
