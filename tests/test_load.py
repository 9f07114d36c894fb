"""Loading transactions from every supported source, and the clear errors on bad input."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from helpers.papers import AB_TREE
from helpers.stores import make_store

from setanon_sql import HierarchyError, HierarchySpec, InputError, Store, open_store
from setanon_sql.api import load

DATA = Path(__file__).parent / "data"


def test_spmf_crlf_and_line_numbers(tmp_path):
    p = tmp_path / "t.txt"
    p.write_bytes(b"5 -1 7 -1 -2\r\n7 -1 -2\r\n")
    s = Store()
    summary = load(s, p)
    assert summary.format == "spmf" and summary.transactions == 2 and summary.occurrences == 3
    assert s.query("SELECT tid, label FROM tx_raw ORDER BY tid, label") == [
        (0, "5"),
        (0, "7"),
        (1, "7"),
    ]


def test_lines_format_and_duplicates_collapse(tmp_path):
    p = tmp_path / "t.dat"
    p.write_text("a b a\nc\n")
    s = Store()
    summary = load(s, p)
    assert summary.format == "lines" and summary.occurrences == 3


def test_long_csv_with_duplicate_rows_collapses_and_reports():
    s = Store()
    summary = load(s, DATA / "dup_rows.csv")
    assert summary.duplicates_collapsed == 1 and summary.occurrences == 3


def test_parquet_long_and_list_forms(tmp_path):
    con = duckdb.connect()
    long_p, list_p = tmp_path / "long.parquet", tmp_path / "list.parquet"
    con.execute(
        f"COPY (SELECT * FROM (VALUES ('x','a'),('x','b'),('y','a')) t(tid, item)) TO '{long_p}'"
    )
    con.execute(
        f"COPY (SELECT * FROM (VALUES ('x',['a','b']),('y',['a'])) t(tid, items)) TO '{list_p}'"
    )
    a, b = Store(), Store()
    load(a, long_p)
    load(b, list_p, item_col="items")
    q = "SELECT t.label, r.label FROM tx_raw r JOIN tids t USING (tid) ORDER BY 1, 2"
    assert a.query(q) == b.query(q) == [("x", "a"), ("x", "b"), ("y", "a")]


def test_duckdb_table_source_is_not_modified(tmp_path):
    src = tmp_path / "src.duckdb"
    con = duckdb.connect(str(src))
    con.execute("CREATE TABLE baskets (basket INT, product VARCHAR)")
    con.execute("INSERT INTO baskets VALUES (1, 'a'), (1, 'b'), (2, 'a')")
    con.close()
    before = src.read_bytes()
    s = Store()
    summary = load(s, src, table="baskets", tid_col="basket", item_col="product")
    assert summary.transactions == 2
    s.close()
    assert src.read_bytes() == before


def test_same_duckdb_file_as_store(tmp_path):
    db = tmp_path / "work.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE main.b AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t(tid, item)")
    con.close()
    with Store(db) as s:
        assert load(s, db, table="b").transactions == 2
        assert s.query("SELECT count(*) FROM main.b") == [(2,)]


def test_small_file_with_many_transactions_gets_its_threads_back(tmp_path):
    """A small input file is read on one DuckDB thread; once loaded, a small dataset keeps
    one thread and one of more than ONE_THREAD_TRANSACTIONS gets the default back."""
    from setanon_sql.engine.duckdb import ONE_THREAD_TRANSACTIONS

    def threads(s: Store) -> int:
        return s.query("SELECT current_setting('threads')")[0][0]

    default = threads(Store())
    few, many = tmp_path / "few.txt", tmp_path / "many.txt"
    few.write_text("a b\nc\n")
    many.write_text("a\n" * (ONE_THREAD_TRANSACTIONS + 1))
    s = Store()
    load(s, few)
    assert threads(s) == 1
    s = Store()
    load(s, many)
    assert threads(s) == default


def test_bad_empty_transaction():
    with pytest.raises(InputError, match=r"empty transaction\(s\) on line\(s\) \[2\]"):
        load(Store(), DATA / "bad_empty_transaction.txt")


def test_bad_empty_item():
    with pytest.raises(InputError, match=r"1 row\(s\) with an empty item"):
        load(Store(), DATA / "bad_empty_item.csv")


def test_bad_unknown_column():
    with pytest.raises(InputError, match=r"no column 'item'; columns are 'tid', 'product'"):
        load(Store(), DATA / "bad_unknown_column.csv")


def test_bad_not_parquet():
    with pytest.raises(InputError, match=r"cannot read .*bad_not_parquet.parquet as parquet"):
        load(Store(), DATA / "bad_not_parquet.parquet")


def test_bad_missing_file(tmp_path):
    with pytest.raises(InputError, match="input not found"):
        load(Store(), tmp_path / "nope.txt")


def test_bad_items_missing_from_hierarchy():
    with pytest.raises(
        HierarchyError, match=r"2 item\(s\) of the data are missing from the hierarchy: 'b', 'c'"
    ):
        open_store(
            DATA / "good_lines.txt",
            hierarchy_spec=HierarchySpec(path=DATA / "bad_missing_items.csv"),
        )


def test_bad_item_is_internal_node():
    with pytest.raises(HierarchyError, match=r"internal nodes of the hierarchy: 'A'"):
        open_store([["a", "A"]], hierarchy_spec=HierarchySpec(path=DATA / "bad_internal_item.csv"))


def test_python_lists_and_dicts():
    s = make_store({"T1": ["a1"], "T2": ["a1", "b2"]}, AB_TREE)
    assert s.query("SELECT label FROM tids ORDER BY tid") == [("T1",), ("T2",)]
    assert s.scalar("SELECT count(*) FROM tx") == 3
