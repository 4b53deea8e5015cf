"""What a self-test found and how it is told: one run's result (a fault, a variant group, the clean run), the whole
self-test's verdict, its table and progress lines, and its JSON.

Why apart from ``selftest``: the runs (servers, pytest processes, the pool) and the verdict change for different
reasons; the verdict is tested on made-up results in milliseconds. Imports nothing of ``selftest``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from qaconform.blame import charged_rules
from qaconform.commands import variant_groups
from qaconform.commands.selftest_load import LoadPart
from qaconform.status import Status


@dataclass
class RunResult:
    """One pytest run against one server: which tests failed, and for which rules."""

    label: str
    rule: str | None
    """The rule a fault breaks; None for the clean run and the variants."""
    returncode: int | None = None
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    failed: list[dict[str, Any]] = field(default_factory=list)
    """Tests with outcome failed or error: nodeid, outcome, rules, message (first line)."""
    problem: str | None = None
    """Why the run could not be judged (server did not start, timeout, pytest exited without results)."""
    generated: bool = False
    """Whether the generated tests (suites/properties) ran too; for a fault, only when the others missed it."""
    variants: tuple[str, ...] = ()
    """The allowed variants the server ran with (a variant run); every suite must pass on it. ``("clean",)`` for
    an extra seed of the generated tests on the clean server."""
    seed: int | None = None
    """For an extra seed's run: the seed, and only the generated tests (suites/properties) ran. For a fault, and a
    clean server's run of its rule's tests (``variants`` ``("clean",)``): the seed it ran at, when the draws the fault
    names made it another than the self-test's (``selftest_seeds``)."""
    head_start: str | None = None
    """For a fault's first run: None when no catch ran first (``selftest_catchers``); "caught" when its run with the
    last catch first caught it; "missed" when that run did not, and what this holds is the run without the head
    start that followed on a fresh server (its verdict, counts and failures)."""

    def caught_by(self) -> list[str]:
        """Tests charged with the fault's rule: failed naming it (not errored), or blocked by it in their setup."""
        return [t["nodeid"] for t in self.failed if self.rule in _charged(t)]

    def failures(self) -> list[dict[str, Any]]:
        """The failed, blocked and errored tests, without should-level warnings (which fail no run)."""
        return [t for t in self.failed if not t.get("warning")]

    def warnings(self) -> list[dict[str, Any]]:
        return [t for t in self.failed if t.get("warning")]

    def false_positive(self) -> bool:
        """For a variant run: a failed, blocked or errored test (a should-level warning is none), or a run that could
        not be judged."""
        return bool(self.failures()) or self.problem is not None or self.returncode not in (0, None)

    def failed_rules(self) -> list[str]:
        """Every rule this run's failures are charged to (a fault should turn one rule red)."""
        return sorted({r for t in self.failed for r in _charged(t)})

    @property
    def caught(self) -> bool:
        return bool(self.caught_by())


def _charged(t: dict[str, Any]) -> list[str]:
    """The rules a kept failure is charged to (computed from its whole message when it was read)."""
    return list(t["charged"]) if "charged" in t else charged_rules(t)


@dataclass
class SelftestResult:
    faults: list[RunResult]
    clean: RunResult | None
    seconds: float
    variants: list[RunResult] = field(default_factory=list)
    load: LoadPart | None = None
    """The load part (``--load``, ``--load-only``), or None when it did not run."""
    until_caught: bool = False
    """Each fault's run ended at its first test charged with its rule (``--until-caught``): its failed rules are
    those of the tests up to that one, not of all its rule's tests."""

    @property
    def false_positives(self) -> list[RunResult]:
        """Variant runs with any failed, blocked or errored test (a should-level warning is none), or that could
        not be judged."""
        return [v for v in self.variants if v.false_positive()]

    @property
    def caught(self) -> int:
        return sum(1 for r in self.faults if r.caught)

    @property
    def score(self) -> float:
        return self.caught / len(self.faults) if self.faults else 1.0

    @property
    def clean_ok(self) -> bool:
        c = self.clean
        return c is None or (c.problem is None and c.returncode == 0 and not c.failures())

    @property
    def ok(self) -> bool:
        return (self.caught == len(self.faults) and self.clean_ok and not self.false_positives
                and (self.load is None or self.load.ok))


def must_rules() -> frozenset[str]:
    """The ids of spec/rules.yaml's must-rules: each needs a planted fault the suites catch."""
    from qaconform.contract import load_contract

    return frozenset(r.id for r in load_contract().rules.values() if r.level == "must")


def fault_coverage(result: SelftestResult, must: frozenset[str] | None = None) -> tuple[int, int, list[str]]:
    """(must-rules with a caught fault, must-rules, the must-rules without one), over the faults that ran."""
    must = must_rules() if must is None else must
    caught = {r.rule for r in result.faults if r.caught and r.rule in must}
    return len(caught), len(must), sorted(must - caught)


def _short(nodeid: str) -> str:
    """``suites/scenarios/test_x.py::test_y[p/q]`` -> ``test_x.py::test_y[p/q]``."""
    path, sep, rest = nodeid.partition("::")
    return path.rsplit("/", 1)[-1] + sep + rest


