"""Helpers of the reference server's own tests: a running server and a caller per role, over plain requests.

These tests know the seed (they test the reference server itself); the conformance suites never do.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import requests

from qaconform.reference import ReferenceServer
from qaconform.target.client import basic_auth
from qaconform.target.profile import Profile, load_profile

ROLES = ("admin", "moderator", "member", "novice")


@dataclass
class Ref:
    """A running reference server and a caller for each role (None: anonymous, "wrong": bad password)."""

    url: str
    profile: Profile

    @property
    def api(self) -> str:
        return self.url + "/services/v2"

    def auth(self, who: str | None) -> tuple[bytes, bytes] | None:
        """Basic credentials, UTF-8 encoded as the kit sends them (novice's password is not ASCII)."""
        if who is None:
            return None
        if who == "wrong":
            return basic_auth("admin", "not-the-password")
        acc = self.profile.accounts[who]
        return basic_auth(acc.username, acc.password)

    def user_id(self, who: str) -> int:
        uid = self.profile.accounts[who].id
        assert uid is not None
        return uid

    def call(self, method: str, path: str, who: str | None = None, **kw: Any) -> requests.Response:
        return requests.request(method, self.api + path, auth=self.auth(who), timeout=15, **kw)

    def get(self, path: str, who: str | None = None, **kw: Any) -> requests.Response:
        return self.call("GET", path, who, **kw)

    def post(self, path: str, who: str | None = None, **kw: Any) -> requests.Response:
        return self.call("POST", path, who, **kw)

    def put(self, path: str, who: str | None = None, **kw: Any) -> requests.Response:
        return self.call("PUT", path, who, **kw)

    def ok(self, method: str, path: str, who: str | None = "admin", status: int = 200, **kw: Any) -> Any:
        r = self.call(method, path, who, **kw)
        assert r.status_code == status, f"{method} {path} as {who}: {r.status_code} {r.text[:300]}"
        return r.json()

    def questions(self, who: str | None = "admin", **params: Any) -> list[dict[str, Any]]:
        return list(self.ok("GET", "/question.json", who, params={"pageSize": 1000, **params})["list"])

    def question(self, qid: int, who: str | None = "admin") -> dict[str, Any]:
        found = [q for q in self.questions(who) if q["id"] == qid]
        assert found, f"question {qid} not in the question list of {who}"
        return found[0]

    def comment_ids(self, answer_id: int, who: str | None) -> list[int]:
        body = self.ok("GET", f"/answer/{answer_id}/comment.json", who, params={"pageSize": 1000})
        return [c["id"] for c in body["list"]]

    def comments(self, answer_id: int, who: str | None = "admin") -> dict[int, dict[str, Any]]:
        body = self.ok("GET", f"/answer/{answer_id}/comment.json", who, params={"pageSize": 1000})
        return {c["id"]: c for c in body["list"]}

    @property
    def fixture_answer_id(self) -> int:
        """The accepted answer (by member) on the fixture question; the seeded private comments hang under it."""
        q = self.question(self.profile.fixtures.question_id)
        return int(q["answers"][0])


def start_ref(**kw: Any) -> Iterator[Ref]:
    with ReferenceServer(**kw) as srv:
        yield Ref(url=srv.url, profile=load_profile(srv.profile_path))
