"""An INPUT that is a pipe (a FIFO, `<(cmd)`, /dev/stdin) is read exactly once, and SIGTERM
ends the process within seconds even while it waits for the pipe's writer (issue 40, item 6:
the reader opened the input twice and hung; SIGTERM only interrupted the main thread, which a
blocking open() ignores)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.cli import EX, as_from_a_terminal

SETANON = [sys.executable, "-m", "setanon_sql"]
BASKETS = b"1 2 3\n2 3\n1 3\n1 2\n1 2 3\n2 3\n"


def wchan_told() -> bool:
    """Whether this kernel tells where a sleeping process waits (/proc/PID/wchan)."""
    sleeper = subprocess.Popen(["sleep", "5"])
    try:
        time.sleep(0.3)
        return Path(f"/proc/{sleeper.pid}/wchan").read_text().strip() not in ("", "0")
    finally:
        sleeper.kill()
        sleeper.wait()


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


def ended_within(proc: subprocess.Popen, seconds: float) -> tuple[int, str, str]:
    """The exit code, stdout and stderr of a process that must end within `seconds` (else it
    is killed and the test fails)."""
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"still running after {seconds} s") from None
    return proc.returncode, out, err


@pytest.mark.parametrize("command", ["anonymize", "load"])
def test_sigterm_ends_a_process_waiting_on_a_fifo_nobody_writes(tmp_path, command) -> None:
    if not wchan_told():
        pytest.skip("the kernel does not say where a process waits")
    fifo = tmp_path / "in.txt"
    os.mkfifo(fifo)
    if command == "anonymize":
        args = ["-a", "aa", "-k", 2, "-m", 2, "-o", tmp_path / "r.csv"]
    else:
        args = ["--db", tmp_path / "w.duckdb"]
    cmd = [*SETANON, command, fifo, "--fanout", 2, "-q", *args]
    temp = tmp_path / "tmp"
    temp.mkdir()
    proc = subprocess.Popen(
        [str(a) for a in cmd],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_from_a_terminal,
        env=dict(os.environ, TMPDIR=str(temp)),
    )
    waiting_for_a_writer(proc)
    proc.send_signal(signal.SIGTERM)
    code, _, err = ended_within(proc, 5)
    assert code == 143, err
    assert err == "error: terminated\n"
    assert fifo.exists() and {p.name for p in tmp_path.iterdir()} == {"in.txt", "tmp"}
    assert list(temp.iterdir()) == []


def run(cmd: list[object], *, stdin: bytes | None = None, timeout: float = 120):
    return subprocess.run(
        [str(a) for a in cmd], input=stdin, capture_output=True, timeout=timeout, check=False
    )


def test_a_fifo_written_once_is_read_once(tmp_path) -> None:
    fifo, db, temp = tmp_path / "in.txt", tmp_path / "w.duckdb", tmp_path / "tmp"
    os.mkfifo(fifo)
    temp.mkdir()
    proc = subprocess.Popen(
        [str(a) for a in [*SETANON, "load", fifo, "--db", db, "--json"]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, TMPDIR=str(temp)),  # where the copy goes
    )
    with fifo.open("wb") as writer:  # waits for the reader, like any writer of a FIFO
        writer.write(BASKETS)
    code, out, err = ended_within(proc, 120)  # the FIFO was written once and closed
    assert code == 0, err
    assert '"transactions": 6' in out and str(fifo) in out
    assert {p.name for p in tmp_path.iterdir()} == {"in.txt", "w.duckdb", "tmp"}
    assert list(temp.iterdir()) == []  # the copy went with the process


def test_stdin_is_read_and_named_as_given(tmp_path) -> None:
    db = tmp_path / "w.duckdb"
    done = run([*SETANON, "load", "/dev/stdin", "--db", db, "--json"], stdin=BASKETS)
    assert done.returncode == 0, done.stderr
    assert b'"source": "/dev/stdin"' in done.stdout and b'"transactions": 6' in done.stdout
    done = run([*SETANON, "load", "/dev/stdin", "--db", db], stdin=b"1 2\n\n3\n")
    assert done.returncode == 3
    assert done.stderr == b"error: /dev/stdin: empty transaction(s) on line(s) [2]\n"


def test_process_substitution_anonymizes_and_names_the_path_given(tmp_path) -> None:
    data = tmp_path / "b.txt"
    data.write_bytes(BASKETS)
    out = tmp_path / "r.csv"
    line = " ".join(
        [*SETANON, "anonymize", f"<(cat {data})", "-a", "aa", "-k", "2", "-m", "2",
         "--fanout", "2", "-q", "-o", str(out)]
    )  # fmt: skip
    done = run(["bash", "-c", line])
    assert done.returncode == 0, done.stderr
    assert out.read_text().startswith("tid,item")
    empty = line.replace(f"cat {data}", "printf '1\\n\\n2\\n'")
    done = run(["bash", "-c", empty.replace(str(out), str(tmp_path / "r2.csv"))])
    assert done.returncode == 3
    assert re.fullmatch(
        rb"error: /dev/fd/\d+: empty transaction\(s\) on line\(s\) \[2\]\n", done.stderr
    )


# Stands in for SIGTERM landing while Python imports the command line: importing
# setanon_sql.cli sends the process SIGTERM, exactly where a signal from outside would land.
_TERMINATE_THE_IMPORT = """
import os, signal, sys
class Finder:
    def find_spec(self, name, path=None, target=None):
        if name == "setanon_sql.cli":
            os.kill(os.getpid(), signal.SIGTERM)
sys.meta_path.insert(0, Finder())
sys.argv = ["setanon", "datasets"]
from setanon_sql.console import main
main()
"""


def test_sigterm_while_the_cli_imports_is_one_line_and_143() -> None:
    done = run([sys.executable, "-c", _TERMINATE_THE_IMPORT], timeout=60)
    assert done.returncode == 143
    assert done.stderr == b"error: terminated\n"


def test_a_hierarchy_through_a_pipe_is_read_once(tmp_path) -> None:
    h = tmp_path / "h.csv"
    h.write_text((EX / "fig2_hierarchy.csv").read_text())
    line = " ".join(
        [*SETANON, "anonymize", str(EX / "fig2.csv"), "-H", f"<(cat {h})", "-a", "aa",
         "-k", "2", "-m", "2", "-q"]
    )  # fmt: skip
    done = run(["bash", "-c", line])
    assert done.returncode == 0, done.stderr


def test_a_table_through_a_pipe_is_refused_naming_it(tmp_path) -> None:
    t = tmp_path / "t.csv"
    t.write_text("sex,age\nF,30\nM,31\nF,32\nM,33\n")
    line = " ".join([*SETANON, "anonymize-table", f"<(cat {t})", "--qi", "sex", "-t",
                     "sex=suppress", "-k", "2", "-q"])  # fmt: skip
    done = run(["bash", "-c", line])
    assert done.returncode == 3
    assert re.fullmatch(rb"error: input /dev/fd/\d+ is a pipe, not a file: .*\n", done.stderr)
