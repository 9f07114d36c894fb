"""Issue 26, items 4 and 10: inputs as users have them. A byte order mark, gzip, another
encoding than UTF-8, nested Parquet columns and a --db named main.duckdb, each through the
command line with its exit code; ids and labels come back exactly as the source holds them."""

from __future__ import annotations

import gzip
from pathlib import Path

import duckdb
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
