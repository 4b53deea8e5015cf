"""Safety on a target the kit may harm: `--dry-run` and `--read-only` send only reads, every created id is listed
in report.json, and a data-protection job succeeds only under ``[safety] destructive = true``.

The kit runs against the embedded reference server through a recording proxy (tests/hostile/hostile_server.py,
behaviour ``proxy``), one proxy per run, so each test sees exactly the requests one run sent and what the
server answered. The runs select the areas that write (comments, actions, gdpr); the other areas only read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hostile_kit import TRACEBACK, Background, Finished, Planned
from hostile_server import HostileServer, Seen

from qaconform import exitcodes
from qaconform.target.profile import load_profile

pytestmark = pytest.mark.slow  # whole runs against a recording proxy, started together at session start

READS = {"GET", "HEAD"}
JOB_PATH = "/services/v2/jobs/gdpr/schedule.json"


@dataclass(frozen=True)
class Plan:
    name: str
    flags: tuple[str, ...]
    only: tuple[str, ...]
    destructive: bool


PLANS = {p.name: p for p in (
    Plan("dry-run", ("--dry-run",), ("comments", "actions", "gdpr"), destructive=True),
    Plan("read-only", ("--read-only",), ("actions", "gdpr"), destructive=True),
    Plan("destructive", (), ("comments", "actions", "gdpr", "properties"), destructive=True),
    Plan("not-destructive", (), ("gdpr",), destructive=False),
)}


def plan(bg: Background) -> dict[str, Planned]:
    """One reference server; per run a recording proxy in front of it and a profile pointing at the proxy."""
    ref = bg.reference()
    original = Path(ref.profile_path).read_text(encoding="utf-8")
    planned: dict[str, Planned] = {}
    for name, p in PLANS.items():
        key = f"safety/{name}"
        proxy = bg.enter(HostileServer("proxy", upstream=ref.url))
        work = bg.work(key)
        flag = f"destructive = {str(p.destructive).lower()}"
        text = re.sub(r"(?m)^destructive = \w+$", flag, original.replace(f'"{ref.url}"', f'"{proxy.url}"'))
        if proxy.url not in text or flag not in text:
            raise RuntimeError(f"the reference server's profile changed shape; cannot point it at the proxy:\n{text}")
        profile = work / "profile.toml"
        profile.write_text(text, encoding="utf-8")
        job = bg.job(key, ["run", "--profile", str(profile), "--out", str(work / "out"), *p.flags, "--only", *p.only,
                           "--max-examples", "3"], 150.0)
        planned[name] = Planned(job, proxy, profile)
    return planned


@pytest.fixture(scope="module")
def ran(background: Background) -> dict[str, Finished]:
    """Each run with the recording proxy it went through (``server``) and the profile it read."""
    return {name: p.finished() for name, p in background.planned(plan).items()}


def _writes(seen: list[Seen]) -> list[str]:
    return [f"{s.method} {s.path}" for s in seen if s.method not in READS]


def _created_ids(seen: list[Seen]) -> set[tuple[str, str]]:
    """(path, id) of everything the server reports it created: answers and comments by body id or Location, jobs by
    jobId."""
    out: set[tuple[str, str]] = set()
    for s in seen:
        if s.method != "POST" or s.status != 201:
            continue
        path = s.path.split("?")[0]
        try:
            body = json.loads(s.response or b"null")
        except ValueError:
            body = None
        if isinstance(body, dict) and body.get("jobId") is not None:
            out.add((path, str(body["jobId"])))
        elif isinstance(body, dict) and body.get("id") is not None:
            out.add((path, str(body["id"])))
        else:
            found = re.search(r"(\d+)(?:\.json)?/?$", s.response_headers.get("location", "").split("?")[0])
            out.add((path, found.group(1) if found else "?"))
    return out


@pytest.mark.parametrize("name", ["dry-run", "read-only"])
def test_dry_run_and_read_only_send_only_reads(name: str, ran: dict[str, Finished]) -> None:
    r = ran[name]
    assert r.run.returncode in (exitcodes.OK, exitcodes.RULE_FAILED), r.run.describe()
    assert TRACEBACK not in r.run.output
    assert len(r.server.seen) > 10, "the run sent almost nothing; the test would prove nothing: " + r.run.describe()
    assert _writes(r.server.seen) == [], f"--{name} sent writes"


def test_dry_run_prints_what_would_be_written(ran: dict[str, Finished]) -> None:
    out = ran["dry-run"].run.output
    for op in ("postAnswer", "postComment", "scheduleGdprJob", "lockNode"):
        assert op in out, f"--dry-run does not name {op} among what it would write"


@pytest.mark.parametrize("name", ["destructive", "not-destructive"])
def test_every_created_id_is_listed_in_the_report(name: str, ran: dict[str, Finished]) -> None:
    r = ran[name]
    report = r.run.report()
    assert report is not None, r.run.describe()
    created = _created_ids(r.server.seen)
    assert created, "the run created nothing; the test would prove nothing: " + r.run.describe()
    listed = {str(c.get("id")) for c in report["created"]}
    missing = sorted(f"{path} id {cid}" for path, cid in created if cid not in listed)
    assert missing == [], f"created on the target but not listed in report.json: {missing}"
    keys = [(c.get("kind"), str(c.get("id"))) for c in report["created"]]
    assert len(keys) == len(set(keys)), f"report.json lists some created ids more than once: {sorted(keys)[:20]}"


def _questions_of_the_accounts(seen: list[Any], accounts: set[str]) -> set[str]:
    """Questions the profile's accounts wrote, as the run's own reads of their question lists showed them."""
    out: set[str] = set()
    for s in seen:
        m = re.search(r"/user/(\d+)/question\.json", s.path)
        if s.method != "GET" or not m or m.group(1) not in accounts or s.status != 200:
            continue
        try:
            body = json.loads(s.response or b"{}")
        except ValueError:
            continue
        for item in (body.get("list") or []) if isinstance(body, dict) else []:
            author = item.get("author") if isinstance(item, dict) else None
            if isinstance(author, dict) and str(author.get("id")) in accounts:
                out.add(str(item.get("id")))
    return out


def _under_the_accounts_questions(seen: list[Any], questions: set[str]) -> set[str]:
    """Answers under the accounts' questions (the answer lists' parentId or originalParentId, the question lists'
    answers) and comments directly
    under those answers, as the run's own reads showed them: histories6 (issue 44 item 2) tries refused node actions
    there, found with reads."""
    answers: set[str] = set()
    for s in seen:
        if s.method != "GET" or s.status != 200:
            continue
        if re.search(r"/user/\d+/answer\.json", s.path):
            answers |= {str(i.get("id")) for i in _listed(s)
                        if str(i.get("originalParentId", i.get("parentId"))) in questions}
        elif re.search(r"/(?:user/\d+/)?question\.json", s.path):  # a question's answers, as its list item names them
            answers |= {str(a) for i in _listed(s) if str(i.get("id")) in questions for a in i.get("answers") or ()}
    comments: set[str] = set()
    for s in seen:
        m = re.search(r"/answer/(\d+)/comment\.json", s.path)
        if s.method == "GET" and s.status == 200 and m and m.group(1) in answers:
            comments |= {str(item.get("id")) for item in _listed(s)}
    return answers | comments


def _listed(s: Any) -> list[dict[str, Any]]:
    try:
        body = json.loads(s.response or b"{}")
    except ValueError:
        return []
    items = body.get("list") if isinstance(body, dict) else body
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def test_writes_touch_only_the_fixtures_and_what_the_run_created(ran: dict[str, Finished]) -> None:
    """The kit writes only under the profile's fixtures, the questions its own test accounts wrote and the answers and
    comments under them (issue 44: the action matrix places one answer under a question member wrote, found with
    reads, and tries there only calls the permission table refuses; histories6 tries refused actions on the nodes
    under them) and what the run created before; every successful job names only [safety] gdpr_user
    (or the fixture CSV)."""
    r = ran["destructive"]
    profile = load_profile(r.profile)
    fx = profile.fixtures
    allowed = {str(i) for i in (fx.question_id, fx.member_wiki_node_id, fx.wiki_node_id, fx.favorite_node_id,
                                fx.wiki_answer_id, fx.accepted_wiki_question_id)
               if i is not None}
    questions = _questions_of_the_accounts(r.server.seen, {str(a.id) for a in profile.accounts.values() if a.id})
    # the fixture question's answers and their comments too (round32, issue 44: member's refused lock of a comment
    # private to it, found under the fixture question's answers in the accounts' answer lists)
    # hist26 (issue 44): the accepted wiki question's answers too, as the question list named them (the run's learned
    # comment goes under one, and member's refused unwikify of the question follows: suites/contract/thread_commenter.py)
    fixture_threads = {str(i) for i in (fx.question_id, fx.accepted_wiki_question_id) if i is not None}
    allowed |= questions | _under_the_accounts_questions(r.server.seen, questions | fixture_threads)
    outside: list[str] = []
    writes = 0
    for s in r.server.seen:
        if s.method in READS:
            continue
        writes += 1
        for node in re.findall(r"/(?:node|question|answer)/(\d+)/", s.path.split("?")[0]):
            if node not in allowed:
                outside.append(f"{s.method} {s.path} -> {s.status}")
        if s.path.startswith(JOB_PATH) and s.status == 201:
            job = json.loads(s.body or b"{}")
            names = {str(v) for v in (job.get("user") or {}).values()}
            if job.get("type") == "bulk":
                ok = str(job.get("csvFileId")) == str(fx.gdpr_csv_file_id)
            else:
                forms = (profile.safety.gdpr_user, profile.safety.gdpr_user_id, profile.safety.gdpr_user_email)
                ok = names in [{str(f)} for f in forms if f is not None]  # the user's three stated forms
            if not ok:
                outside.append(f"job for {job.get('user') or job.get('csvFileId')} -> 201")
        allowed |= {cid for _, cid in _created_ids([s])}
    assert writes > 10, "the run wrote almost nothing; the test would prove nothing: " + r.run.describe()
    assert outside == [], f"writes outside the fixtures and what the run created: {outside[:20]}"


def test_no_data_protection_job_succeeds_without_destructive(ran: dict[str, Finished]) -> None:
    r = ran["not-destructive"]
    assert any(s.path.startswith(JOB_PATH) for s in r.server.seen), "the gdpr area sent no job request at all"
    succeeded = [s.path for s in r.server.seen if s.path.startswith(JOB_PATH) and s.status is not None and
                 200 <= s.status < 300]
    assert succeeded == [], "[safety] destructive = false, yet a data-protection job was scheduled"


def test_data_protection_jobs_succeed_with_destructive_true(ran: dict[str, Finished]) -> None:
    """The control of the test above: with the flag on, the same area does schedule jobs."""
    r = ran["destructive"]
    assert any(s.path.startswith(JOB_PATH) and s.status == 201 for s in r.server.seen), r.run.describe()
