"""The probes of a (k, k^m) run's evaluate (issue 41), put where the statements join them:
mixed queries (a QI value and an itemset) and attack targets, for either shape of release
(`rt_evaluate`, `rt_dis_evaluate`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa

from ..store.database import Store


@dataclass(frozen=True)
class MixedQuery:
    """A QI attribute (1-based) and its leaf, and the items (hierarchy leaves) held with it."""

    attr: int
    leaf: int
    items: tuple[int, ...]


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


def put_targets(store: Store, targets: Sequence[MixedQuery], rids: Sequence[int]) -> None:
    """The attack targets as `eval_rt_target(tid, rid, size)` (the target row `rids[i]`) and
    their known items, for either shape of release."""
    i32 = pa.int32()
    store.put_arrow(
        "eval_rt_target",
        pa.table({"tid": pa.array(range(len(targets)), i32),
                  "rid": pa.array(rids, pa.int64()),
                  "size": pa.array([len(t.items) for t in targets], i32)}),
    )  # fmt: skip
    put_items(store, "eval_rt_target_item", "tid", targets)


def put_queries(store: Store, queries: Sequence[MixedQuery]) -> None:
    """The queries as `eval_rt_query(qid, attr, leaf, size)` and their items, for either
    shape of release."""
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
