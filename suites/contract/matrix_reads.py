"""What the matrix suite (test_matrix.py) reads and how, apart from its tests: the list each combination reads, what
reads show a reader may not see, where admin's questions live, and one combination's response as an envelope (or the
skip or failure that says why it cannot be judged). Moved out of the test module so that it holds its tests (the
600-line limit): the names are the module's own, imported by plain name as its siblings are."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import list_answers
from covering import Combination

from qaconform.contract import load_contract
from qaconform.contract import path as contract_path
from qaconform.invariants import envelope_type_problems
from qaconform.pytest.exchange_log import outside_tests
from qaconform.pytest.outcomes import SkipKind, fail, skip
from qaconform.pytest.support import list_all
from qaconform.target.client import ApiClient, ApiResponse

PERMISSION_RULE = {"listQuestions": "PERM-LIST-QUESTIONS", "listUserAnswers": "PERM-USER-ANSWERS",
                   "listActiveExperts": "PERM-EXPERTS", "listEarnedExperts": "PERM-EXPERTS",
                   "listSpaces": "PERM-SPACES", "listTopics": "PERM-TOPICS", "listUserQuestions": "PERM-USER-QUESTIONS",
                   "listNodeFollowers": "PERM-FOLLOWERS", "listGroups": "PERM-GROUPS",
                   "listAnswerComments": "PERM-ANSWER-COMMENTS"}
"""The rule that lets a signed-in reader read each list: a refusal blocks the matrix's rules on it."""
MAX_PAGES = 10
"""Pages read (of 100 items) when the kit learns what is withheld from a reader: bounded whatever the target holds."""
MAX_HIDDEN_SPACES = 5
"""Hidden spaces whose questions admin lists for the withheld set (a few suffice to see a leak)."""
EARLIER_PAGES = 2
"""Pages before the one a combination asks for that the visibility rule reads too (a page=2 combination: page 1)."""
@dataclass(frozen=True)
class Withheld:
    """What reads show a reader may not see: spaces admin lists and the reader's space list leaves out ("Only
    spaces for which the caller has View the questions list appear"), and the questions and answers admin lists in
    them."""

    spaces: frozenset[str]
    nodes: frozenset[str]
    titles: tuple[str, ...]

    def as_json(self) -> dict[str, list[str]]:
        """The JSON form a worker hands the others (conftest.run_once)."""
        return {"spaces": sorted(self.spaces), "nodes": sorted(self.nodes), "titles": list(self.titles)}

    @classmethod
    def of_json(cls, raw: dict[str, list[str]] | None) -> Withheld | None:
        return None if raw is None else cls(frozenset(raw["spaces"]), frozenset(raw["nodes"]), tuple(raw["titles"]))


def withheld_of(api: dict[str, ApiClient], reader: str) -> Withheld | None:
    """What admin lists and ``reader`` does not: spaces, and the questions and answers in the first
    :data:`MAX_HIDDEN_SPACES` of them."""
    spaces_path = contract_path("listSpaces")
    every = {str(s.get("id")) for s in list_all(api["admin"], spaces_path, page_size=100, max_pages=MAX_PAGES)}
    first = api[reader].get(spaces_path, params={"pageSize": 100})
    if first.status != 200:
        return None
    seen = {str(s.get("id")) for s in list_all(api[reader], spaces_path, page_size=100, max_pages=MAX_PAGES)}
    hidden = sorted(every - seen)
    nodes: set[str] = set()
    titles: list[str] = []
    for space in hidden[:MAX_HIDDEN_SPACES]:
        for q in list_all(api["admin"], contract_path("listQuestions"), params={"spaceId": space},
                          page_size=100, max_pages=2):
            nodes.add(str(q.get("id")))
            nodes.update(str(a) for a in (q.get("answers") or []))
            titles.append(str(q.get("title") or ""))
    return Withheld(frozenset(hidden), frozenset(nodes), tuple(titles))


@dataclass(frozen=True)
class SpaceIndex:
    """The spaces of the questions admin lists unfiltered and unprojected (id -> primaryContainerId and
    containerIds), so that a projected item that shows no container is still placed; ``complete`` when every
    question was read."""

    spaces: dict[str, set[str]]
    complete: bool

    def holding(self, space: str) -> int:
        return sum(1 for s in self.spaces.values() if space in s)

    def as_json(self) -> dict[str, Any]:
        """The JSON form a worker hands the others (conftest.run_once)."""
        return {"spaces": {k: sorted(v) for k, v in self.spaces.items()}, "complete": self.complete}

    @classmethod
    def of_json(cls, raw: dict[str, Any]) -> SpaceIndex:
        return cls({str(k): set(v) for k, v in raw["spaces"].items()}, bool(raw["complete"]))


