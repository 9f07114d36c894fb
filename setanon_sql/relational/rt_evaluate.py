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
from dataclasses import dataclass
from statistics import mean, median
from typing import Any

import pyarrow as pa

from ..errors import ParamsError
from ..store.database import Store
from .rt_judge import stored_rt


@dataclass(frozen=True)
class MixedQuery:
    """A QI attribute (1-based) and its leaf, and the items (hierarchy leaves) held with it."""

    attr: int
    leaf: int
    items: tuple[int, ...]


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


def put_items(store: Store, table: str, key: str, probes: Sequence[MixedQuery]) -> None:
    """The probes' items as rows (`key` the probe's number, `item`) in `table`: one table the
    statements join, for queries and attack targets alike."""
    pairs = [(j, i) for j, p in enumerate(probes) for i in p.items]
    i32 = pa.int32()
    store.put_arrow(
        table,
        pa.table({key: pa.array([j for j, _ in pairs], i32),
                  "item": pa.array([i for _, i in pairs], i32)}),
    )  # fmt: skip


def query_errors(store: Store, queries: Sequence[MixedQuery]) -> list[dict[str, Any]]:
    """Every query's true count, estimate and relative error, in the current run."""
    i32 = pa.int32()
    store.put_arrow(
        "eval_rt_query",
        pa.table(
            {
                "qid": pa.array(range(len(queries)), i32),
                "attr": pa.array([q.attr for q in queries], i32),
                "leaf": pa.array([q.leaf for q in queries], i32),
                "size": pa.array([len(q.items) for q in queries], i32),
            }
        ),
    )
    put_items(store, "eval_rt_query_item", "qid", queries)
    store.run("rt_eval_actual")
    store.run("rt_eval_estimate")
    return store.run_arrow("rt_eval_errors").to_pylist()


def attacks(store: Store, targets: Sequence[MixedQuery], rids: Sequence[int]) -> list[dict]:
    """Every target's candidates: the rows of its class of the release that could hold the
    items the adversary knows of it (the target row `rids[i]`, its QIs all known)."""
    i32 = pa.int32()
    store.run("rt_eval_row_class")
    store.put_arrow(
        "eval_rt_target",
        pa.table({"tid": pa.array(range(len(targets)), i32),
                  "rid": pa.array(rids, pa.int64()),
                  "size": pa.array([len(t.items) for t in targets], i32)}),
    )  # fmt: skip
    put_items(store, "eval_rt_target_item", "tid", targets)
    store.run("rt_eval_attack")
    return store.run_arrow("rt_eval_attack_read").to_pylist()


def attack_summary(found: Sequence[dict], k: int, m: int) -> list[dict[str, Any]]:
    """Per number of known items: targets, how many have fewer than k candidates (none may,
    up to m), the fewest and the median candidates."""
    out = []
    for size in sorted({t["size"] for t in found}):
        cands = [t["candidates"] for t in found if t["size"] == size]
        out.append(
            {"known_items": size, "promised": size <= m, "targets": len(cands),
             "below_k": sum(c < k for c in cands), "fewest": min(cands),
             "median": median(cands)}
        )  # fmt: skip
    return out


def evaluate_rt(
    store: Store, run: str, *, queries: int, targets: int, sizes: Sequence[int], seed: int
) -> dict[str, Any]:
    """Mixed-query error of a stored (k, k^m) run per query size, and attacks knowing a
    row's QIs and 1..m+1 of its items (in scratch: the run stays)."""
    made = stored_rt(store, run)
    if not sizes or min(sizes) < 1:
        raise ParamsError(f"query sizes must be whole numbers >= 1, got {list(sizes)}")
    with store.in_run(run, scratch=True):
        found = query_errors(store, draw(store, queries, sizes, seed))
        known = range(1, made.m + 2)
        drawn = draw_rows(store, targets, known, seed + 1)
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
        "run": run, "k": made.k, "m": made.m, "seed": seed, "mixed_queries": per_size,
        "attacks": attack_summary(attacked, made.k, made.m),
    }  # fmt: skip
