"""Clump: transactional k-anonymity by clustering with generalization and suppression.

Every cluster of >= k transactions is released as its least common generalization (see
`setanon_sql.lcg`); a greedy search keeps the total GGD low. The design is batched: each round is
a fixed handful of statements over all clusters at once, never a loop over pairs.

1. Order the transactions by similarity: by length (a length mismatch costs suppressions), then by
   their items in preorder (neighbours share subtrees), then by tid; cut the order into blocks of
   k consecutive transactions.
2. Seed one cluster per whole block (n // k of them) with the block's middle transaction, so the
   seeds spread evenly over the order and are mutually dissimilar.
3. Growth rounds, while some cluster has fewer than k transactions. An open cluster's pool is its
   shortlist from the last round (the members still free) or, when that is used up, every free
   transaction of the `reach` blocks on either side of its own. One statement costs every
   (cluster, pool transaction) pair: how much the addition raises the cluster's GGD, exactly and
   in whole numbers (GGD * (leaves - 1)); each cluster keeps its `keep` cheapest as its shortlist.
   Matching passes then share them out: every candidate not yet taken goes to the cluster where
   it costs least among those with room left this round (at most `batch` additions, never beyond
   k members), and each cluster takes the cheapest candidates it won; passes repeat until one adds
   nothing. Ties: smaller cost, then smaller cluster id (for a transaction) or tid (for a cluster).
4. An open cluster that finds no candidate is dissolved and its members freed (while no cluster is
   complete it doubles its reach instead, so the search always ends).
5. The transactions left over (n mod k, plus members of dissolved clusters) each join the cluster
   where they cost least among the clusters within `reach` blocks, all costed against the
   clusters as grown; one with no cluster in reach waits for a round with a doubled reach.
   Clusters therefore hold k or more transactions (more where leftovers joined them).

Options (`Params.options`): reach (default 15 blocks), batch (default k), keep (default 2 * k).
The first round costs about 2 * reach * n pairs whatever k is; later rounds cost only the
shortlists. A wider reach finds closer transactions (lower GGD) and costs time proportionally.
On WV2 at k = 10, reach 5 / 8 / 15 gave GGD 151k / 141k / 127k; a batch of k (a cluster may fill
up in one round from the candidates it won) gave 2-6 % lower GGD than k / 2 or 3, in fewer rounds.

Tables kept: `cluster_of(tid, cluster)`, `lcg(cluster, node, copies)`, `ggd` (per cluster) and
`release`; with `keep_intermediate` also `tx_count`, `clump_order`, `cluster_count`,
`clump_cluster` and the last round's `clump_pool`, `clump_candidates`, `clump_round`,
`clump_stuck`.
"""

from __future__ import annotations

from typing import Any

from .. import lcg
from ..params import Params
from ..store import Store, quote
from . import Progress

INTERMEDIATE = (
    "tx_count", "clump_order", "clump_free", "cluster_count", "clump_cluster",
    "clump_pool", "clump_candidates", "clump_round", "clump_stuck",
)  # fmt: skip
UNLIMITED = 2**31 - 1


def run(store: Store, params: Params, progress: Progress) -> dict[str, Any]:
    """Cluster the transactions greedily by GGD and release each cluster's LCG."""
    opts, k = params.options, params.k
    store.run("clump_tx_count")
    store.run("clump_order", {"k": k})
    n = int(store.scalar("SELECT count(*) FROM clump_order"))
    scale = int(store.scalar("SELECT max(leaf_count) - 1 FROM node"))
    store.run("clump_seeds", {"k": k, "clusters": n // k})
    store.run("clump_free")
    store.run("clump_start_counts")
    store.run("clump_start_clusters", {"reach": opts["reach"]})
    store.run("clump_no_candidates")
    rounds = dissolved = 0
    while cluster_sizes(store, k)[0]:
        rounds += 1
        store.run("clump_pool_growth", {"k": k})
        store.run("clump_candidate_costs", {"scale": scale, "keep": opts["keep"]})
        dissolved += dissolve_stuck(store, k)
        store.run("clump_round_start")
        while store.run("clump_choice_growth", {"k": k, "batch": opts["batch"]}).rows[0][0]:
            pass
        add_round(store, k=k, blocks=n // k + 1)
        progress("clump: grow clusters", n - rows(store, "clump_free"), n)
    reach = opts["reach"]
    while rows(store, "clump_free"):
        rounds += 1
        store.run("clump_pool_remainder", {"reach": reach})
        store.run("clump_candidate_costs", {"scale": scale, "keep": UNLIMITED})
        store.run("clump_choice_remainder")
        add_round(store, k=k, blocks=n // k + 1)
        reach *= 2
    total = lcg.release(store)
    if not params.keep_intermediate:
        for name in INTERMEDIATE:
            store.execute(f"DROP TABLE IF EXISTS {quote(name)}", step=f"drop_{name}")
    return {
        "clusters": rows(store, "ggd"),
        "dissolved": dissolved,
        "rounds": rounds,
        "reach": opts["reach"],
        "batch": opts["batch"],
        "ggd": round(total, 4),
        "suppressed_share": round(
            float(store.scalar("SELECT sum(suppressed) / sum(items) FROM ggd")), 6
        ),
    }


def rows(store: Store, table: str) -> int:
    return int(store.scalar(f"SELECT count(*) FROM {quote(table)}"))


def cluster_sizes(store: Store, k: int) -> tuple[int, int]:
    """How many clusters are still open (under k transactions) and how many are complete."""
    row = store.query(
        "SELECT count(*) FILTER (WHERE size < $k), count(*) FILTER (WHERE size >= $k) "
        "FROM clump_cluster",
        {"k": k},
    )[0]
    return int(row[0]), int(row[1])


def dissolve_stuck(store: Store, k: int) -> int:
    """Dissolve the open clusters that found no candidate, once some cluster is complete."""
    store.run("clump_stuck", {"k": k})
    stuck = rows(store, "clump_stuck")
    if not stuck or not cluster_sizes(store, k)[1]:
        return 0
    for step in ("free", "members", "counts", "clusters"):
        store.run(f"clump_dissolve_{step}")
    return stuck


def add_round(store: Store, *, k: int, blocks: int) -> None:
    """Fold the round's additions (table `clump_round`) into the clusters' state."""
    store.run("clump_add_members")
    store.run("clump_update_counts")
    store.run("clump_update_clusters", {"k": k, "blocks": blocks})
    store.run("clump_remove_free")
