"""Datasets: one loaded source each, with its own schema, fingerprint and hierarchies.

A transactions dataset lives in schema `setanon_d{id}`: `tids(tid, label)` maps the internal
integer ids to the ids as the source gave them, `tx_raw(tid, label)` holds the items as text.
Each hierarchy used with it lives in `setanon_d{id}_h{n}`: `node` (preorder ids, so "is ancestor
of" is a range test), `closure`, and `tx(tid, item)`, the transactions over leaf ids. Loading the
same source again (same file, size and time, or the same content) reuses the dataset; the same
tree reuses the hierarchy. Each schema keeps the SQL that built it in its `sql_log`.
A table, with or without a set-valued column, is a dataset too (`tables.py`), of its own kind;
`loading.load_dataset` loads any of the three.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, get_args

from ..engine import ddl
from ..engine.duckdb import Executor
from ..engine.log import Logged, Rows
from ..errors import HierarchyError, InputError
from . import sources as load
from .hierarchy import Hierarchy, natural_key
from .registry import Registry

LOG_TABLE = "sql_log"
# The columns of `source_check` that make a source's fingerprint (as `source_fingerprint` made
# it before, so datasets loaded by earlier versions are still found by content).
FINGERPRINT_KEYS = ("pairs", "hash_sum", "hash_xor", "tid_type")


DatasetKind = Literal["transactions", "table", "table_sets"]
"""What a dataset holds: transactions (`tids`, `tx_raw`), a table (`table_raw`), or a table with
a set-valued column (`table_raw` too; its set column is the run's choice)."""
DATASET_KINDS: tuple[DatasetKind, ...] = get_args(DatasetKind)


def dataset_kind(text: str | None) -> DatasetKind:
    """A kind as the registry holds it; a registry made before tables were datasets holds
    transactions only (and NULL nowhere, but read as transactions all the same)."""
    for kind in DATASET_KINDS:
        if text == kind:
            return kind
    if text is None:
        return "transactions"
    raise InputError(
        f"the registry holds a dataset of unknown kind {text!r} (a newer setanon-sql?)"
    )


@dataclass(frozen=True)
class Dataset:
    """A registered dataset."""

    id: int
    schema: str
    kind: DatasetKind
    source: str
    format: str
    fingerprint: str
    rows: int

    @classmethod
    def of(cls, row: dict[str, Any]) -> Dataset:
        return cls(
            row["dataset_id"],
            row["schema_name"],
            dataset_kind(row["kind"]),
            row["source"],
            row["format"],
            row["fingerprint"],
            int(row["rows"] or 0),
        )


@dataclass(frozen=True)
class HierarchyRef:
    """A registered hierarchy of a dataset."""

    id: int
    dataset: int
    schema: str
    source: str
    fingerprint: str

    @classmethod
    def of(cls, row: dict[str, Any]) -> HierarchyRef:
        return cls(
            row["hierarchy_id"],
            row["dataset_id"],
            row["schema_name"],
            row["source"],
            row["fingerprint"],
        )


@dataclass(frozen=True)
class Loaded:
    """A dataset and what loading it noticed."""

    dataset: Dataset
    reused: bool
    duplicates_collapsed: int = 0


def save_log(ex: Executor, entries: list[Logged]) -> None:
    """The statements that built the current schema, as its table `sql_log` (step, the SQL as
    run, its parameters as JSON, seconds)."""
    ex.put_rows(
        LOG_TABLE,
        Rows(
            {
                "seq": ("INTEGER", list(range(1, len(entries) + 1))),
                "step": ("VARCHAR", [e.step for e in entries]),
                "sql": (
                    "VARCHAR",
                    [e.replay_text() if e.data is not None else e.sql for e in entries],
                ),
                "params": (
                    "VARCHAR",
                    [json.dumps(e.params, default=str) if e.params else None for e in entries],
                ),
                "seconds": ("DOUBLE", [round(e.seconds, 6) for e in entries]),
            }
        ),
        bookkeeping=True,
    )


@contextmanager
def building(
    ex: Executor,
    reg: Registry,
    schema: str,
    owner: str,
    owner_id: int,
    *,
    reads: tuple[str, ...] = (),
    log: list[Logged] | None = None,
) -> Iterator[list[Logged]]:
    """Create one of the tool's schemas and make it current (names also resolve in `reads`);
    record the block's SQL, after any statements already in `log`, into its `sql_log`. On any
    failure or interrupt the schema is dropped again, so nothing half-built remains."""
    log = [] if log is None else log
    try:
        with ex.recording(log):
            reg.create_schema(schema, owner, owner_id)
            ex.set_path(schema, *reads)
            yield log
        save_log(ex, log)
        reg.record_tables(schema, owner, owner_id)
    except BaseException:
        if reg.owner_of(schema) is not None:
            reg.drop_schema(schema, force=True)
        raise


def _file_stat(source: load.SourceSpec) -> tuple[int, int | None]:
    """The input's size and time of change; a stream's copy has no time that would tell its
    next content from this one (only the fingerprint then finds a dataset loaded before)."""
    st = source.file.stat()
    return st.st_size, None if source.copy else st.st_mtime_ns


def load_source(
    ex: Executor, reg: Registry, source: load.SourceSpec | dict | list | load.Pairs
) -> Loaded:
    """The dataset of this source: found in the registry, or read, fingerprinted and made."""
    reg.ensure()
    if isinstance(source, load.SourceSpec):
        size, mtime = _file_stat(source)
        found = None
        if mtime is not None:
            found = reg.dataset_by_file(
                "transactions", str(source.path), source.reader(), size, mtime
            )
        if found:
            return Loaded(Dataset.of(found), reused=True)
        desc: dict[str, Any] = {
            "source": str(source.path),
            "format": source.format,
            "reader": source.reader(),
        }
        desc |= {"size": size, "mtime": mtime}
    else:
        desc = {"source": "python", "format": "python", "reader": "{}", "size": None, "mtime": None}
    ids = reg.next_ids()
    schema = reg.free_name(f"setanon_d{ids.dataset}")
    log: list[Logged] = []
    numbered: int | None = None  # a line file's transactions: tids 0.. this many - 1
    try:
        with ex.recording(log):
            if isinstance(source, load.SourceSpec):
                ex.fit_load_threads(size)
                numbered = load.read(ex, source)
            else:
                load.read_python(ex, source)
            ex.run("source_distinct")
            ex.execute(ddl.drop_table("source_pairs"), step="drop_source_pairs")
            problems = ex.run("source_check").one()
            check_problems(problems, desc["source"])
            fingerprint = fingerprint_of({key: problems[key] for key in FINGERPRINT_KEYS})
        same = reg.dataset_by_fingerprint("transactions", fingerprint)
        if same:
            record_source(reg, desc["source"], same)
            return Loaded(Dataset.of(same), reused=True, duplicates_collapsed=0)
        with building(ex, reg, schema, "dataset", ids.dataset, log=log):
            if numbered is None:
                ex.run("make_tids")
                ex.run("make_tx_raw")
            else:  # ranking line numbers 0..n-1 would give them back
                ex.run("make_line_tids", {"transactions": numbered})
                ex.run("make_line_tx_raw")
            stats = ex.run("dataset_size").one()
        reg.add_dataset(
            id=ids.dataset,
            schema=schema,
            kind="transactions",
            fingerprint=fingerprint,
            rows=stats["transactions"],
            items=stats["items"],
            **desc,
        )
    except BaseException:
        if reg.owner_of(schema) is not None:
            reg.drop_schema(schema, force=True)
        raise
    finally:
        for table in (*load.SOURCE_TABLES, "source_distinct"):  # no text copy of the source
            ex.execute(ddl.drop_table(table), step="drop_source", bookkeeping=True)
    row = reg.dataset(ids.dataset)
    return Loaded(
        Dataset.of(row), reused=False, duplicates_collapsed=int(problems["duplicate_rows"])
    )


def record_source(reg: Registry, source: str, dataset: dict[str, Any]) -> None:
    """A dataset found by its content was read this time from `source`: when that is another
    file than the one it was made from, record it too, so no output replaces it."""
    if os.path.isabs(source) and source != dataset["source"]:
        reg.record_file(source, "dataset", dataset["dataset_id"])


def check_problems(problems: dict[str, Any], source: str) -> None:
    """Refuse a source whose `source_check` counts show no usable transactions (both engines
    load through it)."""
    if problems["rows"] == 0:
        raise InputError(f"{source}: no transactions")
    if problems["missing_tid"]:
        raise InputError(f"{source}: {problems['missing_tid']} row(s) without a tid")
    if problems["missing_item"]:
        raise InputError(f"{source}: {problems['missing_item']} row(s) with an empty item")


def fingerprint_of(parts: dict[str, Any]) -> str:
    """A short digest of what identifies a dataset's content."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def hierarchy_fingerprint(h: Hierarchy) -> str:
    """Of the tree's (child, parent) edges, whatever order they were given in; a catalogue's
    apart (its encoding drops the items it lacks, which another use of the tree must not)."""
    digest = hashlib.sha256(b"catalogue\n" if h.catalogue else b"")
    for child, parent in sorted(h.edges()):
        digest.update(f"{len(child)}:{child}{len(parent)}:{parent}\n".encode())
    return digest.hexdigest()[:24]


def item_labels(ex: Executor, dataset: Dataset) -> list[str]:
    """The dataset's distinct item labels, in natural order."""
    found = ex.execute(ddl.distinct_values("label", "tx_raw", dataset.schema), step="item_labels")
    return sorted((label for (label,) in found.tuples("label")), key=natural_key)


def check_covers(h: Hierarchy, items: list[str]) -> None:
    """Every item of the data must be a leaf of the hierarchy (of a catalogue, those it holds:
    the others are dropped, unnamed)."""
    ids = h.id_of()
    missing = [] if h.catalogue else [x for x in items if x not in ids]
    if missing:
        shown = ", ".join(repr(x) for x in missing[:10])
        hint = _whitespace_hint(missing, ids)
        raise HierarchyError(
            f"{len(missing)} item(s) of the data are missing from the hierarchy: {shown}{hint}"
        )
    internal = [x for x in items if x in ids and not h.is_leaf(ids[x])]
    if internal and h.catalogue:
        raise HierarchyError(
            "items of the data are internal nodes of the catalogue (not named: which items the "
            "data holds is what a differentially private run keeps to itself)"
        )
    if internal:
        shown = ", ".join(repr(x) for x in internal[:10])
        raise HierarchyError(f"items of the data are internal nodes of the hierarchy: {shown}")


def _whitespace_hint(missing: list[str], ids: dict[str, int]) -> str:
    stripped = {label.strip(): label for label in ids}
    near = [(x, stripped[x.strip()]) for x in missing if x.strip() in stripped]
    if not near:
        return ""
    x, y = near[0]
    return f" (labels are compared exactly: the data has {x!r}, the hierarchy {y!r})"


def node_columns(h: Hierarchy) -> dict[str, list[Any]]:
    """The hierarchy as one list per column of `node` (preorder id, label, parent, depth,
    subtree end, leaves, costs), bound to `make_node`: the statement is then logged with its
    parameters, which the `sql_log` keeps as JSON, instead of thousands of rows rendered as SQL
    text on every load."""
    n_leaves = h.n_leaves
    ids = range(h.size)
    return {
        "id": list(ids),
        "label": list(h.labels),
        "parent": [p if p >= 0 else None for p in h.parent],
        "depth": list(h.depth),
        "last": list(h.last),
        "leaf_count": list(h.leaf_count),
        "is_leaf": [h.is_leaf(i) for i in ids],
        "ncp": [0.0 if h.is_leaf(i) else h.leaf_count[i] / n_leaves for i in ids],
        "lm": [(h.leaf_count[i] - 1) / (n_leaves - 1) if n_leaves > 1 else 0.0 for i in ids],
    }


def attach_hierarchy(
    ex: Executor, reg: Registry, dataset: Dataset, h: Hierarchy, source: str
) -> tuple[HierarchyRef, bool]:
    """The dataset's hierarchy with these edges: found, or stored with its closure and the
    transactions encoded over its leaves. Returns it and whether it was reused."""
    fingerprint = hierarchy_fingerprint(h)
    found = reg.hierarchy_by_fingerprint(dataset.id, fingerprint)
    if found:
        if os.path.isabs(source) and source != found["source"]:  # the same edges, another file
            reg.record_file(source, "hierarchy", found["hierarchy_id"])
        return HierarchyRef.of(found), True
    check_covers(h, item_labels(ex, dataset))
    ids = reg.next_ids()
    schema = reg.free_name(f"{dataset.schema}_h{ids.hierarchy}")
    with building(ex, reg, schema, "hierarchy", ids.hierarchy, reads=(dataset.schema,)):
        ex.run("make_node", node_columns(h))
        ex.run("closure")
        ex.run("encode_transactions")
    reg.add_hierarchy(
        id=ids.hierarchy,
        dataset=dataset.id,
        schema=schema,
        source=source,
        fingerprint=fingerprint,
        nodes=h.size,
        leaves=h.n_leaves,
        height=h.height(),
    )
    return HierarchyRef.of(reg.hierarchy(ids.hierarchy)), False
