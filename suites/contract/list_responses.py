"""Every rule judged on a list's response, checked on every combination the list admits (issue 44, listcross): the
rows test_list_responses.py reads and the checks it runs on each, derived from the contract, with spec/ listing only
the exclusions.

Why derived: a rule checked on a few plain requests passes a server that breaks it under one filter, one search,
one projection, one reader or one request form. So every must-rule whose operations include a list (spec/rules.yaml)
and which no other crossing owns (not a permission rule: list_access.py; not one declared under ``rules:`` of
spec/dimensions.yaml: test_matrix.py) is a *response rule* of those lists: one check (:data:`CHECKS`) runs on the
response of every row of each of its lists. ``list_responses.not_response`` names the must-rules of lists judged on
more than one response (a write, a history, a walk), each with its reason; tests/test_list_responses.py keeps the
two in step (a new rule of a list without a check, or a check without its rule, fails there).

A row crosses the reader, the optional parameters of ``lists:``, the list's own (``list_access.own``: spaceId,
unanswered, topics; details, active) and the request form (``list_responses.form``: the .json path with Accept
application/json as the samples send, or with ``*/*``: "Each path ends in .json, which selects the JSON format").
Where a parameter changes what a rule can judge, the check judges what remains (a projection removes fields, the
follower relations' fields are not shown); where nothing remains, ``list_responses.not_across`` says why, once.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar
from urllib.parse import urljoin, urlsplit

import response_params
import rule_index
from cells import LIST_FORM
from covering import EXPERT_LISTS, NOT_ANONYMOUS, PAIRS, Combination, covering, expand
from listops import LIST_OPS
from rule_assertions import in_items

from qaconform.contract import NONE, READER, Contract, ContractError, SchemaError, envelope, load_contract
from qaconform.invariants import listcount_problems, millis_problems, pagecount_problem

SECTION = "list_responses"
JSON_FORM, ANY_FORM, BROWSER_FORM = "accept_json", "extension_only", "accept_browser"
"""The request forms: Accept application/json (the samples), ``*/*`` (the extension alone selects the format), or a
browser's headers: text/html first (a server letting it win over the extension answers HTML on one list) and a
German Accept-Language (round53: a list localized for it, a name without translation null) (:data:`HEADERS`)."""
ACCEPT = {JSON_FORM: "application/json", ANY_FORM: "*/*",
          BROWSER_FORM: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
HEADERS = {form: {"Accept": a} | ({"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"} if form == BROWSER_FORM else {})
           for form, a in ACCEPT.items()}
FOLLOWERS = "listNodeFollowers"


@dataclass(frozen=True)
class Section:
    """spec/dimensions.yaml ``list_responses``: the request-form dimension, the must-rules of lists that are not
    judged on one response (rule -> why), the lists a rule is left out on (``RULE listOp`` -> why) and the
    dimensions a rule is not judged across (rule -> dimension -> why)."""

    form: str
    not_response: Mapping[str, str]
    exclude: Mapping[str, str]
    not_across: Mapping[str, Mapping[str, str]]
    also: tuple[str, ...] = ()
    """Rules declared under ``rules:`` (test_matrix.py crosses them with the list's stated parameters) that are
    judged on one response too, and so also on every row here (with the lists' own parameters and the form)."""


def load(contract: Contract | None = None) -> Section:
    """The section, every rule and dimension name checked against the contract (a misspelt one is a ContractError
    naming file and key, never a silently smaller crossing)."""
    contract = contract or load_contract()
    path = contract.dimensions_path
    raw = raw_all(contract).get(SECTION) or {}
    dims = contract.dimensions
    form = str(raw.get("form") or "")
    if form not in dims.values:
        raise ContractError(f"{path}: {SECTION}.form names {form!r}, which dimensions does not define")
    also = tuple(str(r) for r in raw.get("also") or ())
    not_across = {str(k): {str(d): str(w) for d, w in (v or {}).items()}
                  for k, v in (raw.get("not_across") or {}).items()}
    for rule in also:  # a declared rule's own not_across holds here too
        declared = dims.rules.get(rule)
        if declared is None:
            raise ContractError(f"{path}: {SECTION}.also names {rule!r}, which is not declared under rules:")
        not_across[rule] = {**_declared_not_across(raw_all(contract), rule), **not_across.get(rule, {})}
    out = Section(form, {str(k): str(v) for k, v in (raw.get("not_response") or {}).items()},
                  {str(k): str(v) for k, v in (raw.get("exclude") or {}).items()}, not_across, also)
    for key in [*out.not_response, *(k.split(" ")[0] for k in out.exclude), *out.not_across]:
        if key not in contract.rules:
            raise ContractError(f"{path}: {SECTION} names rule {key!r}, which spec/rules.yaml does not hold")
    for rule, left in out.not_across.items():
        for dim in left:
            if dim not in dims.values:
                raise ContractError(f"{path}: {SECTION}.not_across.{rule} names {dim!r}, not a dimension")
    return out


