"""Least common generalization (LCG) and Group Generalization Distortion (GGD) of a clustering.

Any clustering given as `cluster_of(tid, cluster)` in the current run schema is released by
giving every transaction the LCG of its cluster (Clump, SECRYPT 2010): a multiset of hierarchy
nodes in which each copy stands for one distinct item of every transaction of the cluster, as
specific as possible; items left over are suppressed. One statement per step covers all clusters.
"""

from __future__ import annotations

from ..engine.contract import Workspace


def lcg(store: Workspace) -> None:
    """Create `lcg(cluster, node, copies)`: the LCG of every cluster of `cluster_of`."""
    store.run("lcg_of_clustering")


def ggd(store: Workspace) -> float:
    """Create `ggd(cluster, size, items, lcg_items, lm_sum, suppressed, ggd)` from `lcg` and
    return the clustering's total GGD.

    GGD(S) = |S| * (sum of LM over LCG(S)) + N_s, with N_s the item occurrences of S that no copy
    represents: every transaction keeps exactly |LCG(S)| of its items.
    """
    store.run("ggd_of_clustering")
    return float(store.run("ggd_summary").one()["ggd"])


def release(store: Workspace) -> float:
    """Release every transaction as its cluster's LCG (table `release`, a row per copy); return
    the total GGD."""
    lcg(store)
    total = ggd(store)
    store.run("release_from_lcg")
    return total
