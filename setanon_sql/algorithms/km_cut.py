"""Global recoding by a hierarchy cut, shared by AA, DA and OA (Terrovitis, Mamoulis & Kalnis,
"Privacy-preserving anonymization of set-valued data", VLDB 2008).

A cut is a set of hierarchy nodes, no one above another, covering every leaf; every item is
replaced by the cut node above it. Supports are counted in SQL over the *expanded* transactions
(each item with all its ancestors): an itemset of cut nodes has the same support under every cut
holding those nodes, so one table answers for every cut the search visits, and coarsening a cut
never lowers a support (k^m-anonymity is monotone over the lattice of cuts).

Costs are integers, so that ties are exact: a node's cost is its item instances times its leaf
count (0 for a leaf); a cut's NCP is the sum of its nodes' costs / (instances * leaves).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from math import comb

import pyarrow as pa

from ..catalog import Settings
from ..engine import ddl
from ..engine import km_builders as sql
from ..engine.builders import render
from ..engine.contract import Workspace
from ..errors import InfeasibleError, TooLargeError
from ..progress import Progress
from ..store.hierarchy import preorder_children

Itemset = tuple[int, ...]

# The walk's batches start small, because the early violations mostly need fixes and each
# batch's open images have all their generalizations counted up front; they double up to
# LAST_BATCH as later violations are mostly fixed already. Each batch costs two support
# statements (sample and rest) whose scans of `expanded` cost about the same for a few thousand
# new images as for tens of thousands, so the late batches are large: 2^20 violations (synthetic
# 10^6, m=2: 20 support statements instead of 43, 23% less CPU in all); batch size never
# changes the release, only how often SQL is asked.
FIRST_BATCH = 1024
LAST_BATCH = 1_048_576
# From SAMPLE_FROM transactions on, candidates are counted first in the transactions with
# tid % share = 0: a support of k or more there is one in the whole data (the sample is a
# subset), and only the comparison with k is read, so only the others are counted in full.
# Ties the search to nothing random: the same candidates are settled on every run. The share
# grows with the data (`sample_share`), so that the sample stays near what settles most
# candidates: supports grow with |D|, so a sample of a fixed share settles ever more of them
# while it costs ever more to scan. AA m=2 k=10 on synthetic 10^7 (one run each): share 4
# settled 127,496 of 139,933 itemsets in 87.5 s of support statements, share 16 114,422 in
# 62.0 s, same release; at 10^6 share 4 beat 16 and 64 (20.5 s against 22.9 and 28.2).
SAMPLE_FROM = 100_000
SAMPLE_SHARE = 4
SAMPLE_GROWTH = 2_500_000
# What check_itemsets reads the transactions' lengths from (the root aside in `expanded`).
LENGTHS = {"expanded": "km_expanded_lengths", "generalized": "km_generalized_lengths"}


@dataclass(frozen=True)
class Tree:
    """The hierarchy as the search needs it, indexed by preorder node id."""

    parent: tuple[int, ...]
    last: tuple[int, ...]
    depth: tuple[int, ...]
    cost: tuple[int, ...]
    support: tuple[int, ...]
    ancestors: tuple[Itemset, ...]  # each node itself, then up to the root
    instances: int
    leaves: int

    @property
    def size(self) -> int:
        return len(self.parent)

    def is_leaf(self, node: int) -> bool:
        return self.last[node] == node

    def children(self, node: int) -> list[int]:
        return preorder_children(self.last, node)

    def antichain(self, nodes: Iterable[int]) -> Itemset:
        """The nodes with those under another one dropped, in id order (preorder puts an
        ancestor before its descendants)."""
        out: list[int] = []
        for x in sorted(set(nodes)):
            if not out or x > self.last[out[-1]]:
                out.append(x)
        return tuple(out)

    def candidates(self, itemset: Itemset) -> set[Itemset]:
        """Every generalization of `itemset`: each node replaced by itself or an ancestor,
        a node under another chosen one merged into it."""
        return {self.antichain(c) for c in product(*(self.ancestors[x] for x in itemset))}

    def ncp(self, cost: int) -> float:
        return cost / (self.instances * self.leaves) if self.instances else 0.0


def sample_share(transactions: int) -> int:
    """One transaction in how many is in the sample: SAMPLE_SHARE times the whole multiples of
    SAMPLE_GROWTH in the data (at least once), so from 2.5 M transactions on the sample holds
    between 625,000 and 1.25 M of them.

    Example:
        >>> [sample_share(n) for n in (100_000, 1_000_000, 5_000_000, 10_000_000)]
        [4, 4, 8, 16]
    """
    return SAMPLE_SHARE * max(1, transactions // SAMPLE_GROWTH)


def load_tree(store: Workspace) -> Tree:
    """The hierarchy with the item instances and supports under every node; builds `expanded`
    first, whose rows per node are the node's support and which every count reads later."""
    store.run("km_expanded")
    stats = store.run("km_node_stats")
    ids, parent, last, depth, leaves, instances, support = zip(
        *stats.tuples("id", "parent", "last", "depth", "leaf_count", "instances", "support"),
        strict=True,
    )
    ancestors: list[Itemset] = []
    for node, p in enumerate(parent):
        ancestors.append((node,) + (ancestors[p] if p >= 0 else ()))
    return Tree(
        parent=parent,
        last=last,
        depth=depth,
        cost=tuple(
            0 if end == node else n * under
            for node, end, n, under in zip(ids, last, instances, leaves, strict=True)
        ),
        support=support,
        ancestors=tuple(ancestors),
        instances=instances[0],  # the root's: every item instance
        leaves=leaves[0],
    )


