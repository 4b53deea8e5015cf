"""Every field's value edges INSIDE its stated type (edges, issue 44): derived from the contract (the job request's
schema, spec/schemas/gdpr-job-request.json, and the operations' parameters in spec/openapi.yaml), never listed by
hand, so a field or a parameter the contract gains is sent at its edges too.

The types judge (suites/contract/other_types.py) sends each field in each JSON type its schema does not state. What
still got through (blind rounds 89 and 90) is a value of the RIGHT type at an edge: an existing user's email as
reassignUser.username taken as that user, type "" read as bulk, the user id one above the highest answered 200 [].
The edges of each type:

- a string: the empty string, a whitespace-only one, and a value of ANOTHER stated form of the same thing, where the
  schema states forms of a user ("Exactly one of username, email, id"): a user's email where a username goes, a
  username where the email goes, an id (its digits) as a name. The user named is [safety] gdpr_user, the one user
  a job may name;
- an enum's string (type, each item of operations): the empty string, a whitespace-only one, a stated value of
  ANOTHER field's enum (type "suspend", operations ["bulk"]). A case variant only where the description says the
  values are exact: neither enum's sentence does ("bulk or individual", "from suspend, anonymize, ..."), so none;
- an integer id of a user: the nearest unknown id (:func:`nearest_unknown_user`: one above the users the run knows,
  confirmed unknown by the target itself); zero, negative and far ids are spec/dimensions.yaml ``id_edge``, sent by
  test_gdpr_forms.py and test_id_edges.py; csvFileId has no nearest unknown the run could know (no file list);
- a date's formatted form: the latest minute in the past in every time zone (the zone is not stated); the
  timeStamp's format is not shown, so it has no edge;
- a comment's body and visibility (strings): empty and blank; each recipient's id (integer or string): the nearest
  unknown user id, as a number and as its digits;
- a path id given as text (the content list's userId): whitespace only, and the nearest unknown user id;
- an integer or enum query parameter (page, pageSize, spaceId, the expert lists' sort): the empty string and a
  whitespace-only one.

Each edge goes where the Errors table states the answer for the field (:data:`STATED`); elsewhere it is an
observation: sent on a job dated in the past (refused whatever the edge), so only a 2xx (the past date missed) or a
5xx is judged, and a 400's body (GDPR-ERROR-BODY, every 400 of the job endpoint).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from qaconform import contract
from qaconform.target.client import ApiClient

JOB_SCHEMA = "gdpr-job-request.json"
LEFT_OUT = {"scheduleTime": "the sample shape's alias of scheduleDate: its edges are scheduleDate's"}
"""Top-level job fields whose edges are not derived, each with its reason."""
STRING_EDGES = ("empty", "blank")
ENUM_EDGES = ("empty", "blank", "other_enum")
USER_FORMS = ("username", "email", "id")
"""The stated forms of a user in a job ("Exactly one of username, email, id"): each string form's other forms are
its edges ``as_<form>``."""


@dataclass(frozen=True)
class Row:
    """The Errors table's row for a job field: its rule, and the message (None: a refusal of any 4xx is stated,
    "shown as incorrect", with no message)."""

    rule: str
    message: str | None
    edges: tuple[str, ...] = ()
    """The edges the row answers (empty: every edge of the field)."""


OPERATIONS_INVALID = "The provided 'operations' is/are invalid"
REASSIGN_INVALID = "The provided 'reassignUser' is/are invalid"
PAST_DATE = "The desired date is in the past and is it not eligible."

STATED: dict[str, Row] = {
    # "| type | string | bulk or individual. Required: a bulk request without type is shown as incorrect. |": a
    # blank type is no type; another enum's value is a type the table gives no answer for (an observation)
    "type": Row("GDPR-BULK-NO-TYPE", None, ("empty", "blank")),
    # "| 400 | Schedule job | Empty or invalid operations list | {error: The provided 'operations' is/are invalid} |"
    "operations": Row("GDPR-OPERATIONS-INVALID", OPERATIONS_INVALID),
    # "| 400 | Schedule job | reassignUser does not exist | {error: The provided 'reassignUser' is/are invalid} |":
    # no user holds a blank name, an email as a username (reassignUser states username or id), the digits of an id
    # as a username, or the nearest unknown id
    "reassignUser": Row("GDPR-REASSIGN-INVALID", REASSIGN_INVALID),
    # "| 400 | Schedule job | Date in the past | {error: The desired date is in the past and is it not eligible.} |"
    "scheduleDate": Row("GDPR-PAST-DATE", PAST_DATE),
}
"""Job field -> the Errors table's row for its edges. user has none (no row for a user that does not exist)."""