def raw_all(contract: Contract) -> Mapping[str, Any]:
    """spec/dimensions.yaml as data, parsed once per contract (each list's array reads it)."""
    return contract.dimensions_data


def _declared_not_across(raw: Mapping[str, Any], rule: str) -> dict[str, str]:
    entry = ((raw.get("rules") or {}).get(rule) or {}).get("not_across") or {}
    return {str(d): str(w) for d, w in entry.items()}


def own_dimensions(contract: Contract) -> Mapping[str, tuple[str, ...]]:
    """The lists' own parameters (spec/dimensions.yaml ``list_access.own``), read where list_access.py reads them."""
    raw = raw_all(contract)
    return {str(k): tuple(v or ()) for k, v in ((raw.get("list_access") or {}).get("own") or {}).items()}


def response_rules(contract: Contract | None = None, section: Section | None = None) -> dict[str, tuple[str, ...]]:
    """rule -> the lists its check runs on: every must-rule of a list no other crossing owns, less ``not_response``,
    less the lists ``exclude`` leaves it out on."""
    contract = contract or load_contract()
    section = section or load(contract)
    dims = contract.dimensions
    raw = raw_all(contract)
    also = set((raw.get("list_access") or {}).get("also") or ())
    out: dict[str, tuple[str, ...]] = {}
    for rule in contract.rules.values():
        ops = tuple(op for op in rule.operations if op in dims.lists)
        if rule.level != "must" or not ops or rule.area == "permissions":
            continue
        if rule.id in dims.rules and rule.id not in section.also:
            continue
        if rule.id in also or rule.id in section.not_response:
            continue
        kept = tuple(op for op in ops if f"{rule.id} {op}" not in section.exclude)
        if kept:
            out[rule.id] = kept
    return out


# --- the rows: one covering array per list ---------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One read: the list's combination (reader and parameters, tokens unfilled) and the request form."""

    CELL_FORM: ClassVar[str | None] = LIST_FORM
    """The dimension ``form`` is a value of, for the row's cell (cells.form_dimension)."""
    combination: Combination
    form: str
    owner: str | None = None
    """blind9 (issue 44): the account whose list a user list's row reads (None: the path ``matrix_paths`` gives)."""

    @property
    def op(self) -> str:
        return self.combination.op

    @property
    def reader(self) -> str:
        return self.combination.reader

    @property
    def label(self) -> str:
        owner = f"-of-{self.owner}" if self.owner else ""
        return f"{self.combination.label}{owner}-{self.form}"

    def value(self, dimension: str) -> str:
        return self.combination.value(dimension)


def readers(op: str, contract: Contract) -> list[str]:
    """Every account the list's section lets read it, anonymous where it may, and anonymous on the expert lists
    ("Errors: 401": EXPERTS-401 is judged on those rows)."""
    allowed = set(LIST_OPS[op].roles) | (set() if op in NOT_ANONYMOUS and op not in EXPERT_LISTS else {"anonymous"})
    return [r for r in contract.dimensions.values[READER] if r in allowed]


