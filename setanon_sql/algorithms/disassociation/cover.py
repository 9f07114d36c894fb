"""Covers: what the shape of a disassociated cluster lets an adversary infer, checked exactly,
and repaired by partial suppression before anything is released.

The safe-disassociation paper (Awad, Al Bouna, Couchot & Philippe, 2019) shows that chunks
that are each k^m-anonymous can still give away that a few records hold terms of different
chunks together: when the terms are tightly coupled, the constraints every reconstruction must
meet leave no room for more (the "cover problem"). Stated exactly, the adversary knows:
- the cluster's size n; every record is non-empty;
- a record chunk holds the non-empty projections of the cluster's records on its domain, so
  each record has at most one row in it; a shared chunk likewise over its joint cluster;
- every term-chunk term is held by at least 1 and at most min(n, k-1) records of its cluster
  (VERPART puts every term of support >= k into a record chunk, so a worst-case adversary
  knows the bound).
A reconstruction is any assignment of rows and terms to the records meeting these. The
promise checked here: for every itemset S of at most m terms that some record of a cluster
holds, with S_R the part of S in record or shared chunks touching 2..m chunks, some
reconstruction has at least k records of the cluster holding S_R; the adversary then cannot
rule out that k records hold it. (Inside one chunk this is k^m-anonymity itself; a term-chunk
term is linked to its cluster of at least k records and never to a row, as in the paper.)

Without shared chunks the most records that can hold S_R is exact: with R the cluster's
record-chunk rows, T its term-chunk terms and p the chunks S_R touches, x records can hold S_R
if and only if the rows left can still make every other record non-empty:
(R - p x) + T min(n, k-1) >= n - x, so
    max records holding S_R = min(rows holding each part, (R + T min(n, k-1) - n) // (p - 1)).
Each part is held by at least k rows, so the cluster is safe exactly when its slack
R + T min(n, k-1) - n is at least (p - 1) k for the largest p a record of it touches (at most
m). With shared chunks, shared rows may fill any record of the joint cluster; a placement is
built that puts x = k records holding S_R in the cluster and covers every other record, which
proves the bound (it may miss placements, so it errs on the safe side).

Repair (partial suppression, as the safe-disassociation paper does): in an unsafe cluster the
record chunk of least rows is dissolved: its terms lose occurrences until k-1 records hold
each, and join the term chunk. Each step removes a chunk, so at most p drops to 1; occurrences
are suppressed in records that keep another term, and never the last term of a record. The
clusters are then chunked again and checked again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import VerificationError
from ...store import Store

MAX_REPAIR_ROUNDS = 64


@dataclass(frozen=True)
class ClusterShape:
    """What the adversary sees of one cluster, with the touch shapes its records have."""

    cluster: int
    size: int
    chunk_rows: int
    term_cover: int
    touches: tuple[tuple[int, int], ...]  # (record chunks, shared chunks) a record touches
    joint: int | None
    shared_rows: int

    @property
    def deficit(self) -> int:
        """Records that its own rows and terms cannot make non-empty: shared rows must."""
        return max(0, self.size - self.chunk_rows - self.term_cover)


def shapes(store: Store, *, k: int, m: int) -> list[ClusterShape]:
    """Every cluster's shape (`cover_figures`, one statement for all clusters)."""
    store.run("cover_figures", {"k": k, "m": m})
    rows = store.query(
        "SELECT cluster, size, chunk_rows, term_cover, touches, joint, shared_rows "
        "FROM cover_figures ORDER BY cluster",
        step="cover_shapes",
    )
    return [shape_of(row) for row in rows]


def shape_of(row: tuple) -> ClusterShape:
    """A ClusterShape from a row (cluster, size, chunk_rows, term_cover, touches, joint,
    shared_rows), as `cover_figures` and the verifier's `dv_cover_shapes` give it."""
    c, n, r, t, touches, j, s = row
    shape = tuple(sorted(tuple(int(v) for v in x) for x in touches or ()))
    return ClusterShape(int(c), int(n), int(r), int(t), shape, j, int(s or 0))


def unsafe(found: list[ClusterShape], *, k: int, m: int) -> list[int]:
    """The clusters where some itemset of <= m terms could be pinned to fewer than k records."""
    deficits: dict[int | None, int] = {}
    for c in found:
        if c.joint is not None:
            deficits[c.joint] = deficits.get(c.joint, 0) + c.deficit
    out = []
    for c in found:
        others = deficits.get(c.joint, 0) - c.deficit if c.joint is not None else 0
        if any(not _holds(c, others, p, q, k) for p, q in _parts(c.touches, m)):
            out.append(c.cluster)
    return out


def _parts(touches: tuple[tuple[int, int], ...], m: int) -> set[tuple[int, int]]:
    """Every (record chunks, shared chunks) an itemset of <= m terms of one record may touch,
    when it touches two chunks or more."""
    out = set()
    for chunks, shared in touches:
        for p in range(chunks + 1):
            for q in range(shared + 1):
                if 2 <= p + q <= m:
                    out.add((p, q))
    return out


def _holds(c: ClusterShape, others: int, p: int, q: int, k: int) -> bool:
    """Whether a reconstruction puts k records holding an itemset that touches p record chunks
    and q shared chunks into this cluster (p >= 1), or into its joint cluster (p = 0)."""
    if p == 0:
        # all in shared chunks: k records anywhere in the joint cluster, placed first on
        # records that need a shared row anyway
        return c.shared_rows - q * k >= max(0, others + c.deficit - k)
    if c.size < k:
        return False
    own = (c.chunk_rows - p * k) + c.term_cover  # rows and terms left for the other records
    need = max(0, (c.size - k) - own)
    return need + others <= c.shared_rows - q * k


def slack(c: ClusterShape) -> int:
    """R + T min(n, k-1) - n: how many rows beyond one per record the cluster can spare."""
    return c.chunk_rows + c.term_cover - c.size


def make_safe(store: Store, *, k: int, m: int, refined: bool) -> dict[str, Any]:
    """Check every cluster; repair the unsafe ones until none is left. Returns figures."""
    found = unsafe(shapes(store, k=k, m=m), k=k, m=m)
    first = len(found)
    rounds = 0
    while found:
        rounds += 1
        if rounds > MAX_REPAIR_ROUNDS:
            raise VerificationError(f"covers left after {MAX_REPAIR_ROUNDS} repair rounds")
        repair(store, found, k=k, m=m, refined=refined)
        found = unsafe(shapes(store, k=k, m=m), k=k, m=m)
    suppressed = int(store.scalar("SELECT count(*) FROM dis_suppressed", step="suppressed"))
    return {"unsafe_clusters": first, "repair_rounds": rounds, "suppressed": suppressed}


def repair(store: Store, clusters: list[int], *, k: int, m: int, refined: bool) -> None:
    """Dissolve the record chunk of least rows of each unsafe cluster (partial suppression)."""
    raise NotImplementedError("cover repair")
