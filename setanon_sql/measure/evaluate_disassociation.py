"""`setanon evaluate` on a disassociated release (#28): the same probes, scored on its format.

The workloads and attacks are drawn exactly as for the other releases (`evaluate.draw_probes`,
`sql/evaluate.sql`): over the hierarchy's leaves when the run had one (so `compare` scores
every release of a dataset on the same itemsets), else over the run's own item numbers. Only
the scoring differs (`sql/evaluate_disassociation.sql`):
- an itemset's support is estimated by `setanon estimate`'s estimator (`estimate.py`,
  `sql/estimate.sql`, one implementation): per cluster its size times, per place its items are
  released in, the share of rows holding them, exact inside one record chunk (or shared
  chunk, over its joint cluster), independent across places, and a term-chunk term held by
  its cluster's least term-chunk occurrences over its terms (a record is never empty);
- an attack's candidates are the records a worst-case adversary cannot rule out: per cluster
  holding all the known items, the most records that some reconstruction consistent with the
  release lets hold them (cover.py's bound), summed; a target known only by term-chunk terms
  has every record of the cluster as a candidate (the paper's guarantee).
The figures, `eval_queries` and `eval_attacks` come from the shared statements.
"""

from __future__ import annotations

from typing import Any

from .estimate import DISASSOCIATED_STEPS


def prepare(store: Any) -> None:
    """The items the probes are drawn over: the hierarchy's leaves when the run had one, else
    the run's own item numbers (before `evaluate.draw_probes`)."""
    if store.hierarchy is None:
        store.run("de_tx_of_run")
        store.run("de_items")
    else:
        store.run("de_items_of_hierarchy")


def score(store: Any, model: Any) -> None:
    """Fill `eval_scores` from the run's release tables (the current run's, resolved by
    `store.in_run`), once `prepare` and `evaluate.draw_probes` drew the probes."""
    store.run("eval_actual_supports")
    store.run("de_rows")
    store.run("de_places")
    store.run("de_cover", {"k": model.k})
    store.run("de_probe_places")
    store.run("de_part_rows")
    store.run("de_scores")
    store.run("de_est_queries")
    for step in DISASSOCIATED_STEPS:
        store.run(step, {"k": model.k} if step == "est_dis_clusters" else None)
    store.run("de_eval_scores")
    store.run("eval_queries")
    store.run("eval_attacks")


def loss(store: Any) -> dict[str, Any]:
    """The release's information loss (verify_disassociation.information_loss)."""
    from .verify_disassociation import information_loss

    return information_loss(store)
