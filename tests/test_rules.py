"""spec/rules.yaml is well formed and agrees with spec/openapi.yaml.

Suites name rules in ``@pytest.mark.rule(...)`` and the report joins results to rules by id, so a typo in an
operationId, a duplicated id or an unknown level would silently drop a rule from coverage. These tests read the
files directly (not through qaconform.contract) so that a loader bug cannot hide a data bug, then check that
the loader agrees.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "spec"
RULES_PATH = SPEC / "rules.yaml"
OPENAPI_PATH = SPEC / "openapi.yaml"
SAMPLES = ROOT.parent / "shared" / "samples"

LEVELS = {"must", "should", "observed"}
AREAS = {"comments", "permissions", "gdpr", "actions", "paging", "contract", "auth", "conventions"}
SINCE = {"1.6.3", "2.16.0"}
KEYS = {"id", "level", "area", "operations", "since", "summary", "source"}
OPTIONAL_KEYS = {"quote", "sample"}
"""A must-rule has at least one of them (test_every_must_rule_quotes_the_description_or_names_a_sample)."""
UPPER_KEBAB = re.compile(r"^[A-Z0-9]+(-[A-Z0-9]+)*$")
HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")

# Ids other engineers were told to rely on (the brief's list). Renaming or deleting one breaks their tests.
PUBLISHED_IDS = frozenset(
    """
    CONV-JSON-EXTENSION CONV-CONTENT-TYPE-JSON CONV-BODY-FORMAT CONV-PARAM-WINS-COMMENT CONV-PARAM-WINS-ANSWER
    CONV-PARAM-AS-BODY-FIELD PROJ-INCLUDEONLY PROJ-EXCLUDE PROJ-ONLY-VISIBLE SORT-FALLBACK-SPACES SORT-FALLBACK-TOPICS
    SORT-FALLBACK-GROUPS SORT-EXPERTS-VALUES SORT-EXPERTS-INVALID OBS-PATH-WITHOUT-JSON OBS-WRAP OBS-V1 OBS-Q-FORMAT
    PAGING-ENVELOPE PAGING-DEFAULT-PAGE PAGING-FOLLOWERS-PAGE-ZERO PAGING-PAGESIZE-ECHO PAGING-PAGE-ECHO
    PAGING-LISTCOUNT PAGING-PAGECOUNT PAGING-TOTALCOUNT-UNION PAGING-SORTS-QUESTIONS PAGING-SORTS-COMMENTS
    PAGING-DEFAULT-PAGESIZE OBS-PAGESIZE-ZERO OBS-PAGESIZE-NEGATIVE OBS-PAGESIZE-HUGE OBS-PAGE-BEYOND-END
    SHAPE-DATES-MILLIS SHAPE-DATE-FORMATTED SHAPE-ACTIONDATE LIST-ARRAY-CONTENT LIST-ARRAY-ISSUETYPES
    CONTENT-NEWEST-FIRST FILTER-SPACEID
    COMMENT-1 COMMENT-2 COMMENT-3 COMMENT-4 COMMENT-5 COMMENT-6 COMMENT-7-NO-PRIVATE-PERMISSION
    COMMENT-7-NO-OPTION-PERMISSION COMMENT-8 COMMENT-201-LOCATION COMMENT-PRIVACY-LIST COMMENT-PRIVACY-IDS
    COMMENT-PRIVACY-CONTENT COMMENT-VISIBILITY-RETURNED COMMENT-400-MESSAGE OBS-COMMENT-RESPONSE-BODY
    OBS-COMMENT-403-BODY OBS-VISIBILITY-VALUES
    ANSWER-201 ANSWER-LOCATION ANSWER-ID-STRING ANSWER-PARENT-FIELDS ANSWER-PLUG-NULL ANSWER-PUBLISHED
    ANSWER-MODERATION OBS-ANSWER-MODERATION-VISIBILITY
    ACTION-UNFAVORITE-CANCELED ACTION-UNFAVORITE-COUNT ACTION-UNFAVORITE-PER-USER ACTION-CANCELWIKI-CANCELED
    ACTION-CANCELWIKI-NOT-WIKI ACTION-SENDTOMOD-VERB ACTION-SENDTOMOD-PRIVATE ACTION-SENDTOMOD-REALUSER
    ACTION-LOCK-EXTRA ACTION-LOCK-PROMPT-REQUIRED ACTION-WRAPPERS ACTION-RECORD-SHAPE ACTION-CANCELED-FIELDS
    OBS-UNFAVORITE-NOT-FAVORITE OBS-CANCELWIKI-NOT-WIKI OBS-LOCK-TWICE OBS-REVERSE-MOVES
    GDPR-INDIVIDUAL-NO-USER GDPR-BULK-NO-CSV GDPR-CSV-MISSING GDPR-TIME-FRAME GDPR-PAST-DATE GDPR-OPERATIONS-INVALID
    GDPR-REASSIGN-AMBIGUOUS GDPR-REASSIGN-INVALID GDPR-201-JOBID GDPR-ERROR-BODY GDPR-BULK-NO-TYPE
    GDPR-USER-EXACTLY-ONE GDPR-CONTENT-422 OBS-GDPR-TIMESTAMP-FORMAT OBS-GDPR-PERMISSIONS OBS-GDPR-JOB-STATES
    PERM-COMMENT PERM-COMMENT-PRIVATE PERM-LIST-QUESTIONS PERM-USER-ANSWERS PERM-EXPERTS PERM-ANSWER
    PERM-ANSWER-PUBLISH PERM-SPACES PERM-SPACES-PER-SPACE PERM-UNFAVORITE PERM-CANCELWIKI PERM-CANCELWIKI-OWN
    PERM-SENDTOMOD PERM-LOCK PERM-LOCK-OWN PERM-TOPICS PERM-USER-QUESTIONS PERM-FOLLOWERS PERM-GROUPS
    PERM-ANSWER-COMMENTS OBS-PERM-GDPR OBS-PERM-ISSUETYPES OBS-ANONYMOUS-READS
    AUTH-BASIC AUTH-BAD-CREDENTIALS AUTH-ACTING-USER EXPERTS-401 PERM-DENIED-BODY
    FOLLOWERS-DETAILS-DEFAULT FOLLOWERS-ACTIVE-DEFAULT OBS-FOLLOWERS-DETAILS-SHAPE
    ISSUETYPES-ARRAY ISSUETYPES-NAMES-MAY-REPEAT OBS-ISSUETYPES-PAGING
    VERSION-PATH VERSION-PRIVATE-COMMENTS-2160 OBS-V1-OPTION
    OBS-RATE-LIMITS OBS-MAX-PAGESIZE OBS-MAX-BODY RECIPIENTS-NO-LIMIT
    """.split()
)


# Statements about private comments (visibility, recipients), the one feature added in 2.16.0.
PRIVATE_COMMENT_IDS = frozenset(
    """
    COMMENT-2 COMMENT-3 COMMENT-4 COMMENT-400-MESSAGE COMMENT-5 COMMENT-6 COMMENT-7-NO-PRIVATE-PERMISSION
    COMMENT-7-NO-OPTION-PERMISSION COMMENT-8 COMMENT-VISIBILITY-RETURNED COMMENT-PRIVACY-LIST COMMENT-PRIVACY-IDS
    COMMENT-PRIVACY-CONTENT OBS-COMMENT-OP-AUDIENCE OBS-COMMENT-403-BODY OBS-VISIBILITY-VALUES OBS-RECIPIENT-ID-STRING
    RECIPIENTS-NO-LIMIT PERM-COMMENT-PRIVATE VERSION-PRIVATE-COMMENTS-2160 OBS-REPLY-AUDIENCE COMMENT-RECIPIENT-ID-FORMS
    """.split()
)


class _UniqueKeyLoader(yaml.SafeLoader):
    """A SafeLoader that refuses duplicate mapping keys (plain PyYAML keeps the last one silently)."""


def _construct_unique_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _value in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}; keep one", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)


def _load_yaml(path: Path) -> Any:
    if not path.is_file():
        pytest.fail(f"{path} is missing; it is part of spec/ (see ARCHITECTURE.md) and must be committed")
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)  # noqa: S506 (safe subclass)


@pytest.fixture(scope="module")
def rules() -> list[dict[str, Any]]:
    data = _load_yaml(RULES_PATH)
    assert isinstance(data, dict), f"{RULES_PATH} must be a mapping with 'version' and 'rules'"
    assert data.get("version") == 1, f"{RULES_PATH}: version must be 1 (the format of ARCHITECTURE.md)"
    items = data.get("rules")
    assert isinstance(items, list) and items, f"{RULES_PATH}: 'rules' must be a non-empty list"
    for i, item in enumerate(items):
        assert isinstance(item, dict), f"{RULES_PATH}: rules[{i}] must be a mapping, not {type(item).__name__}"
    return items


@pytest.fixture(scope="module")
def operation_ids() -> set[str]:
    """operationIds declared under paths of spec/openapi.yaml (links also name operationIds; they do not count)."""
    doc = _load_yaml(OPENAPI_PATH)
    ids: set[str] = set()
    for path, item in (doc.get("paths") or {}).items():
        for method in HTTP_METHODS:
            if isinstance(item, dict) and method in item:
                op_id = item[method].get("operationId")
                assert op_id, f"{OPENAPI_PATH}: {method.upper()} {path} has no operationId"
                ids.add(op_id)
    assert len(ids) == 19, f"{OPENAPI_PATH} declares {len(ids)} operations, the interface has 19: {sorted(ids)}"
    return ids


def _by_id(rules: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(r.get("id")): r for r in rules}


def test_every_rule_has_exactly_the_agreed_keys(rules: list[dict[str, Any]]) -> None:
    bad = {r.get("id", f"rules[{i}]"): sorted((set(r) ^ KEYS) - OPTIONAL_KEYS) for i, r in enumerate(rules)
           if not KEYS <= set(r) <= KEYS | OPTIONAL_KEYS}
    assert not bad, f"rules whose keys differ from {sorted(KEYS)} (+ optional {sorted(OPTIONAL_KEYS)}): {bad}"


DESCRIPTION = ROOT.parent / "shared" / "interface-v2.md"


def _quotes(rule: dict[str, Any]) -> list[Any]:
    quote = rule.get("quote")
    return quote if isinstance(quote, list) else [] if quote is None else [quote]


def test_every_must_rule_quotes_the_description_or_names_a_sample(rules: list[dict[str, Any]]) -> None:
    """A must-rule is must because a sentence of the description (or a real sample) says so."""
    bad = [r["id"] for r in rules if r["level"] == "must" and not (_quotes(r) or r.get("sample"))]
    assert not bad, (f"must-rules without a quote (the words of interface-v2.md that make them must) or a sample: "
                     f"{bad}; add one, or move the rule to should or observed")


def test_every_quote_is_verbatim_in_the_description(rules: list[dict[str, Any]]) -> None:
    text = DESCRIPTION.read_text(encoding="utf-8")
    bad = {r["id"]: q for r in rules for q in _quotes(r) if not isinstance(q, str) or not q.strip() or q not in text}
    assert not bad, f"quotes not found verbatim in {DESCRIPTION.name} (copy the words exactly): {bad}"


def test_every_sample_named_exists(rules: list[dict[str, Any]]) -> None:
    bad = {r["id"]: r["sample"] for r in rules if "sample" in r
           and (not isinstance(r["sample"], str) or "/" in r["sample"] or not (SAMPLES / r["sample"]).is_file())}
    assert not bad, f"sample: names a file of {SAMPLES} (the file name only): {bad}"


def test_quotes_and_samples_only_on_must_rules(rules: list[dict[str, Any]]) -> None:
    bad = [r["id"] for r in rules if r["level"] != "must" and ("quote" in r or "sample" in r)]
    assert not bad, f"only must-rules cite a quote or sample (a should or observed rule has no sentence): {bad}"


def test_rule_ids_are_unique(rules: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    dupes = [r["id"] for r in rules if r["id"] in seen or seen.add(r["id"])]  # type: ignore[func-returns-value]
    assert not dupes, f"rule ids used more than once: {dupes}; give each statement its own id"


def test_rule_ids_are_upper_kebab(rules: list[dict[str, Any]]) -> None:
    bad = [r["id"] for r in rules if not isinstance(r["id"], str) or not UPPER_KEBAB.match(r["id"])]
    assert not bad, f"rule ids not in UPPER-KEBAB (A-Z, 0-9, single dashes): {bad}"


def test_levels_are_must_or_observed(rules: list[dict[str, Any]]) -> None:
    bad = {r["id"]: r["level"] for r in rules if r["level"] not in LEVELS}
    assert not bad, f"unknown levels (use one of {sorted(LEVELS)}): {bad}"


def test_areas_are_known(rules: list[dict[str, Any]]) -> None:
    bad = {r["id"]: r["area"] for r in rules if r["area"] not in AREAS}
    assert not bad, f"unknown areas (use one of {sorted(AREAS)}): {bad}"


def test_since_is_a_known_version_string(rules: list[dict[str, Any]]) -> None:
    # A bare 1.6 in YAML would load as a float, so the type is checked too.
    bad = {r["id"]: r["since"] for r in rules if not isinstance(r["since"], str) or r["since"] not in SINCE}
    assert not bad, f"since must be a quoted string, one of {sorted(SINCE)}: {bad}"


def test_private_comment_rules_are_since_2_16_0(rules: list[dict[str, Any]]) -> None:
    """Private comments arrived in 2.16.0; on an older target those rules are disabled, not failed."""
    by_id = _by_id(rules)
    wrong = {i: by_id[i]["since"] for i in sorted(PRIVATE_COMMENT_IDS & set(by_id)) if by_id[i]["since"] != "2.16.0"}
    assert not wrong, f"private-comment rules must have since '2.16.0': {wrong}"
    # The other way round: only private-comment statements are 2.16.0, so an old target loses nothing else.
    extra = sorted(r["id"] for r in rules if r["since"] == "2.16.0" and r["id"] not in PRIVATE_COMMENT_IDS)
    assert not extra, f"rules with since '2.16.0' that are not about private comments (use '1.6.3'): {extra}"


def test_operations_are_openapi_operation_ids(rules: list[dict[str, Any]], operation_ids: set[str]) -> None:
    bad: dict[str, list[Any]] = {}
    for r in rules:
        ops = r["operations"]
        if not isinstance(ops, list) or not ops:
            bad[r["id"]] = ["<operations must be a non-empty list>"]
            continue
        unknown = [o for o in ops if o not in operation_ids]
        if unknown or len(set(ops)) != len(ops):
            bad[r["id"]] = unknown or ["<an operation is listed twice>"]
    assert not bad, f"operations not declared in {OPENAPI_PATH.name}: {bad}; known: {sorted(operation_ids)}"


def test_every_operation_has_a_must_rule(rules: list[dict[str, Any]], operation_ids: set[str]) -> None:
    covered = {o for r in rules if r["level"] == "must" for o in r["operations"]}
    missing = sorted(operation_ids - covered)
    assert not missing, f"operations with no must rule (add one for what the description states): {missing}"


def test_summaries_are_one_short_line(rules: list[dict[str, Any]]) -> None:
    bad = {
        r["id"]: r["summary"]
        for r in rules
        if not isinstance(r["summary"], str)
        or not r["summary"].strip()
        or "\n" in r["summary"]
        or len(r["summary"]) >= 160
    }
    assert not bad, f"summaries must be one non-empty line under 160 characters: {bad}"


def test_sources_point_into_the_description(rules: list[dict[str, Any]]) -> None:
    bad = [r["id"] for r in rules if not isinstance(r["source"], str) or not r["source"].strip()]
    assert not bad, f"rules without a source (name the section of interface-v2.md): {bad}"


def test_observed_rules_are_not_worded_as_requirements(rules: list[dict[str, Any]]) -> None:
    """An observed rule records; a summary saying 'must' there means the level is wrong or the wording is."""
    bad = [r["id"] for r in rules if r["level"] == "observed" and re.search(r"\bmust\b", r["summary"], re.I)]
    assert not bad, f"observed rules whose summary says 'must' (change the level or the wording): {bad}"


def test_published_ids_are_still_present(rules: list[dict[str, Any]]) -> None:
    missing = sorted(PUBLISHED_IDS - set(_by_id(rules)))
    assert not missing, f"ids that suites rely on were renamed or deleted (restore them): {missing}"


def test_follower_page_zero_in_the_sample_breaks_no_must_rule(rules: list[dict[str, Any]]) -> None:
    """The real follower list shows page 0 and no sorts; no must rule may demand otherwise of followers."""
    sample = json.loads((SAMPLES / "node-followers.json").read_text(encoding="utf-8"))
    assert sample["page"] == 0 and "sorts" not in sample, "the follower sample changed; revisit this test"
    by_id = _by_id(rules)
    for rule_id in ("PAGING-DEFAULT-PAGE", "PAGING-SORTS-QUESTIONS", "PAGING-SORTS-COMMENTS"):
        assert "listNodeFollowers" not in by_id[rule_id]["operations"], f"{rule_id} must not apply to followers"
    assert by_id["PAGING-FOLLOWERS-PAGE-ZERO"]["level"] == "observed"
    # PAGING-PAGECOUNT applies to followers: the sample must satisfy it.
    assert sample["pageCount"] == math.ceil(sample["totalCount"] / sample["pageSize"])


def test_question_list_sample_satisfies_the_envelope_rules(rules: list[dict[str, Any]]) -> None:
    """The real question list satisfies PAGING-LISTCOUNT and PAGING-PAGECOUNT as the rules word them."""
    sample = json.loads((SAMPLES / "question-list.json").read_text(encoding="utf-8"))
    assert sample["listCount"] == len(sample["list"]) <= sample["pageSize"]
    assert sample["pageCount"] == math.ceil(sample["totalCount"] / sample["pageSize"])
    # answerCount may differ from len(answers) in the sample, so that comparison is observed only.
    assert any(q["answerCount"] != len(q["answers"]) for q in sample["list"]), "sample changed; revisit"
    assert _by_id(rules)["OBS-ANSWERCOUNT-MISMATCH"]["level"] == "observed"


def test_contract_loader_reads_every_rule(rules: list[dict[str, Any]]) -> None:
    """qaconform.contract is how suites and the report see rules; it must see the same ids and levels."""
    from qaconform.contract import Contract

    loaded = Contract(SPEC).rules
    assert set(loaded) == set(_by_id(rules)), "qaconform.contract and the file disagree on the rule ids"
    assert {i: r.level for i, r in loaded.items()} == {r["id"]: r["level"] for r in rules}
