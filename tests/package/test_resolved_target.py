"""One resolved target per run (issue 30 item 3, hard rule 6): `qaconform run` turns profile, environment override
and the doctor's findings into target.json in the run folder, and the suites' pytest reads that instead of resolving
the target again; a session asked to test another URL than target.json's stops before any request."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from qaconform import exitcodes
from qaconform.kit import pytest_command
from qaconform.target.doctor import Diagnosis
from qaconform.target.profile import load_profile
from qaconform.target.resolved import (
    TARGET_NAME,
    OneTargetError,
    ResolvedTarget,
    ResolvedTargetError,
    env_override,
    resolve_target,
)


def test_the_resolved_target_is_strict_json_without_secrets_and_refuses_findings_for_another_url() -> None:
    from qaconform.reference import ReferenceServer

    with ReferenceServer() as srv:
        profile = load_profile(srv.profile_path)
        override = env_override({"QACONFORM_BASE_URL": "http://127.0.0.1:9/"})
        assert override is not None and (override.url, override.named) == ("http://127.0.0.1:9", "QACONFORM_BASE_URL")
        same = resolve_target(profile=srv.profile_path, override=env_override({"QACONFORM_BASE_URL": srv.url + "/"}))
        assert (same.base_url, same.base_url_from, same.diagnosis) == (profile.base_url, "profile", None)
        with pytest.raises(OneTargetError, match="one run tests one target"):
            resolve_target(profile=srv.profile_path, override=override, doctor=Diagnosis(base_url=profile.base_url))
        doctor = Diagnosis(base_url=profile.base_url, user_ids={"member": 3})
        resolved = resolve_target(profile=srv.profile_path, doctor=doctor)
        folder = Path(srv.profile_path).parent / "run"
        folder.mkdir()
        text = resolved.write(folder).read_text(encoding="utf-8")
        json.loads(text, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
        assert not [p for p in profile.passwords() if p in text], "a password is in target.json"
        again = ResolvedTarget.read(folder / TARGET_NAME)
        assert again == resolved and again.profile().base_url == profile.base_url
        assert again.diagnosis == doctor and again.profile().accounts["member"].id == resolved.profile().accounts[
            "member"].id
        with pytest.raises(OneTargetError, match="one run tests one target"):
            resolve_target(target_file=folder / TARGET_NAME, override=override)


def _refusals_and_override_reads(path: Path) -> tuple[list[str], list[str]]:
    """The messages ``path`` stops with (``raise``, an error made, ``sys.exit``, the plugin's ``_stop``), and the
    names of what it reads from the environment or a mapping (``.get``/``getenv``/``[...]`` of a constant or
    ``BASE_URL_ENV``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    called = {id(n): str(getattr(n.func, "attr", getattr(n.func, "id", ""))) for n in ast.walk(tree)
              if isinstance(n, ast.Call)}
    stopping = [n for n in ast.walk(tree) if isinstance(n, ast.Raise) or (
        id(n) in called and (called[id(n)] in ("exit", "_stop") or called[id(n)].endswith("Error")))]
    said = [c.value for n in stopping for c in ast.walk(n) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    keys = [n.args[0] for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args
            and getattr(n.func, "attr", getattr(n.func, "id", "")) in ("get", "getenv", "pop")]
    keys += [n.slice for n in ast.walk(tree) if isinstance(n, ast.Subscript)]
    read = [k.value if isinstance(k, ast.Constant) else getattr(k, "id", getattr(k, "attr", "")) for k in keys]
    return said, [str(r) for r in read]


def test_one_module_resolves_the_target_for_every_entry_point() -> None:
    """Issue 47: the run, plain pytest, the load commands and each Locust process resolve their target through
    ``resolve_target``: no other module reads the override's variable or refuses a second target."""
    root = Path(__file__).resolve().parents[2]
    refusing, reading = set(), set()
    for path in [*root.glob("qaconform/**/*.py"), *root.glob("loadtests/**/*.py")]:
        said, read = _refusals_and_override_reads(path)
        name = path.relative_to(root).as_posix()
        if any("one run tests one target" in text for text in said):
            refusing.add(name)
        if {"QACONFORM_BASE_URL", "BASE_URL_ENV"} & set(read):
            reading.add(name)
    assert (refusing, reading) == ({"qaconform/target/resolved.py"}, {"qaconform/target/resolved.py"})


@pytest.mark.parametrize(("change", "named"), [
    (lambda d: {**d, "extra": 1}, "extra"),
    (lambda d: {**d, "format": "qaconform-target/2"}, "format"),
    (lambda d: {**d, "base_url": 8080}, "base_url"),
    (lambda d: {**d, "doctor": {**d["doctor"], "user_ids": {"member": "3"}}}, "doctor"),
    (lambda d: {**d, "doctor": {"findings": []}}, "doctor"),
    (lambda d: {k: v for k, v in d.items() if k != "profile_path"}, "profile_path"),
])
def test_a_target_file_of_another_shape_is_refused_naming_the_key_never_guessed(
        tmp_path: Path, change: Callable[[dict[str, Any]], dict[str, Any]], named: str) -> None:
    written = ResolvedTarget(str(tmp_path / "p.toml"), "http://127.0.0.1:9", "profile",
                             Diagnosis(base_url="http://127.0.0.1:9", user_ids={"member": 3})).write(tmp_path)
    data = json.loads(written.read_text(encoding="utf-8"))
    written.write_text(json.dumps(change(data)), encoding="utf-8")
    with pytest.raises(ResolvedTargetError, match=f"cannot be read as the run's resolved target \\({named}"):
        ResolvedTarget.read(written)


def test_a_target_no_doctor_examined_is_written_and_read_as_not_examined(tmp_path: Path) -> None:
    """A load run's target.json: ``"doctor": {}`` (the form folders written before this one hold too)."""
    written = ResolvedTarget(str(tmp_path / "p.toml"), "http://127.0.0.1:9", "profile").write(tmp_path)
    assert json.loads(written.read_text(encoding="utf-8"))["doctor"] == {}
    assert ResolvedTarget.read(written).diagnosis is None


@pytest.mark.slow  # qaconform run in a subprocess
def test_a_session_asked_for_another_url_than_the_resolved_target_stops_before_any_test(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from qaconform.reference import ReferenceServer

    with ReferenceServer() as srv:
        profile = load_profile(srv.profile_path)
        resolve_target(profile=srv.profile_path, doctor=Diagnosis(base_url=profile.base_url)).write(tmp_path)
        monkeypatch.setenv("QACONFORM_BASE_URL", "http://127.0.0.1:9")
        results = tmp_path / "results.json"
        proc = subprocess.run([*pytest_command(), "-q", "--qaconform-results", str(results), "--qaconform-target",
                               str(tmp_path / TARGET_NAME), "-k", "envelope"], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, check=False, stdin=subprocess.DEVNULL)
    data = json.loads(results.read_text(encoding="utf-8"))
    assert proc.returncode == exitcodes.PYTEST_BAD_PROFILE, proc.stdout[-2000:]
    assert data["stopped"]["reason"] == "usage" and "one run tests one target" in data["stopped"]["message"]
    assert not data["tests"], "no test ran"


@pytest.mark.slow  # qaconform run in a subprocess
def test_qaconform_run_has_its_doctor_examine_the_override_and_the_suites_test_that_url(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """QACONFORM_BASE_URL names the same server by another name (localhost): the doctor examines it, target.json
    records it and where it came from, and the suites tested it."""
    from qaconform.reference import ReferenceServer

    with ReferenceServer() as srv:
        other = srv.url.replace("127.0.0.1", "localhost")
        monkeypatch.setenv("QACONFORM_BASE_URL", other)
        run = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--profile",
                              str(srv.profile_path), "--only", "PAGING-DEFAULT-PAGE", "--report-dir",
                              str(tmp_path / "r")], capture_output=True, text=True, timeout=300, check=False,
                             stdin=subprocess.DEVNULL)
    said = run.stdout[-3000:] + run.stderr[-2000:]
    assert run.returncode == exitcodes.OK, said
    target = json.loads((tmp_path / "r" / TARGET_NAME).read_text(encoding="utf-8"))
    assert (target["base_url"], target["base_url_from"]) == (other, "QACONFORM_BASE_URL")
    assert target["doctor"]["base_url"] == other
    results = json.loads((tmp_path / "r" / "results.json").read_text(encoding="utf-8"))
    assert results["target"]["base_url"] == other and results["tests"], said
