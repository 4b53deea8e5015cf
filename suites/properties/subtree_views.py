"""What every account is shown of the privacy model's subtree, list by list, read in an order a cache gets wrong.

The subtree (an answer of the run's, its comment threads, a thread under the fixture question) shows in several
lists: the answer's comment list (operation 18), each writer's content list (operation 8, the only list that shows a
comment on a question), the answer as member's answers list it (operation 4) and the question as the question list
shows it (operation 3; also searched with each stated search parameter, q and lang: round87) and as its author's
question list shows it (operation 15, round54), whose commentIds and childrenIds name comments. A rule a server
keeps in one list and breaks in another (a private comment on a question shown in its author's content) is only seen
by reading them all.

Order: every URL is read by every account one after another, back to back, the account entitled to see the most
first and the least entitled right after it, anonymous last, right after a signed-in read: what a response cached by
URL (not by caller) gets wrong. Every other round the order is rotated instead, so that the same pair is not always
the one that meets. After each step the lists are read again in the other order (:func:`privileged_last`): the
privileged accounts last, anonymous right after the one entitled to the most (histories2, issue 44).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from qaconform import contract
from qaconform.invariants import millis_problems
from qaconform.target.client import ApiClient, ApiResponse

READERS = ("admin", "moderator", "member", "novice", "anonymous")


@dataclass
class Views:
    """Ids of the model's comments each reader is shown, per list; None where the list was refused."""

    comments: dict[str, set[int] | None] = field(default_factory=dict)
    """The answer's comment list (operation 18) by reader."""
    content: dict[tuple[str, str], set[int] | None] = field(default_factory=dict)
    """(reader, author) -> the ids of the author's content list as the reader is shown it (operation 8)."""
    named: dict[str, dict[str, set[int]]] = field(default_factory=dict)
    """reader -> where -> ids named in commentIds/childrenIds of the items read there."""
    settings: dict[str, dict[int, tuple[Any, set[str] | None]]] = field(default_factory=dict)
    """reader -> comment id -> (visibility, recipient ids as strings; None when recipients is absent) of each item of
    the answer's comment list as that reader is shown it: "Both visibility and recipients are returned when a comment
    is retrieved", in every list, at every depth."""
    items: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    """reader -> rule -> what the answer's comment list, as that reader is shown it, says wrong of the item rules
    (:func:`item_problems`) on the run's own subtree."""
    shared: dict[str, set[int] | None] = field(default_factory=dict)
    """The run's shared answer's comment list by reader (histories5: the thread under its public comment)."""
    shared_settings: dict[str, dict[int, tuple[Any, set[str] | None]]] = field(default_factory=dict)
    answers: dict[tuple[str, str], ApiResponse] = field(default_factory=dict)
    """("comments", reader) and ("content:" + author, reader) -> the first page as that reader got it: the evidence a
    failure names (its curl and HAR replay that read, not the last request of the round)."""