class Cut:
    """A cut being coarsened: for every node at or under it, the cut node covering it.

    Nodes above the cut cover themselves, so `cover[x] != x` says "x is generalized away".
    `below[a]` is the cost of the cut within a's subtree, for a at or above the cut.
    """

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.cover = list(range(tree.size))
        self.below = [0] * tree.size  # the leaf cut costs nothing
        self.merges = 0

    def generalized(self, node: int) -> bool:
        return self.cover[node] != node

    def image(self, itemset: Itemset) -> Itemset:
        """What the itemset becomes under this cut (nodes at or under the cut)."""
        return tuple(sorted({self.cover[x] for x in itemset}))

    def change(self, nodes: Itemset) -> int:
        """The cost added by merging these nodes (an antichain at or above the cut) into it."""
        return sum(self.tree.cost[a] - self.below[a] for a in nodes)

    def merge(self, nodes: Itemset) -> None:
        """Make each node a cut node, replacing the cut nodes under it."""
        t = self.tree
        for a in nodes:
            added = t.cost[a] - self.below[a]
            for p in t.ancestors[a][1:]:
                self.below[p] += added
            self.below[a] = t.cost[a]
            self.cover[a : t.last[a] + 1] = [a] * (t.last[a] - a + 1)
        self.merges += 1

    def nodes(self) -> list[int]:
        """The cut's nodes: those covering the last leaf of their own subtree."""
        return [a for a in range(self.tree.size) if self.cover[self.tree.last[a]] == a]

    def cost(self) -> int:
        return sum(self.tree.cost[a] for a in self.nodes())


