"""Each planted fault changes exactly the behaviour its rule is about (all six switched on in one server)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ref_helpers import Ref, start_ref

from qaconform.reference import faults
from qaconform.reference.faults import FAULTS

SIX = (
    "envelope-listcount-wrong",
    "comment-private-leaks-in-answer-list",
    "wrong-password-accepted",
    "gdpr-past-date-accepted",
    "lock-extra-not-prompt",
    "groups-allowed-without-permission",
)


@pytest.fixture(scope="module")
def faulty() -> Iterator[Ref]:
    yield from start_ref(faults=SIX)


def test_registry_names_a_rule_and_description_for_each_fault() -> None:
    assert set(SIX) <= set(FAULTS)
    for name, fault in FAULTS.items():
        assert fault.name == name and fault.rule and fault.description


def test_faults_are_off_unless_activated() -> None:
    assert not any(faults.is_on(name) for name in FAULTS)
    with pytest.raises(faults.UnknownFaultError, match="--list-faults"):
        faults.activate(["not-a-fault"])


def test_envelope_listcount_wrong(faulty: Ref, ref: Ref) -> None:
    body = faulty.ok("GET", "/space.json")
    assert body["listCount"] == len(body["list"]) + 1
    healthy = ref.ok("GET", "/space.json")
    assert healthy["listCount"] == len(healthy["list"])


def test_comment_private_leaks_in_answer_list(faulty: Ref) -> None:
    visibilities = {c["visibility"] for c in faulty.comments(faulty.fixture_answer_id, None).values()}
    assert {"recipients", "op", "mod", "group"} <= visibilities


def test_wrong_password_accepted(faulty: Ref, ref: Ref) -> None:
    assert faulty.get("/group.json", "wrong").status_code == 200
    assert ref.get("/group.json", "wrong").status_code == 401


def test_gdpr_past_date_accepted(faulty: Ref) -> None:
    r = faulty.post(
        "/jobs/gdpr/schedule.json",
        "admin",
        json={
            "type": "bulk",
            "csvFileId": faulty.profile.fixtures.gdpr_csv_file_id,
            "operations": ["suspend"],
            "scheduleDate": {"formatted": "01/01/2020 10:00"},
        },
    )
    assert r.status_code == 201


def test_lock_extra_not_prompt(faulty: Ref) -> None:
    body = faulty.ok("PUT", f"/node/{faulty.profile.fixtures.question_id}/lock.json", params={"prompt": "why"})
    assert body["result"]["lockAction"]["extra"] is None


def test_groups_allowed_without_permission(faulty: Ref) -> None:
    assert faulty.get("/group.json", "novice").status_code == 200
    assert faulty.get("/group.json", None).status_code == 401


def test_the_credentials_faults_the_authenticator_reads_are_registered() -> None:
    """service.caller reads a request's path for these faults only (auth.credentials_planted): a renamed fault would
    silently stop being planted."""
    from qaconform.reference.auth import CREDENTIALS_FAULTS

    assert CREDENTIALS_FAULTS and CREDENTIALS_FAULTS <= set(FAULTS), sorted(CREDENTIALS_FAULTS - set(FAULTS))
