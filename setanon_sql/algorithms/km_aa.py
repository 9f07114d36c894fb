"""AA, Apriori-based anonymization (Terrovitis et al. 2008): k^m-anonymity level by level.

For i = 1..m: one statement counts the i-itemsets of the transactions generalized by the current
cut that have support under k (`violations_l{i}`); they are walked in the paper's order and each
one still violating is fixed with the cheapest generalization of its nodes, merged into the cut.
Level i leaves every itemset of <= i items anonymous: a violating i-itemset of the final cut is
the image of one counted at level i, whose image was made anonymous when it was walked, and
coarsening never lowers a support.

With the option `specialize` (default off, so that AA stays the paper's search), the
specialization pass (`km_specialize`) then pushes generalized cut nodes back down while
k^m-anonymity holds.
"""

from __future__ import annotations

from ..catalog import Algorithm, ReleaseKind, Settings
from ..engine.contract import Workspace
from ..progress import Progress
from . import km_options


def run(store: Workspace, params: Settings, progress: Progress) -> dict:
    # imported here, not at the top: the registry imports this module for its ALGORITHM, and
    # a run of another algorithm or `setanon algorithms` need not load pyarrow and sqlglot
    from . import km_cut, km_specialize

    m = params.m or 1
    tree = km_cut.load_tree(store)
    cut = km_cut.Cut(tree)
    supports = km_cut.start(store, tree, params.k)
    found, fixed = 0, 0
    for level in range(1, m + 1):
        progress(f"level {level}", level - 1, m)
        km_cut.write_cut(store, cut)
        store.run("km_generalized")
        table = f"violations_l{level}"
        km_cut.count_violations(store, level, table, params.k, keep=params.keep_intermediate)
        stats = km_cut.walk(store, cut, supports, table, level, params.k, progress)
        found += stats.walked
        fixed += stats.fixed
    extra = {}
    if params.options["specialize"]:
        extra["cut_ncp_before_specialize"] = round(tree.ncp(cut.cost()), 6)
        cut, extra["splits"] = km_specialize.specialize(store, cut, m, params.k, progress)
    progress("release", m, m)
    info = km_cut.finish(store, cut, params, ["generalized"])
    return {
        **info,
        **extra,
        "levels": m,
        "violations": found,
        "violations_fixed": fixed,
        "support_queries": supports.queries,
        "counted_itemsets": supports.counted,
        "expanded_rows": sum(tree.support),  # what each support statement scans
        "supports_settled_on_sample": supports.settled,
    }


ALGORITHM = Algorithm(
    "aa",
    "km",
    ReleaseKind.SETS,
    run,
    summary="Apriori-based cut, level by level",
    options=(km_options.specialize(False),),
    engines=("duckdb", "spark"),
)
