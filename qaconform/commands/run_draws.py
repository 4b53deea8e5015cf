"""seeds23 (issue 44): consecutive builds against one target take every value of the suites' seed draws in turn.

Why: a seeded dimension of ``qaconform/pytest/seed_draws.py`` (``DRAWS``) tries one value a run where trying each
would cost accepted writes the budget has no room for (wiki_node_id's one unwikify, by moderator or admin; the kind
of node it acts on; the parent of the shared private reply ...). A run without ``--seed`` drew its seed at random, so
a CI build met a value with p = 1/2 or 1/3, and a fault on the other value could stay unseen for several builds. Now
such a run takes the rotation's next **turn**: turn ``k`` gives each dimension of :data:`STRICT` its value
``k % n`` (n its number of values), so any n consecutive builds take all n values; the member wiki send and the
question option (:data:`HALVES`) take ``(k + k // 6) % 2`` (both values within any 3 consecutive builds, 2 but at
two seams), and the two dimensions whose every value each run already sends (``option comment form``: every form;
``options answer writer``: every writer's answer, one of them with the options; ``novice comment form``: the shared
plain comments in every form) take each value within the
:data:`TURNS` turns. The seed is still random above the draws' period (:data:`PERIOD`): ``base - base % PERIOD +``
the turn's residue, so the generated tests vary as before and ``--seed N`` reproduces a run exactly (no rotation then).

Where the turn comes from (:func:`turn_of`), first found: ``QACONFORM_BUILD`` or a CI service's build number
(:data:`BUILD_VARIABLES`: a CI build's fresh folder keeps nothing, the number it is given does), else the turn file
beside the profile (``site.toml`` -> ``site.draws.json``, as ``site.consumed.json``: the next turn, advanced by each
run that writes; a turn at random where none is recorded), else none (the embedded reference server without a build
number: a random seed, as before).
"""

from __future__ import annotations

import datetime
import functools
import json
import os
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from qaconform.pytest.seed_draws import DRAWS

PERIOD = 1920
"""Every dimension of ``DRAWS`` is a function of ``seed % PERIOD`` (the wiki node kind's ``seed // 16 % 8``, the
question option's ``seed // 3 % 2``, locks25's locked comment parent's ``seed // 5 % 2`` and hist26's after-state
comment parent's ``seed // 15 % 2``: lcm(128, 6, 10, 30));
tests/test_run_draws.py checks it (with a shift of one PERIOD: 384, the lcm before locks25, shifted that draw)."""

TURNS = 12
"""The rotation's length: lcm of the dimensions' numbers of values (2, 3 and 4): every value of every dimension."""

STRICT = ("unfavorite order", "param_wins body", "unwikifier", "private reply parent", "charset senders",
          "wiki node kind")
"""The dimensions turn ``k`` gives value ``k % n``: n consecutive builds take all n values."""

HALVES = ("member wiki send", "question option")
"""The two-valued dimensions turn ``k`` gives value ``(k + k // 6) % 2``: in step with the others for six turns, out
of step for the next six. In step all along, no seed would give the option comment form's param_wins nor admin's
options answer on half the turns (the draws share the seed's low bits); shifted, both take every value within
:data:`TURNS`, at the cost of taking the same value twice at the halves' seams (both values within any 3 builds)."""

SPREAD = ("option comment form", "options answer writer", "novice comment form", "form privacy carrier",
          "public reply recipient form", "private reply form", "novice own-question form", "shared call options",
          "locked comment parent", "after-state comment option", "after-state comment parent")
"""The dimensions each turn takes where least taken by the turns before it (every value within :data:`TURNS`);
closea's novice comment form is one: every run sends every form, the draw says which writer takes which; types' form
privacy carrier another, close2's public reply recipient form a third, placements' private reply form a fourth
(every run sends the three private forms, the draw says which parent takes which); place25's novice own-question form
(every run puts a form answer of novice's under each relation) and shared call options (the seed's parity, so it moves
with the unfavorite order: every other turn) the next two, locks25's locked comment parent the next (period 10:
``seed // 5 % 2``), after25's after-state comment option the next (member's comment right after its unwikify takes
each private option member holds), hist26's after-state comment parent the last (that comment on the node or a reply to
novice's comment there; ``seed // 15 % 2``, period 30)."""

BUILD_VARIABLES = ("QACONFORM_BUILD", "GITHUB_RUN_NUMBER", "CI_PIPELINE_IID", "BUILD_NUMBER",
                   "BUILDKITE_BUILD_NUMBER", "CIRCLE_BUILD_NUM", "TRAVIS_BUILD_NUMBER", "BITBUCKET_BUILD_NUMBER")
"""Where a build number is read, first set and decimal first: the user's own, then GitHub Actions', GitLab's,
Jenkins', Buildkite's, CircleCI's, Travis', Bitbucket's."""

SEED_MAX = 2**31
"""A drawn seed is below this, as ``qaconform run``'s and the plugin's random ones."""


def _index(dimension: str, seed: int) -> int:
    function, values = DRAWS[dimension]
    return values.index(function(seed))


