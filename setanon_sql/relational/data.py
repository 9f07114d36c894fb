"""Loading a table of quasi-identifier columns and encoding its values as taxonomy leaves.

The table is read once into `rel_source(rid, ...)` of the data schema (CSV values as trimmed
text, so a header-less file like UCI Adult needs `columns=`); each QI column gets a taxonomy
(`rel_node`) and every row a combination of leaves (`rel_combo`, `rel_value`), which is what the
mining and the verifier read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import duckdb
import pyarrow as pa

from ..engine import ddl
from ..engine.builders import render
from ..engine.sqltext import qualified, split_qualified
from ..engine.table_release import empty_values, long_qi, trimmed_source
from ..errors import InputError, ParamsError
from ..store import textfile
from ..store.database import Store, quote
from ..store.hierarchy import Hierarchy
from ..store.sources import check_scalar, csv_relation, parquet_relation
from .taxonomy import CostMeasure, TaxonomySpec, build

_SOURCE_DB = "rel_source_db"  # a DuckDB input file, attached read-only while it is read

TableSource: TypeAlias = str | Path | pa.Table | Mapping[str, Sequence[Any]]
"""A CSV, Parquet or DuckDB file, an Arrow table, or {column: values} held in Python."""


@dataclass(frozen=True)
class TableData:
    """What was loaded: the QI columns with their taxonomies, the sensitive column, the rows."""

    source: str
    columns: tuple[str, ...]
    qi: tuple[str, ...]
    trees: tuple[Hierarchy, ...]
    sensitive: str | None
    rows: int
    combos: int


def _relation(
    store: Store,
    source: TableSource,
    columns: Sequence[str] | None,
    table: str | None,
    encoding: str | None,
) -> str:
    """Read the source into the temp table `rel_raw` (in file order) and name it. A CSV file
    may be gzip'd and in `encoding` (UTF-8 unless given; a byte order mark is dropped)."""
    if isinstance(source, Mapping):
        source = pa.table(
            {
                k: pa.array([None if v is None else str(v) for v in vals], pa.string())
                for k, vals in source.items()
            }
        )
    if isinstance(source, pa.Table):
        store.put_arrow("rel_raw", source, temp=True)
        return "python table"
    path = Path(source)
    if textfile.is_stream(path):  # DuckDB would read it twice or more (sniffing, then reading)
        raise InputError(f"input {path} is a pipe, not a file: write the table to a file first")
    if not path.is_file():
        raise InputError(f"input not found: {path}")
    enc = textfile.encoding_name(encoding)
    gzipped = textfile.is_gzip(path)
    suffix = textfile.plain_suffix(path)
    is_csv = suffix not in (".parquet", ".pq", ".duckdb", ".db", ".ddb")
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
    if table and suffix not in (".duckdb", ".db", ".ddb"):
        raise ParamsError(f"--table names a table of a DuckDB input; {path.name} is not one")
    if columns is not None and (not columns or not all(columns)):
        raise ParamsError(f"--columns must name every column, got {list(columns)}")
    if columns and not is_csv:
        raise ParamsError(
            f"--columns names the columns of a header-less CSV; {path.name} is not one"
        )
    if suffix in (".parquet", ".pq"):
        relation = parquet_relation(path)
    elif suffix in (".duckdb", ".db", ".ddb"):
        if not table:
            raise InputError(f"{path} is a DuckDB file: name the table with table=")
        store.execute(ddl.attach(str(path), _SOURCE_DB, read_only=True), step="attach_source")
        parts = split_qualified(table)
        if len(parts) == 3 and parts[0] != path.stem:
            raise InputError(f"table {table!r}: catalog {parts[0]!r} is not the file {path.name}")
        schema, name = (parts[-2], parts[-1]) if len(parts) > 1 else ("main", parts[0])
        relation = qualified(_SOURCE_DB, schema, name)
    else:
        if columns:
            _check_column_count(store, path, columns, enc, gzipped)
        relation = csv_relation(path, enc, gzipped, header=not columns, names=columns or ())
    try:
        raw = ddl.create_table_as("rel_raw", ddl.select_from(relation), temp=True)
        store.execute(raw, step="read_table")
    except duckdb.Error as e:
        raise _unreadable(path, e, enc if is_csv else None) from e
    finally:
        if relation.startswith(quote(_SOURCE_DB)):
            store.execute(ddl.detach(_SOURCE_DB), step="detach_source")
    return str(path)


def _unreadable(path: Path, e: duckdb.Error, encoding: str | None) -> InputError:
    """DuckDB's error reading a table file, or for a CSV file (`encoding` given) the line of it
    that is not in its encoding."""
    why = textfile.first_undecodable(path, encoding, "--encoding") if encoding else None
    return InputError(why or f"cannot read {path}: {str(e).splitlines()[0]}")


def _check_column_count(
    store: Store, path: Path, columns: Sequence[str], encoding: str, gzipped: bool
) -> None:
    """A header-less CSV must have exactly as many columns as `columns` names."""
    relation = csv_relation(path, encoding, gzipped, header=False)
    try:
        described = ddl.describe_query(ddl.select_from(relation))
        found = len(store.execute(described, step="count_columns").rows)
    except duckdb.Error as e:
        raise _unreadable(path, e, encoding) from e
    if found != len(columns):
        raise InputError(
            f"--columns gives {len(columns)} names but {path.name} has {found} columns"
        )


