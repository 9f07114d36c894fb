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


# -- item 4: a byte order mark is no part of the first item ---------------------------------------------------
@pytest.mark.parametrize("fmt", list(SOURCES))
def test_a_bom_is_not_part_of_the_first_item(tmp_path, fmt):
    name, text, expected = SOURCES[fmt]
    src = write(tmp_path / name, BOM + text.encode())
    out = tmp_path / "rel.csv"
    code, err = anonymize(src, out, *EXACT)
    assert code == ExitCode.OK, err
    assert release(out) == expected


def test_a_bom_costs_no_information_loss(tmp_path):
    # the file: two equal transactions; with a BOM they were {'\ufeffa', b} and {a, b}
    src = write(tmp_path / "t.txt", BOM + b"a b\na b\n")
    r = cli("anonymize", src, "-a", "partition", "-k", 2, "--fanout", 2, "--json", "-q")
    assert r.code == ExitCode.OK, r.stderr
    assert r.json()["ncp"] == 0


HIERARCHIES = {
    "csv": "child,parent\nX,ALL\nY,ALL\ncafé,X\na,X\nb,Y\nc,Y\n",
    "csv-no-header": "X,ALL\nY,ALL\ncafé,X\na,X\nb,Y\nc,Y\n",
    "paths": "café;X;ALL\na;X;ALL\nb;Y;ALL\nc;Y;ALL\n",
}


@pytest.mark.parametrize("kind", list(HIERARCHIES))
def test_a_bom_in_a_hierarchy_file_is_dropped(tmp_path, kind):
    src = write(tmp_path / "t.txt", LINES.encode())
    tree = write(tmp_path / "h.txt", BOM + HIERARCHIES[kind].encode())
    out = tmp_path / "rel.csv"
    code, err = anonymize(src, out, "-a", "partition", "-k", 1, "-H", tree)
    assert code == ExitCode.OK, err
    assert release(out) == LINES_RELEASE
    r = cli("hierarchy", "check", tree, "--json")
    assert r.code == ExitCode.OK and r.json()["root"] == "ALL" and r.json()["leaves"] == 4


TABLE = "age,zip\n30,café\n31,café\n40,b\n41,b\n42,b\n"
TAXONOMY = "child,parent\ncafé,ALL\nb,ALL\n"


def anonymize_table(src: Path, out: Path, *args: object) -> tuple[int, str]:
    r = cli(
        "anonymize-table", src, "--qi", "age", "--qi", "zip", "-t", "age=fanout:2", "-k", 2,
        *args, "-o", out, "-q",
    )  # fmt: skip
    return r.code, r.stderr


@pytest.mark.parametrize("bom_in", ["table", "taxonomy"])
def test_a_bom_in_a_table_or_taxonomy_is_dropped(tmp_path, bom_in):
    plain_t = write(tmp_path / "plain.csv", TABLE.encode())
    plain_x = write(tmp_path / "plain_tax.csv", TAXONOMY.encode())
    code, err = anonymize_table(plain_t, tmp_path / "want.csv", "-t", f"zip={plain_x}")
    assert code == ExitCode.OK, err
    table = write(tmp_path / "t.csv", BOM + TABLE.encode()) if bom_in == "table" else plain_t
    tax = write(tmp_path / "x.csv", BOM + TAXONOMY.encode()) if bom_in == "taxonomy" else plain_x
    code, err = anonymize_table(table, tmp_path / "got.csv", "-t", f"zip={tax}")
    assert code == ExitCode.OK, err
    assert (tmp_path / "got.csv").read_text() == (tmp_path / "want.csv").read_text()
    assert "café" in (tmp_path / "got.csv").read_text()


# -- item 10: gzip'd inputs are read as what they hold ----------------------------------------------------------
@pytest.mark.parametrize("fmt", list(SOURCES))
@pytest.mark.parametrize("named", ["suffix", "content"])
def test_a_gzipd_input_is_read_by_its_content(tmp_path, fmt, named):
    name, text, expected = SOURCES[fmt]
    src = tmp_path / (f"{name}.gz" if named == "suffix" else name)  # x.csv.gz: a CSV file
    write(src, BOM + text.encode(), gz=True)
    out = tmp_path / "rel.csv"
    code, err = anonymize(src, out, *EXACT)
    assert code == ExitCode.OK, err
    assert release(out) == expected


