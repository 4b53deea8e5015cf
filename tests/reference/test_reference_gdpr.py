"""Data-protection jobs (2) in the brief's validation order with exact messages, and user content (8)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from ref_helpers import Ref

FUTURE = {"formatted": "03/04/2032 10:15"}
INDIVIDUAL = {
    "type": "individual",
    "user": {"username": "gdpr-target"},
    "operations": ["anonymize"],
    "scheduleDate": FUTURE,
}
BULK = {"type": "bulk", "csvFileId": 7, "operations": ["suspend", "delete"], "scheduleDate": FUTURE}


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = {**base, **changes}
    return {k: v for k, v in out.items() if v is not None}


CASES: list[tuple[dict[str, Any], str]] = [
    (with_(INDIVIDUAL, type=None), "The provided 'type' is invalid"),
    (with_(INDIVIDUAL, type="group"), "The provided 'type' is invalid"),
    (with_(INDIVIDUAL, user=None), "The individual type was selected, but the request is missing the user field."),
    (with_(INDIVIDUAL, user={}), "The provided 'user' is invalid"),
    (with_(INDIVIDUAL, user={"username": "gdpr-target", "id": 5}), "The provided 'user' is invalid"),
    (with_(INDIVIDUAL, user={"username": "nobody-here"}), "The provided 'user' is invalid"),
    (with_(INDIVIDUAL, user="gdpr-target"), "The provided 'user' is invalid"),
    (with_(BULK, csvFileId=None), "The bulk type was selected, but the request is missing the csvFileId field."),
    (with_(BULK, csvFileId=999), "The requested file does not exist"),
    (with_(BULK, csvFileId="abc"), "The requested file does not exist"),
    (with_(BULK, operations=[]), "The provided 'operations' is/are invalid"),
    (with_(BULK, operations=None), "The provided 'operations' is/are invalid"),
    (
        with_(BULK, operations=["suspend", "anonymize", "delete", "anon-delete", "suspend"]),
        "The provided 'operations' is/are invalid",
    ),
    (with_(BULK, operations=["erase"]), "The provided 'operations' is/are invalid"),
    (
        with_(BULK, reassignUser={"username": "member", "id": 3}),
        "The request contains more than one reassignUser eligible configuration",
    ),
    (with_(BULK, reassignUser={"username": "ghost"}), "The provided 'reassignUser' is/are invalid"),
    (with_(BULK, reassignUser={"id": 999999}), "The provided 'reassignUser' is/are invalid"),
    (with_(BULK, scheduleDate=None), "The provided 'scheduleDate' is invalid"),
    (with_(BULK, scheduleDate={"formatted": "2032-03-04 10:15"}), "The provided 'scheduleDate' is invalid"),
    (with_(BULK, scheduleDate={"formatted": "13/40/2032 10:15"}), "The provided 'scheduleDate' is invalid"),
    (with_(BULK, scheduleDate={"formatted": "03/04/2032 3:15 PM"}), "The provided 'scheduleDate' is invalid"),
    (with_(BULK, scheduleDate={"timeStamp": "soon"}), "The provided 'scheduleDate' is invalid"),
    (
        with_(BULK, scheduleDate={"formatted": "01/01/2020 10:00"}),
        "The desired date is in the past and is it not eligible.",
    ),
    (with_(BULK, scheduleDate={"timeStamp": 1_000_000}), "The desired date is in the past and is it not eligible."),
    # order: type before user, user before operations, operations before reassignUser, before the date
    (with_(INDIVIDUAL, type="x", user=None), "The provided 'type' is invalid"),
    (with_(INDIVIDUAL, user={}, operations=[]), "The provided 'user' is invalid"),
    (with_(BULK, operations=[], reassignUser={"username": "ghost"}), "The provided 'operations' is/are invalid"),
    (with_(BULK, reassignUser={"username": "ghost"}, scheduleDate=None), "The provided 'reassignUser' is/are invalid"),
]


@pytest.mark.parametrize("payload, message", CASES, ids=[f"{i}-{m[:30]}" for i, (_, m) in enumerate(CASES)])
def test_invalid_job_requests_are_400_with_the_exact_message(ref: Ref, payload: dict[str, Any], message: str) -> None:
    r = ref.post("/jobs/gdpr/schedule.json", "admin", json=payload)
    assert r.status_code == 400
    assert r.json() == {"error": message}


def test_jobs_are_scheduled_once_per_minute(ref: Ref) -> None:
    first = ref.post("/jobs/gdpr/schedule.json", "admin", json=INDIVIDUAL)
    assert first.status_code == 201 and isinstance(first.json()["jobId"], int) and set(first.json()) == {"jobId"}
    same_minute = with_(BULK, scheduleDate={"timeStamp": 1962008100000 + 30_000})  # 03/04/2032 10:15:30 UTC
    r = ref.post("/jobs/gdpr/schedule.json", "admin", json=same_minute)
    assert r.status_code == 400 and r.json() == {"error": "There is a job already scheduled for that time frame."}
    later = with_(BULK, scheduleDate={"timeStamp": str(1962008100000 + 60_000)}, reassignUser={"id": 3})
    second = ref.post("/jobs/gdpr/schedule.json", "admin", json=later)
    assert second.status_code == 201 and second.json()["jobId"] != first.json()["jobId"]


def test_schedule_time_is_accepted_for_the_individual_case_and_fields_may_be_parameters(ref: Ref) -> None:
    payload = with_(INDIVIDUAL, scheduleDate=None, scheduleTime={"formatted": "05/06/2033 07:08"})
    assert ref.post("/jobs/gdpr/schedule.json", "admin", json=payload).status_code == 201
    r = ref.post(
        "/jobs/gdpr/schedule.json",
        "admin",
        params={"type": "individual"},
        json=with_(INDIVIDUAL, type="bogus", scheduleDate={"formatted": "05/06/2033 07:09"}),
    )
    assert r.status_code == 201


def test_user_content_lists_entries_newest_first_ending_with_joined(ref: Ref) -> None:
    member = ref.user_id("member")
    entries = ref.ok("GET", f"/users/gdpr/{member}/content.json", "admin")
    assert isinstance(entries, list) and entries[-1]["actionType"] == "joined" and "node" not in entries[-1]
    dates = [e["actionDate"] for e in entries]
    assert dates == sorted(dates, reverse=True)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d", d) for d in dates)
    kinds = {e["actionType"] for e in entries}
    assert {"asked", "answered", "commented", "joined"} <= kinds
    for e in entries[:-1]:
        assert e["canceled"] is False
        assert set(e["node"]) == {"id", "title", "body", "type", "accepted"}
    assert any(e["node"]["accepted"] for e in entries[:-1])


def test_user_content_leaves_out_private_comments_the_caller_may_not_see(ref: Ref) -> None:
    member = ref.user_id("member")
    bodies = [e["node"]["body"] for e in ref.ok("GET", f"/users/gdpr/{member}/content.json", "admin")[:-1]]
    assert any("To moderators, by member." in b for b in bodies)  # admin holds Moderation Roles
    assert not any("To the original poster, by member." in b for b in bodies)  # admin is not the OP


@pytest.mark.parametrize("user_id", ["abc", "999999", "-1", "1.5"])
def test_user_content_of_an_invalid_user_is_422(ref: Ref, user_id: str) -> None:
    r = ref.get(f"/users/gdpr/{user_id}/content.json", "admin")
    assert r.status_code == 422 and r.json() == {"error": "Invalid User Id"}


def test_past_check_uses_the_current_time(ref: Ref) -> None:
    just_past = int(time.time() * 1000) - 120_000
    r = ref.post("/jobs/gdpr/schedule.json", "admin", json=with_(BULK, scheduleDate={"timeStamp": just_past}))
    assert r.json() == {"error": "The desired date is in the past and is it not eligible."}
