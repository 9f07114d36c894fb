"""The search path after a scratch read: a scratch `set_path` makes the connection's memory
catalog the current one, so a later ordinary `set_path` must still find (and create in) the
database file's schemas, not schemas of the same name in memory; and what it logs stays the
bare names a replay on another file resolves."""

from __future__ import annotations

from pathlib import Path

from setanon_sql.engine.duckdb import Executor


def opened(tmp_path: Path) -> Executor:
    ex = Executor(tmp_path / "work.duckdb")
    ex.execute('CREATE SCHEMA "r1"', step="create_schema")
    ex.execute('CREATE TABLE "r1"."t" AS SELECT 1 AS a', step="t")
    return ex


def where(ex: Executor, table: str) -> list[tuple[str, str]]:
    return ex.con.execute(
        "SELECT database_name, schema_name FROM duckdb_tables() WHERE table_name = ?", [table]
    ).fetchall()


def test_a_run_is_found_after_a_scratch_read_and_a_return_to_main(tmp_path: Path) -> None:
    ex = opened(tmp_path)
    try:
        ex.set_path("r1", scratch=True)
        ex.set_path("main")  # `Store.point()` with no run: the database's own main
        ex.execute('CREATE TABLE "made_in_main" AS SELECT 2 AS b', step="made")
        ex.set_path("r1")
        assert ex.con.execute('SELECT a FROM "t"').fetchall() == [(1,)]
        ex.execute('CREATE TABLE "made_in_run" AS SELECT 3 AS c', step="made")
        assert where(ex, "made_in_main") == [("work", "main")]  # in the file, not in memory
        assert where(ex, "made_in_run") == [("work", "r1")]
    finally:
        ex.close()


def test_the_logged_search_path_of_a_run_names_no_catalog(tmp_path: Path) -> None:
    ex = opened(tmp_path)
    try:
        ex.set_path("r1", scratch=True)
        ex.set_path("main")
        ex.set_path("r1")
        logged = [e.sql for e in ex.log if e.step == "search_path"]
        assert logged[-2:] == ["SET search_path = '\"main\"'", "SET search_path = '\"r1\"'"]
    finally:
        ex.close()
