"""wiki21: each side of the wiki node kind draw (qaconform.pytest.seed_draws ``WIKI_NODE_KINDS``) in a SERIAL run
(``--jobs 1``) of the unwikify's rules only, against a fresh reference server.

Why: a serial-only bug on one side of a seed draw broke the eighteenth session's CI (without xdist workers
``once_per_run`` shares nothing, so a serial run chose the unwikified node again after the unwikify and read back
another), and only a whole serial run at a seed of that side met it. Here a run of a few tests per side takes the same
path: the refused attempts, the drawn unwikifier's one-shot on the node of the drawn kind (the profile's
wiki_answer_id, accepted_wiki_question_id, or wiki_node_id's question), and the two tests that read it back, in one
process. Asserted: exit 0, the unwikify's rules held, and the node consumed is the drawn kind's fixture.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from qaconform.pytest.seed_draws import WIKI_NODE_KINDS, wiki_node_kind_for_seed

pytestmark = pytest.mark.slow  # a serial run per side against its own reference server

ROOT = Path(__file__).resolve().parents[1]
SIDES = {"a question": 20260801, "an answer": 20260816, "an accepted question": 20260848}
"""A seed of each side: the self-test's seed, then the first seeds from it that draw the other kinds."""
FIXTURE_OF = {"a question": "wiki_node_id", "an answer": "wiki_answer_id",
              "an accepted question": "accepted_wiki_question_id"}
RULES = ("ACTION-CANCELWIKI-CANCELED", "ACTION-CANCELWIKI-NOT-WIKI")
"""The rules of the drawn unwikifier's one-shot: its returned record and the lists read back after it."""


def test_every_kind_has_a_side_here() -> None:
    assert set(SIDES) == set(WIKI_NODE_KINDS)
    assert {k: wiki_node_kind_for_seed(s) for k, s in SIDES.items()} == {k: k for k in SIDES}


@pytest.mark.parametrize("kind", list(SIDES))
def test_a_serial_run_of_each_side_holds_the_unwikify_on_the_drawn_kinds_node(kind: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--out", str(tmp_path), "--jobs", "1",
                           "--seed", str(SIDES[kind]), "--only", *RULES], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    folder = next(p for p in tmp_path.iterdir() if p.is_dir() and not p.is_symlink())
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    status = {r["id"]: r["status"] for r in report["rules"]}
    assert {r: status.get(r) for r in RULES} == dict.fromkeys(RULES, "passed"), status
    consumed = {e["fixture"]: e["node"] for e in report["fixtures"]["consumed"]}
    one_shots = report["fixtures"]["one_shots"]
    drawn = FIXTURE_OF[kind]
    assert consumed.get(drawn) == one_shots[drawn]["used"], (kind, consumed)
    others = set(FIXTURE_OF.values()) - {drawn, "wiki_node_id"}  # wiki_node_id takes member's refusals on every side
    assert not others & set(consumed), (kind, consumed)


def test_a_kind_fixture_of_the_wrong_kind_skips_the_unwikify_saying_so_and_blames_nothing(tmp_path: Path) -> None:
    """The profile names the accepted wiki question as wiki_answer_id: on a seed drawing "an answer" the lists show it
    a question, so the unwikify's tests are "not checked" with that reason (the profile's word), never failed, and the
    node is not acted on."""
    import re

    from qaconform.reference import ReferenceServer

    with ReferenceServer(start_timeout=120) as server:
        text = Path(server.profile_path).read_text(encoding="utf-8")
        question = re.search(r"(?m)^accepted_wiki_question_id = (\d+)$", text)
        assert question is not None, "the reference profile names an accepted wiki question"
        profile = tmp_path / "site.toml"
        profile.write_text(re.sub(r"(?m)^wiki_answer_id = \d+$", f"wiki_answer_id = {question[1]}", text),
                           encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--profile", str(profile),
                               "--jobs", "1", "--seed", str(SIDES["an answer"]), "--only", *RULES,
                               "--report-dir", str(tmp_path / "r")], cwd=ROOT, capture_output=True, text=True,
                              timeout=600, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    results = json.loads((tmp_path / "r" / "results.json").read_text(encoding="utf-8"))
    drawn = [t for t in results["tests"] if "drawn-unwikifier" in t["nodeid"] and t["when"] in ("setup", "call")]
    assert drawn and all(t["outcome"] == "skipped" for t in drawn), [(t["nodeid"], t["outcome"]) for t in drawn]
    assert all("is not an answer (a question list shows it" in t["message"] for t in drawn), drawn[0]["message"]
    report = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert "wiki_answer_id" not in {e["fixture"] for e in report["fixtures"]["consumed"]}
