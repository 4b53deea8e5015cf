"""``python tests/hostile/measure.py RESULT.json CMD ...``: run CMD and write its exit code and peak memory.

Why a wrapper: ``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` is the peak of the largest child (and its waited-for
descendants) a process ever had, so it is exact only in a process that runs nothing else. The hostile tests run
several kit commands at once; each goes through this wrapper, whose only child is the command under test.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: measure.py RESULT.json CMD [ARG ...]", file=sys.stderr)
        return 2
    result, cmd = argv[0], argv[1:]
    started = time.monotonic()
    rc = subprocess.call(cmd, stdin=subprocess.DEVNULL)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(result, "w", encoding="utf-8") as fh:
        json.dump({"rc": rc, "maxrss_kb": usage.ru_maxrss, "seconds": round(time.monotonic() - started, 2),
                   "cpu_s": round(usage.ru_utime + usage.ru_stime, 2)}, fh)
    return rc


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
