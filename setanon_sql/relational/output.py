"""The release of a relational run, its verifier, its loss, and its export.

`table_release` holds every source row (by `rid`) with its QI values replaced by its cluster's
closure and the kept (and sensitive) columns as loaded; dropped columns are not in it. The
verifier reads only that table and the source: the offending rows land in
`violations_table_validity`, `violations_table_k`, `violations_table_l`. A release file's rows
are sorted by their released values (`release_rows`), never in the input's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..engine import ddl
from ..engine.builders import render
from ..engine.table_release import (
    classes_query,
    loss_query,
    release_query,
    release_rows,
    validity_query,
)
from ..errors import ParamsError
from ..store.database import Run, Store
from ..store.outputs import Publication, check_file
from ..store.release_io import copy_to_file
from .data import linked_pairs


def store_clusters(store: Store, clusters: Sequence[Sequence[int]], name: str) -> None:
    """A clustering as table `name(rid, cluster)`."""
    rids: list[int] = []
    ids: list[int] = []
    for i, rows in enumerate(clusters):
        rids.extend(rows)
        ids.extend([i] * len(rows))
    store.put_arrow(
        name, pa.table({"rid": pa.array(rids, pa.int64()), "cluster": pa.array(ids, pa.int32())})
    )


def make_release(store: Store, columns: Sequence[str], qi: Sequence[str]) -> None:
    store.run("rel_cluster_closure")
    store.run("rel_cluster_labels")
    release = render(release_query(columns, qi))
    store.execute(ddl.create_table_as("table_release", release), step="table_release")


@dataclass(frozen=True)
class TableReport:
    """Counts of offending rows per check; `ok` when every check found none."""

    k: int
    l: float | None  # noqa: E741
    rows: int
    classes: int
    validity_problems: int
    failing_k: int
    failing_l: int
    linked_columns: int = 0  # kept columns a QI determines or that determine one

    @property
    def ok(self) -> bool:
        problems = self.validity_problems or self.failing_k or self.failing_l
        return not (problems or self.linked_columns)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, **self.__dict__}


def verify_table(
    store: Store,
    qi: Sequence[str],
    k: int,
    sensitive: str | None = None,
    l: float | None = None,  # noqa: E741
    *,
    kept: Sequence[str] = (),
) -> TableReport:
    """Check the current run's `table_release`: it generalizes the source row by row, every
    QI combination occurs >= k times, (with ℓ) every class is ℓ-diverse, and no `kept` column
    (released as given) is determined by an original QI or determines one."""
    if l is not None and not sensitive:
        raise ParamsError("l-diversity needs a sensitive column")
    validity = render(validity_query(qi))
    store.execute(
        ddl.create_table_as("violations_table_validity", validity),
        step="violations_table_validity",
    )
    classes = render(classes_query(qi, sensitive))
    store.execute(ddl.create_table_as("table_classes", classes), step="table_classes")
    store.run("rel_violations_k", {"k": k})
    store.run("rel_violations_l", {"l": l})
    found = store.run("rel_verify_summary").one()
    linked = len(linked_pairs(store, kept, qi, "table_release"))
    return TableReport(
        k,
        l,
        rows=found["rows"],
        classes=found["classes"],
        validity_problems=found["validity_problems"],
        failing_k=found["failing_k"],
        failing_l=found["failing_l"],
        linked_columns=linked,
    )


def loss(store: Store, qi: Sequence[str]) -> dict[str, float]:
    return store.execute(render(loss_query(qi)), step="table_loss").one()


def write_table_release(
    store: Store,
    run: str,
    path: str | Path,
    columns: Sequence[str],
    *,
    fmt: str | None = None,
    publication: Publication | None = None,
    list_column: tuple[str, str] | None = None,
) -> Path:
    """Write a run's release (the source's columns, in row order) to CSV or Parquet, atomically
    (staged in `publication` when one is given). `list_column` (name, separator): a list
    column, which a CSV file holds as its items joined by the separator, quoted where needed
    as a text set column is read back."""
    path, fmt = check_file(path, fmt=fmt, replace=True)  # its run checked it before the work
    sql = render(release_rows(columns, run, store.ex.catalog))
    if list_column is not None and fmt == "csv":
        sql = ddl.joined_list_column(sql, *list_column)
    return copy_to_file(store, sql, path, fmt, step="write_table_release", publication=publication)


@dataclass
class TableOutput:
    """A table run's release file, written as the run takes its place (`runs.making`); its
    columns are known once the table is loaded."""

    path: Path
    columns: list[str] = field(default_factory=list)
    list_column: tuple[str, str] | None = None  # a list set column and its CSV separator

    def stage(self, store: Store, run: Run, publication: Publication) -> None:
        write_table_release(
            store, run.schema, self.path, self.columns, publication=publication,
            list_column=self.list_column,
        )  # fmt: skip

    def in_swap(self, store: Store, run: Run) -> None:
        """Nothing goes into the database."""
