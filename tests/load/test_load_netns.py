"""Many machines, for real (issue 45): the docs' master and worker commands, the master, two workers and the target
each in a network namespace of its own with its own address on a bridge, not on 127.0.0.1.

Workers started as separate commands used to print nothing at all, and the master printed "0.0 req/s now" while
the workers sent thousands of requests. Here every worker must say that it joined, its users and its rate, and the
master's summary must count the workers' requests. Namespaces need root and iproute2 (CI runs as root); elsewhere
the test skips and says why.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # four namespaces, a server and three Locust processes
ROOT = Path(__file__).resolve().parents[2]
SUBNET = "10.77.{}.{}"


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=30)


def _can_make_namespaces() -> str | None:
    if shutil.which("ip") is None:
        return "iproute2's ip is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root (CI runs as root)"
    probe = f"qcprobe{os.getpid() % 100000}"
    try:
        _ip("netns", "add", probe)
        _ip("netns", "del", probe)
    except (subprocess.CalledProcessError, OSError) as exc:
        return f"this machine refuses network namespaces ({exc})"
    return None


@pytest.fixture(scope="module")
def hosts() -> Iterator[dict[str, tuple[str, str]]]:
    """Four hosts (namespace, address) on one bridge: target, master, worker-1, worker-2."""
    why = _can_make_namespaces()
    if why:
        pytest.skip(f"not checked: {why}")
    tag = os.getpid() % 10000
    net = 1 + os.getpid() % 250
    bridge = f"qcb{tag}"
    names = {role: (f"qc-{role}-{tag}", SUBNET.format(net, 10 + i))
             for i, role in enumerate(("target", "master", "w1", "w2"))}
    made: list[str] = []
    try:
        _ip("link", "add", bridge, "type", "bridge")
        _ip("link", "set", bridge, "up")
        for i, (ns, addr) in enumerate(names.values()):
            _ip("netns", "add", ns)
            made.append(ns)
            outside = f"qcv{tag}x{i}"
            _ip("link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", ns)
            _ip("link", "set", outside, "master", bridge, "up")
            _ip("netns", "exec", ns, "ip", "addr", "add", f"{addr}/24", "dev", "eth0")
            _ip("netns", "exec", ns, "ip", "link", "set", "eth0", "up")
            _ip("netns", "exec", ns, "ip", "link", "set", "lo", "up")
        yield names
    finally:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, check=False)
        subprocess.run(["ip", "link", "del", bridge], capture_output=True, check=False)


def _documented(start: str) -> list[str]:
    """The docs' command (docs/load.md's bash blocks) that starts with ``start``, continuation lines joined."""
    text = (ROOT / "docs" / "load.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```bash\n(.*?)^```", text, re.M | re.S)
    found = [c for b in blocks for c in b.replace("\\\n", " ").splitlines() if c.startswith(start)]
    assert len(found) == 1, f"docs/load.md shows {len(found)} commands starting {start!r}"
    return shlex.split(found[0])


def _with(argv: list[str], **values: str) -> list[str]:
    """The documented command with some option values replaced (a smaller run, this test's addresses and files)."""
    out = list(argv)
    for option, value in values.items():
        flag = "--" + option.replace("_", "-")
        out[out.index(flag) + 1] = value
    return out


def _in(ns: str, argv: list[str], log: Path) -> subprocess.Popen[str]:
    assert argv[0] == "qaconform"
    from qaconform.reference.profile_out import password_env  # the served profile names the passwords' variables

    return subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, "-m", "qaconform.commands.cli", *argv[1:]],
                            cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, **password_env()})


def test_the_docs_master_and_two_workers_each_on_its_own_host(hosts: dict[str, tuple[str, str]],
                                                            tmp_path: Path) -> None:
    (t_ns, t_addr), (m_ns, m_addr) = hosts["target"], hosts["master"]
    profile = tmp_path / "site.toml"
    server = _in(t_ns, ["qaconform", "serve", "--host", t_addr, "--port", "18080", "--profile-out", str(profile)],
                 tmp_path / "server.log")
    procs: list[subprocess.Popen[str]] = [server]
    try:
        deadline = time.monotonic() + 60
        while not profile.is_file() and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.2)
        assert profile.is_file(), (tmp_path / "server.log").read_text()
        assert t_addr in profile.read_text(), "the profile names the target's own address, not 127.0.0.1"
        master = _with(_documented("qaconform load --profile site.toml --scenario mixed --users"),
                       profile=str(profile), scenario="browse", users="8", duration="12", remote_workers="2",
                       master_port="5557")
        master += ["--report-dir", str(tmp_path / "master")]
        procs.append(_in(m_ns, master, tmp_path / "master.log"))
        for w in ("w1", "w2"):
            worker = _with(_documented("qaconform load --profile site.toml --scenario mixed --workers"),
                           profile=str(profile), scenario="browse", workers="1", master_host=m_addr,
                           master_port="5557")
            procs.append(_in(hosts[w][0], worker + ["--report-dir", str(tmp_path / w)], tmp_path / f"{w}.log"))
        for p in procs[1:]:
            p.wait(timeout=180)
        logs = {name: (tmp_path / f"{name}.log").read_text() for name in ("master", "w1", "w2")}
        assert procs[1].returncode in (0, 1), logs["master"]  # its latency verdict is the machine's, not judged here
        summary = json.loads((tmp_path / "master" / "summary.json").read_text(encoding="utf-8"))
        assert summary["workers"] == 2 and summary["requests"] > 0, summary
        assert len(summary["requests_by_worker"]) == 2, summary["requests_by_worker"]
        assert all(n > 0 for n in summary["requests_by_worker"].values()), summary["requests_by_worker"]
        live = [x for x in logs["master"].splitlines() if "req/s now" in x]
        assert live and any(not re.search(r"\b0\.0 req/s now", x) for x in live), logs["master"]
        for w in ("w1", "w2"):
            said = logs[w]
            assert re.search(rf"qaconform worker \d+: joined the master at {re.escape(m_addr)}:5557", said), said
            assert re.search(r"qaconform worker \d+: \d+ users, \d+\.\d req/s, \d+ requests", said), said
            assert "users stopped after" in said, said
        print("\n".join(x for w in ("w1", "w2") for x in logs[w].splitlines() if "qaconform worker" in x))
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
