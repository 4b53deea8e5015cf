"""mixed: a weighted blend of the other profiles, roughly a busy community site where reads dominate.

One class per role, each mixing the task sets that role does: of 10 users about 6 members who read and
write, 2 novices who read, 1 moderator who reads and moderates, 1 administrator who reads and hits the
data-protection error paths. Debug as a script: QACONFORM_PROFILE=site.toml python loadtests/mixed.py
"""

from locust import run_single_user
from qaload import hooks  # noqa: F401
from qaload.tasks import AdminBrowseTasks, BrowseTasks, GdprTasks, ModerateTasks, WriteTasks, private_options_for


class MixedMember(BrowseTasks, WriteTasks):
    role = "member"
    weight = 6
    private_options = private_options_for("member")


class MixedNovice(BrowseTasks):
    role = "novice"
    weight = 2


class MixedModerator(BrowseTasks, ModerateTasks):
    role = "moderator"
    weight = 1


class MixedAdmin(AdminBrowseTasks, GdprTasks):
    role = "admin"
    weight = 1


if __name__ == "__main__":
    run_single_user(MixedMember)
