"""HORPART: the horizontal partitioning of disassociation (Terrovitis et al., PVLDB 2012,
Section 4.1).

The paper splits a partition on its most frequent term not used yet: the records holding it
form one part, the others another, and both are split again until a part holds fewer than
`max_cluster` records. Records that share frequent terms so end up together, and those terms
reach k in their cluster, where VERPART can publish their co-occurrence.

Here every partition of a level is split in the same statements (`sql/disassociation.sql`,
`horpart_*`), so the number of statements grows with the depth of the recursion, not with the
number of partitions. A level splits each partition on all its split terms at once: the
records holding its most frequent term, of the others those holding the next one, and so on
(the chain of splits the paper makes on the records left over, with the supports counted
once per level instead of after every split). Measured on BMS-WebView-2 (k=10, m=2, joint
clusters of 8): splitting off one group per partition and level, as the paper's chain with
supports counted after every split, took 474 s of statements and gave query errors within
1.3 points of these (random 1/2/3-itemsets 16.0/60.4/80.9 % against 16.0/61.7/81.8 %,
frequent 16.3/42.2/36.1 % against 16.5/42.9/36.7 %). A split keeps at least k records on each side, as the paper's must for its
clusters to be k-anonymous: a term is a split term when at least k records hold it and at
least k do not. The groups are split off in that order while the records left hold
`max_cluster` or more and both sides keep k (the paper's chain stops there too); the records
left form the rest, which the next level splits again with its own supports if it is still
large. A partition of `max_cluster` records or more that no split term can split is cut into
pieces of at most `max_cluster` (and at least k) records in the order of their item lists.
"""

from __future__ import annotations

from typing import Any

from ...engine.contract import Workspace
from ...engine.log import row_count
from ...progress import Progress


def horpart(
    store: Workspace,
    *,
    k: int,
    max_cluster: int,
    min_split: int,
    progress: Progress,
    seeded: int | None = None,
) -> dict[str, Any]:
    """Split the transactions into clusters; fill `cluster_members(cluster, tid)`. `seeded`:
    the caller made the first partitions (`seeded` of them, numbered from 0, in
    `horpart_part`, `horpart_active` and `horpart_done`), e.g. one per class of a table's
    QIs, and every split stays inside one of them; else partition 0 holds every record."""
    if seeded is None:
        store.run("horpart_start", {"max": max_cluster})
        store.run("horpart_start_active")
        store.run("horpart_start_done")
    level = 0
    made = 1 if seeded is None else seeded
    active = store.count("horpart_active")
    while active:
        level += 1
        progress("horpart level", level, None)
        store.run("horpart_first", {"k": k})
        store.run("horpart_groups")
        groups = store.run("horpart_groups_read").tuples("part", "rank", "size")
        parts, ranks = split(groups, k=k, max_cluster=max_cluster, min_split=min_split)
        store.run("horpart_children_from_lists", {"part": parts, "rank": ranks})
        if None in ranks:  # a partition to cut
            store.run("horpart_cut", {"k": k, "max": max_cluster})
        else:
            store.run("horpart_no_cut")
        store.run("horpart_next", {"next": made, "max": max_cluster})
        made += row_count(store.run("horpart_record_parts", {"level": level}))
        store.run("horpart_record_done")
        active = row_count(store.run("horpart_advance"))
    store.run("horpart_clusters")
    clusters = cluster_count(store)
    return {"horpart_levels": level, "clusters": clusters}


def split(
    groups: list[tuple[int, int | None, int]], *, k: int, max_cluster: int, min_split: int = 0
) -> tuple[list[int], list[int | None]]:
    """The level's decision: which groups (part, rank) are split off as children, and which
    partitions are cut (rank None). A partition splits off its groups in rank order, as the
    paper's chain does, while what is left of it holds `max_cluster` records or more and both
    sides keep k; the records left form its rest.

    Example:
        >>> split([(0, 1, 50), (0, 2, 30), (0, 3, 12), (0, None, 8)], k=10, max_cluster=40)
        ([0, 0], [1, 2])
    """
    by_part: dict[int, list[tuple[int | None, int]]] = {}
    for part, rank, size in groups:
        by_part.setdefault(int(part), []).append((rank, int(size)))
    parts: list[int] = []
    ranks: list[int | None] = []
    for part, members in by_part.items():
        left = sum(size for _, size in members)
        peeled = 0
        for rank, size in members:
            if left < max_cluster:
                break
            if rank is not None and size >= max(k, min_split) and left - size >= k:
                parts.append(part)
                ranks.append(int(rank))
                left -= size
                peeled += 1
        if not peeled:
            parts.append(part)
            ranks.append(None)
    return parts, ranks


def cluster_count(store: Workspace) -> int:
    """How many clusters `cluster_members` holds (they are numbered 1..n)."""
    return int(store.run("dis_cluster_count").one()["clusters"] or 0)