class Supports:
    """Supports of itemsets in the expanded transactions, found in SQL in batches and kept.

    Single nodes come with the tree; larger itemsets must be fetched before they are read.
    The search only ever compares a support with k, so a support may be known only on one
    side of k; it is then kept as a bound, and `itemset_supports.exact` is false:
    Itemsets are counted when the walk first needs them; from SAMPLE_FROM transactions on,
    first in the sample (tid % share = 0, `sample_share`), and an itemset held there k times
    or more is kept with that sample count, a lower bound >= k of its support; the others are
    counted in the rest of the transactions, their support the sum of both counts.
    """

    def __init__(self, store: Workspace, tree: Tree, k: int) -> None:
        self.store = store
        self.tree = tree
        self.k = k
        self.sampled = tree.support[0] >= SAMPLE_FROM  # the root is in every transaction
        self.share = sample_share(tree.support[0])
        self.known: dict[Itemset, int] = {}
        self.queries = 0
        self.counted = 0  # itemsets whose support SQL found: the walk's work, for benchmarks
        self.settled = 0  # itemsets found at least k on the sample, never counted in full

    def __getitem__(self, itemset: Itemset) -> int:
        if len(itemset) == 1:
            return self.tree.support[itemset[0]]
        return self.known[itemset]

    def fetch(self, itemsets: Iterable[Itemset]) -> None:
        """Find every itemset not yet known, in one statement."""
        missing = {s for s in itemsets if len(s) > 1 and s not in self.known}
        if not missing:
            return
        found = self._counted(missing)
        self.queries += 1
        self.counted += len(missing)
        self.known.update((s, support) for s, (support, _) in found.items())
        self.store.put_arrow(
            "counted_supports",
            pa.table(
                {
                    "itemset": pa.array(list(found), pa.list_(pa.int32())),
                    "support": pa.array([v[0] for v in found.values()], pa.int64()),
                    "exact": pa.array([v[1] for v in found.values()], pa.bool_()),
                }
            ),
        )
        self.store.run("km_add_supports")
        self.store.drop_tables("candidates", "counted_supports", step="drop_candidates")

    def _put_candidates(self, itemsets: Iterable[Itemset], width: int) -> None:
        """Store the itemsets as `candidates(size, item_1, ...)`, each one's nodes rarest
        first."""
        columns: dict[str, list[int | None]] = {"size": []}
        columns.update({f"item_{j}": [] for j in range(1, width + 1)})
        for s in itemsets:
            ordered = sorted(s, key=self._rarest_first)
            columns["size"].append(len(s))
            for j in range(width):
                columns[f"item_{j + 1}"].append(ordered[j] if j < len(s) else None)
        self.store.put_arrow(
            "candidates",
            pa.table({name: pa.array(values, pa.int32()) for name, values in columns.items()}),
        )

    def _counted(self, missing: set[Itemset]) -> dict[Itemset, tuple[int, bool]]:
        """Each itemset's (support, exact): settled on the sample if held there k times."""
        if not self.sampled:
            return {s: (n, True) for s, n in self._count(missing, part=None).items()}
        sample = self._count(missing, part="sample")
        found = {s: (n, False) for s, n in sample.items() if n >= self.k}
        self.settled += len(found)
        rest = missing - found.keys()
        if rest:
            found.update((s, (sample[s] + n, True)) for s, n in self._count(rest, "rest").items())
        return found

    def _count(self, itemsets: set[Itemset], part: str | None) -> dict[Itemset, int]:
        """Support of each itemset in `expanded`, or in one part of it (one statement)."""
        width = max(len(s) for s in itemsets)
        self._put_candidates(itemsets, width)
        sizes = sorted({len(s) for s in itemsets})
        by_transaction = frozenset(
            size
            for size in sizes
            if size == 2 and self._pairs_by_transaction(s for s in itemsets if len(s) == size)
        )
        query = render(sql.candidate_supports(sizes, part=part, by_transaction=by_transaction))
        params = {"span": self.tree.size} if set(sizes) - by_transaction else {}
        params |= {"share": self.share} if part else {}
        # Joins in the written order: each candidate's transactions (rarest node first) probe
        # hash tables of `expanded`. DuckDB's reordering builds on that large intermediate
        # instead: 3.5x the time and memory (WV2, m=3: 5.4 s, 850 MB against 1.5 s, 270 MB).
        self.store.execute(
            ddl.setting("disabled_optimizers", "join_order"), step="written_join_order"
        )
        try:
            step = f"{part}_supports" if part else "candidate_supports"
            counted = self.store.arrow(query, params, step=step)
        finally:
            self.store.execute(ddl.reset("disabled_optimizers"), step="reset_join_order")
        found = dict.fromkeys(itemsets, 0)
        for itemset, support in zip(
            counted.column("itemset").to_pylist(),
            counted.column("support").to_pylist(),
            strict=True,
        ):
            found[tuple(itemset)] = support
        return found

    def _rarest_first(self, node: int) -> tuple[int, int]:
        """The order of an itemset's nodes in `candidates`: by support, then id."""
        return self.tree.support[node], node

    def _pairs_by_transaction(self, pairs: Iterable[Itemset]) -> bool:
        """Whether joining the transactions of the pairs' nodes (engine.km_builders._by_transaction) costs
        less than starting from each pair's rarest node: the combinations of a transaction's
        first and second nodes, as many as if the nodes were independent, against the rarest
        nodes' supports. Cheaper on 38 of 40 statements of synthetic 10^6, m=2, and within 0.11 s
        on the others; only for pairs, whose combinations grow as the square, not the cube."""
        support = self.tree.support
        firsts: set[int] = set()
        seconds: set[int] = set()
        rarest = 0
        for pair in pairs:
            first, second = sorted(pair, key=self._rarest_first)
            firsts.add(first)
            seconds.add(second)
            rarest += support[first]
        combinations = sum(support[x] for x in firsts) * sum(support[x] for x in seconds)
        return combinations < rarest * support[0]  # the root: |D|


