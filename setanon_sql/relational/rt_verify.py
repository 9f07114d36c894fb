"""The verifier of a release with relational and transaction attributes: (k, k^m)-anonymity,
checked in SQL from the released table and the original one alone.

The four conditions: every released QI value generalizes the original (the table verifier's
`violations_table_validity`), every class of the release (rows with the same released QI values)
holds at least k rows (`violations_table_k`), every released item generalizes an original item of
its record and every original item is generalized by a released one (`violations_rt_items`), and
inside every class every itemset of at most m released items is held by none or at least k of its
records (`violations_rt_km`). The classes are those of the release, not the algorithm's clusters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlglot import exp, select

from ..engine import ddl
from ..engine.builders import col, itemset_supports, render
from ..store.database import Store
from .output import TableReport, verify_table
from .rt_sets import SetColumn, quoted_items


@dataclass(frozen=True)
class RtReport:
    """The table verifier's report and the set column's: offending rows and itemsets."""

    table: TableReport
    m: int
    item_problems: int
    failing_km: int

    @property
    def ok(self) -> bool:
        return self.table.ok and not (self.item_problems or self.failing_km)

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.table.as_dict(),
            "ok": self.ok,
            "m": self.m,
            "item_problems": self.item_problems,
            "failing_km": self.failing_km,
        }


def release_classes(qi: Sequence[str]) -> exp.Select:
    """Every released row's class: rows with the same released QI values share one.

    Example:
        >>> print(release_classes(["age"]).sql("duckdb"))
        SELECT "rid", DENSE_RANK() OVER (ORDER BY "age") AS "class" FROM "table_release"
    """
    rank = exp.Window(
        this=exp.func("dense_rank"),
        order=exp.Order(expressions=[exp.Ordered(this=exp.column(c, quoted=True)) for c in qi]),
    )
    return select(exp.column("rid", quoted=True), rank.as_("class", quoted=True)).from_(
        exp.table_("table_release", quoted=True)
    )


def class_itemsets_below_k(m: int) -> exp.Expr:
    """Every class's itemsets of 1..m released items held by 1..$k-1 of its records."""
    parts: list[exp.Select] = []
    for size in range(1, m + 1):
        q = itemset_supports("rt_released_nodes", size, tid="rid", item="node")
        q = q.select(
            *[
                exp.cast(exp.null(), "INTEGER").as_(f"item_{j}", quoted=True)
                for j in range(size + 1, m + 1)
            ]
        )
        parts.append(
            select(
                col("s", "class"),
                exp.Literal.number(size).as_("size", quoted=True),
                *[col("s", f"item_{j}") for j in range(1, m + 1)],
                col("s", "support"),
            ).from_(
                q.select(col("i1", "class").as_("class", quoted=True))
                .group_by(col("i1", "class"))
                .subquery("s", copy=False)
            )
        )
    out: exp.Query = parts[0]
    for p in parts[1:]:
        out = exp.union(out, p, distinct=False)
    return out


def release_column(name: str) -> exp.Select:
    """The released set column as `(rid, items)`."""
    return select(
        exp.column("rid", quoted=True), exp.column(name, quoted=True).as_("items", quoted=True)
    ).from_(exp.table_("table_release", quoted=True))


def verify_rt(
    store: Store,
    qi: Sequence[str],
    column: SetColumn,
    k: int,
    m: int,
    sensitive: str | None = None,
    l: float | None = None,  # noqa: E741
) -> RtReport:
    """Check the current run's `table_release` against `rel_source` and `rt_labels` (the
    original table and its items as loaded) for (k, k^m)-anonymity (and ℓ-diversity)."""
    table = verify_table(store, qi, k, sensitive, l)
    store.execute(ddl.create_table_as("rt_class", render(release_classes(qi))), step="rt_class")
    store.execute(
        ddl.create_table_as("rt_release_column", render(release_column(column.name))),
        step="rt_release_column",
    )
    if column.is_list:
        store.run("rt_release_set_list")
    else:
        store.run("rt_release_set_text", {"sep": column.sep})
    if not column.is_list and len(column.sep) == 1:  # quoting respected, as the input's
        quoting = {"sep": column.sep, "pattern": quoted_items(column.sep)}
        store.run("rt_release_set_quoted_text", quoting)
    store.run("rt_verify_items")
    store.run("rt_released_nodes")
    store.execute(
        ddl.create_table_as("violations_rt_km", render(class_itemsets_below_k(m))),
        {"k": k},
        step="violations_rt_km",
    )
    found = store.run("rt_verify_summary").one()
    return RtReport(table, m, int(found["item_problems"]), int(found["failing_km"]))
