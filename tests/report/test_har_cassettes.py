"""`qaconform run` end to end: a planted fault's failure leaves a HAR 1.2 cassette that validates against the HAR
1.2 schema (har-1.2.schema.json beside this file) and reads with a HAR library; coverage.json is strict JSON;
--fail-under fails a run that checked too small a share of the must-rules, with one line naming it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest
from haralyzer import HarParser

from qaconform import exitcodes
from qaconform.report.har import entry, har

pytestmark = pytest.mark.slow  # qaconform run in a subprocess: not in the fast lane (README)

FAULT = "comment-reply-other-visibility-accepted"
FAULT_RULE = "COMMENT-4"
SCHEMA = json.loads((Path(__file__).parent / "har-1.2.schema.json").read_text(encoding="utf-8"))
_TIMEOUT_S = 600


def validator() -> jsonschema.Draft7Validator:
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    return jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)


def strict(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"not strict JSON: {name}")

    return json.loads(text, parse_constant=refuse)


def run(out: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Path | None]:
    proc = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "run", "--out", str(out), *args],
                          capture_output=True, text=True, timeout=_TIMEOUT_S, check=False, stdin=subprocess.DEVNULL)
    folders = sorted(p for p in out.iterdir() if p.is_dir() and not p.is_symlink()) if out.is_dir() else []
    return proc, folders[-1] if folders else None


@pytest.fixture(scope="module")
def fault_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    proc, folder = run(tmp_path_factory.mktemp("fault"), "--reference-fault", FAULT, "--only", FAULT_RULE)
    assert folder is not None, proc.stdout[-4000:] + proc.stderr[-2000:]
    return proc, folder


def test_the_planted_faults_failure_has_a_har_that_validates_and_reads(fault_run: Any) -> None:
    proc, folder = fault_run
    assert proc.returncode == exitcodes.RULE_FAILED, proc.stdout[-4000:]
    report = json.loads((folder / "report.json").read_text())
    failed = [t["nodeid"] for t in report["tests"] if t["outcome"] == "failed"]
    kept = [t["nodeid"] for t in report["tests"] if t["outcome"] in ("failed", "blocked", "error") or t.get("warning")]
    assert failed and set(report["har"]) == set(kept), report["har"]
    v = validator()
    for nodeid in failed:
        path = folder / report["har"][nodeid]
        data = strict(path.read_text(encoding="utf-8"))
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(data)]
        assert not errors, f"{path.name} is not HAR 1.2: {errors[:5]}"
        read = [e for page in HarParser(data).pages for e in page.entries]  # as a HAR tool reads it
        assert [(e.request.method, e.url, e.status, e.time) for e in read] == [
            (x["request"]["method"], x["request"]["url"], x["response"]["status"], x["time"])
            for x in data["log"]["entries"]]
        posts = [e for e in data["log"]["entries"] if e["request"]["method"] == "POST"  # (query forms: the path)
                 and urlsplit(e["request"]["url"]).path.endswith("/comment.json")]
        assert posts, "the failing test's comment posts are in its cassette"
        # what was sent is in the cassette: the body, or the query string of a post whose fields went as parameters
        assert any(e["response"]["status"] == 201 and (e["request"].get("postData", {}).get("text")
                                                       or e["request"].get("queryString")) for e in posts)
        for e in data["log"]["entries"]:
            auth = [h["value"] for h in e["request"]["headers"] if h["name"].lower() == "authorization"]
            assert all(a == "<redacted>" for a in auth), "Authorization reaches a cassette only redacted"
            assert e["comment"].startswith("test: ") and nodeid.split("::")[-1][:40] in e["comment"]


def test_the_failure_in_report_html_links_its_har(fault_run: Any) -> None:
    _, folder = fault_run
    report = json.loads((folder / "report.json").read_text())
    html = (folder / "report.html").read_text()
    for path in report["har"].values():
        assert f'href="{path}"' in html


def test_coverage_json_is_strict_and_says_what_was_sent(fault_run: Any) -> None:
    proc, folder = fault_run
    cov = strict((folder / "coverage.json").read_text(encoding="utf-8"))
    assert cov["format"] == "qaconform-coverage/1" and len(cov["operations"]) == 19
    post = next(o for o in cov["operations"] if o["operation"] == "postComment")
    assert post["requests"] > 0 and FAULT_RULE in post["must_checked"]
    assert cov["rules"][FAULT_RULE], "the collected tests of each rule are still there for `qaconform report`"
    s = cov["summary"]
    assert f"checked {s['must_checked']} of {s['must_rules']} must-rules" in proc.stdout
    assert "interface coverage: " in proc.stdout
    assert not (folder / "exchanges").exists(), "the exchange logs go once the report and cassettes are written"
    assert '<section id="coverage">' in (folder / "report.html").read_text()


def test_fail_under_fails_a_read_only_run_with_one_line_naming_the_share(tmp_path: Path) -> None:
    proc, folder = run(tmp_path / "under", "--read-only", "--only", "paging", "--fail-under", "90", "--jobs", "2")
    assert proc.returncode == exitcodes.RULE_FAILED, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert folder is not None
    cov = strict((folder / "coverage.json").read_text(encoding="utf-8"))
    s = cov["summary"]
    line = f"checked {s['must_checked']} of {s['must_rules']} must-rules ({s['share']:g}%), under --fail-under 90%"
    assert f"exit code 1: {line}" in proc.stdout
    assert 0 < s["share"] < 90 and s["requests"] > 0
    assert any(u["why"] == "--read-only" for u in cov["unexercised"])  # writes left out, and said why
    assert cov["collected"] > 0 and cov["rules"], "on workers too, the collected tests of each rule are recorded"
    rebuilt = subprocess.run([sys.executable, "-m", "qaconform.commands.cli", "report", str(folder / "results.json")],
                             capture_output=True, text=True, timeout=_TIMEOUT_S, check=False)
    assert f"exit code 1: {line}" in rebuilt.stdout, rebuilt.stdout[-2000:] + rebuilt.stderr[-2000:]
    assert '<section id="coverage">' in (folder / "report.html").read_text(), "`qaconform report` keeps the matrix"
    proc2, _ = run(tmp_path / "over", "--read-only", "--only", "paging", "--fail-under", "1")
    assert proc2.returncode == exitcodes.OK, proc2.stdout[-3000:]
    assert "exit code 0: every must-rule that ran held" in proc2.stdout and "must-rules (" in proc2.stdout


def test_the_profiles_fail_under_fails_the_run_and_the_line_says_where_it_came_from(tmp_path: Path) -> None:
    from qaconform.reference import ReferenceServer

    with ReferenceServer() as srv:
        profile = tmp_path / "site.toml"
        profile.write_text("fail_under = 90\n" + Path(srv.profile_path).read_text(encoding="utf-8"), encoding="utf-8")
        proc, folder = run(tmp_path / "out", "--profile", str(profile), "--read-only", "--only", "paging")
    assert proc.returncode == exitcodes.RULE_FAILED, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert folder is not None
    assert "must-rules (" in proc.stdout and "%), under the profile's fail_under 90%" in proc.stdout


def test_a_fail_under_that_is_not_a_share_is_a_usage_error_before_anything_is_sent(tmp_path: Path) -> None:
    proc, folder = run(tmp_path / "bad", "--fail-under", "ninety")
    assert proc.returncode == exitcodes.USAGE and folder is None
    assert "--fail-under 'ninety' is not a share" in proc.stderr and "Traceback" not in proc.stderr


def test_a_har_entry_without_its_timings_is_refused_by_the_schema() -> None:
    """The schema is no rubber stamp: an entry missing what HAR 1.2 requires fails it."""
    ex = {"test": "t::a", "role": "member", "method": "GET", "url": "http://127.0.0.1:9/services/v2/space.json",
          "status": 200, "request_headers": {"Authorization": "<redacted>"}, "request_body": None,
          "response_headers": {"content-type": "application/json"}, "response_body": "{}", "elapsed_ms": 2.5,
          "started": 1.0}
    good = har([ex], "0")
    assert not list(validator().iter_errors(good))
    broken = {"log": {**good["log"], "entries": [{k: v for k, v in entry(ex).items() if k != "timings"}]}}
    assert any("timings" in e.message for e in validator().iter_errors(broken))


def test_a_shared_answer_in_a_cassette_says_it_was_sent_once_earlier() -> None:
    """A test judging an answer another read first (the contract suites' ``fetch`` cache) holds it in its cassette,
    marked so: a reader of the HAR must not take it for a second request."""
    ex = {"test": "t::b", "role": "member", "method": "GET", "url": "http://127.0.0.1:9/services/v2/space.json",
          "status": 200, "request_headers": {}, "request_body": None, "response_headers": {}, "response_body": "{}",
          "elapsed_ms": 2.5, "started": 1.0}
    assert "shared" not in entry(ex)["comment"]
    shared = har([{**ex, "shared": True}], "0")
    assert not list(validator().iter_errors(shared))
    assert "a shared answer: sent once earlier in the run" in shared["log"]["entries"][0]["comment"]


def test_a_body_that_is_not_utf8_is_base64_in_the_har_and_replays_byte_for_byte(tmp_path: Path) -> None:
    """Issue 46: a warning's HAR stored a non-UTF-8 body as the literal text ``\\xff\\xfe``, so replaying it sent
    other bytes (400 instead of 201). The recorded exchange keeps the bytes (base64), the HAR says so, and a replay
    of the HAR entry gets the status the run got."""
    import base64

    import requests

    from qaconform.reference import ReferenceServer
    from qaconform.target.discover import clients_for
    from qaconform.target.profile import load_profile

    body = '{"body": "caf\u00e9 au lait"}'.encode("latin-1")  # é as one byte: not UTF-8
    with ReferenceServer() as srv:
        profile = load_profile(srv.profile_path)
        member = clients_for(profile)["member"]
        path = f"question/{profile.fixtures.question_id}/answer.json"
        sent = member.request("POST", path, data=body, headers={"Content-Type": "application/json"})
        ex = {**sent.exchange.as_dict(), "test": "t::binary", "started": 1.0}
        doc = har([ex], "0")
        assert not list(validator().iter_errors(doc))
        post = doc["log"]["entries"][0]["request"]["postData"]
        assert post["_encoding"] == "base64" and base64.b64decode(post["text"]) == body, post
        auth = (profile.accounts["member"].username, profile.accounts["member"].password)
        kinds = {h["name"]: h["value"] for h in doc["log"]["entries"][0]["request"]["headers"]
                 if h["name"].lower() == "content-type"}
        replayed = requests.post(member.url(path), data=base64.b64decode(post["text"]),
                                 auth=auth, timeout=30, headers=kinds)
        assert replayed.status_code == sent.status, (replayed.status_code, sent.status)
