"""Classes of at least `size` rows cut top-down along the QIs' taxonomies: Mondrian's median
cuts (LeFevre, DeWitt & Ramakrishnan, ICDE 2006) on taxonomy nodes, for the (k, k^m) model
whose items need classes far larger than k (Poulis et al. 2013 cluster the QIs first too).

Why beside k-ANON-CF at k = size: on Adult + WV2 at 1,000 rows a class the cover still loses
less on the QIs (relational NCP 0.400 against 0.474), but the cuts take 4 s instead of 18-34 s
and reach 10^6 rows (benchmarks/README.md).

One round cuts every open part at once: one statement counts the rows of every part under
every leaf of every attribute (`rt_cuts_counts`); Python picks, per part, the attribute whose
cut lowers the part's loss most (the children of the node closing the part's values, each
child of at least `size` rows its own part, the smaller ones together, or, when fewer than
`size` together, sent to a pool that is cut on its own afterwards, `POOL`); one statement moves
the rows (`rt_cuts_apply`). A part no attribute can cut is closed. Parts only ever hold `size`
rows or more.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa

from ..progress import Progress
from ..store.database import Store
from ..store.hierarchy import Hierarchy
from .taxonomy import CostMeasure

Leaves = dict[int, int]  # leaf -> rows


@dataclass(frozen=True)
class Cut:
    """How one part is cut along one attribute: its leaves sent to bins, and the loss saved
    (rows times the cost the attribute's closure loses)."""

    attr: int
    gain: float
    bins: tuple[tuple[int, ...], ...]  # leaves of each bin
    pooled: tuple[int, ...] = ()  # leaves sent to the pool


def closure(tree: Hierarchy, lo: int, hi: int) -> int:
    """The deepest node whose preorder interval holds leaves lo..hi."""
    node = lo
    while not (node <= lo and tree.last[node] >= hi):
        node = tree.parent[node]
    return node


POOL = -1
"""The part that gathers, in the first pass, every part's too few rows off its cut's branches
(a few hundred foreign-born rows of a class of thousands): cut on its own in a second pass
rather than making every class of theirs pay for them."""


def best_cut(
    attr: int, tree: Hierarchy, leaves: Leaves, size: int, cost: Sequence[float], pool: bool
) -> Cut | None:
    """The cut of a part along one attribute, or None when it would leave one bin. With `pool`
    the rows of branches too small to stand alone, when fewer than `size` together, go to the
    pool (the last bin) instead of joining the smallest bin.

    Example:
        >>> from setanon_sql.store.hierarchy import from_edges
        >>> t = from_edges([("m", "*"), ("f", "*")])
        >>> ids = t.id_of()
        >>> cut = best_cut(1, t, {ids["m"]: 5, ids["f"]: 4}, 3, [1.0, 0.0, 0.0], False)
        >>> cut.gain, len(cut.bins)
        (9.0, 2)
    """
    node = closure(tree, min(leaves), max(leaves))
    if tree.is_leaf(node):
        return None
    kids = tree.children(node)
    groups: dict[int, list[int]] = defaultdict(list)
    for leaf in leaves:
        groups[kids[bisect_right(kids, leaf) - 1]].append(leaf)
    rows = {c: sum(leaves[x] for x in ls) for c, ls in groups.items()}
    big = sorted((c for c in groups if rows[c] >= size), key=lambda c: (rows[c], c))
    rest = sorted(x for c in groups if rows[c] < size for x in groups[c])
    if not big:
        return None
    bins: list[list[int]] = [sorted(groups[c]) for c in big]
    roots: list[int] = list(big)
    pooled: tuple[int, ...] = ()
    if rest:
        if sum(leaves[x] for x in rest) >= size:
            bins.append(rest)
            roots.append(closure(tree, rest[0], rest[-1]))
        elif pool:
            pooled = tuple(rest)
        else:
            bins[0] = sorted(bins[0] + rest)
            roots[0] = node
    if len(bins) + bool(pooled) < 2:
        return None
    whole = sum(leaves[x] for b in bins for x in b) * cost[node]
    after = sum(sum(leaves[x] for x in b) * cost[r] for b, r in zip(bins, roots, strict=True))
    return Cut(attr, whole - after, tuple(tuple(b) for b in bins), pooled)


def choose(
    trees: Sequence[Hierarchy], costs: Sequence[Sequence[float]], part: dict[int, Leaves],
    size: int, pool: bool,
) -> Cut | None:  # fmt: skip
    """The part's cut of largest gain (ties: the first attribute), None if none cuts it."""
    cuts = [best_cut(a, trees[a - 1], part[a], size, costs[a - 1], pool) for a in sorted(part)]
    found = [c for c in cuts if c is not None]
    return max(found, key=lambda c: (c.gain, -c.attr)) if found else None


def cut_classes(
    store: Store, trees: Sequence[Hierarchy], fn: CostMeasure, size: int, progress: Progress
) -> int:
    """Cut the loaded table's rows into classes of at least `size` and keep them as
    `cluster(rid, cluster)`; the number of classes. The first pass pools the rows off small
    branches (`POOL`); the second cuts the pool alone, without a pool; a pool of fewer than
    `size` rows joins the smallest class."""
    costs = [[float(fn(t, i)) for i in range(t.size)] for t in trees]
    store.run("rt_cuts_start")
    sizes: dict[int, int] = {}
    next_id = _cut_pass(store, trees, costs, size, [0], 1, sizes, pool=True, progress=progress)
    pooled = int(store.run("rt_cuts_pool_rows", {"pool": POOL}).one()["rows"])
    if pooled >= size:
        sizes[POOL] = pooled
        _cut_pass(store, trees, costs, size, [POOL], next_id, sizes, pool=False, progress=progress)
    elif pooled:
        into = min(sizes, key=lambda p: (sizes[p], p))
        store.run("rt_cuts_merge_pool", {"pool": POOL, "into": into})
    store.run("rt_cuts_clusters")
    return int(store.run("rt_cuts_count").one()["classes"])


def _cut_pass(
    store: Store, trees: Sequence[Hierarchy], costs: Sequence[Sequence[float]], size: int,
    open_parts: list[int], next_id: int, sizes: dict[int, int], *, pool: bool,
    progress: Progress,
) -> int:  # fmt: skip
    """Cut the open parts round by round until none cuts; `sizes` ends holding every closed
    part's rows. The next free part id."""
    rounds = 0
    while open_parts:
        rounds += 1
        progress(f"cuts round {rounds}", rounds - 1, rounds)
        store.put_arrow("rt_part_open", pa.table({"part": pa.array(open_parts, pa.int64())}))
        parts: dict[int, dict[int, Leaves]] = defaultdict(lambda: defaultdict(dict))
        for p, a, leaf, rows in store.run("rt_cuts_counts").tuples("part", "attr", "leaf", "rows"):
            parts[p][a][leaf] = rows
        moves: list[tuple[int, int, int, int]] = []
        open_parts = []
        for p in sorted(parts):
            cut = choose(trees, costs, parts[p], size, pool)
            if cut is None:
                sizes[p] = sum(parts[p][min(parts[p])].values())
                continue
            sizes.pop(p, None)
            for b in cut.bins:
                moves.extend((p, cut.attr, leaf, next_id) for leaf in b)
                open_parts.append(next_id)
                next_id += 1
            moves.extend((p, cut.attr, leaf, POOL) for leaf in cut.pooled)
        if moves:
            cols = list(zip(*moves, strict=True))
            store.put_arrow(
                "rt_cut_to",
                pa.table(
                    {
                        "part": pa.array(cols[0], pa.int64()),
                        "attr": pa.array(cols[1], pa.int32()),
                        "leaf": pa.array(cols[2], pa.int32()),
                        "new_part": pa.array(cols[3], pa.int64()),
                    }
                ),
            )
            store.run("rt_cuts_apply")
    return next_id
