"""One child process timed from outside, for the benchmarks that time `setanon` as a whole
process (disassociation.py, dp.py): wall and CPU seconds and peak RSS of that child alone."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(cmd: list[str], code: Path | None = None) -> dict:
    """Run one command as a child process: wall and CPU seconds and peak RSS (MB) of that
    child alone (os.wait4 reports its own resource use); its stdout. A failure ends the
    benchmark with the command and its stderr. `code`: a source tree to run instead of this
    one (the child runs in it too: `python -m` puts the working folder first on the path)."""
    env = None if code is None else os.environ | {"PYTHONPATH": str(code)}
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, env=env, cwd=code)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        status_code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if status_code != 0:
        raise SystemExit(f"failed ({status_code}): {' '.join(cmd)}\n{stderr}")
    cpu = usage.ru_utime + usage.ru_stime
    return {"wall": wall, "cpu": cpu, "rss_mb": usage.ru_maxrss / 1024, "stdout": stdout}


def setanon(*args: str) -> list[str]:
    """The command line of `setanon ARGS` run by this interpreter."""
    return [sys.executable, "-m", "setanon_sql", *args]
