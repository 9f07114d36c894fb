"""LGR (Kim, Electronics 2023): Partition's top-down local generalization, then a bottom-up
reallocation of the transactions that wait in generalized classes.

Top-down, transactions that end below k do not end the recursion: by default the leftover and
rolled-back partitions go on splitting on their other nodes (option leftover="split"; "final"
gives Partition's own top-down). Bottom-up, every transaction of the release with a
generalized item waits (WFQ). Its candidate itemsets are its own items rolled up the hierarchy
level by level, and the cuts of the classes of the release (FinalQ) that generalize it, found
by walking the partition tree (a transaction in one branch may fit a class that a leftover
made in another, where a different node was expanded). In rounds, each moves into a class
with its cheapest candidate itemset, or forms a new class with at least k - 1 other waiting
transactions that share one. It moves only when that lowers its NCP and the class it leaves
keeps k transactions (or is emptied into existing classes). Every move lowers NCP and keeps
every class at k or more, so the release is k-anonymous and its NCP is at most Partition's with
the same options. Kim's own worked example ends with classes below k; this version never does.
The SQL is in `sql/lgr.sql`.
"""

from __future__ import annotations

from typing import Any

from ..catalog import Algorithm, ReleaseKind, Settings
from ..engine.contract import Workspace
from ..engine.log import row_count
from ..progress import Progress
from . import lgr_tail, partition_tail
from .partition import OPTIONS, drop_intermediate, leftover_mode, release, top_down

_INTERMEDIATE = (
    "lgr_ancestor_at",
    "lgr_fit",
    "lgr_fit_frontier",
    "lgr_candidate",
    "lgr_cost",
    "lgr_class",
    "lgr_move",
)


def run(store: Workspace, params: Settings, progress: Progress) -> dict[str, Any]:
    """Partition top-down, reallocate the waiting transactions, release."""
    figures = top_down(store, params, progress, leftover=leftover_mode(params))
    figures.update(reallocate(store, params, progress, first_pid=figures["partitions_made"] + 1))
    figures.update(release(store))
    drop_intermediate(store, params, _INTERMEDIATE)
    return figures


def reallocate(
    store: Workspace, params: Settings, progress: Progress, *, first_pid: int
) -> dict[str, Any]:
    """Move waiting transactions, round by round, while some move lowers NCP.

    It ends because every round lowers the release's total cost, a whole number of leaves.
    """
    store.run("lgr_ancestor_at")
    waiting = row_count(store.run("lgr_cost"))
    candidates = row_count(store.run("lgr_candidate")) + fit_candidates(store)
    rounds = moved = made = 0
    while candidates:
        rounds += 1
        progress("lgr round", rounds, None)
        if rounds > 1:  # fit_candidates has just made the first round's classes
            store.run("lgr_class")
        moves = row_count(store.run("lgr_move", {"k": params.k, "next": first_pid + made}))
        if not moves:
            break
        new = store.run("lgr_new_classes").one()["classes"]
        store.run("lgr_apply_cuts")
        store.run("lgr_apply_moves")
        store.run("lgr_cost")
        moved += moves
        made += new
    return {"waiting": waiting, "lgr_rounds": rounds, "moved": moved, "new_classes": made}


def fit_candidates(store: Workspace) -> int:
    """Add the classes whose cut generalizes a waiting transaction at a lower cost to its
    candidates: one statement per level of the partition tree, for all transactions at once.
    """
    store.run("lgr_fit_none")
    found = row_count(store.run("lgr_fit_start"))
    while found:
        store.run("lgr_fit_gather")
        if found <= partition_tail.TAIL_ROWS:  # a few pairs deep down: walk on in Python
            lgr_tail.walk_tail(store)
            break
        found = row_count(store.run("lgr_fit_step"))
    store.run("lgr_class")
    return row_count(store.run("lgr_fit_candidate"))


ALGORITHM = Algorithm(
    "lgr",
    "k",
    ReleaseKind.SETS,
    run,
    summary="Partition plus bottom-up reallocation (Kim 2023)",
    options=OPTIONS,
)
