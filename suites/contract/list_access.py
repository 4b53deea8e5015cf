"""Who may read each list, and what, crossed by default with everything the list admits (issue 44): the cases
test_list_access.py sends, derived from the contract, with spec/ listing only the exclusions.

Why derived and not declared: a rule that names the few circumstances it is crossed with leaves out the ones nobody
listed; a server that checks a list's permission only on the plain request (a projection, a sort or a page size
skips the check) or answers from a response kept for another caller passes every test aimed at one circumstance.
So every must-rule of area ``permissions`` whose operations include a list (spec/rules.yaml), and the rules
``list_access.also`` names, is crossed over each of those lists with every dimension the list admits: every
account as reader (the verdict from the permission table, :func:`verdict`), the optional parameters of
``lists:`` in spec/dimensions.yaml, the list's own (``list_access.own``: spaceId, unanswered, topics; details,
active) and the read order (``list_access.order``: the reader alone, or right after admin or member read the same
URL). ``list_access.exclude`` names what is left out, each with its reason; :func:`crossing` says the rest.

One covering array per list (allpairspy via covering.pairwise, every pair of values of two dimensions at least
once, the run's seed shuffling each column), shared by every rule crossed over that list: one read per row.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from alone_rows import alone, drawn_values
from covering import EXPERT_LISTS, NOT_ANONYMOUS, PAIRS, Combination, covering, expand
from listops import LIST_OPS

from qaconform.contract import NONE, READER, Contract, ContractError, Dimensions, envelope, load_contract

ALONE = "alone"
"""The order value of a read made on its own (shared with the other rules judged on the same row)."""
SECTION = "list_access"
ALLOW = "allow"
DENY = "deny"
AS_PLAIN = "as-plain"
"""Anonymous on a list whose permissions are Anonymous Roles: the site's configuration says whether it holds them
(a site closed to anonymous), so the plain request's answer is the verdict every combination must agree with."""
DENIED_RULES = ("PERM-DENIED-STATUS", "PERM-DENIED-BODY")
"""Rules about the refusal itself: judged only on rows whose reader the table refuses."""
VISIBILITY_RULES = ("PROJ-ONLY-VISIBLE", "PERM-SPACES-PER-SPACE")
"""Rules about which items a served reader is shown: judged on rows of every reader but admin (who may see all)."""


@dataclass(frozen=True)
class Access:
    """spec/dimensions.yaml ``list_access``: the lists' own dimensions, the order dimension, the rules crossed
    besides the permission rules, and the exclusions (``RULE`` or ``RULE listOp`` -> reason)."""

    own: Mapping[str, tuple[str, ...]]
    order: str
    also: tuple[str, ...]
    exclude: Mapping[str, str]
    conventions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """readers (issue 44): list -> the dimensions of the Conventions' parameters ("Paging parameters ...",
    "Projection parameters ...", "Other options accepted by most endpoints: wrap, v1") its own section does not
    name; each tried alone by every reader (:func:`single_rows`), never in the covering array."""


def load(contract: Contract | None = None) -> Access:
    """The ``list_access`` section, every name checked against the contract (a misspelt one is a ContractError
    naming file and key, never a silently smaller crossing)."""
    contract = contract or load_contract()
    raw = contract.dimensions_data.get(SECTION)  # parsed once per contract (the fork server's, in a run)
    return parse(raw, contract.dimensions, contract, str(contract.dimensions_path))


