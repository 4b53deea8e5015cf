"""What the self-test's pytest runs of a fault select and how they report: the lean options of a fault's first run,
the traceback style, the rules the generated tests name, each rule's suite files of a rule map, and the registry's
checks (moved out of ``selftest.py``, which holds the runs)."""

from __future__ import annotations

import ast
import functools
import shlex
from collections.abc import Sequence
from pathlib import PurePosixPath

from qaconform.kit import pytest_command, suites_dir

TRACEBACKS = ["--tb=native"]
"""How the self-test's pytest runs format a failure: as Python's traceback module does. What the self-test reads of
a failure is its message (pytest's ``reprcrash``, the exception's text, the same in every style), never the
traceback; pytest's own styles (long, short) parse each failing frame's whole source file again to find its
statement (``getstatementrange_ast``). A fault whose rule 859 tests claim (envelope-listcount-wrong, all failing)
spent 15.8 s of CPU in its pytest with the default style and 5.0 s with this one (2026-11-29, busy machine), with
the same outcome, rules and message for every test (the ports, dates and tags of the data aside)."""

LEAN_OPTIONS = ["--ignore", "suites/properties", "-p", "no:schemathesis", "-p", "no:hypothesispytest",
                "-p", "no:anyio"]
"""Without the generated tests: skip collecting suites/properties and loading schemathesis and hypothesis (about
two thirds of a fault run's start-up time, and their time budget)."""


@functools.cache
def generated_test_rules() -> frozenset[str]:
    """Rule ids written as string literals anywhere in suites/properties (an over-approximation is only slower)."""
    from qaconform.contract import load_contract

    known = set(load_contract().rules)
    found: set[str] = set()
    for path in (suites_dir() / "properties").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known:
                found.add(node.value)
    return frozenset(found)


def files_of(tests: dict[str, list[str]]) -> dict[str, list[str]]:
    """{rule: its tests' files, in collection order} of a rule map's {test id: rule ids}."""
    files: dict[str, list[str]] = {}
    for nodeid, rules in tests.items():
        path = nodeid.split("::", 1)[0]
        for rule in rules:
            if path not in files.setdefault(rule, []):
                files[rule].append(path)
    return files


def with_generated(files: Sequence[str]) -> list[str]:
    """A rule's suite files (:func:`files_of`, in collection order) with the generated tests' folder where a
    collection of every suite meets it, or none when ``files`` is empty (every suite is collected).

    Why: a fault the other tests miss is run again with the generated tests; collecting every suite for it (the
    schemathesis plugin and hypothesis loaded, the large contract files built and deselected) took about twice as
    long as its tests: 21.4 s against 10.4 s on average for two such faults, each twice, with the same tests,
    failed rules and outcome (load 17-19, 2026-11-30). The tests naming the rule, and their order, are the same:
    the other files hold none, and pytest collects its arguments in the order given."""
    if not files:
        return []
    generated = f"{suites_dir().name}/properties"
    at = next((i for i, f in enumerate(files) if PurePosixPath(f).parts[1:2] > ("properties",)), len(files))
    return [*files[:at], generated, *files[at:]]


GENERATED_FIRST = ("test_privacy_model.py",)
"""The generated test files a run of the generated tests alone collects first, the others after them in their
folder's order (:func:`generated_files`).

Why: a fault's second run tries the generated tests alone, until the first test charged with its rule when the
self-test runs ``--until-caught`` (:func:`pytest_base`); 59 of the 61 faults only the generated tests caught were
caught by the privacy model, whose file the folder's order put after every case of test_openapi.py (20 operations,
each a generated test of several seconds: 2026-11-30's CI self-test). First, it ends such a run before them. A catch
by them alone is trusted only once the same files in the same order passed on a clean server at the seed
(``selftest_second.clean_alone``, which runs them in this order too)."""


