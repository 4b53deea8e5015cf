"""Hypothesis's constants of the local modules gathered in the fork server (qaconform/pytest/local_constants.py): a
forked worker finds the server's modules already seen and reads only the ones it imports itself, gets the same set
as gathering everything would, and keeps its own storage folder; a hypothesis without that state is left alone."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from hypothesis.internal.conjecture import providers

from qaconform.pytest import forked_workers, local_constants

_WORKER = """
import sys
import _hypothesis_globals
from hypothesis import configuration
from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants, constants_from_module, is_local_module_file

print("inherited", configuration._first_postinit_what is None, _hypothesis_globals.in_initialization)
_hypothesis_globals.in_initialization = 0  # as in a worker whose session has started
print("seen", all(id(sys.modules[name]) in providers._seen_modules
                  for name in ("qaconform.contract", "qaconform.pytest.plugin", "qaconform.pytest.fixtures")))
read = []
real = providers.constants_from_module
def counted(module, **kwargs):
    read.append(module.__name__)
    return real(module, **kwargs)
providers.constants_from_module = counted
sys.path.insert(0, {extra!r})
import qc_probe_constants
got = providers._get_local_constants()
print("read", ",".join(read), "qc-probe-literal" in got.strings)
everything = Constants()
for module in list(sys.modules.values()):
    path = getattr(module, "__file__", None)
    if path is not None and is_local_module_file(path):
        everything |= constants_from_module(module)
same = all(sorted(map(repr, getattr(got, kind))) == sorted(map(repr, getattr(everything, kind)))
           for kind in ("integers", "floats", "bytes", "strings"))
print("same", same, len(everything) > 1)
print("storage", configuration.storage_directory("probe", intent_to_write=False).path.parent)
from hypothesis.internal import charmap
before = charmap.intervals_from_codec.cache_info()
inherited = charmap._charmap is not None
for codec in ("utf-8", "ascii"):
    charmap.intervals_from_codec(codec)
