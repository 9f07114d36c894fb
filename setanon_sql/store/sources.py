"""Reading transactions from SPMF/line files, long CSV, Parquet or a DuckDB table.

Every reader fills the temp table `source_pairs(tid_label, label)`: the transaction id with the
type and text the source gives it (CSV values are text, so `01` stays `01`) and the item label as
text, exactly as written (no trimming). `dataset.py` turns it into a dataset. Source files and
tables are only ever read. Text files may be gzip'd and in another encoding than UTF-8
(`textfile.py`); a byte order mark is no part of the first item. A stream (a FIFO, `<(cmd)`,
`/dev/stdin`) is copied once into a file of the tool's own and read from there
(`textfile.read_once`); messages name it as given.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from ..engine import ddl
from ..engine.duckdb import Executor
from ..engine.sqltext import qualified, split_qualified
from ..errors import InputError, ParamsError, SourceTypeError, first_line
from . import textfile

FORMATS = ("spmf", "lines", "csv", "parquet", "duckdb")
_SOURCE_DB = "setanon_source"
# Temp tables the readers make; dropped once the dataset is built (they hold the source as text).
SOURCE_TABLES = ("source_lines", "source_pairs")
SOURCE_VIEW = "source_input"  # a table input's (tid, item) columns as (tid_label, item)
TEXT_FORMATS = ("spmf", "lines", "csv")
# A LIST (`T[]`) or ARRAY (`T[3]`) type, as DESCRIBE writes it.
_LIST_TYPE = re.compile(r"\[[0-9]*\]$")
# Types whose values are no single label: cast to text they would be anonymized as strings.
_NESTED_PREFIXES = ("STRUCT(", "MAP(", "UNION(", "VARIANT")


@dataclass(frozen=True)
class SourceSpec:
    """Where transactions come from and how to read them: `path` as messages and the
    registry name it, `copy` the file a stream was read into (see `file`)."""

    path: Path
    format: str
    table: str | None = None
    tid_col: str = "tid"
    item_col: str = "item"
    encoding: str = textfile.UTF8  # Python's name of the text's encoding
    gzipped: bool = False
    copy: Path | None = None

    @property
    def file(self) -> Path:
        """The file to read: the input itself, or the copy of a stream."""
        return self.copy or self.path

    def reader(self) -> str:
        """How the source is read, as JSON: part of what makes two loads the same dataset."""
        opts: dict[str, Any] = {"format": self.format}
        if self.encoding != textfile.UTF8:  # unset for UTF-8, as before there was a choice
            opts["encoding"] = self.encoding
        if self.format in ("csv", "parquet", "duckdb"):
            opts |= {"tid_col": self.tid_col, "item_col": self.item_col}
        if self.format == "duckdb":
            opts["table"] = self.table
        return json.dumps(opts, sort_keys=True)


def guess_format(path: Path, *, gzipped: bool = False, encoding: str = textfile.UTF8) -> str:
    """The format by the file's suffix (under a `.gz`), else by its first 64 KiB."""
    suffix = textfile.plain_suffix(path)
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix in (".csv", ".tsv"):
        return "csv"
    if suffix in (".duckdb", ".db", ".ddb"):
        return "duckdb"
    head = textfile.head(path, 65536, gzipped=gzipped)
    if head.startswith(b"PAR1"):
        return "parquet"
    if head[8:12] == b"DUCK":
        return "duckdb"
    text = head.decode(encoding, errors="replace")
    return "spmf" if " -1 " in text or text.rstrip().endswith("-2") else "lines"


