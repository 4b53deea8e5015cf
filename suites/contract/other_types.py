"""The other JSON types of each stated field of a request body (types, issue 44): derived from the contract's request
schemas (spec/schemas/*-request.json, the field tables of operations 1, 2 and 7), never listed by hand, so a field
the contract gains is sent in every other type too.

The blind rounds kept meeting one kind: a field given in a JSON type the run never sends (operations as a string,
round83) is refused or read by a second converter off the interface. The run sent values of the stated type only,
or one hand-picked number per field; here every field of a refusal path is sent once in each JSON type its schema
does not state (string, number, boolean, object, array, null), each value built so that no reading of it can name a
real user or file.
"""

from __future__ import annotations

from typing import Any

from qaconform import contract

JSON_TYPES = ("string", "number", "boolean", "object", "array", "null")
STATED = {"integer": "number"}
"""A schema's integer is a JSON number: a number is no other type of it."""


def value_of(kind: str, field: str) -> Any:
    """A value of JSON type ``kind`` for ``field`` that names nothing on a target (ids that cannot exist)."""
    values: dict[str, Any] = {"string": f"qc-{field}-as-string", "number": 7, "boolean": True,
                              "object": {"qcAsObject": 7}, "array": [f"qc-{field}-as-array"], "null": None}
    return values[kind]


def stated_types(schema: str, field: str) -> frozenset[str]:
    """The JSON types the schema states for ``field`` (every type when it states none: timeStamp's format is not
    shown, so no other type of it can be judged)."""
    spec = contract.load_contract().schemas.schema(schema)["properties"][field]
    stated = spec.get("type")
    if stated is None:
        return frozenset(JSON_TYPES)
    named = [stated] if isinstance(stated, str) else list(stated)
    return frozenset(STATED.get(t, t) for t in named)


def other_types(schema: str, *, skip_fields: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(field, JSON type) for every top-level field of ``schema`` and every JSON type it does not state, in the
    schema's field order (``skip_fields``: aliases the description gives no type of)."""
    props = contract.load_contract().schemas.schema(schema)["properties"]
    return [(field, kind) for field in props if field not in skip_fields
            for kind in JSON_TYPES if kind not in stated_types(schema, field)]
