"""How a person reproduces a failure in one paste: a curl with the real username and a named password variable,
and the command that reruns that one test against the same target.

The client records curls with the placeholder ``-u "$USER:$PASSWORD"`` (it must not know what the report will say).
Here the placeholder becomes ``-u "qa-member:$QACONFORM_MEMBER_PASSWORD"``: the profile's username for the role the
request was sent as, and an environment variable the report names (the profile's own ``password_env`` when it
has one). The password itself never appears; the variable's value is the reader's to set.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any

PLACEHOLDER = '"$USER:$PASSWORD"'
PYTEST_PROFILE_OPTION = "--target-profile"
"""The pytest plugin's option that names a target profile (the ``qaconform run`` flag stays ``--profile``)."""
_AS_ROLE = re.compile(r"\s#\s*as\s+([A-Za-z_][\w-]*)")
"""The ``# as <role>`` comment of a curl: at the end of its line, or followed by more of a message on the same line
(``... # as moderator (seed 3; rerun with --seed 3)``)."""
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_WRONG_PASSWORD_ROLE = "wrong_password"


def password_variable(role: str, accounts: Mapping[str, Any] | None) -> str:
    """The environment variable that holds ``role``'s password: the profile's ``password_env`` when it names one,
    else ``QACONFORM_<ROLE>_PASSWORD``."""
    acc = (accounts or {}).get(role)
    env = acc.get("password_env") if isinstance(acc, Mapping) else None
    if isinstance(env, str) and _ENV_NAME.match(env):
        return env
    return f"QACONFORM_{re.sub(r'[^A-Za-z0-9]', '_', role).upper()}_PASSWORD"


def username_of(role: str, accounts: Mapping[str, Any] | None) -> str | None:
    acc = (accounts or {}).get("member" if role == _WRONG_PASSWORD_ROLE else role)
    name = acc.get("username") if isinstance(acc, Mapping) else None
    return str(name) if name else None


def personal_curl(curl: str, accounts: Mapping[str, Any] | None) -> str:
    """The recorded curl with the role's username and password variable in place of ``$USER:$PASSWORD``.

    The trailing ``# as <role>`` says whose account it was. A request sent with a deliberately wrong password keeps
    a literal wrong one (it is not a secret: it is what the test sent to be refused)."""
    found = list(_AS_ROLE.finditer(curl))  # the last: a body may hold the words too
    if PLACEHOLDER not in curl or not found:
        return curl
    role = found[-1].group(1)
    user = username_of(role, accounts)
    if user is None:
        return curl
    if role == _WRONG_PASSWORD_ROLE:  # the member's password with something appended: surely wrong
        cred = f'"{_shell_safe(user)}:${{{password_variable("member", accounts)}}}-wrong"'
    else:
        cred = f'"{_shell_safe(user)}:${password_variable(role, accounts)}"'
    return curl.replace(PLACEHOLDER, cred, 1)


def _shell_safe(user: str) -> str:
    """A username inside double quotes: escape what the shell would expand."""
    return re.sub(r'(["$`\\])', r"\\\1", user)


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
                f"sleep 3; {test_cmd} {PYTEST_PROFILE_OPTION} qc-reference.toml")
        run = "qaconform run" + "".join(f" --reference-fault {shlex.quote(f)}" for f in faults) + f" --only {rule}"
    else:
        test = f"{test_cmd} {PYTEST_PROFILE_OPTION} <your profile.toml>"
        run = f"qaconform run --profile <your profile.toml> --only {rule}"
    return {"test": test, "rule": run}


def personalise_text(text: str | None, accounts: Mapping[str, Any] | None) -> str | None:
    """Every curl line of a message (``Reproduce with: curl ...``) made personal as in :func:`personal_curl`."""
    if not text or PLACEHOLDER not in text:
        return text
    return "\n".join(personal_curl(line, accounts) if PLACEHOLDER in line else line for line in text.split("\n"))


def password_envs(profile_path: str | None) -> dict[str, str]:
    """Role -> the ``password_env`` a profile names for it (read from the file: the loaded Profile keeps only the
    password). Empty when there is no profile or it cannot be read (the report then names its own variables)."""
    if not profile_path:
        return {}
    import tomllib

    try:
        with open(profile_path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    accounts = data.get("accounts") if isinstance(data, dict) else None
    if not isinstance(accounts, dict):
        return {}
    return {str(role): str(acc["password_env"]) for role, acc in accounts.items()
            if isinstance(acc, dict) and isinstance(acc.get("password_env"), str)}


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
