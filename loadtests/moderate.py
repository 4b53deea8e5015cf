"""moderate: lock and send to moderation on answers the run creates; unfavorite and cancelwiki on the
profile's fixtures (one-shot: consumed by the first call).

Debug as a script: QACONFORM_PROFILE=site.toml python loadtests/moderate.py
"""

from locust import run_single_user
from qaload import hooks  # noqa: F401
from qaload.tasks import ModerateTasks


class ModerateModerator(ModerateTasks):
    role = "moderator"
    weight = 3


class ModerateAdmin(ModerateTasks):
    role = "admin"
    weight = 1


class ModerateMember(ModerateTasks):
    """Member holds Lock comments on own posts and Convert own posts to community wiki: own nodes only."""

    role = "member"
    weight = 1
    own_only = True


if __name__ == "__main__":
    run_single_user(ModerateModerator)
