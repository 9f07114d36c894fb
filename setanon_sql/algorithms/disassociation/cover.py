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
A reconstruction is any assignment of rows and terms to the records meeting these.

The promise (#40). The adversary knows up to m terms S of a target. A placement of the chunks'
rows on the n records fixes who is who; the term chunk's terms may then sit on any records
the rules allow, so the candidates of S in a placement are the records that hold S in *some*
placement of the terms (the union over them), and S's candidates are the most, over the
placements of the rows. The promise holds when every itemset of at most m terms has no
candidates or at least k. With R the cluster's record-chunk rows, T its term-chunk terms,
cap = min(n, k-1) and the slack R + T cap - n (never negative: the data is a
reconstruction), an itemset whose terms are one from each of p record chunks (each held by
h >= k rows, k^m-anonymity) and t term-chunk terms has, with room = slack - t:
- p >= 2: min(h, room // (p - 1)) candidates: x records holding the chunk part leave R - p x
  rows for the n - x others, and the terms, each giving up one holder to each of the x
  records, must cover what they leave: n - x - (R - p x) <= T cap - t. Unsafe exactly when
  1 <= room // (p - 1) <= k - 1 (a room below p - 1 means no reconstruction holds S at all).
- p = 1: h when room >= 0, else none: the part's holders are the same in every placement.
- p = 0 (t >= 1 term-chunk terms alone): when room >= 0 a placement leaves a record with a
  row able to take S, and every record is a candidate (n >= k). When room = -1 the terms can
  only sit on records holding no row: every placement leaves exactly n - R of them, each
  able to take S, so there are n - R = T cap - t + 1 candidates, unsafe when fewer than k (one
  term of cap holders in n - R = cap rowless records: "hiv" on the 4 records of 9 left
  without a row of {a, b}, k = 5). Below -1, none.
An itemset inside one chunk is k^m-anonymity's; a chunk term with a term-chunk term (p = 1)
is never pinned. `candidates` is this count; a brute-force enumeration of every
reconstruction checks it (tests/test_disassociation_terms.py).
With shared chunks (REFINE), shared rows may fill any record of the joint cluster; a
placement is built that puts k records holding S in the cluster and covers every other
record (`_holds`), which proves the bound (it may miss placements, so it errs on the safe
side: a joint cluster it doubts is undone).

Repair. First without loss: an unsafe cluster is merged with its neighbour in HORPART's order
(a larger cluster has more rows and terms to spare) and the clusters are chunked again.
When a single cluster is left and still unsafe (small data), by partial suppression, as the
safe-disassociation paper does: the record chunk of least rows that allows it is dissolved,
its terms losing occurrences until k-1 records hold each, so they join the term chunk; a
record never loses its last term. Each dissolution removes a chunk and leaves the others as
they were, so the repair ends (a cluster without chunks pins nothing). A REFINE joint cluster whose
shared chunks let a cover through is undone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...engine.contract import Workspace
from ...errors import InfeasibleError, VerificationError
from .horpart import cluster_count

SHAPE_COLUMNS = (
    "cluster",
    "size",
    "chunk_rows",
    "term_cover",
    "terms",
    "chunks",
    "joint",
    "shared_rows",
    "shared_chunks",
)
"""The columns of a cluster's shape, as `cover_figures_read` and the verifier's
`dv_cover_read` give them (read by name): all the release shows of it."""

MAX_REPAIR_ROUNDS = 64


@dataclass(frozen=True)
class ClusterShape:
    """What the adversary sees of one cluster: the counts every reconstruction must meet."""

    cluster: int
    size: int
    chunk_rows: int
    term_cover: int  # terms x min(size, k-1): the most records the term chunk can fill
    terms: int
    chunks: int
    joint: int | None
    shared_rows: int
    shared_chunks: int

    @property
    def deficit(self) -> int:
        """Records that its own rows and terms cannot make non-empty: shared rows must."""
        return max(0, self.size - self.chunk_rows - self.term_cover)


def shapes(store: Workspace, *, k: int, m: int, refined: bool = False) -> list[ClusterShape]:
    """Every cluster's shape (`cover_figures`, one statement for all clusters). `refined`:
    only the joint clusters, shared and term chunks changed since the last call (REFINE), so
    the record-chunk figures are kept and only the shared rows counted again."""
    store.run("cover_figures_refined" if refined else "cover_figures")
    read = store.run("cover_figures_read", {"k": k})
    return [shape_of(row) for row in read.tuples(*SHAPE_COLUMNS)]


def shape_of(row: tuple) -> ClusterShape:
    """A ClusterShape from a row of `SHAPE_COLUMNS` (read by name from `cover_figures_read`
    or the verifier's `dv_cover_read`)."""
    c, n, r, cover, t, chunks, j, s, q = row
    return ClusterShape(
        int(c), int(n), int(r), int(cover), int(t), int(chunks), j, int(s or 0), int(q or 0)
    )


def unsafe(found: list[ClusterShape], *, k: int, m: int) -> list[int]:
    """The clusters where some itemset of <= m terms has 1..k-1 candidates (exact without
    shared chunks, on the safe side with them)."""
    deficits: dict[int | None, int] = {}
    for c in found:
        if c.joint is not None:
            deficits[c.joint] = deficits.get(c.joint, 0) + c.deficit
    out = []
    for c in found:
        if c.joint is None:
            bad = any(0 < candidates(c, p, t, rows=k) < k for p, _, t in itemset_shapes(c, m))
        else:
            others = deficits[c.joint] - c.deficit
            bad = any(not _holds(c, others, p, q, t, k) for p, q, t in itemset_shapes(c, m))
        if bad:
            out.append(c.cluster)
    return out


def itemset_shapes(c: ClusterShape, m: int) -> tuple[tuple[int, int, int], ...]:
    """Every (record chunks, shared chunks, term-chunk terms) an itemset of <= m terms, one
    per chunk, may hold in some reconstruction, but one chunk alone (k^m-anonymity's)."""
    shared = c.shared_chunks if c.joint is not None else 0
    return _shapes(min(m, c.chunks), min(m, shared), min(m, c.terms), m)


@lru_cache(maxsize=4096)
def _shapes(chunks: int, shared: int, terms: int, m: int) -> tuple[tuple[int, int, int], ...]:
    """`itemset_shapes` of the capped counts: a few distinct answers serve every cluster
    (building them anew for each of thousands of clusters was most of the check's time)."""
    return tuple(
        (p, q, t)
        for p in range(chunks + 1)
        for q in range(shared + 1)
        for t in range(terms + 1)
        if 1 <= p + q + t <= m and not (p + q == 1 and t == 0)
    )


def candidates(c: ClusterShape, p: int, t: int, *, rows: int) -> int:
    """The candidates of an itemset of one term from each of p record chunks (the fewest
    rows holding one of them: `rows`) and t term-chunk terms, in a cluster without shared
    chunks (the module's docstring derives it).

    Example:
        >>> hiv = ClusterShape(1, 9, 5, 4, 1, 1, None, 0, 0)  # {a, b} x5 and hiv x4, k=5
        >>> candidates(hiv, 0, 1, rows=5), candidates(hiv, 1, 1, rows=5)
        (4, 0)
    """
    room = slack(c) - t
    if p == 0:
        return c.size if room >= 0 else c.size - c.chunk_rows if room == -1 else 0
    if p == 1:
        return rows if room >= 0 else 0
    return max(0, min(rows, room // (p - 1)))


def _holds(c: ClusterShape, others: int, p: int, q: int, t: int, k: int) -> bool:
    """Whether a reconstruction puts k records holding an itemset that touches p record chunks,
    q shared chunks and t term-chunk terms into this cluster of a joint cluster (or into the
    joint cluster, when all its terms are in shared chunks): a safe itemset either way."""
    if p == 1 and q == 0:
        return True  # the part's rows hold it, or no reconstruction does
    if p == q == 0:  # term-chunk terms alone: a record with a row can take them
        return max(0, c.size - c.chunk_rows - c.term_cover + t) + others <= c.shared_rows
    if p == 0 and t == 0:
        # all in shared chunks: k records anywhere in the joint cluster, placed first on
        # records that need a shared row anyway
        return c.shared_rows - q * k >= max(0, others + c.deficit - k)
    if c.size < k:
        return False
    own = (c.chunk_rows - p * k) + c.term_cover - t  # rows and terms left for the others
    need = max(0, (c.size - k) - own)
    return need + others <= c.shared_rows - q * k


def slack(c: ClusterShape) -> int:
    """R + T min(n, k-1) - n: how many rows beyond one per record the cluster can spare."""
    return c.chunk_rows + c.term_cover - c.size


def make_safe(
    store: Workspace,
    *,
    k: int,
    m: int,
    rechunk: Callable[[], Any],
    groups: Callable[[], dict[int, int]] | None = None,
) -> dict[str, Any]:
    """Check every cluster and repair the unsafe ones until none is left: merge each with a
    neighbour in HORPART's order and chunk again (nothing is lost), or, when it is the only
    cluster of its group, dissolve a record chunk by partial suppression. `rechunk` runs
    VERPART again; `groups` gives every cluster's group (clusters of a group numbered
    consecutively; merges never cross groups), one group of all clusters without it."""
    found = unsafe(shapes(store, k=k, m=m), k=k, m=m)
    first, rounds, merged = len(found), 0, 0
    while found:
        rounds += 1
        if rounds > MAX_REPAIR_ROUNDS:
            raise VerificationError(f"covers left after {MAX_REPAIR_ROUNDS} repair rounds")
        group = groups() if groups else {c: 0 for c in range(1, cluster_count(store) + 1)}
        alone = [c for c in found if partner(c, group) is None]
        if alone:  # by tid: the numbers the merge below changes are not used
            suppress(store, alone, k=k)
        old, new = merge_plan([c for c in found if c not in alone], len(group), group)
        if old:
            store.run("cover_merge_from_lists", {"old": old, "new": new})
            merged += len(found) - len(alone)
        rechunk()
        found = unsafe(shapes(store, k=k, m=m), k=k, m=m)
    suppressed = store.count("dis_suppressed")
    return {
        "unsafe_clusters": first,
        "repair_rounds": rounds,
        "clusters_merged": merged,
        "suppressed": suppressed,
    }


def drop_unsafe_joints(store: Workspace, *, k: int, m: int) -> int:
    """After REFINE: a joint cluster whose shared chunks let a cover through is undone (its
    clusters were safe without it). Returns how many were undone. Called after `make_safe`,
    whose last `cover_figures` holds the record chunks REFINE leaves as they are."""
    dropped = 0
    while True:
        found = shapes(store, k=k, m=m, refined=True)
        bad = set(unsafe(found, k=k, m=m))
        joints = {c.joint for c in found if c.cluster in bad}
        if not joints:
            return dropped
        if None in joints:
            raise VerificationError("a cluster in no joint cluster became unsafe after REFINE")
        keep = [
            (c.joint, c.cluster) for c in found if c.joint is not None and c.joint not in joints
        ]
        store.run(
            "dis_joints_from_lists",
            {"joint": [j for j, _ in keep], "cluster": [c for _, c in keep]},
        )
        store.run("dis_shared_of_joints")
        store.run("dis_terms")
        dropped += len(joints)


def partner(c: int, group: dict[int, int]) -> int | None:
    """The neighbour an unsafe cluster joins: the next one of its group, else the previous
    one, else none (the only cluster of its group).

    Example:
        >>> [partner(c, {1: 0, 2: 0, 3: 1}) for c in (1, 2, 3)]
        [2, 1, None]
    """
    for other in (c + 1, c - 1):
        if other in group and group[other] == group[c]:
            return other
    return None


def merge_plan(
    found: list[int], clusters: int, group: dict[int, int] | None = None
) -> tuple[list[int], list[int]]:
    """Each unsafe cluster joins its next neighbour of its group (the last one its previous):
    the lists (old, new) of every cluster that changes number. Every cluster of `found` has a
    partner (`group`: every cluster's group, one group without it).

    Example:
        >>> merge_plan([2, 3, 5], 5)
        ([3, 4, 5], [2, 2, 2])
        >>> merge_plan([2], 3, {1: 0, 2: 1, 3: 1})
        ([3], [2])
    """
    if group is None:
        group = {c: 0 for c in range(1, clusters + 1)}
    parent = list(range(clusters + 1))

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for c in found:
        other = partner(c, group)
        if other is None:
            raise ValueError(f"cluster {c} has no neighbour in its group to join")
        a, b = root(c), root(other)
        parent[max(a, b)] = min(a, b)
    pairs = [(c, root(c)) for c in range(1, clusters + 1) if root(c) != c]
    return [c for c, _ in pairs], [r for _, r in pairs]


def suppress(store: Workspace, clusters: list[int], *, k: int) -> None:
    """Dissolve, in each cluster, the record chunk of least rows that can be dissolved: keep
    k-1 occurrences of each of its items (first in records that hold nothing else) and
    suppress the others, so the items go to the term chunk. A record never loses its last
    item; a cluster where no chunk can be dissolved so is refused."""
    rows = store.run("cover_cluster_records", {"clusters": clusters}).tuples(
        "cluster", "tid", "item", "chunk"
    )
    records: dict[int, dict[int, dict[int, int | None]]] = {}
    for cluster, tid, item, chunk in rows:
        records.setdefault(int(cluster), {}).setdefault(int(tid), {})[int(item)] = chunk
    tids: list[int] = []
    items: list[int] = []
    for cluster, members in records.items():
        plan = dissolve_plan(members, k=k)
        if plan is None:
            raise InfeasibleError(
                f"no cover-safe disassociation at k = {k}: cluster {cluster} of "
                f"{len(members)} records cannot lose a chunk without emptying a record; "
                "try a smaller k or m"
            )
        for tid, item in plan:
            tids.append(tid)
            items.append(item)
    store.run("cover_suppress_from_lists", {"tid": tids, "item": items})


def dissolve_plan(
    records: dict[int, dict[int, int | None]], *, k: int
) -> list[tuple[int, int]] | None:
    """The occurrences (tid, item) to suppress to dissolve the record chunk of least rows
    that can be dissolved, or None when none can.

    Example:
        >>> recs = {1: {10: 1, 20: 2}, 2: {10: 1}, 3: {20: 2}, 4: {10: 1}, 5: {20: 2}}
        >>> dissolve_plan(recs, k=3)  # 10 keeps 2 records, those holding nothing else
        [(1, 10)]
        >>> dissolve_plan(recs, k=2) is None  # 2 and 4 hold only 10, 3 and 5 only 20
        True
    """
    rows: dict[int, int] = {}
    for items in records.values():
        for chunk in set(c for c in items.values() if c is not None):
            rows[chunk] = rows.get(chunk, 0) + 1
    for chunk in sorted(rows, key=lambda c: (rows[c], c)):
        plan = _dissolve(records, chunk, k)
        if plan is not None:
            return plan
    return None


def _dissolve(
    records: dict[int, dict[int, int | None]], chunk: int, k: int
) -> list[tuple[int, int]] | None:
    holders: dict[int, list[int]] = {}
    for tid in sorted(records):
        for item, c in records[tid].items():
            if c == chunk:
                holders.setdefault(item, []).append(tid)
    # records holding nothing outside the chunk need one kept occurrence each
    needy = sorted(
        (tid for tid, items in records.items() if all(c == chunk for c in items.values())),
        key=lambda t: (len(records[t]), t),
    )
    kept: dict[int, set[int]] = {item: set() for item in holders}
    for tid in needy:
        options = [i for i in sorted(records[tid]) if len(kept[i]) < k - 1]
        if not options:
            return None
        kept[min(options, key=lambda i: (len(kept[i]), i))].add(tid)
    plan = []
    for item, tids in holders.items():
        for tid in tids:
            if len(kept[item]) < k - 1 and tid not in kept[item]:
                kept[item].add(tid)
        plan += [(tid, item) for tid in tids if tid not in kept[item]]
    return sorted(plan)
