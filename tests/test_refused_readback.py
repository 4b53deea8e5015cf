"""Which refused writes of the run's ledger the late reader judges (refusals2, issue 44): a refused comment or answer
with its text, by the account the caller named; anonymous's, actions and texts the run also wrote accepted are left
out, each with its reason."""

from __future__ import annotations

import sys
from pathlib import Path

from qaconform.pytest.readback import Write

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "suites" / "contract"))
from test_readback import refused_texts  # noqa: E402


def test_refused_texts_are_judged_by_the_account_named_and_the_rest_left_out_with_a_reason() -> None:
    writes = [
        Write("refused", "novice", 5, fields={"body": "a [t]"}, action="comment.json", status=403),
        Write("refused", "wrong_password", 6, fields={"body": "b [t]"}, action="comment.json", status=401),
        Write("refused", "anonymous", 6, fields={"body": "c [t]"}, action="comment.json", status=401),
        Write("refused", "novice", 7, action="lock.json", status=403),
        Write("refused", "member", 8, fields={"body": "d [t]"}, action="answer.json", status=403),
        Write("comment", "member", 9, 8, fields={"body": "d [t]"}),
        Write("answer", "member", 10, 8, fields={"body": "e [t]"}),
        Write("refused", "novice", 11, fields={"body": "e [t]"}, action="comment.json", status=403),
        Write("comment", "admin", 12, 8, fields={"body": "plain comment [t]"}),
        Write("refused", "member", 13, fields={"body": "comment [t]"}, action="comment.json", status=403),
    ]
    judged, left = refused_texts(writes)
    assert {a: [w.node for w in ws] for a, ws in judged.items()} == {"novice": [5], "member": [6]}
    assert len(left) == 5  # anonymous, the lock, and three texts an accepted write holds (one inside a longer one)
    assert any("anonymous" in r for r in left) and any("lock.json" in r for r in left)
    assert sum("accepted write" in r for r in left) == 3
