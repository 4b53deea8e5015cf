"""A failure's curl that changes a node's state says that pasting it again on the same node shows the repeat.

Found by a QA lead's release run (qa14): a planted fault in the lock response failed a rule; the report's curl, pasted,
answered 409 "node 788 is already locked" (the run had locked it), so the failure looked like it did not reproduce.
"""

from __future__ import annotations

from qaconform.report.html_parts import curl_box
from qaconform.report.reproduce import replay_note

LOCK = ("curl -sS -i -X PUT -u \"member:$QACONFORM_MEMBER_PASSWORD\" "
        "'http://127.0.0.1:18714/services/v2/node/788/lock.json?prompt=a+%22d%22'   # as member")
SEND = "curl -sS -i -X PUT -u \"admin:$PW\" 'https://qa.example.com/sub/services/v2/node/12/sendToMod.json'"
COMMENT = ("curl -sS -i -X POST -u \"member:$PW\" 'http://127.0.0.1:1/services/v2/node/5/comment.json' "
           "-H 'Content-Type: application/json' --data-raw '{\"body\": \"x\"}'")
READ = "curl -sS -i -u \"member:$PW\" 'http://127.0.0.1:1/services/v2/node/5/lock.json'"
UNQUOTED = ('curl -sS -i -X PUT -u "moderator:$QACONFORM_MODERATOR_PASSWORD" '
            "http://127.0.0.1:18925/services/v2/node/105/sendToMod.json   # as moderator")
UNQUOTED_READ = 'curl -sS -i -u "member:$PW" http://127.0.0.1:1/services/v2/node/5/lock.json'


def test_a_curl_of_a_state_change_says_the_same_node_now_answers_the_repeat() -> None:
    # UNQUOTED: qa15's release run, a send to moderation whose URL needs no quotes (no query) had no note
    for curl, node in ((LOCK, "788"), (SEND, "12"), (UNQUOTED, "105")):
        note = replay_note(curl)
        assert f"node {node}'s state" in note and "repeat" in note and f"replace {node}" in note, (curl, note)
    box = curl_box(LOCK)
    assert 'class="muted replay-note"' in box and "already sent it" in box


def test_a_curl_that_leaves_the_state_as_it_was_carries_no_note() -> None:
    assert replay_note(COMMENT) == "" and replay_note(READ) == ""  # a post makes a new node; a GET changes nothing
    assert replay_note(UNQUOTED_READ) == ""
    assert "replay-note" not in curl_box(COMMENT)


def test_the_curl_inside_a_failure_message_carries_the_same_note() -> None:
    """qa15: the message's ``Reproduce with: curl ...`` (a RuleFailure's response description, a TargetError) had no
    note, while the report's box under it had one: one renderer gives both."""
    import pytest

    from qaconform.pytest.outcomes import RuleFailure
    from qaconform.target.client import ApiResponse, Exchange, TargetError

    def answer(curl: str, body: bytes) -> ApiResponse:
        url = curl.split("'")[1]
        method = "PUT" if "-X PUT" in curl else "GET"
        exchange = Exchange("member", method, url, 200, {}, None, {}, body.decode(), 1.0, curl)
        return ApiResponse(200, {"content-type": "application/json"}, body, url, exchange)

    message = str(RuleFailure("ACTION-LOCK-EXTRA", "the prompt is not the extra", answer(LOCK, b"{}")))
    assert f"Reproduce with: {LOCK}\nNote before replaying: {replay_note(LOCK)}" in message
    with pytest.raises(TargetError) as unusable:
        answer(LOCK, b'{"extra": "a"d"}').json()
    assert f"Note before replaying: {replay_note(LOCK)}" in str(unusable.value)
    assert "Note before replaying" not in str(RuleFailure("COMMENT-1", "x", answer(READ, b"{}")))


def test_the_note_asks_for_a_node_of_the_same_kind_not_always_an_answer() -> None:
    """qa21: a release run's ACTION-LOCK-EXTRA failed on comments only (lock-extra-dropped-on-comments); the note
    under its lock of comment 480 said to replay on "a new answer of the same account", whose lock keeps its
    prompt: the failure did not show. The curl cannot tell the node's kind, so the note asks for the same kind."""
    note = replay_note(LOCK)
    assert "a new answer of the same account" not in note
    assert "same kind and author" in note and "in the state node 788 was in before" in note
