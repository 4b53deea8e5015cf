"""write: answers under the profile's fixture question and public and private comments on them.

Every 201 is written to the run folder; after the run `qaconform load` checks each one is listed exactly once.
Debug as a script: QACONFORM_PROFILE=site.toml python loadtests/write.py
"""

from locust import run_single_user
from qaload import hooks  # noqa: F401
from qaload.tasks import WriteTasks, private_options_for


class WriteMember(WriteTasks):
    role = "member"
    weight = 3
    private_options = private_options_for("member")


class WriteModerator(WriteTasks):
    role = "moderator"
    weight = 1
    private_options = private_options_for("moderator")


class WriteAdmin(WriteTasks):
    role = "admin"
    weight = 1
    private_options = private_options_for("admin")


if __name__ == "__main__":
    run_single_user(WriteMember)
