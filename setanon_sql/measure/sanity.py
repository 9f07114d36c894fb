"""The sanity bound of `evaluate`'s relative error (#44): the standard one of the
differential-privacy itemset literature (DiffPart, Chen et al., PVLDB 2011; PrivBasis, Li et
al., PVLDB 2012), each query's error divided by max(actual support, FRACTION x |D|).

Why: a private release cannot answer an itemset held by a handful of records, and the
unbounded ARE lets those few dominate (the empty release scores 1.0 on every workload). The
bound is opt-in (`--sanity`), reported beside the unbounded ARE (`are_sanity`), so every figure
measured before it stays comparable. One statement (`eval_query_sanity`) over `eval_queries`
serves every estimator (generalized, disassociated, sampled: their scores all land there), and
a stored evaluation gets it without being scored again.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import ParamsError
from ..store.database import Store

LITERATURE = 0.001
"""The bound the DP itemset papers use (0.1 % of the transactions); `--sanity`'s usual value."""


def check(fraction: float | None) -> None:
    """A share of the transactions in [0, 1): 0 is the unbounded ARE, 1 would make every
    query's denominator the whole data."""
    if fraction is not None and not (math.isfinite(fraction) and 0 <= fraction < 1):
        raise ParamsError(f"--sanity is a share of the transactions in [0, 1), got {fraction}")


def floor_of(store: Store, fraction: float | None) -> float | None:
    """The bound in transactions: `fraction` of the original's (None: no bound). Read before
    any sample shadows `tids`: a sampled evaluation's supports are scaled to the whole data."""
    return None if fraction is None else fraction * store.count("tids")


def attach(store: Store, out: dict[str, Any], floor: float | None) -> dict[str, Any]:
    """The figures with each query row's `are_sanity` and the bound's `sanity_floor`
    (unchanged without a bound). Call inside the run's schema, after `eval_queries`."""
    if floor is None:
        return out
    found = {
        (r["workload"], r["size"]): r["are_sanity"]
        for r in store.run("eval_query_sanity", {"floor": floor}).dicts()
    }
    for key, workload in (("itemset_queries", "random"), ("frequent_queries", "frequent")):
        for row in out.get(key, []):
            row["are_sanity"] = found.get((workload, row["size"]))
    return out | {"sanity_floor": floor}
