"""The package's shape that issue 30 asked for: no module over 600 lines (the suites' included), and one constant for
the service prefix.

A module past 600 lines holds more than one thing (plugin.py at 803 lines held the target, the fixtures and the
results; contract.py at 599 the schemas, operations, rules and dimensions, now a package with a module each): split
it by meaning, into modules named for what they hold.
The service prefix written out in several places let one of them drift; the kit names it once
(``qaconform.contract.API_PREFIX``) and the reference server, an independent implementation that never imports the
kit's contract, once of its own (``qaconform.reference.http_io.PREFIX``). Read from the source with ``ast``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "qaconform"
MAX_LINES = 600
LONGER_ALLOWED: dict[str, str] = {}
"""Modules allowed past MAX_LINES, each with its reason (none: the route table, once the exception, is 113 lines)."""
PREFIX = "/services/v2"


def too_long(folder: Path, limit: int = MAX_LINES) -> dict[str, int]:
    """The modules under ``folder`` over ``limit`` lines, with their counts, except those LONGER_ALLOWED names."""
    out = {}
    for path in sorted(folder.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit and name not in LONGER_ALLOWED:
            out[name] = lines
    return out


def test_no_module_of_the_package_is_over_600_lines() -> None:
    for name in LONGER_ALLOWED:
        assert (ROOT / name).is_file(), f"the exception names a module that is gone: {name}"
    assert too_long(PACKAGE) == {}


def test_no_suite_module_is_over_600_lines() -> None:
    """The suites too: a test module keeps its tests, its helpers and data tables live in sibling modules named for
    what they hold (gdpr_jobs.py, comment_reads.py ...), its fixtures there or in a conftest.py."""
    assert too_long(ROOT / "suites") == {}


def test_the_size_check_sees_a_long_module() -> None:
    assert "qaconform/contract/operations.py" in too_long(PACKAGE, limit=100)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (a module's, a class's, a function's, an attribute's)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value,
                                                                                                    str):
                out.add(id(stmt.value))
    return out


def prefix_literals(files: list[Path], root: Path = ROOT) -> Iterator[tuple[str, int, str]]:
    """Each string in code (docstrings left out, f-string parts included) that holds the service prefix as a path:
    ``(file, line, text)``."""
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
                    and (node.value.startswith(PREFIX) or f'"{PREFIX}' in node.value or f"'{PREFIX}" in node.value)):
                yield path.relative_to(root).as_posix(), node.lineno, node.value


def _kit_files() -> list[Path]:
    reference = PACKAGE / "reference"
    kit = [p for p in PACKAGE.rglob("*.py") if reference not in p.parents]
    return sorted([*kit, *(ROOT / "loadtests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")])


def test_the_kit_writes_the_service_prefix_once() -> None:
    found = [(f, text) for f, _, text in prefix_literals(_kit_files())]
    assert found == [("qaconform/contract/operations.py", PREFIX)]


def test_the_reference_server_writes_the_service_prefix_once_of_its_own() -> None:
    found = [(f, text) for f, _, text in prefix_literals(sorted((PACKAGE / "reference").rglob("*.py")))]
    assert found == [("qaconform/reference/http_io.py", PREFIX)]


def test_the_prefix_check_sees_a_path_written_out(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""Under /services/v2."""\nURL = f"/services/v2/{1}.json"\nNOTE = "not /services/v2"\n',
                      encoding="utf-8")
    assert list(prefix_literals([module], tmp_path)) == [("m.py", 2, "/services/v2/")]
