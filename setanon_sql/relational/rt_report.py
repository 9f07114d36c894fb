"""The figures `report` and `compare` show for a stored (k, k^m) run (issue 41): its verdict,
its relational loss per QI and overall, its item loss (0 when the set column is
disassociated: items as given, judged by query error), the error of mixed queries (a QI value
and an itemset) per size, and the attacks knowing a row's QIs and 1..m+1 of its items. Every
figure is read in scratch, so the run stays as it was; the page itself is drawn by
`measure/rt_page.py` from these plain values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.builders import render
from ..engine.rt_builders import qi_loss_query
from ..runs import read_info
from ..store.database import Store
from .rt_evaluate import evaluate_rt
from .rt_judge import rt_metrics, stored_rt, verify_rt_run


def qi_losses(store: Store, run: str) -> dict[str, float]:
    """Every QI's NCP in the stored run's release, in the order of the QIs."""
    made = stored_rt(store, run, disassociated=True)
    with store.in_run(run, scratch=True):
        found = store.execute(render(qi_loss_query(made.qi)), step="rt_qi_loss")
        return {c: float(v) for c, v in found.tuples("column", "ncp")}


def rt_report(
    store: Store, run: str, *, queries: int, targets: int, sizes: Sequence[int], seed: int
) -> dict[str, Any]:
    """Everything the page of a (k, k^m) run shows, as plain values (also usable as JSON)."""
    made = stored_rt(store, run, disassociated=True)
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
        "set_release": "disassociate" if made.disassociated else "generalize",
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
        "set_release": report["set_release"],
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