def reading_order(entitled: dict[str, int], round_no: int) -> list[str]:
    """Readers of one URL: even rounds the most entitled first (ties in READERS' order), anonymous last; odd rounds
    the same list rotated by the round number."""
    ranked = sorted((r for r in READERS if r != "anonymous"), key=lambda r: -entitled.get(r, 0)) + ["anonymous"]
    if round_no % 2 == 0:
        return ranked
    shift = (round_no // 2) % len(ranked)
    return ranked[shift:] + ranked[:shift]


def privileged_last(entitled: dict[str, int], privileged: Sequence[str]) -> list[str]:
    """The other order of one URL's readers (histories2, issue 44): the plain accounts first, least entitled first,
    then the privileged ones, the most entitled last, and anonymous right after that privileged read. Beside
    :func:`reading_order`'s rounds (the most entitled first, anonymous after the least entitled), every pair a
    response kept by URL gets wrong is met: a privileged read right before an unprivileged one, an unprivileged
    one right before a privileged one, anonymous right after the reader entitled to the most."""
    signed_in = [r for r in READERS if r != "anonymous"]
    return sorted(signed_in, key=lambda r: (r in privileged, entitled.get(r, 0))) + ["anonymous"]


def _ids(items: Iterable[Any]) -> set[int]:
    return {int(i["id"]) for i in items if isinstance(i, dict) and str(i.get("id", "")).isdecimal()}


def _named(items: Iterable[Any]) -> set[int]:
    out: set[int] = set()
    for it in items:
        if not isinstance(it, dict):
            continue
        for key in ("commentIds", "childrenIds"):
            value = it.get(key)
            if isinstance(value, list):
                out.update(int(v) for v in value if str(v).isdecimal())
    return out


PAGE = 50
MAX_PAGES = 40


def _items(client: ApiClient, path: str, params: dict[str, Any] | None = None,
           stop: int | None = None, first: list[ApiResponse] | None = None) -> list[dict[str, Any]] | None:
    """A paged list's items as this caller is shown them, page by page (bounded), up to the page holding the item
    ``stop`` when given; None when the first page is not a 200 list: refused, or a node in moderation the caller
    may not see (404, or 400 under unknown-node-400), which is judged as being shown nothing (nothing leaks; what
    must be shown is then missing). No probe first: the reads of a round are what its time goes to."""
    out: list[dict[str, Any]] = []
    for page in range(1, MAX_PAGES + 1):
        resp = client.get(path, params={**(params or {}), "page": page, "pageSize": PAGE})
        if first is not None and page == 1:
            first.append(resp)
        body = resp.json() if resp.status == 200 else None
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list):
            return None if page == 1 else out
        out += [i for i in items if isinstance(i, dict)]
        total = body.get("totalCount") if isinstance(body, dict) else None
        if not items or (stop is not None and str(stop) in {str(i.get("id")) for i in out}):
            break
        if len(out) >= total if isinstance(total, int) else len(items) < PAGE:
            break
    return out


def count_problem(resp: ApiResponse) -> str | None:
    """What the first page of a list read right after a write says wrong of its count ("totalCount | Total number
    of items"): a page that holds fewer items than the page size it was served with holds the whole list, so its
    totalCount is their number; no page holds more than totalCount. A count kept for a few seconds (per list, per
    caller, per URL) while the items are read fresh breaks it only on a read right after a write, which is what
    every read round of the history is (blindr, issue 44). None when it holds or the read is not a 200 envelope."""
    body = resp.json() if resp.status == 200 else None
    if not isinstance(body, dict):
        return None
    items, total = body.get("list"), body.get("totalCount")
    if not isinstance(items, list) or not isinstance(total, int) or isinstance(total, bool):
        return None
    served = body.get("pageSize")
    size = min(PAGE, served) if isinstance(served, int) and not isinstance(served, bool) and served > 0 else PAGE
    if len(items) > total:
        return f"the page holds {len(items)} items, more than totalCount {total}"
    if len(items) < size and total != len(items):
        return (f"the first page of size {size} holds the whole list, {len(items)} items, yet totalCount (\"Total "
                f"number of items\") is {total}")
    return None


def settings_of(item: dict[str, Any]) -> tuple[Any, set[str] | None]:
    """A comment item's privacy settings as returned: its visibility and its recipient ids as strings (the
    description allows an id to be an integer or a string); None for recipients that are absent or not a list."""
    value = item.get("recipients")
    ids = {str(r.get("id")) for r in value if isinstance(r, dict)} if isinstance(value, list) else None
    return item.get("visibility"), ids


ITEM_RULES = ("NODE-ORIGINAL-PARENT-ID", "NODE-TITLE-ANSWERS-COMMENTS", "SHAPE-DATES-MILLIS", "LIST-ITEM-TYPE",
              "SHAPE-LIST-ANSWER-COMMENTS")  # recip (issue 44): each item's author, the first read after a post too
"""The comment list's rules stated of each item alone (list_responses.CHECKS judges them on the lists of the seeded
nodes, which hold no reply to a reply): judged here on every comment of the run's own subtree, every depth, every
reader, every step (round26, issue 44: originalParentId null on a reply to a reply only)."""


