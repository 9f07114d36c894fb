"""Clump: transactional k-anonymity by clustering with generalization and suppression.

Every cluster of >= k transactions is released as its least common generalization (see
`setanon_sql.lcg`); the greedy search keeps the total GGD low. The design, batched so that each
round is a fixed handful of statements over all clusters at once:

1. Order the transactions by similarity: by length (a length mismatch costs suppressions), then by
   their items in preorder (neighbours share subtrees), then by tid.
2. Seed n // k clusters with the middle transaction of each block of k consecutive positions, so
   the seeds spread evenly over the order and are mutually dissimilar.
3. Growth rounds, while some cluster has fewer than k transactions: the pool of each open cluster
   is the free transactions within `radius` positions of its seed (option `window`, default
   2 * k). One statement computes, for every (open cluster, pool transaction) pair, how much the
   addition raises the cluster's GGD, exactly and in whole numbers (GGD * (leaves - 1)). Each open
   cluster proposes its cheapest candidate; a transaction proposed by several clusters goes to the
   cheapest (ties: smaller tid, then smaller cluster id); the others retry next round. An open
   cluster whose pool is empty doubles its radius, so the search always ends.
4. The remaining n mod k (< k) transactions each join the cluster where they cost least, all
   against the clusters as grown (ties: smaller cluster id). Clusters end with k .. 2k - 1
   transactions.

Tables kept: `cluster_of(tid, cluster)`, `lcg(cluster, node, copies)`, `ggd` (per cluster) and
`release`; with `keep_intermediate` also `tx_count`, `clump_order`, `cluster_count`,
`clump_cluster` and the last round's `clump_pool`, `clump_candidates`, `clump_round`.
"""

from __future__ import annotations

from typing import Any

from .. import lcg
from ..errors import ParamsError
from ..params import Params
from ..store import Store, quote
from . import Progress

OPTIONS = ("window",)
INTERMEDIATE = (
    "tx_count", "clump_order", "clump_free", "cluster_count", "clump_cluster",
    "clump_pool", "clump_candidates", "clump_round",
)  # fmt: skip


def window(params: Params) -> int:
    """The initial search radius in positions of the similarity order (default 2 * k)."""
    unknown = sorted(set(params.options) - set(OPTIONS))
    if unknown:
        raise ParamsError(f"unknown option(s) for clump: {', '.join(unknown)}; known: window")
    value = params.options.get("window", 2 * params.k)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ParamsError(f"clump option window must be a whole number >= 1, got {value!r}")
    return value


def run(store: Store, params: Params, progress: Progress) -> dict[str, Any]:
    """Cluster the transactions greedily by GGD and release each cluster's LCG."""
    k, radius = params.k, window(params)
    store.run("clump_tx_count")
    store.run("clump_order")
    n = int(store.scalar("SELECT count(*) FROM clump_order"))
    scale = int(store.scalar("SELECT max(leaf_count) - 1 FROM node"))
    clusters = n // k
    store.run("clump_seeds", {"k": k, "clusters": clusters})
    store.run("clump_free")
    store.run("clump_start_counts")
    store.run("clump_start_clusters", {"radius": radius})
    rounds = 0
    while open_clusters(store, k):
        rounds += 1
        store.run("clump_pool_growth", {"k": k})
        add_round(store, "clump_choice_growth", k=k, n=n, scale=scale)
        progress("clump: grow clusters", n - free(store), n)
    if free(store):
        store.run("clump_pool_remainder")
        add_round(store, "clump_choice_remainder", k=k, n=n, scale=scale)
    total = lcg.release(store)
    if not params.keep_intermediate:
        for name in INTERMEDIATE:
            store.execute(f"DROP TABLE IF EXISTS {quote(name)}", step=f"drop_{name}")
    return {"clusters": clusters, "rounds": rounds, "window": radius, "ggd": round(total, 4)}


def open_clusters(store: Store, k: int) -> int:
    return int(store.scalar("SELECT count(*) FROM clump_cluster WHERE size < $k", {"k": k}))


def free(store: Store) -> int:
    return int(store.scalar("SELECT count(*) FROM clump_free"))


def add_round(store: Store, choice: str, *, k: int, n: int, scale: int) -> None:
    """Cost every pair of the pool, choose the round's additions, and fold them into the state."""
    store.run("clump_candidate_costs", {"scale": scale})
    store.run(choice)
    store.run("clump_add_members")
    store.run("clump_update_counts")
    store.run("clump_update_clusters", {"k": k, "n": n})
    store.run("clump_remove_free")
