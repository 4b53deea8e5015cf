"""The allowed variants of the reference server: a registry as sound as the fault registry, every variant wired
in, and ``--variants all`` a server that differs from the default where the description leaves a choice.

Whether the suites pass on each variant is ``qaconform selftest``'s job (tests/test_selftest.py runs it); here the
variants themselves are checked: named, wired, composable, and visible on the wire.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ref_helpers import Ref, start_ref

from qaconform.reference import variants
from qaconform.reference.variants import VARIANTS

REFERENCE = Path(__file__).resolve().parents[2] / "qaconform" / "reference"

CLASSES_OF_ISSUE_13 = {
    "node fields per type": ["node-title-null", "node-sparse-fields", "node-extra-fields",
                             "node-depth-absent-on-questions"],
    "visibility wire values, public comments without the fields, a server before 2.16.0": [
        "visibility-full-public", "visibility-options-named", "public-comment-no-privacy-fields",
        "no-private-comments"],
    "who else reads a private comment": ["private-readable-by-admins", "private-readable-by-moderators",
                                         "reply-readable-by-thread-authors"],
    "bodies in an equivalent HTML form": ["body-html-equivalent"],
    "lists that lag writes": ["lists-lag-writes"],
    "HTML 401 everywhere, permission failures as 401": ["bad-credentials-html", "denied-as-401"],
    "error bodies the description does not give": ["malformed-json-422", "unknown-node-400", "lock-no-prompt-422",
                                                   "denied-body-error"],
    "order of checks": ["state-before-permission"],
    "id and Location of new comments and answers": ["location-relative", "location-other-path", "location-not-readable",
                                                    "comment-201-empty", "comment-201-id-only"],
    "paging": ["page-size-cap-20", "page-size-cap-100", "followers-zero-based", "followers-page-shown-from-0",
               "default-page-size-20",
               "default-sorts-newest", "unknown-sort-400"],
    "idempotent repeats": ["repeat-is-noop", "repeat-is-409"],
    "a novice's answer to moderation": ["moderated-answer-202"],
    "data protection forms and time frame": ["gdpr-user-by-username-refused", "gdpr-timestamp-seconds",
                                             "gdpr-time-frame-hour"],
}


def test_the_registry_has_at_least_30_variants_each_saying_what_is_left_open() -> None:
    assert len(VARIANTS) >= 30, f"a false-positive check needs at least 30 variants; the registry has {len(VARIANTS)}"
    assert len(VARIANTS) == len(variants._ALL), "two variants share a name: names must be unique"
    for v in VARIANTS.values():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", v.name), f"variant name {v.name!r} is not lower-kebab"
        assert v.leaves_open and v.behaviour, f"variant {v.name} needs what is left open and what it does"


@pytest.mark.parametrize("cls", sorted(CLASSES_OF_ISSUE_13))
def test_the_variants_cover_every_class_issue_13_lists(cls: str) -> None:
    missing = [n for n in CLASSES_OF_ISSUE_13[cls] if n not in VARIANTS]
    assert not missing, f"{cls}: no variant {missing}; add it to qaconform/reference/variants.py"


def test_every_variant_is_wired_into_the_reference_server() -> None:
    """A variant with no ``variants.is_on("name")`` would change nothing, and its green self-test prove nothing."""
    source = "\n".join(p.read_text() for p in REFERENCE.glob("*.py") if p.name != "variants.py")
    wired = set(re.findall(r'variants\.is_on\(\s*"([a-z0-9-]+)"\s*\)', source))
    wired |= set(re.findall(r"variants\.is_on\(\s*'([a-z0-9-]+)'\s*\)", source))
    unwired = sorted(set(VARIANTS) - wired)
    assert not unwired, f"variants named in variants.py but never switched on in qaconform/reference: {unwired}"


def test_variants_are_off_unless_switched_on_and_alternatives_do_not_mix() -> None:
    assert variants.active() == frozenset()
    with pytest.raises(variants.UnknownVariantError, match="--list-variants"):
        variants.activate(["no-such-variant"])
    with pytest.raises(variants.UnknownVariantError, match="alternatives"):
        variants.activate(["page-size-cap-20", "page-size-cap-100"])
    assert variants.active() == frozenset()
    everything = variants.expand(["all"])
    choices = [VARIANTS[n].choice for n in everything if VARIANTS[n].choice]
    assert len(choices) == len(set(choices)), "'all' must take one variant of each choice"
    assert len(everything) >= 30


def test_list_variants_prints_one_line_per_variant() -> None:
    out = subprocess.run([sys.executable, "-m", "qaconform.reference", "--list-variants"], capture_output=True,
                         text=True, timeout=60, check=True).stdout.splitlines()
    assert [line.split()[0] for line in out] == list(VARIANTS)


def test_an_unknown_variant_is_a_usage_error_not_a_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "qaconform.reference", "--variant", "nope", "--port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--list-variants" in proc.stderr and "Traceback" not in proc.stderr


@pytest.fixture(scope="module")
def varied() -> Iterator[Ref]:
    yield from start_ref(variants=("all",))


def test_the_profile_of_a_variant_server_says_its_site_configuration(varied: Ref) -> None:
    p = varied.profile
    assert p.max_page_size == 20 and p.default_page_size == 20
    assert p.visibility.full == "public" and p.visibility.to_moderators == "moderators"
    assert p.visibility.readers == ["admin"]


def test_all_variants_change_the_wire_where_the_description_leaves_a_choice(varied: Ref, ref: Ref) -> None:
    plain = ref.call("GET", "/question.json", "member", params={"pageSize": 500}).json()
    other = varied.call("GET", "/question.json", "member", params={"pageSize": 500}).json()
    assert plain["pageSize"] == 500 and other["pageSize"] == 20  # page-size-cap-20
    assert plain["sort"] == "active" and other["sort"] == ""  # envelope-sort-empty (default-sorts-newest beneath)
    assert "depth" in plain["list"][0] and "depth" not in other["list"][0]
    denied = varied.call("GET", "/group.json", "member")
    assert denied.status_code == 401  # denied-as-401 (a logged-in caller, so JSON, not the HTML page)
    assert denied.json() == {"errors": {"message": denied.json()["errors"]["message"]}}
    anonymous = varied.call("PUT", f"/node/{varied.profile.fixtures.question_id}/lock.json", None,
                            params={"prompt": "x"})
    assert anonymous.status_code == 401 and "HTTP Status 401" in anonymous.text  # bad-credentials-html
    bad_json = varied.call("POST", f"/node/{varied.profile.fixtures.question_id}/comment.json", "member",
                           data="{", headers={"Content-Type": "application/json"})
    assert bad_json.status_code == 422  # malformed-json-422
    missing = varied.call("GET", "/node/999999/followers.json", "member")
    assert missing.status_code == 400 and "errors" in missing.json()  # unknown-node-400
    unknown = varied.call("GET", "/question.json", "member", params={"space": 1})
    assert unknown.status_code == 400  # unknown-param-400


def _new_id(resp: Any) -> int:
    return int(re.findall(r"\d+", resp.headers["location"])[-1])


def test_the_variants_of_settling_lists_bodies_follower_pages_and_reply_readers_show_on_the_wire() -> None:
    """lists-lag-writes, body-html-equivalent, followers-page-shown-from-0, reply-readable-by-thread-authors: each
    visible on the wire (and the later of them not yet in the default server: see the default server's tests)."""
    names = ("lists-lag-writes", "body-html-equivalent", "followers-page-shown-from-0",
             "reply-readable-by-thread-authors")
    for srv in start_ref(variants=names):
        question = srv.profile.fixtures.question_id
        answer = srv.ok("POST", f"/question/{question}/answer.json", "member", 201, json={"body": "réponse [t]"})
        assert answer["body"] == "<p>r&#233;ponse [t]</p>"  # body-html-equivalent: escaped, wrapped
        comment = srv.post(f"/node/{answer['id']}/comment.json", "member", json={"body": "it's"})
        assert comment.status_code == 201
        started = time.monotonic()
        assert srv.ok("GET", f"/answer/{answer['id']}/comment.json", "member")["list"] == []  # lists-lag-writes
        assert srv.get(comment.headers["location"].split("/services/v2", 1)[1], "member").status_code == 200
        while not srv.ok("GET", f"/answer/{answer['id']}/comment.json", "member")["list"]:
            assert time.monotonic() - started < 5, "the comment never showed in its answer's list"
            time.sleep(0.05)
        assert time.monotonic() - started >= variants.LIST_LAG_MS / 1000 * 0.9
        first = srv.ok("GET", f"/node/{question}/followers.json", "member", params={"page": 1, "pageSize": 1})
        second = srv.ok("GET", f"/node/{question}/followers.json", "member", params={"page": 2, "pageSize": 1})
        assert (first["page"], second["page"]) == (0, 1)  # followers-page-shown-from-0
        private = srv.post(f"/node/{answer['id']}/comment.json", "admin",
                           json={"body": "to member", "visibility": "recipients",
                                 "recipients": [{"id": srv.user_id("member")}]})
        reply = srv.post(f"/node/{_new_id(private)}/comment.json", "member", json={"body": "reply"})
        time.sleep(variants.LIST_LAG_MS / 1000 + 0.3)
        listed = {i["id"] for i in srv.ok("GET", f"/answer/{answer['id']}/comment.json", "admin")["list"]}
        assert _new_id(reply) in listed  # reply-readable-by-thread-authors: admin wrote the private parent
        novice = {i["id"] for i in srv.ok("GET", f"/answer/{answer['id']}/comment.json", "novice")["list"]}
        assert _new_id(reply) not in novice and _new_id(private) not in novice


def test_the_recipients_id_list_variant_reads_an_id_list_parameter_and_refuses_json_text() -> None:
    """recipients-param-id-list (forms25): recipients as a form field or query parameter read as an id list only;
    JSON text there is a 400; in a JSON body the array of objects is read as always."""
    for srv in start_ref(variants=("recipients-param-id-list",)):
        path, moderator = f"/node/{srv.fixture_answer_id}/comment.json", srv.user_id("moderator")
        fields = {"body": "to moderator [t]", "visibility": "recipients"}
        refused = srv.post(path, "member", data={**fields, "recipients": f'[{{"id": {moderator}}}]'})
        assert refused.status_code == 400, refused.text
        taken = srv.post(path, "member", data={**fields, "recipients": str(moderator)})
        assert taken.status_code == 201 and taken.json()["recipients"] == [{"id": moderator}], taken.text
        query = srv.post(path, "member", params={**fields, "recipients": f'[{{"id": {moderator}}}]'})
        assert query.status_code == 400, query.text
        body = srv.post(path, "member", json={**fields, "recipients": [{"id": moderator}]})
        assert body.status_code == 201 and body.json()["recipients"] == [{"id": moderator}], body.text
