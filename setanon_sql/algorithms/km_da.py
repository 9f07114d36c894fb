"""DA, direct anonymization (Terrovitis et al. 2008): k^m-anonymity in one pass.

One statement counts every itemset of 1..m nodes of the expanded transactions (no node with its
own ancestor) that has support under k (`violations_expanded`). Python walks them in the paper's
count-tree order, passes over any itemset one of whose nodes the cut has generalized away, and
fixes the others with the cheapest generalization that contains the current cut. An itemset of
the final cut with support under k would have been walked and fixed, so none is left.
"""

from __future__ import annotations

from ..params import Params
from ..queries import render
from ..store import Store
from . import Progress, km_cut, km_sql


def run(store: Store, params: Params, progress: Progress) -> dict:
    m = params.m or 1
    tree = km_cut.load_tree(store)
    cut = km_cut.Cut(tree)
    supports = km_cut.Supports(store, tree)
    progress("count expanded itemsets", 0, 2)
    store.run("km_expanded")
    store.run("km_node_rank")
    store.execute(
        "CREATE OR REPLACE TABLE violations_expanded AS " + render(km_sql.expanded_violations(m)),
        {"k": params.k},
        step="violations_expanded",
    )
    progress("fix violations", 1, 2)
    stats = km_cut.walk(
        cut,
        supports,
        km_cut.batches(store, "violations_expanded"),
        params.k,
        skip_generalized=True,
    )
    progress("release", 2, 2)
    info = km_cut.finish(store, cut, params, ["expanded", "node_rank"])
    return {
        **info,
        "violations": stats.walked,
        "violations_fixed": stats.fixed,
        "support_queries": supports.queries,
    }