def source_columns(store: Store) -> dict[str, str]:
    """The columns of the table read (`rel_raw`) and their DuckDB types, in its order."""
    found = store.execute(ddl.describe("rel_raw"), step="describe_table")
    return dict(found.tuples("column_name", "column_type"))


def load_table(
    store: Store,
    source: TableSource,
    *,
    qi: Sequence[str],
    taxonomies: Mapping[str, TaxonomySpec],
    sensitive: str | None = None,
    columns: Sequence[str] | None = None,
    table: str | None = None,
    drop_missing: str | None = None,
    encoding: str | None = None,
    measure: CostMeasure,
) -> TableData:
    """Load the table into the store's data schema and encode its QI values as leaves (a CSV
    table and the taxonomy files are read in `encoding`, UTF-8 unless given)."""
    if not qi:
        raise ParamsError("name at least one quasi-identifier column")
    if len(set(qi)) != len(qi):
        raise ParamsError(f"quasi-identifier columns repeat: {list(qi)}")
    stray = sorted(set(taxonomies) - set(qi))
    if stray:
        raise ParamsError(f"taxonomies given for columns that are not quasi-identifiers: {stray}")
    name = _relation(store, source, columns, table, encoding)
    cols = source_columns(store)
    wanted = list(qi) + ([sensitive] if sensitive else [])
    unknown = [c for c in wanted if c not in cols]
    if unknown:
        raise InputError(
            f"{name}: no column(s) {', '.join(map(repr, unknown))}; columns are "
            f"{', '.join(map(repr, cols))}"
            + (
                ""
                if columns
                else " (name the columns of a header-less file with columns=, or --columns)"
            )
        )
    if sensitive in qi:
        raise ParamsError(f"column {sensitive!r} cannot be both sensitive and a quasi-identifier")
    for c in wanted:
        check_scalar(name, c, cols[c], "a quasi-identifier or sensitive column", lists=False)
    if "rid" in cols:
        raise InputError(f"{name}: a column is named 'rid', which the tool uses for row ids")
    store.execute(
        ddl.create_table_as("rel_source", render(trimmed_source(cols, drop_missing))),
        {"missing": drop_missing} if drop_missing is not None else None,
        step="rel_source",
    )
    rows = store.count("rel_source")
    if not rows:
        raise InputError(f"{name}: no rows")
    empties = store.execute(render(empty_values(wanted)), step="empty_values").one()
    for c in wanted:
        if empties[c]:
            raise InputError(f"{name}: column {c!r} has {empties[c]} empty value(s)")
    store.execute(ddl.create_table_as("rel_long", render(long_qi(qi)), temp=True), step="rel_long")
    values = {
        attr: (labels, counts)
        for attr, labels, counts in store.run("rel_long_values").tuples("attr", "labels", "counts")
    }
    trees = tuple(
        build(c, taxonomies.get(c), *values[j], encoding=encoding) for j, c in enumerate(qi, 1)
    )
    _store_taxonomies(store, qi, trees, measure)
    store.run("rel_value_leaves")
    store.run("rel_make_combo")
    store.run("rel_make_value")
    combos = store.count("rel_combo")
    return TableData(name, tuple(cols), tuple(qi), trees, sensitive, rows, combos)


def _store_taxonomies(
    store: Store, qi: Sequence[str], trees: Sequence[Hierarchy], measure: CostMeasure
) -> None:
    attrs, ids, labels, parents, depths, lasts, counts, costs = ([] for _ in range(8))
    p_attr, p_leaf, p_path = [], [], []
    for j, tree in enumerate(trees, 1):
        for i in range(tree.size):
            attrs.append(j)
            ids.append(i)
            labels.append(tree.labels[i])
            parents.append(tree.parent[i] if tree.parent[i] >= 0 else None)
            depths.append(tree.depth[i])
            lasts.append(tree.last[i])
            counts.append(tree.leaf_count[i])
            costs.append(float(measure(tree, i)))
            if tree.is_leaf(i):
                path, a = [], i
                while a >= 0:
                    path.append(a)
                    a = tree.parent[a]
                p_attr.append(j)
                p_leaf.append(i)
                p_path.append(path[::-1])
    bad = [
        f"{qi[a - 1]}: {labels[k]!r} costs {c}"
        for k, (a, c) in enumerate(zip(attrs, costs, strict=True))
        if not 0.0 <= c <= 1.0
    ]
    if bad:
        raise ParamsError("a cost measure must lie in [0, 1]: " + "; ".join(bad[:5]))
    i32 = pa.int32()
    store.put_arrow(
        "rel_attr",
        pa.table(
            {
                "attr": pa.array(range(1, len(qi) + 1), i32),
                "name": pa.array(list(qi), pa.string()),
                "leaves": pa.array([t.n_leaves for t in trees], i32),
            }
        ),
    )
    store.put_arrow(
        "rel_node",
        pa.table(
            {
                "attr": pa.array(attrs, i32),
                "id": pa.array(ids, i32),
                "label": pa.array(labels, pa.string()),
                "parent": pa.array(parents, i32),
                "depth": pa.array(depths, i32),
                "last": pa.array(lasts, i32),
                "leaf_count": pa.array(counts, i32),
                "cost": pa.array(costs, pa.float64()),
            }
        ),
    )
    store.put_arrow(
        "rel_path",
        pa.table(
            {
                "attr": pa.array(p_attr, i32),
                "leaf": pa.array(p_leaf, i32),
                "path": pa.array(p_path, pa.list_(i32)),
            }
        ),
        temp=True,
    )
