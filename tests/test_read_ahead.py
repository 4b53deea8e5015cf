"""Reads asked together send what reads one after another send (issue 31).

The metamorphic relations ask a walk's pages and check their drawn examples side by side
(suites/contract/list_walks.py, test_list_relations.py), and the pairwise matrix makes its reads before its first
test (matrix_kit.py ``MatrixKit.at``): against a far target that cut their round trips, not their requests. Here each
module runs twice against a fresh reference server: once with ``[safety] max_concurrency = 1`` (the process's share
is 1, so everything goes one request after another, as before), once without a limit. Both runs must send the same
requests and give every test the same outcome; the second must actually have overlapped them. And every test's HAR
cassette must hold the same answers in both: the matrix's answers read ahead are logged again under each test that
judges one (``shared``), not all under its first test.
The two runs of a module go at once (ci23): independent, and the one-after-another run mostly waits.

(Speed is measured by bench/bench_run.py, not asserted here.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from delay_proxy import DelayProxy

from qaconform.reference import ReferenceServer
from qaconform.reference.profile_out import password_env

pytestmark = pytest.mark.slow  # each module twice against fresh reference servers

ROOT = Path(__file__).resolve().parents[1]

_RANDOM = re.compile(r"(?<![0-9a-f])[0-9a-f]{8,32}(?![0-9a-f])")
"""What differs between two runs of a module that writes (test_permissions.py): the run tag (``qc-`` and 8 hex
digits) and the markers the cells put in a refused write's text (uuid4 hex), in a write's URL."""


def _run(module: str, tmp: Path, serial: bool) -> tuple[Counter[tuple[Any, ...]], dict[str, str], int,
                                                        dict[str, set[tuple[Any, ...]]]]:
    """The module's requests (account, method, URL without the host), each test's outcome, the most requests the
    target had in flight at once, and the answers each test's HAR cassette holds (the exchange log's lines under it:
    sent by it, or ``shared``: read earlier, judged by it too)."""
    with ReferenceServer() as srv, DelayProxy(srv.url, 0.005) as proxy:
        text = Path(srv.profile_path).read_text(encoding="utf-8").replace(f'"{srv.url}"', f'"{proxy.url}"')
        if serial:
            text = text.replace("[safety]\n", "[safety]\nmax_concurrency = 1\n", 1)
        tmp.mkdir(parents=True, exist_ok=True)
        profile = tmp / "profile.toml"
        profile.write_text(text, encoding="utf-8")
        exchanges, junit = tmp / "exchanges", tmp / "junit.xml"
        env = {**os.environ, "QACONFORM_SEED": "4242", "PYTEST_XDIST_WORKER_COUNT": ""}
        done = subprocess.run(
            [sys.executable, "-m", "pytest", module, "-q", "-p", "no:cacheprovider", "-p", "no:locust",
             "--target-profile", str(profile), "-p", "qaconform.pytest.exchange_log",
             "--qaconform-exchanges", str(exchanges), "--junitxml", str(junit)],
            cwd=ROOT, capture_output=True, text=True, timeout=600, env=env, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
        sent: Counter[tuple[Any, ...]] = Counter()
        judged: dict[str, set[tuple[Any, ...]]] = {}
        for path in exchanges.glob("*.jsonl"):
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                e = json.loads(line)
                request = (e["role"], e["method"], _RANDOM.sub("R", e["url"].split("/services/", 1)[-1]))
                if e.get("test"):
                    judged.setdefault(e["test"], set()).add(request)
                if not e.get("shared"):  # a shared line was sent once, logged again for the test judging it
                    sent[request] += 1
        import xml.etree.ElementTree as ET

        outcomes = {}
        for case in ET.parse(junit).getroot().iter("testcase"):
            kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
            outcomes[f"{case.get('classname')}::{case.get('name')}"] = kinds[0] if kinds else "passed"
        return sent, outcomes, proxy.stats.max_in_flight, judged


FEW_TESTS = {"suites/contract/test_list_semantics.py": 8, "suites/contract/test_observations_silent.py": 8}
"""Modules with fewer tests than the others: more than this many must pass in them and hold the answers they judged
(the rest: more than 20)."""
SCENE_FIXTURE = {"suites/contract/test_found_relations.py"}
"""Modules whose requests a module fixture makes (the found relations' scene), all logged under the test it is set up
for: their cassettes are compared, not counted."""


@pytest.mark.parametrize("module", ["suites/contract/test_matrix.py", "suites/contract/test_list_relations.py",
                                    "suites/contract/test_list_access.py", "suites/contract/test_list_responses.py",
                                    "suites/scenarios/test_permissions.py",  # speed3: the read cells
                                    "suites/scenarios/test_comment_privacy.py",  # speed3: every_page
                                    "suites/contract/test_wrong_password_rows.py",  # speed3: the rows
                                    "suites/contract/test_envelope_and_paging.py",  # speed3: pages
                                    "suites/contract/test_list_semantics.py",  # speed7: lists, look-ups, sorts
                                    "suites/contract/test_observations_contract.py",  # speed7: sizes, lists, pages
                                    "suites/contract/test_observations_silent.py",  # speed7: the sort sweep
                                    "suites/contract/test_found_relations.py"])  # speed17: the walk, the reads
def test_reads_asked_together_are_the_reads_asked_one_after_another(module: str, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # ci23: the two runs at once (each its own server, proxy, profile and folders: neither sees the other's state).
    # The serial one mostly waits, a request at a time behind the proxy's delay; the other fills those waits. The
    # passwords' variables are set before (each server's start sets the same ones: no thread adds a key to
    # os.environ while the other copies it for its processes).
    for name, value in password_env().items():
        monkeypatch.setenv(name, value)
    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(_run, module, tmp_path / name, serial=name == "serial") for name in ("serial", "together")]
        one_by_one, together = (run.result() for run in runs)
    assert one_by_one[1] == together[1], "the same tests with the same outcomes"
    assert Counter(one_by_one[1].values())["passed"] > FEW_TESTS.get(module, 20), one_by_one[1]
    only_serial, only_together = one_by_one[0] - together[0], together[0] - one_by_one[0]
    assert not only_serial and not only_together, (
        f"requests sent only one after another: {list(only_serial.items())[:5]}; only together: "
        f"{list(only_together.items())[:5]}")
    assert one_by_one[2] == 1, "a share of 1 asks one request at a time"
    assert together[2] > 1, "without a limit the reads overlap"
    # Each test's cassette holds the answers it judged, whichever test (or the read-ahead) sent them.
    differ = sorted(t for t in one_by_one[3].keys() | together[3].keys() if one_by_one[3].get(t) != together[3].get(t))
    assert not differ, (f"{len(differ)} tests' cassettes hold other answers when reads go together, e.g. {differ[0]}: "
                        f"{sorted(one_by_one[3].get(differ[0], set()) ^ together[3].get(differ[0], set()))[:4]}")
    assert len(together[3]) > (0 if module in SCENE_FIXTURE else FEW_TESTS.get(module, 20)), (
        "tests hold the answers they judged")