def array(op: str, seed: int, strength: int = PAIRS, contract: Contract | None = None,
          deeper: bool = False, extra: tuple[str, ...] = ()) -> list[Row]:
    """The covering array of list ``op`` over reader, its stated parameters, its own and the request form;
    ``deeper`` (test_list_responses.py, lists9): with the Conventions' parameters its section leaves unnamed and the
    paging values ``paging_more`` adds, and on a user list the path's user (every account's list at its first page,
    ``Row.owner``): response_params.py, the item rules under every stated parameter. ``extra`` (round48): some of
    those Conventions' parameters only (subtree_rows.py's ``conventions``)."""
    contract = contract or load_contract()
    dims = contract.dimensions
    section = load(contract)
    rng = random.Random(f"{seed}|{op}|responses")
    stated = (*dims.of_list(op), *(response_params.conventions(op, contract) if deeper else extra))
    names = [*stated, *own_dimensions(contract).get(op, ()), section.form]
    columns = []
    for name in names:
        if name == READER:
            values = readers(op, contract)
            rng.shuffle(values)
        elif name in stated:
            values = expand(op, name, dims, rng)
            values += response_params.more_paging(op, contract) if deeper and name == "paging" else []
        else:
            values = list(dims.values[name])
            rng.shuffle(values)
        columns.append(values)
    names, columns = _merged(names, columns, tuple(m for m in MERGED if m in names))
    rows = []
    for drawn in covering(columns, strength):
        pairs = tuple(pair for name, value in zip(names, drawn, strict=True) for pair in _split(name, value))
        pairs, owner = response_params.owner_of(pairs)
        form = dict(pairs)[section.form]
        rows.append(Row(Combination(op, pairs[0][1], tuple(p for p in pairs[1:] if p[0] != section.form)), form, owner))
    return rows


SWEPT_ITEMS = ("question", "answer", "comment")
"""The lists whose ``$sort`` names are the ones the description has seen in the sorts array of the question and
comment lists ("Names seen: active, newest, ..."): the node lists. Elsewhere the names are not the list's
("Accepted sort values for lists other than the expert lists: not shown"); the expert lists draw all of theirs."""
SWEEP_READER = "admin"


def every_sort_name(op: str, rows: list[Row], contract: Contract) -> list[Row]:
    """blindc (issue 44): one more row per seen sort name the list's covering array did not draw (it draws two,
    covering.NAMED_NODE_SORTS), read by admin (who sees every item, and is not the path's user on the lists the
    matrices read) with no other parameter, so that every name reaches every node list that takes a sort: a server
    that serves one sort by another query (the user taken from the session, a filter dropped) breaks a response
    rule on that name only. Added beside the covering array (test_list_responses.py), which keeps its rows and ids."""
    stated = (*contract.dimensions.of_list(op), *response_params.conventions(op, contract))  # lists9: the comments'
    if op in EXPERT_LISTS or "sort" not in stated or LIST_OPS[op].item_type not in SWEPT_ITEMS:
        return []
    drawn = {row.value("sort") for row in rows}
    return [Row(Combination(op, SWEEP_READER, (("sort", f"sort={name}"),)), JSON_FORM)
            for name in envelope().sorts_seen if f"sort={name}" not in drawn]


SHAPE_OPTIONS = ("wrap", "v1")
"""The options whose effect is not shown: the item rules are judged only where neither is given."""
MERGED = ("projection", *SHAPE_OPTIONS)
"""The dimensions that decide what of the items a rule can judge (a projection removes fields; under wrap or v1 the
items are not judged) share one column of their combinations: every value of every other dimension then meets the
plain request (no projection, no option) in some row, and each projection with each option, which separate columns
of a pairwise array do not promise (a triple). 632 rows over the ten lists instead of 275 (seed 0)."""
_JOIN = "+"


def _merged(names: list[str], columns: list[list[str]], merge: tuple[str, ...]) -> tuple[list[str], list[list[str]]]:
    """``names``/``columns`` with the ``merge`` dimensions (when all are there) as one column of their product."""
    if len(merge) < 2:
        return names, columns
    at = [names.index(m) for m in merge]
    product = [[]]  # type: list[list[str]]
    for i in at:
        product = [p + [v] for p in product for v in columns[i]]
    keep = [i for i in range(len(names)) if i not in at]
    return ([names[i] for i in keep] + [_JOIN.join(merge)],
            [columns[i] for i in keep] + [[_JOIN.join(p) for p in product]])


