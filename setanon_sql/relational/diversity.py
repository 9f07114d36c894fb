"""ℓ-diversity by merging clusters (Kenig & Tassa, Algorithm 8).

The diversity of a cluster is its size over the count of its most frequent sensitive value.
While a cluster is below ℓ, the least diverse one (ties: lowest cluster number) is merged with
the cluster of least w * (added ANON cost) + (1 - w) * max(ℓ - diversity of the union, 0)
(ties: lowest cluster number). Closures come from per-attribute leaf spans, since a node covers
a preorder interval: the closure of a set of leaves is the deepest node covering its min and max.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InfeasibleError
from ..hierarchy import Hierarchy

Span = tuple[tuple[int, int], ...]  # per attribute (min leaf id, max leaf id)


@dataclass
class Cluster:
    rows: list[int]
    span: Span
    values: Counter

    @property
    def diversity(self) -> float:
        return len(self.rows) / max(self.values.values())


def lowest_cover(tree: Hierarchy, lo: int, hi: int) -> int:
    """The deepest node whose preorder interval holds both lo and hi."""
    node = lo
    while tree.last[node] < hi:
        node = tree.parent[node]
    return node


def cost(trees: Sequence[Hierarchy], costs: Sequence[Sequence[float]], span: Span) -> float:
    """d of the closure: the mean over attributes of the covering node's cost."""
    return sum(
        costs[j][lowest_cover(t, lo, hi)]
        for j, (t, (lo, hi)) in enumerate(zip(trees, span, strict=True))
    ) / len(trees)


def _union(a: Span, b: Span) -> Span:
    return tuple((min(x[0], y[0]), max(x[1], y[1])) for x, y in zip(a, b, strict=True))


def check_feasible(values: Sequence[str], l: float, column: str) -> None:  # noqa: E741
    top, count = Counter(values).most_common(1)[0]
    if len(values) / count < l:
        raise InfeasibleError(
            f"l = {l} exceeds the diversity of the whole table ({len(values) / count:.4g}: "
            f"{count} of {len(values)} rows have {column} = {top!r})"
        )


def diversify(
    clusters: list[Cluster],
    trees: Sequence[Hierarchy],
    costs: Sequence[Sequence[float]],
    l: float,  # noqa: E741
    w: float = 0.15,
) -> tuple[list[Cluster], list[tuple[int, int, float]]]:
    """Merge until every cluster is ℓ-diverse; returns the clusters and the merges made
    (kept cluster, absorbed cluster, merge cost)."""
    live = dict(enumerate(clusters))
    anon = {i: len(c.rows) * cost(trees, costs, c.span) for i, c in live.items()}
    merges = []
    while True:
        low = [(c.diversity, i) for i, c in live.items() if c.diversity < l]
        if not low:
            break
        _, a = min(low)
        ca = live[a]
        best = None
        for b, cb in live.items():
            if b == a:
                continue
            span = _union(ca.span, cb.span)
            size = len(ca.rows) + len(cb.rows)
            values = ca.values + cb.values
            added = size * cost(trees, costs, span) - anon[a] - anon[b]
            deficit = max(l - size / max(values.values()), 0.0)
            score = (w * added + (1 - w) * deficit, b)
            if best is None or score < best[0]:
                best = (score, span, values)
        (score, b), span, values = best
        cb = live.pop(b)
        live[a] = Cluster(sorted(ca.rows + cb.rows), span, values)
        anon[a] = len(live[a].rows) * cost(trees, costs, span)
        anon.pop(b)
        merges.append((a, b, score))
    return list(live.values()), merges
