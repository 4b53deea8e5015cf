"""tests/ci_timeline.py: the line CI prints per xdist worker (busy seconds, idle tail, longest wait) and the CPUs'
share, from the phases the controller saw."""

from __future__ import annotations

from ci_timeline import Timeline, cpu_jiffies


def test_each_worker_gets_its_busy_seconds_idle_tail_and_longest_wait_and_the_cpus_their_busy_share() -> None:
    t = Timeline(started=1000.0, cpu_at_start=(100, 1000))
    t.add("gw1", 1005.0, 1300.0)  # one long test, after 5 s of start and collection
    t.add("gw0", 1000.0, 1010.0)
    t.add("gw0", 1050.0, 1100.0)  # 40 s waiting for work before it
    t.add("gw0", 1100.0, 1102.0)
    lines = t.lines(ended=1310.0, cpu_now=(850, 2000), cpus=2, load=(2.0, 1.5, 1.0))
    assert lines[0] == ("gw0: busy 62 s of 310 s, first test at 0 s, last test ended at 102 s (idle tail 208 s), "
                        "longest wait between tests 40 s")
    assert lines[1] == ("gw1: busy 295 s of 310 s, first test at 5 s, last test ended at 300 s (idle tail 10 s), "
                        "longest wait between tests 0 s")
    assert lines[2].startswith("CPUs: 75% busy over the session (2 CPUs, /proc/stat: the whole machine's"), lines[2]
    assert lines[2].endswith("load average now 2.0 1.5 1.0)")
    assert len(lines) == 3


def test_no_worker_no_lines_and_no_proc_stat_no_cpu_line() -> None:
    assert Timeline(started=0.0, cpu_at_start=(1, 2)).lines(ended=5.0, cpu_now=(2, 4)) == []
    t = Timeline(started=0.0, cpu_at_start=None)
    t.add("gw0", 0.0, 1.0)
    assert len(t.lines(ended=2.0, cpu_now=(2, 4), cpus=2, load=(0.0, 0.0, 0.0))) == 1


def test_the_first_line_of_proc_stat_gives_busy_and_total_jiffies_with_iowait_as_idle() -> None:
    # user nice system idle iowait irq softirq steal
    assert cpu_jiffies("cpu  10 2 8 70 5 1 1 3 0 0\n") == (25, 100)
    assert cpu_jiffies("cpu 1 2\n") is None
    assert cpu_jiffies() is None or cpu_jiffies()[1] > 0  # type: ignore[index]
