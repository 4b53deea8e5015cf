"""browse: the list operations, as the four roles of the profile would read the site.

Run through `qaconform load --scenario browse`, or as a plain script against one profile to debug a task:
QACONFORM_PROFILE=site.toml python loadtests/browse.py
"""

from locust import run_single_user
from qaload import hooks  # noqa: F401  (installs the histogram and report hooks)
from qaload.tasks import AdminBrowseTasks, BrowseTasks


class BrowseMember(BrowseTasks):
    role = "member"
    weight = 6


class BrowseNovice(BrowseTasks):
    role = "novice"
    weight = 2


class BrowseModerator(BrowseTasks):
    role = "moderator"
    weight = 1


class BrowseAdmin(AdminBrowseTasks):
    role = "admin"
    weight = 1


if __name__ == "__main__":
    run_single_user(BrowseMember)
