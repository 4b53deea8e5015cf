"""Where the kit's data folders are: spec/, suites/, loadtests/ and docs/ (with the example profile beside them).

In a checkout they sit at the top level, where people look for them; in an installed wheel they travel inside the
package (``qaconform/spec`` ...; setup.py copies them there at build time). Every module that needs one asks here,
so a user's own edited copy is one flag or environment variable away (``--spec DIR`` / ``QACONFORM_SPEC_DIR``,
``--suites DIR`` / ``QACONFORM_SUITES_DIR``, ``QACONFORM_LOADTESTS``). Also how the suites' pytest is started (its
command, folder and environment), the same for ``qaconform run`` and ``qaconform selftest``.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Mapping
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent

ENV = {"spec": "QACONFORM_SPEC_DIR", "suites": "QACONFORM_SUITES_DIR", "loadtests": "QACONFORM_LOADTESTS",
       "docs": "QACONFORM_DOCS_DIR"}
"""The environment variable that points each folder at a user's own copy."""

MARKER = {"spec": "openapi.yaml", "suites": "conftest.py", "loadtests": "mixed.py",
          "docs": "target-profile.schema.json"}
"""A file every genuine copy of the folder holds: a folder without it is not the kit's."""


class KitNotFound(RuntimeError):
    """A data folder of the kit is missing; the message says which variable to set."""


def kit_dir(name: str) -> Path:
    """The folder ``name`` (spec, suites or loadtests): the environment's choice, else the installed copy inside
    the package, else the checkout's top-level folder."""
    env = os.environ.get(ENV[name])
    candidates = [Path(env).expanduser().resolve()] if env else [PACKAGE / name, PACKAGE.parent / name]
    for candidate in candidates:
        if (candidate / MARKER[name]).is_file():
            return candidate
    where = " or ".join(str(c) for c in candidates)
    raise KitNotFound(f"cannot find the kit's {name}/ folder (looked in {where}); reinstall qaconform, or set "
                      f"{ENV[name]} to a copy of {name}/ holding {MARKER[name]}")


def spec_dir() -> Path:
    return kit_dir("spec")


def suites_dir() -> Path:
    return kit_dir("suites")


def loadtests_dir() -> Path:
    return kit_dir("loadtests")


def docs_dir() -> Path:
    """The pages of docs/ (the profile and the roles, CI, the report ...): inside the package once installed."""
    return kit_dir("docs")


def example_profile() -> Path:
    """``target.example.toml``, the commented example profile: inside the installed package, else the checkout's."""
    for candidate in (PACKAGE / "target.example.toml", PACKAGE.parent / "target.example.toml"):
        if candidate.is_file():
            return candidate
    raise KitNotFound(f"cannot find target.example.toml (looked in {PACKAGE} and {PACKAGE.parent}); reinstall "
                      "qaconform")


def pytest_cwd() -> Path:
    """The folder the suites' pytest runs in: the one that holds the qaconform package (the checkout, or
    site-packages), never the package itself. A Python started with ``-c`` (each xdist worker is) puts its working
    folder first on sys.path, and inside the installed package the kit's own ``qaconform/pytest/`` would shadow
    pytest there (every worker of a wheel install crashed with "module 'pytest' has no attribute 'hookimpl'")."""
    return PACKAGE.parent


def pytest_command() -> list[str]:
    """``python -m pytest`` over the kit's suites, the same from a checkout or an installed wheel.

    The root is the suites' parent folder, so test ids read ``suites/...`` everywhere; the options the checkout's
    pyproject.toml would add are given explicitly, because an installed kit has no pyproject.toml beside it.
    ``-P`` keeps the working folder off sys.path: inside an installed package it would let
    ``qaconform/target/profile.py`` shadow the standard library's ``profile`` (which cProfile, and so
    pytest-profiling, imports). ``no:unraisableexception``: that plugin runs full garbage collections in every process
    as it ends (measured: 0.2 s of CPU each time, twice per process, so about 2 s on a small machine's five workers,
    all after the last test) to find exceptions no test raised; the suites judge answers, not object finalizers.
    ``no:anyio``: no suite is asynchronous, and its plugin imports asyncio and anyio in every worker (0.2 s each).
    """
    suites = suites_dir()
    return [sys.executable, "-P", "-m", "pytest", str(suites), "--rootdir", str(suites.parent), "-p", "no:locust",
            "-p", "no:cacheprovider", "-p", "no:unraisableexception", "-p", "no:anyio", "--strict-markers"]


def cache_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The kit's cache folder (``$XDG_CACHE_HOME/qaconform``, else ``~/.cache/qaconform``): bytecode, hypothesis's
    caches and the suites' covering arrays, never the user's folder nor the kit's installation."""
    return Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "qaconform"


def installed_with_bytecode() -> bool:
    """Whether the kit's modules have their bytecode beside them (``__pycache__``, as pip writes it when it installs a
    wheel; an editable checkout or an installer that does not compile has none)."""
    source = Path(__file__)
    return (source.parent / "__pycache__" / f"{source.stem}.{sys.implementation.cache_tag}.pyc").is_file()


PASSWORD_NAMES_SAID = "QACONFORM_PASSWORD_NAMES_SAID"
"""Set in the suites' pytest (:func:`suite_env`): the command that started it has loaded the profile and said, once,
which password variables it read by their deprecated name (qaconform.target.password_names), so its pytest
processes say it no more."""


def suite_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment of the suites' pytest process.

    Under ``PYTHONDONTWRITEBYTECODE`` (common in container images) every pytest process, and so every worker of a
    parallel run, would compile ~400 modules again for assertion rewriting (about 2.5 s of CPU each, 4 of them at
    once on a small CI machine). Their bytecode goes to a cache folder of the kit instead, never beside the
    sources, which is what that setting protects; a ``PYTHONPYCACHEPREFIX`` the user set is kept as it is. Not when
    the kit was installed with its bytecode (pip compiles a wheel as it installs it, and its dependencies alike):
    Python reads only the prefix's bytecode once one is set, so a run in a new container, whose cache folder is
    empty, would compile everything again (3.3 s more per run, measured with the wheel, issue 31) where the
    installation's bytecode is there to read.

    Hypothesis keeps its caches (unicode tables, the constants of local modules) in ``.hypothesis/`` of the folder
    it was imported in: the user's folder (where ``qaconform run`` started the fork server) or the kit's
    installation. They go to the kit's cache folder too (``HYPOTHESIS_STORAGE_DIRECTORY``, unless the user set it):
    a CI build in a fresh folder holding only its profile must find no more than its reports there afterwards.
    """
    env = dict(environ, PYTHONUNBUFFERED="1")
    env[PASSWORD_NAMES_SAID] = "1"  # the command that starts the suites has loaded the profile and said it (qa18)
    base = cache_dir(env)
    if not env.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        with contextlib.suppress(OSError):  # not writable: hypothesis's default, as before
            (base / "hypothesis").mkdir(parents=True, exist_ok=True)
            env["HYPOTHESIS_STORAGE_DIRECTORY"] = str(base / "hypothesis")
    if env.get("PYTHONDONTWRITEBYTECODE") and not env.get("PYTHONPYCACHEPREFIX") and not installed_with_bytecode():
        prefix = base / "pycache"
        try:
            prefix.mkdir(parents=True, exist_ok=True)
        except OSError:
            return env  # no writable cache: compile every time, as asked
        env.pop("PYTHONDONTWRITEBYTECODE")
        env["PYTHONPYCACHEPREFIX"] = str(prefix)
    return env
