"""Concurrent writers: 8 threads post answers and comments for about 3 s; every 201 is then listed exactly once."""

from __future__ import annotations

import threading
import time
from collections import Counter

import requests
from ref_helpers import Ref

THREADS = 8
DURATION_S = 3.0
MAX_REQUESTS_PER_THREAD = 2000


def all_pages(ref: Ref, path: str, page_size: int = 50) -> list[int]:
    """Walk every page (bounded), so that paging under a stable order is checked too."""
    ids: list[int] = []
    for page in range(1, 1000):
        body = ref.ok("GET", path, "admin", params={"page": page, "pageSize": page_size, "sort": "newest"})
        ids += [item["id"] for item in body["list"]]
        if page >= body["pageCount"]:
            break
    return ids


def test_concurrent_answers_and_comments_are_each_listed_once(ref: Ref) -> None:
    qid = ref.profile.fixtures.question_id
    target = ref.ok("POST", f"/question/{qid}/answer.json", "admin", 201, json={"body": "comment target"})
    answer_id = int(target["id"])
    roles = ("admin", "moderator", "member", "novice")
    answers: dict[str, list[int]] = {r: [] for r in roles}
    comments: list[int] = []
    failures: list[str] = []
    lock = threading.Lock()
    deadline = time.monotonic() + DURATION_S

    def worker(n: int) -> None:
        who = roles[n % len(roles)]
        with requests.Session() as http:
            http.auth = ref.auth(who)
            for i in range(MAX_REQUESTS_PER_THREAD):
                if time.monotonic() > deadline:
                    return
                if i % 2:
                    r = http.post(f"{ref.api}/question/{qid}/answer.json", json={"body": f"t{n}-{i}"}, timeout=15)
                else:
                    r = http.post(f"{ref.api}/node/{answer_id}/comment.json", json={"body": f"t{n}-{i}"}, timeout=15)
                with lock:
                    if r.status_code != 201:
                        failures.append(f"{r.request.method} {r.url} as {who}: {r.status_code} {r.text[:200]}")
                    elif i % 2:
                        answers[who].append(int(r.json()["id"]))
                    else:
                        comments.append(int(r.json()["id"]))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=DURATION_S + 30)
    assert not any(t.is_alive() for t in threads)
    assert not failures, failures[:5]
    total_created = sum(map(len, answers.values())) + len(comments)
    assert total_created > 50, f"only {total_created} posts in {DURATION_S}s"
    print(f"{total_created} posts by {THREADS} threads in {DURATION_S}s")

    listed_comments = Counter(all_pages(ref, f"/answer/{answer_id}/comment.json"))
    assert all(listed_comments[c] == 1 for c in comments)
    assert len(listed_comments) == len(comments)
    for who, ids in answers.items():
        listed = Counter(all_pages(ref, f"/user/{ref.user_id(who)}/answer.json"))
        assert all(listed[a] == 1 for a in ids), who
    question_answers = Counter(ref.question(qid)["answers"])
    assert all(question_answers[a] == 1 for ids in answers.values() for a in ids)
