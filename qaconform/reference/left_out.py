"""The planted faults that are wired but left out of the registry, with the reason each was left out.

A blind round keeps the faults the suites missed wired in the server but out of the registry (``split_missed``),
each with its reason in the round's ``_MISSED_REASONS``. A writer of a new round must not plant one of those paths
again: it measures nothing new. ``--list-faults`` lists only the registry, so a repeat of a left-out fault slipped
through twice (round 88's lock of an accepted question repeated round 75's); ``serve --list-left-out`` lists them.
Found by walking the ``faults_*`` modules rather than by a second list that would have to be kept by hand.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

from .fault_model import Fault


@dataclass(frozen=True)
class LeftOut:
    """One left-out fault: what it plants, the module that wires it, and why the registry does not hold it."""

    fault: Fault
    module: str
    reason: str


def _reasons(module: object) -> dict[str, str]:
    for attr in ("_MISSED_REASONS", "_MISSED"):
        found = getattr(module, attr, None)
        if isinstance(found, dict):
            return {str(k): str(v) for k, v in found.items()}
        if isinstance(found, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in found):
            return {p[0].name: str(p[1]) for p in found if isinstance(p[0], Fault)}
    return {}


def left_out(registered: frozenset[str]) -> list[LeftOut]:
    """Every fault a ``faults_*`` module defines in a ``*_MISSED`` tuple (or a ``_MISSED`` list of pairs) that is not
    in ``registered`` (a later closing may register a fault its round left out), in module order."""
    from . import __path__ as here

    found: dict[str, LeftOut] = {}
    for info in sorted(pkgutil.iter_modules(here), key=lambda m: m.name):
        if not info.name.startswith("faults_"):
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        reasons = _reasons(module)
        for attr, value in vars(module).items():
            if not attr.endswith("_MISSED") or not isinstance(value, tuple):
                continue
            for item in value:
                fault = item[0] if isinstance(item, tuple) else item
                if isinstance(fault, Fault) and fault.name not in registered and fault.name not in found:
                    reason = reasons.get(fault.name, "the reason is in the module's docstring and docs/blind-rounds.md")
                    found[fault.name] = LeftOut(fault, info.name, reason)
    return list(found.values())


def describe(registered: frozenset[str]) -> str:
    """The left-out faults as text for ``--list-left-out``: name, rule and description on one line, the reason on the
    next, indented, so that a writer can grep by rule, by operation or by parameter."""
    rows = left_out(registered)
    if not rows:
        return "no planted fault is left out of the registry"
    width = max(len(r.fault.name) for r in rows)
    rwidth = max(len(r.fault.rule) for r in rows)
    return "\n".join(f"{r.fault.name:<{width}}  {r.fault.rule:<{rwidth}}  {r.fault.description}\n"
                     f"    left out ({r.module}): {r.reason}" for r in rows)
