"""No import cycle in the qaconform package: module-level imports and the ones inside functions alike.

A cycle hidden in a function (a module importing "back" lazily) is still a cycle: the two modules cannot be read,
tested or moved apart. The graph is read from the source with ``ast`` (nothing is imported), so the test also runs
where an optional dependency is missing.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "qaconform"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: set[str]) -> set[str]:
    """The qaconform modules ``path`` imports, wherever in the file the import stands."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                if candidate in modules:
                    out.add(candidate)
                elif base in modules:
                    out.add(base)
    out.discard(name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def import_graph() -> dict[str, set[str]]:
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in files}
    return {module_name(p): imported(p, modules) for p in files}


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 50 and graph["qaconform.commands.run"], "the graph was not read"
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle_through_a_lazy_import() -> None:
    graph = import_graph()
    graph["qaconform.contract"] = graph["qaconform.contract"] | {"qaconform.commands.run"}  # runner imports contract
    assert any({"qaconform.contract", "qaconform.commands.run"} <= set(c) for c in cycles(graph))


def imports_of(folder: Path) -> dict[str, set[str]]:
    """Every module a .py file under ``folder`` imports (absolute names), wherever in the file."""
    out: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
        out[str(path.relative_to(PACKAGE.parent))] = names
    return out


def offending(folder: Path, forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    """The files under ``folder`` that import one of ``forbidden`` (a module or anything below it), and what."""

    def bad(name: str) -> bool:
        return any(name == p or name.startswith(p + ".") for p in forbidden)

    return {f: sorted(filter(bad, names)) for f, names in imports_of(folder).items() if any(map(bad, names))}


def test_each_top_level_folder_imports_only_what_architecture_md_says() -> None:
    """ARCHITECTURE.md's table of folders: the suites know a target only through its profile (never the reference
    server); the kit's package never imports the Locust side (locust, gevent, loadtests' qaload) nor the suites."""
    root = PACKAGE.parent
    assert "qaconform/pytest/plugin.py" in offending(PACKAGE, ("pytest",))  # the reader sees what a file imports
    assert offending(root / "suites", ("qaconform.reference",)) == {}
    assert offending(PACKAGE, ("locust", "gevent", "qaload", "suites")) == {}
    assert offending(root / "loadtests", ("pytest", "suites", "qaconform.reference")) == {}


ROOMS = ("target", "pytest", "report", "load", "commands")
"""The package's rooms, lowest first (ARCHITECTURE.md, "Folders"): a room imports the core and rooms before it."""
CORE = {"contract", "invariants", "status", "vocabulary", "exitcodes", "errors", "kit", "blame"}
NEVER: dict[str, tuple[str, ...]] = {
    "core": ROOMS + ("reference",),
    "target": ("pytest", "report", "load", "commands", "reference"),
    "pytest": ("report", "load", "commands"),
    "report": ("pytest", "load", "commands", "reference"),
    "load": ("pytest", "commands"),
    "commands": (),
}
"""ARCHITECTURE.md's "never" column for the rooms of qaconform/."""


def room_of(module: str) -> str:
    """The room ``module`` belongs to: a core module split into a package (``qaconform.contract.rules``) is core."""
    parts = module.split(".")
    if len(parts) == 1:
        return "top"
    if parts[1] in CORE:
        return "core"
    return parts[1] if len(parts) > 2 or parts[1] in ROOMS + ("reference",) else "top"


def upward_arrows(graph: dict[str, set[str]]) -> list[str]:
    """The imports that point up the rooms' list, or out of the reference server."""
    wrong = []
    for mod, deps in graph.items():
        room = room_of(mod)
        for dep in deps:
            if room in NEVER and room_of(dep) in NEVER[room] or room == "reference" and room_of(dep) != "reference":
                wrong.append(f"{mod} -> {dep}")
    return sorted(wrong)


def test_no_room_imports_a_room_above_it_and_the_reference_server_imports_no_other_room() -> None:
    assert upward_arrows(import_graph()) == []


def test_the_room_check_sees_an_arrow_pointing_up() -> None:
    graph = import_graph()
    graph["qaconform.target.client"] = graph["qaconform.target.client"] | {"qaconform.pytest.outcomes"}
    graph["qaconform.reference.app"] = graph["qaconform.reference.app"] | {"qaconform.contract"}
    assert upward_arrows(graph) == ["qaconform.reference.app -> qaconform.contract",
                                    "qaconform.target.client -> qaconform.pytest.outcomes"]


def test_a_module_of_a_core_package_is_core_and_the_room_check_sees_it_point_up() -> None:
    graph = import_graph()
    assert room_of("qaconform.contract.rules") == "core" and "qaconform.contract.rules" in graph
    graph["qaconform.contract.rules"] = graph["qaconform.contract.rules"] | {"qaconform.target.profile"}
    assert upward_arrows(graph) == ["qaconform.contract.rules -> qaconform.target.profile"]


def test_the_top_floor_holds_at_most_nine_modules_and_every_room_says_what_it_holds_and_may_import() -> None:
    # the core: __init__, contract, invariants, status, vocabulary, exitcodes, errors, kit, blame
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 9, top
    rooms = [p for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()]
    assert {r.name for r in rooms} >= set(ROOMS) | {"reference"}
    for room in rooms:
        doc = ast.get_docstring(ast.parse((room / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert "may import" in doc.lower(), f"qaconform/{room.name}/__init__.py does not say what the room may import"