@pytest.mark.parametrize("kind", list(HIERARCHIES))
def test_a_gzipd_hierarchy_is_read(tmp_path, kind):
    src = write(tmp_path / "t.txt.gz", LINES.encode(), gz=True)
    tree = write(tmp_path / "h.csv.gz", HIERARCHIES[kind].encode(), gz=True)
    out = tmp_path / "rel.csv"
    code, err = anonymize(src, out, "-a", "partition", "-k", 1, "-H", tree)
    assert code == ExitCode.OK, err
    assert release(out) == LINES_RELEASE


def test_a_gzipd_table_and_taxonomy_are_read(tmp_path):
    plain_t = write(tmp_path / "plain.csv", TABLE.encode())
    plain_x = write(tmp_path / "plain_tax.csv", TAXONOMY.encode())
    code, err = anonymize_table(plain_t, tmp_path / "want.csv", "-t", f"zip={plain_x}")
    assert code == ExitCode.OK, err
    table = write(tmp_path / "t.csv", TABLE.encode(), gz=True)  # gzip'd, though named .csv
    tax = write(tmp_path / "x.csv.gz", TAXONOMY.encode(), gz=True)
    code, err = anonymize_table(table, tmp_path / "got.csv", "-t", f"zip={tax}")
    assert code == ExitCode.OK, err
    assert (tmp_path / "got.csv").read_text() == (tmp_path / "want.csv").read_text()


def test_a_gzipd_parquet_file_is_refused(tmp_path):
    pq = tmp_path / "t.parquet"
    duckdb.connect().execute("COPY (SELECT 1 AS tid, 'a' AS item) TO ? (FORMAT parquet)", [str(pq)])
    src = write(tmp_path / "t.parquet.gz", pq.read_bytes(), gz=True)
    r = cli("anonymize", src, *EXACT, "-q")
    assert r.code == ExitCode.INPUT
    assert r.stderr.strip() == f"error: {src} is gzip'd: decompress it to read it as parquet"


# -- item 10: other encodings than UTF-8 --------------------------------------------------------------------------
def not_utf8(path: Path, line: int, column: int, option: str = "--encoding") -> str:
    return (
        f"error: {path}: line {line} is not UTF-8 text (byte 0xe9 at column {column}); give the "
        f"file's encoding with {option}, e.g. {option} latin-1"
    )


@pytest.mark.parametrize("fmt", ["lines", "csv"])
@pytest.mark.parametrize("gz", [False, True])
def test_a_latin1_input_names_its_line_and_reads_with_encoding(tmp_path, fmt, gz):
    name, text, expected = SOURCES[fmt]
    src = write(tmp_path / name, text.encode("latin-1"), gz=gz)
    out = tmp_path / "rel.csv"
    code, err = anonymize(src, out, *EXACT)
    assert code == ExitCode.INPUT
    line, column = (1, 4) if fmt == "lines" else (2, 8)  # the first é
    assert err.strip() == not_utf8(src.resolve(), line, column)
    assert not out.exists()
    code, err = anonymize(src, out, *EXACT, "--encoding", "latin-1")
    assert code == ExitCode.OK, err
    assert release(out) == expected  # the release file is UTF-8: 'café' as the source means it


@pytest.mark.parametrize("fmt", list(SOURCES))
def test_a_utf16_input_reads_with_encoding(tmp_path, fmt):
    name, text, expected = SOURCES[fmt]
    src = write(tmp_path / name, text.encode("utf-16"))
    out = tmp_path / "rel.csv"
    code, err = anonymize(src, out, *EXACT, "--encoding", "utf-16")
    assert code == ExitCode.OK, err
    assert release(out) == expected


