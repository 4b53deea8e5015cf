"""The sub-millisecond histogram: exact enough below 1 ms (where Locust shows whole milliseconds), mergeable."""

from __future__ import annotations

import random

import pytest

from qaconform.load.histogram import Histogram, HistogramSet, bucket_us


def _exact_percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    rank = max(1, -(-int(q * len(s)) // 100))
    return s[rank - 1]


def test_percentiles_below_one_millisecond_are_within_a_microsecond() -> None:
    rng = random.Random(7)
    values = [rng.uniform(0.05, 0.95) for _ in range(5000)]
    h = Histogram()
    for v in values:
        h.add(v)
    for q in (50, 95, 99):
        assert abs(h.percentile(q) - _exact_percentile(values, q)) <= 0.0011, q  # type: ignore[operator]
    assert h.max_ms == max(values)
    assert h.percentile(100) == max(values)


def test_a_median_of_0_3_ms_is_not_rounded_to_a_whole_millisecond() -> None:
    h = Histogram()
    for _ in range(100):
        h.add(0.3)
    p50 = h.percentile(50)
    assert p50 is not None and 0.299 <= p50 <= 0.302


def test_buckets_coarsen_above_10_ms_and_1_s() -> None:
    assert bucket_us(0.0015) == 1
    assert bucket_us(9.9999) == 9999
    assert bucket_us(12.345) == 12300
    assert bucket_us(1234.5) == 1230000


def test_merging_two_processes_equals_recording_in_one() -> None:
    rng = random.Random(3)
    a, b, both = HistogramSet(), HistogramSet(), HistogramSet()
    for i in range(3000):
        v = rng.expovariate(1 / 2.0)
        (a if i % 2 else b).add("listQuestions", v)
        both.add("listQuestions", v)
    merged = HistogramSet.merged([a.drain(), b.to_dict()])
    m, w = merged.by_name["listQuestions"], both.by_name["listQuestions"]
    assert m.count == w.count == 3000
    assert m.percentile(99) == w.percentile(99)
    assert abs(m.total_ms - w.total_ms) < 1e-6
    assert a.by_name == {}, "drain() must start afresh so a worker never ships a sample twice"


def test_an_empty_histogram_has_no_percentile() -> None:
    assert Histogram().percentile(95) is None
    assert Histogram.from_dict(Histogram().to_dict()).count == 0


def test_the_wire_form_keeps_int_keys_and_merges_like_the_file_form() -> None:
    """Workers ship int-keyed buckets (msgpack carries them); the master merges them, and a latency file's
    string keys, into the same histogram."""

    worker = HistogramSet()
    for ms in (0.25, 0.25, 3.5, 42.0):
        worker.add("listQuestions", ms)
    file_form = worker.to_dict()
    wire = worker.drain()
    assert all(type(b) is int for b in wire["listQuestions"]["buckets"]) and worker.by_name == {}
    a, b = HistogramSet.merged([wire]), HistogramSet.merged([file_form])
    for merged in (a, b):
        h = merged.by_name["listQuestions"]
        assert (h.count, h.min_ms, h.max_ms) == (4, 0.25, 42.0)
        assert h.percentile(50) == pytest.approx(0.25, abs=0.002) and h.percentile(100) == 42.0
    assert a.by_name["listQuestions"].buckets == b.by_name["listQuestions"].buckets


def test_add_counts_each_time_in_the_bucket_bucket_us_names() -> None:
    """Histogram.add computes the common bucket itself (per-request cost): it must agree with bucket_us everywhere,
    the edges at 10 ms and 1 s and times at or below zero included."""
    rng = random.Random(11)
    values = [-1.0, 0.0, 0.0004, 0.001, 9.999, 9.9999, 10.0, 10.05, 999.99, 1000.0, 1234.5678]
    values += [rng.uniform(0, 20) for _ in range(2000)] + [rng.uniform(0, 3000) for _ in range(500)]
    for v in values:
        h = Histogram()
        h.add(v)
        assert h.buckets == {bucket_us(v): 1}, v
