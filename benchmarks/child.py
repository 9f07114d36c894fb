"""One child process timed from outside, for the benchmarks that time `setanon` as a whole
process (disassociation.py, dp.py): wall and CPU seconds and peak RSS of that child alone."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time


def timed(cmd: list[str]) -> dict:
    """Run one command as a child process: wall and CPU seconds and peak RSS (MB) of that
    child alone (os.wait4 reports its own resource use); its stdout. A failure ends the
    benchmark with the command and its stderr."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if code != 0:
        raise SystemExit(f"failed ({code}): {' '.join(cmd)}\n{stderr}")
    cpu = usage.ru_utime + usage.ru_stime
    return {"wall": wall, "cpu": cpu, "rss_mb": usage.ru_maxrss / 1024, "stdout": stdout}


def setanon(*args: str) -> list[str]:
    """The command line of `setanon ARGS` run by this interpreter."""
    return [sys.executable, "-m", "setanon_sql", *args]
