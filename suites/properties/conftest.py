"""Fixtures of the generated tests: the ids they may use, the schemathesis schema built for the target, a sender.

The generated calls must reach real nodes (a property that only ever met 404s proved nothing) and must never use
up what the interface cannot create again: the profile's question is only commented on and answered, the one-shot
wiki and favorite nodes are never touched, and state changes (lock, moderation, unwikify, unfavorite) go to
answers this run created for the purpose. Run-wide options and the summary live in plugin.py next to this file.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from qaconform.pytest.outcomes import expect
from qaconform.pytest.properties.oas import Pools, SchemaSender, bind_target, build_schema
from qaconform.pytest.properties.plugin import SHARES, STATS_KEY, Budget, budget_for
from qaconform.pytest.support import answer_posted, new_id, post_answer, post_comment
from qaconform.target.client import ApiClient
from qaconform.target.profile import Profile
from qaconform.target.writes import SUITES


@pytest.fixture(scope="session")
def budget(request: pytest.FixtureRequest) -> Budget:
    return budget_for(request.config)


@pytest.fixture
def sent(request: pytest.FixtureRequest, budget: Budget) -> Iterator[Budget]:
    """The budget, for a test that sends generated requests; what it sent is attached to its report."""
    name = request.node.path.name
    budget.begin(SHARES.get(name, 0.2), key=name if name == "test_openapi.py" else "")
    budget.take()
    yield budget
    request.node.user_properties.append((STATS_KEY, budget.take()))


@pytest.fixture(scope="session")
def pools(request: pytest.FixtureRequest, api: dict[str, ApiClient], profile: Profile, run_tag: str, created: Any,
          user_ids: dict[str, int]) -> Pools:
    """Answers and comments created once per run for the generated tests (member's answers; a public and a private
    comment), shared by every xdist worker of the run and charged to the openapi share of the write budget."""
    path = _shared_path(request, profile)
    if path is None:
        return _make_pools(api, profile, run_tag, created, user_ids, _shared_nodes(request))
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            saved = json.loads(path.read_text())
            return Pools(question_id=saved["question_id"], readers=saved["readers"], victims=saved["victims"],
                         comments=saved["comments"], user_ids=saved["user_ids"],
                         protected=frozenset(saved["protected"]))
        made = _make_pools(api, profile, run_tag, created, user_ids, _shared_nodes(request))
        path.write_text(json.dumps({"question_id": made.question_id, "readers": made.readers, "victims": made.victims,
                                    "comments": made.comments, "user_ids": made.user_ids,
                                    "protected": sorted(made.protected)}))
        return made


def _shared_path(request: pytest.FixtureRequest, profile: Profile) -> Path | None:
    """Where the pools of a parallel run are kept for its other workers (None: no workers)."""
    worker = getattr(request.config, "workerinput", None)
    if worker is None:
        return None
    digest = hashlib.sha256(profile.base_url.encode()).hexdigest()[:16]
    root = request.getfixturevalue("tmp_path_factory").getbasetemp().parent
    return Path(root / f"qc-pools-{worker['testrunuid']}-{digest}.json")


def _shared_nodes(request: pytest.FixtureRequest) -> tuple[int, list[int]] | None:
    """budget24 (issue 44): member's shared answer and, under it, member's shared plain comment and member's shared
    comment private to moderator (suites/conftest.py ``shared_answer``, ``comment_of``, ``private_comment_on_answer``:
    written by every default run anyway, charged to the suites' share whoever asks first), for the generated tests'
    reader, victim and reply parents: four accepted writes of the openapi share less (docs/write-audit.md, budget24).
    The shared answer is already every refused call's node (trade12), and every suite reads its comments by id, so a
    generated comment landing beside them changes nothing they judge. None when any of them is not there (a spent
    share, a refusal, --read-only): the pools are then posted as before."""
    budget = ApiClient.write_budget
    try:
        with budget.charged_to(SUITES) if budget is not None else contextlib.nullcontext():
            answer = int(request.getfixturevalue("shared_answer"))
            plain = request.getfixturevalue("comment_of")("member")
            private = request.getfixturevalue("private_comment_on_answer")
    except pytest.skip.Exception:
        return None
    ids = [w.id for w in (plain, private) if w.resp.status == 201]
    return (answer, [int(i) for i in ids if i is not None]) if len(ids) == 2 else None


def _make_pools(api: dict[str, ApiClient], profile: Profile, run_tag: str, created: Any,
                user_ids: dict[str, int], shared: tuple[int, list[int]] | None) -> Pools:
    budget = ApiClient.write_budget
    with budget.charged_to("openapi") if budget is not None else contextlib.nullcontext():
        return _post_pools(api, profile, run_tag, created, user_ids, shared)


def _post_pools(api: dict[str, ApiClient], profile: Profile, run_tag: str, created: Any,
                user_ids: dict[str, int], shared: tuple[int, list[int]] | None) -> Pools:
    missing = [r for r in ("admin", "moderator", "member", "novice") if r not in user_ids]
    assert not missing, (f"the user ids of {missing} are unknown (not in the profile, not found through the expert "
                         f"lists): add accounts.<role>.id to {profile.path}")
    qid = profile.fixtures.question_id
    if shared is not None:  # budget24: the shared answer reads and takes the refused calls, its comments the replies
        return _pools(profile, qid, [shared[0]], [shared[0]], [*shared[1], _admins_comment(
            api, shared[0], run_tag, created, profile, user_ids)], user_ids)
    answers: list[int] = []
    for i in range(2):  # a reader (comments and reads) and a victim (cancelWiki, unmarkFavorite: refused anyway)
        resp = post_answer(api["member"], qid, run_tag, created, text=f"properties answer {i}")
        answers.append(answer_posted(resp))
    comments: list[int] = []
    # A public comment, one private to moderator (member wrote it), one private to admin that member may not see:
    # the generated comment listings as member then hold a comment no_private_comment_leak can judge.
    # Private comments came with 2.16.0: an older target gets the public one only.
    kinds: list[tuple[str, str | None, list[int] | None]] = [("member", None, None)]
    if profile.supports("2.16.0"):
        kinds += [("member", profile.visibility.recipients, [user_ids["moderator"]]),
                  ("moderator", profile.visibility.recipients, [user_ids["admin"]])]
    for author, visibility, rec in kinds:
        resp = post_comment(api[author], answers[0], run_tag, created, text="properties comment",
                            visibility=visibility, recipients=rec)
        expect(resp.status == 201, "SHAPE-POST-COMMENT",
               f"{author} could not comment on member's answer", resp)
        comments.append(new_id(resp))
    return _pools(profile, qid, answers[:1], answers[1:], comments, user_ids)


def _admins_comment(api: dict[str, ApiClient], answer: int, run_tag: str, created: Any, profile: Profile,
                    user_ids: dict[str, int]) -> int | None:
    """moderator's comment private to admin under the shared answer, which member may not see (the generated
    comment listings as member then hold a comment no_private_comment_leak can judge); None before 2.16.0."""
    if not profile.supports("2.16.0"):
        return None
    resp = post_comment(api["moderator"], answer, run_tag, created, text="properties comment",
                        visibility=profile.visibility.recipients, recipients=[user_ids["admin"]])
    expect(resp.status == 201, "SHAPE-POST-COMMENT", "moderator could not comment on member's answer", resp)
    return new_id(resp)


def _pools(profile: Profile, qid: int, readers: list[int], victims: list[int], comments: Sequence[int | None],
           user_ids: dict[str, int]) -> Pools:
    fx = profile.fixtures
    protected = frozenset(v for v in (fx.question_id, fx.favorite_node_id, fx.wiki_node_id, fx.member_wiki_node_id,
                                      fx.wiki_answer_id, fx.accepted_wiki_question_id,
                                      *(n for pool in profile.pools.values() for n in pool)) if v is not None)
    return Pools(question_id=qid, readers=readers, victims=victims, comments=[c for c in comments if c is not None],
                 user_ids=dict(user_ids), protected=protected)


@pytest.fixture(scope="session")
def openapi_schema(profile: Profile, pools: Pools, budget: Budget, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """spec/openapi.yaml loaded for this target: its ids as dictionaries, per-operation expectations, the seed."""
    return build_schema(profile, pools, budget, tmp_path_factory.mktemp("openapi"))


@pytest.fixture
def sender(profile: Profile, pools: Pools, sent: Budget, api: dict[str, ApiClient], created: Any,
           run_tag: str, observe: Callable[..., None]) -> SchemaSender:
    bind_target(profile, pools.user_ids)
    return SchemaSender(profile=profile, pools=pools, budget=sent, api=api, created=created, run_tag=run_tag,
                        observe=observe)
