"""spec/openapi.yaml loaded for schemathesis: the configuration of one run (seed, examples, dictionaries of the
target's ids, statuses a valid request may meet) and the id pools the generated calls draw from.

Apart from :mod:`qaconform.pytest.properties.oas` (which sends and judges each case) because loading happens once,
at collection or for the state machine, while sending happens per call; ``oas`` re-exports these names.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import schemathesis
import yaml

from qaconform.contract import API_PREFIX, default_spec_dir, envelope
from qaconform.pytest import schemathesis_checks
from qaconform.pytest.properties.plugin import Budget
from qaconform.pytest.properties.states import NodeLedger
from qaconform.target.profile import Profile

SPEC_DIR = default_spec_dir()
OPENAPI = SPEC_DIR / "openapi.yaml"


ACCEPTED_WHEN_VALID = {
    "postComment": ["2xx", "400", "403"],      # rules 4 and 6 (400), rule 7 (403): generated privacy fields hit them
    "scheduleGdprJob": ["2xx", "400"],         # the Errors table: missing user/csv, clash, past date, bad reassignUser
    "unmarkFavorite": ["2xx", "4xx"],          # the interface cannot make favorites: a generated call meets a node
    "cancelWiki": ["2xx", "4xx"],              # that is not one (not wiki), which the description leaves open
}  # fmt: skip
"""positive_data_acceptance: statuses a schema-valid request may meet; 2xx only elsewhere."""

COVERAGE_FROM = 50
"""--max-examples from which the coverage phase (boundary values of every parameter) runs too."""


PROJECTIONS = ["id", "id,name", "id,creationDate", "id,title,author"]
"""includeOnly values of generated list requests (the description's example is id and name)."""

NODE_TYPES = ["question", "answer", "comment", "idea", "ideacomment", "kbentry", "topic"]


@dataclass
class Pools:
    """Ids the generated calls may use.

    ``readers`` get comments and reads only; ``victims`` may be locked, sent to moderation, unwikified and
    unfavorited (one per action); ``comments`` are under the first reader (one private to moderator).
    """

    question_id: int
    readers: list[int]
    victims: list[int]
    comments: list[int]
    user_ids: dict[str, int]
    protected: frozenset[int]
    ledger: NodeLedger = field(default_factory=NodeLedger)
    """The nodes this run moved to another state (shared by every generated test of the process)."""

    def victim(self, operation_id: str) -> int:
        order = ["lockNode", "sendToModeration", "cancelWiki", "unmarkFavorite"]
        return self.victims[order.index(operation_id) % len(self.victims)] if operation_id in order else 0

    def allowed(self, operation_id: str) -> list[int]:
        """The ids a valid path parameter of this operation takes (each operation has at most one)."""
        users = sorted(set(self.user_ids.values()))
        nodes = [self.question_id, *self.readers]
        return {
            "postComment": [*nodes, *self.comments[:2]], "postAnswer": [self.question_id],
            "listUserAnswers": users, "listUserQuestions": users, "listUserContent": users,
            "listNodeFollowers": nodes, "listAnswerComments": self.readers,
        }.get(operation_id) or [self.victim(operation_id)]


def _spec_for(profile: Profile, workdir: Path) -> Path:
    """spec/openapi.yaml, or a copy whose issue-type path uses the profile's tracker segment."""
    tracker = profile.fixtures.issue_tracker or "tracker"
    if tracker == "tracker":
        return OPENAPI
    raw = yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))
    raw["paths"][f"{API_PREFIX}/{tracker}/issuetype.json"] = raw["paths"].pop(f"{API_PREFIX}/tracker/issuetype.json")
    shutil.copytree(SPEC_DIR / "schemas", workdir / "schemas", dirs_exist_ok=True)
    out = workdir / "openapi.yaml"
    out.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return out


def _bind(name: str, probability: float = 1.0) -> dict[str, Any]:
    """A parameter drawn from dictionary ``name`` (with this probability; else generated)."""
    return {"dictionary": name, "probability": probability}


