"""The specialization pass: after a search has reached k^m-anonymity, push each generalized cut
node back down to its children while k^m-anonymity still holds (issue 13).

A greedy search fixes violations one at a time, so an early, coarse fix can make a later one
unnecessary, and the cut ends coarser than it need be. The pass walks the hierarchy's depths
from the top. At each depth one statement counts, over the transactions holding a child of a
generalized cut node of that depth, every itemset of 1..m nodes of the cut with all those
nodes split that has support under k; each such itemset names the splits it needs (its nodes'
parents) and the unsplit cut nodes it needs. Python then takes the splits in order of the cost
they save and refuses one that would complete such an itemset, counting a node not yet
decided as unsplit; passes repeat until one splits nothing.

Why every step keeps the cut k^m-anonymous: an itemset under k of the new cut holds a child of
a node split in this step (the others were anonymous already), so it lies in the cut with all
the depth's candidates split and was counted; when the last split it needs was taken, the
splits before it were taken and none of the kept nodes it needs ever is, so that split was
refused. A pass that splits nothing judged every candidate with all others kept, which is
exact: no single node of the result can be split on its own.
"""

from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa

from ..engine import km_builders as km_sql
from ..engine.builders import render
from ..engine.contract import Workspace
from ..progress import Progress
from . import km_cut

Itemset = km_cut.Itemset
# What an itemset under k needs to lie in the cut: the nodes split, the nodes kept whole.
Needs = tuple[frozenset[int], frozenset[int]]


def specialize(
    store: Workspace, cut: km_cut.Cut, m: int, k: int, progress: Progress
) -> tuple[km_cut.Cut, int]:
    """The cut with generalized nodes split while k^m-anonymity allows, and the number of
    splits. Passes repeat until one splits nothing, so no single cut node of the result can be
    split on its own. Needs the `expanded` table."""
    t = cut.tree
    nodes = set(cut.nodes())
    splits, passes, done = 0, 0, False
    while not done:
        passes += 1
        done = True
        for depth in range(max(t.depth) + 1):
            candidates = sorted(a for a in nodes if t.depth[a] == depth and not t.is_leaf(a))
            if not candidates:
                continue
            progress(f"specialize pass {passes} depth {depth}", depth, max(t.depth))
            needs = _split_needs(store, t, nodes, candidates, m, k)
            for a in choose(t, candidates, needs):
                nodes.remove(a)
                nodes.update(t.children(a))
                splits += 1
                done = False
    out = km_cut.Cut(t)
    out.merge(tuple(sorted(a for a in nodes if not t.is_leaf(a))))
    return out, splits


def _split_needs(
    store: Workspace, tree: km_cut.Tree, nodes: set[int], candidates: list[int], m: int, k: int
) -> set[Needs]:
    """What the itemsets under k of the cut with every candidate split need (one statement):
    itemsets needing the same splits and kept nodes come back once."""
    put_split_expanded(store, tree, nodes, candidates, k)
    found = store.query(render(km_sql.split_violations(m)), {"k": k}, step="split_violations")
    store.drop_tables("split_node", "split_expanded", step="drop_split")
    return {
        (
            frozenset(a for a in row[:m] if a is not None),
            frozenset(x for x in row[m:] if x is not None),
        )
        for row in found
    }


def put_split_expanded(
    store: Workspace, tree: km_cut.Tree, nodes: set[int], candidates: list[int], k: int
) -> None:
    """`split_node` (the cut, its candidates marked whole, their children with the candidate
    they split) and from it `split_expanded`."""
    whole = set(candidates)
    kids = [(c, a) for a in candidates for c in tree.children(a)]
    cut = sorted(nodes)
    store.put_arrow(
        "split_node",
        pa.table(
            {
                "node": pa.array(cut + [c for c, _ in kids], pa.int32()),
                "is_child": pa.array([False] * len(cut) + [True] * len(kids)),
                "split_of": pa.array([None] * len(cut) + [a for _, a in kids], pa.int32()),
                "whole": pa.array([a in whole for a in cut] + [False] * len(kids)),
            }
        ),
    )
    store.run("km_split_expanded", {"k": k})


def needs_of(tree: km_cut.Tree, candidates: list[int], violating: Iterable[Itemset]) -> set[Needs]:
    """What each itemset under k needs to lie in the cut: the candidates it needs split (the
    parents of its children) and those it needs kept whole (its candidate nodes)."""
    child_of = {c: a for a in candidates for c in tree.children(a)}
    whole = set(candidates)
    return {
        (frozenset(child_of[x] for x in s if x in child_of), frozenset(x for x in s if x in whole))
        for s in violating
    }


def choose_splits(
    tree: km_cut.Tree, candidates: list[int], violating: Iterable[Itemset]
) -> list[int]:
    """The candidates to split given the itemsets under k (see `choose`).

    Example (the tree of Fig. 2 with preorder ids ALL=0, A=1, a1=2, a2=3, B=4, b1=5, b2=6):
        >>> t = km_cut.Tree((-1, 0, 1, 1, 0, 4, 4), (6, 3, 2, 3, 6, 5, 6), (0, 1, 2, 2, 1, 2, 2),
        ...                 (0, 10, 0, 0, 12, 0, 0), (4, 4, 2, 3, 4, 3, 3), (), 11, 4)
        >>> choose_splits(t, [1, 4], [(2, 5)])  # {a1, b1} under k: A or B stays, B saves more
        [4]
    """
    return choose(tree, candidates, needs_of(tree, candidates, violating))


def choose(tree: km_cut.Tree, candidates: list[int], needs: Iterable[Needs]) -> list[int]:
    """The candidates to split: greedily by cost saved (then node id), refusing a split that
    would complete an itemset under k, a candidate not yet taken counting as unsplit."""
    by_split: dict[int, list[Needs]] = {}
    for split, kept in needs:
        for a in split:
            by_split.setdefault(a, []).append((split, kept))
    taken: set[int] = set()
    for a in sorted(candidates, key=lambda a: (-saving(tree, a), a)):
        after = taken | {a}
        if not any(split <= after and not kept & after for split, kept in by_split.get(a, ())):
            taken.add(a)
    return sorted(taken)


def saving(tree: km_cut.Tree, node: int) -> int:
    """The cost a cut saves by replacing `node` with its children."""
    return tree.cost[node] - sum(tree.cost[c] for c in tree.children(node))
