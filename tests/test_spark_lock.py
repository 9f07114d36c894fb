"""A Spark run holds a lock on its name while it lives (issue 40): `--replace` never deletes
the staging folder of a live run of another process, and a staging folder a SIGKILL left is
listed by `runs --spark-warehouse` as stale (and `--replace` removes it). Through the command
line, with exit codes."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from helpers.cli import EX, cli

from setanon_sql.engine.spark_warehouse import lock_path, take_lock
from setanon_sql.errors import ExitCode


def _staging(warehouse: Path, run: str) -> Path:
    """A staging folder as a run killed mid-way leaves it."""
    folder = warehouse / f"setanon_staging__{run}.db" / "release"
    folder.mkdir(parents=True)
    (folder / "part-0.parquet").write_bytes(b"half-written")
    return folder.parent


def _listed(warehouse: Path) -> dict[str, dict]:
    r = cli("runs", "--spark-warehouse", warehouse, "--json")
    assert r.code == 0, r.stderr
    return {row["name"]: row for row in r.json()}


def test_runs_lists_a_staging_folder_as_stale_or_running(tmp_path):
    warehouse = tmp_path / "wh"
    staged = _staging(warehouse, "r")
    row = _listed(warehouse)["r"]
    assert row["status"].startswith("stale") and row["staging"] == str(staged)
    held = take_lock(lock_path(warehouse, "r"))
    assert held is not None
    try:
        assert _listed(warehouse)["r"]["status"] == "running"
    finally:
        held.close()
    assert _listed(warehouse)["r"]["status"].startswith("stale")


@pytest.fixture
def fig2_parquet(tmp_path) -> Path:
    path = tmp_path / "fig2.parquet"
    con = duckdb.connect()
    con.execute(f"COPY (SELECT * FROM read_csv('{EX / 'fig2.csv'}')) TO '{path}' (FORMAT parquet)")
    con.close()
    return path


@pytest.mark.skipif(shutil.which("java") is None, reason="Spark needs a Java runtime")
def test_replace_leaves_a_live_runs_staging_folder_alone(tmp_path, fig2_parquet):
    warehouse = tmp_path / "wh"
    staged = _staging(warehouse, "r")
    args = ("anonymize", fig2_parquet, "-H", EX / "fig2_hierarchy.csv", "-a", "partition",
            "-k", 2, "--engine", "spark", "--run", "r", "--replace",
            "--spark-warehouse", warehouse, "-q")  # fmt: skip
    held = take_lock(lock_path(warehouse, "r"))  # a live run of another process
    assert held is not None
    try:
        r = cli(*args)
    finally:
        held.close()
    assert r.code == ExitCode.INPUT, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "another process" in r.stderr
    assert (staged / "release" / "part-0.parquet").read_bytes() == b"half-written"
    # its process gone (killed: the lock free), the folder is stale and --replace removes it
    r = cli(*args)
    assert r.code == 0, r.stderr
    assert sorted(p.name for p in warehouse.iterdir()) == ["r.db"]
    assert _listed(warehouse)["r"]["status"] == "complete"
