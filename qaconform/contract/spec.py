"""The contract as one object: a spec/ directory's schemas, operations, rules and dimensions, read together.

Each part is read by its own module (:mod:`~qaconform.contract.schemas`, :mod:`~qaconform.contract.operations`,
:mod:`~qaconform.contract.rules`, :mod:`~qaconform.contract.dimensions`); :class:`Contract` holds them for one
directory and answers the questions that join them (the rules of an operation, the dimensions checked against the
operations and rules it knows). :func:`qaconform.contract.load_contract` gives one per directory and process.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator

from qaconform.contract.dimensions import Dimensions, parse_dimensions
from qaconform.contract.files import ContractError, load_yaml
from qaconform.contract.operations import API_PREFIX, TRACKER, Operation, load_operations
from qaconform.contract.rules import Rule, load_rules
from qaconform.contract.schemas import ENVELOPE_SCHEMA, Envelope, SchemaError, Schemas


class Contract:
    """spec/ as objects: schemas by file name, rules by id, operations by operationId."""

    def __init__(self, spec_dir: Path) -> None:
        self.spec_dir = spec_dir
        self.schemas_dir = spec_dir / "schemas"
        self.openapi_path = spec_dir / "openapi.yaml"
        self.rules_path = spec_dir / "rules.yaml"
        self.dimensions_path = spec_dir / "dimensions.yaml"
        self.schemas = Schemas(self.schemas_dir)
        self.openapi: dict[str, Any] = load_yaml(self.openapi_path, required=True)
        self.operations: dict[str, Operation] = load_operations(self.openapi, self.openapi_path)
        self.rules: dict[str, Rule] = load_rules(self.rules_path)
        self.envelope = Envelope.of(self.schema(ENVELOPE_SCHEMA))
        self._dimensions: Dimensions | None = None
        self._dimensions_data: dict[str, Any] | None = None
        self._paths: list[tuple[str, re.Pattern[str], str]] | None = None

    def __repr__(self) -> str:
        return (
            f"Contract({str(self.spec_dir)!r}, schemas={len(self.schemas.docs)}, operations={len(self.operations)}, "
            f"rules={len(self.rules)})"
        )

    # ---- schemas (qaconform.contract.schemas) ----------------------------------------------------------------

    @property
    def schema_names(self) -> tuple[str, ...]:
        return self.schemas.names

    def schema(self, name: str) -> dict[str, Any]:
        """The parsed schema file ``name`` ("node.json"; the ".json" may be left out)."""
        return self.schemas.schema(name)

    def validator(self, name: str) -> Draft202012Validator:
        return self.schemas.validator(name)

    def validate(self, schema_name: str, instance: Any) -> list[str]:
        """Human-readable errors (``$.list[0].creationDate: ...``), sorted by path; empty when valid."""
        return self.schemas.validate(schema_name, instance)

    def schema_errors(self, schema_name: str, instance: Any) -> list[SchemaError]:
        """The same violations as data (:class:`SchemaError`: path, keyword, the absent name of a ``required``), for a
        suite that decides which rule each breaks."""
        return self.schemas.errors(schema_name, instance)

    def assert_valid(self, schema_name: str, instance: Any, what: str = "") -> None:
        """Raise AssertionError listing every violation of ``schema_name`` (``what`` says whose body it was)."""
        self.schemas.assert_valid(schema_name, instance, what)

    # ---- operations (qaconform.contract.operations) ----------------------------------------------------------

    def operation(self, operation_id: str) -> Operation:
        try:
            return self.operations[operation_id]
        except KeyError:
            known = ", ".join(sorted(self.operations))
            raise ContractError(f"no operation {operation_id!r} in {self.openapi_path} (known: {known})") from None

    def path(self, operation_id: str, **ids: Any) -> str:
        """``path("listUserAnswers", userId=5)`` -> ``/user/5/answer.json``: an operation's path under /services/v2,
        the one way suites and load users build it (ApiClient takes it as is; ``tracker=`` for listIssueTypes)."""
        return self.operation(operation_id).path_with(ids)

    def operation_at(self, method: str, url: str) -> str | None:
        """The operation a request called, by method and the path of ``url`` under ``API_PREFIX`` (whatever comes
        before it: a site served below a path), the most literal paths first; op 19's tracker segment is any one
        segment. None: a request outside the 19 operations (a v1 path, a path without .json)."""
        if self._paths is None:
            paths = []
            for op in self.operations.values():
                regex = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(op.api_path))
                if op.api_path.startswith(f"/{TRACKER}/"):
                    regex = "/[^/]+" + re.escape(op.api_path[len(TRACKER) + 1:])
                literal = len(re.sub(r"\{[^}]+\}", "", op.api_path))
                paths.append((literal, op.method.upper(), re.compile(re.escape(API_PREFIX) + regex + "$"),
                              op.operation_id))
            self._paths = [(m, rx, oid) for _, m, rx, oid in sorted(paths, key=lambda p: -p[0])]
        path = urlsplit(url).path
        return next((oid for m, rx, oid in self._paths if m == method.upper() and rx.search(path)), None)

    # ---- rules (qaconform.contract.rules) --------------------------------------------------------------------

    def rule(self, rule_id: str) -> Rule:
        """The rule ``rule_id``; ContractError (saying where to add it) when spec/rules.yaml lacks it."""
        try:
            return self.rules[rule_id]
        except KeyError:
            if not self.rules_path.exists():
                raise ContractError(f"unknown rule {rule_id!r}: {self.rules_path} does not exist yet") from None
            raise ContractError(f"unknown rule {rule_id!r}: add it to {self.rules_path} or fix the id") from None

    def rules_for(self, operation_id: str) -> list[Rule]:
        return [r for r in self.rules.values() if operation_id in r.operations]

    # ---- dimensions (qaconform.contract.dimensions) ----------------------------------------------------------

    @property
    def dimensions(self) -> Dimensions:
        """spec/dimensions.yaml: the circumstances each rule must hold across (issue 33), read on first use."""
        if self._dimensions is None:
            self._dimensions = parse_dimensions(self.dimensions_data, self.dimensions_path, self.operations,
                                                self.rules)
        return self._dimensions

    @property
    def dimensions_data(self) -> dict[str, Any]:
        """spec/dimensions.yaml as it is written (its sections beyond the dimensions: ``list_access``, a list's
        arrays), parsed once per contract with the C loader (4 ms; the suites' pure-Python parses took 40 ms each, twice
        in every xdist worker), in a run by the fork server for every worker. Shared: read it, never change it."""
        if self._dimensions_data is None:
            self._dimensions_data = load_yaml(self.dimensions_path, required=True)
        return self._dimensions_data
