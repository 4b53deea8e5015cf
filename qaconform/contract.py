"""The contract as data: spec/ loaded once, for the suites, the report and the load harness.

Hard rule 1 of the architecture says spec/ is the single source of the contract, so nothing else re-types a
field list: a suite asks ``contract.validate("question-list.json", body)`` and a report asks
``contract.rule("COMMENT-4")``. Loading is cached because every test uses the same files and compiling the
validators is the expensive part.

The reference server never imports this module (architecture rule 2).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

SPEC_DIR_ENV = "QACONFORM_SPEC_DIR"
"""Environment variable that points at a spec/ directory when the package is installed away from its checkout."""

API_PREFIX = "/services/v2"
"""The service prefix before every operation's path: the one place the kit writes it (the reference server, which
never imports this module, has its own: ``qaconform.reference.http_io.PREFIX``)."""
TRACKER = "tracker"
"""Op 19's OpenAPI path holds the literal segment ``tracker``; a site's segment is the profile's
``fixtures.issue_tracker``, given to :func:`path` as ``tracker=``."""
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
_MAX_MESSAGE = 300

_YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""PyYAML's safe loader, its C version when PyYAML was built with libyaml (its wheels are): every pytest process,
every xdist worker and every self-test run loads rules.yaml and openapi.yaml, ten times faster in C."""


class ContractError(Exception):
    """spec/ cannot be used as asked. The message names the file or id and what to do."""


@dataclass(frozen=True)
class Rule:
    """One normative statement of spec/rules.yaml: what the contract loads and what the report lists (one type, so
    the two cannot drift; the defaults let the report describe an id that rules.yaml lacks)."""

    id: str
    level: str = "must"
    area: str = ""
    operations: tuple[str, ...] = ()
    since: str | None = None
    summary: str = ""
    source: str = ""

    @classmethod
    def of(cls, rule: Any) -> Rule:
        """A Rule from another Rule, a rules.yaml mapping or a report.json rule entry (missing fields: defaults)."""
        if isinstance(rule, Rule):
            return rule
        get = rule.get if isinstance(rule, Mapping) else (lambda k, d=None: getattr(rule, k, d))
        return cls(
            id=str(get("id")),
            level=str(get("level", "must") or "must"),
            area=str(get("area", "") or ""),
            operations=tuple(get("operations", ()) or ()),
            since=get("since"),
            summary=str(get("summary", "") or ""),
            source=str(get("source", "") or ""),
        )


@dataclass(frozen=True)
class Envelope:
    """The paged list envelope, as spec/schemas/envelope.json defines it: the one source of its field names."""

    fields: tuple[str, ...]
    """Every field a list response carries (the schema's ``required``, in its order)."""
    counts: tuple[str, ...]
    """The integer fields: page, pageSize, pageCount, listCount, totalCount."""
    items: str
    """The array that holds the page's items (``list``)."""
    sorts_seen: tuple[str, ...] = ()
    """The sort names the description has seen in the ``sorts`` array of question and comment lists (which of them a
    site accepts is not shown): the names suites, generated tests and load users send to those lists."""

    @classmethod
    def of(cls, schema: Mapping[str, Any]) -> Envelope:
        props = schema.get("properties") or {}
        fields = tuple(schema.get("required") or ())
        counts = tuple(k for k in fields if (props.get(k) or {}).get("type") == "integer")
        arrays = [k for k in fields if (props.get(k) or {}).get("type") == "array"]
        if len(arrays) != 1 or not counts:
            raise ContractError(f"{ENVELOPE_SCHEMA} must require one array of items and the integer counts; it "
                                f"requires {list(fields)}")
        seen = ((props.get("sorts") or {}).get("items") or {}).get("examples") or ()
        return cls(fields=fields, counts=counts, items=arrays[0], sorts_seen=tuple(seen))


ENVELOPE_SCHEMA = "envelope.json"


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


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 3] + "..."


def _shorten_instance(error: ValidationError) -> str:
    """The error message with a long instance repr cut down, so that the reason stays readable."""
    shown, message = repr(error.instance), str(error.message)
    if len(shown) <= 80 or shown not in message:
        return message
    return message.replace(shown, shown[:60] + " ..." + shown[-1], 1)


def _describe(error: ValidationError) -> str:
    """One line per error: the JSON path of the offending value, then why; for anyOf/oneOf the closest branch."""
    message = _shorten_instance(error)
    if error.context:
        closest = best_match(error.context)
        message = f"{message} (closest: {closest.json_path}: {_shorten_instance(closest)})"
    return _clip(f"{error.json_path}: {message}")


