"""The operations: the 19 operations of spec/openapi.yaml, by operationId, and their paths.

What a suite, the plugin or a load user needs to call an operation (its method, its path under the service prefix
with its ids filled in, its parameters, the schema each documented status names) is read here from the OpenAPI
document, with its local ``$ref``s followed, so that no caller writes a path or a parameter list of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qaconform.contract.files import ContractError

API_PREFIX = "/services/v2"
"""The service prefix before every operation's path: the one place the kit writes it (the reference server, which
never imports this module, has its own: ``qaconform.reference.http_io.PREFIX``)."""
TRACKER = "tracker"
"""Op 19's OpenAPI path holds the literal segment ``tracker``; a site's segment is the profile's
``fixtures.issue_tracker``, given to :func:`qaconform.contract.path` as ``tracker=``."""
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


@dataclass(frozen=True)
class Parameter:
    """A parameter of an operation, with the OpenAPI ``$ref``s already followed."""

    name: str
    location: str
    required: bool
    schema: Mapping[str, Any]
    changes_shape: bool = False
    """True when the parameter changes the response shape (``x-qaconform-changes-shape``); generated tests omit it."""

    @property
    def values(self) -> tuple[Any, ...]:
        """The values the description gives for it (its schema's enum: the expert lists' six sorts), or ()."""
        return tuple(self.schema.get("enum") or ())


@dataclass(frozen=True)
class Operation:
    """One of the 19 operations of spec/openapi.yaml."""

    operation_id: str
    method: str
    path: str
    """The full OpenAPI path, starting with /services/v2."""
    tags: tuple[str, ...] = ()
    summary: str = ""
    parameters: tuple[Parameter, ...] = ()
    responses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Status ("200", "401" ...) -> schema file names referenced by its content (empty when no body is documented)."""
    anonymous_allowed: bool = False
    """True when the operation's security admits a call without credentials (``security: [{}, ...]``)."""
    path_ids: frozenset[str] = frozenset()
    """The names of the ids its path takes (``{userId}`` ...)."""

    @property
    def api_path(self) -> str:
        """The path under /services/v2, as ApiClient and the load tests name it."""
        return self.path[len(API_PREFIX) :] if self.path.startswith(API_PREFIX) else self.path

    def path_with(self, ids: Mapping[str, Any]) -> str:
        """The path under /services/v2 with ``ids`` filled in (``tracker`` names op 19's tracker segment)."""
        template = self.api_path
        if TRACKER in ids and template.startswith(f"/{TRACKER}/"):
            template = f"/{ids[TRACKER]}/" + template[len(TRACKER) + 2 :]
            ids = {k: v for k, v in ids.items() if k != TRACKER}
        if ids.keys() != self.path_ids:
            raise ContractError(f"the path of {self.operation_id} ({self.path}) takes "
                                f"{', '.join(sorted(self.path_ids)) or 'no ids'}; got {', '.join(ids) or 'none'}")
        return template.format_map(ids)

    @property
    def statuses(self) -> tuple[str, ...]:
        return tuple(self.responses)

    def response_schema(self, status: int | str) -> str | None:
        """The schema name documented for ``status`` (the first one, for application/json), or None."""
        names = self.responses.get(str(status), ())
        return names[0] if names else None

    def parameter(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.parameters) or "none"
        raise ContractError(f"operation {self.operation_id} has no parameter {name!r} (known: {known})")


def load_operations(openapi: Mapping[str, Any], openapi_path: Path) -> dict[str, Operation]:
    """Every operation of the OpenAPI document ``openapi`` (read from ``openapi_path``) by operationId."""
    operations: dict[str, Operation] = {}
    for path, item in (openapi.get("paths") or {}).items():
        shared = [_deref(openapi, openapi_path, p) for p in item.get("parameters", [])]
        for method in _HTTP_METHODS:
            if method not in item:
                continue
            op = item[method]
            op_id = op.get("operationId")
            if not op_id:
                raise ContractError(f"{openapi_path}: {method.upper()} {path} has no operationId; add one")
            if op_id in operations:
                raise ContractError(f"{openapi_path}: operationId {op_id} is used twice; make it unique")
            params = []
            for raw in shared + [_deref(openapi, openapi_path, p) for p in op.get("parameters", [])]:
                params.append(
                    Parameter(
                        name=raw["name"],
                        location=raw["in"],
                        required=bool(raw.get("required", False)),
                        schema=raw.get("schema", {}),
                        changes_shape=bool(raw.get("x-qaconform-changes-shape", False)),
                    )
                )
            responses: dict[str, tuple[str, ...]] = {}
            for status, resp in (op.get("responses") or {}).items():
                resp = _deref(openapi, openapi_path, resp)
                content = resp.get("content") or {}
                # application/json first: it is the body the suites validate.
                ordered = sorted(content.items(), key=lambda kv: kv[0] != "application/json")
                names: list[str] = []
                for _media, media_obj in ordered:
                    for name in _schema_refs(media_obj.get("schema")):
                        if name not in names:
                            names.append(name)
                responses[str(status)] = tuple(names)
            security = op.get("security", openapi.get("security", []))
            operations[op_id] = Operation(
                operation_id=op_id,
                method=method.upper(),
                path=path,
                tags=tuple(op.get("tags", [])),
                summary=op.get("summary", ""),
                parameters=tuple(params),
                responses=responses,
                anonymous_allowed=not security or any(req == {} for req in security),
                path_ids=frozenset(_PLACEHOLDER.findall(path)),
            )
    return operations


def _deref(openapi: Mapping[str, Any], openapi_path: Path, node: Any) -> Any:
    """Follow a local ``#/components/...`` $ref (parameters, responses); other refs are left alone."""
    seen = 0
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
        target: Any = openapi
        for part in node["$ref"][2:].split("/"):
            if not isinstance(target, dict) or part not in target:
                raise ContractError(f"{openapi_path}: $ref {node['$ref']} does not resolve")
            target = target[part]
        node = target
        seen += 1
        if seen > 10:
            raise ContractError(f"{openapi_path}: $ref cycle at {node!r}")
    return node


def _schema_refs(schema: Any) -> list[str]:
    """File names of every schemas/*.json $ref inside a response schema (anyOf branches included)."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#") and ref.split("#")[0].endswith(".json"):
                found.append(ref.split("#")[0].rsplit("/", 1)[-1])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return found
