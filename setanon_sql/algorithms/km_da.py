"""DA, direct anonymization (Terrovitis et al. 2008): k^m-anonymity over the expanded itemsets.

An itemset of hierarchy nodes has the same support under every cut holding its nodes (its
support in the *expanded* transactions, each item with all its ancestors): a cut is
k^m-anonymous exactly when no expanded itemset under k lies wholly in it.

The search fixes sizes in turn, smallest first. For size s, in rounds until none is left: one
statement counts the s-itemsets under k lying wholly in the cut, which are those of the
transactions generalized by the cut (`violations_in_cut`, in the paper's walk order); each one
still under k when its turn comes is fixed with the generalization of least added cost against
the whole cut. Fixing all sizes at once in walk order, an older design, let early fixes of
large itemsets of rare nodes coarsen the cut far beyond need (WV2, k=10, m=2: NCP 22.95 %
against 2.13 %).

Only what these decisions read is counted (issue 30). The walk reads the support of each open
image and of its generalizations, and counts them when it first needs them, as AA does
(`km_cut.Supports`). An earlier design counted every expanded s-itemset at or above the cut
up front and looked them up; on a vocabulary of 16,470 items (fan-out 8) that was 66 million
pairs held, and DA refused. The decisions are the same: an itemset of cut nodes has one support
in both sources; the walk asks only for itemsets some transaction holds (images and
generalizations of held itemsets), for which "listed under k" and "counted under k" agree; and
a smaller one at or above the cut was taken as anonymous, which it is: its transactions are
those of the held itemsets of cut nodes below it, each anonymous after the smaller sizes'
rounds. `max_itemsets` still bounds what one round's count may hold.

Then, with the option `specialize` (default on), the specialization pass (`km_specialize`)
pushes generalized cut nodes back down while k^m-anonymity holds.
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

    m, k = params.m or 1, params.k
    tree = km_cut.load_tree(store)
    cut = km_cut.Cut(tree)
    supports = km_cut.start(store, tree, k)
    walked = fixed = rounds = 0
    for size in range(1, m + 1):
        progress(f"itemsets of {size}", size - 1, m)
        while True:
            km_cut.write_cut(store, cut)
            store.run("km_generalized")
            km_cut.check_itemsets(store, params, "da", [size], "generalized")
            km_cut.count_violations(store, size, "violations_in_cut", k, keep=False)
            rounds += 1
            if not store.count("violations_in_cut"):
                break
            stats = km_cut.walk(store, cut, supports, "violations_in_cut", size, k, progress)
            walked += stats.walked
            fixed += stats.fixed
    info: dict = {"violations_walked": walked, "violations_fixed": fixed, "rounds": rounds}
    if params.options["specialize"]:
        info["cut_ncp_before_specialize"] = round(tree.ncp(cut.cost()), 6)
        cut, info["splits"] = km_specialize.specialize(store, cut, m, k, progress)
    progress("release", m, m)
    return {
        **km_cut.finish(store, cut, params, ["generalized", "violations_in_cut"]),
        **info,
        "support_queries": supports.queries,
        "counted_itemsets": supports.counted,
        "expanded_rows": sum(tree.support),
        "supports_settled_on_sample": supports.settled,
    }


ALGORITHM = Algorithm(
    "da",
    "km",
    ReleaseKind.SETS,
    run,
    summary="direct cut over expanded itemsets",
    options=(km_options.MAX_ITEMSETS, km_options.specialize(True)),
    engines=("duckdb", "spark"),
)
