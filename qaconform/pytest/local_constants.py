"""Hypothesis's "local constants" gathered once, in the fork server, instead of once in every worker.

Why: at collection, hypothesis's pytest plugin collects the literals of every *local* module in ``sys.modules`` (not
in site-packages nor the standard library: here the editable-installed kit and the suites' helpers), reading its
source (or hypothesis's cache of it) and, without that cache, parsing it. It remembers which module objects it has
seen (by id) and only looks at new ones when ``len(sys.modules)`` changed. Done in the fork server after its imports,
a forked worker inherits that memory and looks only at the modules it imported itself: it saves a worker 0.05-0.09 s
of CPU with hypothesis's cache on disk, 0.3-0.5 s without (a fresh CI machine); measured on a shared machine, issue 31.

The result is the same set: it is a union over modules, each module's part depends only on its source, and a
forked worker still holds every module object the server had. Hypothesis's private state is used, so anything
unexpected (a hypothesis without it, an exception) leaves that state as it was: the worker then does it all, as
before.
"""

from __future__ import annotations

from typing import Any

_HOME = "__hypothesis_home_directory"
"""hypothesis.configuration's storage folder, set on first use from ``HYPOTHESIS_STORAGE_DIRECTORY``: the server's
use must not fix it for the workers (each reads its own environment)."""
_FIRST_SIDE_EFFECT = "_first_postinit_what"
"""hypothesis.configuration's record of the first disk access after initialisation (its side-effect warnings)."""


def precompute() -> bool:
    """Gather the constants of the local modules imported so far; returns whether it did. Call it last in the fork
    server, once it has imported everything it will."""
    try:
        import _hypothesis_globals
        from hypothesis import configuration
        from hypothesis.internal.conjecture import providers
    except Exception:  # noqa: BLE001 - no hypothesis (or a broken one): nothing to gather
        return False
    config_globals = vars(configuration)
    needed = (_HOME in config_globals and _FIRST_SIDE_EFFECT in config_globals
              and hasattr(_hypothesis_globals, "in_initialization")
              and all(hasattr(providers, name) for name in (
                  "_get_local_constants", "_seen_modules", "_local_constants", "_sys_modules_len")))
    if not needed:
        return False
    config_state: dict[str, Any] = {name: config_globals[name] for name in (_HOME, _FIRST_SIDE_EFFECT)}
    seen = set(providers._seen_modules)
    local, length = providers._local_constants, providers._sys_modules_len
    initializing = _hypothesis_globals.in_initialization
    # The server has loaded hypothesis's pytest plugin, which counts as "initialising": its cache reads would warn
    # ("Slow code in plugin") on the run's terminal. A worker does this after its session started, as here.
    _hypothesis_globals.in_initialization = 0
    done = False
    try:
        providers._get_local_constants()
        done = True
    except Exception:  # noqa: BLE001 - a head start only: the worker gathers them as it always did
        providers._seen_modules.clear()
        providers._seen_modules.update(seen)
        providers._local_constants, providers._sys_modules_len = local, length
    finally:
        _hypothesis_globals.in_initialization = initializing
        config_globals.update(config_state)
    return done
