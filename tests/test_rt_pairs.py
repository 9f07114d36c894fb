"""The two-table layout of a table with a set column (issue 41): records and (key, item) rows,
in two files or two tables of one DuckDB file; the release in the same layout, labels as given
and keys renumbered in the release's order, verified; the same release as the one-table layout gives; and every problem of the
join one line with its exit code, nothing written and no earlier run lost."""

from __future__ import annotations

import tempfile
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp, select

from setanon_sql.engine.builders import render
from setanon_sql.errors import ExitCode
from setanon_sql.relational.rt import anonymize_rt
from setanon_sql.relational.rt_pairs import ItemRows
from setanon_sql.store.database import Store
from setanon_sql.store.hierarchy_spec import HierarchySpec
from tests.helpers.cli import cli, copied
from tests.helpers.rt_brute import problems

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
        "--db", tmp_path / "w.duckdb", "--drop", "note", *extra,
    )  # fmt: skip


def test_two_csv_files_give_two_files_worked_by_hand(tmp_path):
    """k=2, m=1, classes F {007, 8} and M {9, 10}. F: a twice, b once: b goes up to A, which
    covers a; M: c twice, d once: d up to B, covering c. Keys renumbered 1..4 in the order of
    the released rows (F before M; ties in input order, alike in every released value)."""
    records, rows = _files(tmp_path)
    out, out_rows = tmp_path / "o.csv", tmp_path / "o_rows.csv"
    r = _pairs(tmp_path, records, rows, "-o", out, "--items-output", out_rows, "--json")
    assert r.code == 0, r.stderr
    assert r.json()["verified"]["ok"] and r.json()["items_output"] == str(out_rows)
    assert out.read_text() == "id,sex\n1,F\n2,F\n3,M\n4,M\n"  # QIs already 2-anonymous
    assert out_rows.read_text() == "id,code\n1,A\n2,A\n3,B\n4,B\n"
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
        "--drop", "id",
    )  # fmt: skip
    assert r.code == 0, r.stderr
    out, out_rows = tmp_path / "o.parquet", tmp_path / "o_rows.parquet"
    r = _pairs(tmp_path, records, rows, "-o", out, "--items-output", out_rows, "-q")
    assert r.code == 0, r.stderr
    want = [
        (row["sex"], sorted(row["code"]))
        for row in pq.read_table(tmp_path / "one_out.parquet").to_pylist()
    ]
    codes: dict[int, list[str]] = {}
    for row in pq.read_table(out_rows).to_pylist():
        codes.setdefault(row["id"], []).append(row["code"])
    got = [(row["sex"], sorted(codes[row["id"]])) for row in pq.read_table(out).to_pylist()]
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
    assert pq.read_table(out).column("pid").to_pylist() == [1, 2, 3, 4]  # renumbered
    assert pq.read_table(out_rows).to_pylist() == [
        {"pid": 1, "code": "A"}, {"pid": 2, "code": "A"},
        {"pid": 3, "code": "B"}, {"pid": 4, "code": "B"},
    ]  # fmt: skip


@pytest.fixture(scope="module")
def earlier_run(tmp_path_factory) -> Path:
    """A database with the run `r` of the good files, made once for the module: each case
    replaces `r` in its own copy (the same run it made itself before)."""
    folder = tmp_path_factory.mktemp("earlier")
    records, rows = _files(folder)
    assert _pairs(folder, records, rows, "--run", "r", "-q").code == 0
    return folder


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
        ("pid,sex,note\n1,F,x\n", ROWS, "no key column 'id'"),
        (RECORDS, "id,item\n007,a\n", "no column 'code'"),
        ("id,sex,code,note\n1,F,x,y\n", ROWS, "already have a column 'code'"),
    ],
)
def test_a_bad_join_is_one_line_exit_3_and_nothing_is_lost(
    tmp_path, earlier_run, records, rows, says
):
    db = copied(earlier_run, tmp_path) / "w.duckdb"
    out, out_rows = tmp_path / "o.csv", tmp_path / "o_rows.csv"
    bad_records, bad_rows = tmp_path / "bad_rec.csv", tmp_path / "bad_rows.csv"
    bad_records.write_text(records)
    bad_rows.write_text(rows)
    r = _pairs(tmp_path, bad_records, bad_rows, "--run", "r", "--replace", "-o", out,
               "--items-output", out_rows)  # fmt: skip
    assert r.code == ExitCode.INPUT, (r.code, r.stderr)
    assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not out.exists() and not out_rows.exists()
    assert cli("verify", "--db", db, "--run", "r", "-q").code == 0  # the earlier run is kept


