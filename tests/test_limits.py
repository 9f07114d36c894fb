"""What the machine cannot give is said as such (issue 26, defects 6 and 8): too many threads
refused before DuckDB starts them, a memory limit too small for the work and a full disk (or
a file size limit) each one line with exit 5, never "internal error", and nothing partial left
behind."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.cli import EX, cli

from setanon_sql.engine import limits
from setanon_sql.engine.limits import THREADS_PER_CORE, cores
from setanon_sql.errors import ExitCode

FIG2 = ("anonymize", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-a", "aa", "-k", 2,
        "-m", 2, "-q")  # fmt: skip


def test_threads_above_a_few_per_core_are_refused_before_duckdb_starts_them() -> None:
    most = THREADS_PER_CORE * cores()
    assert cli(*FIG2, "--threads", most).code == 0
    r = cli(*FIG2, "--threads", most + 1)
    assert r.code == ExitCode.USAGE and "per core" in r.stderr
    r = cli(*FIG2, "--threads", 100_000)
    assert r.code == ExitCode.USAGE and f"at most {most}" in r.stderr


@pytest.fixture(scope="module")
def wv1(tmp_path_factory) -> Path:
    """Data of BMS-WebView-1's size (60,000 transactions over 500 items), made here: the
    tests run on a clone with no ../shared/data beside it."""
    path = tmp_path_factory.mktemp("data") / "wv1_like.parquet"
    r = cli("synth", path, "-n", 60_000, "--items", 500, "--seed", 1, "--json")
    assert r.code == 0, r.stderr
    return path


def test_a_memory_limit_too_small_for_the_work_is_said_with_the_limit(wv1) -> None:
    r = cli("anonymize", wv1, "--fanout", 5, "-a", "aa", "-k", 10, "-m", 2,
            "--memory-limit", "20MB", "-q")  # fmt: skip
    assert r.code == ExitCode.RESOURCES, r.stderr
    assert "ran out of memory" in r.stderr and "--memory-limit" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_spill_files_at_their_cap_are_said_as_disk_not_memory(wv1, tmp_path, monkeypatch) -> None:
    # DuckDB reports its spill cap as an out-of-memory error; telling the analyst to raise
    # --memory-limit then sent a 10^8 run back with the same disk (the cap: free disk / 2)
    monkeypatch.setattr(limits, "spill_cap", lambda temp_dir, free=None: "1MiB")
    out = tmp_path / "out.csv"
    r = cli("anonymize", wv1, "--fanout", 5, "-a", "aa", "-k", 10, "-m", 2,
            "--memory-limit", "30MB", "--threads", 1, "-q", "-o", out)  # fmt: skip
    assert r.code == ExitCode.RESOURCES, r.stderr
    assert "spill files" in r.stderr and "cap of 1.0 MiB" in r.stderr, r.stderr
    assert "--temp-dir" in r.stderr and "ran out of memory" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def _file_size_limit() -> None:
    """A child process whose files may not grow past 50 kB, as on a full disk."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))


@pytest.mark.parametrize("output", ["out.csv", "out.parquet", "--sql-log=out.sql"])
def test_an_output_that_does_not_fit_on_disk_is_exit_5_and_leaves_nothing(wv1, tmp_path, output):
    target = ["-o", output] if not output.startswith("--") else [output]
    cmd = [sys.executable, "-m", "setanon_sql", "anonymize", str(wv1), "--fanout", "5", "-a",
           "partition", "-k", "10", "-q", *target]  # fmt: skip
    r = subprocess.run(
        cmd, cwd=tmp_path, preexec_fn=_file_size_limit, capture_output=True, text=True
    )
    assert r.returncode == ExitCode.RESOURCES, r.stderr
    assert "internal error" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_temp_dir_that_cannot_be_written_is_refused_before_any_work(tmp_path) -> None:
    not_a_folder = tmp_path / "file.txt"
    not_a_folder.write_text("x")
    r = cli(*FIG2, "--temp-dir", not_a_folder)
    assert r.code == ExitCode.INPUT and "not a folder" in r.stderr
    r = cli(*FIG2, "--temp-dir", "/proc")  # a file system nobody may write, root included
    assert r.code == ExitCode.INPUT and "not writable" in r.stderr