after = charmap.intervals_from_codec.cache_info()
print("tables", inherited, after.misses - before.misses, after.hits - before.hits)
"""


@pytest.mark.skipif(not forked_workers.enabled({}), reason="workers are forked on Linux only")
def test_a_forked_worker_reads_only_the_modules_it_imported_and_gets_the_same_constants(
    tmp_path_factory: pytest.TempPathFactory, capfd: pytest.CaptureFixture[str]
) -> None:
    """The server gathered the constants of the kit's modules: the worker's collection reads only the module it
    imported itself (its constant included), the set equals gathering over every local module from scratch, and
    the worker's storage folder is the one its own environment names, not the server's; the server warned of
    nothing."""
    extra = tmp_path_factory.mktemp("probe_modules")  # a local module: not in site-packages nor named test_*
    (extra / "qc_probe_constants.py").write_text("MARK = 'qc-probe-literal'\n")
    server_store, worker_store = tmp_path_factory.mktemp("server_store"), tmp_path_factory.mktemp("worker_store")
    server_env = {**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": str(server_store)}
    # a new storage folder: the server's child computes the unicode tables and writes them there, by itself
    first = forked_workers.ForkServer(server_env)
    try:
        written = _wait_for_tables(server_store)
    finally:
        first.stop()
    assert written, sorted(str(p) for p in server_store.rglob("*"))
    server = forked_workers.ForkServer(server_env)  # the next run's server reads them and its workers inherit them
    try:
        done = subprocess.run(
            [sys.executable, "-S", "-I", forked_workers.worker_shim.__file__, "-u", "-c",
             _WORKER.format(extra=str(extra))],
            cwd=extra, capture_output=True, text=True, timeout=90,
            env={**os.environ, forked_workers.worker_shim.ENV: server.path,
                 "HYPOTHESIS_STORAGE_DIRECTORY": str(worker_store)})
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # inherited: the plugin's "initialising" count and its side-effect record as the imports left them
    assert lines[0] == "inherited True 1", done.stdout
    assert lines[1:4] == ["seen True", "read qc_probe_constants True", "same True True"], done.stdout
    assert lines[4] == f"storage {worker_store}", done.stdout
    # the unicode tables: read by the server from its folder, inherited by the worker, which neither computes them
    # (no cache miss) nor writes them to its own folder
    assert lines[5] == "tables True 0 2", done.stdout
    assert not (worker_store / "unicode_data").exists()
    # hypothesis's "Slow code in plugin" warning (a disk read while its plugin initialises) would reach the run's
    # terminal from the server, whose stderr is this process's
    assert "Slow code in plugin" not in capfd.readouterr().err + done.stderr


def _wait_for_tables(store: Path, timeout: float = 60.0) -> bool:
    """Whether hypothesis's charmap and both codecs' tables appear in ``store`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        names = {p.name for p in store.rglob("*.json.gz")}
        if "charmap.json.gz" in names and all(any(codec in n for n in names) for codec in ("utf-8", "ascii")):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture()
def new_module(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    """A module hypothesis has not seen yet, so that gathering has something to read."""
    folder = tmp_path_factory.mktemp("unseen")
    (folder / "qc_unseen_module.py").write_text("VALUE = 'qc-unseen-literal'\n")
    module = types.ModuleType("qc_unseen_module")
    module.__file__ = str(folder / "qc_unseen_module.py")
    monkeypatch.setitem(sys.modules, "qc_unseen_module", module)
    return module


def test_a_hypothesis_without_that_private_function_is_left_alone(
    monkeypatch: pytest.MonkeyPatch, new_module: types.ModuleType
) -> None:
    monkeypatch.delattr(providers, "_get_local_constants")
    assert local_constants.precompute() is False
    assert id(new_module) not in providers._seen_modules


def test_an_error_while_gathering_leaves_hypothesis_as_it_was(
    monkeypatch: pytest.MonkeyPatch, new_module: types.ModuleType
) -> None:
    """Modules marked seen before the error would never be read by the worker: all of it is put back."""
    before = (set(providers._seen_modules), providers._local_constants, providers._sys_modules_len)
    calls: list[str] = []

    def failing(path: str) -> bool:
        calls.append(path)
        if path == new_module.__file__:
            raise OSError("unreadable")
        return False

    monkeypatch.setattr(providers, "is_local_module_file", failing)
    assert local_constants.precompute() is False
    assert new_module.__file__ in calls  # it did try: the error was met, not avoided
    assert (set(providers._seen_modules), providers._local_constants, providers._sys_modules_len) == before


def test_a_hypothesis_without_its_unicode_table_functions_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from hypothesis.internal import charmap

    monkeypatch.delattr(charmap, "intervals_from_codec")
    assert local_constants.unicode_tables() is False


def test_an_error_while_computing_the_tables_is_a_head_start_lost_not_a_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A codec hypothesis refuses (or any error) leaves the worker to compute the tables, as it always did, and
    leaves hypothesis's storage state as it found it."""
    from hypothesis import configuration

    before = configuration.__dict__[local_constants._HOME]
    assert local_constants.unicode_tables(("no-such-codec",)) is False
    assert configuration.__dict__[local_constants._HOME] == before


_ENDS_FIRST = """
import os, sys
import psutil
from qaconform.pytest import local_constants
local_constants.tables_in_background(("utf-8", "ascii", "latin-1"))  # a new folder: seconds of work
print(" ".join(str(c.pid) for c in psutil.Process().children()), flush=True)
os._exit(0)
"""


@pytest.mark.skipif(not forked_workers.enabled({}), reason="the server forks on Linux only")
def test_the_tables_child_ends_with_the_server_and_leaves_no_process_behind(tmp_path: Path) -> None:
    """A run that ends while the tables are still being computed (a refused profile, a short --only run) must leave
    no process behind: the child ends with its parent, and writes nothing half done."""
    import psutil

    done = subprocess.run([sys.executable, "-c", _ENDS_FIRST], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    children = [int(pid) for pid in done.stdout.split()]
    assert len(children) == 1, done.stdout
    deadline = time.monotonic() + 1.0  # its work takes seconds: alive after this, it outlived its parent
    while psutil.pid_exists(children[0]) and time.monotonic() < deadline:
        with contextlib.suppress(psutil.Error):
            if psutil.Process(children[0]).status() == psutil.STATUS_ZOMBIE:
                break
        time.sleep(0.02)
    alive = psutil.pid_exists(children[0]) and psutil.Process(children[0]).status() != psutil.STATUS_ZOMBIE
    assert not alive, "the tables' child outlived the server"
    assert not list(tmp_path.rglob("codec-*")), "a table half computed was written"
