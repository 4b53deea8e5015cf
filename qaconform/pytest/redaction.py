"""What pytest prints of a test, with the target's credentials removed before any reporter sees it.

The passwords are redacted where they are kept (``qaconform.target.profile.Secret``, the client's ``BasicAuth``), so
a traceback's frame arguments show ``<redacted>``. What no ``repr`` controls still reaches a report: a target that
echoes the Authorization header in a body a message quotes, a plain string a library derived from the password in a
frame that ``--showlocals`` prints, a hypothesis note, captured output and logs. The plugin passes every test
report through :func:`scrub_report` in ``pytest_runtest_makereport`` (in the process that ran the test, so xdist
carries the scrubbed report), before the terminal, JUnit or any other reporter reads it. Before that it makes the
report's copy-paste curls personal (:func:`personalise_report`), as the report writes them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from qaconform.target.curl_line import personalise_text

MESSAGE_PROP = "qaconform.message"
"""The user property that holds a failure's message without pytest's class path in front (results.py writes it)."""


def scrub(value: Any, redact: Callable[[str], str]) -> Any:
    """``value`` with ``redact`` applied to every string in it: pytest's longrepr objects (mutable dataclasses:
    traceback entries, their lines, frame arguments, locals, the crash message, sections) are changed in place,
    tuples are rebuilt."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, tuple):
        return tuple(scrub(v, redact) for v in value)
    if isinstance(value, list):
        value[:] = [scrub(v, redact) for v in value]
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            setattr(value, f.name, scrub(getattr(value, f.name), redact))
    return value


def scrub_report(report: pytest.TestReport, redact: Callable[[str], str]) -> None:
    """The report's traceback or skip reason and its captured sections (stdout, stderr, log), redacted."""
    if report.longrepr is not None:
        report.longrepr = scrub(report.longrepr, redact)
    if report.sections:
        report.sections = [(title, redact(content)) for title, content in report.sections]
    # the failure's message as the test wrote it (qaconform.pytest.results): the same text as the crash line above
    report.user_properties = [(name, redact(value) if name == MESSAGE_PROP and isinstance(value, str) else value)
                              for name, value in report.user_properties]


def personalise_report(report: pytest.TestReport, accounts: Mapping[str, Mapping[str, str | None]]) -> None:
    """Every recorded curl the report prints with the account's username and its password's variable
    (qaconform.target.curl_line.personal_curl, the report's own), never ``"$USER:$PASSWORD"``: ``$USER`` is the
    shell's login name, so the line a person pastes from the terminal would authenticate as someone else."""
    scrub_report(report, lambda text: personalise_text(text, accounts) or text)
