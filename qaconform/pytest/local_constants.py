"""Hypothesis's "local constants" and its unicode tables gathered once, in the fork server, instead of once in every
worker.

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

Hypothesis's unicode tables (:func:`unicode_tables`) likewise: which code points each codec can encode is computed
by encoding all 1.1 million of them, 2.6 s of CPU, and kept on disk in hypothesis's storage folder. On a machine
where that folder is new (a fresh CI container, a new cache folder) every worker that draws text computed it for
itself at once: 11 s of CPU in a 5-worker run, 6 s of its wall time at +25 ms (issue 31). The server computes it
once (or reads it, 16 ms) and its workers inherit it; the tables depend only on the interpreter's unicode data.
Computed in the server itself, those 3 s of CPU came before its first fork (the first test at 8 s instead of 3):
:func:`tables_in_background` has a child of the server compute and write them while the server imports; the server
reads them if the child is done by then, and the workers read them from the folder otherwise.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any

_HOME = "__hypothesis_home_directory"
"""hypothesis.configuration's storage folder, set on first use from ``HYPOTHESIS_STORAGE_DIRECTORY``: the server's
use must not fix it for the workers (each reads its own environment)."""
_FIRST_SIDE_EFFECT = "_first_postinit_what"
"""hypothesis.configuration's record of the first disk access after initialisation (its side-effect warnings)."""


CODECS = ("utf-8", "ascii")
"""The codecs schemathesis draws text in: its generation config's (utf-8 unless a config says otherwise) for bodies
and parameters, ascii for headers."""


def precompute() -> bool:
    """Gather the constants of the local modules imported so far; returns whether it did. Call it last in the fork
    server, once it has imported everything it will."""
    try:
        from hypothesis.internal.conjecture import providers
    except Exception:  # noqa: BLE001 - no hypothesis (or a broken one): nothing to gather
        return False
    if not all(hasattr(providers, name) for name in (
            "_get_local_constants", "_seen_modules", "_local_constants", "_sys_modules_len")):
        return False
    seen = set(providers._seen_modules)
    local, length = providers._local_constants, providers._sys_modules_len
    with _as_a_worker() as ready:
        if not ready:
            return False
        try:
            providers._get_local_constants()
            return True
        except Exception:  # noqa: BLE001 - a head start only: the worker gathers them as it always did
            providers._seen_modules.clear()
            providers._seen_modules.update(seen)
            providers._local_constants, providers._sys_modules_len = local, length
            return False


def unicode_tables(codecs: tuple[str, ...] = CODECS) -> bool:
    """Hypothesis's unicode tables in this process's memory (the categories of every code point, and which code
    points each of ``codecs`` encodes), read from its storage folder or computed and written there; returns
    whether all were. Each table is computed by hypothesis's own function, whose result it keeps in memory
    (``functools.cache`` and a module global): a forked worker asks it and gets the same answer without the work."""
    try:
        from hypothesis.internal import charmap
    except Exception:  # noqa: BLE001 - no hypothesis: nothing to prepare
        return False
    if not (hasattr(charmap, "charmap") and hasattr(charmap, "intervals_from_codec")):
        return False
    with _as_a_worker() as ready:
        if not ready:
            return False
        try:
            charmap.charmap()
            for codec in codecs:
                charmap.intervals_from_codec(codec)
            return True
        except Exception:  # noqa: BLE001 - a head start only: a worker computes what is missing, as it always did
            return False


def tables_in_background(codecs: tuple[str, ...] = CODECS) -> Callable[[], bool]:
    """Start :func:`unicode_tables` in a child of this process (forked: it writes the tables to hypothesis's storage
    folder and ends); returns what to call once this process has done its own work: if the child has ended, it reads
    the tables into this process's memory (16 ms) and says True. It never waits: on a new cache folder the child
    computes for about 3 s, and a worker forked before it ends reads the tables from the folder when it first draws
    text (hypothesis reads them lazily), or computes them as it always did if it draws even sooner."""
    try:
        import hypothesis.internal.charmap  # noqa: F401 - imported once, before the fork, for both processes
        parent = os.getpid()
        pid = os.fork()
    except Exception:  # noqa: BLE001 - no hypothesis, or no fork: the tables are prepared in this process, if at all
        return lambda: unicode_tables(codecs)
    if pid == 0:  # the child: silent whatever happens (the server's stderr is the run's terminal), holding none of
        code = 1  # the server's sockets or pipes (its stdin ends the server when the run closes it)
        try:
            _end_with(parent)
            for fd in [int(name) for name in os.listdir("/proc/self/fd")]:
                if fd > 2:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            code = 0 if unicode_tables(codecs) else 1
        finally:
            os._exit(code)

    def finish() -> bool:
        try:
            if os.waitpid(pid, os.WNOHANG) == (0, 0):
                return False  # still computing: it goes on and writes them (it ends by itself)
        except ChildProcessError:
            pass  # reaped already
        return unicode_tables(codecs)

    return finish


def _end_with(parent: int) -> None:
    """Have the kernel end this process when ``parent`` ends (Linux's ``PR_SET_PDEATHSIG``): a run that ends before
    the tables are computed leaves no process behind (a table half computed is never written: hypothesis writes a
    temporary file and renames it)."""
    import ctypes
    import signal

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it ended before the request was made
        os._exit(1)


@contextlib.contextmanager
def _as_a_worker() -> Iterator[bool]:
    """The body runs as in a worker whose session has started (hypothesis's disk reads then warn of no slow plugin);
    yields whether hypothesis has the state this needs. Afterwards its storage folder and side-effect record are put
    back, so that each worker still reads its own environment (``HYPOTHESIS_STORAGE_DIRECTORY``)."""
    try:
        import _hypothesis_globals
        from hypothesis import configuration
    except Exception:  # noqa: BLE001 - no hypothesis (or a broken one)
        yield False
        return
    config_globals = vars(configuration)
    if not (_HOME in config_globals and _FIRST_SIDE_EFFECT in config_globals
            and hasattr(_hypothesis_globals, "in_initialization")):
        yield False
        return
    config_state: dict[str, Any] = {name: config_globals[name] for name in (_HOME, _FIRST_SIDE_EFFECT)}
    initializing = _hypothesis_globals.in_initialization
    # The server has loaded hypothesis's pytest plugin, which counts as "initialising": its cache reads would warn
    # ("Slow code in plugin") on the run's terminal. A worker does this after its session started, as here.
    _hypothesis_globals.in_initialization = 0
    try:
        yield True
    finally:
        _hypothesis_globals.in_initialization = initializing
        config_globals.update(config_state)
