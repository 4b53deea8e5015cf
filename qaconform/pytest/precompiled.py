"""The suites' own modules compiled once, in the fork server, instead of once in every worker.

Why: pytest rewrites the asserts of every test module and conftest it imports, and Python compiles every module
that has no bytecode cache. Neither is kept when bytecode is not written (``PYTHONDONTWRITEBYTECODE=1``, which CI
images and our own ``.ci/run`` set), and on a fresh checkout nothing is kept yet: five workers then parse, rewrite
and compile the same ~40 files at the same moment, about 0.5 s of CPU each before their first test. The fork server
(:mod:`qaconform.pytest.forked_workers`) compiles them once; its forked workers inherit the code objects.

A code object is used only for the exact bytes it was compiled from (their hash is compared on every use), and only
in the form the importer asks for: pytest's rewritten form for the modules pytest rewrites, the plain form for the
rest. Anything else (an edited file, a module outside the suites, a pytest whose rewriting we cannot call) compiles
as it always did: the cache can only make a worker faster, never change what it runs.
"""

from __future__ import annotations

import fnmatch
import importlib.machinery
import importlib.util
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

REWRITTEN_NAMES = ("conftest.py", "test_*.py", "*_test.py")
"""Files pytest rewrites in the suites (its default ``python_files`` and conftests); the rest are imported plain."""

_plain: dict[str, tuple[bytes, types.CodeType]] = {}
"""Path -> (source hash, code) of the modules imported plain."""
_rewritten: dict[str, tuple[bytes, types.CodeType]] = {}
"""Path -> (source hash, code) of pytest's rewritten test modules and conftests."""


def compile_tree(folder: Path) -> int:
    """Compile every ``.py`` under ``folder`` in the form its importer will ask for; returns how many. Files that
    cannot be read or compiled are left to the worker (which reports them as it always would)."""
    import ast

    rewrite_asserts: Callable[..., None] | None
    try:
        from _pytest.assertion.rewrite import rewrite_asserts
    except ImportError:  # a pytest without it: plain modules only
        rewrite_asserts = None

    count = 0
    for path in sorted(folder.rglob("*.py")):
        try:
            rewritten = any(fnmatch.fnmatch(path.name, pattern) for pattern in REWRITTEN_NAMES)
            if _cached_on_disk(path, rewritten):
                continue
            source = path.read_bytes()
            digest = importlib.util.source_hash(source)
            if not rewritten:
                _plain[str(path)] = (digest, compile(source, str(path), "exec", dont_inherit=True))
            elif rewrite_asserts is not None:
                tree = ast.parse(source, filename=str(path))
                rewrite_asserts(tree, source, str(path), None)
                _rewritten[str(path)] = (digest, compile(tree, str(path), "exec", dont_inherit=True))
            else:
                continue
            count += 1
        except (OSError, SyntaxError, ValueError):
            continue
    return count


def _cached_on_disk(path: Path, rewritten: bool) -> bool:
    """Whether the worker will find a bytecode cache of ``path`` newer than it (then compiling here is wasted): the
    kit keeps one unless nothing may be written (qaconform.kit.suite_env)."""
    try:
        if rewritten:
            from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir

            cached = get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)
        else:
            cached = Path(importlib.util.cache_from_source(str(path)))
        return cached.stat().st_mtime >= path.stat().st_mtime
    except (ImportError, OSError, ValueError):
        return False


def _hit(table: dict[str, tuple[bytes, types.CodeType]], path: str, source: bytes) -> types.CodeType | None:
    found = table.get(path)
    if found is None or found[0] != importlib.util.source_hash(source):
        return None
    return found[1]


def install() -> None:
    """In a forked worker: let the importer and pytest's rewriting take the code compiled in the server."""
    if not (_plain or _rewritten):
        return
    loader = importlib.machinery.SourceFileLoader
    plain_compile = loader.source_to_code

    def source_to_code(self: Any, data: Any, path: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(data, bytes | bytearray):
            code = _hit(_plain, str(path), bytes(data))
            if code is not None:
                return code
        return plain_compile(self, data, path, *args, **kwargs)

    loader.source_to_code = source_to_code  # type: ignore[method-assign,assignment]

    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    rewrite_test = rewrite._rewrite_test

    def cached_rewrite(fn: Path, config: Any) -> tuple[bytes, types.CodeType]:
        # The server rewrote without a config: the same code unless the project asks for assertion-pass hooks.
        if config is None or not config.getini("enable_assertion_pass_hook"):
            source = fn.read_bytes()
            code = _hit(_rewritten, str(fn), source)
            if code is not None:
                return importlib.util.source_hash(source), code
        return rewrite_test(fn, config)

    rewrite._rewrite_test = cached_rewrite