class Contract:
    """spec/ as objects: schemas by file name, rules by id, operations by operationId."""

    def __init__(self, spec_dir: Path) -> None:
        self.spec_dir = spec_dir
        self.schemas_dir = spec_dir / "schemas"
        self.openapi_path = spec_dir / "openapi.yaml"
        self.rules_path = spec_dir / "rules.yaml"
        self.dimensions_path = spec_dir / "dimensions.yaml"
        self._schemas = self._load_schemas()
        self._registry: Registry = Registry().with_resources(
            (name, Resource.from_contents(doc)) for name, doc in self._schemas.items()
        )
        self._validators: dict[str, Draft202012Validator] = {}
        self.openapi: dict[str, Any] = self._load_yaml(self.openapi_path, required=True)
        self.operations: dict[str, Operation] = self._load_operations()
        self.rules: dict[str, Rule] = self._load_rules()
        self.envelope = Envelope.of(self.schema(ENVELOPE_SCHEMA))
        self._dimensions: Dimensions | None = None

    def __repr__(self) -> str:
        return (
            f"Contract({str(self.spec_dir)!r}, schemas={len(self._schemas)}, operations={len(self.operations)}, "
            f"rules={len(self.rules)})"
        )

    # ---- schemas -------------------------------------------------------------------------------------------

    @property
    def schema_names(self) -> tuple[str, ...]:
        return tuple(sorted(self._schemas))

    def schema(self, name: str) -> dict[str, Any]:
        """The parsed schema file ``name`` ("node.json"; the ".json" may be left out)."""
        return self._schemas[self._schema_key(name)]

    def validator(self, name: str) -> Draft202012Validator:
        key = self._schema_key(name)
        if key not in self._validators:
            self._validators[key] = Draft202012Validator(self._schemas[key], registry=self._registry)
        return self._validators[key]

    def validate(self, schema_name: str, instance: Any) -> list[str]:
        """Human-readable errors (``$.list[0].creationDate: ...``), sorted by path; empty when valid."""
        errors = sorted(self.validator(schema_name).iter_errors(instance), key=lambda e: [str(p) for p in e.path])
        return [_describe(e) for e in errors]

    def assert_valid(self, schema_name: str, instance: Any, what: str = "") -> None:
        """Raise AssertionError listing every violation of ``schema_name`` (``what`` says whose body it was)."""
        errors = self.validate(schema_name, instance)
        if errors:
            subject = what or "instance"
            shown = "\n  ".join(errors[:20])
            more = f"\n  ... and {len(errors) - 20} more" if len(errors) > 20 else ""
            raise AssertionError(
                f"{subject} does not match {self._schema_key(schema_name)} ({len(errors)} error(s)):\n  {shown}{more}"
            )

    def _schema_key(self, name: str) -> str:
        key = name if name.endswith(".json") else f"{name}.json"
        if key not in self._schemas:
            raise ContractError(f"no schema {name!r} in {self.schemas_dir}; known: {', '.join(self.schema_names)}")
        return key

    def _load_schemas(self) -> dict[str, dict[str, Any]]:
        if not self.schemas_dir.is_dir():
            raise ContractError(f"{self.schemas_dir} is missing; point {SPEC_DIR_ENV} at the kit's spec/ directory")
        schemas: dict[str, dict[str, Any]] = {}
        for path in sorted(self.schemas_dir.glob("*.json")):
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise ContractError(f"{path} is not valid JSON ({exc}); fix the syntax there") from None
            if not isinstance(doc, dict):
                raise ContractError(f"{path} must hold a JSON object (a schema)")
            # Schemas reference each other by file name ($id "node.json"), so the $id must be the file name.
            if doc.get("$id") != path.name:
                raise ContractError(f"{path}: $id is {doc.get('$id')!r}; set it to {path.name!r}")
            schemas[path.name] = doc
        if not schemas:
            raise ContractError(f"{self.schemas_dir} holds no *.json schema")
        return schemas

    # ---- openapi -------------------------------------------------------------------------------------------

    @staticmethod
    def _load_yaml(path: Path, required: bool) -> dict[str, Any]:
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

    def _deref(self, node: Any) -> Any:
        """Follow a local ``#/components/...`` $ref (parameters, responses); other refs are left alone."""
        seen = 0
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
            target: Any = self.openapi
            for part in node["$ref"][2:].split("/"):
                if not isinstance(target, dict) or part not in target:
                    raise ContractError(f"{self.openapi_path}: $ref {node['$ref']} does not resolve")
                target = target[part]
            node = target
            seen += 1
            if seen > 10:
                raise ContractError(f"{self.openapi_path}: $ref cycle at {node!r}")
        return node

    @staticmethod
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

    def _load_operations(self) -> dict[str, Operation]:
        operations: dict[str, Operation] = {}
        for path, item in (self.openapi.get("paths") or {}).items():
            shared = [self._deref(p) for p in item.get("parameters", [])]
            for method in _HTTP_METHODS:
                if method not in item:
                    continue
                op = item[method]
                op_id = op.get("operationId")
                if not op_id:
                    raise ContractError(f"{self.openapi_path}: {method.upper()} {path} has no operationId; add one")
                if op_id in operations:
                    raise ContractError(f"{self.openapi_path}: operationId {op_id} is used twice; make it unique")
                params = []
                for raw in shared + [self._deref(p) for p in op.get("parameters", [])]:
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
                    resp = self._deref(resp)
                    content = resp.get("content") or {}
                    # application/json first: it is the body the suites validate.
                    ordered = sorted(content.items(), key=lambda kv: kv[0] != "application/json")
                    names: list[str] = []
                    for _media, media_obj in ordered:
                        for name in self._schema_refs(media_obj.get("schema")):
                            if name not in names:
                                names.append(name)
                    responses[str(status)] = tuple(names)
                security = op.get("security", self.openapi.get("security", []))
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

    def operation(self, operation_id: str) -> Operation:
        try:
            return self.operations[operation_id]
        except KeyError:
            known = ", ".join(sorted(self.operations))
            raise ContractError(f"no operation {operation_id!r} in {self.openapi_path} (known: {known})") from None

    # ---- rules ---------------------------------------------------------------------------------------------

    def _load_rules(self) -> dict[str, Rule]:
        data = self._load_yaml(self.rules_path, required=False)
        raw_rules = data.get("rules") or []
        if not isinstance(raw_rules, list):
            raise ContractError(f"{self.rules_path}: 'rules' must be a list of rule mappings")
        rules: dict[str, Rule] = {}
        for index, raw in enumerate(raw_rules):
            where = f"{self.rules_path}: rules[{index}]"
            if not isinstance(raw, dict):
                raise ContractError(f"{where} must be a mapping with id, level, area, operations, summary, source")
            missing = [k for k in ("id", "level", "area", "operations", "summary") if not raw.get(k)]
            if missing:
                raise ContractError(f"{where} ({raw.get('id', 'no id')}) is missing {', '.join(missing)}")
            rule_id = str(raw["id"])
            if rule_id in rules:
                raise ContractError(f"{where}: id {rule_id} is used twice; rule ids must be unique")
            ops = raw["operations"]
            ops_t = (ops,) if isinstance(ops, str) else tuple(str(o) for o in ops)
            since = raw.get("since")
            rules[rule_id] = Rule(
                id=rule_id,
                level=str(raw["level"]),
                area=str(raw["area"]),
                operations=ops_t,
                since=None if since is None else str(since),
                summary=str(raw["summary"]),
                source=str(raw.get("source", "")),
            )
        return rules

    def rule(self, rule_id: str) -> Rule:
        """The rule ``rule_id``; ContractError (saying where to add it) when spec/rules.yaml lacks it."""
        try:
            return self.rules[rule_id]
        except KeyError:
            if not self.rules_path.exists():
                raise ContractError(f"unknown rule {rule_id!r}: {self.rules_path} does not exist yet") from None
            raise ContractError(f"unknown rule {rule_id!r}: add it to {self.rules_path} or fix the id") from None

    def path(self, operation_id: str, **ids: Any) -> str:
        """``path("listUserAnswers", userId=5)`` -> ``/user/5/answer.json``: an operation's path under /services/v2,
        the one way suites and load users build it (ApiClient takes it as is; ``tracker=`` for listIssueTypes)."""
        return self.operation(operation_id).path_with(ids)

    @property
    def dimensions(self) -> Dimensions:
        """spec/dimensions.yaml: the circumstances each rule must hold across (issue 33), read on first use."""
        if self._dimensions is None:
            data = self._load_yaml(self.dimensions_path, required=True)
            self._dimensions = parse_dimensions(data, self.dimensions_path, self.operations, self.rules)
        return self._dimensions

    def rules_for(self, operation_id: str) -> list[Rule]:
        return [r for r in self.rules.values() if operation_id in r.operations]


