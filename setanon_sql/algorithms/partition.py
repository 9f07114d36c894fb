"""Partition (He & Naughton, VLDB 2009, Algorithm 1): transactional k-anonymity by top-down,
local generalization.

All transactions start generalized to the root. Each round expands, in every partition of the
frontier at once, the cut node of largest information gain (by default the gain its split
realizes, see `pick`), distributes the partition's transactions into buckets by the children
their items fall under, and balances the buckets (small ones go to a leftover partition that
keeps the parent's cut). The SQL is in `sql/partition.sql`; this module only drives the rounds
and reads their counts.

A leftover of 1..k-1 transactions takes, from large buckets that keep k, their transactions of
least gain; when they cannot spare enough, or no bucket has k, the split is rolled back.

Options:
    leftover: "split" (default) or "final". With "split", leftover and rolled-back partitions
        keep the parent's cut and go on splitting on their other nodes ("recurse until no node
        can be expanded"); the node that failed is not tried again in that partition, as in the
        public Python implementation of Partition. "final" stops them where they are. "split"
        only refines what "final" releases, so its NCP is never higher (WV2, k=10: 6.298 % vs
        6.403 %).
    gain: "ncp" (default) or "drop". The gain of expanding a node in a partition sums, over the
        partition's items under the node, either the node's own NCP (how the public Python
        implementation weighs it: the loss the expansion makes recoverable further down) or
        the drop in NCP of replacing the node by its child (the issue's one-step reading).
        They agree when the children are leaves (He & Naughton's Table 2: 3/17 vs 2/17).
        "ncp" loses no more on WV2 at any k benchmarked (k=10: 6.298 % vs 6.320 %) and the same
        on WV1's balanced hierarchies, where the two are proportional but at ragged edges.
    pick: "realized" (default) or "nominal". "nominal" expands the node of largest gain over
        the whole partition (the paper's Max_Global_Info_Gain); "realized" counts only the
        transactions that land in buckets of k or more, the ones the split does refine, so a
        node whose gain mostly falls to the leftover ranks lower. As low or lower NCP on every
        WV1 and WV2 benchmark but WV2 at k=50 (9.686 % vs 9.679 %); WV2, k=10: 6.298 % vs
        6.308 %.
"""

from __future__ import annotations

from typing import Any

from .. import runs
from ..catalog import Algorithm, Option, ReleaseKind, Settings
from ..engine.contract import Workspace
from ..engine.log import row_count
from ..progress import Progress
from . import partition_tail

_INTERMEDIATE = (
    "partition_child_rank",
    "partition_expand_step",
    "partition_bucket",
    "partition_outcome",
    "partition_balance",
    "partition_split",
    "partition_blocked",
    "partition_gain",
    "partition_moves",
    "partition_done",
    "partition_tree",
)


def run(store: Workspace, params: Settings, progress: Progress) -> dict[str, Any]:
    """Partition the data top-down, then release every transaction under its partition's cut."""
    figures = top_down(store, params, progress, leftover=leftover_mode(params))
    figures.update(release(store))
    drop_intermediate(store, params)
    return figures


def leftover_mode(params: Settings) -> str:
    return params.options["leftover"]


def gain_mode(params: Settings) -> str:
    return params.options["gain"]


def pick_mode(params: Settings) -> str:
    return params.options["pick"]


def top_down(
    store: Workspace, params: Settings, progress: Progress, *, leftover: str
) -> dict[str, Any]:
    """Run the rounds until no partition can be expanded; fill partition_of and partition_cut.

    Why level-synchronous: partitions are independent once made, so one statement per step
    serves every partition of a level and the number of statements grows with the depth of
    the recursion, not with the number of partitions. Once the buckets left fit in
    `partition_tail.TAIL_ROWS`, statements cost more than their work and the last rounds run
    in Python (not when the per-level tables are kept for inspection).
    """
    size = store.run("partition_size").one()
    runs.check_k(params.k, int(size["transactions"]))
    store.run("partition_child_rank")
    store.run("partition_expand_step", {"drop": gain_mode(params) == "drop"})
    for name in ("start_moves", "start_done", "start_tree", "start_cut", "start_blocked"):
        store.run(f"partition_{name}")
    wide = bool(size["wide"])
    active = row_count(store.run("partition_start_bucket", {"wide": wide}))
    level = made = 0
    work = 0  # bucket rows the SQL rounds read: how much work the data made, for benchmarks
    with store.unordered():  # every window and tie in partition.sql has an explicit order
        while active:
            if active <= partition_tail.TAIL_ROWS and not params.keep_intermediate:
                level, new = partition_tail.run_tail(
                    store, round_rules(params, leftover), progress, level=level, next_pid=made + 1
                )
                made += new
                break
            level += 1
            work += active
            progress("partition level", level, None)
            new, active = _level(
                store, params, level, made + 1, float(size["scale"]), leftover, wide=wide
            )
            made += new
    store.run("partition_of")
    return {"levels": level, "partitions_made": made, "bucket_rows": work}