def wanted(turn: int) -> dict[str, int]:
    """The value index turn ``turn`` gives each dimension of :data:`STRICT` and :data:`HALVES`."""
    k = turn % TURNS
    found = {d: k % len(DRAWS[d][1]) for d in STRICT}
    found.update({d: (k + k // 6) % 2 for d in HALVES})
    return found


@functools.cache
def residues() -> tuple[int, ...]:
    """Each turn's seed modulo :data:`PERIOD`: the first residue drawing :func:`wanted`, among them one taking the
    :data:`SPREAD` dimensions' values least taken by the turns before (then the lowest)."""
    taken: dict[str, list[int]] = {d: [0] * len(DRAWS[d][1]) for d in SPREAD}
    chosen = []
    for turn in range(TURNS):
        want = wanted(turn)
        fits = [r for r in range(PERIOD) if all(_index(d, r) == i for d, i in want.items())]
        if not fits:
            raise ValueError(f"no seed draws turn {turn}'s values {want}")
        best = min(fits, key=lambda r: (sum(taken[d][_index(d, r)] for d in SPREAD), r))
        for d in SPREAD:
            taken[d][_index(d, best)] += 1
        chosen.append(best)
    return tuple(chosen)


def seed_for(turn: int, base: int) -> int:
    """A seed drawing turn ``turn``'s values, equal to ``base`` above :data:`PERIOD` (within 1 .. SEED_MAX - 1)."""
    seed = base - base % PERIOD + residues()[turn % TURNS]
    while seed < 1:
        seed += PERIOD
    while seed >= SEED_MAX:
        seed -= PERIOD
    return seed


def draws_of(seed: int) -> dict[str, str]:
    """Every dimension's value at ``seed``."""
    return {d: function(seed) for d, (function, _values) in DRAWS.items()}


def turn_file(profile: str | os.PathLike[str]) -> Path:
    """``site.toml`` -> ``site.draws.json`` in the same folder (beside ``site.consumed.json``)."""
    p = Path(profile)
    return p.with_name(p.stem + ".draws.json")


def build_number(env: Mapping[str, str]) -> tuple[str, int] | None:
    """The first of :data:`BUILD_VARIABLES` set to a decimal number, with it."""
    for name in BUILD_VARIABLES:
        value = env.get(name, "").strip()
        if value.isdecimal():
            return name, int(value)
    return None


def _read_turn(path: Path) -> tuple[int | None, str]:
    """The next turn the file records, or None with the reason when it is missing or unreadable."""
    try:
        turn = json.loads(path.read_text(encoding="utf-8"))["next_turn"]
    except FileNotFoundError:
        return None, "no turn recorded yet"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, f"unreadable ({type(exc).__name__})"
    if not isinstance(turn, int) or turn < 0:
        return None, "no valid turn recorded"
    return turn % TURNS, "recorded by the last run"


def turn_of(profile: str | None, env: Mapping[str, str]) -> tuple[int | None, str]:
    """The run's turn and where it came from: a build number, else the turn file beside ``profile`` (a turn at
    random where it records none: a fresh folder without a build number is no worse off than before), else None."""
    build = build_number(env)
    if build is not None:
        return build[1] % TURNS, f"build number {build[0]}={build[1]}"
    if profile:
        path = turn_file(profile)
        turn, why = _read_turn(path)
        if turn is None:
            return random.SystemRandom().randrange(TURNS), (
                f"{path.name}: {why}, a turn at random; QACONFORM_BUILD or a CI build number gives consecutive ones")
        return turn, f"{path.name}, {why}"
    return None, "no build number (QACONFORM_BUILD, GITHUB_RUN_NUMBER ...) and no profile to keep a turn beside"


def record(profile: str, turn: int, seed: int) -> str | None:
    """Write the next turn beside ``profile``; a message when it cannot be written (the run goes on)."""
    path = turn_file(profile)
    body = {"next_turn": (turn + 1) % TURNS, "last_turn": turn, "last_seed": seed,
            "updated": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "about": "qaconform run's seed-draw rotation (docs/ci.md): the next run without --seed takes next_turn"}
    try:
        path.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        return f"could not record the next turn in {path} ({exc.strerror or exc}): the next run takes one at random"
    return None


def settle(args: Any, meta: dict[str, Any], env: Mapping[str, str]) -> list[str]:
    """Give ``args.seed`` the rotation's turn when no seed is given (recorded in ``meta["draws"]``), advance the turn
    file of a run that writes, and return the lines that say which values the run takes and what comes next."""
    given = args.seed is not None
    turn, source = (None, "--seed given: no rotation") if given else turn_of(args.profile, env)
    if not given:
        base = random.SystemRandom().randrange(1, SEED_MAX)
        args.seed = base if turn is None else seed_for(turn, base)
    seed = int(args.seed)
    draws = draws_of(seed)
    meta["draws"] = {"seed": seed, "turn": turn, "turns": TURNS, "source": source, "values": draws}
    shown = "; ".join(f"{d}={v}" for d, v in draws.items())
    if turn is None:
        return [f"seed draws at seed {seed} ({source}): {shown}"]
    lines = [f"seed draws: turn {turn} of {TURNS} ({source}), seed {seed}: {shown}"]
    writes = not (args.read_only or args.dry_run)
    if source.startswith("build number"):
        lines.append(f"the next build (number + 1) takes turn {(turn + 1) % TURNS}")
    elif writes:
        problem = record(args.profile, turn, seed)
        lines.append(problem or f"the next run takes turn {(turn + 1) % TURNS} ({turn_file(args.profile).name})")
    else:
        lines.append("read-only: the turn is not advanced; the next run that writes takes it again")
    return lines
