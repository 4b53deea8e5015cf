"""fix26 (issue 44): faults of the kinds blind round 26 found, planted on neighbouring paths to prove each widening
closes its kind, not its one fault (docs/blind-rounds.md, round 26). Hooks in :mod:`fix26_paths`.

- a taken time frame counted only for a job that agrees with the holder in another field (round26: the
  operations; here reassignUser);
- a job field's parameter form honoured for one stated value only (round26: ?type=individual ignored; here the
  individual value ignored only beside a body that gives a type);
- a list's item rule broken only on a reply to a reply, which only the run's own deep subtree holds (round26:
  originalParentId; here a title and a creationDate in seconds).
"""

from __future__ import annotations

from .fault_model import Fault

FIX26: tuple[Fault, ...] = (
    Fault("fix26-time-frame-same-reassign-only", "GDPR-TIME-FRAME",
          "a second job in a time frame already taken is refused only when its reassignUser is the one of the job "
          "there (present alike and naming the same user): a duplicate check keyed on the reassignment; '{error: "
          "There is a job already scheduled for that time frame.}'"),
    Fault("fix26-type-param-individual-loses-to-body", "CONV-PARAM-AS-BODY-FIELD-GDPR",
          "?type=individual beside a body that gives another type loses to the body (the bulk value wins either "
          "way); 'On POST endpoints that take a body, each body field may also be given as a request or query "
          "parameter of the same name. When both are given, the parameter wins.'"),
    Fault("fix26-reply-to-reply-titled", "NODE-TITLE-ANSWERS-COMMENTS",
          "in an answer's comment list a reply to a reply carries its question's title; '| title | string | "
          "Optional. Absent or null for answers and comments. |'"),
    Fault("fix26-reply-to-reply-date-seconds", "SHAPE-DATES-MILLIS",
          "in an answer's comment list a reply to a reply carries creationDate in epoch seconds; '| creationDate | "
          "integer | Epoch time in milliseconds. |'"),
)
