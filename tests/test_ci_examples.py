"""The CI examples under docs/ci/ run what the project's CI runs (`bash .ci/run`), install the kit the way a user of
the wheel does, and use options `qaconform` really has: an example that drifted from the kit would fail here.
tests/package/test_new_user.py runs the conformance job's commands themselves from an installed wheel."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from qaconform.commands import cli

ROOT = Path(__file__).resolve().parents[1]
CI = ROOT / "docs" / "ci"
INSTALL = ['python -m zipfile -e "$QACONFORM_KIT" .qaconform-wheel',
           "pip install --require-hashes -r .qaconform-wheel/qaconform/requirements.lock",
           'pip install --no-deps "$QACONFORM_KIT"']
"""The tested versions from the lock the wheel carries, then the kit alone: a plain `pip install` of the wheel took
the newest releases its ranges allow (seven packages newer than the lock, issue 32)."""


def github_steps(doc: dict[str, Any], job: str) -> list[str]:
    return [line for s in doc["jobs"][job]["steps"] if "run" in s for line in str(s["run"]).splitlines()]


def gitlab_steps(doc: dict[str, Any], job: str) -> list[str]:
    return list(doc[job]["script"])


def github_kit(doc: dict[str, Any]) -> str:
    return str(doc["jobs"]["conformance"]["env"]["QACONFORM_KIT"])


def gitlab_kit(doc: dict[str, Any]) -> str:
    return str(doc["conformance"]["variables"]["QACONFORM_KIT"])


EXAMPLES = {"github-actions.yml": (github_steps, github_kit), "gitlab-ci.yml": (gitlab_steps, gitlab_kit)}


def conformance_commands(name: str) -> tuple[list[str], str]:
    """The shell commands of the example's conformance job, and the kit it installs."""
    steps, kit = EXAMPLES[name]
    doc = yaml.safe_load((CI / name).read_text())
    return steps(doc, "conformance"), kit(doc)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_kit_job_is_exactly_the_projects_ci_and_runs_only_in_a_checkout(name: str) -> None:
    doc = yaml.safe_load((CI / name).read_text())
    assert EXAMPLES[name][0](doc, "kit") == ["bash .ci/run"]
    assert (ROOT / ".ci" / "run").is_file()
    condition = doc["jobs"]["kit"]["if"] if name == "github-actions.yml" else doc["kit"]["rules"]
    assert ".ci/run" in str(condition), "a user's repository has no .ci/run: the job must not run there"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_conformance_job_installs_the_wheel_and_uses_real_options(name: str) -> None:
    steps, kit = conformance_commands(name)
    assert steps[:3] == INSTALL
    version = next(line.split('"')[1] for line in (ROOT / "pyproject.toml").read_text().splitlines()
                   if line.startswith("version = "))
    assert kit == f"qaconform-{version}-py3-none-any.whl", f"{name} installs {kit}, the wheel is {version}'s"
    runs = [shlex.split(s) for s in steps if s.startswith("qaconform ")]
    assert runs, "the conformance job runs no qaconform command"
    _parser, _unavailable, subparsers = cli.build_parser()
    for argv in runs:
        args, extras = subparsers[argv[1]].parse_known_args(argv[2:])
        assert extras == [], f"{name}: options qaconform {argv[1]} does not have: {extras}"
    run = next(subparsers["run"].parse_known_args(a[2:])[0] for a in runs if a[1] == "run")
    assert run.report_dir and run.junitxml and run.expect and run.profile


def test_both_examples_run_the_same_commands() -> None:
    assert conformance_commands("github-actions.yml") == conformance_commands("gitlab-ci.yml")


def _run_profile(name: str) -> str:
    """The profile the example's `qaconform run` uses."""
    steps, _kit = conformance_commands(name)
    _parser, _unavailable, subparsers = cli.build_parser()
    argv = next(shlex.split(s) for s in steps if s.startswith("qaconform run "))
    return str(subparsers["run"].parse_known_args(argv[2:])[0].profile)


def test_builds_against_one_staging_server_queue_up_and_none_is_cancelled() -> None:
    """Two builds at once (a push and its pull request) against one staging server: one waits for the other."""
    github = yaml.safe_load((CI / "github-actions.yml").read_text())["jobs"]["conformance"]["concurrency"]
    gitlab = yaml.safe_load((CI / "gitlab-ci.yml").read_text())["conformance"]["resource_group"]
    assert github["group"] == gitlab == "qaconform-staging"
    assert github["cancel-in-progress"] is False, "a cancelled build leaves a run half done: queue it instead"


def test_the_consumed_fixtures_record_beside_the_profile_is_kept_between_builds() -> None:
    """A fresh checkout per build loses ``<profile>.consumed.json`` unless the job caches it (restore, then save)."""
    from qaconform.target.ledger import ledger_path

    record = {n: str(ledger_path(_run_profile(n))) for n in EXAMPLES}
    assert record["github-actions.yml"] == "ci-target.consumed.json"
    steps = yaml.safe_load((CI / "github-actions.yml").read_text())["jobs"]["conformance"]["steps"]
    uses = [(s.get("uses", "").split("@")[0], s) for s in steps]
    restore = [i for i, (u, s) in enumerate(uses) if u == "actions/cache/restore" and
               s["with"]["path"] == record["github-actions.yml"]]
    save = [i for i, (u, s) in enumerate(uses) if u == "actions/cache/save" and
            s["with"]["path"] == record["github-actions.yml"] and s.get("if") == "always()"]
    run = next(i for i, s in enumerate(steps) if str(s.get("run", "")).startswith("qaconform run "))
    assert restore and save and restore[0] < run < save[0], "restore the record before the run, save it after"
    gitlab = yaml.safe_load((CI / "gitlab-ci.yml").read_text())["conformance"]["cache"]
    assert gitlab["paths"] == [record["gitlab-ci.yml"]] and gitlab["when"] == "always"
