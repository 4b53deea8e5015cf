"""The contract as data: spec/ loaded once, for the suites, the report and the load harness.

Hard rule 1 of the architecture says spec/ is the single source of the contract, so nothing else re-types a
field list: a suite asks ``contract.validate("question-list.json", body)`` and a report asks
``contract.rule("COMMENT-4")``. Loading is cached because every test uses the same files and compiling the
validators is the expensive part.

The contract's parts, one module each: ``schemas`` (the schema files, their validators, the list envelope),
``operations`` (the 19 operations, their parameters and paths under ``API_PREFIX``), ``rules`` (the normative
statements), ``dimensions`` (the circumstances each rule is crossed with); ``spec`` holds them together as one
:class:`Contract`, and ``files`` is what they share (where spec/ is, its YAML, :class:`ContractError`). Every name
callers use is imported from here (``from qaconform.contract import Rule, load_contract, path``).

May import: ``qaconform.kit`` (where spec/ is), jsonschema, referencing and PyYAML; nothing else of the package,
never pytest or requests (the Locust processes import it). The reference server never imports it (hard rule 2).
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from qaconform.contract.dimensions import NONE, READER, Dimensions, RuleDimensions, parse_dimensions
from qaconform.contract.files import SPEC_DIR_ENV, ContractError
from qaconform.contract.operations import API_PREFIX, TRACKER, Operation, Parameter
from qaconform.contract.rules import Rule
from qaconform.contract.schemas import ENVELOPE_SCHEMA, Envelope, SchemaError
from qaconform.contract.spec import Contract

__all__ = [
    "API_PREFIX", "ENVELOPE_SCHEMA", "NONE", "READER", "SPEC_DIR_ENV", "TRACKER", "Contract", "ContractError",
    "Dimensions", "Envelope", "Operation", "Parameter", "Rule", "RuleDimensions", "SchemaError", "default_spec_dir",
    "envelope", "load_contract", "parse_dimensions", "path",
]


def default_spec_dir() -> Path:
    """Where spec/ is: $QACONFORM_SPEC_DIR, else inside the installed package, else the checkout's (qaconform.kit)."""
    from qaconform.kit import KitNotFound, spec_dir

    try:
        return spec_dir()
    except KitNotFound as exc:
        raise ContractError(str(exc)) from None


@cache
def _load(spec_dir: Path) -> Contract:
    return Contract(spec_dir)


def load_contract(spec_dir: str | os.PathLike[str] | None = None) -> Contract:
    """The Contract for ``spec_dir`` (default: :func:`default_spec_dir`), loaded once per directory."""
    if spec_dir is None:
        return _found_in(os.environ.get(SPEC_DIR_ENV))
    return _load(Path(spec_dir).resolve())


@cache
def _found_in(env_choice: str | None) -> Contract:
    """The default spec/ for one value of ``QACONFORM_SPEC_DIR``: finding it looks at the file system, and the suites
    ask for the contract thousands of times a run (about 0.2 ms each, 1 s of CPU per process before this cache)."""
    return _load(default_spec_dir())


@cache
def _default() -> Contract:
    """The contract of the default spec/, found once per process (finding it looks at the file system)."""
    return load_contract()


def path(operation_id: str, **ids: Any) -> str:
    """:meth:`Contract.path` of the default spec/: ``path("listNodeFollowers", nodeId=7)``."""
    return _default().path(operation_id, **ids)


@cache
def envelope() -> Envelope:
    """The list envelope of the default spec/ (what the response invariants and the load checks judge); read once
    per process, because the load checks ask for it on every list answer."""
    return _default().envelope
