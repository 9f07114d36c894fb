"""Private spill folders: a dead process's folder is removed by the next process, nothing else."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from setanon_sql.engine import spill
from setanon_sql.engine.duckdb import Executor


def dead_pid() -> int:
    """The pid of a process that has ended."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def make(root, name: str, *, age_s: float = 0.0):
    folder = root / name
    folder.mkdir()
    (folder / "duckdb_temp_block-1.block").write_bytes(b"x" * 10)
    past = time.time() - age_s
    for p in (folder / "duckdb_temp_block-1.block", folder):
        os.utime(p, (past, past))
    return folder


def test_only_old_folders_of_dead_processes_on_this_host_are_stale(tmp_path):
    tag, hour = spill.host_tag(), spill.QUIET_S + 60
    gone = make(tmp_path, f"{spill.PREFIX}{tag}-{dead_pid()}-abc123", age_s=hour)
    alive = make(tmp_path, f"{spill.PREFIX}{tag}-{os.getpid()}-abc123", age_s=hour)
    recent = make(tmp_path, f"{spill.PREFIX}{tag}-{dead_pid()}-def456")
    other_host = make(tmp_path, f"{spill.PREFIX}elsewhere-{dead_pid()}-abc123", age_s=hour)
    old_style = make(tmp_path, f"{spill.PREFIX}0fxfpm8k", age_s=hour)  # no pid: not judged
    user_dir = make(tmp_path, "setanon-duckdb-mine", age_s=hour)
    assert spill.stale(tmp_path) == [gone]
    assert all(p.exists() for p in (alive, recent, other_host, old_style, user_dir))


def test_each_executor_spills_into_its_own_folder_and_removes_it():
    ex = Executor()
    folder = ex.scalar("SELECT current_setting('temp_directory')")
    assert f"{spill.PREFIX}{spill.host_tag()}-{os.getpid()}-" in folder
    assert os.path.isdir(folder)
    ex.close()
    assert not os.path.exists(folder)


def test_a_new_process_removes_what_a_killed_one_left(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    left = make(tmp_path, f"{spill.PREFIX}{spill.host_tag()}-{dead_pid()}-x1", age_s=7200)
    new = spill.private_folder()
    try:
        assert not left.exists() and os.path.isdir(new.name)
        assert os.path.dirname(new.name) == str(tmp_path)
    finally:
        new.cleanup()