def parse(raw: Any, dims: Dimensions, contract: Contract, where: str) -> Access:
    if not isinstance(raw, dict):
        raise ContractError(f"{where}: '{SECTION}' must be a mapping with own, order, also and exclude")
    own = {str(op): tuple(v) for op, v in (raw.get("own") or {}).items()}
    for op, names in own.items():
        if op not in dims.lists:
            raise ContractError(f"{where}: {SECTION}.own.{op} is not a list of 'lists:'")
        bad = [n for n in names if n not in dims.values or n in dims.lists[op]]
        if bad:
            raise ContractError(f"{where}: {SECTION}.own.{op} names {bad[0]!r}, not a dimension of its own")
    order = str(raw.get("order") or "")
    if order not in dims.values or ALONE not in dims.values[order]:
        raise ContractError(f"{where}: {SECTION}.order must name a dimension whose values include {ALONE!r}")
    bad_after = [v for v in dims.values[order] if v != ALONE and v.removeprefix("after_") not in dims.values[READER]]
    if bad_after:
        raise ContractError(f"{where}: {SECTION}.order value {bad_after[0]!r} is neither {ALONE} nor after_<reader>")
    conventions = {str(op): tuple(v) for op, v in (raw.get("conventions") or {}).items()}
    for op, names in conventions.items():  # readers (issue 44)
        if op not in dims.lists:
            raise ContractError(f"{where}: {SECTION}.conventions.{op} is not a list of 'lists:'")
        bad = [n for n in names if n not in dims.values or n in dims.lists[op] or n in own.get(op, ())]
        if bad:
            raise ContractError(f"{where}: {SECTION}.conventions.{op} names {bad[0]!r}, not a dimension the list's "
                                "section leaves unnamed")
    also = tuple(raw.get("also") or ())
    exclude = {str(k): str(v) for k, v in (raw.get("exclude") or {}).items()}
    for name in (*also, *(k.split()[0] for k in exclude)):
        if name not in contract.rules:
            raise ContractError(f"{where}: {SECTION} names rule {name!r}, which spec/rules.yaml does not hold")
    for key in exclude:
        if len(key.split()) > 1 and key.split()[1] not in dims.lists:
            raise ContractError(f"{where}: {SECTION}.exclude {key!r} names no list of 'lists:'")
    return Access(own, order, also, exclude, conventions)


def crossing(contract: Contract | None = None, access: Access | None = None) -> dict[str, tuple[str, ...]]:
    """Rule -> the lists it is crossed over: every must-rule of area permissions with a list among its
    operations, and ``also``, over those of its operations that are lists, less the exclusions."""
    contract = contract or load_contract()
    access = access or load(contract)
    lists = contract.dimensions.lists
    out: dict[str, tuple[str, ...]] = {}
    for rule in contract.rules.values():
        if rule.level != "must" or not (rule.area == "permissions" or rule.id in access.also):
            continue
        if rule.id in access.exclude:
            continue
        ops = tuple(op for op in rule.operations if op in lists and f"{rule.id} {op}" not in access.exclude)
        if ops:
            out[rule.id] = ops
    return out


def dimensions_of(op: str, dims: Dimensions, access: Access) -> tuple[str, ...]:
    """Every dimension list ``op`` admits: the reader, the stated optional parameters, its own, the read order."""
    return (*dims.of_list(op), *access.own.get(op, ()), access.order)


OWN_PATH = {"listUserAnswers": "userId", "listUserQuestions": "userId", "listAnswerComments": "answerId",
            "listNodeFollowers": "nodeId"}
"""blind10 (issue 44): the lists whose path names a user or a node a user wrote ("Path parameter: userId", answerId,
nodeId), and the parameter. The covering array reads one path for every reader (member's lists, a listed answer,
the fixture question), so no reader ever read a list of its own: a server that sends the author's own reads through
another code path (an author's dashboard with permissions of its own) passed. :func:`own_rows` adds, beside the
array (which keeps its rows and ids), one plain read per signed-in account of the list at a path of its own: its own
user, an answer or a question it wrote (found with reads)."""


@dataclass(frozen=True)
class Row:
    """One drawn read: the combination (reader and parameters) and who read the same URL right before; ``own``: the
    read is of the list at a path of the reader's own (:data:`OWN_PATH`)."""

    CELL_FORM: ClassVar[str | None] = None
    """Read in the JSON form only: no request form in its cell (cells.form_dimension)."""
    combination: Combination
    order: str
    own: bool = False
    whose: str | None = None
    """round14 (issue 44): the account whose list the path names (:func:`others_rows`), None for the array's path."""
    node: str | None = None
    """round82 (issue 44): the kind of question the path names (:data:`NODE_KINDS`, :func:`kind_rows`), None for the
    array's path."""

    @property
    def label(self) -> str:
        suffix = "" if self.order == ALONE else f"-{self.order}"
        whose = f"-of-{self.whose}" if self.whose else ""
        node = f"-at-{self.node}-question" if self.node else ""
        return f"{self.combination.label}{suffix}{'-own-path' if self.own else ''}{whose}{node}"

    @property
    def before(self) -> str | None:
        """The account that reads the same URL right before the reader, or None."""
        return None if self.order == ALONE else self.order.removeprefix("after_")


@dataclass(frozen=True)
class Case:
    """One test: a rule judged on one row (and ``also``, the rules :func:`folded` judges in the same test)."""

    rule: str
    row: Row
    also: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.rule}-{self.row.label}"