def _static_parameters() -> dict[str, dict[str, Any]]:
    """Parameters bound to dictionaries known at collection (sort names, booleans, node types)."""
    return {
        "listUserAnswers": {"query.sort": _bind("question_sorts")},
        "listUserQuestions": {"query.sort": _bind("question_sorts")},
        "listNodeFollowers": {"query.sort": _bind("question_sorts")},
        "listQuestions": {"query.sort": _bind("question_sorts"), "query.unanswered": _bind("booleans"),
                          "query.type": _bind("node_types")},
        "listTopics": {"query.type": _bind("node_types")},
    }


def _target_dictionaries(pools: Pools, profile: Profile) -> dict[str, Any]:
    """The target's ids as dictionaries: users, the fixture question, readable and victim nodes, visibilities."""
    nodes = [pools.question_id, *pools.readers]
    dictionaries: dict[str, Any] = {
        "users": {"values": sorted(set(pools.user_ids.values()))},
        "question": {"values": [pools.question_id]},
        "readers": {"values": pools.readers},
        "nodes": {"values": nodes},
        "parents": {"values": [*nodes, *pools.comments[:2]]},  # the third is private to admin
        "visibilities": {"values": profile_visibilities(profile)},
    }
    for op in VICTIM_OPERATIONS:
        dictionaries[f"victim_{op}"] = {"values": [pools.victim(op)]}
    return dictionaries


def _target_parameters() -> dict[str, dict[str, Any]]:
    """The path ids (and comment fields) each operation draws from the target's dictionaries."""
    return {
        "postComment": {"path.nodeId": _bind("parents"), "body.visibility": _bind("visibilities", 0.7),
                        "body.recipients[*].id": _bind("users", 0.9)},
        "postAnswer": {"path.questionId": _bind("question")},
        "listUserAnswers": {"path.userId": _bind("users")},
        "listUserQuestions": {"path.userId": _bind("users")},
        "listUserContent": {"path.userId": _bind("users")},
        "listNodeFollowers": {"path.nodeId": _bind("nodes")},
        "listAnswerComments": {"path.answerId": _bind("readers")},
        **{op: {"path.nodeId": _bind(f"victim_{op}")} for op in VICTIM_OPERATIONS},
    }


def schema_config(budget: Budget, pools: Pools | None = None, profile: Profile | None = None) -> dict[str, Any]:
    """The schemathesis configuration (the schemathesis.toml format, as a dict) of one run.

    Without ``pools`` and ``profile`` it holds only what is known when pytest collects (seed, examples, static
    dictionaries): the per-operation tests load the schema then, and ``SchemaSender.make_safe`` binds the target's
    ids at call time. The state machine, built inside a test, gets the target's ids as dictionaries too.
    """
    dictionaries: dict[str, Any] = {
        "question_sorts": {"values": list(envelope().sorts_seen)},
        "booleans": {"values": ["true", "false"]},
        "node_types": {"values": NODE_TYPES},
    }
    parameters = _static_parameters()
    if pools is not None and profile is not None:
        dictionaries.update(_target_dictionaries(pools, profile))
        for op, params in _target_parameters().items():
            parameters[op] = {**parameters.get(op, {}), **params}
    operations: list[dict[str, Any]] = [{"include-operation-id": op, "parameters": params}
                                        for op, params in parameters.items()]
    operations += [{"include-operation-id": op, "checks": {"positive_data_acceptance": {"expected-statuses": statuses}}}
                   for op, statuses in ACCEPTED_WHEN_VALID.items()]
    config: dict[str, Any] = {
        "seed": budget.seed,
        "generation": {"max-examples": budget.max_examples, "mode": "all", "with-security-parameters": False,
                       "database": "none",
                       # A failing case is one request, already printed as a curl; shrinking it would replay it
                       # dozens of times against a slow target for a slightly shorter query string.
                       "no-shrink": True},
        # The coverage phase sends ~50 boundary cases per operation whatever max-examples says: too many for the
        # default budget on a slow target; fuzzing draws negative (malformed) values too.
        "phases": {"coverage": {"enabled": budget.max_examples >= COVERAGE_FROM}},
        "checks": {"positive_data_acceptance": {"expected-statuses": ["2xx"]}},
        "dictionaries": dictionaries,
        "operations": operations,
    }
    if profile is not None:
        config.update({"base-url": profile.base_url, "request-timeout": profile.timeout_s,
                       "tls-verify": profile.verify_tls})
    return config


