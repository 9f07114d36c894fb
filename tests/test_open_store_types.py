"""`open_store` reads what it takes as what it is and refuses the rest by type: a pyarrow
Table or DuckDB relation of (tid, item) rows loads its transactions (it read a table's two
columns as two transactions, and a relation failed with "indexed by one column name, not by
int"), anything else is one line naming its type."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest
from helpers.cli import EX

from setanon_sql import HierarchySpec, Params, anonymize, open_store
from setanon_sql.errors import ExitCode, InputError, SourceTypeError

# four transactions as (tid, item) rows
TIDS = [1, 1, 2, 2, 3, 4, 4, 4]
ITEMS = ["a", "b", "a", "c", "b", "a", "b", "c"]
FANOUT = HierarchySpec(fanout=2)


def _loaded(source, **kw) -> tuple[int, int]:
    store, _ = open_store(source, hierarchy_spec=FANOUT, **kw)
    with store:
        return store.stats()["transactions"], store.stats()["items"]


@pytest.mark.parametrize(
    "make",
    [
        lambda: pa.table({"tid": TIDS, "item": ITEMS}),
        lambda: pa.table({"tid": TIDS, "item": ITEMS}).to_batches()[0],
        lambda: duckdb.from_arrow(pa.table({"tid": TIDS, "item": ITEMS})),
        lambda: pa.table(
            {"tid": [1, 2, 3, 4], "item": [["a", "b"], ["a", "c"], ["b"], ["a", "b", "c"]]}
        ),  # fmt: skip
    ],
    ids=["arrow", "batch", "duckdb", "lists"],
)
def test_tid_item_rows_load_as_their_transactions(make):
    assert _loaded(make()) == (4, 3)


def test_the_release_of_an_arrow_table_is_its_transactions():
    store, _ = open_store(pa.table({"tid": TIDS, "item": ITEMS}), hierarchy_spec=FANOUT)
    with store:
        result = anonymize(store, Params(algorithm="partition", k=2))
        assert result.report.ok
        with store.in_run(result.run):
            assert store.scalar("SELECT count(DISTINCT tid) FROM release") == 4


def test_columns_are_chosen_by_name_and_text_tids_stay_text():
    table = pa.table({"basket": ["x", "x", "y"], "page": ["a", "b", "a"], "n": [1, 2, 3]})
    assert _loaded(table, tid_col="basket", item_col="page") == (2, 2)
    with pytest.raises(InputError, match="no column 'tid'.*tid_col"):
        _loaded(table)


@pytest.mark.parametrize(
    "source",
    [42, 3.5, b"tid,item", ("a", "b"), {"a", "b"}, object()],
    ids=["int", "float", "bytes", "tuple", "set", "object"],
)
def test_anything_else_is_refused_by_its_type_in_one_line(source):
    with pytest.raises(SourceTypeError) as e:
        open_store(source, hierarchy_spec=FANOUT)
    assert isinstance(e.value, TypeError) and e.value.exit_code == ExitCode.USAGE
    message = str(e.value)
    assert type(source).__name__ in message and len(message.splitlines()) == 1


def test_files_and_python_transactions_are_read_as_before():
    assert _loaded(EX / "fig2.csv") == (4, 4)
    assert _loaded([["a", "b"], ["a"]]) == (2, 2)
    assert _loaded({"t1": ["a"], "t2": ["b", "c"]}) == (2, 3)
