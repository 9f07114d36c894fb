"""LGR's walk down the partition tree in Python, once few pairs are left to walk.

Why: the walk that finds the classes whose cut generalizes a waiting transaction takes one
statement per level of the partition tree, and Partition's tree is as deep as its rounds
(62 levels on BMS-WebView-1 with a fan-out-5 hierarchy, k=5), most of them carrying a few
pairs. Below `partition_tail.TAIL_ROWS` pairs the driver reads the subtrees under them, with
the items and expansion steps of their transactions, and finishes the walk here with the
rule of `lgr_fit_step`; the pairs found go to the same `lgr_fit` table.
"""

from __future__ import annotations

from collections import defaultdict

from ..engine.contract import Workspace
from ..engine.log import Rows

Key = tuple[int | None, tuple[int, ...] | None]  # (mask, wide) of a bucket


def walk_tail(store: Workspace) -> int:
    """Walk from the pairs in lgr_fit_frontier to the leaves of the tree; return pairs found."""
    # parent -> expanded node -> the bucket's (mask, wide) -> the partitions made from it
    children: dict[int, dict[int, dict[Key | None, list[int]]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    tree = store.run("lgr_fit_tail_tree").tuples("pid", "parent", "expanded", "mask", "wide")
    for pid, parent, expanded, mask, wide in tree:
        key = (mask, tuple(wide) if wide is not None else None)
        children[parent][expanded].setdefault(key, []).append(pid)
    items: dict[int, list[int]] = defaultdict(list)
    for tid, item in store.run("lgr_fit_tail_items").tuples("tid", "item"):
        items[tid].append(item)
    steps = {
        (item, node): (child, rank, bit)
        for item, node, child, rank, bit in store.run("lgr_fit_tail_steps").tuples(
            "item", "node", "child", "rank", "bit"
        )
    }
    frontier = store.run("lgr_fit_tail_pairs").tuples("tid", "pid")
    found: list[tuple[int, int]] = []
    while frontier:
        frontier = [
            (tid, child)
            for tid, pid in frontier
            for expanded, made in children.get(pid, {}).items()
            for child in made.get(bucket(items[tid], expanded, steps), ())
        ]
        found.extend(frontier)
    name = "lgr_fit_tail_found"
    store.put_rows(  # not Arrow: importing pyarrow (and numpy) cost LGR 0.1 s a process
        name,
        Rows({"tid": ("BIGINT", [f[0] for f in found]), "pid": ("BIGINT", [f[1] for f in found])}),
        temp=True,
    )
    store.run("lgr_fit_tail_gather")
    store.drop_tables(name, temp=True, step="lgr_fit_tail_drop")
    return len(found)


def bucket(items: list[int], expanded: int, steps: dict[tuple[int, int], tuple]) -> Key | None:
    """The children a transaction holds under `expanded` as (mask, wide), as lgr_fit_step
    computes them; None when it holds nothing there."""
    mask: int | None = None
    wide: set[int] = set()
    held = False
    for item in items:
        step = steps.get((item, expanded))
        if step is None:
            continue
        held = True
        child, _, bit = step
        if bit is not None:
            mask = (mask or 0) | bit
        else:
            wide.add(child)
    if not held:
        return None
    return (mask, tuple(sorted(wide)) if wide else None)