def progress_line(res: RunResult) -> str:
    if res.variants:
        state = "FALSE POSITIVES" if res.failures() or res.problem or res.returncode not in (0, None) else "green"
        if state == "green" and res.warnings():
            state += f" ({len(res.warnings())} should-level warning(s))"
        return f"{res.label}: {state} ({res.seconds:.0f}s)"
    if res.rule is None:
        state = "green" if res.problem is None and res.returncode == 0 and not res.failures() else "RED"
        return f"clean run: {state} ({res.seconds:.0f}s)"
    at = "" if res.seed is None else f" at seed {res.seed}"
    return f"{res.label}: {'caught' if res.caught else 'MISSED'}{at} ({res.seconds:.0f}s)"


def _median(values: list[int]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    return (ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2) if n else 0.0


def format_table(result: SelftestResult, must: frozenset[str] | None = None) -> str:
    """Faults (fault, rule, caught/missed, the rules that failed, by which test), variants (green or the false
    positives), and the verdict lines; the mutation score only when the clean run is green."""
    lines = [*_fault_rows(result), *_seed_lines(result), *_fault_lines(result, must), *_variant_lines(result),
             *_clean_lines(result),
             *(result.load.lines() if result.load is not None else [])]
    lines.append(f"self-test {'PASSED' if result.ok else 'FAILED'} in {result.seconds:.0f}s")
    return "\n".join(lines)


def _fault_rows(result: SelftestResult) -> list[str]:
    """The table of faults: fault, rule, caught or MISSED, the rules that failed, and by which test."""
    rows = []
    for r in result.faults:
        by = r.caught_by()
        if by:
            shown = _short(by[0]) + (f" (+{len(by) - 1} more)" if len(by) > 1 else "")
        elif r.problem:
            shown = r.problem.splitlines()[0]
        else:
            shown = "no test naming the rule failed" + (f"; other failures: {_short(r.failed[0]['nodeid'])}"
                                                         if r.failed else "")
        rows.append((r.label, r.rule or "", "caught" if by else "MISSED", ",".join(r.failed_rules()) or "-", shown))
    if not rows:
        return []
    w1 = max([len("fault"), *(len(x[0]) for x in rows)])
    w2 = max([len("rule"), *(len(x[1]) for x in rows)])
    w4 = max([len("rules failed"), *(min(len(x[3]), 60) for x in rows)])
    return [f"{'fault':<{w1}}  {'rule':<{w2}}  {'result':<6}  {'rules failed':<{w4}}  caught by",
            "-" * (w1 + w2 + w4 + 40),
            *(f"{a:<{w1}}  {b:<{w2}}  {c:<6}  {d:<{w4}}  {e}" for a, b, c, d, e in rows),
            ""]


def _seed_lines(result: SelftestResult) -> list[str]:
    """The faults that ran at a seed of their own (the draws they name), each with the command that replays it."""
    own = [r for r in result.faults if r.seed is not None]
    if not own:
        return []
    return ["faults run at a seed of their own (the seeded draws they name; qaconform/commands/selftest_seeds.py):",
            *(f"  {r.label}: seed {r.seed} ({'caught' if r.caught else 'MISSED'}; replay: qaconform run --seed "
              f"{r.seed} --reference-fault {r.label})" for r in own), ""]


def _fault_lines(result: SelftestResult, must: frozenset[str] | None) -> list[str]:
    """The faults' verdict: caught of total (meaningless when the clean run is red), spread, coverage, survivors."""
    lines: list[str] = []
    total = len(result.faults)
    if total and result.clean is not None and not result.clean_ok:
        lines.append(f"faults: {result.caught}/{total} caught, but the mutation score is meaningless: the clean run "
                     "failed, so a fault may be 'caught' by a test that fails on a conforming server too")
    elif total:
        lines.append(f"faults: caught {result.caught}/{total} ({100 * result.score:.1f}%)")
        lines.append(f"mutation score: {result.caught}/{total} faults caught ({100 * result.score:.1f}%)")
        spread = [len(r.failed_rules()) for r in result.faults if r.caught]
        if spread:
            lines.append(f"failed rules per caught fault: median {_median(spread):g}, max {max(spread)}"
                         + (" (--until-caught: up to the first test charged with the fault's rule)"
                            if result.until_caught else "")
                         + ("" if max(spread) <= 3 else " (a fault should turn at most 3 rules red: sharpen the "
                            "messages of the tests that blame more)"))
        covered, rules, uncovered = fault_coverage(result, must)
        lines.append(f"fault coverage: {covered}/{rules} must-rules with a caught fault")
        if uncovered and len(uncovered) <= 20:
            lines.append("must-rules without a caught fault: " + ", ".join(uncovered))
        elif uncovered:
            lines.append(f"must-rules without a caught fault: {', '.join(uncovered[:20])} and "
                         f"{len(uncovered) - 20} more (a run with --fault checks only the faults named)")
    missed = [r.label for r in result.faults if not r.caught]
    if missed:
        lines.append("survivors: " + ", ".join(missed) + " — add or sharpen a suite test naming the fault's rule")
    return lines


def _variant_lines(result: SelftestResult) -> list[str]:
    """The variants' verdict: how many gave a false positive, and each one's failures."""
    if not result.variants:
        return []
    bad = result.false_positives
    own = sum(v.rule is not None for v in result.variants)  # seed15: a clean server at a fault's own seed
    lines = [f"variants: false positives {len(bad)}/{len(result.variants)}"
             + (f" ({own} of them the clean server's runs of a rule's tests at a fault's own seed)" if own else "")]
    runs = [v for v in result.variants if v.seed is None]
    if any(len(v.variants) > 1 for v in runs):
        covered = {n for v in runs for n in variant_groups.expand(v.variants)}
        lines.append(f"  {len(covered)} variants in {len(runs)} runs (composed groups; a group that failed was "
                     "bisected), and the generated tests' other seeds")
    named = variant_groups.named([(variant_groups.expand(v.variants), v.false_positive())
                                  for v in result.variants if v.seed is None and v.problem is None])
    if named:
        lines.append("  false positives named: " + "; ".join(
            f"variant {g[0]}" if len(g) == 1 else "variants " + " + ".join(g) + " (only together)" for g in named))
    for v in bad:
        lines.append(f"  FALSE POSITIVE on {v.label} ({v.seconds:.0f}s): the suites assert what the description "
                     "does not state")
        if v.problem:
            lines.append("    " + v.problem.replace("\n", "\n    "))
        lines += [f"    {t['outcome']}: {t['nodeid']} [{', '.join(t['rules'])}] {t['message']}"
                  for t in v.failures()[:10]]
        if len(v.failures()) > 10:
            lines.append(f"    ... and {len(v.failures()) - 10} more")
    return lines


def _clean_lines(result: SelftestResult) -> list[str]:
    """The clean run's verdict: skipped, green with its counts, or red with its false positives."""
    c = result.clean
    if c is None:
        return [] if result.load is not None and not result.faults and not result.variants else [
            "clean run: skipped (--no-clean)"]
    if result.clean_ok:
        counts = ", ".join(f"{v} {k}" for k, v in sorted(c.counts.items()))
        return [f"clean run: green ({counts}; {c.seconds:.0f}s)"]
    lines = [f"clean run: RED — false positives against the clean reference server ({c.seconds:.0f}s):"]
    if c.problem:
        lines.append("  " + c.problem.replace("\n", "\n  "))
    lines += [f"  {t['outcome']}: {t['nodeid']} [{', '.join(t['rules'])}] {t['message']}"
              for t in c.failures()[:20]]
    return lines


def as_json(result: SelftestResult) -> dict[str, Any]:
    return {
        "ok": result.ok,
        "score": result.score,
        "caught": result.caught,
        "total": len(result.faults),
        "fault_coverage": dict(zip(("covered", "must_rules"), fault_coverage(result)[:2], strict=True)),
        "seconds": round(result.seconds, 1),
        "until_caught": result.until_caught,
        "clean": asdict(result.clean) if result.clean else None,
        "faults": [{**asdict(r), "caught": r.caught, "caught_by": r.caught_by(), "failed_rules": r.failed_rules()}
                   for r in result.faults],
        "variants": [{**asdict(v), "warnings": len(v.warnings())} for v in result.variants],
        "false_positives": [v.label for v in result.false_positives],
        "load": result.load.as_json() if result.load is not None else None,
    }


def read_results(res: RunResult, results_path: Path, output: Callable[[], str], rule: str | None,
                 tests_expected: bool) -> None:
    """What one run's results file says into ``res``: the counts, every failed test and the rules charged, or why
    there is none (``output``: what its pytest wrote; ``rule``: the rule its tests were chosen by, None for every
    suite; ``tests_expected``: it must have selected a test naming that rule)."""
    try:
        payload = json.loads(results_path.read_text())
    except (OSError, ValueError):
        tail = output()[-1500:]
        res.problem = f"pytest exited with code {res.returncode} and wrote no results; its output ends with:\n{tail}"
        return
    for t in payload.get("tests", []):
        res.counts[t["outcome"]] = res.counts.get(t["outcome"], 0) + 1
        if t["outcome"] in (Status.FAILED, Status.WARNING, Status.ERROR, Status.BLOCKED):
            message = (t.get("message") or "").strip()
            res.failed.append({"nodeid": t["nodeid"], "outcome": t["outcome"], "rules": t.get("rules", []),
                               "blocked_by": t.get("blocked_by", []), "warning": bool(t.get("warning")),
                               "charged": charged_rules(t),
                               "message": message.splitlines()[0][:200] if message else ""})
    if tests_expected and not payload.get("tests"):
        res.problem = f"no suite test names {rule}: write one (pytest exit code {res.returncode})"
    elif rule is None and res.returncode not in (0, None, 5) and not res.failed:
        tail = output()[-1500:]
        res.problem = f"pytest exited with code {res.returncode}; its output ends with:\n{tail}"
