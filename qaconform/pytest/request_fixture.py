"""The ``request`` pseudo-fixture without ``inspect.signature`` each time a fixture asks for it (issue 44).

Why: pytest makes a new ``RequestFixtureDef`` every time any fixture that takes ``request`` is resolved for a test,
its cached session fixtures included (``FixtureDef.execute`` resolves each of a fixture's arguments again for every
test), and each one asks ``getfuncargnames`` for the argument names of its ``lambda: request``: about 30 us of
``inspect.signature`` a time. A suite test of the matrices resolves about 15 of them (``qc_target``, ``run_tag``,
pytest-base-url's ``base_url`` and ``_verify_url``, the read-ahead fixtures, ...): measured 16,971 for test_matrix.py's
1,131 tests, about 0.45 ms of CPU per test, for the ~4,600 tests of a run in its five workers.

The answer for that lambda is always ``()`` (it takes no argument), so the names are looked up by the code object of
that one lambda and everything else goes to pytest's own ``getfuncargnames`` unchanged. If the pytest in use has no
such lambda (another version made it otherwise), nothing is changed: the kit is only slower, never different.

PYTEST_DONT_REWRITE: plugin code, no assertion to explain."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from _pytest import fixtures

_ORIGINAL: Callable[..., tuple[str, ...]] = fixtures.getfuncargnames


def _request_lambda_code() -> types.CodeType | None:
    """The code object of ``RequestFixtureDef``'s ``lambda: request``, if this pytest has it and it takes nothing."""
    request_def = getattr(fixtures, "RequestFixtureDef", None)
    init = getattr(request_def, "__init__", None)
    code = getattr(init, "__code__", None)
    if code is None:
        return None
    lambdas = [c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == "<lambda>"]
    if len(lambdas) != 1:
        return None
    found = lambdas[0]
    takes = found.co_argcount + found.co_posonlyargcount + found.co_kwonlyargcount
    return found if takes == 0 and not found.co_flags & (0x04 | 0x08) else None  # no *args, no **kwargs


_LAMBDA = _request_lambda_code()


def _argnames(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, ...]:
    """pytest's ``getfuncargnames``, with the known answer for the ``request`` pseudo-fixture's lambda."""
    if getattr(function, "__code__", None) is _LAMBDA:
        return ()
    return _ORIGINAL(function, *args, **kwargs)


def install() -> bool:
    """Answer the lambda's argument names directly; False (and nothing changed) when this pytest has no such lambda."""
    if _LAMBDA is None:
        return False
    fixtures.getfuncargnames = _argnames  # type: ignore[attr-defined]
    return True


def uninstall() -> None:
    """pytest's own ``getfuncargnames`` again (a process that runs pytest in-process more than once)."""
    fixtures.getfuncargnames = _ORIGINAL  # type: ignore[attr-defined]