def test_the_rows_of_a_dropped_record_go_with_it(tmp_path):
    records, rows = _files(tmp_path, RECORDS + "11,?,v\n", ROWS + "11,a\n11,d\n")
    out, out_rows = tmp_path / "o.csv", tmp_path / "o_rows.csv"
    r = _pairs(tmp_path, records, rows, "--drop-missing", "?", "-o", out, "--items-output",
               out_rows)  # fmt: skip
    assert r.code == 0, r.stderr
    assert out.read_text() == "id,sex\n1,F\n2,F\n3,M\n4,M\n"
    assert out_rows.read_text() == "id,code\n1,A\n2,A\n3,B\n4,B\n"


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


QI_EDGES = {"x": [("0", "01"), ("1", "01"), ("2", "23"), ("3", "23"), ("01", "*"), ("23", "*")]}
ITEM_EDGES = (("a", "A"), ("b", "A"), ("c", "B"), ("d", "B"), ("A", "*"), ("B", "*"))
records = st.lists(
    st.tuples(
        st.sampled_from(["0", "1", "2", "3"]),
        st.sets(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=4),
    ),
    min_size=2,
    max_size=12,
)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=records, k=st.integers(1, 3), m=st.integers(1, 2), shuffle=st.randoms())
def test_random_item_rows_give_the_one_table_release_and_pass_brute_force(data, k, m, shuffle):
    """Records and item rows (in any order) against the same records with a text set column:
    the same released sets, record by record, and no (k, k^m) problem a brute force finds."""
    if k > len(data) or m > max(len(s) for _, s in data):
        return
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        (folder / "x.csv").write_text(
            "child,parent\n" + "".join(f"{c},{p}\n" for c, p in QI_EDGES["x"])
        )
        keys = [f"k{i:02d}" for i in range(len(data))]
        (folder / "rec.csv").write_text(
            "key,x\n" + "".join(f"{key},{x}\n" for key, (x, _) in zip(keys, data, strict=True))
        )
        pairs = [(key, i) for key, (_, s) in zip(keys, data, strict=True) for i in sorted(s)]
        shuffle.shuffle(pairs)
        (folder / "rows.csv").write_text("key,item\n" + "".join(f"{a},{b}\n" for a, b in pairs))
        one = {
            "key": keys, "x": [x for x, _ in data],
            "item": [";".join(sorted(s)) for _, s in data],
        }  # fmt: skip
        common = {
            "qi": ["x"], "taxonomies": {"x": str(folder / "x.csv")}, "items": "item",
            "hierarchy": HierarchySpec(edges=ITEM_EDGES), "k": k, "m": m, "mine_beam": None,
        }  # fmt: skip
        store = Store()
        a = anonymize_rt(store, one, drop=["key"], **common)
        b = anonymize_rt(
            store, folder / "rec.csv", item_rows=ItemRows("key", path=folder / "rows.csv"),
            run_name="pairs", **common,
        )  # fmt: skip
        assert a.report.ok and b.report.ok
        got = {}
        for run, is_list in ((a.run, False), (b.run, True)):
            store.point(run=run)
            rows = store.arrow(
                render(select(exp.column("rid"), exp.column("x"), exp.column("item"))
                       .from_("table_release").order_by("rid"))
            ).to_pylist()  # fmt: skip
            got[run] = {  # the same rows in both: read in the same order
                r["rid"]: (r["x"], sorted(r["item"] if is_list else r["item"].split(";")))
                for r in rows
            }
        assert got[a.run] == got[b.run]
        original = [{"x": x, "items": s} for x, s in data]
        released = [
            {"x": x, "items": set(s)} for x, s in (got[b.run][i] for i in sorted(got[b.run]))
        ]
        assert problems(
            original, released, qi=["x"], qi_edges=QI_EDGES, items="items",
            item_edges=ITEM_EDGES, k=k, m=m,
        ) == []  # fmt: skip