def rows(op: str, dims: Dimensions, access: Access, seed: int, strength: int = PAIRS) -> list[Row]:
    """List ``op``'s covering array (strength 2, 3 under ``--thorough``) over every dimension it admits, for the run's
    seed. The reader column is every account, not only those the list serves: a refusal is what the permission rules
    judge."""
    rng = random.Random(f"{seed}|{op}|access")
    names = dimensions_of(op, dims, access)
    columns: list[list[str]] = []
    for d in names:
        values = list(dims.values[READER]) if d == READER else expand(op, d, dims, rng)  # expand shuffles its own
        if d == READER:
            rng.shuffle(values)
        columns.append(values)
    out = []
    for drawn in covering(columns, strength):
        row = dict(zip(names, drawn, strict=True))
        params = tuple((d, row[d]) for d in names[1:-1])
        out.append(Row(Combination(op, row[READER], params), row[access.order]))
    return out


def own_rows(op: str, dims: Dimensions) -> list[Row]:
    """blind10 (issue 44): each signed-in account reading list ``op`` at a path of its own, no parameter, alone."""
    if op not in OWN_PATH:
        return []
    signed_in = [reader for reader in dims.values[READER] if reader != "anonymous"]
    return [Row(Combination(op, reader, ()), ALONE, own=True) for reader in signed_in]


ARRAY_PATH_USER = "member"
"""Whose user lists the covering array reads (test_list_access.py ``access_paths``)."""


def others_rows(op: str, dims: Dimensions) -> list[Row]:
    """round14 (issue 44): each reader, anonymous too, reading list ``op`` of every other account's user, no parameter,
    alone. The permission of a user's list is the list's ("View the questions list"), whoever's user the path names;
    the array reads member's lists and :func:`own_rows` each reader's own, so a site that decides the permission by
    the listed user (a staff profile taken as private to anonymous) passed."""
    if OWN_PATH.get(op) != "userId":
        return []
    accounts = [a for a in dims.values[READER] if a != "anonymous"]
    return [Row(Combination(op, reader, ()), ALONE, whose=whose) for reader in dims.values[READER]
            for whose in accounts if whose not in (reader, ARRAY_PATH_USER)]


NODE_KINDS = ("wiki", "marked", "child-space")
"""round82 (issue 44): the kinds and states of a question the Node fields state (``wiki`` "true when the node is
community-wiki", ``marked`` "true on an accepted answer and on the question that has it", ``containerIds`` "the space
and its parent": a question of a child space), for the lists whose path names a node (:data:`KIND_PATH`)."""
KIND_PATH = {"listNodeFollowers": "nodeId", "listAnswerComments": "answerId"}
"""round82 (issue 44): the lists whose path names a node, and the parameter: a question of each kind, or its first
answer (test_list_access.py ``kind_paths`` finds them with reads)."""


def kind_rows(op: str, dims: Dimensions) -> list[Row]:
    """round82 (issue 44): each reader, anonymous too, reading list ``op`` at the path of a question of each kind of
    :data:`NODE_KINDS` (the followers of the question, the comments of its first answer), no parameter, alone.

    Why: the array reads one node (the fixture question, a listed answer) and :func:`own_rows` one each reader wrote,
    so no reader read a node list of a community-wiki question, an accepted one or one in a child space. The
    permission of a node list is the list's ("| 16 Followers | View users list"; "| 18 Answer's comments | View
    answers in the question page and View the question page"), whatever the node; a site that guards a wiki node's
    followers by the wiki permissions (round82-followers-wiki-novice-403) passed."""
    if op not in KIND_PATH:
        return []
    return [Row(Combination(op, reader, ()), ALONE, node=kind) for reader in dims.values[READER] for kind in NODE_KINDS]


def single_rows(op: str, dims: Dimensions, access: Access, seed: int, drawn: list[Row]) -> list[Row]:
    """readers (issue 44): every reader, anonymous too, reading list ``op`` with no parameter at all, and with each
    value of each dimension of ``list_access.conventions`` alone, at the array's path, alone.

    Why: the covering array holds every (reader, value) pair of the dimensions it crosses, but not the plain
    request of each reader, nor the parameters the Conventions state for every list where the list's section
    names only some (an answer's comments: "Options wrap, v1"; the experts: page, pageSize, sort). A server that
    refuses anonymous an answer's comments once pageSize is given (blind round 17), or serves anonymous the experts
    once a projection is given, passed. Each reader x each such parameter, and each reader with none, is one row
    here (a row the array already holds is not read twice; the array keeps its rows and ids)."""
    rng = random.Random(f"{seed}|{op}|single")
    have = {row.label for row in drawn}
    out: list[Row] = []
    for reader in dims.values[READER]:
        alone = [Combination(op, reader, ())]
        alone += [Combination(op, reader, ((d, v),)) for d in access.conventions.get(op, ())
                  for v in expand(op, d, dims, rng) if v != NONE]
        for combination in alone:
            row = Row(combination, ALONE)
            if row.label not in have:
                have.add(row.label)
                out.append(row)
    return out


