"""The release of a relational run, its verifier, its loss, and its export.

`table_release` holds every source row (by `rid`) with its QI values replaced by its cluster's
closure and the other columns as loaded. The verifier reads only that table and the source: the
offending rows land in `violations_table_validity`, `violations_table_k`, `violations_table_l`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
from sqlglot import exp, select

from ..engine import ddl
from ..engine.builders import render
from ..errors import ParamsError
from ..store.database import Run, Store
from ..store.outputs import Publication, check_file
from ..store.release_io import copy_to_file
from .data import long_qi


def _c(name: str, table: str | None = None) -> exp.Column:
    return exp.column(name, table=table, quoted=True)


def _subquery(query: exp.Expr, alias: str) -> exp.Subquery:
    """A query as a subquery named `alias` (`long_qi` returns a UNION ALL of selects)."""
    if not isinstance(query, exp.Query):
        raise TypeError(f"not a query: {query!r}")
    return query.subquery(alias, copy=False)


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


def release_query(columns: Sequence[str], qi: Sequence[str]) -> exp.Select:
    """Every source row with its QI columns replaced by its cluster's closure labels."""
    pos = {c: j for j, c in enumerate(qi, 1)}
    items: list[exp.Expr] = [_c("rid", "s"), _c("cluster", "k")]
    for c in columns:
        if c in pos:
            label = exp.Anonymous(
                this="list_extract", expressions=[_c("labels", "l"), exp.Literal.number(pos[c])]
            )
            items.append(label.as_(c, quoted=True))
        else:
            items.append(_c(c, "s"))
    return (
        select(*items)
        .from_(exp.table_("rel_source", quoted=True).as_("s", quoted=True))
        .join(
            exp.table_("cluster", quoted=True).as_("k", quoted=True),
            on=exp.EQ(this=_c("rid", "k"), expression=_c("rid", "s")),
        )
        .join(
            exp.table_("cluster_labels", quoted=True).as_("l", quoted=True),
            on=exp.EQ(this=_c("cluster", "l"), expression=_c("cluster", "k")),
        )
        .order_by(_c("rid", "s"))
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

    @property
    def ok(self) -> bool:
        return not (self.validity_problems or self.failing_k or self.failing_l)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, **self.__dict__}


def validity_query(qi: Sequence[str]) -> exp.Select:
    """Released QI values that are not the original value or one of its ancestors, and source
    rows missing from the release."""
    released = _subquery(long_qi(qi, "table_release"), "r")
    original = _subquery(long_qi(qi, "rel_source"), "o")
    on_attr = lambda a, b: exp.and_(  # noqa: E731
        exp.EQ(this=_c("attr", a), expression=_c("attr", b)),
        exp.EQ(this=_c("label", a), expression=_c("label", b)),
    )
    return (
        select(
            _c("rid", "o"),
            _c("name", "a").as_("column", quoted=True),
            _c("label", "o").as_("original", quoted=True),
            _c("label", "r").as_("released", quoted=True),
        )
        .from_(original)
        .join(
            exp.table_("rel_attr", quoted=True).as_("a", quoted=True),
            on=exp.EQ(this=_c("attr", "a"), expression=_c("attr", "o")),
        )
        .join(
            exp.table_("rel_node", quoted=True).as_("ol", quoted=True),
            on=on_attr("ol", "o"),
            join_type="left",
        )
        .join(
            released,
            on=exp.and_(
                exp.EQ(this=_c("rid", "r"), expression=_c("rid", "o")),
                exp.EQ(this=_c("attr", "r"), expression=_c("attr", "o")),
            ),
            join_type="left",
        )
        .join(
            exp.table_("rel_node", quoted=True).as_("rn", quoted=True),
            on=on_attr("rn", "r"),
            join_type="left",
        )
        .where(
            exp.not_(
                exp.func(
                    "coalesce",
                    exp.Between(this=_c("id", "ol"), low=_c("id", "rn"), high=_c("last", "rn")),
                    exp.false(),
                )
            )
        )
        .order_by(_c("rid", "o"), _c("attr", "o"))
    )


def classes_query(qi: Sequence[str], sensitive: str | None) -> exp.Select:
    """Every equivalence class of the release (same QI values) with its size and diversity."""
    keys = [_c(c) for c in qi]
    inner = select(*keys, exp.Count(this=exp.Star()).as_("n", quoted=True)).from_("table_release")
    if sensitive:
        inner = inner.select(_c(sensitive))
    inner = inner.group_by(*keys, *([_c(sensitive)] if sensitive else []))
    most = exp.Max(this=_c("n")) if sensitive else exp.Literal.number(1)
    size = exp.Sum(this=_c("n"))
    div = exp.Div(this=exp.cast(size, "DOUBLE"), expression=most) if sensitive else exp.null()
    return (
        select(*keys, size.as_("support", quoted=True), div.as_("diversity", quoted=True))
        .from_(inner.subquery("per_value", copy=False))
        .group_by(*keys)
    )


def verify_table(
    store: Store,
    qi: Sequence[str],
    k: int,
    sensitive: str | None = None,
    l: float | None = None,  # noqa: E741
) -> TableReport:
    """Check the current run's `table_release`: it generalizes the source row by row, every
    QI combination occurs >= k times, and (with ℓ) every class is ℓ-diverse."""
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
    return TableReport(
        k,
        l,
        rows=found["rows"],
        classes=found["classes"],
        validity_problems=found["validity_problems"],
        failing_k=found["failing_k"],
        failing_l=found["failing_l"],
    )


def loss_query(qi: Sequence[str]) -> exp.Select:
    """The release's cost: per row the mean node cost over the QI attributes (LM by default),
    averaged over rows, and its sum over rows (ANON)."""
    released = _subquery(long_qi(qi, "table_release"), "r")
    per_row = (
        select(_c("rid", "r"), exp.Avg(this=_c("cost", "n")).as_("d", quoted=True))
        .from_(released)
        .join(
            exp.table_("rel_node", quoted=True).as_("n", quoted=True),
            on=exp.and_(
                exp.EQ(this=_c("attr", "n"), expression=_c("attr", "r")),
                exp.EQ(this=_c("label", "n"), expression=_c("label", "r")),
            ),
        )
        .group_by(_c("rid", "r"))
    )
    return select(
        exp.Avg(this=_c("d")).as_("lm", quoted=True), exp.Sum(this=_c("d")).as_("anon", quoted=True)
    ).from_(per_row.subquery("per_row", copy=False))


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
) -> Path:
    """Write a run's release (the source's columns, in row order) to CSV or Parquet, atomically
    (staged in `publication` when one is given)."""
    path, fmt = check_file(path, fmt=fmt)
    table = exp.table_("table_release", db=run, catalog=store.ex.catalog, quoted=True)
    sql = render(select(*[_c(c) for c in columns]).from_(table).order_by(_c("rid")))
    return copy_to_file(store, sql, path, fmt, step="write_table_release", publication=publication)


@dataclass
class TableOutput:
    """A table run's release file, written as the run takes its place (`runs.making`); its
    columns are known once the table is loaded."""

    path: Path
    columns: list[str] = field(default_factory=list)

    def stage(self, store: Store, run: Run, publication: Publication) -> None:
        write_table_release(store, run.schema, self.path, self.columns, publication=publication)

    def in_swap(self, store: Store, run: Run) -> None:
        """Nothing goes into the database."""
