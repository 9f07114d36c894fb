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

from ..engine import ddl
from ..engine.builders import render
from ..engine.rt_builders import class_itemsets_below_k, release_classes, release_column
from ..store.database import Store
from ..store.textfile import quoting
from .output import TableReport, verify_table
from .rt_sets import SetColumn


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


def verify_rt(
    store: Store,
    qi: Sequence[str],
    column: SetColumn,
    k: int,
    m: int,
    sensitive: str | None = None,
    l: float | None = None,  # noqa: E741
    *,
    kept: Sequence[str] = (),
) -> RtReport:
    """Check the current run's `table_release` against `rel_source` and `rt_labels` (the
    original table and its items as loaded) for (k, k^m)-anonymity (and ℓ-diversity)."""
    table = verify_table(store, qi, k, sensitive, l, kept=kept)
    store.execute(ddl.create_table_as("rt_class", render(release_classes(qi))), step="rt_class")
    store.execute(
        ddl.create_table_as("rt_release_column", render(release_column(column.name))),
        step="rt_release_column",
    )
    if column.is_list:
        store.run("rt_release_set_list")
    else:  # quoting respected, as the input's
        store.run("rt_release_set_quoted_text", quoting(column.sep))
    store.run("rt_verify_items")
    store.run("rt_released_nodes")
    store.execute(
        ddl.create_table_as("violations_rt_km", render(class_itemsets_below_k(m))),
        {"k": k},
        step="violations_rt_km",
    )
    found = store.run("rt_verify_summary").one()
    return RtReport(table, m, int(found["item_problems"]), int(found["failing_km"]))
