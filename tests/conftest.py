"""The kit's own tests start dozens of `qaconform run` commands, many at once (tests/hostile plans them all at
session start), on CI machines of 2 cores: each runs its suites serially unless it passes --jobs (as the tests of
parallel runs do), so that every worker a test did not ask for is not one more process collecting the suites."""

import os

os.environ.setdefault("QACONFORM_JOBS", "1")
