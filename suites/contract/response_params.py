"""lists9 (issue 44 items 1 and 4): the stated parameters a list's response array (list_responses.array, read by
test_list_responses.py) crosses beyond the dimensions the crossings share, and the fields a row's projection keeps
for the item rules.

Why: blind rounds kept finding one kind, an item field judged on one parameter set of its list only. The item rules
(the list's shape, LIST-ITEM-TYPE, SHAPE-DATES-MILLIS, NODE-TITLE-ANSWERS-COMMENTS, NODE-ORIGINAL-PARENT-ID, the
owner and marked rules) were judged on the rows of the shared dimensions' values only: never at a page past the
second, never at a page larger than 2 items, never on an answer's comment list with the Conventions' paging, sort or
projection ("Paging parameters: page, pageSize, sort"; "Projection parameters: include, exclude, includeOnly"), and
an includeOnly kept only its own two fields and the owner's and marked's, so a date or a type under a projection that
names it was never seen. What is added here is drawn into the same covering array (pairwise with every other
dimension of the list), so each item rule meets each value on a response that holds items, at a few reads a list.

Silences kept: a projection's item is judged only on the fields it keeps (``Seen.kept``); under wrap and v1 the items
are not judged (``list_responses.not_across``); a pageSize above 10 is not judged for its echo (the profile's cap
decides what a page of it holds: $max is that cap).
"""

from __future__ import annotations

from collections.abc import Mapping

import list_access

from qaconform.contract import Contract, ContractError, load_contract

SECTION = "list_responses"
PAGING = "paging"
MAX_TOKEN = "$max"
LARGEST = f"pageSize={MAX_TOKEN}"


def paging_more(contract: Contract | None = None) -> tuple[str, ...]:
    """spec/dimensions.yaml ``list_responses.paging_more``: the paging values the response array adds."""
    contract = contract or load_contract()
    raw = (contract.dimensions_data.get(SECTION) or {}).get("paging_more") or ()
    return tuple(str(v) for v in raw)


USER_LISTS = ("listUserQuestions", "listUserAnswers")
"""The lists whose path names a user ("Path parameter: userId")."""
OWNER_MARK = "@"
"""A paging value ``@account``: the first page (no paging parameter) of ``account``'s list."""


def more_paging(op: str, contract: Contract) -> list[str]:
    """The values the response array adds to list ``op``'s paging column: ``paging_more``, and on a user list
    ``@account`` for every account of the profile (``writer``): that account's list, its first page at the largest
    size (``pageSize=$max``, which the user lists then take only there). Why in the paging column: the array's
    default path is one user's (the fixture question's author, member's answers), so a server whose query for
    another user's list breaks an item field under one parameter passed; and another account's list is not known to
    hold a page past the first, so each account meets every other parameter's value on a first page holding all
    it can (a pair of the array), never an empty page 2 (read by the default path's rows). 128 rows a user list
    instead of 88 with the paging values alone (seed 0)."""
    if op not in USER_LISTS:
        return list(paging_more(contract))
    owners = [f"{OWNER_MARK}{a}" for a in contract.dimensions.values["writer"]]
    return [*(v for v in paging_more(contract) if v != LARGEST), *owners]


def owner_of(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """A drawn row's (dimension, value) pairs with an ``@account`` paging value as the largest first page, and that
    account (the row's ``owner``; None: the default path)."""
    owner = next((v[len(OWNER_MARK):] for d, v in pairs if d == PAGING and v.startswith(OWNER_MARK)), None)
    if owner is None:
        return pairs, None
    return tuple((d, LARGEST if d == PAGING else v) for d, v in pairs), owner


def conventions(op: str, contract: Contract | None = None) -> tuple[str, ...]:
    """The Conventions' dimensions list ``op``'s section leaves unnamed (``list_access.conventions``) that its
    response array crosses: all of them, unless ``list_responses.conventions_exclude`` names the list (with why)."""
    contract = contract or load_contract()
    excluded = conventions_exclude(contract)
    if op in excluded:
        return ()
    return tuple(list_access.load(contract).conventions.get(op, ()))


def conventions_exclude(contract: Contract | None = None) -> Mapping[str, str]:
    """list -> why its Conventions' parameters stay out of its response array; every key a list of ``lists:``."""
    contract = contract or load_contract()
    raw = (contract.dimensions_data.get(SECTION) or {}).get("conventions_exclude") or {}
    out = {str(k): str(v) for k, v in raw.items()}
    for op in out:
        if op not in contract.dimensions.lists:
            raise ContractError(f"{contract.dimensions_path}: {SECTION}.conventions_exclude names {op!r}, no list of "
                                "'lists:'")
    return out


def max_page(profile: object) -> int:
    """``$max``: the largest page the target serves (the profile's max_page_size), 10 where the profile gives none
    ("maximum pageSize: not shown": a page a target cuts at its own cap would read as a short page)."""
    cap = getattr(profile, "max_page_size", None)
    return cap if isinstance(cap, int) and cap >= 1 else 10


JUDGED_FIELDS: Mapping[str, tuple[str, ...]] = {
    "listUserAnswers": ("author", "marked", "originalParentId", "type", "creationDate"),
    "listUserQuestions": ("author", "type", "creationDate"),
    "listQuestions": ("marked", "type", "creationDate"),
    "listAnswerComments": ("originalParentId", "type", "creationDate"),
    "listTopics": ("creationDate",),
}
"""The item fields the item rules of a list judge (owner: author; MARKED-ACCEPTED-QUESTION: marked and the
question; NODE-ORIGINAL-PARENT-ID; LIST-ITEM-TYPE: type; SHAPE-DATES-MILLIS: creationDate), which a row's includeOnly
keeps besides its own two (:func:`sent`); a list not named: type and creationDate (:data:`ITEM_FIELDS`)."""
ITEM_FIELDS = ("type", "creationDate")


def sent(op: str, params: Mapping[str, str]) -> dict[str, str]:
    """The parameters a row sends: its own, with an includeOnly that also keeps the fields its list's item rules
    judge (blind6, issue 44; lists9: the type and a date too). Why: ``includeOnly=id,body`` leaves nothing for the
    owner rule to judge, so a server whose projected query selects by the wrong node (the question's author) passed
    every row; and a projected query that gives a date in seconds passed them all. The row's id still names its own
    two fields; what was sent is in ``Seen.asked`` (PROJ-INCLUDEONLY judges that)."""
    only = params.get("includeOnly")
    if only is None:
        return dict(params)
    names = only.split(",")
    extra = [f for f in JUDGED_FIELDS.get(op, ITEM_FIELDS) if f not in names]
    return {**params, "includeOnly": ",".join([*names, *extra])}
