"""One way to build an operation's path (``contract.path``), and what the Locust processes may import.

Suites, the plugin and the load users build paths from spec/openapi.yaml through ``contract.path``; the load users
run under Locust (gevent) in their own processes, so what they import from qaconform must not pull pytest in.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from qaconform.contract import ContractError, load_contract, path


def test_every_operation_path_is_built_from_spec_with_its_ids() -> None:
    contract = load_contract()
    for op_id, op in contract.operations.items():
        built = path(op_id, **{name: 7 for name in op.path_ids})
        assert built.startswith("/") and "{" not in built, built
        assert built.split("/").count("7") == len(op.path_ids), built
        assert op.path_ids or built == op.api_path


def test_ids_fill_the_placeholders_of_spec() -> None:
    assert path("listUserAnswers", userId=5) == "/user/5/answer.json"
    assert path("postComment", nodeId=12) == "/node/12/comment.json"
    assert path("listQuestions") == "/question.json"


def test_the_issue_tracker_segment_is_the_profiles() -> None:
    assert path("listIssueTypes") == "/tracker/issuetype.json"
    assert path("listIssueTypes", tracker="jira") == "/jira/issuetype.json"


@pytest.mark.parametrize(("op", "ids", "says"), [
    ("listUserAnswers", {}, "takes userId; got none"),
    ("listQuestions", {"userId": 3}, "takes no ids; got userId"),
    ("lockNode", {"nodeID": 3}, "takes nodeId; got nodeID"),
])
def test_a_missing_or_misspelt_id_is_refused_naming_what_the_path_takes(op: str, ids: dict[str, int],
                                                                       says: str) -> None:
    with pytest.raises(ContractError, match=says):
        path(op, **ids)


def test_an_unknown_operation_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ContractError, match="no operation 'listQuestion'.*listQuestions"):
        path("listQuestion")


def test_what_the_load_users_import_from_qaconform_does_not_import_pytest() -> None:
    code = ("import sys\n"
            "import qaconform.contract, qaconform.target.created_id, qaconform.invariants\n"
            "import qaconform.load.locust_checks\n"
            "qaconform.contract.path('listQuestions'); qaconform.contract.envelope()\n"
            "print(sorted(m for m in ('pytest', '_pytest', 'requests') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
