"""The verifier of a table release whose set column is disassociated inside every QI class
(`rt_dis`), checked in SQL from the release and the original table alone:
- the table: every released QI value generalizes the original and every class of the release
  (rows of equal released QI values) holds at least k rows (the table verifier, `verify_table`);
- the shape: every cluster's rows lie in one class, every joint cluster's clusters in one class,
  and every row's released `set_cluster` is the cluster the chunks hold its record in
  (`rtd_verify_shape`);
- the chunks: every check of a disassociated release, per cluster (`disassociation.checks`:
  clusters of at least k records, chunks the exact projections of their records, every chunk
  k^m-anonymous, term chunks below k, no cover), against the table's items as loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..algorithms.disassociation.checks import DisassociationReport, check
from ..engine import ddl
from ..engine.builders import render
from ..engine.rt_builders import release_classes
from ..store.database import Store
from .output import TableReport, verify_table


@dataclass(frozen=True)
class RtDisReport:
    """The table verifier's report, the chunks' and the shape's problems."""

    table: TableReport
    sets: DisassociationReport
    crossing_clusters: int
    crossing_joints: int
    unlinked_rows: int

    @property
    def ok(self) -> bool:
        shape = self.crossing_clusters or self.crossing_joints or self.unlinked_rows
        return self.table.ok and self.sets.ok and not shape

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.table.as_dict(),
            "ok": self.ok,
            "set_release": "disassociate",
            "sets": self.sets.as_dict(),
            "crossing_clusters": self.crossing_clusters,
            "crossing_joints": self.crossing_joints,
            "unlinked_rows": self.unlinked_rows,
        }


def verify_rt_dis(
    store: Store,
    qi: Sequence[str],
    k: int,
    m: int,
    sensitive: str | None = None,
    l: float | None = None,  # noqa: E741
    *,
    kept: Sequence[str] = (),
) -> RtDisReport:
    """Check the current run's `table_release` and chunks against `rel_source` and `rt_labels`
    (the original table and its items as loaded)."""
    table = verify_table(store, qi, k, sensitive, l, kept=kept)
    store.execute(ddl.create_table_as("rt_class", render(release_classes(qi))), step="rt_class")
    store.run("rtd_verify_shape")
    found = store.run("rtd_verify_summary").one()
    store.run("rtd_tx_raw")  # the original items, as disassociation's checks read them
    store.run("rtd_tids")
    sets = check(store, k=k, m=m)
    return RtDisReport(
        table,
        sets,
        int(found["crossing_clusters"]),
        int(found["crossing_joints"]),
        int(found["unlinked_rows"]),
    )