# ---- dimensions (spec/dimensions.yaml) -----------------------------------------------------------------------
# Issue 33: a rule that holds "for a caller" or "for a request" holds in every combination of the circumstances the
# description names; the suites cross them pairwise (suites/contract/test_matrix.py). The circumstances are data
# beside the rules, read here once and checked against the operations and rules the contract knows, so a misspelt
# list, rule or dimension is a clear message, not a skipped combination.

NONE = "none"
"""The value of a parameter dimension that leaves the parameter out."""
READER = "reader"
"""The dimension every list takes: the account that reads it."""


@dataclass(frozen=True)
class RuleDimensions:
    """What one rule declares: the dimensions it must hold across, and the lists (or the node actions) it is crossed
    over."""

    rule: str
    across: tuple[str, ...]
    lists: tuple[str, ...]
    actions: tuple[str, ...] = ()
    validations: tuple[str, ...] = ()  # the write operations whose refusal the rule states, crossed with input forms


@dataclass(frozen=True)
class Dimensions:
    """Dimension name -> values; list operation -> the optional-parameter dimensions the description states for
    it; rule id -> what it declares."""

    values: Mapping[str, tuple[str, ...]]
    lists: Mapping[str, tuple[str, ...]]
    rules: Mapping[str, RuleDimensions]
    actions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """node action operation -> the dimensions a combination of it draws (caller, node kind, node state)."""
    validations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # write op -> its refusals' dimensions

    def of_list(self, op: str) -> tuple[str, ...]:
        """The dimensions a combination of list ``op`` draws: the reader, then its stated parameters."""
        return (READER, *self.lists[op])

    def rules_of(self, op: str) -> tuple[RuleDimensions, ...]:
        """The rules crossed over list ``op``."""
        return tuple(r for r in self.rules.values() if op in r.lists)


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ContractError(f"{where} must be a non-empty list of names")
    return tuple(value)