def item_problems(items: list[dict[str, Any]]) -> dict[str, list[str]]:
    """rule -> what the items of the answer's comment list say wrong of it: "originalParentId | integer | Present on
    answers and comments", "title | ... | Absent or null for answers and comments", "creationDate | integer | Epoch
    time in milliseconds" (and the other documented dates), and "paged list of Node items of type comment"."""
    out: dict[str, list[str]] = {}
    no_parent = [(i.get("id"), i.get("originalParentId")) for i in items
                 if type(i.get("originalParentId")) is not int]
    if no_parent:
        out["NODE-ORIGINAL-PARENT-ID"] = [f"originalParentId (an integer) is present on comments; these (id, value): "
                                          f"{no_parent[:5]}"]
    titled = [(i.get("id"), i.get("title")) for i in items if i.get("title") is not None]
    if titled:
        out["NODE-TITLE-ANSWERS-COMMENTS"] = [f"comments carry no title (absent or null); these do (id, title): "
                                              f"{titled[:5]}"]
    dates = [f"comment {i.get('id')}: {problem}" for i in items for problem in millis_problems(i, "$")][:5]
    if dates:
        out["SHAPE-DATES-MILLIS"] = dates
    authors = [(i.get("id"), i.get("author")) for i in items if isinstance(i.get("author"), dict)
               and not _author_shaped(i["author"])]
    if authors:  # recip (issue 44): the first read after a post, on every comment the model posted
        out["SHAPE-LIST-ANSWER-COMMENTS"] = [f"each item is a Node, whose \"author | object | id (integer), username "
                                             f"(string), reputation (integer)\"; these are not (id, author): "
                                             f"{authors[:3]}"]
    typed = [(i.get("id"), i.get("type")) for i in items if i.get("type") != "comment"]
    if typed:
        out["LIST-ITEM-TYPE"] = [f"the answer's comment list holds comment items; these are not (id, type): "
                                 f"{typed[:5]}"]
    return out


def _author_shaped(author: dict[str, Any]) -> bool:
    """A Node's author as stated: id and reputation integers, username a string (realname and avatar optional)."""
    return all(type(author.get(k)) is int for k in ("id", "reputation")) and isinstance(author.get("username"), str)


Settings = dict[int, tuple[Any, set[str] | None]]


def _answer_comments(client: ApiClient, answer: int, first: list[ApiResponse] | None = None
                     ) -> tuple[set[int] | None, set[int], Settings, dict[str, list[str]]]:
    items = _items(client, contract.path("listAnswerComments", answerId=answer), first=first)
    if items is None:
        return None, set(), {}, {}
    settings = {int(i["id"]): settings_of(i) for i in items if str(i.get("id", "")).isdecimal()}
    return _ids(items), _named(items), settings, item_problems(items)


def _content(client: ApiClient, author_id: int, first: list[ApiResponse] | None = None) -> set[int] | None:
    resp = client.get(contract.path("listUserContent", userId=author_id))
    if first is not None:
        first.append(resp)
    status, body = resp.status, (resp.json() if resp.status == 200 else None)
    if status != 200 or not isinstance(body, list):
        return None  # who may read a content list is not shown: a refusal or another form shows nothing here
    return _ids(e.get("node") for e in body if isinstance(e, dict))


def _item_named(client: ApiClient, path: str, node: int, params: dict[str, Any] | None) -> set[int]:
    """Ids named by ``node``'s item in a list as this caller sees it (nothing when refused or not listed)."""
    items = _items(client, path, params, stop=node) or []
    return _named(i for i in items if str(i.get("id")) == str(node))


