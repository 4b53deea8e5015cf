"""The committed JSON Schema of the target profile is the one the validating model generates, and it judges
profiles as the loader does (editors that use it flag what `qaconform run` would refuse)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest

from qaconform.commands.profile_schema import schema_text
from qaconform.target.profile import ProfileError, json_schema, profile_from_dict

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "docs" / "target-profile.schema.json"


def test_committed_schema_equals_the_generated_one() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == schema_text(), (
        "docs/target-profile.schema.json is stale; regenerate it:\n"
        "  qaconform profile-schema --out docs/target-profile.schema.json")


def test_the_command_prints_the_same_schema() -> None:
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "profile-schema"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == schema_text()


def test_the_command_does_not_replace_a_file_it_did_not_write(tmp_path: Path) -> None:
    mine = tmp_path / "notes.json"
    mine.write_text('{"mine": true}')
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "profile-schema", "--out", str(mine)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert "not replacing it" in proc.stderr and "Traceback" not in proc.stderr
    assert mine.read_text() == '{"mine": true}'


def test_example_profile_is_valid_under_the_schema() -> None:
    data = tomllib.loads((ROOT / "target.example.toml").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(json_schema()).validate(data)


@pytest.mark.parametrize("edit", [
    lambda d: d.pop("base_url"),
    lambda d: d.update(timeout_s="fast"),
    lambda d: d.update(colour="blue"),
    lambda d: d["fixtures"].update(question_id=0),
    lambda d: d["fixtures"].update(issue_tracker="a/b"),
    lambda d: d["accounts"].pop("novice"),
    lambda d: d["accounts"]["admin"].update(password="x"),  # both password and password_env
    lambda d: d["accounts"]["admin"].pop("password_env"),  # neither
    lambda d: d["safety"].update(destructive="yes"),
    lambda d: d.update(service_version="latest"),
    lambda d: d.update(base_url="ftp://x"),
])
def test_schema_and_loader_refuse_the_same_mistakes(edit) -> None:  # type: ignore[no-untyped-def]
    data = tomllib.loads((ROOT / "target.example.toml").read_text(encoding="utf-8"))
    edit(data)
    assert list(jsonschema.Draft202012Validator(json_schema()).iter_errors(data)), "the schema accepted it"
    env = {f"QA_{r.upper()}_PASSWORD": "pw" for r in ("admin", "moderator", "member", "novice")}
    with pytest.raises(ProfileError):
        profile_from_dict(data, "example.toml", env)


@pytest.mark.parametrize("pool", [[], [0], ["13"], [True], "13"])
def test_schema_and_loader_refuse_the_same_pools(pool: object) -> None:
    data = tomllib.loads((ROOT / "target.example.toml").read_text(encoding="utf-8"))
    data["fixtures"]["wiki_node_id"] = pool
    assert list(jsonschema.Draft202012Validator(json_schema()).iter_errors(data)), "the schema accepted it"
    env = {f"QA_{r.upper()}_PASSWORD": "pw" for r in ("admin", "moderator", "member", "novice")}
    with pytest.raises(ProfileError, match=r"\[fixtures\] 'wiki_node_id' must be a node id \(a positive integer\) "
                                           r"or a non-empty list of node ids$"):
        profile_from_dict(data, "example.toml", env)


def test_a_pool_loads_as_its_first_node_and_keeps_the_pool() -> None:
    data = tomllib.loads((ROOT / "target.example.toml").read_text(encoding="utf-8"))
    env = {f"QA_{r.upper()}_PASSWORD": "pw" for r in ("admin", "moderator", "member", "novice")}
    prof = profile_from_dict(data, "example.toml", env)
    assert prof.fixtures.wiki_node_id == 13 and prof.pools == {"wiki_node_id": (13, 15)}
    assert prof.fixtures.favorite_node_id == 14 and "favorite_node_id" not in prof.pools
    assert prof.redacted()["pools"] == {"wiki_node_id": [13, 15]}
