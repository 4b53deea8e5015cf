"""Test modules are imported by basename (rootdir-relative, no packages under tests/): two of one name stop the whole
collection with 'import file mismatch', which is how CI went red once two branches each added a test_write_budget.py.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_two_test_modules_share_a_basename() -> None:
    names = Counter(p.name for folder in ("tests", "suites") for p in (ROOT / folder).rglob("test_*.py"))
    assert len(names) > 50, "the test folders were found"
    assert not [n for n, k in names.items() if k > 1], [n for n, k in names.items() if k > 1]
