"""The politeness limits of a profile ([safety] max_concurrency, max_rps): how they are read, shared between the
workers of a run and kept by one process. (A whole run behind a counting proxy: tests/test_parallel_run.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from qaconform.pytest.parallel import ONE_SHOT_FIXTURES, group_of
from qaconform.target.politeness import Limiter, Limits
from qaconform.target.profile import ProfileError, profile_from_dict

ROOT = Path(__file__).resolve().parents[1]


def profile_with(**safety: Any) -> Any:
    accounts = {r: {"username": r, "password": "pw-" + r} for r in ("admin", "moderator", "member", "novice")}
    return profile_from_dict({"base_url": "http://127.0.0.1:9", "accounts": accounts,
                              "fixtures": {"question_id": 1, "space_id": 1}, "safety": safety})


def test_the_profile_reads_the_limits_and_refuses_impossible_ones() -> None:
    p = profile_with(max_concurrency=3, max_rps=7.5)
    assert (p.safety.max_concurrency, p.safety.max_rps) == (3, 7.5)
    assert profile_with().safety.max_rps is None
    for bad, words in (({"max_concurrency": 0}, "max_concurrency"), ({"max_rps": -1}, "max_rps"),
                       ({"max_concurrency": 1.5}, "max_concurrency"), ({"max_rps": True}, "max_rps")):
        with pytest.raises(ProfileError, match=words):
            profile_with(**bad)


def test_workers_share_the_limits_and_never_exceed_them_together() -> None:
    limits = Limits(max_concurrency=4, max_rps=10)
    assert limits.max_jobs() == 4
    share = limits.share(4)
    assert share.max_concurrency == 1 and share.max_rps == 2.5
    with pytest.raises(ValueError, match="at most 4 workers"):
        limits.share(5)
    assert Limits(max_rps=2.5).max_jobs() == 2
    assert Limits().max_jobs() is None and Limits().share(16) == Limits()


def test_one_process_sends_no_more_than_its_rate_in_any_second() -> None:
    limiter = Limiter(Limits(max_rps=5))
    sent: list[float] = []
    began = time.monotonic()
    for _ in range(8):
        with limiter.slot():
            sent.append(time.monotonic())
    assert all(sum(1 for t in sent if s <= t < s + 1.0) <= 5 for s in sent)
    assert sent[-1] - began >= 1.0  # the sixth had to wait for the window (a bound, not a speed)


def test_one_process_holds_no_more_than_its_concurrency() -> None:
    limiter = Limiter(Limits(max_concurrency=2))
    inside, peak, lock = [0], [0], threading.Lock()

    def call() -> None:
        with limiter.slot():
            with lock:
                inside[0] += 1
                peak[0] = max(peak[0], inside[0])
            time.sleep(0.02)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=call) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert peak[0] == 2


PROBE = '''
import json


def pytest_collection_modifyitems(items):
    for item in items:
        params = list(getattr(getattr(item, "callspec", None), "params", {}).values())
        print("QCITEM " + json.dumps({"nodeid": item.nodeid, "fixtures": list(item.fixturenames),
                                      "params": [p for p in params if isinstance(p, str)]}))
'''


@pytest.mark.slow
def test_every_test_that_uses_a_one_shot_fixture_is_in_the_one_shot_group(tmp_path: Path) -> None:
    """The parallel scheduler knows groups by node id only; this keeps qaconform/pytest/parallel.py's table true."""
    (tmp_path / "qc_item_probe.py").write_text(PROBE)
    accounts = "".join(f'[accounts.{r}]\nusername = "{r}"\npassword = "x"\n' for r in ("admin", "moderator", "member",
                                                                                      "novice"))
    profile = tmp_path / "profile.toml"
    profile.write_text(f'base_url = "http://127.0.0.1:9"\n{accounts}[fixtures]\nquestion_id = 1\nspace_id = 1\n'
                       "member_wiki_node_id = 2\nwiki_node_id = 3\nfavorite_node_id = 4\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "suites", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-p", "qc_item_probe", "--target-profile", str(profile)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)})
    items = [json.loads(line[7:]) for line in proc.stdout.splitlines() if line.startswith("QCITEM ")]
    assert len(items) > 300, proc.stdout[-2000:] + proc.stderr[-2000:]
    users = [i["nodeid"] for i in items if set(ONE_SHOT_FIXTURES) & set(i["fixtures"] + i["params"])]
    assert len(users) >= 8, users
    outside = [n for n in users if group_of(n) != "one-shot"]
    assert not outside, f"add these to the one-shot group of qaconform/pytest/parallel.py: {outside}"


def test_the_relations_start_before_the_writers_and_the_long_chains_before_the_rest() -> None:
    """The relations walk lists the run has not yet written to (short, holding still); then the generated chains."""
    from qaconform.pytest.parallel import _rank

    scopes = ["suites/contract/test_operation_shapes.py::test_x", "answers",
              "suites/properties/test_openapi.py::test_y[GET /q]", "relations:listUserAnswers",
              "suites/properties/test_privacy_model.py::test_z[part-1-of-3]"]
    assert sorted(scopes, key=_rank) == [
        "relations:listUserAnswers", "suites/properties/test_privacy_model.py::test_z[part-1-of-3]",
        "suites/properties/test_openapi.py::test_y[GET /q]", "answers",
        "suites/contract/test_operation_shapes.py::test_x"]
