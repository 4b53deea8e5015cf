"""The state one pytest process keeps for a run (``config.stash[STATE]``), and the small helpers every part of the
plugin shares: why a run stopped, a test's rule ids, its recorded properties. Its own module so that the plugin's
parts (``session_target``, ``fixtures``, ``results``) and ``parallel`` read one state without reaching into each
other."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import pytest

from qaconform.vocabulary import StopReason

_PROP = "qaconform."
"""Prefix of the plugin's user_properties keys."""

@dataclass
class Stopped:
    """Why a run ended before its verdict, written into the results file (``qaconform run`` reads it there)."""

    reason: StopReason
    """One of :class:`qaconform.vocabulary.StopReason` (which also holds the exit code each gives)."""
    message: str


@dataclass
class RunState:
    """What the plugin keeps for one pytest process (``config.stash[STATE]``)."""

    holder: Any
    """The run's target holder (``session_target._TargetHolder``)."""
    started: float = field(default_factory=time.time)
    created_ids: set[str] = field(default_factory=set)
    created_emitted: set[tuple[str, str]] = field(default_factory=set)
    """(kind, id) of every created object already written to the results: one object, one entry."""
    results: list[dict[str, Any]] = field(default_factory=list)
    unmarked_writers: list[str] = field(default_factory=list)
    collection_errors: dict[str, str] = field(default_factory=dict)
    """Node id -> message of every module or class pytest could not collect (once, whichever worker met it)."""
    gone: str | None = None
    """Set when the target stopped answering: the run ends after the current test."""
    stopped: Stopped | None = None
    observation_plan: dict[str, int] | None = None
    """Node id -> planned accepted writes of every observation test the observations' share lets write (made at the
    first test: qaconform.target.writes.plan_observations)."""


STATE = pytest.StashKey[RunState]()


def state(config: pytest.Config) -> RunState:
    return config.stash[STATE]


def _stop(config: pytest.Config, reason: StopReason, message: str, code: int) -> NoReturn:
    """End the run with ``message``, and say why in the results file."""
    state(config).stopped = Stopped(reason, message)
    pytest.exit(message, returncode=code)


_RULES = pytest.StashKey[tuple[str, ...]]()
"""A test's rule ids, found once (cpu8, issue 44): the plugin asks for them about ten times a test, at collection
(the marker check, the pool, the observations' plan) and in its hooks, each time walking the node's parents'
markers (~4,850 tests a run on every worker). Rule markers are fixed once collected: nothing of the kit or the
suites adds one later (``add_marker``)."""


def _rule_ids(item: pytest.Item) -> list[str]:
    """The test's rule ids, from its ``rule`` markers (its own, its class's, its module's), in that order; a new
    list each time (callers keep it in the results)."""
    ids = item.stash.get(_RULES, None)
    if ids is None:
        ids = item.stash[_RULES] = tuple(str(a) for m in item.iter_markers("rule") for a in m.args)
    return list(ids)


def _in_suites(item: pytest.Item) -> bool:
    return _suites_path(item.path)


@functools.lru_cache(maxsize=256)
def _suites_path(path: Path) -> bool:
    """Whether a test file lies in a ``suites`` folder; asked once per file, not for each of its 1,500 tests (and not
    through the legacy ``fspath``, which builds a py.path each time)."""
    return "suites" in path.parts


def _props(report: pytest.TestReport, name: str) -> list[Any]:
    return [v for k, v in report.user_properties if k == _PROP + name]


def _first(values: list[Any], default: Any) -> Any:
    return values[0] if values else default
