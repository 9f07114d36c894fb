"""Query error of a (k, k^m) run on mixed queries (issue 41): "rows with this QI value holding
these items" ("patients aged 30-39 holding codes a and b"), the queries a release of records
with their sets must answer. Each query is drawn from a row (so it holds at least that row):
one QI of it and `size` of its items; its count on the original is exact, its estimate from the
release assumes a released node stands for each leaf under it alike. One statement counts all
queries, one estimates them all (`sql/rt_evaluate.sql`). And attacks: an adversary who knows a
row's QIs and p of its items finds its class and, in it, the rows whose released items could
hold those p; up to m known items no target may have fewer than k such candidates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from statistics import mean, median
from typing import Any

from ..errors import ParamsError
from ..store.database import Store
from .rt_dis_evaluate import dis_attacks, dis_query_errors
from .rt_judge import stored_rt
from .rt_probes import MixedQuery, put_queries, put_targets


def draw(store: Store, queries: int, sizes: Sequence[int], seed: int) -> list[MixedQuery]:
    """`queries` queries per size, each from a row drawn by a seeded hash with at least that
    many items: one of its QIs, `size` of its items."""
    return [q for _, q in draw_rows(store, queries, sizes, seed)]


def draw_rows(
    store: Store, n: int, sizes: Sequence[int], seed: int
) -> list[tuple[int, MixedQuery]]:
    """`n` rows drawn by a seeded hash, per size each row with that many items or more, with
    one of its QIs and `size` of its items."""
    rng = random.Random(seed)
    rows = store.run("rt_eval_draw", {"n": n, "seed": seed}).tuples("rid", "leaves", "items")
    out = []
    for size in sizes:
        for rid, leaves, items in rows:
            if len(items) >= size:
                attr = rng.randrange(len(leaves)) + 1
                query = MixedQuery(attr, leaves[attr - 1], tuple(rng.sample(items, size)))
                out.append((rid, query))
    return out


def query_errors(store: Store, queries: Sequence[MixedQuery]) -> list[dict[str, Any]]:
    """Every query's true count, estimate and relative error, in the current run."""
    put_queries(store, queries)
    store.run("rt_eval_actual")
    store.run("rt_eval_estimate")
    return store.run_arrow("rt_eval_errors").to_pylist()


def attacks(store: Store, targets: Sequence[MixedQuery], rids: Sequence[int]) -> list[dict]:
    """Every target's candidates: the rows of its class of the release that could hold the
    items the adversary knows of it (the target row `rids[i]`, its QIs all known)."""
    store.run("rt_eval_row_class")
    put_targets(store, targets, rids)
    store.run("rt_eval_attack")
    return store.run_arrow("rt_eval_attack_read").to_pylist()


def attack_summary(found: Sequence[dict], k: int, m: int) -> list[dict[str, Any]]:
    """Per number of known items: targets, how many have 1..k-1 candidates (none may, up to
    m), how many none (the known items were withheld: no row matches, as `evaluate` counts
    `no_match` for transactions), the fewest and the median candidates."""
    out = []
    for size in sorted({t["size"] for t in found}):
        cands = [t["candidates"] for t in found if t["size"] == size]
        out.append(
            {"known_items": size, "promised": size <= m, "targets": len(cands),
             "below_k": sum(0 < c < k for c in cands), "no_match": sum(c == 0 for c in cands),
             "fewest": min(cands),
             "median": median(cands)}
        )  # fmt: skip
    return out


def evaluate_rt(
    store: Store, run: str, *, queries: int, targets: int, sizes: Sequence[int], seed: int
) -> dict[str, Any]:
    """Mixed-query error of a stored (k, k^m) run per query size, and attacks knowing a
    row's QIs and 1..m+1 of its items (in scratch: the run stays)."""
    made = stored_rt(store, run, disassociated=True)
    if not sizes or min(sizes) < 1:
        raise ParamsError(f"query sizes must be whole numbers >= 1, got {list(sizes)}")
    with store.in_run(run, scratch=True):
        drawn_queries = draw(store, queries, sizes, seed)
        known = range(1, made.m + 2)
        drawn = draw_rows(store, targets, known, seed + 1)
        if made.disassociated:  # the same draws, answered from the chunks
            found = dis_query_errors(store, made.k, drawn_queries)
            attacked = dis_attacks(store, [t for _, t in drawn], [r for r, _ in drawn])
        else:
            found = query_errors(store, drawn_queries)
            attacked = attacks(store, [t for _, t in drawn], [r for r, _ in drawn])
    per_size = []
    for size in sizes:
        errors = [q["relative_error"] for q in found if q["size"] == size]
        if errors:
            per_size.append(
                {"size": size, "queries": len(errors), "mean_relative_error": mean(errors),
                 "median_relative_error": median(errors)}
            )  # fmt: skip
    return {
        "run": run, "k": made.k, "m": made.m, "seed": seed,
        "set_release": "disassociate" if made.disassociated else "generalize",
        "mixed_queries": per_size,
        "attacks": attack_summary(attacked, made.k, made.m),
    }  # fmt: skip
