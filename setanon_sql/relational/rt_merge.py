"""Merging the classes of the QIs to cut the item loss while the relational loss stays under a
bound delta: the RTMERGE of Poulis, Loukides, Gkoulalas-Divanis & Skiadopoulos (ECML PKDD 2013),
with the pair chosen by what it costs the QIs per item loss it saves.

Why: the item loss of a class falls with its size (on Adult + WV2, where the pages are paired
with the rows at random, it depends on little else), while the relational loss of a merge
depends on where the two classes lie: two classes of the same dense region merge almost free,
two far apart cost the QIs much. Starting from classes far smaller than the items need, and
merging first the pairs that save the most item loss per relational loss, spends the delta
where it buys most: the small classes grow, the dense regions make large classes cheaply.

The item loss a class will have is estimated, not searched (the search is the costly part):
`instances * rows ** -EXPONENT`, fitted on Adult + WV2's classes of 300-2,000 rows. One
statement reads every class's spans (`rt_merge_spans`); Python chooses the merges; one
statement applies them (`rt_merge_apply`). No merge splits a class, so every class keeps at
least the rows it had.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa

from ..store.database import Store
from ..store.hierarchy import Hierarchy
from .rt_cuts import closure
from .taxonomy import CostMeasure

EXPONENT = 0.65
"""How fast a class's item loss falls with its rows (item NCP about rows ** -0.65)."""


@dataclass(frozen=True)
class Span:
    """A class as the merge sees it: its rows, item instances and per attribute the leaves
    lo..hi its closure covers."""

    rows: int
    instances: int
    lo: tuple[int, ...]
    hi: tuple[int, ...]


def union(a: Span, b: Span) -> Span:
    """The class two classes make."""
    return Span(
        a.rows + b.rows,
        a.instances + b.instances,
        tuple(map(min, a.lo, b.lo)),
        tuple(map(max, a.hi, b.hi)),
    )


class Costs:
    """The relational loss of a class (rows times its closure's mean node cost) and the item
    loss estimated for it."""

    def __init__(self, trees: Sequence[Hierarchy], fn: CostMeasure) -> None:
        self.trees = trees
        self.node_costs = [[float(fn(t, i)) for i in range(t.size)] for t in trees]

    def relational(self, s: Span) -> float:
        per = [
            c[closure(t, lo, hi)]
            for t, c, lo, hi in zip(self.trees, self.node_costs, s.lo, s.hi, strict=True)
        ]
        return s.rows * sum(per) / len(per)

    @staticmethod
    def item(s: Span) -> float:
        return s.instances * s.rows**-EXPONENT


def read_spans(store: Store) -> dict[int, Span]:
    """Every class's span, from one statement."""
    by: dict[int, list[tuple[int, int, int, int]]] = {}
    for c, _a, lo, hi, rows, inst in store.run("rt_merge_spans").tuples(
        "cluster", "attr", "lo", "hi", "rows", "instances"
    ):
        by.setdefault(c, []).append((lo, hi, rows, inst))
    return {
        c: Span(v[0][2], v[0][3], tuple(x[0] for x in v), tuple(x[1] for x in v))
        for c, v in by.items()
    }


def plan_merges(spans: dict[int, Span], costs: Costs, budget: float) -> dict[int, int]:
    """Merge pairs of classes, the pair of least relational loss added per item loss saved
    first, while the relational loss (summed over rows) stays within `budget`; each merged
    class -> the class it joined (the smallest id of the group).

    Example:
        >>> from setanon_sql.store.hierarchy import from_edges
        >>> t = from_edges([("a", "A"), ("b", "A"), ("c", "*"), ("A", "*")])
        >>> ids = t.id_of()
        >>> a, b, c = ids["a"], ids["b"], ids["c"]
        >>> spans = {0: Span(10, 20, (a,), (a,)), 1: Span(10, 20, (b,), (b,)),
        ...          2: Span(10, 20, (c,), (c,))}
        >>> plan_merges(spans, Costs([t], lambda t, n: t.leaf_count[n] - 1), 20.0)
        {1: 0}
    """
    live = dict(spans)
    spent = sum(costs.relational(s) for s in live.values())
    group = {c: c for c in live}
    version = dict.fromkeys(live, 0)
    heap: list[tuple[float, int, int, int, int]] = []
    for i in sorted(live):
        for j in sorted(live):
            if i < j and (score := _score(live[i], live[j], costs)) is not None:
                heap.append((score, i, j, 0, 0))
    heapq.heapify(heap)
    while heap:
        _, i, j, vi, vj = heapq.heappop(heap)
        if i not in live or j not in live or (version[i], version[j]) != (vi, vj):
            continue  # one of them has merged since
        both = union(live[i], live[j])
        added = costs.relational(both) - costs.relational(live[i]) - costs.relational(live[j])
        if spent + added > budget:
            continue
        spent += added
        del live[j]
        live[i] = both
        version[i] += 1
        for c, g in group.items():
            if g == j:
                group[c] = i
        for x in live:
            if x != i and (score := _score(live[min(i, x)], live[max(i, x)], costs)) is not None:
                a, b = min(i, x), max(i, x)
                heapq.heappush(heap, (score, a, b, version[a], version[b]))
    return {c: g for c, g in group.items() if c != g}


def _score(a: Span, b: Span, costs: Costs) -> float | None:
    """Relational loss added per item loss saved by merging a and b, None if it saves none."""
    both = union(a, b)
    saved = costs.item(a) + costs.item(b) - costs.item(both)
    if saved <= 0:
        return None
    return (costs.relational(both) - costs.relational(a) - costs.relational(b)) / saved


def merge_classes(
    store: Store, trees: Sequence[Hierarchy], fn: CostMeasure, delta: float, rows: int
) -> int:
    """Merge the run's classes (`cluster`) while the relational NCP stays at most `delta`
    (classes already above it are left as they are); the number of classes."""
    spans = read_spans(store)
    costs = Costs(trees, fn)
    plan = plan_merges(spans, costs, delta * rows)
    if plan:
        store.put_arrow(
            "rt_merge_to",
            pa.table(
                {
                    "cluster": pa.array(list(plan), pa.int32()),
                    "into": pa.array(list(plan.values()), pa.int32()),
                }
            ),
        )
        store.run("rt_merge_apply")
    return len(spans) - len(plan)
