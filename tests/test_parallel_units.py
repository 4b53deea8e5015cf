"""The crossing suites' lists are units of work of their own (qaconform/pytest/parallel.py ``Group.by_list``).

As one unit each, the rule matrix, the list permissions and the list responses were the run's longest chains (the
list responses alone 645 requests, 16 s of waiting at +25 ms: bench/bench_run.py). Each list's rows share their
reads (a later page with its earlier ones), so a list stays on one worker; the lists spread over the workers. Pinned
here on the suites' own collected ids: every test of those modules belongs to the unit of the list its id names,
none to a unit of another list, and the other groups keep their units.
"""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from qaconform.contract import load_contract
from qaconform.pytest.parallel import GROUPS, group_of

ROOT = Path(__file__).resolve().parents[1]
BY_LIST = {"matrix": "suites/contract/test_matrix.py", "list-access": "suites/contract/test_list_access.py",
           "list-responses": "suites/contract/test_list_responses.py"}
LISTS = frozenset(load_contract().dimensions.lists)


def test_the_crossing_groups_are_split_by_list_and_no_other_is() -> None:
    assert {g.name for g in GROUPS if g.by_list} == set(BY_LIST)
    assert {g.name for g in GROUPS if g.by_param} == {"relations"}


@pytest.mark.parametrize(("nodeid", "unit"), [
    ("suites/contract/test_matrix.py::test_counts_and_dates_in_every_combination[listQuestions-novice-pageSize=1]",
     "matrix:listQuestions"),
    ("suites/contract/test_list_access.py::test_who_reads_each_list_and_what_whatever_the_request_and_the_read_"
     "before[PROJ-ONLY-VISIBLE-listSpaces-novice-page=2&pageSize=2-after-admin]", "list-access:listSpaces"),
    ("suites/contract/test_list_responses.py::test_every_response_rule_of_the_list_holds_in_every_combination["
     "listUserAnswers-anonymous-no-parameters-extension_only]", "list-responses:listUserAnswers"),
    ("suites/contract/test_matrix.py::test_without_a_list", "matrix"),
    ("suites/contract/test_list_relations.py::test_paging_is_a_partition_at_any_page_size_and_sort[listTopics-admin]",
     "relations:listTopics"),
    ("suites/contract/test_action_matrix.py::test_x[lockNode-member-own]", "action-matrix"),
])
def test_a_tests_unit_is_named_by_its_list(nodeid: str, unit: str) -> None:
    assert group_of(nodeid) == unit


@pytest.mark.slow
def test_every_collected_crossing_test_is_in_the_unit_of_the_list_its_id_names(tmp_path: Path) -> None:
    """The ids as the suites collect them (a default draw): each test of the three modules in a unit
    ``group:listX`` whose list the id names, and more than one list per module."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-p", "no:locust", *BY_LIST.values()], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    units: dict[str, set[str]] = defaultdict(set)
    for nodeid in ids:
        name = next(g for g, module in BY_LIST.items() if nodeid.startswith(module))
        unit = group_of(nodeid)
        assert unit is not None and unit.startswith(f"{name}:"), (nodeid, unit)
        listed = unit.split(":", 1)[1]
        assert listed in LISTS and listed in nodeid.split("[", 1)[1].split("-"), (nodeid, unit)
        units[name].add(listed)
    assert set(units) == set(BY_LIST) and all(len(lists) > 3 for lists in units.values()), units
