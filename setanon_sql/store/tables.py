"""Tables as datasets: a table (or a table with a set-valued column) read once into a dataset
schema of its own and found there again, as transactions are (`dataset.py`).

The schema `setanon_d{id}` of a table dataset holds `table_raw`, the table exactly as read (file
order, the reader's types), and the `sql_log` that read it. A run copies `table_raw` into its
temp `rel_raw` and encodes it for its own quasi-identifiers and taxonomies (`relational/data.py`):
those are the run's choice, as a hierarchy is a transactions run's, so they are no part of the
dataset. The same file (same size and time of change, same reading options) or the same
content in the same order is the same dataset; anything else is a new one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import duckdb

from ..engine import ddl
from ..engine.duckdb import Executor
from ..engine.log import Logged
from ..engine.sqltext import qualified, split_qualified
from ..errors import InputError, ParamsError
from . import textfile
from .dataset import Dataset, DatasetKind, Loaded, building, fingerprint_of, record_source
from .registry import Registry
from .sources import csv_relation, database_of, parquet_relation

if TYPE_CHECKING:  # pyarrow costs 0.1 s to import; a transactions run never needs it
    import pyarrow as pa

RAW = "rel_raw"  # the temp table a run reads the table from (in file order)
STORED = "table_raw"  # the table as read, in its dataset's schema
_SOURCE_DB = "rel_source_db"  # a DuckDB input file, attached read-only while it is read
_DUCKDB_SUFFIXES = (".duckdb", ".db", ".ddb")

TableSource: TypeAlias = "str | Path | pa.Table | Mapping[str, Sequence[Any]]"
"""A CSV, Parquet or DuckDB file, an Arrow table, or {column: values} held in Python."""


@dataclass(frozen=True)
class TableReader:
    """How a table file is read: the names of a header-less CSV's columns, a DuckDB file's
    table, a CSV's encoding. Part of what makes two loads the same dataset."""

    columns: tuple[str, ...] | None = None
    table: str | None = None
    encoding: str | None = None

    def as_json(self) -> str:
        opts: dict[str, Any] = {"columns": list(self.columns) if self.columns else None}
        opts |= {"table": self.table, "encoding": self.encoding}
        return json.dumps({k: v for k, v in opts.items() if v is not None}, sort_keys=True)


@dataclass(frozen=True)
class TableInput:
    """A table to load as a dataset of `kind`: where it is and how it is read."""

    source: TableSource
    reader: TableReader = TableReader()
    kind: DatasetKind = "table"


def load_table_source(
    ex: Executor, reg: Registry, source: TableSource, reader: TableReader, kind: DatasetKind
) -> Loaded:
    """The dataset of this table: found in the registry (by file, then by content), or read
    and stored in a schema of its own."""
    reg.ensure()
    desc = _describe(source, reader)
    if desc["mtime"] is not None:
        found = reg.dataset_by_file(
            kind, desc["source"], desc["reader"], desc["size"], desc["mtime"]
        )
        if found:
            return Loaded(Dataset.of(found), reused=True)
    log: list[Logged] = []
    ids = reg.next_ids()
    schema = reg.free_name(f"setanon_d{ids.dataset}")
    try:
        with ex.recording(log):
            read_raw(ex, source, reader)
            columns = raw_columns(ex)
            counts = ex.run("table_fingerprint").one()
        fingerprint = fingerprint_of({"columns": list(columns.items()), **counts})
        same = reg.dataset_by_fingerprint(kind, fingerprint)
        if same:
            record_source(reg, desc["source"], same)
            return Loaded(Dataset.of(same), reused=True)
        with building(ex, reg, schema, "dataset", ids.dataset, log=log):
            ex.execute(ddl.create_table_as(STORED, ddl.select_all(RAW)), step="table_raw")
        reg.add_dataset(
            id=ids.dataset,
            schema=schema,
            kind=kind,
            fingerprint=fingerprint,
            rows=int(counts["rows"]),
            items=len(columns),
            **desc,
        )
    except BaseException:
        if reg.owner_of(schema) is not None:
            reg.drop_schema(schema, force=True)
        raise
    finally:
        ex.execute(ddl.drop_table(RAW, temp=True), step="drop_rel_raw", bookkeeping=True)
    return Loaded(Dataset.of(reg.dataset(ids.dataset)), reused=False)


def copy_raw(ex: Executor, dataset: Dataset) -> None:
    """The dataset's table, as read, into the temp table `rel_raw` a run encodes."""
    if dataset.kind == "transactions":
        raise ParamsError(f"dataset {dataset.id} holds transactions, not a table")
    query = ddl.select_all(STORED, dataset.schema)
    ex.execute(ddl.create_table_as(RAW, query, temp=True), step="read_table")


def raw_columns(ex: Executor) -> dict[str, str]:
    """The columns of the table read (`rel_raw`) and their DuckDB types, in its order."""
    found = ex.execute(ddl.describe(RAW), step="describe_table")
    return dict(found.tuples("column_name", "column_type"))


