"""The record of the one-shot fixtures runs consumed on a target, kept beside the profile.

A favorite can be removed once and a wiki node unwikified once, and the interface can create neither; no read shows
whether a node is still a member's favorite. So the next run can only know what an earlier run consumed if the earlier
run wrote it down: each one-shot call the target accepted appends an entry here the moment its answer comes (accept22: a
refused call, which changed nothing, none; but a node the owner's call met not in its state, user26, so that the next
run takes the pool's next node), and the doctor reads the file before any test. It lives beside the profile
(``site.toml`` -> ``site.consumed.json``): it describes the nodes that profile names, travels with it, and a profile in
a fresh folder (the reference server's, a CI checkout) starts with none. Entries name the target's base_url, so one
profile pointed at another server (``--base-url``) does not inherit them. Renewing a fixture means giving a new id, or
deleting the entry (or the file) once the node is back in its state.

The record is a hint, not the truth: a CI build from a fresh checkout has none, and a record kept by one folder
knows nothing of what another folder's runs did. So an entry may also say a node is **fresh** (``"state":
"fresh"``): the party that knows it put the node in its state (a QA lead who renewed the fixture, the reference
server for the one-shots of a fresh database) says so, and the doctor then knows the node "in its state" until a
later entry says a run consumed it. The latest entry for a node wins; with none, the doctor reads the target, and
what no read shows (a favorite) is "unknown" (qaconform.target.fixture_state).
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

FORMAT = "qaconform-consumed/1"
"""The file's ``format``; the reference server writes the same (qaconform/reference/profile_out.py)."""

ONE_SHOT_FIXTURES: tuple[str, ...] = ("member_wiki_node_id", "wiki_node_id", "favorite_node_id")
"""The profile's fixtures that every run consumes (each may be given as a pool)."""
WIKI_KIND_FIXTURES: tuple[str, ...] = ("wiki_answer_id", "accepted_wiki_question_id")
"""wiki21: the optional wiki nodes of the kinds a seed may draw (qaconform.pytest.seed_draws ``WIKI_NODE_KINDS``): a
run of such a seed consumes one in place of wiki_node_id (each may be given as a pool)."""
CONSUMABLE: tuple[str, ...] = ONE_SHOT_FIXTURES + WIKI_KIND_FIXTURES
"""Every fixture a run may consume, as the record and the doctor know them (profile_fixtures.ONE_SHOTS)."""

CONSUMED, FRESH = "consumed", "fresh"
"""An entry's ``state``: a run sent a one-shot call on the node (the default: entries without ``state``), or the
party that renewed the node says it is in its state again."""


@dataclass(frozen=True)
class Consumed:
    """One entry: a one-shot call sent on a fixture's node by which run (``state`` consumed), or the node said
    fresh by who renewed it (``run`` names them); when, against which target."""

    fixture: str
    node: int
    run: str
    at: str
    base_url: str
    state: str = CONSUMED

    @property
    def consumed(self) -> bool:
        return self.state != FRESH


def ledger_path(profile_path: str | os.PathLike[str]) -> Path:
    """``site.toml`` -> ``site.consumed.json`` in the same folder."""
    p = Path(profile_path)
    return p.with_name(p.stem + ".consumed.json")


def read(profile_path: str | os.PathLike[str], base_url: str) -> list[Consumed]:
    """The entries for ``base_url`` in the file's order (consumed and fresh); none when there is no file. A file
    that cannot be read is reported on stderr
    and treated as empty: a lost record costs checks (the interface still shows wiki nodes), never a verdict."""
    path = ledger_path(profile_path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        print(f"qaconform: the record of consumed fixtures {path} cannot be read ({exc}); delete it, or fix it",
              file=sys.stderr)
        return []
    entries = data.get("consumed") if isinstance(data, dict) else None
    out = []
    for e in entries if isinstance(entries, list) else []:
        if not isinstance(e, dict) or e.get("base_url", "").rstrip("/") != base_url.rstrip("/"):
            continue
        node = e.get("node")
        if e.get("fixture") in CONSUMABLE and isinstance(node, int) and not isinstance(node, bool):
            out.append(Consumed(str(e["fixture"]), node, str(e.get("run", "")), str(e.get("at", "")),
                                str(e["base_url"]), FRESH if e.get("state") == FRESH else CONSUMED))
    return out


def latest(entries: list[Consumed]) -> dict[tuple[str, int], Consumed]:
    """The entry that decides each (fixture, node): the last one written (a renewal after a consumption, or a
    consumption after a renewal)."""
    return {(e.fixture, e.node): e for e in entries}


def record(profile_path: str | os.PathLike[str], base_url: str, fixture: str, node: int, run: str,
           state: str = CONSUMED) -> None:
    """Append one entry (unless the node's latest entry already says the same). The workers of a parallel run
    write to the same file, so under a lock: on the profile
    itself (opened for reading; a lock file beside it would be one more file to explain). A folder the kit may not
    write to costs the record, not the run: one line on stderr says so."""
    path = ledger_path(profile_path)
    entry = Consumed(fixture, node, run, datetime.now(UTC).isoformat(timespec="seconds"), base_url.rstrip("/"),
                     state)
    try:
        with open(profile_path, "rb") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            data = _load_for_update(path)
            last = {(e.get("base_url"), e.get("fixture"), e.get("node")): e.get("state", CONSUMED)
                    for e in data["consumed"] if isinstance(e, dict)}
            if last.get((entry.base_url, fixture, node)) != state:
                data["consumed"].append(asdict(entry))
                tmp = path.with_name(path.name + ".tmp")
                tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
                os.replace(tmp, path)
    except OSError as exc:
        print(f"qaconform: could not record that {fixture} {node} was consumed in {path} ({exc.strerror or exc}); "
              "the next run cannot know it", file=sys.stderr)


def record_if_accepted(profile_path: str | os.PathLike[str], base_url: str, fixture: str, node: int, run: str,
                       status: int) -> bool:
    """accept22: :func:`record` the node consumed when the call on it was accepted (a 2xx: an accepted write may
    have changed it), nothing for a refusal (a refused call leaves the node in its state: member's refused unwikify
    of wiki_node_id recorded it consumed before, though the unwikify that consumes it is another run's or none).
    Returns whether it recorded."""
    if not 200 <= status < 300:
        return False
    record(profile_path, base_url, fixture, node, run)
    return True


def _load_for_update(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("consumed"), list):
        data = {"format": FORMAT, "consumed": []}
    data.setdefault("format", FORMAT)
    data["about"] = ("one-shot fixtures qaconform runs consumed on these targets; a run skips their tests. After "
                     "renewing a fixture (a new id in the profile, or the node back in its state), delete its entry "
                     "or append one with \"state\": \"fresh\" (the latest entry of a node wins)")
    return data


MET = " (met consumed)"
"""pool26: the suffix of the run tag of an entry a run wrote for a node its call MET consumed (an earlier run's
doing, then the run moved on to the pool's next node): its report lists it as consumed before the run."""


def of_run(profile_path: str | os.PathLike[str], base_url: str, run: str) -> list[Consumed]:
    """What the run tagged ``run`` consumed, or met consumed (``run`` + :data:`MET`): its report lists them."""
    return [c for c in read(profile_path, base_url) if c.run in (run, run + MET) and c.consumed]
