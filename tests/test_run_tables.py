"""Tables that `report` and `evaluate` write into a stored run's schema are the tool's: a later
`--replace` of the run drops them with it, and a user's own table there is never adopted nor
overwritten (issue 40, item 7). Each case goes through the command line, with its exit code."""

from __future__ import annotations

from pathlib import Path

import duckdb
from helpers.cli import cli, fig2

from setanon_sql.errors import ExitCode

KM = ("-a", "aa", "-k", 2, "-m", 2)


def _anonymize(db: Path, *extra: object) -> int:
    return fig2("anonymize", *KM, "--db", db, "--run", "r", "-q", *extra).code


def _table_run(tmp_path: Path, db: Path) -> tuple[object, ...]:
    table = tmp_path / "t.csv"
    table.write_text("sex,age\nF,30\nM,31\nF,32\nM,33\n")
    sex = tmp_path / "sex.csv"
    sex.write_text("child,parent\nF,*\nM,*\n")
    base = ("anonymize-table", table, "--qi", "sex", "-t", f"sex={sex}", "-k", 2)
    base += ("--db", db, "--run", "t", "--drop", "age", "-q")
    assert cli(*base).code == 0
    return base


def _user_table(db: Path, schema: str, table: str) -> None:
    con = duckdb.connect(str(db))
    con.execute(f'CREATE TABLE "{schema}"."{table}" AS SELECT 42 AS mine')
    con.close()


def _user_rows(db: Path, schema: str, table: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f'SELECT * FROM "{schema}"."{table}"').fetchall()
    finally:
        con.close()


def test_a_reported_run_can_be_replaced(tmp_path):
    db = tmp_path / "w.duckdb"
    assert _anonymize(db) == 0
    r = cli("report", "--db", db, "--run", "r", "-o", tmp_path / "r.html")
    assert r.code == 0, r.stderr
    assert _anonymize(db, "--replace") == 0
    assert cli("verify", "--db", db, "--run", "r", "-q").code == 0


def test_an_evaluated_table_run_can_be_replaced(tmp_path):
    db = tmp_path / "w.duckdb"
    base = _table_run(tmp_path, db)
    r = cli("evaluate", "--db", db, "--run", "t", "--queries", 20, "--json")
    assert r.code == 0, r.stderr
    r = cli(*base, "--replace")
    assert r.code == 0, r.stderr


def test_a_failed_evaluation_leaves_nothing_that_blocks_replace(tmp_path):
    db = tmp_path / "w.duckdb"
    base = _table_run(tmp_path, db)
    r = cli("evaluate", "--db", db, "--run", "t", "--sensitive", "nope", "--json")
    assert r.code == ExitCode.USAGE and "--sensitive" in r.stderr  # after its queries ran
    r = cli(*base, "--replace")
    assert r.code == 0, r.stderr


def test_evaluate_never_adopts_a_users_table_in_the_run(tmp_path):
    db = tmp_path / "w.duckdb"
    assert _anonymize(db) == 0
    _user_table(db, "r", "notes")
    r = cli("evaluate", "--db", db, "--run", "r", "--queries", 20, "--targets", 20, "--json")
    assert r.code == 0, r.stderr
    r = fig2("anonymize", *KM, "--db", db, "--run", "r", "-q", "--replace")
    assert r.code == ExitCode.USAGE and "notes" in r.stderr
    assert _user_rows(db, "r", "notes") == [(42,)]


def test_evaluate_never_overwrites_a_users_eval_table(tmp_path):
    db = tmp_path / "w.duckdb"
    assert _anonymize(db) == 0
    _user_table(db, "r", "eval_queries")
    r = cli("evaluate", "--db", db, "--run", "r", "--queries", 20, "--json")
    assert r.code == ExitCode.USAGE and "eval_queries" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert _user_rows(db, "r", "eval_queries") == [(42,)]