VICTIM_OPERATIONS = ("lockNode", "sendToModeration", "cancelWiki", "unmarkFavorite")


def profile_visibilities(profile: Profile) -> list[str]:
    """The comment visibility wire values the profile names (full, recipients, and the others when known)."""
    vis = profile.visibility
    return [v for v in (vis.full, vis.recipients, vis.to_original_poster, vis.to_moderators, vis.to_own_groups) if v]


def _load(path: Path, config: dict[str, Any]) -> Any:
    # read by the hook while loading: includeOnly takes these values
    schemathesis_checks.KEEP_PROJECTION[:] = PROJECTIONS
    try:
        return schemathesis.openapi.from_path(str(path), config=schemathesis.Config.from_dict(config))
    finally:
        schemathesis_checks.KEEP_PROJECTION.clear()


def collection_schema(budget: Budget) -> Any:
    """spec/openapi.yaml as the per-operation tests see it at collection: one pytest test per operation.

    Loaded when pytest imports the test module (schemathesis's eager ``parametrize``), so nothing here may depend
    on the target: its ids, visibility values and tracker are bound per call by ``SchemaSender``.
    """
    _skip_idle_auth_warning_scan()
    return _load(OPENAPI, schema_config(budget))


def _skip_idle_auth_warning_scan() -> None:
    """schemathesis's pytest plugin warns about OpenAPI auth schemes its configuration names and the schema lacks;
    to find them it computes every warning of every operation (deserializers, regexes, references) and keeps that
    one kind, which only the configured schemes can raise. Our configuration names none, so the scan (about 0.25 s
    of CPU in every worker, before its first test) can find nothing: it is skipped then, and runs as before when a
    scheme is configured."""
    try:
        from schemathesis.pytest import plugin as st_plugin
    except ImportError:
        return
    emit = st_plugin.emit_openapi_auth_warnings
    if getattr(emit, "qc_skips_idle_scan", False):
        return

    def emit_when_configured(schema: Any) -> None:
        auth = getattr(getattr(schema, "config", None), "auth", None)
        if auth is not None and not getattr(auth, "all_openapi_schemes", True):
            return
        emit(schema)

    emit_when_configured.qc_skips_idle_scan = True  # type: ignore[attr-defined]
    st_plugin.emit_openapi_auth_warnings = emit_when_configured


def bind_target(profile: Profile, user_ids: dict[str, int]) -> None:
    """Tell our schemathesis checks who the accounts are and which visibility values mean what, on this target."""
    schemathesis_checks.ACCOUNT_IDS.clear()
    schemathesis_checks.ACCOUNT_IDS.update({profile.accounts[r].username: i for r, i in user_ids.items()
                                  if r in profile.accounts})
    schemathesis_checks.VISIBILITY = profile.visibility
    schemathesis_checks.RECIPIENTS = profile.visibility.recipients


def build_schema(profile: Profile, pools: Pools, budget: Budget, workdir: Path) -> Any:
    """spec/openapi.yaml loaded for this target (its ids as dictionaries, its tracker path), for the state machine."""
    bind_target(profile, pools.user_ids)
    config = schema_config(budget, pools, profile)
    if profile.fixtures.issue_tracker is None:
        config["operations"].append({"include-operation-id": "listIssueTypes", "enabled": False})
    return _load(_spec_for(profile, workdir), config)