def best_fix(cut: Cut, supports: Supports, itemset: Itemset, k: int) -> Itemset:
    """The generalization of `itemset` that makes it k-anonymous at the least added cost.

    Ties go to the more specific generalization (larger sum of depths), then to lower node ids.
    Every candidate's support must have been fetched.
    """
    t = cut.tree
    best: tuple[int, int, Itemset] | None = None
    for c in t.candidates(itemset):
        if supports[c] >= k:
            key = (cut.change(c), -sum(t.depth[a] for a in c), c)
            if best is None or key < best:
                best = key
    if best is None:
        raise InfeasibleError(f"no generalization gives support >= k = {k} (k exceeds the data)")
    return best[2]


@dataclass
class WalkStats:
    """Violations walked through and violations that needed a fix."""

    walked: int = 0
    fixed: int = 0


def walk(
    store: Workspace,
    cut: Cut,
    supports: Supports,
    table: str,
    width: int,
    k: int,
    progress: Progress,
) -> WalkStats:
    """Fix the violating itemsets of `table` one by one in its `pos` order, merging each fix
    into the cut.

    An itemset is passed over when its image under the cut has reached support k. The walk goes a batch at a time. SQL takes the batch's images under the cut, counts the new
    ones and hands Python only the violations still open; then every generalization of their
    images is counted, in one statement. Fixes later in the batch only move an image up to its
    generalizations: known if the image was violating, anonymous if it was anonymous.
    """
    stats = WalkStats()
    total = store.count(table)
    batch = ddl.create_table_as("walk_batch", render(sql.walk_batch(table, width)))
    lo, size, written = 1, FIRST_BATCH, -1
    while lo <= total:
        progress(f"walk {table}", lo - 1, total)
        if written != cut.merges:
            write_cover(store, cut)
            written = cut.merges
        store.execute(batch, {"lo": lo, "hi": lo + size - 1}, step="walk_batch")
        supports.fetch(tuple(image) for (image,) in store.run("km_new_images").tuples("image"))
        rows = store.run("km_open_violations", {"k": k}).tuples("itemset", "image")
        open_rows = [(tuple(itemset), tuple(image)) for itemset, image in rows]
        images = {image for _, image in open_rows}
        supports.fetch(c for image in images for c in cut.tree.candidates(image))
        for v, _ in open_rows:
            image = cut.image(v)
            if image != v and supports[image] >= k:
                continue
            cut.merge(best_fix(cut, supports, image, k))
            stats.fixed += 1
        stats.walked = min(lo + size - 1, total)
        lo, size = lo + size, min(2 * size, LAST_BATCH)
    store.drop_tables("walk_batch", step="drop_walk_batch")
    return stats


def write_cover(store: Workspace, cut: Cut) -> None:
    """Store the nodes the cut generalizes away as `cover(node, cover)`."""
    gone = [x for x in range(cut.tree.size) if cut.generalized(x)]
    store.put_arrow(
        "cover",
        pa.table(
            {
                "node": pa.array(gone, pa.int32()),
                "cover": pa.array([cut.cover[x] for x in gone], pa.int32()),
            }
        ),
    )


