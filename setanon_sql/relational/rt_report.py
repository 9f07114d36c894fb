"""The figures `report` and `compare` show for a stored (k, k^m) run (issue 41): its verdict,
its relational loss per QI and overall, its item loss, the error of mixed queries (a QI value
and an itemset) per size, and the attacks knowing a row's QIs and 1..m+1 of its items. Every
figure is read in scratch, so the run stays as it was; the page itself is drawn by
`measure/rt_page.py` from these plain values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlglot import exp, select

from ..engine.builders import render
from ..runs import read_info
from ..store.database import Store
from .data import long_qi
from .rt_evaluate import evaluate_rt
from .rt_judge import rt_metrics, stored_rt, verify_rt_run


def qi_loss_query(qi: Sequence[str]) -> exp.Select:
    """The release's NCP of every QI: the mean over rows of the cost of its released node.

    Example:
        >>> print(qi_loss_query(["age"]).sql("duckdb"))  # doctest: +ELLIPSIS
        SELECT "a"."name" AS "column", AVG("n"."cost") AS "ncp" FROM (SELECT "rid", 1 AS attr, ...
    """
    released = long_qi(qi, "table_release")
    if not isinstance(released, exp.Query):
        raise TypeError(f"not a query: {released!r}")
    on_node = exp.and_(
        exp.EQ(this=exp.column("attr", "n", quoted=True), expression=exp.column("attr", "r")),
        exp.EQ(this=exp.column("label", "n", quoted=True), expression=exp.column("label", "r")),
    )
    return (
        select(
            exp.column("name", "a", quoted=True).as_("column", quoted=True),
            exp.Avg(this=exp.column("cost", "n", quoted=True)).as_("ncp", quoted=True),
        )
        .from_(released.subquery("r", copy=False))
        .join(exp.table_("rel_node", quoted=True).as_("n", quoted=True), on=on_node)
        .join(
            exp.table_("rel_attr", quoted=True).as_("a", quoted=True),
            on=exp.EQ(
                this=exp.column("attr", "a", quoted=True), expression=exp.column("attr", "r")
            ),
        )
        .group_by(exp.column("attr", "a", quoted=True), exp.column("name", "a", quoted=True))
        .order_by(exp.column("attr", "a", quoted=True))
    )


def qi_losses(store: Store, run: str) -> dict[str, float]:
    """Every QI's NCP in the stored run's release, in the order of the QIs."""
    made = stored_rt(store, run)
    with store.in_run(run, scratch=True):
        found = store.execute(render(qi_loss_query(made.qi)), step="rt_qi_loss")
        return {c: float(v) for c, v in found.tuples("column", "ncp")}


def rt_report(
    store: Store, run: str, *, queries: int, targets: int, sizes: Sequence[int], seed: int
) -> dict[str, Any]:
    """Everything the page of a (k, k^m) run shows, as plain values (also usable as JSON)."""
    made = stored_rt(store, run)
    verdict = verify_rt_run(store, run)
    losses = rt_metrics(store, run)
    evaluation = evaluate_rt(
        store, run, queries=queries, targets=targets, sizes=sizes, seed=seed
    )  # fmt: skip
    return {
        "run": run,
        "kind": "rt",
        "info": read_info(store, run),
        "algorithm": store.registry.run(run)["algorithm"],
        "qi": made.qi,
        "items": made.items,
        "k": made.k,
        "m": made.m,
        "verified": verdict.as_dict(),
        "relational_ncp": losses["relational_ncp"],
        "qi_ncp": qi_losses(store, run),
        "item_ncp": losses["item_ncp"],
        "evaluation": evaluation,
    }


def compare_row(report: dict[str, Any]) -> dict[str, Any]:
    """One flat row of a comparison: the run, its promise, both losses, the mean relative
    error of mixed queries per size, and per number of known items the targets left with
    fewer than k candidates."""
    out: dict[str, Any] = {
        "run": report["run"],
        "algorithm": report["algorithm"],
        "k": report["k"],
        "m": report["m"],
        "relational_ncp": report["relational_ncp"],
        "item_ncp": report["item_ncp"],
    }
    for q in report["evaluation"]["mixed_queries"]:
        out[f"mixed_are_{q['size']}"] = q["mean_relative_error"]
    for a in report["evaluation"]["attacks"]:
        out[f"below_k_{a['known_items']}"] = a["below_k"]
        out[f"median_candidates_{a['known_items']}"] = a["median"]
    promised = [a for a in report["evaluation"]["attacks"] if a["promised"]]
    out["promise_holds"] = report["verified"]["ok"] and not any(a["below_k"] for a in promised)
    return out
