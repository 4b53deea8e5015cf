"""seeds23 (issue 44): a run without --seed takes the seed draws' rotation's next turn
(qaconform/commands/run_draws.py), so consecutive builds against one target take every value of every seeded
dimension in turn; --seed reproduces a run exactly, as before."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from qaconform.commands import run_draws
from qaconform.commands.run_draws import HALVES, PERIOD, STRICT, TURNS, draws_of, seed_for, settle, turn_file, wanted
from qaconform.pytest.seed_draws import DRAWS

BASES = (1, 20260801, 2**31 - 1, 987654321)


def test_every_draw_is_a_function_of_the_seed_modulo_the_period() -> None:
    for seed in range(0, 3 * PERIOD, 7):
        assert draws_of(seed) == draws_of(seed + PERIOD) == draws_of(seed + 5 * PERIOD), seed


def test_the_rotation_covers_every_dimension_of_the_draws() -> None:
    assert set(STRICT) | set(HALVES) | set(run_draws.SPREAD) == set(DRAWS)


@pytest.mark.parametrize("base", BASES)
def test_each_turns_seed_draws_its_values_and_keeps_the_random_part(base: int) -> None:
    for turn in range(TURNS):
        seed = seed_for(turn, base)
        assert 1 <= seed < run_draws.SEED_MAX
        assert abs(seed - base) < 2 * PERIOD
        for dimension, index in wanted(turn).items():
            assert DRAWS[dimension][0](seed) == DRAWS[dimension][1][index], (turn, dimension)


@pytest.mark.parametrize("first", range(TURNS))
def test_n_consecutive_builds_take_all_n_values(first: int) -> None:
    seeds = [seed_for(first + i, 20260801) for i in range(4)]
    for dimension in STRICT:
        n = len(DRAWS[dimension][1])
        assert {DRAWS[dimension][0](s) for s in seeds[:n]} == set(DRAWS[dimension][1]), (first, dimension)
    for dimension in HALVES:  # out of step at the halves' seams: within 3 builds
        assert {DRAWS[dimension][0](s) for s in seeds[:3]} == set(DRAWS[dimension][1]), (first, dimension)


def test_every_value_of_every_dimension_within_the_rotation() -> None:
    taken = [draws_of(seed_for(turn, 20260801)) for turn in range(TURNS)]
    for dimension, (_function, values) in DRAWS.items():
        assert {t[dimension] for t in taken} == set(values), dimension


def _args(profile: Path | None, seed: int | None = None, read_only: bool = False) -> argparse.Namespace:
    return argparse.Namespace(seed=seed, profile=str(profile) if profile else None, read_only=read_only,
                              dry_run=False)


def test_a_given_seed_is_kept_and_no_turn_recorded(tmp_path: Path) -> None:
    profile = tmp_path / "site.toml"
    args, meta = _args(profile, seed=20260801), {}
    lines = settle(args, meta, {"GITHUB_RUN_NUMBER": "5"})
    assert args.seed == 20260801 and meta["draws"]["turn"] is None
    assert "--seed given" in lines[0] and "unwikifier=moderator" in lines[0]
    assert not turn_file(profile).exists()


def test_consecutive_runs_on_one_profile_take_consecutive_turns(tmp_path: Path) -> None:
    profile = tmp_path / "site.toml"
    turns = []
    for _ in range(TURNS + 1):
        args, meta = _args(profile), {}
        lines = settle(args, meta, {})
        turns.append(meta["draws"]["turn"])
        assert draws_of(args.seed) == meta["draws"]["values"]
        assert f"the next run takes turn {(turns[-1] + 1) % TURNS} (site.draws.json)" in lines[-1]
    assert turns == [(turns[0] + i) % TURNS for i in range(TURNS + 1)]
    assert json.loads(turn_file(profile).read_text(encoding="utf-8"))["next_turn"] == (turns[0] + 1) % TURNS


def test_the_first_run_on_a_profile_takes_a_turn_at_random(tmp_path: Path) -> None:
    taken = set()
    for i in range(60):
        meta: dict = {}
        settle(_args(tmp_path / f"site{i}.toml"), meta, {})
        assert "no turn recorded yet, a turn at random" in meta["draws"]["source"]
        taken.add(meta["draws"]["turn"])
    assert len(taken) > 1  # 60 draws of 12 turns all equal: p = 12 ** -59


def test_a_build_number_gives_the_turn_in_a_fresh_folder(tmp_path: Path) -> None:
    profile = tmp_path / "ci-target.toml"
    args, meta = _args(profile), {}
    lines = settle(args, meta, {"GITHUB_RUN_NUMBER": "1203", "BUILD_NUMBER": "7"})
    assert meta["draws"]["turn"] == 1203 % TURNS
    assert "build number GITHUB_RUN_NUMBER=1203" in lines[0]
    assert lines[1] == f"the next build (number + 1) takes turn {(1203 + 1) % TURNS}"
    assert not turn_file(profile).exists()
    args, meta = _args(profile), {}
    settle(args, meta, {"QACONFORM_BUILD": "4", "GITHUB_RUN_NUMBER": "1203"})  # the user's own first
    assert meta["draws"]["turn"] == 4


def test_a_read_only_run_does_not_advance_the_turn(tmp_path: Path) -> None:
    profile = tmp_path / "site.toml"
    lines = settle(_args(profile, read_only=True), {}, {})
    assert "not advanced" in lines[-1] and not turn_file(profile).exists()


@pytest.mark.parametrize("text", ["{", "[]", '{"next_turn": "3"}', '{"next_turn": -1}'])
def test_an_unreadable_turn_file_is_said_and_a_turn_taken_at_random(tmp_path: Path, text: str) -> None:
    profile = tmp_path / "site.toml"
    turn_file(profile).write_text(text, encoding="utf-8")
    meta: dict = {}
    lines = settle(_args(profile), meta, {})
    assert meta["draws"]["turn"] in range(TURNS) and "a turn at random" in lines[0]
    assert json.loads(turn_file(profile).read_text(encoding="utf-8"))["next_turn"] == (meta["draws"]["turn"] + 1) % 12


def test_an_unwritable_turn_file_is_said_and_the_run_goes_on(tmp_path: Path) -> None:
    profile = tmp_path / "missing-folder" / "site.toml"
    lines = settle(_args(profile), {}, {})
    assert lines[-1].startswith("could not record the next turn") and "at random" in lines[-1]


def test_without_profile_nor_build_number_the_seed_is_random_as_before() -> None:
    args, meta = _args(None), {}
    lines = settle(args, meta, {"BUILD_NUMBER": "not a number"})
    assert isinstance(args.seed, int) and meta["draws"]["turn"] is None
    assert lines[0].startswith(f"seed draws at seed {args.seed} (no build number")
