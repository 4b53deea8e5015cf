"""Load scenarios only do valid things: a state change is sent at most once to a node, so a failure is never the
kit's own (issue: the mixed scenario sent a node already in moderation to moderation again, 76 % failures). Every
request of a moderate run goes through the recording proxy of bench/capped_proxy.py (no cap worth the name)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from capped_proxy import CappedProxy

from qaconform.reference import ReferenceServer

ROOT = Path(__file__).resolve().parents[2]
STATE_CHANGE = re.compile(r"/services/v2/node/(\d+)/(lock|sendToMod|unmarkfavorite|cancelwiki)\.json")


@pytest.mark.slow
def test_the_moderate_scenario_changes_each_nodes_state_once_and_fails_nothing(tmp_path: Path) -> None:
    with ReferenceServer() as server, CappedProxy(server.url, rps=100000, service_ms=0, record=True) as proxy:
        profile = tmp_path / "recorded.toml"
        profile.write_text(Path(server.profile_path).read_text().replace(server.url, proxy.url))
        out = tmp_path / "load"
        cmd = [sys.executable, "-m", "qaconform.commands.cli", "load", "--profile", str(profile),
               "--report-dir", str(out),
               "--scenario", "moderate", "--users", "6", "--duration", "7"]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
        sent = list(proxy.requests or [])
    output = proc.stdout + proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    changes = [m.groups() for method, target in sent if method == "PUT" and (m := STATE_CHANGE.search(target))]
    per_node = Counter(node for node, _ in changes)
    # which state changes a 7 s run draws is random (CI saw 13 locks and no sendToMod): any one is something to judge
    assert {"lock", "sendToMod"} & {verb for _, verb in changes}, f"the run made no state change to judge:\n{output}"
    assert max(per_node.values()) == 1, f"a node got more than one state change: {per_node.most_common(3)}"
    assert summary["failures"] == 0, (out / "locust_failures.csv").read_text()
    assert proc.returncode == 0, output


@pytest.mark.slow
def test_a_profile_without_the_unshown_visibility_values_sends_no_null_visibility(tmp_path: Path) -> None:
    """`qaconform init` leaves to_moderators and to_own_groups as TODOs (the description shows no wire value for
    them). A load run against such a profile sent "visibility": null for those options, the target refused it, and
    the verdict failed the target (postComment failure ratio 22 %, measured against the reference server). It sends
    only the options the profile names: no failure."""
    with ReferenceServer() as server:
        text = Path(server.profile_path).read_text()
        kept = [line for line in text.splitlines() if not line.startswith(("to_moderators", "to_own_groups"))]
        assert len(kept) == len(text.splitlines()) - 2, "the reference profile names both values: drop them here"
        profile = tmp_path / "init-like.toml"
        profile.write_text("\n".join(kept) + "\n")
        out = tmp_path / "load"
        cmd = [sys.executable, "-m", "qaconform.commands.cli", "load", "--profile", str(profile),
               "--report-dir", str(out),
               "--scenario", "write", "--users", "4", "--duration", "12"]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=180)
    output = proc.stdout + proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    stats = (out / "locust_stats.csv").read_text()
    assert "postComment" in stats, f"the run posted no comment to judge:\n{output}"
    assert summary["failures"] == 0, (out / "locust_failures.csv").read_text()
    assert proc.returncode == 0, output
