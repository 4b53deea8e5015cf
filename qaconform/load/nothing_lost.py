"""After a run that wrote, check that every answer and comment that got a 201 is listed exactly once.

Why here, after Locust has exited, with the kit's own ApiClient (plain requests underneath): the check must see
the target at rest (no writes racing the paging), must not share the load generator's client or its failure
accounting, and every call must end within timeout_s and hold at most max_response_bytes. Answers are
found through the author's answer list (listUserAnswers), comments through the parent answer's comment list
(listAnswerComments), each read as the author (a private comment is visible to its author). Every listing is
bounded in pages and time; what could not be read is reported, never assumed present. A list that misses some of
its items is read again within the profile's settle window (a search index may lag the writes): the facts say how
long that took.

Every account that wrote is covered: the write users' answers and comments and the moderate users' own answers
(the nodes they lock) alike, each read through its author's list; the facts count them per account. An answer the
run sent to moderation is left out and counted (``not_checked``): whether its author's answer list still shows a
node in moderation is not stated.
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from qaconform.target.client import ApiClient, Recorder, TargetError, TargetUnreachable
from qaconform.target.profile import Profile
from qaconform.target.settle import Settled, settle


def read_created(run_dir: str | Path) -> list[dict[str, Any]]:
    """Every record the Locust processes wrote to ``created-*.jsonl`` (a torn last line is skipped)."""
    out: list[dict[str, Any]] = []
    for path in sorted(Path(run_dir).glob("created-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and isinstance(rec.get("id"), int):
                out.append(rec)
    return out


class _Lister:
    def __init__(self, profile: Profile, deadline: float, max_pages: int, page_size: int) -> None:
        self.profile = profile
        self.deadline = deadline
        self.max_pages = max_pages
        self.page_size = page_size
        self.clients: dict[str, ApiClient] = {}
        self.requests = 0
        self.waits: list[Settled] = []

    def client(self, role: str) -> ApiClient:
        c = self.clients.get(role)
        if c is None:
            acc = self.profile.accounts[role]
            c = self.clients[role] = ApiClient(self.profile, role, acc.username, acc.password, Recorder(keep=0))
        return c

    def close(self) -> None:
        for c in self.clients.values():
            c.close()

    def settled_ids(self, role: str, path: str, wanted: list[int]) -> tuple[Counter[int], str | None]:
        """:meth:`ids`, read again within the settle window until every wanted id is listed (or the listing breaks)."""
        (seen, incomplete), how = settle(
            self.profile.settle_s, lambda: self.ids(role, path),
            lambda got: got[1] is not None or all(got[0].get(i) for i in wanted), f"GET {path} as {role}")
        if how.reads > 1:
            self.waits.append(how)
        return seen, incomplete

    def ids(self, role: str, path: str) -> tuple[Counter[int], str | None]:
        """Counts of item ids over all pages of a list; the second value says why the listing is incomplete."""
        seen: Counter[int] = Counter()
        first_page_ids: list[int] | None = None
        page = 1
        while page <= self.max_pages:
            if time.monotonic() > self.deadline:
                return seen, "time budget of the check ran out"
            try:
                r = self.client(role).get(path.lstrip("/"), params={"page": page, "pageSize": self.page_size})
                self.requests += 1
                if r.status != 200:
                    return seen, f"GET {path} answered {r.status}"
                js = r.json()
            except TargetUnreachable:
                return seen, f"GET {path} got no answer within timeout_s"
            except TargetError:
                return seen, f"GET {path} answered something that is not a JSON page"
            items = js.get("list") if isinstance(js, dict) else None
            if not isinstance(items, list):
                return seen, f"GET {path} did not answer a paged list"
            page_ids = [it.get("id") for it in items if isinstance(it, dict)]
            ids = [int(i) for i in page_ids if isinstance(i, int | str) and str(i).isdecimal()]
            if page > 1 and ids and ids == first_page_ids:
                return seen, f"GET {path} ignores the page parameter (page {page} repeats page 1)"
            if page == 1:
                first_page_ids = ids
            seen.update(ids)
            count = js.get("pageCount")
            if not items or not isinstance(count, int) or page >= count:
                return seen, None
            page += 1
        return seen, f"GET {path} has more than {self.max_pages} pages"


def _verdict(rec: dict[str, Any], listed: Counter[int], incomplete: str | None) -> dict[str, Any] | None:
    n = listed.get(rec["id"], 0)
    if n == 1:
        return None
    problem = "missing" if n == 0 else f"listed {n} times"
    out = {"kind": rec["kind"], "id": rec["id"], "parent": rec.get("parent"), "role": rec.get("role"),
           "problem": problem}
    if n == 0 and incomplete:
        out["problem"] = f"not found ({incomplete})"
    return out


def check_nothing_lost(profile: Profile, created: Iterable[dict[str, Any]], budget_s: float = 60.0,
                       max_pages: int = 500, page_size: int = 100) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(lost items, facts about the check). Each lost item names kind, id, parent, role and the problem."""
    lister = _Lister(profile, time.monotonic() + budget_s, max_pages, page_size)
    answers: dict[tuple[str, int | None], list[dict]] = defaultdict(list)
    comments: dict[tuple[str, int], list[dict]] = defaultdict(list)
    recs = list(created)
    moderated = {rec["id"] for rec in recs if rec.get("kind") == "moderated"}
    recs = [rec for rec in recs if rec.get("kind") in ("answer", "comment")]
    not_checked = [rec for rec in recs if rec.get("kind") == "answer" and rec["id"] in moderated]
    recs = [rec for rec in recs if not (rec.get("kind") == "answer" and rec["id"] in moderated)]
    per_account: dict[str, dict[str, int]] = defaultdict(lambda: {"answers": 0, "comments": 0, "lost": 0})
    for rec in recs:
        role = rec.get("role") or "member"
        if rec.get("kind") == "answer":
            uid = rec.get("user_id") or profile.accounts[role].id
            answers[(role, uid)].append(rec)
        elif rec.get("kind") == "comment":
            comments[(role, int(rec["parent"]))].append(rec)
    lost: list[dict[str, Any]] = []
    for (role, uid), group in sorted(answers.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        if uid is None:
            lost += [{"kind": "answer", "id": r["id"], "parent": r.get("parent"), "role": role,
                      "problem": f"not checked: the id of account {role} is unknown (add id to [accounts.{role}])"}
                     for r in group]
            continue
        listed, incomplete = lister.settled_ids(role, f"/user/{uid}/answer.json", [r["id"] for r in group])
        lost += [v for r in group if (v := _verdict(r, listed, incomplete))]
    for (role, parent), group in sorted(comments.items()):
        listed, incomplete = lister.settled_ids(role, f"/answer/{parent}/comment.json", [r["id"] for r in group])
        lost += [v for r in group if (v := _verdict(r, listed, incomplete))]
    lister.close()
    for rec in recs:
        per_account[rec.get("role") or "member"][f"{rec['kind']}s"] += 1
    for item in lost:
        per_account[item.get("role") or "member"]["lost"] += 1
    facts = {"created": len(recs) + len(not_checked), "checked": len(recs),
             "not_checked": {"sent_to_moderation": len(not_checked)} if not_checked else {},
             "accounts": {role: dict(v) for role, v in sorted(per_account.items())},
             "answers": sum(len(g) for g in answers.values()),
             "comments": sum(len(g) for g in comments.values()), "list_requests": lister.requests,
             "settle_s": profile.settle_s, "lists_that_waited": len(lister.waits),
             "longest_wait_ms": max((w.waited_ms for w in lister.waits), default=0)}
    return lost, facts
