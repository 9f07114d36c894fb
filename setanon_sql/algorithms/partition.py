"""Partition (He & Naughton, VLDB 2009, Algorithm 1): transactional k-anonymity by top-down,
local generalization.

All transactions start generalized to the root. Each round expands, in every partition of the
frontier at once, the cut node of largest information gain, distributes the partition's
transactions into buckets by the children their items fall under, and balances the buckets
(small ones go to a leftover partition that keeps the parent's cut). The SQL is in
`sql/partition.sql`; this module only drives the rounds and reads their counts.

Options:
    leftover: "final" (default; the paper: leftover and rolled-back partitions are not split
        again) or "split" (they keep the parent's cut and go on splitting on their other nodes,
        as the public Python implementation of Partition does).
"""

from __future__ import annotations

from typing import Any

from ..errors import InfeasibleError, ParamsError
from ..params import Params
from ..store import Store, quote
from . import Progress

LEFTOVER = ("final", "split")
_INTERMEDIATE = (
    "partition_child_rank",
    "partition_expand_step",
    "partition_cover",
    "partition_cover_next",
    "partition_bucket",
    "partition_balance",
    "partition_split",
)


def run(store: Store, params: Params, progress: Progress) -> dict[str, Any]:
    """Partition the data top-down, then release every transaction under its partition's cut."""
    figures = top_down(store, params, progress)
    store.run("partition_final")
    store.run("partition_release")
    figures["classes"] = store.scalar("SELECT count(*) FROM partition_final", step="classes")
    return figures


def leftover_mode(params: Params) -> str:
    mode = params.options.get("leftover", "final")
    if mode not in LEFTOVER:
        raise ParamsError(f"option leftover must be one of {LEFTOVER}, got {mode!r}")
    return mode


def top_down(store: Store, params: Params, progress: Progress) -> dict[str, Any]:
    """Run the rounds until no partition can be expanded; fill partition_of and partition_cut.

    Why level-synchronous: partitions are independent once made, so one statement per step
    serves every partition of a level and the number of statements grows with the depth of
    the recursion, not with the number of partitions.
    """
    keep_leftover = leftover_mode(params) == "split"
    transactions = store.scalar("SELECT count(*) FROM tids", step="transactions")
    if transactions < params.k:
        raise InfeasibleError(
            f"k = {params.k} is larger than the data ({transactions} transactions)"
        )
    scale = store.scalar(
        "SELECT (SELECT count(*) FROM node WHERE is_leaf) * (SELECT count(*) FROM tx)",
        step="ncp_scale",
    )
    store.run("partition_child_rank")
    store.run("partition_expand_step")
    store.run("partition_start_of")
    store.run("partition_start_cut")
    active = _rows(store.run("partition_start_cover"))
    if params.keep_intermediate:
        store.execute(
            "CREATE OR REPLACE TABLE partition_gain_log AS "
            "SELECT 0 AS level, * FROM (SELECT 0 AS pid, 0 AS node, 0::HUGEINT AS gain_units, "
            "0.0::DOUBLE AS gain) WHERE false",
            step="partition_gain_log",
        )
    level = 0
    next_pid = 1
    made = splits = 0
    while active:
        level += 1
        progress("partition level", level, None)
        store.run("partition_gain", {"scale": float(scale)})
        if params.keep_intermediate:
            store.execute(
                "INSERT INTO partition_gain_log SELECT $level, * FROM partition_gain",
                {"level": level},
                step="partition_gain_log",
            )
        store.run("partition_bucket")
        store.run("partition_balance", {"k": params.k, "next": next_pid})
        store.run("partition_split", {"k": params.k})
        new = _rows(store.run("partition_frontier"))
        if new:
            store.run("partition_add_cuts")
            store.run("partition_move")
            next_pid = store.scalar("SELECT max(pid) + 1 FROM partition_frontier", step="next_pid")
            made += new
        splits += store.scalar(
            "SELECT count(DISTINCT parent) FROM partition_frontier", step="splits"
        )
        active = _rows(store.run("partition_next_cover", {"keep_leftover": keep_leftover}))
        store.execute("DROP TABLE partition_cover", step="partition_cover")
        store.execute(
            "ALTER TABLE partition_cover_next RENAME TO partition_cover", step="partition_cover"
        )
    if not params.keep_intermediate:
        for table in _INTERMEDIATE:
            store.execute(f"DROP TABLE IF EXISTS {quote(table)}", step="drop_intermediate")
    return {"levels": level, "partitions_made": made, "partitions_split": splits}


def _rows(result) -> int:
    """The row count a CREATE TABLE AS / INSERT / UPDATE reports."""
    return int(result.rows[0][0]) if result.rows else 0
