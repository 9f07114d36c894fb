"""Reading transactions from SPMF/line files, long CSV, Parquet or a DuckDB table.

Every reader fills the temp table `source_pairs(tid_label, label)`; `encode` then builds the
dataset tables `tids` and `tx_raw`. Source files and tables are only ever read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from .errors import InputError
from .store import Store, literal, quote

FORMATS = ("spmf", "lines", "csv", "parquet", "duckdb")


@dataclass(frozen=True)
class LoadSummary:
    source: str
    format: str
    transactions: int
    items: int
    occurrences: int
    duplicates_collapsed: int
    longest: int


def guess_format(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix in (".csv", ".tsv"):
        return "csv"
    if suffix in (".duckdb", ".db", ".ddb"):
        return "duckdb"
    with path.open("rb") as f:
        head = f.read(65536)
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.startswith(b"\x00") or b"DUCK" in head[:64]:
        return "duckdb"
    text = head.decode("utf-8", errors="replace")
    return "spmf" if " -1 " in text or text.rstrip().endswith("-2") else "lines"


def load(
    store: Store,
    source: str | Path,
    *,
    format: str | None = None,
    table: str | None = None,
    tid_col: str = "tid",
    item_col: str = "item",
) -> LoadSummary:
    """Load transactions into the store's dataset schema, replacing any dataset there."""
    path = Path(source)
    if not path.exists():
        raise InputError(f"input not found: {path}")
    fmt = (format or guess_format(path)).lower()
    if fmt not in FORMATS:
        raise InputError(f"unknown input format {fmt!r}; one of {', '.join(FORMATS)}")
    try:
        if fmt in ("spmf", "lines"):
            _read_lines(store, path)
        elif fmt == "csv":
            _read_long(
                store,
                f"read_csv({literal(str(path))}, header = true, all_varchar = true)",
                path,
                tid_col,
                item_col,
            )
        elif fmt == "parquet":
            _read_long(store, f"read_parquet({literal(str(path))})", path, tid_col, item_col)
        else:
            if not table:
                raise InputError(f"{path} is a DuckDB file: name the table with --table")
            _read_duckdb(store, path, table, tid_col, item_col)
    except duckdb.Error as e:
        raise InputError(f"cannot read {path} as {fmt}: {str(e).splitlines()[0]}") from e
    return _encode(store, str(path), fmt)


def _read_lines(store: Store, path: Path) -> None:
    store.run("read_lines", {"path": str(path)})
    store.run("line_tokens")
    empty = [r[0] for r in store.run_all("empty_lines")]
    if empty:
        raise InputError(f"{path}: empty transaction(s) on line(s) {empty}")
    store.execute(
        "CREATE OR REPLACE TEMP TABLE source_pairs AS "
        "SELECT CAST(tid AS VARCHAR) AS tid_label, label FROM source_tokens",
        step="source_pairs",
    )


def _columns(store: Store, relation: str) -> dict[str, str]:
    rows = store.query(f"DESCRIBE SELECT * FROM {relation}", step="describe_source")
    return {r[0]: r[1] for r in rows}


def _read_long(store: Store, relation: str, path: Path, tid_col: str, item_col: str) -> None:
    cols = _columns(store, relation)
    for want in (tid_col, item_col):
        if want not in cols:
            raise InputError(
                f"{path}: no column {want!r}; columns are {', '.join(map(repr, cols))} "
                "(choose with --tid-col / --item-col)"
            )
    item = quote(item_col)
    if cols[item_col].endswith("[]"):
        empty = store.query(
            f"SELECT {quote(tid_col)} FROM {relation} WHERE len(coalesce({item}, [])) = 0 LIMIT 5"
        )
        if empty:
            raise InputError(f"{path}: empty transaction(s) with tid {[r[0] for r in empty]}")
        select = f"SELECT CAST({quote(tid_col)} AS VARCHAR) AS tid_label, CAST(unnest({item}) AS VARCHAR) AS label FROM {relation}"
    else:
        select = f"SELECT CAST({quote(tid_col)} AS VARCHAR) AS tid_label, CAST({item} AS VARCHAR) AS label FROM {relation}"
    store.execute(f"CREATE OR REPLACE TEMP TABLE source_pairs AS {select}", step="source_pairs")


def _read_duckdb(store: Store, path: Path, table: str, tid_col: str, item_col: str) -> None:
    from sqlglot import exp

    parts = exp.to_table(table)
    same = store.path is not None and store.path.resolve() == path.resolve()
    if same:
        ref = exp.table_(parts.name, db=parts.db or None, quoted=True).sql("duckdb")
        _read_long(store, ref, path, tid_col, item_col)
        return
    store.execute(
        f"ATTACH {literal(str(path))} AS setanon_source (READ_ONLY)", step="attach_source"
    )
    try:
        ref = exp.table_(parts.name, db=parts.db or "main", catalog="setanon_source", quoted=True)
        try:
            _read_long(store, ref.sql("duckdb"), path, tid_col, item_col)
        except duckdb.CatalogException as e:
            raise InputError(f"{path}: no table {table!r}") from e
    finally:
        store.execute("DETACH setanon_source", step="detach_source")


def _encode(store: Store, source: str, fmt: str) -> LoadSummary:
    missing_tid, missing_item, rows, dups, numeric = store.run("source_problems").rows[0]
    if rows == 0:
        raise InputError(f"{source}: no transactions")
    if missing_tid:
        raise InputError(f"{source}: {missing_tid} row(s) without a tid")
    if missing_item:
        raise InputError(f"{source}: {missing_item} row(s) with an empty item")
    store.run("make_tids", {"numeric": bool(numeric)})
    store.run("make_tx_raw")
    for stale in ("tx", "node", "closure"):
        store.execute(f"DROP TABLE IF EXISTS {quote(stale)}", step="drop_stale")
    st = store.stats()
    return LoadSummary(
        source=source,
        format=fmt,
        transactions=st["transactions"],
        items=st["items"],
        occurrences=st["occurrences"],
        duplicates_collapsed=int(dups),
        longest=st["longest"],
    )


def load_transactions(
    store: Store, transactions: dict[str, list[str]] | list[list[str]]
) -> LoadSummary:
    """Load transactions held in Python: a list (tid = position) or a dict tid -> items."""
    import pyarrow as pa

    items = transactions.items() if isinstance(transactions, dict) else enumerate(transactions)
    tids: list[str] = []
    labels: list[str] = []
    for tid, basket in items:
        if not basket:
            raise InputError(f"transaction {tid!r} is empty")
        for label in basket:
            tids.append(str(tid))
            labels.append(str(label))
    store.put_arrow(
        "source_pairs",
        pa.table(
            {"tid_label": pa.array(tids, pa.string()), "label": pa.array(labels, pa.string())}
        ),
        temp=True,
    )
    return _encode(store, "python", "python")
