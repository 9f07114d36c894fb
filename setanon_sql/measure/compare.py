"""Compare releases side by side, and sweep algorithms and parameters into such a comparison.

Each row holds a run's parameters, time, information loss, query error per size and attack
shares, as plain values, so a terminal table, JSON and the trade-off chart read the same rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .. import algorithms
from ..api import anonymize
from ..params import Params
from ..store.database import Store
from .evaluate import DEFAULT_WORKLOAD, Workload, evaluate


def compare(
    store: Store, runs: Iterable[str], *, workload: Workload = DEFAULT_WORKLOAD
) -> list[dict[str, Any]]:
    """Evaluate each stored run (same seeded workload) and return one flat row per run."""
    return [row(store, run, evaluate(store, run, workload=workload)) for run in runs]


def sweep(
    store: Store,
    *,
    algorithm_names: Iterable[str],
    ks: Iterable[int],
    ms: Iterable[int | None] = (None,),
    workload: Workload = DEFAULT_WORKLOAD,
    replace: bool = False,
    progress: Callable[[str], None] = lambda _: None,
    tag: str = "",
) -> list[dict[str, Any]]:
    """Anonymize with every algorithm x k (x m for the k^m algorithms), then compare the runs.

    A k^m algorithm runs once per m (m = 2 when none is given); the others ignore m. `tag`
    names the hierarchy in use, in the run names and in a `hierarchy` column of the rows.
    """
    runs = []
    for name in algorithm_names:
        algo = algorithms.get(name)
        for k in ks:
            for m in [x or 2 for x in ms] if algo.needs_m else [None]:
                run_name = (
                    f"run_{algo.name}_k{k}" + (f"_m{m}" if m else "") + (f"_{tag}" if tag else "")
                )
                progress(run_name)
                params = Params(algorithm=algo.name, k=k, m=m, run_name=run_name, replace=replace)
                runs.append(anonymize(store, params).run)
    rows = compare(store, runs, workload=workload)
    return [{"hierarchy": tag, **r} for r in rows] if tag else rows


def row(store: Store, run: str, evaluation: dict[str, Any]) -> dict[str, Any]:
    """One flat row: parameters and time from `run_info`, then the evaluation's figures."""
    info = _run_info(store, run)
    out: dict[str, Any] = {
        "run": run,
        "algorithm": info.get("algorithm"),
        "k": evaluation["model"]["k"],
        "m": evaluation["model"]["m"],
        "seconds": float(info["search_s"]) if info.get("search_s") else None,
        "ncp": evaluation["ncp"],
        "lm": evaluation["lm"],
    }
    for r in evaluation["itemset_queries"]:
        out[f"are_{r['size']}"] = r["are"]
    for r in evaluation["frequent_queries"]:
        out[f"frequent_are_{r['size']}"] = r["are"]
    for a in evaluation["attacks"]:
        out[f"below_k_{a['known']}"] = a["below_k"]
        out[f"unique_{a['known']}"] = a["unique"]
        out[f"median_candidates_{a['known']}"] = a["median_candidates"]
    out["promise_holds"] = evaluation["promise_holds"]
    return out


def _run_info(store: Store, run: str) -> dict[str, str]:
    if not store.has_table("run_info", run):
        return {}
    with store.in_run(run):
        return dict(store.query("SELECT key, value FROM run_info"))
