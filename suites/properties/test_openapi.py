"""Generated requests for every operation of spec/openapi.yaml (schemathesis), judged by the built-in checks that fit
this interface and by ours (qaconform.st_checks).

Hand-written scenarios check what we thought of; these send what we did not: boundary values, odd strings, wrong
types, missing fields, unknown parameters. Valid requests must be accepted (documented business-rule 400s and
permission refusals aside), invalid ones refused with a 4xx, never a 5xx, and every answer must match its schema.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis

from suites.properties.oas import SchemaSender

schema = schemathesis.pytest.from_fixture("openapi_schema")


@pytest.mark.properties
@pytest.mark.writes
@pytest.mark.rule(
    "CONV-NO-SERVER-ERROR", "CONV-CONTENT-TYPE-JSON", "CONV-JSON-EXTENSION", "CONV-BODY-FORMAT", "AUTH-BAD-CREDENTIALS",
    "AUTH-ANONYMOUS-WRITES", "PAGING-ENVELOPE", "PAGING-LISTCOUNT", "PAGING-PAGECOUNT", "PAGING-PAGE-ECHO",
    "PAGING-PAGESIZE-ECHO", "PAGING-DEFAULT-PAGE", "PROJ-INCLUDEONLY", "COMMENT-PRIVACY-LIST", "SHAPE-DATES-MILLIS",
    "SHAPE-POST-COMMENT", "SHAPE-SCHEDULE-GDPR-JOB", "SHAPE-LIST-QUESTIONS", "SHAPE-LIST-USER-ANSWERS",
    "SHAPE-LIST-ACTIVE-EXPERTS", "SHAPE-LIST-EARNED-EXPERTS", "SHAPE-POST-ANSWER", "SHAPE-LIST-USER-CONTENT",
    "SHAPE-LIST-SPACES", "SHAPE-UNMARK-FAVORITE", "SHAPE-CANCEL-WIKI", "SHAPE-SEND-TO-MODERATION", "SHAPE-LOCK-NODE",
    "SHAPE-LIST-TOPICS", "SHAPE-LIST-USER-QUESTIONS", "SHAPE-LIST-NODE-FOLLOWERS", "SHAPE-LIST-GROUPS",
    "SHAPE-LIST-ANSWER-COMMENTS", "SHAPE-LIST-ISSUE-TYPES", "COMMENT-BODY-REQUIRED", "GDPR-CONTENT-422",
    "EXPERTS-401",
)
@schema.parametrize()
def test_every_operation_accepts_valid_and_refuses_invalid_generated_requests(case: Any, sender: SchemaSender) -> None:
    sender.send(case)
