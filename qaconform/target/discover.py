"""What the interface itself can tell about a target, found with reads only.

A profile written by hand leaves things out (the docs call an account's ``id`` optional) and ``qaconform init``
starts from nothing but a base URL and four accounts. Both need the same finds: each account's user id, a question
every account can read and its space, a space the novice may not list, the issue tracker's path segment. They live
here, apart from the doctor's judgements (``doctor.py``), so that ``init`` and the doctor ask the target the same
way. Every function sends GETs only, a bounded number of them, and never raises for what the target answers: what
it cannot find it returns as None (a target that does not answer at all still raises ``TargetUnreachable``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from qaconform.contract import path
from qaconform.target.client import ApiClient, Recorder, TargetError
from qaconform.target.created_id import as_id
from qaconform.target.profile import ROLES, Account, Fixtures, Profile, Secret

PAGE_SIZE = 50
"""Items asked per page; a site that caps pageSize lower is followed by its own envelope (pageCount, totalCount)."""

TRACKER_CANDIDATES: tuple[str, ...] = ("tracker", "jira", "youtrack", "github", "gitlab", "redmine")
"""Third path segments tried for the issue-type list: the description's word first, then common tracker names."""


@dataclass(frozen=True)
class Listing:
    """Items of a paged list as one caller saw them; ``complete``: every page was read (else the bound stopped it)."""

    items: tuple[dict[str, Any], ...]
    complete: bool
    status: int = 200
    """The status of the first page that was not a 200 paged envelope (200 when every page was one)."""

    def ids(self) -> list[int]:
        return [i for i in (as_id(item.get("id")) for item in self.items) if i is not None]

    def find(self, node_id: int) -> dict[str, Any] | None:
        return next((item for item in self.items if as_id(item.get("id")) == node_id), None)


@dataclass(frozen=True)
class QuestionSpot:
    """A question and the space it lives in (its ``primaryContainerId``)."""

    question_id: int
    space_id: int
    author: str | None = None
    """Who wrote it (username), as the list shows."""
    own: bool = True
    """Whether one of the profile's accounts wrote it (the site's test accounts): only such a question is proposed as
    the place where each run writes; another's is the site's real content (issue 46)."""


@dataclass(frozen=True)
class Discovery:
    """Everything :func:`discover` found; None (or a missing role) where the interface did not show it."""

    user_ids: dict[str, int] = field(default_factory=dict)
    question: QuestionSpot | None = None
    hidden_space_id: int | None = None
    issue_tracker: str | None = None


def read_pages(client: ApiClient, api_path: str, params: Mapping[str, Any] | None = None,
               max_pages: int = 10, stop_at: int | None = None) -> Listing:
    """Up to ``max_pages`` pages of a paged list (page 1 on); ``stop_at``: stop once an item with this id is seen."""
    items: list[dict[str, Any]] = []
    for page in range(1, max_pages + 1):
        try:
            resp = client.get(api_path, params={**(params or {}), "page": page, "pageSize": PAGE_SIZE})
        except TargetError:
            return Listing(tuple(items), False, 0)
        body = _json(resp)
        got = body.get("list") if isinstance(body, dict) else None
        if resp.status != 200 or not isinstance(got, list):
            return Listing(tuple(items), False, resp.status if resp.status != 200 else 0)
        page_items = [i for i in got if isinstance(i, dict)]
        items.extend(page_items)
        if stop_at is not None and any(as_id(i.get("id")) == stop_at for i in page_items):
            return Listing(tuple(items), False)
        if _last_page(body, page, len(items), len(page_items)):
            return Listing(tuple(items), True)
    return Listing(tuple(items), False)


def _last_page(body: dict[str, Any], page: int, seen: int, on_page: int) -> bool:
    """Whether ``page`` was the last one, by the envelope's own counts (a capped pageSize is no end of list)."""
    if on_page == 0:
        return True
    count, total = body.get("pageCount"), body.get("totalCount")
    if isinstance(total, int) and not isinstance(total, bool) and seen >= total:
        return True
    if isinstance(count, int) and not isinstance(count, bool) and count > 0:
        return page >= count
    size = body.get("pageSize")
    return on_page < (size if isinstance(size, int) and size > 0 else PAGE_SIZE)


def _json(resp: Any) -> Any:
    try:
        return resp.json()
    except (TargetError, ValueError):
        return None


# ----------------------------------------------------------------------------------------------------------
# the finds

def account_ids(clients: Mapping[str, ApiClient], max_pages: int = 10, keep_known: bool = True) -> dict[str, int]:
    """Role -> user id for the accounts of ``clients`` (role -> client carrying the account's username).

    Looked for, in order, wherever a list shows users by username: the two expert lists, then the authors of the
    questions (a site's expert lists may leave out users without expertise, such as the novice). An id already
    on a client (``user_id``, from the profile) is kept unless ``keep_known`` is false (the doctor compares the
    profile's ids with the lists). A role still missing is absent from the result: the suites then find it from
    content the run creates (``user_ids`` fixture). The lists are read as admin (the first client without one).
    """
    found = {role: c.user_id for role, c in clients.items() if c.user_id is not None and keep_known}
    wanted = {c.username: role for role, c in clients.items() if c.username and role not in found}
    reader = clients.get("admin") or next(iter(clients.values()), None)
    if reader is None or not wanted:
        return found
    sources = [(path("listActiveExperts"), None), (path("listEarnedExperts"), None),
               (path("listQuestions"), "author")]
    for api_path, key in sources:
        if not wanted:
            break
        for item in _stream(reader, api_path, max_pages):
            user = item.get(key) if key else item
            if isinstance(user, dict) and user.get("username") in wanted:
                uid = as_id(user.get("id"))
                if uid is not None:
                    found[wanted.pop(user["username"])] = uid
                    if not wanted:
                        break
    return found


