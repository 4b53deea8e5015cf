"""The suites' modules compiled once in the fork server (qaconform/pytest/precompiled.py): a worker takes the code
compiled from the same bytes, in the form its importer asks for, and compiles anything else as it always did.

Each case runs in its own interpreter: install() patches the importer and pytest's rewriting process-wide."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from qaconform.pytest import forked_workers


def _run(tmp_path: Path, script: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    folder = tmp_path / "suites"
    folder.mkdir()
    (folder / "helper_mod.py").write_text("WHO = 'source'\n")
    (folder / "test_mod.py").write_text("def check(a, b):\n    assert a == b\n")
    return folder


def test_a_plain_module_is_imported_from_the_code_compiled_for_the_same_bytes(tree: Path, tmp_path: Path) -> None:
    out = _run(tmp_path, f"""
        import importlib.util, sys
        from pathlib import Path
        from qaconform.pytest import precompiled
        folder = Path({str(tree)!r})
        print(precompiled.compile_tree(folder))
        path = str(folder / "helper_mod.py")
        digest, _ = precompiled._plain[path]
        # a stand-in with a telling value, under the same bytes' hash: the importer must take it
        precompiled._plain[path] = (digest, compile("WHO = 'precompiled'", path, "exec"))
        precompiled.install()
        sys.path.insert(0, str(folder))
        import helper_mod
        print(helper_mod.WHO)
    """)
    assert out == ["2", "precompiled"]


def test_an_edited_module_is_compiled_from_its_new_bytes(tree: Path, tmp_path: Path) -> None:
    out = _run(tmp_path, f"""
        import sys
        from pathlib import Path
        from qaconform.pytest import precompiled
        folder = Path({str(tree)!r})
        precompiled.compile_tree(folder)
        (folder / "helper_mod.py").write_text("WHO = 'edited'\\n")
        precompiled.install()
        sys.path.insert(0, str(folder))
        import helper_mod
        print(helper_mod.WHO)
    """)
    assert out == ["edited"]


def test_a_test_module_gets_pytests_rewritten_asserts_from_the_cache(tree: Path, tmp_path: Path) -> None:
    """The cached form is pytest's rewriting (an assert that fails explains its operands), taken only while the
    file's bytes are unchanged."""
    out = _run(tmp_path, f"""
        from pathlib import Path
        from _pytest.assertion import rewrite
        from qaconform.pytest import precompiled
        folder = Path({str(tree)!r})
        precompiled.compile_tree(folder)
        path = folder / "test_mod.py"
        cached = precompiled._rewritten[str(path)][1]
        precompiled.install()
        digest, code = rewrite._rewrite_test(path, None)
        print(code is cached)
        scope = {{}}
        exec(code, scope)
        try:
            scope["check"](1, 2)
        except AssertionError as exc:
            print("explained" if "1 == 2" in str(exc) else "bare")
        path.write_text("def check(a, b):\\n    assert a != b\\n")
        print(rewrite._rewrite_test(path, None)[1] is cached)
    """)
    assert out == ["True", "explained", "False"]


def test_a_module_with_a_fresh_bytecode_cache_is_left_to_it(tree: Path, tmp_path: Path) -> None:
    """Where the worker will read a cache (the kit keeps one unless nothing may be written), compiling in the server
    would be CPU spent for nothing."""
    out = _run(tmp_path, f"""
        import importlib.util, py_compile
        from pathlib import Path
        from qaconform.pytest import precompiled
        folder = Path({str(tree)!r})
        helper = str(folder / "helper_mod.py")
        py_compile.compile(helper, cfile=importlib.util.cache_from_source(helper))
        test_mod = str(folder / "test_mod.py")
        print(precompiled.compile_tree(folder), helper in precompiled._plain, test_mod in precompiled._rewritten)
    """)
    assert out == ["1", "False", "True"]


@pytest.mark.skipif(not forked_workers.enabled({}), reason="workers are forked on Linux only")
def test_the_fork_server_compiles_the_suites_and_its_workers_take_that_code(tree: Path, tmp_path: Path) -> None:
    """End to end: in a worker forked from a real server, the importer's compile step for a suites module returns
    the code the server compiled (a fresh copy of the suites: no bytecode cache of it exists anywhere), and the
    contract is already read."""
    (tree / "conftest.py").write_text("")  # what makes a folder the kit's suites
    helper = tree / "helper_mod.py"
    source = ("import sys; from importlib.machinery import SourceFileLoader; "
              "from qaconform.pytest import precompiled; "
              f"p = {str(helper)!r}; data = open(p, 'rb').read(); "
              "code = SourceFileLoader('helper_mod', p).source_to_code(data, p); "
              "print(code is precompiled._plain[p][1], 'qaconform.contract' in sys.modules, "
              "bool(__import__('qaconform.contract').contract._load.cache_info().currsize))")
    server = forked_workers.ForkServer({**os.environ, "QACONFORM_SUITES_DIR": str(tree)})
    try:
        done = subprocess.run([sys.executable, "-S", "-I", forked_workers.worker_shim.__file__, "-u", "-c", source],
                              cwd=tmp_path, env={**os.environ, forked_workers.worker_shim.ENV: server.path},
                              capture_output=True, text=True, timeout=60)
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True"]