def start(store: Workspace, tree: Tree, k: int) -> Supports:
    """The tables every walk needs besides `expanded` (see load_tree): node ranks, single-node
    supports, and the sample's keys when candidates are counted on a sample first."""
    store.run("km_node_rank")
    store.run("km_single_supports")
    supports = Supports(store, tree, k)
    if supports.sampled:
        store.run("km_sample_keys", {"span": tree.size, "share": supports.share})
    return supports


def count_violations(store: Workspace, size: int, table: str, k: int, *, keep: bool) -> None:
    """`table`: the `size`-itemsets of the generalized transactions (`generalized`: the cut's
    nodes) with support under k, in walk order; with `keep`, every itemset's support is kept
    too, as `support_l{size}`."""
    counted = sql.generalized_supports(size)
    if keep:
        support = f"support_l{size}"
        every = sql.generalized_supports(size, below=None)
        store.execute(ddl.create_table_as(support, render(every)), step=support)
        counted = sql.below_k(support)
    ordered = render(sql.in_walk_order({size: counted}))
    store.execute(ddl.create_table_as(table, ordered), {"k": k}, step=table)


def count_expanded_violations(store: Workspace, params: Settings, name: str) -> None:
    """`violations_expanded`: the expanded itemsets of 1..m nodes under k, in walk order."""
    sizes = range(1, (params.m or 1) + 1)
    check_itemsets(store, params, name, sizes, "expanded")
    ordered = render(sql.in_walk_order({s: sql.expanded_supports(s) for s in sizes}))
    store.execute(
        ddl.create_table_as("violations_expanded", ordered),
        {"k": params.k},
        step="violations_expanded",
    )


def check_itemsets(
    store: Workspace, params: Settings, name: str, sizes: Sequence[int], source: str
) -> None:
    """Refuse to count the itemsets of `sizes` nodes of the transactions in `source` (a key of
    LENGTHS) when they are more than options["max_itemsets"]: counting makes one row per
    itemset held by each transaction, which grows as length^m, and would exhaust memory first."""
    limit = params.options["max_itemsets"]
    held = sum(
        count * sum(comb(n, s) for s in sizes)
        for n, count in store.run(LENGTHS[source]).tuples("n", "transactions")
    )
    if held > limit:
        what = f"{sizes[0]}..{sizes[-1]}" if len(sizes) > 1 else str(sizes[0])
        instead = "aa or da, " if source == "expanded" else ""
        raise TooLargeError(
            f"{name}: the {source} transactions hold {held:,} itemsets of {what} nodes, more "
            f"than max_itemsets = {limit:,}; use {instead}a smaller m, or raise the option "
            "(--option max_itemsets=N)"
        )


def write_cut(store: Workspace, cut: Cut) -> None:
    """Store the cut as `cut(item, node)`: every leaf with the cut node covering it."""
    t = cut.tree
    leaves = [x for x in range(t.size) if t.is_leaf(x)]
    store.put_arrow(
        "cut",
        pa.table(
            {
                "item": pa.array(leaves, pa.int32()),
                "node": pa.array([cut.cover[x] for x in leaves], pa.int32()),
            }
        ),
    )


def finish(
    store: Workspace, cut: Cut, params: Settings, scratch: list[str]
) -> dict[str, int | float]:
    """Write the final cut and the release; drop scratch tables unless asked to keep them."""
    write_cut(store, cut)
    store.run("km_release")
    if not params.keep_intermediate:
        scratch = ["expanded", "sample_keys", "node_rank", "itemset_supports", "cover", *scratch]
        store.drop_tables(*scratch, step="drop_intermediate")
    nodes = cut.nodes()
    return {
        "cut_nodes": len(nodes),
        "generalized_nodes": sum(1 for a in nodes if not cut.tree.is_leaf(a)),
        "cut_ncp": round(cut.tree.ncp(cut.cost()), 6),
    }
