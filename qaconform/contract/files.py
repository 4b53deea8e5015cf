"""Where spec/ is read from, and the one error for a spec/ file that cannot be used.

Every part of the contract (schemas, operations, rules, dimensions) reads a file of spec/ and refuses it the same
way: a :class:`ContractError` naming the file and what to fix. That, the YAML loader and the variable that points at
spec/ live here so that the parts share them without importing each other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

SPEC_DIR_ENV = "QACONFORM_SPEC_DIR"
"""Environment variable that points at a spec/ directory when the package is installed away from its checkout."""

_YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""PyYAML's safe loader, its C version when PyYAML was built with libyaml (its wheels are): every pytest process,
every xdist worker and every self-test run loads rules.yaml and openapi.yaml, ten times faster in C."""


class ContractError(Exception):
    """spec/ cannot be used as asked. The message names the file or id and what to do."""


def load_yaml(path: Path, required: bool) -> dict[str, Any]:
    """The mapping at the top of the YAML file ``path``; ``{}`` for a missing file that is not ``required``."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if required:
            raise ContractError(f"{path} is missing; point {SPEC_DIR_ENV} at the kit's spec/ directory") from None
        return {}
    try:
        data = yaml.load(text, Loader=_YAML_LOADER)  # noqa: S506 (a safe loader, in C when libyaml is there)
    except yaml.YAMLError as exc:
        raise ContractError(f"{path} is not valid YAML ({exc}); fix the syntax there") from None
    if not isinstance(data, dict):
        raise ContractError(f"{path} must hold a YAML mapping at the top level")
    return data
