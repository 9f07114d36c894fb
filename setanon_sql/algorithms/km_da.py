"""DA, direct anonymization (Terrovitis et al. 2008): k^m-anonymity in one pass.

One statement counts every itemset of 1..m nodes of the expanded transactions (no node with its
own ancestor) that has support under k (`violations_expanded`). They are walked in the paper's
count-tree order; any itemset one of whose nodes the cut has generalized away is passed over,
the others are fixed with the cheapest generalization that contains the current cut. An itemset
of the final cut with support under k would have been walked and fixed, so none is left.
"""

from __future__ import annotations

from ..params import Params
from ..store import Store
from . import Progress, km_cut


def run(store: Store, params: Params, progress: Progress) -> dict:
    m = params.m or 1
    tree = km_cut.load_tree(store)
    cut = km_cut.Cut(tree)
    progress("count expanded itemsets", 0, 2)
    supports = km_cut.start(store, tree)
    km_cut.count_expanded_violations(store, params, "da")
    progress("fix violations", 1, 2)
    stats = km_cut.walk(
        store, cut, supports, "violations_expanded", m, params.k, progress, skip_generalized=True
    )
    progress("release", 2, 2)
    info = km_cut.finish(store, cut, params, [])
    return {
        **info,
        "violations": stats.walked,
        "violations_fixed": stats.fixed,
        "support_queries": supports.queries,
    }
