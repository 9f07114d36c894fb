"""Executor.put_rows: Python columns reach DuckDB intact (NULLs, lists, unsigned 64-bit, no
rows) and the log replays them, as put_arrow's tables do."""

from __future__ import annotations

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from setanon_sql.engine import ddl
from setanon_sql.engine.duckdb import Executor, bound_column
from setanon_sql.engine.log import Rows, data_script, replay_script
from setanon_sql.engine.sqltext import literal

ROW = st.tuples(
    st.integers(-(2**31), 2**31 - 1),
    st.none() | st.integers(0, 2**64 - 1),
    st.none() | st.lists(st.integers(0, 1000), max_size=3),
    st.none() | st.text(max_size=5),
)
TYPES = (("a", "INTEGER"), ("mask", "UBIGINT"), ("wide", "INTEGER[]"), ("s", "VARCHAR"))


def _rows(rows: list[tuple]) -> Rows:
    return Rows({name: (kind, [r[i] for r in rows]) for i, (name, kind) in enumerate(TYPES)})


@given(st.lists(ROW, max_size=20))
def test_put_rows_round_trip_and_replay(rows: list[tuple]) -> None:
    ex = Executor()
    start = len(ex.log)
    ex.put_rows("t", _rows(rows))
    got = ex.query("SELECT a, mask, wide, s FROM t")
    assert sorted(map(repr, got)) == sorted(map(repr, rows))
    con = duckdb.connect()
    con.execute(replay_script(ex.log[start:]))
    assert sorted(map(repr, con.execute("SELECT * FROM t").fetchall())) == sorted(map(repr, rows))


VALUE = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=4)
    | st.lists(st.integers(0, 9), max_size=2)
)


@given(st.lists(st.tuples(VALUE, VALUE), max_size=2100))
def test_replay_rows_written_as_literal_writes_each_value(rows: list[tuple]) -> None:
    """The log's rows are written column by column (whole numbers directly); the text is what
    `literal` makes of every value, row by row, in chunks of 1000."""
    table = Rows({"a": ("X", [r[0] for r in rows]), "b": ("Y", [r[1] for r in rows])})
    chunks = [rows[i : i + 1000] for i in range(0, len(rows), 1000)]
    expected = [ddl.create_table("t", [("a", "X"), ("b", "Y")], temp=False)] + [
        ddl.insert_into(
            "t", "VALUES\n" + ",\n".join(f"({literal(a)}, {literal(b)})" for a, b in chunk)
        )
        for chunk in chunks
    ]
    assert data_script("t", table, ["X", "Y"], temp=False) == ";\n".join(expected)


@pytest.mark.parametrize(
    ("kind", "values", "bound"),
    [
        ("BIGINT", [1, None, -3], "[1, NULL, -3]"),
        ("ubigint", [2**64 - 1], "[18446744073709551615]"),
        ("INTEGER", [], "[]"),
        ("INTEGER", [True, 2], [True, 2]),  # a bool would be written as a number
        ("DOUBLE", [1, 2], [1, 2]),
        ("INTEGER[]", [[1]], [[1]]),
    ],
)
def test_whole_numbers_are_bound_as_the_text_of_their_list(kind, values, bound) -> None:
    assert bound_column(kind, values) == bound
    if kind != "DOUBLE" and values and not isinstance(values[0], bool):
        ex = Executor()
        ex.put_rows("t", Rows({"v": (kind, values)}))
        assert sorted(map(repr, ex.query("SELECT v FROM t"))) == sorted(repr((v,)) for v in values)
