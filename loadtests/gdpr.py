"""gdpr: the data-protection schedule operation's error paths (never a job that could run) and the
read-only user-content listing, as the administrator.

Debug as a script: QACONFORM_PROFILE=site.toml python loadtests/gdpr.py
"""

from locust import run_single_user
from qaload import hooks  # noqa: F401
from qaload.tasks import GdprTasks


class GdprAdmin(GdprTasks):
    role = "admin"


if __name__ == "__main__":
    run_single_user(GdprAdmin)
