"""Query error and attacks of a (k, k^m) run whose set column is disassociated inside every
class (issue 41): the same mixed queries and targets as the generalized release's evaluate
(`rt_evaluate.draw`, same seeds, so both shapes are compared query for query), answered from
this release. A query "rows with QI value v holding items I" is estimated per cluster of the
set column as the disassociation estimator's count of I there (`setanon estimate`'s
statements, `sql/estimate.sql`, run as they are) times the share of a row of the cluster's class
holding v (uniform over the leaves under the released node, as the generalized evaluate
assumes), summed over clusters: one statement for all queries (`sql/rt_dis_evaluate.sql`).
An adversary knowing a row's QIs and some of its items finds its class and, in it, every row of
a cluster that could hold those items: the table does not link a row to its chunk rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..store.database import Store
from .rt_probes import MixedQuery, put_queries, put_targets

ESTIMATOR = (
    "est_dis_rows",
    "est_dis_clusters",
    "est_dis_places",
    "est_dis_parts",
    "est_dis_cluster_answers",
)
"""`setanon estimate`'s per-cluster steps (`measure/estimate.DISASSOCIATED_STEPS` without the
sum over clusters, which here is weighed by the QI predicate); a test keeps the two alike."""


def _estimator(store: Store, k: int, steps: Sequence[str] = ESTIMATOR) -> None:
    """Run the estimator's statements on `queries(qid, item)` and the run's chunks."""
    for step in steps:
        store.run(step, {"k": k} if step == "est_dis_clusters" else None)


def dis_query_errors(store: Store, k: int, queries: Sequence[MixedQuery]) -> list[dict[str, Any]]:
    """Every mixed query's true count, estimate and relative error on the disassociated release
    of the current run ."""
    put_queries(store, queries)
    store.run("rt_eval_actual")
    store.run("rtde_set_class")
    store.run("rtde_queries")
    _estimator(store, k)
    store.run("rtde_estimate")
    return store.run_arrow("rt_eval_errors").to_pylist()


def dis_attacks(store: Store, targets: Sequence[MixedQuery], rids: Sequence[int]) -> list[dict]:
    """Every target's candidates: the rows of its class in a cluster that could hold the items
    the adversary knows of it (the target row `rids[i]`, its QIs all known)."""
    put_targets(store, targets, rids)
    store.run("rtde_set_class")
    store.run("rtde_targets")
    _estimator(store, 1, ESTIMATOR[:4])  # which clusters hold the items: no estimate needed
    store.run("rtde_attack")
    return store.run_arrow("rt_eval_attack_read").to_pylist()
