"""mixed: a weighted blend of the other profiles, roughly a busy community site (reads dominate).

Weights are per user: of 100 users about 70 browse, 20 write, 6 moderate and 4 run data-protection error
paths. Debug as a script: QACONFORM_PROFILE=site.toml python loadtests/mixed.py
"""

from locust import run_single_user
from qaload import hooks  # noqa: F401
from qaload.tasks import AdminBrowseTasks, BrowseTasks, GdprTasks, ModerateTasks, WriteTasks, private_options_for


class MixedReader(BrowseTasks):
    role = "member"
    weight = 50


class MixedNoviceReader(BrowseTasks):
    role = "novice"
    weight = 15


class MixedAdminReader(AdminBrowseTasks):
    role = "admin"
    weight = 5


class MixedWriter(WriteTasks):
    role = "member"
    weight = 15
    private_options = private_options_for("member")


class MixedModeratorWriter(WriteTasks):
    role = "moderator"
    weight = 5
    private_options = private_options_for("moderator")


class MixedModerator(ModerateTasks):
    role = "moderator"
    weight = 6


class MixedGdpr(GdprTasks):
    role = "admin"
    weight = 4


if __name__ == "__main__":
    run_single_user(MixedReader)
