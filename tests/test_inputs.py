"""Issue 26, items 4 and 10: inputs as users have them. A byte order mark, gzip, another
encoding than UTF-8, nested Parquet columns and a --db named main.duckdb, each through the
command line with its exit code; ids and labels come back exactly as the source holds them."""

from __future__ import annotations

import gzip
from pathlib import Path

import duckdb
import pytest
from cli_helpers import cli

from setanon_sql.errors import ExitCode

BOM = b"\xef\xbb\xbf"
# k = 1 releases every leaf unchanged: the release must then be the input, id for id.
EXACT = ("-a", "partition", "-k", 1, "--fanout", 2)

LINES = "café b\nb c a\na café\n"
LINES_RELEASE = {("0", "café"), ("0", "b"), ("1", "b"), ("1", "c"), ("1", "a")}
LINES_RELEASE |= {("2", "a"), ("2", "café")}
SPMF = "10307 -1 10311 -1 -2\n10311 -1 -2\n10307 -1 -2\n"
SPMF_RELEASE = {("0", "10307"), ("0", "10311"), ("1", "10311"), ("2", "10307")}
CSV = "tid,item\n007,café\n007,b\n7,b\n7, c\n"
CSV_RELEASE = {("007", "café"), ("007", "b"), ("7", "b"), ("7", " c")}
SOURCES = {
    "lines": ("t.txt", LINES, LINES_RELEASE),
    "spmf": ("t.dat", SPMF, SPMF_RELEASE),
    "csv": ("t.csv", CSV, CSV_RELEASE),
}


def release(path: Path) -> set[tuple[str, str]]:
    """A long release file's (tid, item) rows, as text."""
    con = duckdb.connect()
    sql = "SELECT tid, item FROM read_csv(?, header = true, all_varchar = true)"
    return set(con.execute(sql, [str(path)]).fetchall())


def write(path: Path, data: bytes, *, gz: bool = False) -> Path:
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def anonymize(src: Path, out: Path, *args: object) -> tuple[int, str]:
    r = cli("anonymize", src, *args, "-o", out, "-q")
    return r.code, r.stderr


# -- item 10: nested Parquet columns are refused ----------------------------------------------------------------
NESTED = {
    "struct": ("{'a': 'x', 'b': 1}", "STRUCT(a VARCHAR, b INTEGER)"),
    "map": ("map(['k'], ['v'])", "MAP(VARCHAR, VARCHAR)"),
    "list of struct": ("[{'a': 'x'}]", "STRUCT(a VARCHAR)[]"),
    "list of list": ("[[1, 2]]", "INTEGER[][]"),
}


def parquet(path: Path, select: str) -> Path:
    duckdb.connect().execute(f"COPY ({select}) TO ? (FORMAT parquet)", [str(path)])
    return path


@pytest.mark.parametrize("kind", list(NESTED))
def test_a_nested_item_column_is_refused(tmp_path, kind):
    value, shown = NESTED[kind]
    src = parquet(tmp_path / "t.parquet", f"SELECT range AS tid, {value} AS item FROM range(3)")
    r = cli("anonymize", src, *EXACT, "-q")
    assert r.code == ExitCode.INPUT
    assert r.stderr.strip() == (
        f"error: {src}: column 'item' has nested type {shown}; an item column must be a scalar "
        "(text, number, date...) or a list of scalars"
    )


def test_a_nested_column_of_a_duckdb_table_is_refused(tmp_path):
    src = tmp_path / "src.duckdb"
    con = duckdb.connect(str(src))
    con.execute("CREATE TABLE b AS SELECT range AS tid, union_value(n := 2) AS item FROM range(3)")
    con.close()
    r = cli("anonymize", src, "--table", "b", *EXACT, "-q")
    assert r.code == ExitCode.INPUT
    assert r.stderr.startswith(f"error: {src}: column 'item' has nested type UNION(n INTEGER);")


def test_a_nested_tid_and_a_nested_table_column_are_refused(tmp_path):
    src = parquet(tmp_path / "t.parquet", "SELECT {'id': range} AS tid, 'a' AS item FROM range(3)")
    r = cli("anonymize", src, *EXACT, "-q")
    assert r.code == ExitCode.INPUT and "column 'tid' has nested type STRUCT(id BIGINT)" in r.stderr
    table = parquet(tmp_path / "p.parquet", "SELECT range AS age, {'z': 'a'} AS zip FROM range(4)")
    r = cli("anonymize-table", table, "--qi", "age", "--qi", "zip", "-t", "age=fanout:2",
            "-t", "zip=suppress", "-k", 2, "-q")  # fmt: skip
    assert r.code == ExitCode.INPUT
    assert "column 'zip' has nested type STRUCT(z VARCHAR)" in r.stderr


def test_an_array_of_items_is_read_as_a_list(tmp_path):
    # Parquet stores an ARRAY as a LIST; a DuckDB table keeps VARCHAR[2], once cast to text
    src = tmp_path / "src.duckdb"
    con = duckdb.connect(str(src))
    con.execute("CREATE TABLE l AS SELECT 'x' AS tid, ['a', 'b'] AS items")
    con.execute("CREATE TABLE a AS SELECT 'x' AS tid, ['a', 'b']::VARCHAR[2] AS items")
    con.close()
    for table in ("l", "a"):
        out = tmp_path / f"{table}.csv"
        code, err = anonymize(src, out, "--table", table, *EXACT, "--item-col", "items")
        assert code == ExitCode.OK, err
        assert release(out) == {("x", "a"), ("x", "b")}


# -- item 10: --db main.duckdb ----------------------------------------------------------------------------------
def test_a_db_named_main_works(tmp_path):
    db = tmp_path / "main.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE baskets AS SELECT * FROM (VALUES ('t1', 'a'), ('t1', 'b'), "
                "('t2', 'a'), ('t2', 'b')) v(tid, item)")  # fmt: skip
    con.close()
    r = cli("anonymize", db, "--table", "main.main.baskets", "--db", db, "-a", "partition",
            "-k", 2, "--fanout", 2, "--output-table", "main.main.rel", "--json", "-q")  # fmt: skip
    assert r.code == ExitCode.OK, r.stderr
    src = write(tmp_path / "t.csv", CSV.encode())
    r = cli("anonymize", src, "--db", db, *EXACT, "--json", "-q")
    assert r.code == ExitCode.OK, r.stderr
    run = r.json()["run"]
    runs = cli("runs", "--db", db, "--json")
    assert runs.code == ExitCode.OK and len(runs.json()) == 2
    assert cli("verify", "--db", db, "--run", run).code == ExitCode.OK
    script = cli("sql", "--db", db, "--run", run)
    assert script.code == ExitCode.OK
    fresh = duckdb.connect()
    fresh.execute(script.stdout)
    con = duckdb.connect(str(db), read_only=True)
    query = f"SELECT tid, node FROM {run}.release ORDER BY ALL"
    assert fresh.execute(query).fetchall() == con.execute(query).fetchall()
    assert sorted(con.execute("SELECT tid, item FROM main.rel").fetchall()) == [
        ("t1", "a"), ("t1", "b"), ("t2", "a"), ("t2", "b"),
    ]  # fmt: skip
    assert con.execute("SELECT count(*) FROM main.baskets").fetchone() == (4,)
