"""The private spill folder DuckDB writes to when the analyst gives no `--temp-dir`.

Each process makes its own, `setanon-duckdb-<host>-<pid>-<random>` in the system temp folder,
and removes it when it ends, on errors and signals too. A process killed outright (SIGKILL, the
machine's out-of-memory killer) cannot: one such folder held 17 GB after a killed 10^7 run, and
51 GB had piled up before anyone looked. So each new process first removes the folders this tool
left behind on this host for processes that no longer run, and only those: the exact name
pattern, this host, this user, a pid that is not running, nothing written in the last hour.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import tempfile
import time
from pathlib import Path

PREFIX = "setanon-duckdb-"
QUIET_S = 3600.0  # a folder written to within this long is left alone, whatever its pid


def host_tag() -> str:
    """This host's name, reduced to characters safe in a folder name."""
    return re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:32] or "host"


def private_folder() -> tempfile.TemporaryDirectory[str]:
    """A new spill folder for this process, after removing stale ones of dead processes."""
    root = Path(tempfile.gettempdir())
    for folder in stale(root):
        shutil.rmtree(folder, ignore_errors=True)
    return tempfile.TemporaryDirectory(prefix=f"{PREFIX}{host_tag()}-{os.getpid()}-", dir=root)


def stale(root: Path, *, now: float | None = None) -> list[Path]:
    """The spill folders under `root` that a dead process of this tool on this host left."""
    now = time.time() if now is None else now
    pattern = re.compile(re.escape(f"{PREFIX}{host_tag()}-") + r"(\d+)-[A-Za-z0-9_]+")
    out = []
    for folder in root.glob(f"{PREFIX}*"):
        m = pattern.fullmatch(folder.name)
        if not m or folder.is_symlink() or not folder.is_dir():
            continue
        try:
            mine = folder.stat().st_uid == os.getuid()
            if not mine or running(int(m.group(1))) or now - last_written(folder) < QUIET_S:
                continue
        except OSError:  # gone meanwhile, or unreadable: not ours to judge
            continue
        out.append(folder)
    return out


def running(pid: int) -> bool:
    """Whether a process with this pid exists (one of another user counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def last_written(folder: Path) -> float:
    """The latest modification time of the folder or any file in it."""
    times = [folder.stat().st_mtime]
    times += [p.stat().st_mtime for p in folder.iterdir() if p.is_file()]
    return max(times)
