"""An INPUT that is a pipe (a FIFO, `<(cmd)`, /dev/stdin) is read exactly once, and SIGTERM
ends the process within seconds even while it waits for the pipe's writer (issue 40, item 6:
the reader opened the input twice and hung; SIGTERM only interrupted the main thread, which a
blocking open() ignores)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.cli import as_from_a_terminal

SETANON = [sys.executable, "-m", "setanon_sql"]
BASKETS = b"1 2 3\n2 3\n1 3\n1 2\n1 2 3\n2 3\n"


def waiting_for_a_writer(proc: subprocess.Popen, *, timeout: float = 120) -> None:
    """Wait until the child is blocked opening a FIFO nobody writes to (past its start-up)."""
    wchan = Path(f"/proc/{proc.pid}/wchan")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        if wchan.read_text().strip() == "wait_for_partner":
            return
        time.sleep(0.05)
    raise AssertionError("the process never waited on the FIFO")


def ended_within(proc: subprocess.Popen, seconds: float) -> tuple[int, str]:
    """The exit code and stderr of a process that must end within `seconds` (else killed)."""
    try:
        _, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"still running {seconds} s after the signal") from None
    return proc.returncode, err


@pytest.mark.parametrize("command", ["anonymize", "load"])
def test_sigterm_ends_a_process_waiting_on_a_fifo_nobody_writes(tmp_path, command) -> None:
    fifo = tmp_path / "in.txt"
    os.mkfifo(fifo)
    if command == "anonymize":
        args = ["-a", "aa", "-k", 2, "-m", 2, "-o", tmp_path / "r.csv"]
    else:
        args = ["--db", tmp_path / "w.duckdb"]
    cmd = [*SETANON, command, fifo, "--fanout", 2, "-q", *args]
    proc = subprocess.Popen(
        [str(a) for a in cmd],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_from_a_terminal,
    )
    waiting_for_a_writer(proc)
    proc.send_signal(signal.SIGTERM)
    code, err = ended_within(proc, 5)
    assert code == 143, err
    assert err == "error: terminated\n"
    assert fifo.exists() and {p.name for p in tmp_path.iterdir()} == {"in.txt"}
