"""The schemas: spec/schemas/*.json by file name, their validators, and the list envelope they define.

A suite asks ``contract.validate("question-list.json", body)`` and reads one line per violation, the JSON path of
the value first; a suite that decides which rule a violation breaks asks ``contract.schema_errors(...)`` instead and
reads :class:`SchemaError` fields (where, which keyword, which required name is missing), never jsonschema's wording
(issue 47: no decision taken by reading a message). The schemas refer to each other by file name (``$id`` = file
name), so they are registered together and each validator is compiled on first use (compiling is the expensive part).
The list envelope's field names are read from ``envelope.json`` once, here, so that no caller re-types them (hard
rule 1).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from qaconform.contract.files import SPEC_DIR_ENV, ContractError

ENVELOPE_SCHEMA = "envelope.json"
_MAX_MESSAGE = 300
_FAST_BASE = "https://qaconform.invalid/schemas/"
"""The base of the schemas' file names in jsonschema-rs's registry (their ``$id`` is the bare file name)."""
_MAX_LISTED = 20
"""How many violations an assertion lists before it says how many more there are."""


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


@dataclass(frozen=True)
class SchemaError:
    """One violation of a schema as data: which rule it breaks is decided from where it is and which keyword failed,
    so that a new jsonschema wording or a field name inside a message cannot move a failure to another rule."""

    path: tuple[str | int, ...]
    """Where the offending value is in the instance: ``("list", 0, "creationDate")``; ``()`` is the whole body."""
    keyword: str
    """The schema keyword the value fails: ``required``, ``type``, ``const``, ``minimum``, ``additionalProperties``."""
    missing: str | None
    """For ``required``: the one required name this violation is about (jsonschema gives one violation per absent
    name); None for every other keyword."""
    line: str
    """The human-readable line (``$.list[0].creationDate: ...``), as :meth:`Schemas.validate` gives it: for messages,
    never to decide from."""

    @property
    def field(self) -> str | None:
        """The field the violation is about: the absent name of a ``required``, else the innermost field name of the
        path (array indices after it skipped: ``("list", 0)`` is ``list``); None at the top level."""
        if self.missing is not None:
            return self.missing
        rest = list(self.path)
        while rest and isinstance(rest[-1], int):
            rest.pop()
        return str(rest[-1]) if rest else None

    def __str__(self) -> str:
        return self.line


class Schemas:
    """The schema files of one schemas/ directory, by file name, with a validator each (compiled on first use)."""

    def __init__(self, schemas_dir: Path) -> None:
        self.dir = schemas_dir
        self.docs = _load_schemas(schemas_dir)
        self.registry: Registry = Registry().with_resources(
            (name, Resource.from_contents(doc)) for name, doc in self.docs.items()
        )
        """Every schema under its file name, so that a ``$ref`` to another file resolves."""
        self._validators: dict[str, Draft202012Validator] = {}
        self._fast: dict[str, Any] = {}
        """A compiled (Rust) validator per file, asked first only whether a body is valid: see :meth:`errors`."""
        self._fast_registry: Any = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self.docs))

    def schema(self, name: str) -> dict[str, Any]:
        """The parsed schema file ``name`` ("node.json"; the ".json" may be left out)."""
        return self.docs[self.key(name)]

    def validator(self, name: str) -> Draft202012Validator:
        key = self.key(name)
        if key not in self._validators:
            self._validators[key] = Draft202012Validator(self.docs[key], registry=self.registry)
        return self._validators[key]

    def validate(self, schema_name: str, instance: Any) -> list[str]:
        """Human-readable errors (``$.list[0].creationDate: ...``), sorted by path; empty when valid."""
        return [e.line for e in self.errors(schema_name, instance)]

    def errors(self, schema_name: str, instance: Any) -> list[SchemaError]:
        """Every violation of ``schema_name`` as a :class:`SchemaError`, sorted by path (the order of
        :meth:`validate`'s lines); empty when valid."""
        if self.compiled_valid(schema_name, instance):
            return []
        found = list(self.validator(schema_name).iter_errors(instance))
        missing = _missing_names(found)
        ordered = sorted(range(len(found)), key=lambda i: [str(p) for p in found[i].path])
        return [SchemaError(path=tuple(found[i].path), keyword=str(found[i].validator), missing=missing[i],
                            line=_describe(found[i])) for i in ordered]

    def compiled_valid(self, schema_name: str, instance: Any) -> bool:
        """True when jsonschema-rs (compiled: 0.03 ms for a question list of 15 items, jsonschema 9 ms) finds
        ``instance`` valid; False when it finds a violation or cannot say (a value it cannot read, a schema it cannot
        compile): then jsonschema, whose errors the suites read, decides. Why (issue 44, speed4): the 767 bodies that
        test_list_responses, test_matrix, test_action_matrix, test_answer_form_matrix and test_operation_shapes
        validate took 1.14 s of CPU with jsonschema alone, 0.16 s so (171 of them refused, by projections). Formats
        are annotations in both (jsonschema asserts none without a format checker), so a body valid here is valid
        there; where the two read a keyword differently the Rust reading is the stricter one (``$`` never matches
        before a final newline), which only sends the body to jsonschema (tests/test_schemas.py: both judge every
        hand-made body alike)."""
        key = self.key(schema_name)
        fast = self._fast.get(key)
        try:
            if fast is None:
                if self._fast_registry is None:
                    self._fast_registry = jsonschema_rs.Registry(
                        [(_FAST_BASE + name, doc) for name, doc in self.docs.items()])
                fast = self._fast[key] = jsonschema_rs.Draft202012Validator(
                    self.docs[key], registry=self._fast_registry, base_uri=_FAST_BASE + key, validate_formats=False)
            return bool(fast.is_valid(instance))
        except Exception:  # noqa: BLE001 - any doubt goes to jsonschema, which decides and explains
            return False

    def assert_valid(self, schema_name: str, instance: Any, what: str = "") -> None:
        """Raise AssertionError listing every violation of ``schema_name`` (``what`` says whose body it was)."""
        errors = self.validate(schema_name, instance)
        if errors:
            subject = what or "instance"
            shown = "\n  ".join(errors[:_MAX_LISTED])
            more = f"\n  ... and {len(errors) - _MAX_LISTED} more" if len(errors) > _MAX_LISTED else ""
            raise AssertionError(
                f"{subject} does not match {self.key(schema_name)} ({len(errors)} error(s)):\n  {shown}{more}"
            )

    def key(self, name: str) -> str:
        """The file name of schema ``name``; ContractError listing the known ones when there is none."""
        key = name if name.endswith(".json") else f"{name}.json"
        if key not in self.docs:
            raise ContractError(f"no schema {name!r} in {self.dir}; known: {', '.join(self.names)}")
        return key


def _load_schemas(schemas_dir: Path) -> dict[str, dict[str, Any]]:
    if not schemas_dir.is_dir():
        raise ContractError(f"{schemas_dir} is missing; point {SPEC_DIR_ENV} at the kit's spec/ directory")
    schemas: dict[str, dict[str, Any]] = {}
    for path in sorted(schemas_dir.glob("*.json")):
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
        raise ContractError(f"{schemas_dir} holds no *.json schema")
    return schemas


def _missing_names(errors: list[ValidationError]) -> list[str | None]:
    """The absent name each ``required`` violation is about, from the data of the violation: jsonschema yields one
    violation per absent name, in the order of the keyword's list, each carrying the whole list
    (``validator_value``) and the object (``instance``); the k-th violation of one keyword at one path is about the
    k-th name of that list the object lacks."""
    seen: Counter[tuple[object, ...]] = Counter()
    names: list[str | None] = []
    for error in errors:
        if error.validator != "required" or not isinstance(error.instance, Mapping):
            names.append(None)
            continue
        absent = tuple(str(n) for n in error.validator_value if n not in error.instance)
        key = (tuple(error.path), absent)
        names.append(absent[seen[key] % len(absent)] if absent else None)
        seen[key] += 1
    return names


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
