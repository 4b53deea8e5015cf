"""Terminal tables (rich), as text: the commands print them, and tests read the same text.

Why text and not printing straight to a console: a command's summary is also returned to callers (capacity writes
it under its JSON, tests assert on it), and a log file must get the same columns as a terminal. Columns that hold
numbers are right-aligned; nothing is wrapped or cut (a CI log is wide enough, a terminal scrolls).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.box import Box
from rich.console import Console
from rich.table import Table

_RULE_UNDER_HEADERS = Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)
"""rich's SIMPLE_HEAD drawn with '-': a log read with a non-UTF-8 encoding shows it as written."""


def table_text(headers: Sequence[str], rows: Sequence[Sequence[object]], numeric: Sequence[int] = (),
               title: str | None = None) -> str:
    """The rows under the headers, columns aligned; ``numeric`` are the indexes of right-aligned columns."""
    table = Table(*headers, box=_RULE_UNDER_HEADERS, title=title, title_justify="left", show_edge=False, pad_edge=False)
    for i in numeric:
        table.columns[i].justify = "right"
    for row in rows:
        table.add_row(*("-" if v is None else str(v) for v in row))
    out = io.StringIO()
    Console(file=out, width=400, color_system=None, force_terminal=False, highlight=False).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines() if line.strip())