def index_spaces(api: dict[str, ApiClient]) -> SpaceIndex:
    """The spaces of every question admin lists, unfiltered and unprojected (bounded)."""
    path = contract_path("listQuestions")
    with outside_tests():
        first = api["admin"].get(path, params={"pageSize": 100})
        total = first.json().get("totalCount") if first.status == 200 and isinstance(first.json(), dict) else None
        items = list_all(api["admin"], path, page_size=100, max_pages=MAX_PAGES)
    spaces = {}
    for item in items:
        if isinstance(item, dict):
            found = {str(item.get("primaryContainerId"))}
            found |= {str(c) for c in item.get("containerIds") or [] if c is not None}
            spaces[str(item.get("id"))] = found
    return SpaceIndex(spaces, isinstance(total, int) and len(spaces) >= total)




def read_combination(combination: Combination, fetch: Any, matrix_paths: dict[str, str],
                     search_word: str | dict[str, str], page: int | None = None,
                     extra: dict[str, str] | None = None, without: str | None = None
                     ) -> tuple[dict[str, Any], ApiResponse]:
    """The combination's response as an envelope (``page``: another page of it; ``extra``: a stated parameter
    added to it; ``without``: one of its parameters left out), or the skip or blocked failure that says why it
    cannot be judged."""
    op, reader = combination.op, combination.reader
    if op not in matrix_paths:
        skip(SkipKind.MISSING_FIXTURE, f"not checked: no {op} to read on this target (needs an answer of a listed "
             "question)")
    words = search_word if isinstance(search_word, dict) else {"$word": search_word}  # reads16: or every token
    params = combination.params(words) | ({} if page is None else {"page": str(page)}) | (
        extra or {})
    params.pop(without or "", None)
    resp: ApiResponse = fetch(reader, matrix_paths[op], **params)
    list_answers.served(combination.label, op, reader, resp, PERMISSION_RULE[op])
    return list_answers.envelope(combination.label, combination.value, resp, resp.json()), resp


def explicit_default_forms(op: str, given: Mapping[str, str], extra: dict[str, str]) -> list[dict[str, str]]:
    """``extra`` alone, then ``extra`` with each query parameter of ``op`` whose default spec/openapi.yaml states
    (``schema.default``: "details (boolean, default false)", "active (boolean, default true)") and that ``given`` and
    ``extra`` leave out, given at that default. Why (fix23, issue 44, r23-followers-explicit-details-false-lists-all):
    a parameter sent at its default is a form of its own; a server may route it through another branch, where
    another parameter's default is lost. Derived from the contract, so every stated default is tried."""
    forms = [extra]
    for param in load_contract().operation(op).parameters:
        if param.location != "query" or "default" not in param.schema or param.name in given or param.name in extra:
            continue
        value = param.schema["default"]
        forms.append(extra | {param.name: str(value).lower() if isinstance(value, bool) else str(value)})
    return forms


def relations_read(active: str) -> dict[str, str]:
    """The follower list read whose totalCount is the relations counted for ``active`` (details=true: "each
    modelling a following user"). The two are asked under URLs that differ in more than active (page=1 is the stated
    default, so it asks the same): a cache keyed without active cannot answer one from the other, and the
    combination's own reads, back to back across active, are judged against counts it did not make
    (round31-followers-cache-ignores-active was caught only by chance before: stop 57's CI missed it)."""
    return {"details": "true", "active": active} | ({} if active == "true" else {"page": "1"})


DEFAULTED = {"details": "true"}
"""The follower relations read with active left out (its stated default, true), compared with the relations read
with active=true (FOLLOWERS-ACTIVE-DEFAULT, crossing13)."""
JUDGED_BESIDE = {"FOLLOWERS-ACTIVE-DEFAULT": {"follow": ("none", "active=false", "details=true",
                                                         "details=true&active=false")}}
"""rule -> the values of a list's own dimension its test's reads judge beside each combination (crossing13: the
combination's cell carries them, covering.parametrize_by_rule ``beside``): FOLLOWERS-ACTIVE-DEFAULT reads every
combination with active left out and with active=false, and the relations with details=true, active left out
(:data:`DEFAULTED`) and false, each count compared."""


def judge_defaulted_relations(combination: Combination, fetch: Any, path: str, active_count: Any) -> None:
    """FOLLOWERS-ACTIVE-DEFAULT on details=true with active left out, read by the combination's reader: "active
    (boolean, default true)", so it counts the relations details=true&active=true counts (``active_count``); a read
    that is no envelope is not judged."""
    resp, label = fetch(combination.reader, path, **DEFAULTED), combination.label
    body = resp.json() if resp.status == 200 else None
    if not isinstance(body, dict) or envelope_type_problems(body):
        skip(SkipKind.OTHER, f"not judged: details=true (active left out) answered {resp.status} without the "
             "envelope, so the relations it counts are unknown (the combination's counts held)")
    if body.get("totalCount") != active_count:
        fail(["FOLLOWERS-ACTIVE-DEFAULT"], f"{label}: details=true with active left out counts "
             f"{body.get('totalCount')} relations, details=true&active=true counts {active_count}: \"active "
             "(boolean, default true)\"", resp)