def _split(name: str, value: str) -> list[tuple[str, str]]:
    """A merged column's (name, value) back into its dimensions' pairs."""
    if _JOIN not in name:
        return [(name, value)]
    return list(zip(name.split(_JOIN), value.split(_JOIN), strict=True))


# --- what one response shows, and the checks ---------------------------------------------------------------------

@dataclass
class Seen:
    """One row's response as the checks judge it: the parameters sent, the envelope, the path's user id, the
    schema's errors (computed once, :func:`schema_errors`) and the question index (id -> marked) for
    MARKED-ACCEPTED-QUESTION."""

    row: Row
    asked: dict[str, str]
    body: dict[str, Any]
    user_id: str | None = None
    marked: Mapping[str, bool] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)

    @property
    def op(self) -> str:
        return self.row.op

    @property
    def items(self) -> list[dict[str, Any]]:
        return [i for i in self.body.get("list") or [] if isinstance(i, dict)]

    def kept(self, name: str) -> bool:
        """Whether the row's projection keeps field ``name`` on its items."""
        only = self.asked.get("includeOnly")
        if only is not None and name not in only.split(","):
            return False
        return name not in (self.asked.get("exclude") or "").split(",")


def schema_errors(seen: Seen, contract: Contract, rule_of: Callable[[SchemaError], list[str]]) -> dict[str, list[str]]:
    """The response's schema errors by the rule each breaks (``rule_of``: rule_assertions' attribution), less what
    the row's projection removed (a required field not kept) and the items of follower relations (details=true:
    "Fields of a follower relation ...: not shown")."""
    body = seen.body
    if seen.op == FOLLOWERS and seen.asked.get("details") == "true":
        body = {**body, "list": []}
    name = contract.operation(seen.op).response_schema(200)
    out: dict[str, list[str]] = {}
    for error in contract.schema_errors(str(name), body) if name else []:
        if error.missing and in_items(error) and not seen.kept(error.missing):
            continue
        for rule in rule_of(error):
            out.setdefault(rule, []).append(error.line)
    return out


Problems = list[str]


def _shape(seen: Seen) -> Problems:
    return seen.errors.get(shape_rule(seen.op), [])


def _date_formatted(seen: Seen) -> Problems:
    return seen.errors.get("SHAPE-DATE-FORMATTED", [])


def _default_page(seen: Seen) -> Problems:
    page = seen.body.get("page")
    return [] if page == 1 else [f"no page was asked for, so the page is the default 1; the envelope says {page!r}"]


def _page_echo(seen: Seen) -> Problems:
    asked, count = int(seen.asked["page"]), seen.body.get("pageCount")
    if not isinstance(count, int) or asked > count or seen.body.get("page") == asked:
        return []
    return [f"page {asked} was asked for (pageCount {count}); the envelope says page {seen.body.get('page')!r}"]


def _page_size_echo(seen: Seen) -> Problems:
    asked = int(seen.asked["pageSize"])
    if seen.body.get("pageSize") == asked:
        return []
    return [f"pageSize {asked} was asked for; the envelope says pageSize {seen.body.get('pageSize')!r}"]


def share(total: int, page: int, size: int) -> int:
    """Items page ``page`` (from 1) of size ``size`` holds when the pages partition ``total`` items."""
    return max(0, min(size, total - (page - 1) * size))


def _union(seen: Seen) -> Problems:
    """The page holds the share of totalCount that paging gives it: every page before the last full, the rest on
    the last, none after (what a walk of every page needs to yield totalCount items). The follower list numbers
    its pages its own way ("A follower list shows 0"): there only no more than totalCount."""
    total, held = seen.body.get("totalCount"), len(seen.body.get("list") or [])
    if not isinstance(total, int):
        return []
    if held > total:
        return [f"the page holds {held} items, more than totalCount {total}"]
    size = int(seen.asked.get("pageSize") or seen.body.get("pageSize") or 0)
    if seen.op == FOLLOWERS and "page" not in seen.asked and 0 <= held < size and held != total:
        # lists (issue 44): however the follower list numbers its pages, the one read without a page is its first,
        # and a first page shorter than pageSize holds every item (an empty list of a node no one follows: 0)
        return [f"the first follower page (no page asked) holds {held} items, fewer than pageSize {size}, so the list "
                f"holds {held}; totalCount says {total}"]
    if seen.op == FOLLOWERS or size <= 0 or held > size:
        return []  # a page over its pageSize is PAGING-LISTCOUNT's (listcount_problems): one statement, one rule
    page = int(seen.asked.get("page") or 1)
    want = share(total, page, size)
    if held == want:
        return []
    return [f"page {page} of size {size} of {total} items holds {held}; a walk of every page yields totalCount items "
            f"only if this page holds {want} (pageCount {math.ceil(total / size)})"]