def source_spec(
    source: str | Path,
    *,
    format: str | None = None,
    table: str | None = None,
    tid_col: str | None = None,
    item_col: str | None = None,
    encoding: str | None = None,
) -> SourceSpec:
    """Check the source exists and settle its format, compression and encoding; columns
    named for a line file (which has none) are refused, not ignored."""
    path = Path(source)
    if not path.exists():
        raise InputError(f"input not found: {path}")
    if path.is_dir():
        raise InputError(f"input {path} is a folder, not a file")
    enc = textfile.encoding_name(encoding)
    copy = textfile.read_once(path) if textfile.is_stream(path) else None
    gzipped = textfile.is_gzip(copy or path)
    fmt = (format or guess_format(copy or path, gzipped=gzipped, encoding=enc)).lower()
    if fmt not in FORMATS:
        raise InputError(f"unknown input format {fmt!r}; one of {', '.join(FORMATS)}")
    if fmt not in TEXT_FORMATS:
        if encoding is not None:
            raise ParamsError(f"--encoding applies to text inputs; {path} is read as {fmt}")
        if gzipped:
            raise InputError(f"{path} is gzip'd: decompress it to read it as {fmt}")
    if fmt == "csv" and enc not in textfile.CSV_ENCODINGS:
        raise ParamsError(
            f"--encoding {encoding}: a CSV input is read by DuckDB, which decodes "
            f"{', '.join(textfile.CSV_ENCODINGS.values())}; convert {path.name} to UTF-8 first"
        )
    if fmt == "csv":
        textfile.check_wide_file(copy or path, enc, "--encoding", gzipped=gzipped, shown=path)
    if fmt == "duckdb" and not table:
        raise InputError(f"{path} is a DuckDB file: name the table with --table")
    if fmt != "duckdb" and table:
        raise ParamsError(f"--table names a table of a DuckDB input; {path} is read as {fmt}")
    if fmt in ("spmf", "lines") and (tid_col is not None or item_col is not None):
        raise ParamsError(
            f"--tid-col and --item-col name columns of a CSV, Parquet or DuckDB input; {path} "
            f"is read as {fmt} (a transaction a line)"
        )
    return SourceSpec(
        textfile.shown(path), fmt, table, tid_col or "tid", item_col or "item", enc, gzipped, copy
    )


def read(ex: Executor, spec: SourceSpec) -> int | None:
    """Fill `source_pairs` from the source. Returns, for a line file, how many lines hold its
    transactions: their tids are then the line numbers 0.. that many - 1, with no gap."""
    path = spec.path
    try:
        if spec.format in ("spmf", "lines"):
            return _read_lines(ex, spec)
        if spec.format == "csv":
            _read_long(ex, csv_relation(spec.file, spec.encoding, spec.gzipped), path, spec)
        elif spec.format == "parquet":
            _read_long(ex, parquet_relation(spec.file), path, spec)
        else:
            _read_duckdb(ex, spec)
    except duckdb.Error as e:
        why = None
        if spec.format in TEXT_FORMATS:  # DuckDB's message for a byte of another encoding
            why = textfile.first_undecodable(spec.file, spec.encoding, "--encoding", path)
        raise InputError(why or f"cannot read {path} as {spec.format}: {first_line(e)}") from e
    return None


def parquet_relation(path: Path) -> str:
    """DuckDB's read_parquet of a Parquet file."""
    return ddl.read_parquet(str(path))


def csv_relation(
    path: Path, encoding: str, gzipped: bool, *, header: bool = True, names: Sequence[str] = ()
) -> str:
    """DuckDB's read_csv of a CSV file, with a header or with the columns `names`, every value
    as text, decompressed and decoded as the file needs."""
    options: dict[str, Any] = {"all_varchar": True, "header": header}
    if names:
        options["names"] = list(names)
    if encoding != textfile.UTF8:
        options["encoding"] = textfile.CSV_ENCODINGS[encoding]
    if gzipped:  # by its content: DuckDB tells gzip by a .gz name only
        options["compression"] = "gzip"
    return ddl.read_csv(str(path), **options)


def _read_lines(ex: Executor, spec: SourceSpec) -> int:
    """Every line but a blank last one must hold an item, so the lines with items are the
    first `lines_with_items` ones. A plain UTF-8 file is read by DuckDB itself; a gzip'd one or
    one in another encoding is decoded here and its text handed over (the log keeps it, so the
    dataset still replays)."""
    path = spec.path
    if spec.gzipped or spec.encoding != textfile.UTF8:
        text = textfile.decode(textfile.read_bytes(spec.file), path, spec.encoding, "--encoding")
        ex.run("split_lines", {"content": text})
    else:
        ex.run("read_lines", {"path": str(spec.file)})
    ex.run("line_tokens", {"spmf": spec.format == "spmf"})
    cover = ex.run("line_coverage").one()
    if cover["lines"] - cover["lines_with_items"] > int(cover["last_blank"]):
        empty = [line for (line,) in ex.run("empty_lines").tuples("line")]
        raise InputError(f"{path}: empty transaction(s) on line(s) {empty}")
    return int(cover["lines_with_items"])


