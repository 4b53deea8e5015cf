"""The blind rounds' hooks around every call are one list (qaconform/reference/request_hooks.py): dispatch.py runs
the list by stage and names no round, so the next round adds an entry there and never edits dispatch.py."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from typing import Any

import pytest

from qaconform.reference import request_hooks
from qaconform.reference.request_hooks import HOOKS, Hook

DISPATCH = Path(request_hooks.__file__).with_name("dispatch.py")


def test_dispatch_imports_no_rounds_module() -> None:
    """Derived, not listed: whatever module request_hooks imports for a round, dispatch.py must not import it (a
    list of names here would have to be edited by every round, the very edit the hook list removes)."""
    tree = ast.parse(DISPATCH.read_text(encoding="utf-8"))
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    hooked: set[str] = set()
    for module in ("request_hooks.py", "hooks_late.py"):  # hooks_late: the rounds' stages as data, session 26 on
        hooks_tree = ast.parse(DISPATCH.with_name(module).read_text(encoding="utf-8"))
        hooked |= {alias.name for node in ast.walk(hooks_tree) if isinstance(node, ast.ImportFrom)
                   and node.module is None and node.level == 1 for alias in node.names}
    assert {"blind8_paths", "blind_round9", "combos2_paths", "history_faults", "blind_round97"} <= hooked, hooked
    assert not names & hooked, f"dispatch.py imports a round's module: {sorted(names & hooked)}"
    assert "request_hooks" in names
    rounds = [h.name for h in HOOKS]
    assert len(rounds) == len(set(rounds)), f"two hooks share a name: {rounds}"
    assert {"blind8", "blind9", "blind10", "blindh", "blindp", "combos2", "round97", "round102"} <= set(rounds), rounds


def test_a_new_hook_runs_at_its_stages_in_list_order(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    async def before(svc: Any, op: str, request: Any, caller: Any, handler: Any) -> Any:
        seen.append(f"before {op}")
        return "replaced"

    def after(svc: Any, op: str, request: Any, caller: Any, response: Any) -> Any:
        seen.append(f"after {response}")
        return f"{response}+new"

    monkeypatch.setattr(request_hooks, "HOOKS", [
        Hook("first", after=lambda svc, op, request, caller, response: f"{response}+first"),
        Hook("new", before=before, after=after, refusal_body=lambda request, exc, body: {**body, "new": True}),
    ])
    assert asyncio.run(request_hooks.before(None, "lockNode", None, None, None)) == "replaced"  # type: ignore[arg-type]
    assert request_hooks.after(None, "lockNode", None, None, "r") == "r+first+new"  # type: ignore[arg-type]
    assert seen == ["before lockNode", "after r+first"]
    assert request_hooks.refusal_body(None, None, {"error": "x"}) == {"error": "x", "new": True}  # type: ignore[arg-type]
    assert request_hooks.refusal(None, "lockNode", None, None, None) is None  # type: ignore[arg-type]