def _sorts(seen: Seen) -> Problems:
    sorts = seen.body.get("sorts")
    if isinstance(sorts, list) and all(isinstance(s, str) for s in sorts):
        return []
    return [f"the list carries sorts, an array of strings; got {sorts!r}"]


def _no_title(seen: Seen) -> Problems:
    titled = [(i.get("id"), i.get("title")) for i in seen.items if i.get("title") is not None]
    return [f"answers and comments carry no title (absent or null); these do (id, title): {titled[:5]}"] if titled \
        else []


def _original_parent(seen: Seen) -> Problems:
    if not seen.kept("originalParentId"):
        return []
    wrong = [(i.get("id"), i.get("originalParentId")) for i in seen.items
             if not isinstance(i.get("originalParentId"), int) or isinstance(i.get("originalParentId"), bool)]
    return [f"originalParentId (an integer) is present on answers and comments; these (id, value): {wrong[:5]}"] \
        if wrong else []


def _owner(seen: Seen) -> Problems:
    others = [(i.get("id"), i["author"].get("id")) for i in seen.items if isinstance(i.get("author"), dict)
              and "id" in i["author"] and str(i["author"]["id"]) != str(seen.user_id)]
    return [f"the list of user {seen.user_id}'s posts holds others' (id, author.id): {others[:5]}"] if others else []


def _marked(seen: Seen) -> Problems:
    wrong = [(i.get("id"), i.get("originalParentId")) for i in seen.items if i.get("marked") is True
             and seen.marked.get(str(i.get("originalParentId"))) is False]
    # the question itself, in every row of the question list (any sort, filter, page, reader): a question admin's
    # plain list shows marked has its accepted answer whichever order lists it (blind6, issue 44: a sort's query
    # that reads marked from a column it does not select)
    unmarked = [i.get("id") for i in seen.items if seen.op == "listQuestions" and i.get("marked") is False
                and seen.marked.get(str(i.get("id"))) is True]
    return ([f"accepted answers (marked true) whose question admin lists with marked false (id, question): "
             f"{wrong[:5]}"] if wrong else []) + ([
        f"questions admin's plain question list shows marked (they have an accepted answer) listed here with "
        f"marked false: {unmarked[:5]}"] if unmarked else [])


def _listcount(seen: Seen) -> Problems:
    return listcount_problems(seen.body)  # listCount is the number of items, no more than pageSize


def _pagecount(seen: Seen) -> Problems:
    problem = pagecount_problem(seen.body)
    return [problem] if problem else []


def _envelope(seen: Seen) -> Problems:
    return seen.errors.get("PAGING-ENVELOPE", [])


def _item_type(seen: Seen) -> Problems:
    want = LIST_OPS[seen.op].item_type
    if want is None or (seen.op == FOLLOWERS and seen.asked.get("details") == "true"):
        return []
    wrong = [(i.get("id"), i.get("type")) for i in seen.items if "type" in i and i.get("type") != want]
    # lists (issue 44): an item without its type (where the row's projection keeps type) is not "of type" the list's
    # either: the schema's error about it was attributed to this rule (test_list_responses._item_type_alone) and judged
    # by none; an item of another type is named above already
    untyped = [i.get("id") for i in seen.items if "type" not in i and seen.kept("type")]
    return ([f"{seen.op} holds {want} items; these are not (id, type): {wrong[:5]}"] if wrong else []) + (
        [f"{seen.op} holds {want} items, each with its type; these carry none (id): {untyped[:5]}"] if untyped else [])


