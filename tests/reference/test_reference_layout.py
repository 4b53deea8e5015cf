"""The reference server's layout stays as ARCHITECTURE.md draws it: imports in one direction (no cycle, found by
reading every import statement with ``ast``, including those inside functions and under TYPE_CHECKING), nothing
from the kit's contract side (architecture rule 2), permissions only in the route table, short functions."""

from __future__ import annotations

import ast
from pathlib import Path

import qaconform.reference
from qaconform.reference import faults
from qaconform.reference.app import LOCATION_ROUTES, ROUTES, SITE_ROUTES

REFERENCE = Path(qaconform.reference.__file__).parent
MAX_FUNCTION_LINES = 60
FORBIDDEN = ("qaconform.contract", "qaconform.target.client", "qaconform.suites", "qaconform.spec", "spec", "suites")


def _trees() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(), str(p)) for p in sorted(REFERENCE.glob("*.py"))}


def _imports(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(modules of this package it imports, absolute modules it imports), from every import statement."""
    local: set[str] = set()
    absolute: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                local.add(node.module.split(".")[0])
            else:
                local.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            absolute.add(node.module)
        elif isinstance(node, ast.Import):
            absolute.update(alias.name for alias in node.names)
    return local, absolute


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle as a list of modules (first == last), or []."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for dep in sorted(graph.get(module, ())):
            if state.get(dep) == 1:
                return [*path[path.index(dep):], dep]
            if dep not in state and (found := visit(dep)):
                return found
        path.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return []


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    assert _cycle({"app": {"writes"}, "writes": {"http_io", "app"}, "http_io": set()}) == ["app", "writes", "app"]
    assert _cycle({"app": {"writes"}, "writes": {"http_io"}, "http_io": set()}) == []


def test_the_reference_server_has_no_import_cycle() -> None:
    graph = {name: _imports(tree)[0] - {name} for name, tree in _trees().items()}
    assert "app" in graph and "service" in graph["node_lists"], "the import reader found no imports: it is broken"
    cycle = _cycle(graph)
    assert not cycle, f"import cycle in qaconform/reference: {' -> '.join(cycle)}; make the imports go one way"


def test_the_reference_server_imports_nothing_of_the_contract_side() -> None:
    wrong = sorted(
        f"{name}.py imports {module}"
        for name, tree in _trees().items()
        for module in _imports(tree)[1]
        if any(module == f or module.startswith(f + ".") for f in FORBIDDEN)
    )
    assert not wrong, f"architecture rule 2 (the reference server is independent): {wrong}"


def _length(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return (node.end_lineno or node.lineno) - node.lineno + 1


def test_no_function_of_the_reference_server_is_longer_than_60_lines() -> None:
    long = sorted(
        f"{name}.py:{node.lineno} {node.name} ({_length(node)} lines)"
        for name, tree in _trees().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _length(node) > MAX_FUNCTION_LINES
    )
    assert not long, f"split these into steps with names: {long}"


def test_handlers_check_no_permission_of_their_own() -> None:
    """Permissions come from the route table (app.py, applied by access.py); a handler module that tests a
    permission itself must be one of the known second checks (own posts, private comment options, spaces shown)."""
    handler_modules = {op.handler.__module__.rsplit(".", 1)[1] for op in ROUTES + LOCATION_ROUTES + SITE_ROUTES}
    assert handler_modules == {"comments", "gdpr_jobs", "node_lists", "site_lists", "answers", "actions", "deletion"}
    for name in handler_modules:
        source = (REFERENCE / f"{name}.py").read_text()
        assert "fault_deny" not in source and ".require(" not in source, f"{name}.py checks permissions itself"


def test_every_row_of_the_route_table_requires_a_permission_and_names_an_operation_once() -> None:
    ids = [op.op_id for op in ROUTES + LOCATION_ROUTES + SITE_ROUTES]
    assert len(ROUTES) == 19 and len(set(ids)) == len(ids)
    assert all(op.requires.all_of or op.requires.one_of for op in ROUTES + LOCATION_ROUTES + SITE_ROUTES)


OVERRIDE_AND_BRANCH = {"unfavorite-allowed-novice": "let in by the table, then answered 200 as if it had worked",
                       "sendtomod-granted-to-own-node": "let in by the table, then kept to the node's own author "
                                                        "(an 'own' clause the permission does not have)",
                       # relations (issue 44): the same, kept to the author of the node's question / of the question
                       "sendtomod-question-author": "let in by the table, then kept to the author of the question the "
                                                    "node is under",
                       "sendtomod-own-question": "let in by the table, then kept to a question's own author",
                       # second blind round (blinda, issue 44): member kept to comments whose parent it wrote
                       "blind-sendtomod-parent-author-comments": "let in by the table, then kept to the author of "
                                                                 "the comment's parent",
                       # blind round on permissions (blindp, issue 44; the branches are in blind_perms.py)
                       "blindp-lock-novice-own-comment": "let in by the table, then kept to the caller's own comment",
                       "blindp-groups-later-page-empty-for-denied": "let in by the table with page, then refused on "
                                                                    "page 1 and answered empty after it",
                       "blindp-sendtomod-moderated-node-unchecked": "let in by the table, then kept to nodes already "
                                                                    "in moderation",
                       "blindp-comment-anonymous-reply-accepted": "let in by the table, then kept to replies"}
"""Permission faults that also change what the handler answers once the caller is in."""


def test_a_permission_fault_is_an_override_of_a_row_not_a_branch_in_a_handler() -> None:
    overridden = [name for name, f in faults.FAULTS.items() if f.overrides and name not in OVERRIDE_AND_BRANCH]
    assert len(overridden) >= 30, "the permission faults are table overrides (faults.py)"
    sources = "\n".join((REFERENCE / f"{m}.py").read_text() for m in ("comments", "answers", "actions",
                                                                         "node_lists", "site_lists", "gdpr_jobs"))
    branched = [name for name in overridden if f'"{name}"' in sources]
    assert not branched, f"faults both overriding the table and branching in a handler: {branched}"
