"""The two-table layout of a table with a set column (issue 41): records and (key, item) rows,
in two files or two tables of one DuckDB file; the release in the same layout, keys and labels
as given, verified; the same release as the one-table layout gives; and every problem of the
join one line with its exit code, nothing written and no earlier run lost."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from setanon_sql.errors import ExitCode
from tests.helpers.cli import cli

TREE = "child,parent\na,A\nb,A\nc,B\nd,B\nA,*\nB,*\n"
RECORDS = "id,sex,note\n007,F,x\n8,F,y\n9,M,z\n10,M,w\n"
ROWS = "id,code\n007,a\n007,b\n8,a\n9,c\n10,c\n10,d\n"


def _files(tmp_path, records=RECORDS, rows=ROWS):
    (tmp_path / "h.csv").write_text(TREE)
    (tmp_path / "rec.csv").write_text(records)
    (tmp_path / "rows.csv").write_text(rows)
    return tmp_path / "rec.csv", tmp_path / "rows.csv"


def _pairs(tmp_path, records, rows, *extra):
    return cli(
        "anonymize-rt", records, "--qi", "sex", "-t", "sex=suppress", "--items", "code",
        "--items-table", rows, "--key", "id", "-H", tmp_path / "h.csv", "-k", 2, "-m", 1,
        "--db", tmp_path / "w.duckdb", *extra,
    )  # fmt: skip


def test_two_csv_files_give_two_files_worked_by_hand(tmp_path):
    """k=2, m=1, classes F {007, 8} and M {9, 10}. F: a twice, b once: b goes up to A, which
    covers a; M: c twice, d once: d up to B, covering c. Keys as given ('007' stays)."""
    records, rows = _files(tmp_path)
    out, out_rows = tmp_path / "o.csv", tmp_path / "o_rows.csv"
    r = _pairs(tmp_path, records, rows, "-o", out, "--items-output", out_rows, "--json")
    assert r.code == 0, r.stderr
    assert r.json()["verified"]["ok"] and r.json()["items_output"] == str(out_rows)
    assert out.read_text() == RECORDS  # QIs already 2-anonymous, other columns as they were
    assert out_rows.read_text() == "id,code\n007,A\n8,A\n9,B\n10,B\n"
    r = cli("verify", "--db", tmp_path / "w.duckdb", "--run", r.json()["run"], "-q")
    assert r.code == 0, r.stderr


def test_the_same_release_as_one_table_with_a_list(tmp_path):
    """The two layouts of the same data give the same released sets."""
    records, rows = _files(tmp_path)
    one = tmp_path / "one.parquet"
    pq.write_table(
        pa.table({"id": ["007", "8", "9", "10"], "sex": ["F", "F", "M", "M"],
                  "code": [["a", "b"], ["a"], ["c"], ["c", "d"]]}), one,
    )  # fmt: skip
    r = cli(
        "anonymize-rt", one, "--qi", "sex", "-t", "sex=suppress", "--items", "code",
        "-H", tmp_path / "h.csv", "-k", 2, "-m", 1, "-o", tmp_path / "one_out.parquet", "-q",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    out, out_rows = tmp_path / "o.parquet", tmp_path / "o_rows.parquet"
    r = _pairs(tmp_path, records, rows, "-o", out, "--items-output", out_rows, "-q")
    assert r.code == 0, r.stderr
    want = {
        row["id"]: sorted(row["code"])
        for row in pq.read_table(tmp_path / "one_out.parquet").to_pylist()
    }
    got: dict[str, list[str]] = {}
    for row in pq.read_table(out_rows).to_pylist():
        got.setdefault(row["id"], []).append(row["code"])
    assert got == want


def test_two_tables_of_one_duckdb_file(tmp_path):
    (tmp_path / "h.csv").write_text(TREE)
    src = tmp_path / "src.duckdb"
    with duckdb.connect(str(src)) as c:
        c.execute("CREATE TABLE patients AS SELECT * FROM (VALUES (10, 'F'), (20, 'F'), "
                  "(30, 'M'), (40, 'M')) t(pid, sex)")  # fmt: skip
        c.execute("CREATE TABLE codes AS SELECT * FROM (VALUES (10, 'a'), (10, 'b'), (20, 'a'), "
                  "(30, 'c'), (40, 'c'), (40, 'd')) t(pid, code)")  # fmt: skip
    out, out_rows = tmp_path / "o.parquet", tmp_path / "o_rows.parquet"
    r = cli(
        "anonymize-rt", src, "--table", "patients", "--qi", "sex", "-t", "sex=suppress",
        "--items", "code", "--items-table", "codes", "--key", "pid", "-H", tmp_path / "h.csv",
        "-k", 2, "-m", 1, "-o", out, "--items-output", out_rows, "--db", tmp_path / "w.duckdb",
        "-q",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    assert pq.read_table(out).column("pid").to_pylist() == [10, 20, 30, 40]  # integers still
    assert pq.read_table(out_rows).to_pylist() == [
        {"pid": 10, "code": "A"}, {"pid": 20, "code": "A"},
        {"pid": 30, "code": "B"}, {"pid": 40, "code": "B"},
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("records", "rows", "says"),
    [
        (RECORDS, ROWS + "11,a\n", "key(s) have no record"),
        (RECORDS + "12,F,v\n", ROWS, "record(s) have no item rows"),
        (RECORDS, ROWS + "8,a\n", "repeat an earlier one"),
        (RECORDS + "8,M,v\n", ROWS, "repeats 1 key(s)"),
        (RECORDS + ",M,v\n", ROWS, "have no key"),
        (RECORDS, ROWS + "8,\n", "no key or no item"),
        (RECORDS, ROWS + "8,z\n", "no leaf of the hierarchy"),
        ("pid,sex\n1,F\n", ROWS, "no key column 'id'"),
        (RECORDS, "id,item\n007,a\n", "no column 'code'"),
        ("id,sex,code\n1,F,x\n", ROWS, "already have a column 'code'"),
    ],
)
def test_a_bad_join_is_one_line_exit_3_and_nothing_is_lost(tmp_path, records, rows, says):
    good_records, good_rows = _files(tmp_path)
    db = tmp_path / "w.duckdb"
    out, out_rows = tmp_path / "o.csv", tmp_path / "o_rows.csv"
    assert _pairs(tmp_path, good_records, good_rows, "--run", "r", "-q").code == 0
    bad_records, bad_rows = tmp_path / "bad_rec.csv", tmp_path / "bad_rows.csv"
    bad_records.write_text(records)
    bad_rows.write_text(rows)
    r = _pairs(tmp_path, bad_records, bad_rows, "--run", "r", "--replace", "-o", out,
               "--items-output", out_rows)  # fmt: skip
    assert r.code == ExitCode.INPUT, (r.code, r.stderr)
    assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not out.exists() and not out_rows.exists()
    assert cli("verify", "--db", db, "--run", "r", "-q").code == 0  # the earlier run is kept


def test_item_rows_of_non_text_items_are_refused(tmp_path):
    records, _ = _files(tmp_path)
    rows = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"id": ["007", "8", "9", "10"], "code": [1, 1, 2, 2]}), rows)
    r = _pairs(tmp_path, records, rows)
    assert r.code == ExitCode.INPUT and "must be text" in r.stderr, r.stderr


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (("--items-sep", ","), "--items-sep"),
        (("-o", "{d}/o.csv"), "two files"),
        (("--items-output", "{d}/o.csv"), "two files"),
        (("-o", "{d}/o.csv", "--items-output", "{d}/o.csv"), "names an input"),
        (("-o", "{d}/o.csv", "--items-output", "{d}/rows.csv"), "names an input"),
        (("--qi", "id"), "both the key"),
    ],
)
def test_options_that_do_not_fit_two_tables_are_refused(tmp_path, extra, says):
    records, rows = _files(tmp_path)
    r = _pairs(tmp_path, records, rows, *[str(a).format(d=tmp_path) for a in extra])
    assert r.code == ExitCode.USAGE, (r.code, r.stderr)
    assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize(
    "extra",
    [("--key", "id"), ("--items-table", "x.csv"), ("--items-output", "o.csv")],
)
def test_two_table_options_need_item_rows(tmp_path, extra):
    records, _ = _files(tmp_path)
    r = cli(
        "anonymize-rt", records, "--qi", "sex", "-t", "sex=suppress", "--items", "code",
        "-H", tmp_path / "h.csv", *extra,
    )  # fmt: skip
    assert r.code == ExitCode.USAGE and len(r.stderr.strip().splitlines()) == 1, r.stderr
