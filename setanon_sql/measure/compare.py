"""Compare releases side by side (`sweep.py` makes the runs of such a comparison).

Each row holds a run's parameters, time, information loss, query error per size and attack
shares, as plain values, so a terminal table, JSON and the trade-off chart read the same rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..runs import read_info
from ..store.database import Store
from .evaluate import DEFAULT_WORKLOAD, Workload, evaluation


def compare(
    store: Store, runs: Iterable[str], *, workload: Workload = DEFAULT_WORKLOAD
) -> list[dict[str, Any]]:
    """Evaluate each stored run (same seeded workload; an evaluation stored for it is reused)
    and return one flat row per run."""
    return [row(store, run, evaluation(store, run, workload=workload)) for run in runs]


def row(store: Store, run: str, evaluation: dict[str, Any]) -> dict[str, Any]:
    """One flat row: parameters and time from `run_info`, then the evaluation's figures."""
    info = read_info(store, run)
    out: dict[str, Any] = {
        "run": run,
        "algorithm": info.get("algorithm"),
        "k": evaluation["model"]["k"],
        "m": evaluation["model"]["m"],
        **dp_columns(evaluation["model"]),
        "seconds": float(info["search_s"]) if info.get("search_s") else None,
        "ncp": evaluation["ncp"],
        "lm": evaluation["lm"],
    }
    for key, tag in (("itemset_queries", ""), ("frequent_queries", "frequent_")):
        for r in evaluation[key]:
            out[f"{tag}are_{r['size']}"] = r["are"]
            if "are_sanity" in r:  # --sanity: the bounded ARE beside it
                out[f"{tag}are_sanity_{r['size']}"] = r["are_sanity"]
    for a in evaluation["attacks"]:
        out[f"below_k_{a['known']}"] = a["below_k"]
        out[f"unique_{a['known']}"] = a["unique"]
        out[f"median_candidates_{a['known']}"] = a["median_candidates"]
    out["promise_holds"] = evaluation["promise_holds"]
    if "sanity_floor" in evaluation:
        out["sanity_floor"] = evaluation["sanity_floor"]
    return out


def dp_columns(model: dict[str, Any]) -> dict[str, Any]:
    """A differentially private run's promise in its row (#44): epsilon and the budget spent,
    and what was checked, where the others have k and m; nothing for the others."""
    if model["model"] != "dp":
        return {}
    return {
        "epsilon": model["epsilon"],
        "epsilon_spent": model["epsilon_spent"],
        "checked": model["checked"],
    }
