"""The input form of the run's shared private-option comments (forms20, issue 44 item 3): a comment with a private
option that needs no recipients (to the original poster, to moderators, to own groups; suites/conftest.py
``private_comment_of``) went as JSON only, so a server that dropped the option of a form-encoded comment passed
(blind round 54). Each now goes in the form the run's seed draws for it (suites/contract/placed_slots.py
``option_form_of``): the JSON body, query parameters, a form-encoded body, or the parameters winning over a JSON body
of another text. The same writes, read back the same way (what each account may see does not depend on the form).

A form the target refuses with a 4xx is kept under ``<key> as <form>`` and the comment posted again as JSON under
``<key>`` (every reader needs the comment); test_private_options_stored.py judges that refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from qaconform.pytest.properties.plugin import STATE
from qaconform.target.client import ApiResponse
from qaconform.target.profile import Profile

from .contract.placed_slots import JSON, option_form_of
from .one_shot_calls import once_per_target

REPEATS_OPTION_OF: dict[tuple[str, str], str] = {
    ("admin", "to_original_poster"): "member", ("moderator", "to_moderators"): "member",
    ("admin", "to_own_groups"): "moderator"}
"""(account, option) -> whose shared comment of the same option it replies to, repeating the option (fix22, issue
44: "A reply to a private comment without privacy fields, or with the same ones, inherits the parent's settings:
201", for every private option, not only recipients), by an account that reads the parent whoever may read such a
comment (moderator a comment to moderators; admin holds every permission). Each reply is the permission table's cell
(and the stored-option check's comment) anyway, so the repeat costs no write; a refusal (who may reply to another's
op, mod or group comment is not described; rule 3's 400 is test_reply_visibility_pairs.py's to judge) puts it under
the shared answer, as before."""


def shared(request: pytest.FixtureRequest, profile: Profile, key: str, make: Callable[[], ApiResponse]) -> ApiResponse:
    """``make()`` once per run and target: once per process (a session's cache, which a run on one process has only)
    and once across xdist workers (:func:`one_shot_calls.once_per_target`)."""
    cache: dict[str, ApiResponse] = request.session.stash.setdefault(_SHARED, {})
    if key not in cache:
        cache[key] = once_per_target(request, profile, f"shared {key}", make)
    return cache[key]


_SHARED = pytest.StashKey[dict[str, ApiResponse]]()
"""The session's shared writes by key."""


def drawn(config: pytest.Config, role: str, option: str) -> str:
    """The form (role, option)'s comment is drawn to travel in this run (JSON without a seed: a bare pytest run)."""
    return option_form_of(role, option, config.stash[STATE].seed) if STATE in config.stash else JSON


def post_option(request: pytest.FixtureRequest, profile: Profile, role: str, option: str, key: str,
                send: Callable[[str], ApiResponse]) -> ApiResponse:
    """``send(form)`` once per run under ``key`` in the drawn form; a 4xx in another form than JSON is kept under
    ``key as <form>`` (:func:`refusal`) and ``send(JSON)`` made under ``key``."""
    form = drawn(request.config, role, option)
    if form != JSON:
        resp = shared(request, profile, f"{key} as {form}", lambda: send(form))
        if not 400 <= resp.status < 500:
            return shared(request, profile, key, lambda: resp)
    return shared(request, profile, key, lambda: send(JSON))


def refusal(request: pytest.FixtureRequest, profile: Profile, role: str, option: str,
            key: str) -> tuple[str, ApiResponse | None]:
    """(the drawn form, its 4xx where JSON stood in for it, else None), once (role, option)'s comment was posted
    under ``key`` (the drawn form's response is then in the run's cache: nothing is sent)."""
    form = drawn(request.config, role, option)
    if form == JSON:
        return form, None
    resp = shared(request, profile, f"{key} as {form}",
                  lambda: pytest.fail(f"{key} was not posted in the {form} form first"))
    return form, resp if 400 <= resp.status < 500 else None


@pytest.fixture(scope="session")
def option_form_refusal(request: pytest.FixtureRequest, private_comment_of: Callable[[str, str], Any],
                        profile: Profile) -> Callable[[str, str], tuple[str, ApiResponse | None]]:
    """``option_form_refusal(role, option)``: (role, option)'s shared comment posted first, then :func:`refusal` of
    the write it came to (the reply repeating an option when that one was taken, else the comment itself)."""

    def get(role: str, option: str) -> tuple[str, ApiResponse | None]:
        write = private_comment_of(role, option)
        key = f"{option} comment of {role}" + (" as a reply" if write.repeats is not None and write.refused is None
                                               else "")
        return refusal(request, profile, role, option, key)

    return get
