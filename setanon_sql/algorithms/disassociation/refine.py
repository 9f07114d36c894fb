"""REFINE (Terrovitis et al., PVLDB 2012, Section 4.3): joint clusters and shared chunks.

A term that fewer than k records of each cluster hold is published in the clusters' term
chunks only as present: its count and its co-occurrences are lost. Over several clusters it
may reach k. REFINE joins clusters into a joint cluster and runs VERPART over the joint
cluster's records for such terms: the terms held by at least k of its records go, greedily by
descending support, into shared chunks, each k^m-anonymous over the joint cluster's records,
and leave the term chunks. The paper joins clusters whose term chunks have terms in common;
HORPART's order puts clusters split from the same partition side by side, so here
`joint_size` neighbours in that order form a joint cluster (a joint cluster is kept only when
it gets a shared chunk).

A term is a candidate of a joint cluster when every occurrence of it there is a term-chunk
occurrence (no member cluster has it in a record chunk): then a shared chunk is exactly the
projection of the joint cluster's records on its domain, and each item keeps one place per
cluster. As everywhere, SQL counts (one statement per itemset size for all joint clusters)
and Python decides (verpart.greedy).
"""

from __future__ import annotations

from typing import Any

from ...engine.contract import Workspace
from . import verpart
from .horpart import cluster_count


def refine(
    store: Workspace, *, k: int, m: int, joint_size: int, groups: dict[int, int] | None = None
) -> dict[str, Any]:
    """Form the joint clusters and their shared chunks; update the term chunks. `groups`
    (cluster -> group, clusters of a group numbered consecutively): no joint cluster
    crosses two groups."""
    if groups is None:
        groups = {c: 0 for c in range(1, cluster_count(store) + 1)}
    joints = joint_plan(groups, joint_size)
    store.run(
        "dis_joints_from_lists",
        {"joint": [j for j, _ in joints], "cluster": [c for _, c in joints]},
    )
    shared = verpart.verpart(store, k=k, m=m, units="verpart_units_of_joints")
    lists = verpart.domain_lists(shared)
    store.run(
        "dis_shared_from_lists",
        {"joint": lists["unit"], "chunk": lists["chunk"], "item": lists["item"]},
    )
    kept = sorted(shared)
    store.run(
        "dis_joints_from_lists",
        {
            "joint": [j for j, c in joints if j in shared],
            "cluster": [c for j, c in joints if j in shared],
        },
    )
    store.run("dis_terms")
    figures = verpart.figures(shared)
    return {
        "joint_clusters": len(kept),
        "shared_chunks": figures["chunks"],
        "shared_terms": figures["chunk_terms"],
    }


def joint_plan(groups: dict[int, int], joint_size: int) -> list[tuple[int, int]]:
    """(joint, cluster): every `joint_size` neighbours in cluster order form a joint cluster,
    a new one starting wherever the group changes.

    Example:
        >>> joint_plan({1: 0, 2: 0, 3: 0, 4: 1, 5: 1}, 2)
        [(1, 1), (1, 2), (2, 3), (3, 4), (3, 5)]
    """
    out: list[tuple[int, int]] = []
    joint, filled, group = 0, 0, None
    for cluster in sorted(groups):
        if groups[cluster] != group or filled == joint_size:
            joint, filled, group = joint + 1, 0, groups[cluster]
        out.append((joint, cluster))
        filled += 1
    return out