def _stream(client: ApiClient, api_path: str, max_pages: int) -> Iterator[dict[str, Any]]:
    yield from read_pages(client, api_path, max_pages=max_pages).items


def readable_question(clients: Mapping[str, ApiClient], max_pages: int = 4) -> QuestionSpot | None:
    """A question that every account of ``clients`` is shown in the question list, with its space.

    The first such question one of the accounts wrote (the site's test accounts: each run writes under it), else the
    first of the admin's list that each other account also lists (within ``max_pages`` pages each), marked not
    ``own``; both name their space (``primaryContainerId``). Whether the accounts may also answer and comment on it
    the interface shows only by writing, which discovery never does.
    """
    listings = {role: read_pages(c, path("listQuestions"), max_pages=max_pages) for role, c in clients.items()}
    first = listings.get("admin") or next(iter(listings.values()), None)
    if first is None:
        return None
    others = [set(v.ids()) for r, v in listings.items() if v is not first]
    ours = {str(c.username).casefold() for c in clients.values() if c.username}
    fallback: QuestionSpot | None = None
    for item in first.items:
        qid, space = as_id(item.get("id")), as_id(item.get("primaryContainerId"))
        if qid is None or space is None or not all(qid in ids for ids in others):
            continue
        raw = item.get("author")
        author: dict[str, Any] = raw if isinstance(raw, dict) else {}
        name = str(author["username"]) if author.get("username") is not None else None
        if name is not None and name.casefold() in ours:
            return QuestionSpot(qid, space, name, own=True)
        fallback = fallback or QuestionSpot(qid, space, name, own=False)
    return fallback


def hidden_space(admin: ApiClient, novice: ApiClient, max_pages: int = 10) -> int | None:
    """A space the admin lists and the novice does not (a space novice may not list), when both lists are whole."""
    everyone = read_pages(admin, path("listSpaces"), max_pages=max_pages)
    novice_sees = read_pages(novice, path("listSpaces"), max_pages=max_pages)
    if not (everyone.complete and novice_sees.complete):
        return None
    shown = set(novice_sees.ids())
    return next((sid for sid in everyone.ids() if sid not in shown), None)


def issue_tracker(admin: ApiClient, candidates: tuple[str, ...] = TRACKER_CANDIDATES) -> str | None:
    """The third path segment under which the issue-type list answers 200 with a JSON array, if any of these."""
    for segment in candidates:
        if tracker_answers(admin, segment):
            return segment
    return None


def tracker_answers(admin: ApiClient, segment: str) -> bool:
    """Whether GET /{segment}/issuetype.json answers 200 with a JSON array (the integration is set up there)."""
    try:
        resp = admin.get(path("listIssueTypes", tracker=segment))
    except TargetError:
        return False
    return resp.status == 200 and isinstance(_json(resp), list)


def discover(clients: Mapping[str, ApiClient]) -> Discovery:
    """All of the above for the four accounts of ``clients`` (role -> client)."""
    accounts = {r: clients[r] for r in ROLES if r in clients}
    hidden = hidden_space(clients["admin"], clients["novice"]) if {"admin", "novice"} <= set(clients) else None
    return Discovery(user_ids=account_ids(accounts), question=readable_question(accounts),
                     hidden_space_id=hidden,
                     issue_tracker=issue_tracker(clients["admin"]) if "admin" in clients else None)


# ----------------------------------------------------------------------------------------------------------
# clients for a profile, or for a target that has no profile yet

def clients_for(profile: Profile, recorder: Recorder | None = None) -> dict[str, ApiClient]:
    """One client per account of ``profile`` (with its ``id`` when the profile gives one), sharing ``recorder``."""
    rec = recorder if recorder is not None else Recorder(secrets=set(profile.passwords()))
    return {role: ApiClient(profile, role, a.username, a.password, rec, user_id=a.id)
            for role, a in profile.accounts.items()}


def probe_profile(base_url: str, accounts: Mapping[str, tuple[str, str]], *, timeout_s: float = 10.0,
                  verify_tls: bool = True, path_name: str = "<init>") -> Profile:
    """A profile to talk to a target that has none yet (``qaconform init``): the accounts, no fixtures.

    ``accounts``: role -> (username, password). Its fixtures are placeholders (0) that nothing may use: only the
    clients of :func:`clients_for` and the finds above read it.
    """
    return Profile(path=path_name, base_url=base_url.rstrip("/"),
                   accounts={r: Account(role=r, username=u, password=Secret(p)) for r, (u, p) in accounts.items()},
                   fixtures=Fixtures.model_construct(question_id=0, space_id=0), timeout_s=timeout_s,
                   verify_tls=verify_tls)