@dataclass(frozen=True)
class Edge:
    field: str
    """The field's path: ``type``, ``operations[]`` (each item), ``reassignUser.username``."""
    edge: str

    @property
    def top(self) -> str:
        return self.field.split(".", 1)[0].removesuffix("[]")

    @property
    def row(self) -> Row | None:
        row = STATED.get(self.top)
        return row if row is not None and (not row.edges or self.edge in row.edges) else None

    @property
    def label(self) -> str:
        return f"{self.field}-{self.edge}"


def _other_enums(props: dict[str, Any], own: tuple[Any, ...]) -> list[Any]:
    return [v for spec in _strings(props) for v in spec.get("enum", ()) if v not in own]


def _strings(props: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for spec in props.values():
        for inner in (spec, spec.get("items") or {}):
            if inner.get("type") == "string":
                yield inner


def _edges_of(path: str, name: str, spec: dict[str, Any], forms: tuple[str, ...]) -> list[str]:
    kind = spec.get("type")
    if kind == "string" and spec.get("enum"):
        return list(ENUM_EDGES)
    if kind == "string" and spec.get("pattern"):
        return ["past_nearest"]  # a date's formatted form: its only edge inside the type the table answers
    if kind == "string":
        return [*STRING_EDGES, *(f"as_{f}" for f in USER_FORMS if f in forms and f != name)]
    if kind == "integer" and name == "id" and "." in path:
        return ["nearest_unknown"]  # a user's id; csvFileId: no nearest unknown the run could know
    return []  # timeStamp: "Format not shown"


def job_edges() -> list[Edge]:
    """Every (field, edge) of the job request, in the schema's order: nested objects' fields by their path, an
    array's items as ``field[]``. An object whose ``oneOf`` branches name forms of a user (user: username, email,
    id; reassignUser: username, id) is a user: its string fields take every OTHER form a user is stated in (an
    email as reassignUser.username too: the email is a stated form of a user, not of reassignUser)."""
    props = contract.load_contract().schemas.schema(JOB_SCHEMA)["properties"]
    out: list[Edge] = []
    for name, spec in props.items():
        if name in LEFT_OUT:
            continue
        if spec.get("type") == "object":
            forms = tuple(r for branch in spec.get("oneOf", ()) for r in branch.get("required", ()))
            inner = [(f"{name}.{k}", k, v) for k, v in spec.get("properties", {}).items()]
            user = USER_FORMS if forms and set(forms) <= set(USER_FORMS) else ()  # a user: every form of one
            out += [Edge(path, e) for path, key, v in inner for e in _edges_of(path, key, v, user)]
        elif spec.get("type") == "array":
            out += [Edge(f"{name}[]", e) for e in _edges_of(name, name, spec.get("items") or {}, ())]
        else:
            out += [Edge(name, e) for e in _edges_of(name, name, spec, ())]
    return out


COMMENT_SCHEMA = "comment-request.json"


def comment_edges() -> list[Edge]:
    """Every (field, edge) of a comment request: its strings (body, visibility) empty and blank; each recipient's id
    (an item of recipients, ``common.json#/$defs/recipient``) the nearest unknown user id, and its digits as text
    where the schema states a string form of the id too."""
    schemas = contract.load_contract().schemas
    out: list[Edge] = []
    for name, spec in schemas.schema(COMMENT_SCHEMA)["properties"].items():
        if spec.get("type") == "string":
            out += [Edge(name, e) for e in STRING_EDGES]
        ref = (spec.get("items") or {}).get("$ref", "")
        if spec.get("type") == "array" and ref.startswith("common.json#/$defs/"):
            item = schemas.schema("common.json")["$defs"][ref.rsplit("/", 1)[1]]
            for key, inner in item.get("properties", {}).items():
                types = inner.get("type")
                named = [types] if isinstance(types, str) else list(types or ())
                if key == "id" and "integer" in named:
                    out.append(Edge(f"{name}[].{key}", "nearest_unknown"))
                if key == "id" and "string" in named:
                    out.append(Edge(f"{name}[].{key}", "nearest_unknown_text"))
    return out


def other_enum_value(edge: Edge) -> str:
    """A stated value of another field's enum (the first): type "suspend", an operation "bulk"."""
    props = contract.load_contract().schemas.schema(JOB_SCHEMA)["properties"]
    own = props[edge.top].get("enum") or (props[edge.top].get("items") or {}).get("enum") or ()
    return str(_other_enums(props, tuple(own))[0])


def query_edges() -> list[tuple[str, str, str]]:
    """(operation, parameter, edge) for every GET operation's integer or enum query parameter ("page (integer,
    default 1), pageSize (integer, ...)", "sort must be one of ..."): the empty string and a blank one."""
    out = []
    for op in sorted(contract.load_contract().operations.values(), key=lambda o: o.operation_id):
        if op.method.upper() != "GET":
            continue
        for p in op.parameters:
            if p.location == "query" and (p.schema.get("type") == "integer" or p.schema.get("enum")):
                out += [(op.operation_id, p.name, e) for e in STRING_EDGES]
    return out


BLANK = "  "


def nearest_unknown_user(admin: ApiClient, known: list[int], *, bound: int = 2**24) -> tuple[int | None, str]:
    """The lowest id above the highest user id the run knows (``known``) that the target itself says no user holds:
    its user question list ("15. List questions posted by a user | Path parameter: userId") answered 404 to admin
    (every permission), the id below it answered 200. Found by doubling steps, then halving (at most ~2 log2 of the
    gap, read-only). None (and why) when the target never answers 404 within ``bound`` ids, or answers anything else:
    the edge is then not judged (an unknown id the run cannot know is never asked)."""
    if not known:
        return None, "no user id of the run is known"
    key = (admin.url(""), max(known))
    if key not in _FOUND:
        _FOUND[key] = _nearest_unknown(admin, max(known), bound)
    return _FOUND[key]


_FOUND: dict[tuple[str, int], tuple[int | None, str]] = {}
"""The nearest unknown user id found per target and highest known id: the modules that send it ask once a run."""


def _nearest_unknown(admin: ApiClient, top: int, bound: int) -> tuple[int | None, str]:
    low, high, step = top, None, 1
    while step <= bound:
        status = _status(admin, low + step)
        if status == 404:
            high = low + step
            break
        if status != 200:
            return None, f"the user question list of id {low + step} answered {status} (neither 200 nor 404)"
        low, step = low + step, step * 2
    if high is None:
        return None, f"no id up to {bound} above the known users is answered 404 on the user question list"
    while high - low > 1:
        mid = (low + high) // 2
        status = _status(admin, mid)
        if status not in (200, 404):
            return None, f"the user question list of id {mid} answered {status} (neither 200 nor 404)"
        low, high = (mid, high) if status == 200 else (low, mid)
    return high, f"id {high}: the user question list answers 404 there and 200 at {low}"


def _status(admin: ApiClient, user_id: int) -> int:
    return admin.get(contract.path("listUserQuestions", userId=user_id), params={"pageSize": 1},
                     operation="listUserQuestions").status
