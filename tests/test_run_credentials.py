"""After the suites, `qaconform run` asks again whether the target lets every account in (qa20): a password changed
or expired mid-run is a profile error (exit 2) naming the account, never the target's failure."""

from __future__ import annotations

from dataclasses import replace

from qaconform.commands.run_credentials import check
from qaconform.reference import ReferenceServer
from qaconform.target.profile import Secret, load_profile
from qaconform.vocabulary import StopReason


def test_an_account_refused_after_the_suites_stops_the_run_as_a_profile_error_naming_it() -> None:
    """qa20: a proxy that began refusing member's password 25 s into `qaconform run --only comments` made the run
    fail PERM-ANSWER, ANSWER-201, PERM-COMMENT-PRIVATE and COMMENT-BODY-REQUIRED on member's 401s (exit 1)."""
    with ReferenceServer(throwaway=True) as srv:
        profile = load_profile(srv.profile_path)
        stops: list[tuple[StopReason, str]] = []
        assert check(profile, lambda reason, text: stops.append((reason, text))) is None
        assert stops == [], "every account the doctor let in is let in: no stop"
        member = profile.accounts["member"]
        rotated = replace(profile, accounts={**profile.accounts,
                                             "member": replace(member, password=Secret("rotated-" + member.password))})
        assert check(rotated, lambda reason, text: stops.append((reason, text))) == StopReason.PROFILE
    [(reason, text)] = stops
    assert reason == StopReason.PROFILE and reason.exit_code == 2
    assert f"refused '{member.username}' (member) after the suites" in text, text
    assert "password_env" in text and srv.profile_path in text
    assert member.password not in text
