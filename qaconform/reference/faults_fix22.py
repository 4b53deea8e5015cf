"""Data-protection job rules broken on a path blind round 22 showed the suites never took (issue 44, fix22): a
refusal row met only by the minimal job of a kind (not one carrying the optional fields a valid job may carry), and
an id that names nobody looked up only as a JSON number (not as the same digits in text), and a reply repeating
its parent's private option (not recipients) handled apart from one without fields. Their code is
:mod:`fix22_paths`, hooked by one entry in request_hooks.py; test_gdpr_kinds.py, test_gdpr_forms.py and
test_reply_visibility_pairs.py cross them.
"""

from __future__ import annotations

from .fault_model import Fault

BULK_MANY_OPERATIONS_CSV: str = "fix22-bulk-several-operations-csv-unchecked"
OPERATIONS_WITH_REASSIGN_ID: str = "fix22-operations-unchecked-with-reassign-by-id"
REASSIGN_TEXT_TOO_LARGE: str = "fix22-reassign-id-text-too-large-dropped"
REASSIGN_TEXT_NEGATIVE: str = "fix22-reassign-id-text-negative-dropped"
MOD_REPEAT_STORED_FULL: str = "fix22-reply-repeating-mod-stored-full"

FIX22: tuple[Fault, ...] = (
    Fault(BULK_MANY_OPERATIONS_CSV, "GDPR-CSV-MISSING",
          "a bulk job whose operations hold more than one operation is taken though its csvFileId names no file "
          "(\"csvFileId names a file that does not exist\": 400; a job of one operation is right)"),
    Fault(OPERATIONS_WITH_REASSIGN_ID, "GDPR-OPERATIONS-INVALID",
          "a job carrying a valid reassignUser by id is scheduled with suspend though its operations list is empty "
          "(\"Empty or invalid operations list\": 400; without reassignUser it is right)"),
    Fault(REASSIGN_TEXT_TOO_LARGE, "GDPR-REASSIGN-INVALID",
          "a reassignUser id given as text too large for a 64-bit integer is dropped (the job taken without it), "
          "where the same number as a JSON number is refused (\"reassignUser does not exist\": 400)"),
    Fault(REASSIGN_TEXT_NEGATIVE, "GDPR-REASSIGN-INVALID",
          "a bulk job's reassignUser id given as the text of a negative number is dropped (the job taken without "
          "it), where a negative JSON number is refused (\"reassignUser does not exist\": 400)"),
    Fault(MOD_REPEAT_STORED_FULL, "COMMENT-3",
          "a reply to a comment private to moderators that repeats that visibility is taken (201) but "
          "stored with full visibility (\"with the same ones, inherits the parent's settings\"; a reply without "
          "fields inherits right)"),
)
"""Each measured missed on main's suites and caught after (notes/s8/fix22.md)."""