def parse_dimensions(data: Mapping[str, Any], path: Path, operations: Collection[str],
                     rules: Collection[str]) -> Dimensions:
    """``data`` (the YAML of ``path``) as Dimensions, every name checked against ``operations`` and ``rules``."""
    raw_values, raw_lists, raw_rules = (data.get(k) for k in ("dimensions", "lists", "rules"))
    for key, raw in (("dimensions", raw_values), ("lists", raw_lists), ("rules", raw_rules)):
        if not isinstance(raw, dict) or not raw:
            raise ContractError(f"{path}: '{key}' must be a mapping")
    assert isinstance(raw_values, dict) and isinstance(raw_lists, dict) and isinstance(raw_rules, dict)
    values = {str(k): _names(v, f"{path}: dimensions.{k}") for k, v in raw_values.items()}
    if READER not in values:
        raise ContractError(f"{path}: dimensions must name '{READER}' (the accounts that read a list)")
    lists: dict[str, tuple[str, ...]] = {}
    for op, dims in raw_lists.items():
        if op not in operations:
            raise ContractError(f"{path}: lists.{op} is not an operationId of spec/openapi.yaml")
        lists[op] = _names(dims, f"{path}: lists.{op}") if dims else ()
        unknown = [d for d in lists[op] if d not in values or d == READER]
        if unknown:
            raise ContractError(f"{path}: lists.{op} names {unknown[0]!r}, not a parameter dimension")
    actions = _actions(data.get("actions") or {}, path, operations, values)
    validations = _actions(data.get("validations") or {}, path, operations, values, "validations")
    declared: dict[str, RuleDimensions] = {}
    for rule, raw in raw_rules.items():
        where = f"{path}: rules.{rule}"
        if rule not in rules:
            raise ContractError(f"{where} is not a rule of spec/rules.yaml")
        if not isinstance(raw, dict) or not (raw.get("lists") or raw.get("actions") or raw.get("validations")):
            raise ContractError(f"{where} must be a mapping with 'across' and 'lists' (or 'actions', 'validations')")
        across = _names(raw.get("across"), f"{where}.across")
        on = _names(raw["lists"], f"{where}.lists") if raw.get("lists") else ()
        acts = _names(raw["actions"], f"{where}.actions") if raw.get("actions") else ()
        writes = _names(raw["validations"], f"{where}.validations") if raw.get("validations") else ()
        bad = [d for d in across if d not in values] + [o for o in on if o not in lists] + \
            [a for a in acts if a not in actions] + [w for w in writes if w not in validations]
        if bad:
            raise ContractError(f"{where} names {bad[0]!r}, which dimensions.yaml does not define")
        declared[rule] = RuleDimensions(rule, across, on, acts, writes)
    return Dimensions(values, lists, declared, actions, validations)


def _actions(raw: Any, path: Path, operations: Collection[str],
             values: Mapping[str, tuple[str, ...]], key: str = "actions") -> dict[str, tuple[str, ...]]:
    """``actions`` (node action) or ``validations`` (write operation) -> the dimensions it draws, checked by name."""
    if not isinstance(raw, dict):
        raise ContractError(f"{path}: '{key}' must be a mapping")
    out: dict[str, tuple[str, ...]] = {}
    for op, dims in raw.items():
        if op not in operations:
            raise ContractError(f"{path}: {key}.{op} is not an operationId of spec/openapi.yaml")
        out[op] = _names(dims, f"{path}: {key}.{op}")
        unknown = [d for d in out[op] if d not in values]
        if unknown:
            raise ContractError(f"{path}: {key}.{op} names {unknown[0]!r}, not a dimension")
    return out


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
        return _found_in(os.environ.get("QACONFORM_SPEC_DIR"))
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
