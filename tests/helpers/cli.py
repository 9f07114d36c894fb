"""Run the command line in-process, as the console entry does, capturing what it prints."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import time
from contextlib import redirect_stderr, redirect_stdout, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from setanon_sql.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
DATA = ROOT / "tests" / "data"


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def cli(*args: Any) -> Outcome:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = run_cli([str(a) for a in args])
    return Outcome(code, out.getvalue(), err.getvalue())


def fig2(*args: Any) -> Outcome:
    """A command on the bundled Fig. 2 example with its hierarchy."""
    cmd, *rest = args
    return cli(cmd, EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", *rest)


def as_from_a_terminal() -> None:
    """In a child before exec: Ctrl-C delivered as a terminal delivers it. An ignored or
    blocked signal stays so across exec, and a suite started in the background (or a test
    before this one) can leave SIGINT so in the test process; the CLI then never sees it."""
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def holding(proc: subprocess.Popen, path: Path, *, timeout: float = 120) -> None:
    """Wait until the child process has `path` open: past its start-up (imports), inside the
    command's work. A signal sent during the imports ends Python before the CLI handles it
    (exit -2, not 130), which a fixed sleep risks on a loaded machine."""
    target = str(Path(path).resolve())
    fds = Path(f"/proc/{proc.pid}/fd")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        with suppress(OSError):  # a descriptor may close while it is read
            if any(os.readlink(fd) == target for fd in fds.iterdir()):
                return
        time.sleep(0.05)
    raise AssertionError(f"the process never opened {target}")


def interrupt(proc: subprocess.Popen, sig: int, code: int, *, group: bool = False) -> str:
    """Send a running CLI process `sig` (with `group`, to its whole process group, as a
    terminal or `timeout` does: start it with start_new_session=True) and check it stopped as
    documented: exit `code`, one `error:` line, no traceback. Returns its stderr."""
    assert proc.poll() is None, proc.communicate()
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("error: "), err
    return err


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system, all threads) a live process has spent so far."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "; comm may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def working(proc: subprocess.Popen, seconds: float, *, timeout: float = 300) -> None:
    """Wait until the child has spent `seconds` more CPU time: a point inside its work that does
    not move with the machine's load, as a fixed sleep does (on a loaded machine a 2 s sleep
    after start-up may land before the work; on a fast quiet one, after it ended)."""
    until = None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        with suppress(OSError):  # the process may end between the poll and the read
            spent = cpu_seconds(proc.pid)
            until = spent + seconds if until is None else until
            if spent >= until:
                return
        time.sleep(0.02)
    raise AssertionError(f"the process spent less than {seconds} s of CPU in {timeout} s")


def copied(template: Path, into: Path) -> Path:
    """Copy the files of a folder a module-scoped fixture made once (a database holding an
    earlier run, its files) into a test's own folder, which the test may then change."""
    for f in template.iterdir():
        shutil.copy2(f, into / f.name)
    return into