def _columns(ex: Executor, relation: str) -> dict[str, str]:
    """The input's columns and their DuckDB types, in its order."""
    found = ex.execute(ddl.describe_query(ddl.select_from(relation)), step="describe_source")
    return dict(found.tuples("column_name", "column_type"))


def nested_type(kind: str) -> bool:
    """Whether a DuckDB type (as DESCRIBE writes it) holds more than one scalar value.

    Example:
        >>> [nested_type(t) for t in ("VARCHAR", "DECIMAL(5,2)", "STRUCT(a INTEGER)", "INT[]")]
        [False, False, True, True]
    """
    return bool(_LIST_TYPE.search(kind)) or kind.upper().startswith(_NESTED_PREFIXES)


def check_scalar(path: Path | str, column: str, kind: str, what: str, *, lists: bool) -> None:
    """Refuse a column of a DuckDB type whose values are no single labels (with `lists`, no
    list of them): cast to text, a STRUCT or a MAP would be anonymized as one string."""
    inner = _LIST_TYPE.sub("", kind, count=1) if lists else kind
    if nested_type(inner):
        raise nested_column(path, column, kind, what, lists=lists)


def nested_column(
    path: Path | str, column: str, kind: str, what: str, *, lists: bool
) -> InputError:
    """The one-line refusal of a column of nested type (DuckDB's or Spark's name of it)."""
    allowed = "a scalar (text, number, date...)" + (" or a list of scalars" if lists else "")
    return InputError(f"{path}: column {column!r} has nested type {kind}; {what} must be {allowed}")


def _read_long(ex: Executor, relation: str, path: Path, spec: SourceSpec) -> None:
    tid_col, item_col = spec.tid_col, spec.item_col
    cols = _columns(ex, relation)
    for want in (tid_col, item_col):
        if want not in cols:
            raise InputError(
                f"{path}: no column {want!r}; columns are {', '.join(map(repr, cols))} "
                "(choose with --tid-col / --item-col)"
            )
    check_scalar(path, tid_col, cols[tid_col], "a transaction id", lists=False)
    check_scalar(path, item_col, cols[item_col], "an item column", lists=True)
    renamed = ddl.select_renamed(relation, [(tid_col, "tid_label"), (item_col, "item")])
    ex.execute(ddl.create_view_as(SOURCE_VIEW, renamed, temp=True), step="source_input")
    try:
        if _LIST_TYPE.search(cols[item_col]):  # a LIST (or ARRAY) of items
            empty = ex.run("source_empty_transactions").tuples("tid_label")
            if empty:
                raise InputError(f"{path}: empty transaction(s) with tid {[t for (t,) in empty]}")
            ex.run("source_pairs_from_lists")
        else:
            ex.run("source_pairs_from_items")
    finally:
        ex.execute(ddl.drop_view(SOURCE_VIEW), step="drop_source_input")


@contextmanager
def database_of(ex: Executor, file: Path, alias: str) -> Iterator[str]:
    """The catalog to read a DuckDB file's tables from while the block runs: the open database
    itself when `file` is it (DuckDB attaches a file once: attaching the --db again fails), or
    `file` attached read-only as `alias`."""
    if ex.path is not None and ex.path.resolve() == file.resolve():
        yield ex.catalog
        return
    ex.execute(ddl.attach(str(file), alias, read_only=True), step="attach_source")
    try:
        yield alias
    finally:
        ex.execute(ddl.detach(alias), step="detach_source")


def _read_duckdb(ex: Executor, spec: SourceSpec) -> None:
    """A table of a DuckDB file: the open database itself, or another file attached read-only.
    The table name is parsed as identifiers; a catalog prefix must name that file."""
    parts = split_qualified(spec.table or "")
    with database_of(ex, spec.file, _SOURCE_DB) as catalog:
        if len(parts) == 3:
            if parts[0] not in (spec.path.stem, catalog):
                raise InputError(
                    f"--table {spec.table!r}: catalog {parts[0]!r} is not the file {spec.path.name}"
                )
            parts = parts[1:]
        schema, name = (parts[0], parts[1]) if len(parts) == 2 else ("main", parts[0])
        where = {"catalog": catalog, "schema": schema, "table": name}
        if not ex.run("table_exists", where).one()["found"]:
            raise InputError(f"{spec.path}: no table {spec.table!r}")
        relation = qualified(catalog, schema, name)
        _read_long(ex, relation, spec.path, spec)


