"""The observed job of test_gdpr_jobs.py (far frame 2): scheduleDate in its timeStamp form, recorded (moved out of
test_gdpr_jobs.py in round62 to make room there; the same frame, the same observation, the same write).

"Either formatted (...) or timeStamp": the format of timeStamp is not shown, so its forms are tried in order on the
run's third frame until one is taken (the rest are not tried: each taken form would be one more job), and which one
was taken is an observation. Its one write is the observations' share's, which a default budget does not plan: the
201 of a job dated by timeStamp is therefore not judged in a budgeted run (round62-gdpr-timestamp-job-200 is left out
for that reason, docs/blind-rounds.md).
"""

from __future__ import annotations

from typing import Any

import pytest
from gdpr_jobs import TIME_FRAME, TIMESTAMP_FORMS, Jobs, error_text, require_destructive

from qaconform.pytest.time_frames import Frames
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile

pytestmark = [pytest.mark.gdpr]


@pytest.fixture(scope="module")
def jobs(admin: ApiClient, profile: Profile, user_ids: dict[str, int]) -> Jobs:
    return Jobs(admin, profile, user_ids.get("admin"))


@pytest.fixture(scope="module")
def frames(run_tag: str) -> Frames:
    return Frames.of(run_tag)  # the frames of test_gdpr_jobs.py: far(2) is this job's


@pytest.mark.accepted_writes(1)
@pytest.mark.destructive
@pytest.mark.writes
@pytest.mark.observation
@pytest.mark.rule("OBS-GDPR-TIMESTAMP-FORMAT")
def test_the_accepted_form_of_schedule_date_time_stamp_is_recorded(jobs: Jobs, frames: Frames,
                                                                   observe: Any) -> None:
    """Successful job 3 at most: the forms are tried in order on the run's third frame until one is taken (the rest
    are not tried: each taken form would be one more job)."""
    require_destructive(jobs.profile)
    facts: dict[str, Any] = {}
    moment = frames.far(2)
    for form in TIMESTAMP_FORMS:
        value: Any = {
            "epoch_millis": int(moment.timestamp() * 1000),
            "epoch_seconds": int(moment.timestamp()),
            "epoch_millis_string": str(int(moment.timestamp() * 1000)),
            "iso_text": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }[form]
        resp, _ = jobs.send(jobs.individual(user=jobs.profile.safety.user_spec(), scheduleDate={"timeStamp": value}))
        facts[form] = {"sent": value, "status": resp.status, "error": error_text(resp)}
        if error_text(resp) == TIME_FRAME:
            moment = frames.fresh_far()
        if resp.status == 201:
            break
    facts["not_tried"] = [f for f in TIMESTAMP_FORMS if f not in facts]
    observe("OBS-GDPR-TIMESTAMP-FORMAT", **facts)
