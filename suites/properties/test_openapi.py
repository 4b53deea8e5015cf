"""Generated requests for every operation of spec/openapi.yaml (schemathesis), judged by the built-in checks that fit
this interface and by ours (qaconform.pytest.schemathesis_checks).

Hand-written scenarios check what we thought of; these send what we did not: boundary values, odd strings, wrong
types, missing fields, unknown parameters. Valid requests must be accepted (documented business-rule 400s and
permission refusals aside), invalid ones refused with a 4xx, never a 5xx, and every answer must match its schema.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from qaconform.pytest.properties.oas import SchemaSender, collection_schema
from qaconform.pytest.properties.plugin import collection_budget

schema = collection_schema(collection_budget())
"""Loaded at collection (schemathesis's eager ``parametrize``: one test per operation); the target's ids, visibility
values and tracker are bound per call by the sender, so nothing here depends on the target."""


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
    "EXPERTS-401", "OBS-GENERATED-STATUS", "OBS-LOCK-TWICE", "OBS-SENDTOMOD-TWICE",
)
@schema.parametrize()
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                                HealthCheck.filter_too_much])
def test_every_operation_accepts_valid_and_refuses_invalid_generated_requests(case: Any, sender: SchemaSender) -> None:
    sender.send(case)
