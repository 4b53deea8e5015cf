"""The run's exchange log (qaconform/pytest/exchange_log.py) stays one whole line per exchange when a test's reads
run in several threads (support.for_each, the relations' walks, the matrix's read-ahead): the interface coverage and
the HAR cassettes read it line by line, and a line two threads tore apart is lost to both."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

from qaconform.pytest.exchange_log import _ExchangeLog
from qaconform.target.recording import Exchange


def test_exchanges_written_from_many_threads_at_once_stay_whole_lines(tmp_path: Path) -> None:
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as the interpreter allows: what a loaded machine does
    try:
        _write_from_threads(tmp_path)
    finally:
        sys.setswitchinterval(switch)


def _write_from_threads(tmp_path: Path) -> None:
    log = _ExchangeLog(tmp_path / "main.jsonl")
    start = threading.Barrier(8)

    def write(n: int) -> None:
        start.wait()
        for i in range(150):
            log.write(Exchange("member", "GET", f"http://127.0.0.1/services/v2/question.json?page={n}-{i}", 200,
                               {}, None, {}, "x" * (1500 + 37 * (i % 50)) + f"{n}-{i}", 1.0, "curl"))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log.close()
    lines = (tmp_path / "main.jsonl").read_bytes().split(b"\n")
    assert lines[-1] == b""
    urls = [json.loads(line)["url"] for line in lines[:-1]]  # raises on a torn line
    assert len(urls) == len(set(urls)) == 8 * 150