def _describe(source: TableSource, reader: TableReader) -> dict[str, Any]:
    """The registry's description of a source: its file, format, reading options, size and
    time of change (none for a table held in Python)."""
    import pyarrow as pa

    if isinstance(source, (pa.Table, Mapping)):
        return {"source": "python", "format": "python", "reader": reader.as_json()} | {
            "size": None,
            "mtime": None,
        }
    path = Path(source)
    if not path.is_file() or textfile.is_stream(path):
        return {"source": str(path), "format": "", "reader": reader.as_json()} | {
            "size": None,
            "mtime": None,
        }  # read_raw says what is wrong with it
    st = path.stat()
    return {
        "source": str(path.resolve()),
        "format": _format(path),
        "reader": reader.as_json(),
        "size": st.st_size,
        "mtime": st.st_mtime_ns,
    }


def _format(path: Path) -> str:
    suffix = textfile.plain_suffix(path)
    if suffix in (".parquet", ".pq"):
        return "parquet"
    return "duckdb" if suffix in _DUCKDB_SUFFIXES else "csv"


def read_raw(ex: Executor, source: TableSource, reader: TableReader) -> str:
    """Read the source into the temp table `rel_raw` (in file order) and name it. A CSV file
    may be gzip'd and in `encoding` (UTF-8 unless given; a byte order mark is dropped)."""
    import pyarrow as pa

    columns, table, encoding = reader.columns, reader.table, reader.encoding
    if isinstance(source, Mapping):
        source = pa.table(
            {
                k: pa.array([None if v is None else str(v) for v in vals], pa.string())
                for k, vals in source.items()
            }
        )
    if isinstance(source, pa.Table):
        ex.put_arrow(RAW, source, temp=True)
        return "python table"
    path = Path(source)
    if textfile.is_stream(path):  # DuckDB would read it twice or more (sniffing, then reading)
        raise InputError(f"input {path} is a pipe, not a file: write the table to a file first")
    if not path.is_file():
        raise InputError(f"input not found: {path}")
    enc = textfile.encoding_name(encoding)
    gzipped = textfile.is_gzip(path)
    suffix = textfile.plain_suffix(path)
    is_csv = suffix not in (".parquet", ".pq", *_DUCKDB_SUFFIXES)
    if not is_csv:
        if encoding is not None:
            raise ParamsError(f"--encoding applies to a CSV table; {path} is not one")
        if gzipped:
            raise InputError(f"{path} is gzip'd: decompress it to read it")
    elif enc not in textfile.CSV_ENCODINGS:
        raise ParamsError(
            f"--encoding {encoding}: a CSV table is read by DuckDB, which decodes "
            f"{', '.join(textfile.CSV_ENCODINGS.values())}; convert {path.name} to UTF-8 first"
        )
    else:
        textfile.check_wide_file(path, enc, "--encoding", gzipped=gzipped)
    if table and suffix not in _DUCKDB_SUFFIXES:
        raise ParamsError(f"--table names a table of a DuckDB input; {path.name} is not one")
    if columns is not None and (not columns or not all(columns)):
        raise ParamsError(f"--columns must name every column, got {list(columns)}")
    if columns and not is_csv:
        raise ParamsError(
            f"--columns names the columns of a header-less CSV; {path.name} is not one"
        )
    with ExitStack() as opened:
        if suffix in (".parquet", ".pq"):
            relation = parquet_relation(path)
        elif suffix in _DUCKDB_SUFFIXES:
            if not table:
                raise InputError(f"{path} is a DuckDB file: name the table with table=")
            catalog = opened.enter_context(database_of(ex, path, _SOURCE_DB))
            parts = split_qualified(table)
            if len(parts) == 3 and parts[0] not in (path.stem, catalog):
                raise InputError(
                    f"table {table!r}: catalog {parts[0]!r} is not the file {path.name}"
                )
            schema, name = (parts[-2], parts[-1]) if len(parts) > 1 else ("main", parts[0])
            relation = qualified(catalog, schema, name)
        else:
            if columns:
                _check_column_count(ex, path, columns, enc, gzipped)
            relation = csv_relation(path, enc, gzipped, header=not columns, names=columns or ())
        try:
            raw = ddl.create_table_as(RAW, ddl.select_from(relation), temp=True)
            ex.execute(raw, step="read_table")
        except duckdb.Error as e:
            raise _unreadable(path, e, enc if is_csv else None) from e
    return str(path)


def _unreadable(path: Path, e: duckdb.Error, encoding: str | None) -> InputError:
    """DuckDB's error reading a table file, or for a CSV file (`encoding` given) the line of it
    that is not in its encoding."""
    why = textfile.first_undecodable(path, encoding, "--encoding") if encoding else None
    return InputError(why or f"cannot read {path}: {str(e).splitlines()[0]}")


def _check_column_count(
    ex: Executor, path: Path, columns: Sequence[str], encoding: str, gzipped: bool
) -> None:
    """A header-less CSV must have exactly as many columns as `columns` names."""
    relation = csv_relation(path, encoding, gzipped, header=False)
    try:
        described = ddl.describe_query(ddl.select_from(relation))
        found = len(ex.execute(described, step="count_columns").rows)
    except duckdb.Error as e:
        raise _unreadable(path, e, encoding) from e
    if found != len(columns):
        raise InputError(
            f"--columns gives {len(columns)} names but {path.name} has {found} columns"
        )
