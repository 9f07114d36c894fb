"""Loading a table of quasi-identifier columns and encoding its values as taxonomy leaves.

The table, read once into its dataset (`store/tables.py`), is copied into `rel_source(rid, ...)` of the run (CSV values as trimmed
text, so a header-less file like UCI Adult needs `columns=`); each QI column gets a taxonomy
(`rel_node`) and every row a combination of leaves (`rel_combo`, `rel_value`), which is what the
mining and the verifier read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pyarrow as pa

from ..engine import ddl
from ..engine.builders import render
from ..engine.table_release import empty_values, linked_columns, long_qi, trimmed_source
from ..errors import InputError, ParamsError
from ..store.database import Run, Store
from ..store.dataset import Dataset, DatasetKind
from ..store.hierarchy import Hierarchy
from ..store.sources import check_scalar
from ..store.tables import TableInput, TableReader, TableSource, copy_raw, raw_columns, read_raw
from .taxonomy import CostMeasure, TaxonomySpec, build

__all__ = ["TableData", "TableSource", "declare", "load_table", "source_columns", "table_dataset"]


@dataclass(frozen=True)
class TableData:
    """What was loaded: the QI columns with their taxonomies, the sensitive column, the rows;
    `columns` are the source's, `released` those the release holds (the QIs, the sensitive
    column, the kept ones and the caller's own, in the source's order)."""

    source: str
    columns: tuple[str, ...]
    qi: tuple[str, ...]
    trees: tuple[Hierarchy, ...]
    sensitive: str | None
    rows: int
    combos: int
    released: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()


def source_columns(store: Store) -> dict[str, str]:
    """The columns of the table read (`rel_raw`) and their DuckDB types, in its order."""
    return raw_columns(store.ex)


def _relation(
    store: Store,
    source: TableSource,
    columns: Sequence[str] | None,
    table: str | None,
    encoding: str | None,
) -> str:
    """Read a table straight into the temp `rel_raw`, as no dataset (a table with sets' item
    rows, `rt_pairs`, read with its run)."""
    reader = TableReader(tuple(columns) if columns is not None else None, table, encoding)
    return read_raw(store.ex, source, reader)


def table_dataset(
    store: Store,
    source: TableSource | Dataset,
    *,
    columns: Sequence[str] | None = None,
    table: str | None = None,
    encoding: str | None = None,
    kind: DatasetKind = "table",
) -> Dataset:
    """The registered dataset of a table source (loaded now, or found loaded before)."""
    if isinstance(source, Dataset):
        if source.kind == "transactions":
            raise ParamsError(f"dataset {source.id} holds transactions, not a table")
        return source
    reader = TableReader(tuple(columns) if columns is not None else None, table, encoding)
    return store.load(TableInput(source, reader, kind)).dataset


def load_table(
    store: Store,
    source: TableSource | Dataset,
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
    """Copy the table's dataset (loaded now unless `source` is one) into the current schema
    as `rel_source` and encode its QI values as leaves (a CSV table and the taxonomy files are
    read in `encoding`, UTF-8 unless given). What it releases is said by `declare` after."""
    if not qi:
        raise ParamsError("name at least one quasi-identifier column")
    if len(set(qi)) != len(qi):
        raise ParamsError(f"quasi-identifier columns repeat: {list(qi)}")
    stray = sorted(set(taxonomies) - set(qi))
    if stray:
        raise ParamsError(f"taxonomies given for columns that are not quasi-identifiers: {stray}")
    if store.run_ctx is not None and not isinstance(source, Dataset):
        raise AssertionError(  # its run would not name it, and `sql --run` not replay it
            "a table is loaded as a dataset before its run (`table_dataset`), which is given "
            "to runs.making(dataset=...)"
        )
    dataset = table_dataset(store, source, columns=columns, table=table, encoding=encoding)
    copy_raw(store.ex, dataset)
    name = _shown(source)
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


def declare(
    store: Store,
    data: TableData,
    *,
    keep: Sequence[str] = (),
    drop: Sequence[str] = (),
    own: Sequence[str] = (),
) -> TableData:
    """The loaded table with the columns its release holds (`released`, `kept`), once every
    column is declared: a QI, the sensitive one, `keep` (released as given), `drop` (not
    released) or `own` (the caller's: a set column, a key). An undeclared column is refused,
    so nothing is released or lost unasked; so is a kept column that a QI determines, or that
    determines a QI (a code of it): released as given it would undo the QI's generalization.
    Checked before the search, in one statement over every (kept, QI) pair."""
    qi, sensitive, name, cols = data.qi, data.sensitive, data.source, data.columns
    _check_roles(qi, sensitive, keep, drop, own)
    named = [c for c in (*keep, *drop) if c not in cols]
    if named:
        raise InputError(
            f"{name}: no column(s) {', '.join(map(repr, named))} to keep or drop; columns are "
            f"{', '.join(map(repr, cols))}"
        )
    declared = {*qi, *([sensitive] if sensitive else []), *keep, *drop, *own}
    undeclared = [c for c in cols if c not in declared]
    if undeclared:
        raise ParamsError(
            f"{name}: column(s) {', '.join(map(repr, undeclared))} are neither quasi-identifiers, "
            "sensitive, kept nor dropped: declare each with keep= or drop= (--keep, --drop)"
        )
    kept = tuple(c for c in cols if c in keep)
    refuse_linked(store, name, kept, qi, "rel_source")
    released = tuple(c for c in cols if c in declared and c not in drop)
    return replace(data, released=released, kept=kept)


def _check_roles(
    qi: Sequence[str],
    sensitive: str | None,
    keep: Sequence[str],
    drop: Sequence[str],
    own: Sequence[str],
) -> None:
    """A column has one role: kept, dropped, a QI, sensitive or the caller's."""
    roles: dict[str, list[str]] = {}
    for role, names in (
        ("quasi-identifier", qi), ("sensitive", [sensitive] if sensitive else []),
        ("kept", keep), ("dropped", drop), ("the set column or key", own),
    ):  # fmt: skip
        for c in names:
            roles.setdefault(c, []).append(role)
    twice = {c: r for c, r in roles.items() if len(r) > 1 and set(r) & {"kept", "dropped"}}
    if twice:
        c, r = next(iter(twice.items()))
        raise ParamsError(f"column {c!r} is declared twice: {' and '.join(r)}")


def linked_pairs(
    store: Store, kept: Sequence[str], qi: Sequence[str], kept_table: str
) -> list[tuple[str, str, str]]:
    """Every (kept column, QI, how) of which one determines the other, `how` saying which:
    the kept values read from `kept_table`, the QIs' from `rel_source` (one statement)."""
    if not kept:
        return []
    found = store.execute(render(linked_columns(kept, qi, kept_table)), step="linked_columns")
    out = []
    for r in found.dicts():
        both = r["pairs"] == r["kept_values"] == r["qi_values"]
        how = (
            "is a one-to-one code of"
            if both
            else "determines"
            if r["pairs"] == r["kept_values"]
            else "is determined by"
        )
        out.append((kept[r["kept"] - 1], qi[r["qi"] - 1], how))
    return out


def refuse_linked(
    store: Store, name: str, kept: Sequence[str], qi: Sequence[str], kept_table: str
) -> None:
    """Refuse a kept column tied to a QI by a functional dependency, in one line naming both."""
    linked = linked_pairs(store, kept, qi, kept_table)
    if linked:
        k, q, how = linked[0]
        more = f" ({len(linked) - 1} more such pair(s))" if len(linked) > 1 else ""
        raise InputError(
            f"{name}: kept column {k!r} {how} quasi-identifier {q!r}{more}: released as given it "
            f"would undo the generalization of {q!r}; declare it a quasi-identifier or drop it"
        )


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


def _shown(source: TableSource | Dataset) -> str:
    """How messages name the table: its file as given, or the dataset's source."""
    if isinstance(source, Dataset):
        return source.source if source.source != "python" else "python table"
    return str(Path(source)) if isinstance(source, (str, Path)) else "python table"


def record_read(store: Store, run: Run, files: Sequence[Path]) -> None:
    """Record the files a table run reads beside its table (its taxonomies, its hierarchy)
    as the run's in the registry, so that no output replaces them while the run is kept."""
    for path in files:
        if path.is_file():
            store.registry.record_file(str(path), "run", run.id)