def _millis(seen: Seen) -> Problems:
    return millis_problems(seen.body.get("list") or [], "$.list")


# commentcross (issue 44): rules of a list's own parameters judged on every row that asks for them

def _in_space(seen: Seen) -> Problems:
    """spaceId=S: every item the row shows is of space S (primaryContainerId or containerIds holds it), where the
    row's projection kept either field."""
    space = seen.asked.get("spaceId")
    outside = []
    for item in seen.items:
        held = {str(item["primaryContainerId"])} if "primaryContainerId" in item else set()
        if isinstance(item.get("containerIds"), list):
            held |= {str(c) for c in item["containerIds"]}
        if held and space not in held:
            outside.append((item.get("id"), item.get("primaryContainerId")))
    return [f"spaceId={space} restricts the list to one space; these items are of others (id, primaryContainerId): "
            f"{outside[:5]}"] if outside else []


def _only_named(seen: Seen) -> Problems:
    """includeOnly: every item holds no field it did not name."""
    named = set((seen.asked.get("includeOnly") or "").split(","))
    extra = [(i.get("id"), sorted(set(i) - named)) for i in seen.items if set(i) - named]
    return [f"includeOnly={seen.asked.get('includeOnly')} limits the returned items to those fields; these carry "
            f"others (id, fields): {extra[:5]}"] if extra else []


def _user_items(seen: Seen) -> Problems:
    """Without details every item is a User item: none of another type, and none that carries neither type nor
    username where the row's projection keeps both (a follower relation: round34, the row with active=false and no
    details answered relations, which no type check saw)."""
    wrong = [(i.get("id"), i.get("type")) for i in seen.items if "type" in i and i.get("type") != "user"]
    kept = seen.kept("type") and seen.kept("username")
    relations = [sorted(i)[:4] for i in seen.items if kept and "type" not in i and "username" not in i]
    return ([f"without details the follower items are User items (type user); these are not (id, type): {wrong[:5]}"]
            if wrong else []) + ([f"without details the follower items are User items; these carry neither type nor "
                                  f"username, as follower relations do (their fields): {relations[:3]}"]
                                 if relations else [])


@dataclass(frozen=True)
class Check:
    """One response rule's check: which rows it judges (``judges``: the parameters it needs, the reader) and what
    it finds wrong on one (``problems``). A row it does not judge does not carry its rule marker."""

    problems: Callable[[Seen], Problems]
    judges: Callable[[Row], bool] = lambda row: True
    items: bool = False
    """Judges the items (their shape or fields): not under wrap or v1 (``not_across``)."""


def _asks(name: str) -> Callable[[Row], bool]:
    return lambda row: name in row.combination.params({})


def _small_page_size(row: Row) -> bool:
    size = row.combination.params({}).get("pageSize", "0")  # $max (lists9): the profile's cap, echo not judged
    return size.isdecimal() and 1 <= int(size) <= 10


def shape_rule(op: str, contract: Contract | None = None) -> str:
    """The SHAPE-LIST-* rule of list ``op`` (the one whose only operation it is)."""
    contract = contract or load_contract()
    found = [r.id for r in contract.rules.values() if r.id.startswith("SHAPE-LIST-") and r.operations == (op,)]
    if len(found) != 1:
        raise ContractError(f"spec/rules.yaml: {len(found)} SHAPE-LIST-* rules name only {op}; one is expected")
    return found[0]


