"""The CI examples under docs/ci/ run what the project's CI runs (`bash .ci/run`) and the README's install
commands, with options `qaconform run` really has: an example that drifted from the kit would fail here."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from qaconform.commands import cli

ROOT = Path(__file__).resolve().parents[1]
CI = ROOT / "docs" / "ci"
INSTALL = "pip install --require-hashes -r requirements.lock && pip install --no-deps -e ."


def github_steps(doc: dict[str, Any], job: str) -> list[str]:
    return [s["run"] for s in doc["jobs"][job]["steps"] if "run" in s]


def gitlab_steps(doc: dict[str, Any], job: str) -> list[str]:
    return list(doc[job]["script"])


EXAMPLES = {"github-actions.yml": github_steps, "gitlab-ci.yml": gitlab_steps}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_kit_job_is_exactly_the_projects_ci(name: str) -> None:
    doc = yaml.safe_load((CI / name).read_text())
    assert EXAMPLES[name](doc, "kit") == ["bash .ci/run"]
    assert (ROOT / ".ci" / "run").is_file()


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_conformance_job_installs_as_the_readme_says_and_uses_real_options(name: str) -> None:
    doc = yaml.safe_load((CI / name).read_text())
    steps = EXAMPLES[name](doc, "conformance")
    assert steps[0] == INSTALL
    readme = (ROOT / "README.md").read_text()
    assert "pip install -r requirements.lock" in readme or INSTALL in readme
    runs = [shlex.split(s) for s in steps if s.startswith("qaconform ")]
    assert runs, "the conformance job runs no qaconform command"
    _parser, _unavailable, subparsers = cli.build_parser()
    for argv in runs:
        args, extras = subparsers[argv[1]].parse_known_args(argv[2:])
        assert extras == [], f"{name}: options qaconform {argv[1]} does not have: {extras}"
        assert args.report_dir and args.junitxml
