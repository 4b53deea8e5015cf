"""The small building blocks of the report's HTML pages: escaping for attributes and for element text, a status
badge, a <pre>, a command box with a copy button, and message text cut to a number of lines.

Apart from :mod:`qaconform.report.html_page` so that the page's sections that live in modules of their own (the load
section) build their HTML the same way without importing the page; the page imports them under its old names.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from qaconform.status import Status


def esc(v: Any) -> str:
    return escape("" if v is None else str(v))


def badge(status: str, label: str | None = None) -> str:
    s = Status.of(status)
    slug = s.slug if s is not None else str(status).replace(" ", "-")
    return f'<span class="badge b-{esc(slug)}">{esc(label or status)}</span>'


def elem_text(v: Any) -> str:
    """Escaped for element text (quotes stay quotes: JSON in a <pre> would grow by a third as &quot;)."""
    return escape("" if v is None else str(v), quote=False)


def pre(text: Any, cls: str = "") -> str:
    return f'<pre class="{cls}">{elem_text(text)}</pre>' if cls else f"<pre>{elem_text(text)}</pre>"


def cmd(text: str, label: str, cls: str) -> str:
    """A command in a box with a copy button (``cls`` tells curls from rerun commands in the DOM)."""
    return (f'<div class="cmd {cls}"><div class="lbl">{esc(label)}</div>'
            f'<button type="button" onclick="qcCopy(this)">copy</button><pre><code>{esc(text)}</code></pre></div>')


def curl_box(curl: str) -> str:
    """The curl with a copy button, and below it what to know before replaying a one-shot state change."""
    from qaconform.report.reproduce import replay_note

    note = replay_note(curl)
    return cmd(curl, "reproduce the request", "curl") + (f'<p class="muted replay-note">{esc(note)}</p>'
                                                           if note else "")


def as_json(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, default=str)


def first_lines(text: Any, limit: int) -> str:
    lines = str(text or "").strip().splitlines()
    return "\n".join(lines[:limit]) + (f"\n... ({len(lines) - limit} more lines in report.json)"
                                         if len(lines) > limit else "")