def round_rules(params: Settings, leftover: str) -> dict[str, Any]:
    """The rules of a round, for the SQL rounds and the Python ones alike."""
    keep_leftover = leftover == "split"
    realized = pick_mode(params) == "realized"
    return {
        "k": params.k,
        "realized": realized,
        "first_only": not (keep_leftover or realized),
        "keep_leftover": keep_leftover,
    }


def _level(
    store: Workspace,
    params: Settings,
    level: int,
    next_pid: int,
    scale: float,
    leftover: str,
    *,
    wide: bool,
) -> tuple[int, int]:
    """One round over the whole frontier: the partitions it makes, the buckets left to try.

    `wide`: whether any node has more than 64 children, so that buckets can hold wide lists;
    without, the statements leave that key out (it doubles the cost of grouping the frontier).
    """
    rules = round_rules(params, leftover)
    keep_leftover = rules["keep_leftover"]
    store.run(
        "partition_outcome",
        {
            "k": params.k,
            "realized": rules["realized"],
            "first_only": rules["first_only"],
            "wide": wide,
        },
    )
    if params.keep_intermediate:
        store.run("partition_gain", {"scale": scale})
        store.run(
            "partition_gain_log_start" if level == 1 else "partition_gain_log_add", {"level": level}
        )
    store.run("partition_balance", {"k": params.k, "next": next_pid})
    store.run("partition_split", {"k": params.k, "wide": wide})
    new = row_count(store.run("partition_grow_tree", {"level": level}))
    if new:
        store.run("partition_add_cuts", {"level": level})
        if params.keep_intermediate:
            store.run("partition_move", {"level": level})
    if keep_leftover:
        store.run("partition_block")
    active = row_count(store.run("partition_next_bucket", {"keep_leftover": keep_leftover}))
    if new:
        active += row_count(store.run("partition_open_bucket", {"wide": wide}))
    store.run("partition_retire")
    return new, active


def release(store: Workspace) -> dict[str, Any]:
    """Write `partition_final` and the `release` from partition_of and partition_cut."""
    classes = row_count(store.run("partition_final"))
    store.run("partition_release")
    return {"classes": classes}


def drop_intermediate(store: Workspace, params: Settings, extra: tuple[str, ...] = ()) -> None:
    """Drop the working tables unless the analyst asked to keep them."""
    if params.keep_intermediate:
        return
    store.drop_tables(*_INTERMEDIATE, *extra, step="drop_intermediate")


OPTIONS = (
    Option(
        "leftover",
        str,
        "split",
        "leftover and rolled-back partitions go on splitting on their other nodes (split) or "
        "stop where they are (final)",
        choices=("split", "final"),
    ),
    Option(
        "gain",
        str,
        "ncp",
        "a node's gain weighs its items by the node's NCP (ncp) or by the NCP drop of one "
        "step down (drop, the paper's reading)",
        choices=("ncp", "drop"),
    ),
    Option(
        "pick",
        str,
        "realized",
        "expand the node whose split realizes the largest gain (realized) or the node of "
        "largest gain over the whole partition (nominal, the paper's)",
        choices=("realized", "nominal"),
    ),
)


ALGORITHM = Algorithm(
    "partition",
    "k",
    ReleaseKind.SETS,
    run,
    summary="top-down local generalization (He & Naughton 2009)",
    options=OPTIONS,
    engines=("duckdb", "spark"),
)