def test_a_latin1_hierarchy_names_its_line_and_reads_with_encoding(tmp_path):
    src = write(tmp_path / "t.txt", LINES.encode("latin-1"))
    tree = write(tmp_path / "h.csv", HIERARCHIES["csv"].encode("latin-1"))
    out = tmp_path / "rel.csv"
    args = ("-a", "partition", "-k", 1, "-H", tree, "--encoding", "latin-1")
    code, err = anonymize(src, out, *args)
    assert code == ExitCode.INPUT
    assert err.strip() == not_utf8(tree, 4, 4, "--hierarchy-encoding")
    code, err = anonymize(src, out, *args, "--hierarchy-encoding", "latin-1")
    assert code == ExitCode.OK, err
    assert release(out) == LINES_RELEASE
    r = cli("hierarchy", "show", tree, "--hierarchy-encoding", "latin1")
    assert r.code == ExitCode.OK and "café" in r.stdout


def test_a_latin1_table_and_taxonomy_read_with_encoding(tmp_path):
    table = write(tmp_path / "t.csv", TABLE.encode("latin-1"))
    tax = write(tmp_path / "x.csv", TAXONOMY.encode("latin-1"))
    out = tmp_path / "rel.csv"
    code, err = anonymize_table(table, out, "-t", "zip=suppress")
    assert code == ExitCode.INPUT
    assert err.strip() == not_utf8(table, 2, 7)
    code, err = anonymize_table(table, out, "-t", f"zip={tax}", "--encoding", "latin-1")
    assert code == ExitCode.OK, err
    assert "café" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("t.txt", "--encoding", "klingon"), "--encoding 'klingon': unknown encoding"),
        (("t.txt", "--encoding", "base64"), "--encoding 'base64' is not a text encoding"),
        (("t.csv", "--encoding", "cp1252"), "--encoding cp1252: a CSV input is read by DuckDB"),
        (("t.parquet", "--encoding", "latin-1"), "--encoding applies to text inputs"),
        (("t.parquet", "--engine", "spark", "--encoding", "latin-1"), "--encoding applies to"),
        (("t.txt", "--hierarchy-encoding", "latin-1"), "--hierarchy-encoding applies to a"),
    ],
)
def test_an_encoding_that_cannot_act_is_refused(tmp_path, args, message):
    write(tmp_path / "t.txt", LINES.encode())
    write(tmp_path / "t.csv", CSV.encode())
    pq = tmp_path / "t.parquet"
    duckdb.connect().execute("COPY (SELECT 1 AS tid, 'a' AS item) TO ? (FORMAT parquet)", [str(pq)])
    name, *rest = args
    r = cli("anonymize", tmp_path / name, "-a", "partition", "-k", 1, "--fanout", 2, *rest, "-q")
    assert r.code == ExitCode.USAGE, r.stderr
    assert r.stderr.startswith(f"error: {message}") and len(r.stderr.strip().splitlines()) == 1


def test_a_gzipd_latin1_line_file_replays(tmp_path):
    """A file decoded in Python reaches DuckDB as text, which the log keeps: the run's script
    rebuilds it on a fresh DuckDB without the file."""
    src = write(tmp_path / "t.txt.gz", LINES.encode("latin-1"), gz=True)
    db = tmp_path / "w.duckdb"
    r = cli("anonymize", src, *EXACT, "--encoding", "latin-1", "--db", db, "--json", "-q")
    assert r.code == ExitCode.OK, r.stderr
    script = cli("sql", "--db", db, "--run", r.json()["run"]).stdout
    src.unlink()
    fresh = duckdb.connect()
    fresh.execute(script)
    query = f"SELECT tid, node FROM {r.json()['run']}.release ORDER BY ALL"
    con = duckdb.connect(str(db), read_only=True)
    assert fresh.execute(query).fetchall() == con.execute(query).fetchall()
    labels = "SELECT DISTINCT label FROM setanon_d1.tx_raw ORDER BY label"
    assert fresh.execute(labels).fetchall() == [("a",), ("b",), ("c",), ("café",)]


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
