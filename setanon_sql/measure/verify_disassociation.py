"""The verifier of disassociated releases (#28), from the released tables and the original data.

Checks (each one statement of `sql/verify_disassociation.sql`, every cluster at once):
- every transaction is in exactly one cluster, every cluster is released with its size, and
  holds at least k records; suppressed occurrences are original ones and empty no record;
- an item is released in one place of its cluster only (record chunk, shared chunk or term
  chunk), every item of the cluster's records is released there and nothing else;
- every record chunk is exactly the projection of its cluster's records on its domain, and
  every shared chunk of its joint cluster's (the same multiset of non-empty subrecords);
- every record chunk and shared chunk is k^m-anonymous: no itemset of at most m of its items
  is held by 1..k-1 of its rows;
- every term-chunk term is held by fewer than k records of its cluster (the format's promise);
- no inference pins an itemset (#40): every itemset of at most m terms has, over the
  reconstructions consistent with the release, no candidates or at least k (the candidates
  of a placement of the rows are the records that hold the itemset in some placement of the
  term chunk's terms; `algorithms/disassociation/cover.py` states the adversary and derives
  the counts). With n records, R record-chunk rows, T term-chunk terms, cap = min(n, k-1),
  slack = R + T cap - n and room = slack - t for an itemset of one term of each of p record
  chunks and t term-chunk terms, a cluster without shared chunks fails exactly when
  - p >= 2 and 1 <= room // (p - 1) <= k - 1 (a cover: chunk terms coupled across chunks), or
  - p = 0 and room = -1 and n - R <= k - 1 (term-chunk terms that fit only on the records
    left without a row, e.g. `a b` x5 and `hiv` x4, k=5: hiv on exactly those 4);
  a chunk term with term-chunk terms (p = 1) is held by its rows or by no reconstruction.
  Shared chunks are judged on the safe side (a placement with k holders must be found).
  The counts come from one statement over every cluster (`dv_cover_shapes`).

The check's working tables are temporary; the offending rows stay in `dv_violations`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..algorithms.disassociation import cover
from ..engine import ddl, sqlfiles
from ..engine.contract import Workspace
from ..errors import ParamsError

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


def verify(store: Workspace, *, k: int, m: int) -> DisassociationReport:
    """Check the current run schema's disassociated release against the dataset."""
    if k < 1 or m < 1:
        raise ParamsError("k and m must be >= 1")
    store.require_data()
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
        from ..engine import builders as queries  # sqlglot, as for the k^m verifier

        sql = queries.render(
            queries.km_violations(m, singles="dv_chunk_rows", frequent="dv_chunk_frequent")
        )
        store.execute(ddl.create_table_as("dv_km", sql, temp=True), {"k": k}, step="dv_km")
    per_size = dict(store.run("dv_km_per_size").tuples("size", "itemsets"))
    return {s: int(per_size.get(s, 0)) for s in range(1, m + 1)}


def information_loss(store: Workspace, *, prepared: bool = False) -> dict[str, Any]:
    """What a disassociated release loses, over the original item instances: the share
    released only in term chunks (their co-occurrence and count are not published), in
    shared chunks, suppressed; the share of distinct items released in no record or shared
    chunk. NCP and LM (generalization costs) do not apply: every term is released as is.
    `prepared`: the verifier's tables are there already (right after `verify`)."""
    if not prepared:
        prepare(store)
    row = store.run("dv_loss").one()
    instances = max(int(row["instances"]), 1)
    return {
        "ncp": None,
        "lm": None,
        "suppressed": int(row["suppressed"]),
        "instances": int(row["instances"]),
        "term_chunk_share": int(row["term_chunk_instances"]) / instances,
        "shared_chunk_share": int(row["shared_chunk_instances"]) / instances,
        "record_chunk_share": int(row["record_chunk_instances"]) / instances,
        "suppressed_share": int(row["suppressed"]) / instances,
        "term_only_items": int(row["term_only_items"]) / max(int(row["items"]), 1),
        "clusters": int(row["clusters"]),
        "record_chunks": int(row["record_chunks"]),
        "shared_chunks": int(row["shared_chunks"]),
    }


def violations(store: Workspace, limit: int = 20) -> list[dict[str, Any]]:
    """The first offending rows found by the last check."""
    return store.run("dv_violations_shown", {"n": limit}).dicts()