def paired_rows(op: str, dims: Dimensions, access: Access, seed: int, drawn: list[Row]) -> list[Row]:
    """histories4 (issue 44): every reader, anonymous too, reading list ``op`` with exactly two parameters given, one
    of them of a dimension of ``list_access.conventions``, the other of another such dimension or of one the list
    admits (its stated parameters, its own), for every such pair of dimensions, alone, at the array's path.

    Why: :func:`single_rows` tries each Conventions parameter alone and the covering array never holds one, so no
    reader ever sent one beside a second parameter. A server whose permission check is skipped only on the path that
    handles two of them at once (a projected page read from another query, a sorted projection from a cache of its
    own) passed. One row per reader and pair of dimensions, the pair's values drawn by the seed from the values that
    give the parameter (any value of each does: the check is about which parameters are given); a row the array or
    the single rows already hold is not read twice."""
    conventions = access.conventions.get(op, ())
    if not conventions:
        return []
    rng = random.Random(f"{seed}|{op}|paired")
    others = [d for d in (*dims.of_list(op), *access.own.get(op, ())) if d != READER and d not in conventions]
    names = [*conventions, *others]
    values = {d: [v for v in expand(op, d, dims, rng) if v != NONE] for d in names}
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
             if (a in conventions or b in conventions) and values[a] and values[b]]
    have = {row.label for row in drawn}
    out: list[Row] = []
    for reader in dims.values[READER]:
        for a, b in pairs:
            row = Row(Combination(op, reader, ((a, rng.choice(values[a])), (b, rng.choice(values[b])))), ALONE)
            if row.label not in have:
                have.add(row.label)
                out.append(row)
    return out


def alone_rows(op: str, dims: Dimensions, drawn: list[Row], have: set[str]) -> list[Row]:
    """paths14 (issue 44 item 1): every reader, anonymous too, reading list ``op`` at the array's path, on its own,
    with each value of each dimension the array ``drawn`` crossed alone (its stated parameters and its own: spaceId,
    unanswered, topics; details, active), the others left out; labels in ``have`` (the rows so far) skipped.

    Why: :func:`single_rows` gives each reader the plain request and each Conventions parameter alone, but the
    list's stated and own parameters only in the array's rows, each beside another parameter or another read order.
    A server that forgets a list's permission or its visibility only when one parameter is the whole query (a
    plain sorted or filtered fast path for one reader) passed. The values are the array's (alone_rows.py)."""
    if not drawn:
        return []
    names = [d for d, _ in drawn[0].combination.values]
    atoms = drawn_values((r.combination, None) for r in drawn)
    return alone(op, dims.values[READER], names, atoms, lambda c, _owner: Row(c, ALONE), lambda r: r.label, have)


SWEPT_READER = "novice"
"""round33 (issue 44): the reader whose withheld items the profile states (hidden_space_id, "a space novice may not
see": test_list_access.py ``_hidden``), so the one reader on whom a visibility rule can fail on every target."""
SORT = "sort"


def named_sorts(contract: Contract | None = None) -> tuple[str, ...]:
    """round43 (issue 44): every sort name the description names for any list, once: the names seen in the sorts
    array ("Names seen: active, newest, ...") and the expert lists' ("sort must be one of reputation, username,
    realname, recent, oldest, default"). "Accepted sort values for lists other than the expert lists: not shown", so
    a name stated for one list is as likely a value of another (a space list's "oldest") as any seen one."""
    contract = contract or load_contract()
    experts = tuple(str(v) for v in contract.operation(EXPERT_LISTS[0]).parameter("sort").values)
    return tuple(dict.fromkeys((*envelope().sorts_seen, *experts)))


