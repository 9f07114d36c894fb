"""Clump: transactional k-anonymity by clustering with generalization and suppression.

Every cluster of >= k transactions is released as its least common generalization (see
`setanon_sql.lcg`); the search keeps the total GGD low. Each step is a fixed handful of
statements over all clusters at once, never a loop over pairs.

The transactions are first put in similarity order: by their items' ancestors from the top down
(the ancestors one level below the root, dominant ones first, each with its count as a power of
`coarse`; then length, then the exact multisets of every level's ancestors), then tid.
Neighbours share the top of the tree, where GGD is earned or lost most (a copy kept one level
below the root saves most of its cost), and mixing lengths costs only the suppressions.
(Ordering by length first gave NCP 33 % on WV2 at k = 10.) The coarse counts matter for long
transactions: with exact counts, 30 items under one node and 6 under another sat between 31 and
29 under the first with any number under the second, so a run of ten mixed 6 to 27 items under
the second node and suppressed the difference; as powers of 1.35 the first count ties and the
second decides (WV2 k = 10, before exchanges: NCP per copy 21.5 -> 20.9 %, after: 20.3 -> 19.8 %).

method=runs (default): one statement costs every run of k to 2k - 1 consecutive transactions of
the order as a cluster (exactly, GGD * (M - 1)); the cheapest cut of the order into such runs is
a shortest path over the positions, decided in Python. On WV2 at k = 10 this gives NCP 20.9 %
(exact counts 21.5 %; with those and ancestors in id order 22.2 %, and there the greedy 24.7 %,
fixed blocks of k 24.9 %). Then `passes` passes of exchanges: clusters up to `span` apart in the
order are paired, d apart at a time and by parity so that no cluster is in two pairs, and each
pair makes its best swap of two members, or move out of a cluster above k, among each side's
`outs` misfits (the members whose leaving saves most), when the pair's GGD drops; the change is
costed exactly from each cluster's sorted counts per node (leave-one-out c(p)).
WV2 k = 10: 20.9 -> 19.8 %.

method=greedy: seeded clusters grow in batched rounds:

1. Cut the order into blocks of k consecutive transactions.
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

Options (`Settings.options`): method (runs), coarse (1.35; 1 compares exact counts); for runs
passes (3), span (5), outs (6); for the greedy reach (default 15 blocks), batch (default k),
keep (default 2 * k).
The first round costs about 2 * reach * n pairs whatever k is; later rounds cost only the
shortlists. A wider reach finds closer transactions (lower GGD) and costs time proportionally.
On WV2 at k = 10 (order by length, then items), reach 5 / 8 / 15 gave GGD 151k / 141k / 127k; a
batch of k gave 2-6 % lower GGD than k / 2 or 3, in fewer rounds.

Tables kept: `cluster_of(tid, cluster)`, `lcg(cluster, node, copies)`, `ggd` (per cluster) and
`release`; with `keep_intermediate` also `tx_count`, `clump_order`, `clump_segment` (every
run's cost), `clump_run` (the chosen runs) and the last phase's `clump_swap*` tables, or for
the greedy `cluster_count`,
`clump_cluster` and the last round's `clump_pool`, `clump_candidates`, `clump_round`,
`clump_stuck`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..catalog import Algorithm, Option, ReleaseKind, Settings
from ..engine import sqlfiles
from ..engine.contract import Workspace
from ..engine.log import row_count
from ..progress import Progress
from . import lcg

INTERMEDIATE = (
    "tx_count", "clump_order", "clump_segment", "clump_run", "clump_swap", "clump_swap_side",
    "clump_swap_member", "clump_swap_node", "clump_swap_cost", "clump_swap_loo",
    "clump_swap_misfit", "clump_touched", "clump_dirty", "clump_free", "cluster_count",
    "clump_cluster", "clump_pool", "clump_candidates", "clump_round", "clump_stuck",
)  # fmt: skip
UNLIMITED = 2**31 - 1
SWAP_STATE_STEPS = tuple(
    f"clump_swap_{step}" for step in ("members", "nodes", "costs", "leave_one_out", "misfits")
)


def run(store: Workspace, params: Settings, progress: Progress) -> dict[str, Any]:
    """Cluster the transactions by GGD (best runs of the order, or the greedy) and release each
    cluster's LCG."""
    opts, k = params.options, params.k
    store.run("clump_tx_count")
    store.run("clump_order", {"k": k, "coarse": opts["coarse"]})
    n = store.count("clump_order")
    scale = int(store.run("clump_scale").one()["scale"])
    if opts["method"] == "runs":
        info = cluster_runs(store, k=k, n=n, scale=scale)
        info |= improve(store, k=k, scale=scale, opts=opts)
    else:
        info = cluster_greedy(store, opts, k=k, n=n, scale=scale, progress=progress)
    total = lcg.release(store)
    if not params.keep_intermediate:
        store.drop_tables(*INTERMEDIATE, step="drop_intermediate")
    summary = store.run("ggd_summary").one()
    return {
        "method": opts["method"],
        "clusters": int(summary["clusters"]),
        **info,
        "ggd": round(total, 4),
        "suppressed_share": round(float(summary["suppressed_share"]), 6),
    }


