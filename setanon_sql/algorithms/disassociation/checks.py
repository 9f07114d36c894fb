"""The checks of a disassociated release (#28) as statements over every cluster at once, below
the verifier (`measure/verify_disassociation.py`, which states them) so that a release of
another shape holding disassociated chunks (a table's set column disassociated inside each
class, `relational/rt_dis.py`) runs the same checks. They read the release tables and
`cluster_members`, `suppressed_items`, `tx_raw(tid, label)` and `tids` of the search path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine import ddl, sqlfiles
from ...engine.contract import Workspace
from . import cover

CHECKS = (
    "dv_members",
    "dv_sizes",
    "dv_suppression",
    "dv_disjoint",
    "dv_places_complete",
    "dv_projections",
    "dv_rows_are_sets",
    "dv_term_support",
)


@dataclass(frozen=True)
class DisassociationReport:
    """Offending rows per problem, k^m violations per itemset size, unsafe clusters."""

    k: int
    m: int
    schema: str
    clusters: int
    problems: dict[str, int] = field(default_factory=dict)
    failing_itemsets: dict[int, int] = field(default_factory=dict)
    unsafe_clusters: int = 0
    model: str = "km"  # the promise: k^m-anonymity, of a disassociated release

    @property
    def ok(self) -> bool:
        return (
            not any(self.problems.values())
            and not any(self.failing_itemsets.values())
            and self.unsafe_clusters == 0
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "model": "km",
            "release": "disassociated",
            "k": self.k,
            "m": self.m,
            "schema": self.schema,
            "clusters": self.clusters,
            "validity_problems": sum(self.problems.values()),
            "problems": dict(self.problems),
            "failing_itemsets": {str(s): n for s, n in self.failing_itemsets.items()},
            "unsafe_clusters": self.unsafe_clusters,
        }


def check(store: Workspace, *, k: int, m: int) -> DisassociationReport:
    """Run every check on the current schema's disassociated release (the caller checked k
    and m and that the data is there)."""
    schema = store.current_schema()
    store.run("dv_start")
    prepare(store)
    for name in CHECKS:
        store.run(name, {"k": k} if "$k" in sqlfiles.statement(name).sql else None)
    problems = dict(store.run("dv_problems").tuples("problem", "n"))
    failing = chunk_km_violations(store, k=k, m=m)
    store.run("dv_cover_shapes", {"k": k})
    rows = store.run("dv_cover_read").tuples(*cover.SHAPE_COLUMNS)
    shapes = [cover.shape_of(row) for row in rows]
    bad = cover.unsafe(shapes, k=k, m=m)
    return DisassociationReport(
        k=k,
        m=m,
        schema=schema,
        clusters=len(shapes),
        problems={str(p): int(n) for p, n in problems.items()},
        failing_itemsets=failing,
        unsafe_clusters=len(bad),
    )


def prepare(store: Workspace) -> None:
    """The numbered records, released rows and places every check reads."""
    store.run("dv_labels")
    store.run("dv_released_records")
    store.run("dv_released_rows")
    store.run("dv_domains")
    store.run("dv_record_places")


def chunk_km_violations(store: Workspace, *, k: int, m: int) -> dict[int, int]:
    """Itemsets of 1..m items of one chunk held by 1..k-1 of its rows, per size (m <= 2 by
    named statements: importing sqlglot would cost the whole process more than the check)."""
    store.run("dv_chunk_rows")
    store.run("dv_chunk_frequent", {"k": k})
    if m <= 2:
        store.run("dv_km_1" if m == 1 else "dv_km_2", {"k": k})
    else:
        from ...engine import builders as queries  # sqlglot, as for the k^m verifier

        sql = queries.render(
            queries.km_violations(m, singles="dv_chunk_rows", frequent="dv_chunk_frequent")
        )
        store.execute(ddl.create_table_as("dv_km", sql, temp=True), {"k": k}, step="dv_km")
    per_size = dict(store.run("dv_km_per_size").tuples("size", "itemsets"))
    return {s: int(per_size.get(s, 0)) for s in range(1, m + 1)}
