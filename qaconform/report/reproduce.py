"""How a person reproduces a failure in one paste: a curl with the real username and a named password variable,
and the command that reruns that one test against the same target.

The client records curls with the placeholder ``-u "$USER:$PASSWORD"`` (it must not know what the report will say).
The report makes them ``-u "qa-member:$QACONFORM_MEMBER_PASSWORD"`` with :func:`personal_curl`, the one function
pytest's terminal uses too (it lives in qaconform.target.curl_line, which the plugin may import; re-exported here):
the profile's username for the role the request was sent as, and an environment variable that holds its password
(the profile's own ``password_env`` when it has one). The password itself never appears.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any

from qaconform.target.curl_line import (
    PLACEHOLDER,
    password_envs,
    password_variable,
    personal_curl,
    personalise_text,
    replay_note,
    username_of,
)

__all__ = ["PLACEHOLDER", "accounts_for_curls", "password_envs", "password_variable", "personal_curl",
           "personalise_text", "replay_note", "rerun_commands", "rerun_context", "username_of", "variables_used"]

PYTEST_PROFILE_OPTION = "--target-profile"
"""The pytest plugin's option that names a target profile (the ``qaconform run`` flag stays ``--profile``)."""


def variables_used(curls: list[str]) -> list[str]:
    """The password variables a list of curls needs set, in order of first use."""
    found: list[str] = []
    for c in curls:
        for name in re.findall(r":\$\{?([A-Za-z_][A-Za-z0-9_]*)", c):
            if name not in found:
                found.append(name)
    return found


def rerun_commands(nodeid: str, rule: str, how: Mapping[str, Any] | None) -> dict[str, str]:
    """The commands that rerun one test (pytest, by node id) and one rule (``qaconform run --only``) against the
    same target. ``how`` is what the runner recorded (:func:`rerun_context`): the pytest command it ran over the
    suites (``pytest``, with ``suites`` its suites folder: the test's path replaces it), ``profile`` (absolute; None
    for the embedded reference server) and ``reference_faults``."""
    how = how or {}
    profile = how.get("profile")
    faults = [str(f) for f in how.get("reference_faults") or []]
    pytest_cmd = [str(x) for x in how.get("pytest") or []]
    suites = str(how.get("suites") or "")
    if pytest_cmd and suites in pytest_cmd:
        root = suites.rstrip("/").rsplit("/", 1)[0]
        cmd = [f"{root}/{nodeid}" if x == suites else x for x in pytest_cmd]
    else:
        cmd = ["python", "-m", "pytest", nodeid]
    test_cmd = " ".join(shlex.quote(x) for x in cmd)
    if profile:
        test = f"{test_cmd} {PYTEST_PROFILE_OPTION} {shlex.quote(str(profile))}"
        run = f"qaconform run --profile {shlex.quote(str(profile))} --only {rule}"
    elif how.get("reference") or faults:
        fault_args = "".join(f" --fault {shlex.quote(f)}" for f in faults)
        test = (f"qaconform serve{fault_args} --port 8765 --profile-out qc-reference.toml &  "
                f'sleep 3; eval "$(qaconform serve --print-env)"; {test_cmd} {PYTEST_PROFILE_OPTION} qc-reference.toml')
        run = "qaconform run" + "".join(f" --reference-fault {shlex.quote(f)}" for f in faults) + f" --only {rule}"
    else:
        test = f"{test_cmd} {PYTEST_PROFILE_OPTION} <your profile.toml>"
        run = f"qaconform run --profile <your profile.toml> --only {rule}"
    return {"test": test, "rule": run}


def accounts_for_curls(target: Mapping[str, Any] | None, how: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The target's accounts (username, id: no password) with the password variable of each role added."""
    accounts = (target or {}).get("accounts") if isinstance(target, Mapping) else None
    envs = dict((how or {}).get("password_env") or {})
    out: dict[str, dict[str, Any]] = {}
    for role, acc in (accounts or {}).items():
        if isinstance(acc, Mapping):
            out[str(role)] = {**acc, "password_env": envs.get(role) or acc.get("password_env")}
    for role, acc in out.items():
        acc["password_env"] = password_variable(role, out)
    return out


def rerun_context(profile_path: str | None, reference_faults: list[str] | None = None) -> dict[str, Any]:
    """What the runner records (run.json ``rerun``) so that the report can write exact rerun commands: the pytest
    command it runs over the suites, the profile (absolute path), and the password variable of each role."""
    import os

    from qaconform import kit

    profile = os.path.abspath(profile_path) if profile_path else None
    try:
        pytest_cmd, suites = kit.pytest_command(), str(kit.suites_dir())
    except kit.KitNotFound:
        pytest_cmd, suites = [], ""
    return {"pytest": pytest_cmd, "suites": suites, "profile": profile, "reference": profile is None,
            "reference_faults": list(reference_faults or []), "password_env": password_envs(profile)}