def generated_files() -> list[str]:
    """The generated tests' files (suites/properties/test_*.py) as a run of them alone collects them:
    :data:`GENERATED_FIRST` first, then the rest by name (the folder's own order)."""
    folder = suites_dir() / "properties"
    names = sorted(p.name for p in folder.glob("test_*.py"))
    first = [n for n in GENERATED_FIRST if n in names]
    return [str(folder / n) for n in [*first, *(n for n in names if n not in first)]]


def pytest_base(rule: str | None, seed: int, generated: bool, only_generated: bool = False,
                files: Sequence[str] = (), until_caught: bool = False, stop_at: str | None = None) -> list[str]:
    """The suites' pytest of one self-test run, without its profile and results file. ``only_generated``: the
    generated tests alone (:func:`generated_files`); ``until_caught`` (with ``rule``): the run ends at its first
    test charged with ``rule`` (``qaconform.pytest.fault_batch.UntilCaught``, as a fault's first run does);
    ``stop_at`` (with ``rule`` None: every test, a whole run's order): the run ends at its first test charged with
    that rule (the self-test's ``--whole-suite --until-caught``: ``selftest._run_one``)."""
    base = pytest_command()
    at = base.index(str(suites_dir()))
    if only_generated:
        base[at:at + 1] = generated_files()
    elif files:
        base[at:at + 1] = [str(suites_dir().parent / f) for f in files]
    cmd = [*base, *(import_path() if only_generated or files else []), "-q", "--seed", str(seed), *TRACEBACKS]
    if rule is not None:
        cmd += ["--rule", rule]
    stop = (rule if until_caught else None) if rule is not None else stop_at
    if stop is not None:
        cmd += ["-p", "qaconform.pytest.fault_batch", "--qaconform-until-caught", stop]
    if not generated:
        cmd += LEAN_OPTIONS
    return cmd


def import_path() -> list[str]:
    """pytest's option putting every test folder of the suites on ``sys.path``, for a run that names some of their
    files instead of the suites folder (a rule's files, the generated tests alone).

    Why (clean26): a test module imports the helper modules of another folder by plain name
    (suites/scenarios/test_comment_after_state.py: ``comment_after_state``, ``unwikified_node`` of suites/contract/).
    A collection of the whole folder puts suites/contract/ on ``sys.path`` as it imports its first module there, before
    any of suites/scenarios/; the checkout's pyproject.toml (``pythonpath``) puts it there too, but only where pytest
    finds that file, and it looks for it from every argument that is no option it knows yet: the batch's folder
    (``--qaconform-batch /tmp/...``) or a profile in /tmp took it to /, so no pyproject.toml (and an installed kit has
    none). A fault's batch of its rule's files at the fault's own seed (``selftest._run_rule`` without a collector)
    then ended in an ImportError, pytest's exit code 2, and the fault was reported missed
    (after25-recipients-comment-after-unwikify-in-authors-content). Named here, the path is the whole collection's
    wherever the kit is and whatever the arguments."""
    folders = sorted(str(d) for d in suites_dir().iterdir() if d.is_dir() and any(d.glob("test_*.py")))
    return ["-o", "pythonpath=" + shlex.join(folders)]


def rules_without_fault() -> list[str]:
    """Must-rules no fault of the registry breaks: no self-test can show that their tests can fail."""
    from qaconform.commands.selftest_result import must_rules
    from qaconform.reference import faults as registry

    broken = {f.rule for f in registry.FAULTS.values()}
    return sorted(must_rules() - broken)


def check_registry() -> list[str]:
    """Every fault names a rule of spec/rules.yaml (a typo would make the fault uncatchable by construction)."""
    from qaconform.commands import selftest_seeds
    from qaconform.contract import load_contract
    from qaconform.reference import faults as registry

    rules = load_contract().rules
    return [f"fault {f.name!r} names rule {f.rule!r}, which is not in spec/rules.yaml"
            for f in registry.FAULTS.values() if f.rule not in rules] + selftest_seeds.problems()