def sort_rows(op: str, dims: Dimensions, drawn: list[Row], visibility_lists: tuple[str, ...]) -> list[Row]:
    """round33 (issue 44): :data:`SWEPT_READER` reading list ``op`` with each sort name the description names
    (:func:`named_sorts`: round43 added the expert lists' names to those seen in a sorts array), the sort alone, at
    the array's path, alone, on every list a visibility rule is crossed over that takes a sort and whose accepted
    sort values are "not shown".

    Why: the covering array draws two of those names per list and seed (covering.NAMED_NODE_SORTS), so a server
    that forgets the per-space permission on the query of one sort (a space list ordered newest first read from
    another table) passed with every other seed's names. The value of a parameter whose values the description does
    not state is a dimension of its own here: each seen name once, by the reader the withheld set is stated for
    (a row the array or the single rows already hold is not read twice)."""
    if op in EXPERT_LISTS or op not in visibility_lists or SORT not in dims.of_list(op):
        return []
    have = {row.label for row in drawn}
    out: list[Row] = []
    for name in named_sorts():
        row = Row(Combination(op, SWEPT_READER, ((SORT, f"sort={name}"),)), ALONE)
        if row.label not in have:
            have.add(row.label)
            out.append(row)
    return out


def verdict(op: str, reader: str) -> str:
    """What the permission table says of ``reader`` on list ``op``: ALLOW (the accounts listops.py lets read it),
    DENY (a signed-in account it does not; anonymous on the expert lists, "Errors: 401", and the group list, Site
    Administration Roles), AS_PLAIN (anonymous elsewhere: Anonymous Roles, the site's to configure)."""
    if reader in LIST_OPS[op].roles:
        return ALLOW
    if reader != "anonymous" or op in NOT_ANONYMOUS:
        return DENY
    return AS_PLAIN


def judged(rule: str, row: Row) -> bool:
    """Whether ``rule`` has something to judge on ``row`` (a test that cannot fail is a defect): the refusal rules
    on refused readers only, the visibility rules on every reader but admin."""
    reader = row.combination.reader
    if rule in DENIED_RULES:
        return verdict(row.combination.op, reader) == DENY and (rule != "PERM-DENIED-BODY" or reader != "anonymous")
    if rule in VISIBILITY_RULES:
        return reader != "admin"
    return True


def cases(seed: int, contract: Contract | None = None, strength: int = PAIRS) -> list[Case]:
    """Every test: each crossed rule on each row of each of its lists where it has something to judge."""
    contract = contract or load_contract()
    access = load(contract)
    dims = contract.dimensions
    arrays = {op: rows(op, dims, access, seed, strength) for op in dims.lists}
    drawn = {op: arrays[op] + own_rows(op, dims) + others_rows(op, dims) + kind_rows(op, dims)  # blind10, round14
             for op in dims.lists}  # round82: kind_rows
    crossed = crossing(contract, access)
    visibility_lists = tuple(op for rule in VISIBILITY_RULES for op in crossed.get(rule, ()))
    for op, kept in drawn.items():  # readers (issue 44): each reader plain, and with each Conventions parameter
        kept += single_rows(op, dims, access, seed, kept)
        kept += alone_rows(op, dims, arrays[op], {row.label for row in kept})  # paths14: each value alone
        kept += paired_rows(op, dims, access, seed, kept)  # histories4: and with two, one of them a Conventions one
        kept += sort_rows(op, dims, kept, visibility_lists)  # round33: every seen sort name by the withheld reader
    return [Case(rule, row) for rule, ops in crossed.items() for op in ops
            for row in drawn[op] if judged(rule, row)]


FOLDED = VISIBILITY_RULES
"""speed24 (issue 44): the rules one test judges together on a row they share (the space list's rows: both): one
judgement of the row's response and the reader's withheld items (test_list_access.judge_visibility), whose every
outcome is both rules' alike (the same skip and reason, the same block by CONV-NO-SERVER-ERROR or the envelope, a
leak breaks each), so one item keeps each rule's verdict per row. The other rules of a row stay apart: a refusal is
the permission rule's verdict and the visibility rule's skip, which one item cannot show both (speed23)."""


def folded(found: list[Case]) -> list[Case]:
    """``found`` with each :data:`FOLDED` case judged in the test of the first such case of its row (``also``), in
    that case's place (its id and rule kept); every other case as it was."""
    host: dict[str, int] = {}
    out: list[Case] = []
    for case in found:
        if case.rule in FOLDED:
            at = host.setdefault(case.row.label, len(out))
            if at < len(out):
                out[at] = replace(out[at], also=(*out[at].also, case.rule))
                continue
        out.append(case)
    return out