CHECKS: dict[str, Check] = {
    **{shape_rule(op): Check(_shape, items=True) for op in LIST_OPS},
    "SHAPE-DATE-FORMATTED": Check(_date_formatted, items=True),
    "PAGING-DEFAULT-PAGE": Check(_default_page, lambda row: not _asks("page")(row)),
    "PAGING-PAGE-ECHO": Check(_page_echo, _asks("page")),
    "PAGING-PAGESIZE-ECHO": Check(_page_size_echo, _small_page_size),
    "PAGING-TOTALCOUNT-UNION": Check(_union),
    "PAGING-SORTS-QUESTIONS": Check(_sorts),
    "PAGING-SORTS-COMMENTS": Check(_sorts),
    "NODE-TITLE-ANSWERS-COMMENTS": Check(_no_title, items=True),
    "NODE-ORIGINAL-PARENT-ID": Check(_original_parent, items=True),
    # blinde (issue 44): which items a user's list holds is the path's userId's effect, whatever shape wrap or v1
    # give them: judged under both too, on the items that carry author.id (a legacy branch that takes the user from
    # the credentials lists the caller's posts only under wrap)
    "LIST-USER-QUESTIONS-OWNER": Check(_owner),
    "LIST-USER-ANSWERS-OWNER": Check(_owner),
    "MARKED-ACCEPTED-QUESTION": Check(_marked, items=True),
    # judged on the status and the body's form, before the envelope (test_list_responses.py: ``judge_first``)
    "SORT-EXPERTS-VALUES": Check(lambda seen: [], _asks("sort")),
    "CONV-JSON-EXTENSION": Check(lambda seen: []),
    "EXPERTS-401": Check(lambda seen: []),
    # declared under rules: (test_matrix.py) and judged here too (list_responses.also)
    "PAGING-ENVELOPE": Check(_envelope),
    "PAGING-LISTCOUNT": Check(_listcount),
    "PAGING-PAGECOUNT": Check(_pagecount),
    "LIST-ITEM-TYPE": Check(_item_type, items=True),
    "SHAPE-DATES-MILLIS": Check(_millis, items=True),
    # commentcross (issue 44): declared rules judged on every row too (list_responses.also), and AUTH-BASIC on the
    # status of every signed-in row (judge_first: a 401 to valid Basic credentials)
    "FILTER-SPACEID": Check(_in_space, _asks("spaceId"), items=True),
    "FOLLOWERS-DETAILS-DEFAULT": Check(_user_items, lambda row: "details" not in row.combination.params({}),
                                       items=True),
    "AUTH-BASIC": Check(lambda seen: [], lambda row: row.reader != "anonymous"),
    "VERSION-PATH": Check(lambda seen: []),
    "PROJ-INCLUDEONLY": Check(_only_named, _asks("includeOnly"), items=True),
}
"""Response rule -> its check. The status rules (SORT-EXPERTS-VALUES, CONV-JSON-EXTENSION, EXPERTS-401) are judged
before the body is read as an envelope; their ``problems`` is empty."""

FIRST = ("SORT-EXPERTS-VALUES", "CONV-JSON-EXTENSION", "EXPERTS-401", "AUTH-BASIC", "VERSION-PATH")
REFUSED_ROWS = ("EXPERTS-401",)
"""Rules judged on the rows of a reader the list refuses (anonymous on the expert lists): only these."""


OTHER_VERSION_ALWAYS = ("VERSION-PATH",)
"""round14 (issue 44): rules whose ``not_across`` excuses a 404 only (it may answer the value), still judged on those
rows for what no value explains: the list served from another version's path (:func:`other_version`)."""


def other_version(url: str, location: str | None = None) -> str | None:
    """The path of another version of the service the response came from (its final URL, or a redirect's Location
    it was not followed to), or None: "The version is part of the path: every endpoint lives under /services/v2"."""
    for where in (url, location or ""):
        path = urlsplit(urljoin(url, where)).path
        if re.search(r"/services/v\d+/", path) and "/services/v2/" not in path:
            return path
    return None


def excused(rule: str, row: Row, section: Section) -> bool:
    """Whether ``row`` carries a value ``rule`` is not judged across (spec/dimensions.yaml ``not_across``)."""
    return any(row.value(dim) != NONE for dim in section.not_across.get(rule, {}))


def rules_of(row: Row, rules: Mapping[str, tuple[str, ...]], section: Section) -> tuple[str, ...]:
    """The response rules judged on ``row``: those of its list whose check judges it, across every dimension the
    section does not leave the rule out of for the row's value."""
    op = row.op
    index = rule_index.candidates(rules, section.not_across, REFUSED_ROWS, OTHER_VERSION_ALWAYS)
    return tuple(rule for rule, across in index.get((op, op in EXPERT_LISTS and row.reader == "anonymous"), ())
                 if not any(row.value(dim) != NONE for dim in across) and CHECKS[rule].judges(row))