def read_views(api: dict[str, ApiClient], answer: int, authors: dict[str, int], question: int, space: int | None,
               member_id: int, order: Sequence[str], by_list: Mapping[str, Sequence[str]] | None = None,
               shared_answer: int = 0) -> Views:
    """Every list of the subtree as every reader in ``order`` is shown it, one URL at a time (each read by all of
    them back to back). ``authors``: role -> user id of each writer of the subtree's comments; ``by_list``: another
    order for the lists that show one thread only ("answer": the answer's comments and member's answers, "question":
    the question list), so that the reader who sees the most of what that list shows is where the order puts it;
    ``shared_answer``: the run's shared answer, whose comment list is read too (histories5), in the answer's order."""
    views = Views(named={r: {} for r in order})
    on_answer = (by_list or {}).get("answer", order)
    on_question = (by_list or {}).get("question", order)
    for reader in on_answer:
        first: list[ApiResponse] = []
        seen, named, settings, problems = _answer_comments(api[reader], answer, first)
        views.comments[reader] = seen
        views.settings[reader] = settings
        views.items[reader] = problems
        views.named[reader]["the answer's comment list"] = named
        if first:
            views.answers[("comments", reader)] = first[0]
    for reader in on_answer if shared_answer else ():
        first = []
        seen, named, settings, _problems = _answer_comments(api[reader], shared_answer, first)
        views.shared[reader], views.shared_settings[reader] = seen, settings
        views.named[reader]["the shared answer's comment list"] = named
        if first:
            views.answers[("shared", reader)] = first[0]
    for author, uid in sorted(authors.items()):
        for reader in order:
            got: list[ApiResponse] = []
            views.content[(reader, author)] = _content(api[reader], uid, got)
            if got:
                views.answers[("content:" + author, reader)] = got[0]
    answers = contract.path("listUserAnswers", userId=member_id)
    where = ((f"member's answers (answer {answer})", answers, answer, None, on_answer),
             (f"the question list (question {question})", contract.path("listQuestions"), question,
              {"spaceId": space} if space is not None else None, on_question))
    asker: int | None = None
    title = ""
    for label, path, node, params, readers in where:
        for reader in readers:
            item = _item(api[reader], path, node, params)
            views.named[reader][label] = _named([item] if item is not None else [])
            by = item.get("author") if node == question and item is not None else None
            asker = asker if asker is not None or not isinstance(by, dict) else _int(by.get("id"))
            if node == question and item is not None and isinstance(item.get("title"), str):
                title = title or item["title"]
    for search in searches(title):  # round87 (issue 44): the question list under each stated search parameter
        label = "the question list searched with " + "&".join(f"{k}={v}" for k, v in search.items())
        for reader in on_question:
            views.named[reader][f"{label} (question {question})"] = _item_named(
                api[reader], contract.path("listQuestions"), question, search)
    if asker is not None:  # round54 (issue 44): the question as its author's question list shows it (operation 15)
        own = contract.path("listUserQuestions", userId=asker)
        for reader in on_question:
            views.named[reader][f"its author's questions (question {question})"] = _item_named(
                api[reader], own, question, None)
    return views


_TITLE_WORD = re.compile(r"[A-Za-z]{3,}")
LANG = "en"
"""The lang the question list is searched with (its value format is not shown; the crossings send the same)."""


def searches(title: str) -> list[dict[str, str]]:
    """The question list's stated search parameters ("Search parameters on question and topic lists: q, type,
    lang"), one read each: q with the longest word of the question's own title (what q matches is not shown, so a
    search that does not list the question judges nothing), and lang. A server that builds a searched list on
    another path (a search index, a localized query) and names there the ids of private comments the plain list
    filters breaks "the comment is private to those recipients" in that list only (round87, issue 44)."""
    words = sorted(_TITLE_WORD.findall(title), key=lambda w: (-len(w), w))
    return ([{"q": words[0].lower()}] if words else []) + [{"lang": LANG}]


def _item(client: ApiClient, path: str, node: int, params: dict[str, Any] | None) -> dict[str, Any] | None:
    """``node``'s item in a list as this caller sees it (None when refused or not listed)."""
    items = _items(client, path, params, stop=node) or []
    return next((i for i in items if str(i.get("id")) == str(node)), None)


def _int(value: Any) -> int | None:
    return int(value) if str(value).isdecimal() else None