def cluster_runs(store: Workspace, *, k: int, n: int, scale: int) -> dict[str, Any]:
    """Cut the order into runs of k to 2k - 1 consecutive transactions of least total GGD.

    One statement costs every candidate run; the cheapest tiling is a shortest path over the
    positions, decided here.
    """
    import pyarrow as pa  # here, not at the top: the registry imports this module (#43)

    store.run("clump_segment_costs", {"k": k, "scale": scale})
    costs: list[int | None] = [None] * (n * k)
    table = store.run_arrow("clump_segment_read")
    for slot, cost in zip(
        table.column("slot").to_pylist(), table.column("cost").to_pylist(), strict=True
    ):
        costs[slot] = cost
    starts = best_runs(costs, n=n, k=k)
    store.put_arrow(
        "clump_run",
        pa.table(
            {
                "pos": pa.array(starts, pa.int64()),
                "cluster": pa.array(range(len(starts)), pa.int32()),
            }
        ),
    )
    store.run("clump_clusters_of_runs")
    return {"runs_ggd": round(best_cost(costs, starts, n=n, k=k) / max(scale, 1), 4)}


def improve(store: Workspace, *, k: int, scale: int, opts: dict[str, Any]) -> dict[str, Any]:
    """Exchange members between clusters up to `span` apart in the order while GGD drops.

    A phase pairs clusters d apart (d = 1..span, each parity), so its exchanges are
    independent: a few statements pick each pair's best swap or move among its clusters'
    `outs` misfits, one carries them out. Stops after `passes` passes or a pass that changes
    nothing. After the first pass a pair is tried again only when one of its clusters changed
    since the same pairing was last tried: its best exchange depends on nothing else, so the
    skipped pairs would find none (on WV2 most pairs are unchanged by then).
    Returns the exchanges made, the pairs tried and the GGD the exchanges were costed to save.
    """
    exchanges = done = saved = tried = 0
    if k == 1:  # every cluster is one transaction and costs nothing
        return {"exchanges": 0, "passes": 0, "pairs_tried": 0, "exchange_saving": 0.0}
    store.run("clump_swap_touched_start")
    store.run("clump_swap_state_start")
    refresh(store, outs=opts["outs"], scale=scale)
    period = 2 * opts["span"]
    for pass_no in range(opts["passes"]):
        done += 1
        before = exchanges
        for slot, (d, parity) in enumerate(
            (d, parity) for d in range(1, opts["span"] + 1) for parity in (0, 1)
        ):
            phase_no = pass_no * period + slot
            store.run(
                "clump_swap_sides", {"d": d, "parity": parity, "phase": phase_no, "period": period}
            )
            pairs = store.count("clump_swap_side") // 2
            if not pairs:
                continue
            tried += pairs
            store.run("clump_swap_choices", {"k": k, "scale": scale})
            swaps = store.run("clump_swap_summary").one()
            chosen, delta = swaps["chosen"], swaps["delta"]
            if chosen:
                store.run("clump_apply_swaps")
                store.run("clump_swap_touch", {"phase": phase_no})
                store.run("clump_swap_dirty")
                refresh(store, outs=opts["outs"], scale=scale)
            exchanges, saved = exchanges + chosen, saved - delta
        if exchanges == before:
            break
    return {
        "exchanges": exchanges,
        "passes": done,
        "pairs_tried": tried,
        "exchange_saving": round(saved / scale, 4),
    }


def refresh(store: Workspace, *, outs: int, scale: int) -> None:
    """Recompute the exchange state of the clusters in `clump_dirty` (all at the start, then
    those the last exchanges changed), so a phase costs only its pairs' choices."""
    store.run("clump_swap_forget_dirty")
    given = {"outs": outs, "scale": scale}
    for step in SWAP_STATE_STEPS:
        store.run(step, {p: given[p] for p in parameters(step)})


def parameters(name: str) -> set[str]:
    """The `$name` parameters a named statement takes (DuckDB refuses any extra one)."""
    return set(re.findall(r"\$([a-z_]+)", sqlfiles.statement(name).sql))


def best_runs(costs: Sequence[int | None], *, n: int, k: int) -> list[int]:
    """Start positions of the cheapest cut of positions 0..n-1 into runs of k to 2k - 1.

    `costs[pos * k + size - k]` is the cost of the run of `size` starting at `pos` (None: not
    a run). Runs of k..2k-1 can tile any n >= k, and a run of 2k or more never needs to be
    one: it splits into two of at least k. Ties go to the shorter last run.

    Example (5 positions, runs of 2 or 3; 1 + 4 beats 5 + 1):
        >>> best_runs([5, 1, 9, 2, 3, 1, 4, None, None, None], n=5, k=2)
        [0, 3]
    """
    best: list[float] = [0.0] + [math.inf] * n
    size_of = [0] * (n + 1)
    for end in range(k, n + 1):
        for size in range(k, min(2 * k - 1, end) + 1):
            cost = costs[(end - size) * k + size - k]
            if cost is not None and best[end - size] + cost < best[end]:
                best[end], size_of[end] = best[end - size] + cost, size
    starts, end = [], n
    while end > 0:
        end -= size_of[end]
        starts.append(end)
    return starts[::-1]