@dataclass(frozen=True)
class Pairs:
    """(tid, item) rows held in Python as an Arrow table of `source_pairs`'s columns
    (`tid_label`, `label`): read by DuckDB's Arrow scan, never row by row."""

    table: Any  # pyarrow.Table


def in_memory(
    source: Any, tid_col: str | None, item_col: str | None
) -> dict[Any, Any] | list[Any] | Pairs:
    """Transactions held in Python as they are (a dict or a list), (tid, item) rows of a
    pyarrow Table or DuckDB relation as `Pairs`; anything else refused by its type."""
    if isinstance(source, (dict, list)):
        if (tid_col, item_col) != (None, None):
            raise ParamsError("tid_col and item_col name a table's columns, not a dict's or list's")
        return source
    pairs = arrow_pairs(source, tid_col or "tid", item_col or "item")
    if pairs is None:
        raise SourceTypeError(
            f"a source of type {type(source).__name__} cannot be read: give a file path, a "
            "pyarrow Table or DuckDB relation of (tid, item) rows, a dict tid -> items or a "
            "list of transactions"
        )
    return pairs


def arrow_pairs(data: Any, tid_col: str = "tid", item_col: str = "item") -> Pairs | None:
    """The (tid, item) rows of a pyarrow Table or RecordBatch or a DuckDB relation (an item
    column may be a LIST: a transaction a row); None for anything else. Integer tids stay
    integers, other tids and every item become text.

    Example:
        >>> import pyarrow as pa
        >>> arrow_pairs(pa.table({"tid": [1, 1, 2], "item": ["a", "b", "a"]})).table.num_rows
        3
        >>> arrow_pairs([[1, 2]]) is None
        True
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(data, duckdb.DuckDBPyRelation):
        data = data.arrow()  # a reader from DuckDB 1.4 on, a Table before
    if isinstance(data, pa.RecordBatchReader):
        data = data.read_all()
    if isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    if not isinstance(data, pa.Table):
        return None
    for want, option in ((tid_col, "tid_col"), (item_col, "item_col")):
        if want not in data.column_names:
            raise InputError(
                f"the table has no column {want!r}; its columns are "
                f"{', '.join(map(repr, data.column_names))} (choose with {option})"
            )
    tids, items = data.column(tid_col).combine_chunks(), data.column(item_col).combine_chunks()
    if pa.types.is_list(items.type) or pa.types.is_large_list(items.type):
        tids = pc.take(tids, pc.list_parent_indices(items))
        items = pc.list_flatten(items)
    if pa.types.is_nested(items.type) or pa.types.is_nested(tids.type):
        raise InputError(f"column {item_col!r} or {tid_col!r} is nested; cast it to text")
    integral = pa.types.is_integer(tids.type)
    return Pairs(
        pa.table(
            {
                "tid_label": tids.cast(pa.int64() if integral else pa.string()),
                "label": items.cast(pa.string()),
            }
        )
    )


def read_python(ex: Executor, transactions: dict[Any, list[Any]] | list[list[Any]] | Pairs) -> None:
    """Fill `source_pairs` from transactions held in Python: a list (tid = position) or a dict
    tid -> items, or (tid, item) rows (`Pairs`). Integer tids stay integers; other tids and
    every item become text."""
    import pyarrow as pa

    if isinstance(transactions, Pairs):
        ex.put_arrow("source_pairs", transactions.table, temp=True)
        return

    items = transactions.items() if isinstance(transactions, dict) else enumerate(transactions)
    tids: list[Any] = []
    labels: list[str] = []
    for tid, basket in items:
        if not basket:
            raise InputError(f"transaction {tid!r} is empty")
        for label in basket:
            tids.append(tid)
            labels.append(str(label))
    integral = all(isinstance(t, int) and not isinstance(t, bool) for t in tids)
    tid_array = (
        pa.array(tids, pa.int64()) if integral else pa.array([str(t) for t in tids], pa.string())
    )
    ex.put_arrow(
        "source_pairs",
        pa.table({"tid_label": tid_array, "label": pa.array(labels, pa.string())}),
        temp=True,
    )
