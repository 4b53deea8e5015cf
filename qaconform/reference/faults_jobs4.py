"""Data-protection job rules broken in one stated form of the job's fields only (issue 44, jobs4): the date's field
name (scheduleDate, or scheduleTime, the name "A sample shape names ... for the individual case"), the date's form
(formatted or timeStamp), the user's id as text, type as a request parameter, and a mixed pair on the time frame (the
first job dated by one name, the second by the other). Also the blind round 16 fault the suites missed, re-planted
(/work/notes/s6/blind-round16.md). Their code is :mod:`jobs4_paths`, hooked by one line each into gdpr_jobs.py.
"""

from __future__ import annotations

from .fault_model import Fault

JOBS4: tuple[Fault, ...] = (
    Fault("round16-gdpr-time-frame-scheduletime", "GDPR-TIME-FRAME",
          "a second job for a taken time frame is scheduled (replacing the first) when it is dated with scheduleTime,"
          " the sample's field name, instead of scheduleDate (\"Another job already exists for that time frame\")"),
    Fault("jobs4-time-frame-timestamp-unchecked", "GDPR-TIME-FRAME",
          "a second job for a taken time frame is scheduled when it is dated by timeStamp (\"Either formatted ... or"
          " timeStamp\"; \"Another job already exists for that time frame\")"),
    Fault("jobs4-time-frame-user-id-text", "GDPR-TIME-FRAME",
          "a second job for a taken time frame is scheduled when its user id is given as text (\"5\"), not as a"
          " number (\"Another job already exists for that time frame\")"),
    Fault("jobs4-time-frame-type-param", "GDPR-TIME-FRAME",
          "a second individual job for a taken time frame is scheduled when type comes as a request parameter"
          " (\"each body field may also be given as a request or query parameter\")"),
    Fault("jobs4-time-frame-held-by-schedule-date-only", "GDPR-TIME-FRAME",
          "a frame held by a job dated with scheduleTime looks free to a job dated with scheduleDate (the lookup"
          " reads the stored scheduleDate only): the second job replaces the first"),
    Fault("jobs4-typeless-scheduletime-individual", "GDPR-BULK-NO-TYPE",
          "a request without type, dated by scheduleTime and naming a user, is scheduled as an individual job"
          " (\"Required: a bulk request without type is shown as incorrect\")"),
    Fault("jobs4-typeless-csv-param-bulk", "GDPR-BULK-NO-TYPE",
          "a request without type whose csvFileId comes as a query parameter is scheduled as a bulk job (\"Required:"
          " a bulk request without type is shown as incorrect\"; \"each body field may also be given as a request or"
          " query parameter\")"),
    Fault("jobs4-timestamp-past-unchecked-type-param", "GDPR-DATE-TIMESTAMP",
          "a job dated in the past by timeStamp is scheduled when its type comes as a request parameter (\"Either"
          " formatted ... or timeStamp\"; \"Date in the past\")"),
    Fault("jobs4-jobid-missing-scheduletime", "GDPR-201-JOBID",
          "the 201 to a job dated by scheduleTime is {id: n}, without jobId (\"Success: 201 with {jobId}\")"),
    Fault("jobs4-job-wrapped-user-by-id", "SHAPE-SCHEDULE-GDPR-JOB",
          "the 201 to a job naming its user by id is {job: {jobId: n}} (\"Success: 201 with {jobId}\")"),
)
