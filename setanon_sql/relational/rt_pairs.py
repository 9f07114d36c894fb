"""The two-table layout of a table with a set-valued column (issue 41): the records in one
table, their items as `(key, item)` rows in another (two CSV or Parquet files, or two tables of
one DuckDB file), joined on a key column both hold.

Read, the item rows become the set column (a list per record, `rt_set`) and everything after is
the one-table search, release and verifier; written, the release is two files again: the
records, QIs generalized, and the released `(key, item)` rows, labels as given and keys
renumbered 1..n in the release's order (`rt_release_query`). What the join needs is checked first, in one statement: record keys present and
distinct, item rows with a key and an item, no `(key, item)` row twice, every item row's key a
record's and every record with an item. The item rows of a record `--drop-missing` dropped are
dropped with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..engine import ddl
from ..engine.builders import render
from ..engine.rt_builders import (
    item_row_query,
    read_keys_query,
    record_key_query,
    released_rows_query,
)
from ..errors import InputError, ParamsError
from ..store.database import Run, Store
from ..store.outputs import Publication, check_file
from ..store.release_io import copy_to_file
from ..store.sources import check_scalar
from .data import TableData, _relation, source_columns
from .output import TableOutput

FILE_SUFFIXES = (".csv", ".parquet", ".pq", ".gz", ".tsv", ".txt")
DUCKDB_SUFFIXES = (".duckdb", ".db", ".ddb")


@dataclass(frozen=True)
class ItemRows:
    """Where a record's items are: `path` (a CSV or Parquet file), or `table` of the DuckDB
    file holding the records; `key` names the column both tables join on."""

    key: str
    path: Path | None = None
    table: str | None = None


def item_rows(given: str, key: str, records: object) -> ItemRows:
    """`--items-table` read as a file, or as a table of the records' DuckDB file.

    Example:
        >>> item_rows("codes", "id", "/data/h.duckdb")
        ItemRows(key='id', path=None, table='codes')
    """
    if not key:
        raise ParamsError("--key must name the column the two tables join on")
    is_db = isinstance(records, str | Path) and Path(records).suffix.lower() in DUCKDB_SUFFIXES
    if Path(given).suffix.lower() in DUCKDB_SUFFIXES:
        raise ParamsError(
            f"--items-table {given}: the items of a DuckDB input are a table of the same file; "
            "name the table"
        )
    if is_db and Path(given).suffix.lower() not in FILE_SUFFIXES:
        return ItemRows(key, table=given)
    return ItemRows(key, path=Path(given))


def read_item_rows(
    store: Store,
    rows: ItemRows,
    items: str,
    data: TableData,
    records: object,
    encoding: str | None,
) -> str:
    """Read the item rows, check the join (`rt_pair_problems`) and make `rt_set(rid, items)`,
    each record's items as a list; returns the item rows' name for messages."""
    if rows.key not in data.columns:
        raise InputError(
            f"{data.source}: no key column {rows.key!r}; columns are "
            f"{', '.join(map(repr, data.columns))}"
        )
    if items in data.columns:
        raise InputError(
            f"{data.source}: the records already have a column {items!r}, the name of the items "
            "column: rename one of them"
        )
    store.execute(  # every record's key as read, before --drop-missing: its rows go with it
        ddl.create_table_as("rt_read_key", render(read_keys_query(rows.key))),
        step="rt_read_key",
    )
    if rows.table is not None:
        name = _relation(store, records, None, rows.table, None)
        name = f"{name} table {rows.table!r}"
    else:
        assert rows.path is not None
        name = _relation(store, rows.path, None, None, encoding)
    cols = source_columns(store)
    for want in (rows.key, items):
        if want not in cols:
            raise InputError(
                f"{name}: no column {want!r}; columns are {', '.join(map(repr, cols))}"
            )
    check_scalar(name, rows.key, cols[rows.key], "a key", lists=False)
    if cols[items] != "VARCHAR":
        raise InputError(
            f"{name}: items column {items!r} has type {cols[items]}; items must be text (the "
            "hierarchy's labels)"
        )
    store.execute(
        ddl.create_table_as("rt_item_row", render(item_row_query(rows.key, items))),
        step="rt_item_row",
    )
    store.execute(
        ddl.create_table_as("rt_record_key", render(record_key_query(rows.key))),
        step="rt_record_key",
    )
    _refuse_problems(store, name, data.source, rows.key, items)
    store.run("rt_set_from_rows")
    return name


def _refuse_problems(store: Store, rows_name: str, records: str, key: str, items: str) -> None:
    """One line for the first problem of the join, in the order the checks are listed."""
    p = store.run("rt_pair_problems").one()
    shown = lambda xs: ", ".join(map(repr, xs))  # noqa: E731
    if p["null_keys"]:
        raise InputError(f"{records}: {p['null_keys']} record(s) have no key in column {key!r}")
    if p["repeated_keys"]:
        raise InputError(
            f"{records}: key column {key!r} repeats {p['repeated_keys']} key(s), e.g. "
            f"{shown(p['repeated_examples'])}; a key must name one record"
        )
    if p["blank_rows"]:
        raise InputError(
            f"{rows_name}: {p['blank_rows']} row(s) have no key or no item ({key!r}, {items!r})"
        )
    if p["duplicate_rows"]:
        raise InputError(
            f"{rows_name}: {p['duplicate_rows']} ({key}, {items}) row(s) repeat an earlier "
            f"one, e.g. {shown(p['duplicate_examples'])}; each item once per record"
        )
    if p["orphan_keys"]:
        raise InputError(
            f"{rows_name}: {p['orphan_keys']} key(s) have no record in {records}, e.g. "
            f"{shown(p['orphan_examples'])}"
        )
    if p["bare_records"]:
        raise InputError(
            f"{records}: {p['bare_records']} record(s) have no item rows in {rows_name}, e.g. "
            f"keys {shown(p['bare_examples'])}; every record needs at least one (drop them, or "
            "give them an item)"
        )


@dataclass
class PairOutput:
    """The two-table release: the records' file and the `(key, item)` rows' file, both staged
    in the run's publication so they take their places together (or neither does)."""

    records: TableOutput
    rows: Path
    key: str = ""
    items: str = ""
    columns: list[str] = field(default_factory=list)

    def stage(self, store: Store, run: Run, publication: Publication) -> None:
        self.records.stage(store, run, publication)
        path, fmt = check_file(self.rows, replace=True)  # checked before the work
        sql = render(released_rows_query(run.schema, store.ex.catalog, self.key, self.items))
        copy_to_file(store, sql, path, fmt, step="write_item_rows", publication=publication)

    def in_swap(self, store: Store, run: Run) -> None:
        """Nothing goes into the database."""
