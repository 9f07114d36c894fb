"""OA, optimal anonymization (Terrovitis et al. 2008): the k^m-anonymous cut of least NCP.

One statement counts the itemsets of 1..m nodes of the expanded transactions with support under
k (`violations_expanded`); a cut is k^m-anonymous exactly when none of them lies wholly in it.
The lattice of cuts is then searched breadth-first from the leaves up: an anonymous cut is kept
and not expanded, and any cut coarser than a kept one is passed over unchecked, since it costs
no less. The number of cuts grows exponentially with the hierarchy, so OA refuses hierarchies
with more than `max_cuts` cuts before counting anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..catalog import Algorithm, Option, ReleaseKind, Settings
from ..engine.contract import Workspace
from ..errors import InfeasibleError, TooLargeError
from ..progress import Progress
from . import km_options

if TYPE_CHECKING:
    from . import km_cut

CutNodes = frozenset[int]


def count_cuts(tree: km_cut.Tree, limit: int) -> int:
    """The number of cuts of the hierarchy, or limit + 1 once it is known to be larger."""
    cuts = [1] * tree.size
    for node in range(tree.size - 1, -1, -1):
        if not tree.is_leaf(node):
            product = 1
            for child in tree.children(node):
                product = min(product * cuts[child], limit + 1)
            cuts[node] = min(product + 1, limit + 1)
    return cuts[0]


def run(store: Workspace, params: Settings, progress: Progress) -> dict:
    # imported here, not at the top: the registry imports this module for its ALGORITHM, and
    # a run of another algorithm or `setanon algorithms` need not load pyarrow and sqlglot
    from . import km_cut

    tree = km_cut.load_tree(store)  # builds `expanded` too
    limit = params.options["max_cuts"]
    total = count_cuts(tree, limit)
    if total > limit:
        raise TooLargeError(
            f"oa: the hierarchy has more than max_cuts = {limit} cuts; raise it "
            "(--option max_cuts=N) or use aa or da"
        )
    store.run("km_node_rank")
    km_cut.count_expanded_violations(store, params, "oa")
    found = store.run("km_expanded_itemsets")
    items = [c for c in found.columns if c.startswith("item_")]
    violating = [tuple(x for x in row if x is not None) for row in found.tuples(*items)]
    search = Lattice(tree, violating)
    best, stats = search.optimum(progress)
    cut = km_cut.Cut(tree)
    cut.merge(tuple(sorted(best)))
    info = km_cut.finish(store, cut, params, [])
    return {**info, "cuts": total, **stats}


class Lattice:
    """Breadth-first search of the lattice of cuts, bottom-up, as in the paper."""

    def __init__(self, tree: km_cut.Tree, violating: list[km_cut.Itemset]) -> None:
        self.tree = tree
        self.by_first: dict[int, list[km_cut.Itemset]] = {}
        for itemset in violating:
            self.by_first.setdefault(itemset[0], []).append(itemset)

    def anonymous(self, cut: CutNodes) -> bool:
        """No violating itemset has all its nodes in the cut."""
        return not any(
            all(x in cut for x in itemset[1:])
            for node in cut
            for itemset in self.by_first.get(node, ())
        )

    def coarser(self, cut: CutNodes, finer: CutNodes) -> bool:
        """`cut` generalizes `finer`: no node of `finer` lies strictly above a node of `cut`."""
        return not any(a in finer for c in cut for a in self.tree.ancestors[c][1:])

    def parents(self, cut: CutNodes) -> list[CutNodes]:
        """The cuts one step coarser: all children of one node replaced by that node."""
        t = self.tree
        heads = sorted({t.parent[c] for c in cut if t.parent[c] >= 0})
        out = []
        for p in heads:
            kids = t.children(p)
            if all(c in cut for c in kids):
                out.append((cut - set(kids)) | {p})
        return out

    def cost(self, cut: CutNodes) -> int:
        return sum(self.tree.cost[a] for a in cut)

    def optimum(self, progress: Progress) -> tuple[CutNodes, dict[str, int]]:
        """The anonymous cut of least cost; ties go to the lower sorted list of node ids."""
        t = self.tree
        level: list[CutNodes] = [frozenset(x for x in range(t.size) if t.is_leaf(x))]
        seen = set(level)
        found: list[CutNodes] = []
        checked = depth = 0
        while level:
            progress(f"lattice level {depth}", depth, None)
            following: list[CutNodes] = []
            for cut in sorted(level, key=sorted):
                if any(self.coarser(cut, a) for a in found):
                    continue
                checked += 1
                if self.anonymous(cut):
                    found.append(cut)
                    continue
                for up in self.parents(cut):
                    if up not in seen:
                        seen.add(up)
                        following.append(up)
            level = following
            depth += 1
        if not found:
            raise InfeasibleError("oa: no cut is k^m-anonymous (k exceeds the data)")
        best = min(found, key=lambda c: (self.cost(c), sorted(c)))
        return best, {
            "cuts_visited": len(seen),
            "cuts_checked": checked,
            "anonymous_cuts": len(found),
            "levels": depth,
        }


ALGORITHM = Algorithm(
    "oa",
    "km",
    ReleaseKind.SETS,
    run,
    summary="optimal cut, lattice search",
    options=(
        Option(
            "max_cuts",
            int,
            100_000,
            "refuse hierarchies with more cuts than this (the search is exponential)",
            minimum=1,
        ),
        km_options.MAX_ITEMSETS,
    ),
)
