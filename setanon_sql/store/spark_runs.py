"""The Spark runs of a local warehouse, read from their Parquet folders without a Spark
session: which there are (`setanon runs --spark-warehouse`) and the statements each ran
(`setanon sql --run R --spark-warehouse`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.log import Logged
from ..engine.spark_warehouse import ASIDE, STAGING, lock_held, lock_path
from ..errors import InputError

LOG_TITLE = "setanon-sql: statement log of Spark run {run}, as Spark SQL (replay is DuckDB-only)"


def run_folder(warehouse: str | Path, run: str) -> Path:
    """The folder of a Spark run's database in a local warehouse (Spark lower-cases database
    names); refuses a name that is not a folder of the warehouse or a database this tool did not
    make (no `run_info`)."""
    base = Path(warehouse).resolve()
    folder = base / f"{run.lower()}.db"
    if folder.parent != base or not (folder / "run_info").is_dir():
        raise InputError(f"no Spark run {run!r} of setanon-sql in warehouse {warehouse}")
    return folder


def list_runs(warehouse: str | Path) -> list[dict[str, Any]]:
    """The Spark runs of this tool in a local warehouse (databases with a `run_info`; a failed
    or interrupted run leaves none): each with its run_info and the tables it left, read from
    their Parquet folders without a Spark session."""
    import pyarrow.parquet as pq

    out = []
    for folder in sorted(Path(warehouse).glob("*.db")):
        tables = sorted(p.name for p in folder.iterdir() if p.is_dir())
        if folder.name.startswith(STAGING):
            out.append(staging_row(Path(warehouse), folder, tables))
        if folder.name.startswith((STAGING, ASIDE)) or not (folder / "run_info").is_dir():
            continue
        info = {r["key"]: r["value"] for r in pq.read_table(folder / "run_info").to_pylist()}
        name = folder.name.removesuffix(".db")
        out.append({"name": name, "status": "complete", **info, "tables": tables})
    return out


def staging_row(warehouse: Path, folder: Path, tables: list[str]) -> dict[str, Any]:
    """A staging folder as `runs` lists it: a run being made (its lock held by a live
    process), or stale, left by a killed one (`--replace` of its run removes it)."""
    run = folder.name.removesuffix(".db").removeprefix(STAGING)
    live = lock_held(lock_path(warehouse, run))
    status = "running" if live else "stale staging folder: --replace removes it"
    return {"name": run, "status": status, "staging": str(folder), "tables": tables}


def stored_log(warehouse: str | Path, run: str) -> list[Logged]:
    """A Spark run's `sql_log` table, read from its Parquet folder (no Spark session needed)."""
    import json

    import pyarrow.parquet as pq

    folder = run_folder(warehouse, run) / "sql_log"
    if not folder.is_dir():
        raise InputError(f"Spark run {run!r} has no sql_log table in {folder.parent}")
    rows = sorted(pq.read_table(folder).to_pylist(), key=lambda r: r["seq"])
    return [
        Logged(r["step"], r["sql"], json.loads(r["params"]) if r["params"] else None, r["seconds"])
        for r in rows
    ]


def log_script(warehouse: str | Path, run: str) -> str:
    """`setanon sql --run RUN --spark-warehouse DIR`: the run's statements as they ran on Spark."""
    from ..engine.log import replay_script

    return replay_script(stored_log(warehouse, run), title=LOG_TITLE.format(run=run))
