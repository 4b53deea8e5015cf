"""Thresholds: the TOML format, overrides from the command line, and breaches named by operation and metric."""

from __future__ import annotations

from pathlib import Path

import pytest

from qaconform.load.thresholds import ThresholdError, apply_override, breaches, evaluate, limits_from_dict, load_limits

ROOT = Path(__file__).resolve().parents[2]
OPS = {
    "listQuestions": {"count": 1000, "failures": 0, "rps": 100.0, "p50_ms": 0.4, "p95_ms": 0.9, "p99_ms": 2.0,
                      "max_ms": 9.0},
    "postAnswer": {"count": 100, "failures": 5, "rps": 10.0, "p50_ms": 3.0, "p95_ms": 700.0, "p99_ms": 900.0,
                   "max_ms": 950.0},
}
TOTAL = {"count": 1100, "failures": 5, "rps": 110.0}


def test_the_default_file_loads_and_has_per_operation_and_total_limits() -> None:
    limits = load_limits(ROOT / "loadtests" / "thresholds.toml")
    assert {"p95_ms", "p99_ms", "failure_ratio"} <= set(limits.defaults)
    assert {"failure_ratio", "min_rps"} <= set(limits.total)
    assert "postAnswer" in limits.operations


def test_a_breach_is_listed_by_operation_and_metric() -> None:
    limits = limits_from_dict({"defaults": {"p95_ms": 500, "failure_ratio": 0.01}, "total": {"min_rps": 50}})
    results = evaluate(limits, OPS, TOTAL)
    names = {r["name"] for r in breaches(results)}
    assert names == {"postAnswer.p95_ms", "postAnswer.failure_ratio"}
    ok = {r["name"] for r in results if r["ok"]}
    assert {"listQuestions.p95_ms", "total.min_rps", "listQuestions.failure_ratio"} <= ok


def test_an_operation_limit_overrides_the_defaults() -> None:
    limits = limits_from_dict({"defaults": {"p95_ms": 500}, "operations": {"postAnswer": {"p95_ms": 800}}})
    assert not breaches(evaluate(limits, OPS, TOTAL))


def test_a_minimum_throughput_for_an_operation_the_run_never_made_fails() -> None:
    limits = limits_from_dict({"operations": {"lockNode": {"min_rps": 1, "p95_ms": 100}}})
    results = evaluate(limits, OPS, TOTAL)
    assert [r["name"] for r in breaches(results)] == ["lockNode.min_rps"]
    assert "lockNode.p95_ms" not in {r["name"] for r in results}


def test_override_from_the_command_line() -> None:
    limits = apply_override(limits_from_dict({}), "listQuestions.p95_ms=0.001")
    assert [r["name"] for r in breaches(evaluate(limits, OPS, TOTAL))] == ["listQuestions.p95_ms"]
    limits = apply_override(limits, "total.min_rps=1000")
    assert "total.min_rps" in {r["name"] for r in breaches(evaluate(limits, OPS, TOTAL))}


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"defaults": {"p95": 1}}, "'p95' is not a metric"),
        ({"defaults": {"p95_ms": "fast"}}, "must be a non-negative number"),
        ({"limits": {}}, "'limits' is not a section"),
    ],
)
def test_a_bad_thresholds_file_names_the_key(data: dict, fragment: str) -> None:
    with pytest.raises(ThresholdError, match=fragment):
        limits_from_dict(data)


def test_a_bad_override_says_how_to_write_it() -> None:
    with pytest.raises(ThresholdError, match="OPERATION.METRIC=VALUE"):
        apply_override(limits_from_dict({}), "p95_ms")


def test_a_misspelt_operation_is_refused_with_the_nearest_name_before_any_load() -> None:
    """user12: `--threshold listQuestion.p95_ms=200` (the s left out) was taken, and a capacity search ran for its
    whole --max-time with a limit that applied to no operation. A name that is no operationId is a usage error,
    in an override and in a file; a request name built on an operationId (`unmarkFavorite (one-shot)`) is one."""
    with pytest.raises(ThresholdError, match="'listQuestion' is not an operationId; did you mean listQuestions"):
        apply_override(limits_from_dict({}), "listQuestion.p95_ms=200")
    with pytest.raises(ThresholdError, match=r"\[operations.postAnswers\]: .*did you mean postAnswer"):
        limits_from_dict({"operations": {"postAnswers": {"p95_ms": 800}}})
    assert apply_override(limits_from_dict({}), "unmarkFavorite (one-shot).failure_ratio=1").operations == {
        "unmarkFavorite (one-shot)": {"failure_ratio": 1.0}}
    assert apply_override(limits_from_dict({}), "listQuestions.p95_ms=200").operations == {
        "listQuestions": {"p95_ms": 200.0}}


def test_a_thresholds_file_saved_with_a_bom_loads_as_without(tmp_path: Path) -> None:
    """qa20: a file a Windows editor saved as "UTF-8 with BOM" is the same file (TOML has no BOM)."""
    text = (ROOT / "loadtests" / "thresholds.toml").read_text(encoding="utf-8")
    bom = tmp_path / "thresholds.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert load_limits(bom) == load_limits(ROOT / "loadtests" / "thresholds.toml")
