"""Executor.put_rows: Python columns reach DuckDB intact (NULLs, lists, unsigned 64-bit, no
rows) and the log replays them, as put_arrow's tables do."""

from __future__ import annotations

import duckdb
from hypothesis import given
from hypothesis import strategies as st

from setanon_sql.engine.duckdb import Executor
from setanon_sql.engine.log import Rows, replay_script

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
