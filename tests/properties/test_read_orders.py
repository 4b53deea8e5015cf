"""The privacy model's two orders of one URL's readers (suites/properties/subtree_views.py, histories2, issue 44).

A response kept by URL (not by caller) is caught only where the reads of one URL meet in the wrong pair: a privileged
read right before an unprivileged one, an unprivileged one right before a privileged one, anonymous right after the
reader entitled to the most. The rounds' order and the second read after every step must meet all of them, whoever
the history made entitled to what.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType

import pytest

PRIVILEGED = ("admin", "moderator")
PLAIN = ("member", "novice")


def _subtree_views() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "suites" / "properties" / "subtree_views.py"
    spec = importlib.util.spec_from_file_location("subtree_views_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


VIEWS = _subtree_views()
ENTITLEMENTS = [e for e in (dict(zip(PRIVILEGED + PLAIN, counts, strict=True))
                             for counts in itertools.product((0, 3), repeat=4)) if e["admin"] or e["moderator"]]
"""Every way of being entitled to a thread or not, where a privileged account is (the model's opening puts one in
each thread's audience: the answer's author or recipient, the question's recipient moderator)."""


def _pairs(order: list[str]) -> set[tuple[str, str]]:
    return set(itertools.pairwise(order))


@pytest.mark.parametrize("entitled", ENTITLEMENTS, ids=lambda e: "-".join(f"{r}{n}" for r, n in e.items()))
def test_both_orders_meet_every_pair_a_cache_by_url_gets_wrong(entitled: dict[str, int]) -> None:
    first = VIEWS.reading_order(entitled, 0)
    other = VIEWS.privileged_last(entitled, PRIVILEGED)
    for order in (first, other):
        assert sorted(order) == sorted(VIEWS.READERS), order
        assert order[-1] == "anonymous", f"anonymous reads right after a signed-in read: {order}"
    met = _pairs(first) | _pairs(other)
    assert any((p, q) in met for p in PRIVILEGED for q in PLAIN), f"no privileged read before a plain one: {met}"
    assert any((q, p) in met for p in PRIVILEGED for q in PLAIN), f"no plain read before a privileged one: {met}"
    most = max(PRIVILEGED, key=lambda r: (entitled[r], PRIVILEGED.index(r)))
    assert other[-2] == most, f"anonymous must come right after the privileged reader entitled to the most: {other}"
    assert all(other.index(q) < other.index(p) for p in PRIVILEGED for q in PLAIN), other
