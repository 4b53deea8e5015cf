"""Hypothesis's constants of the local modules gathered in the fork server (qaconform/pytest/local_constants.py): a
forked worker finds the server's modules already seen and reads only the ones it imports itself, gets the same set
as gathering everything would, and keeps its own storage folder; a hypothesis without that state is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import types

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
    server = forked_workers.ForkServer({**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": str(server_store)})
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
    # hypothesis's "Slow code in plugin" warning (a disk read while its plugin initialises) would reach the run's
    # terminal from the server, whose stderr is this process's
    assert "Slow code in plugin" not in capfd.readouterr().err + done.stderr


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