def best_cost(costs: Sequence[int | None], starts: list[int], *, n: int, k: int) -> int:
    """The summed cost of the runs starting at `starts`."""
    ends = [*starts[1:], n]
    return sum(costs[s * k + e - s - k] or 0 for s, e in zip(starts, ends, strict=True))


def cluster_greedy(
    store: Workspace, opts: dict[str, Any], *, k: int, n: int, scale: int, progress: Progress
) -> dict[str, Any]:
    """Grow seeded clusters in batched rounds of candidates within `reach` blocks (see above)."""
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
        while row_count(store.run("clump_choice_growth", {"k": k, "batch": opts["batch"]})):
            pass
        add_round(store, k=k, blocks=n // k + 1)
        progress("clump: grow clusters", n - store.count("clump_free"), n)
    reach = opts["reach"]
    while store.count("clump_free"):
        rounds += 1
        store.run("clump_pool_remainder", {"reach": reach})
        store.run("clump_candidate_costs", {"scale": scale, "keep": UNLIMITED})
        store.run("clump_choice_remainder")
        add_round(store, k=k, blocks=n // k + 1)
        reach *= 2
    return {
        "dissolved": dissolved,
        "rounds": rounds,
        "reach": opts["reach"],
        "batch": opts["batch"],
    }


def cluster_sizes(store: Workspace, k: int) -> tuple[int, int]:
    """How many clusters are still open (under k transactions) and how many are complete."""
    sizes = store.run("clump_cluster_sizes", {"k": k}).one()
    return int(sizes["open"]), int(sizes["complete"])


def dissolve_stuck(store: Workspace, k: int) -> int:
    """Dissolve the open clusters that found no candidate, once some cluster is complete."""
    store.run("clump_stuck", {"k": k})
    stuck = store.count("clump_stuck")
    if not stuck or not cluster_sizes(store, k)[1]:
        return 0
    for step in ("free", "members", "counts", "clusters"):
        store.run(f"clump_dissolve_{step}")
    return stuck


def add_round(store: Workspace, *, k: int, blocks: int) -> None:
    """Fold the round's additions (table `clump_round`) into the clusters' state."""
    store.run("clump_add_members")
    store.run("clump_update_counts")
    store.run("clump_update_clusters", {"k": k, "blocks": blocks})
    store.run("clump_remove_free")


def _runs(options: Mapping[str, Any]) -> bool:
    return options["method"] == "runs"


def _exchanges(options: Mapping[str, Any]) -> bool:
    return options["method"] == "runs" and int(options["passes"]) > 0


def _greedy(options: Mapping[str, Any]) -> bool:
    return options["method"] == "greedy"


ALGORITHM = Algorithm(
    "clump",
    "k",
    ReleaseKind.MULTISETS,
    run,
    allows_suppression=True,
    summary="GGD clustering with generalization and suppression",
    options=(
        Option(
            "method",
            str,
            "runs",
            "cut the similarity order into the runs of k..2k-1 transactions of least "
            "total GGD (runs), or grow seeded clusters greedily (greedy)",
            choices=("runs", "greedy"),
        ),
        Option(
            "passes",
            int,
            3,
            "runs: passes of exchanges between nearby clusters after the cut (0: none)",
            minimum=0,
            acts_when=_runs,
            acts_when_note="with method=runs",
        ),
        Option(
            "span",
            int,
            5,
            "runs: how many clusters apart in the order two clusters may exchange members",
            minimum=1,
            acts_when=_exchanges,
            acts_when_note="with method=runs and passes of at least 1",
        ),
        Option(
            "outs",
            int,
            6,
            "runs: members of a cluster offered for exchange, those whose leaving saves most",
            minimum=1,
            acts_when=_exchanges,
            acts_when_note="with method=runs and passes of at least 1",
        ),
        Option(
            "reach",
            int,
            15,
            "greedy: blocks of k transactions on either side a cluster draws candidates from",
            minimum=1,
            acts_when=_greedy,
            acts_when_note="with method=greedy",
        ),
        Option(
            "batch",
            int,
            lambda k: k,
            "greedy: additions per cluster per round (default k)",
            minimum=1,
            acts_when=_greedy,
            acts_when_note="with method=greedy",
        ),
        Option(
            "keep",
            int,
            lambda k: 2 * k,
            "greedy: candidates a cluster keeps on its shortlist (default 2k)",
            minimum=1,
            acts_when=_greedy,
            acts_when_note="with method=greedy",
        ),
        Option(
            "coarse",
            float,
            1.35,
            "order: counts under the top ancestors compared as powers of this ratio, so "
            "near counts tie and the next ancestor decides (1: exact counts)",
            minimum=1,
        ),
    ),
)
