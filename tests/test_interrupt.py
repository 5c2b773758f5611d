"""Stopping a long run: one line, exit 130, and no worker processes left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _children(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-eo", "pid=,ppid="], capture_output=True, text=True, check=True).stdout
    pairs = [tuple(int(x) for x in line.split()) for line in out.splitlines() if line.strip()]
    return {child for child, parent in pairs if parent == pid}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()
    return bool(state) and not state.startswith("Z")


def test_sigterm_stops_advise_and_its_workers() -> None:
    cmd = [sys.executable, "-m", "wiezen_sim.cli", "advise", "--samples", "5000", "--jobs", "2", "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.5)
        workers = _children(proc.pid)
        assert proc.poll() is None, proc.communicate()
    assert len(workers) >= 2, "the run never started its worker processes"
    time.sleep(2)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines() == ["wiezen-sim advise: interrupted"]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.5)
    assert not [w for w in workers if _alive(w)], "worker processes outlived the run"
