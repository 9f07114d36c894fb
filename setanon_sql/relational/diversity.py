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

import pyarrow as pa

from ..engine import ddl
from ..engine import table_builders as queries
from ..engine.builders import render
from ..errors import InfeasibleError, ParamsError
from ..store.database import Store
from ..store.hierarchy import Hierarchy
from .data import TableData
from .taxonomy import CostMeasure

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


def keep_sensitive(store: Store, column: str | None) -> None:
    """`rel_sensitive(rid, value)`: every row's sensitive value as text (a temp table), which
    the ℓ-diversity statements read."""
    if column is None:
        raise ParamsError("l-diversity needs a sensitive column")
    values = render(queries.sensitive_values(column))
    store.execute(ddl.create_table_as("rel_sensitive", values, temp=True), step="rel_sensitive")


def check_feasible(store: Store, l: float, column: str | None) -> None:  # noqa: E741
    """No clustering is ℓ-diverse when the whole table is not."""
    keep_sensitive(store, column)
    found = store.run("rel_sensitive_top").one()
    rows, top, count = found["rows"], found["value"], found["n"]
    if rows / count < l:
        raise InfeasibleError(
            f"l = {l} exceeds the diversity of the whole table ({rows / count:.4g}: "
            f"{count} of {rows} rows have {column} = {top!r})"
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
    merges: list[tuple[int, int, float]] = []
    while True:
        low = [(c.diversity, i) for i, c in live.items() if c.diversity < l]
        if not low:
            break
        _, a = min(low)
        ca = live[a]
        best: tuple[tuple[float, int], Span, Counter[str]] | None = None
        for b, cb in live.items():
            if b == a:
                continue
            span = _union(ca.span, cb.span)
            size = len(ca.rows) + len(cb.rows)
            values = ca.values + cb.values
            added = size * cost(trees, costs, span) - anon[a] - anon[b]
            deficit = max(l - size / max(values.values()), 0.0)
            ranked = (w * added + (1 - w) * deficit, b)
            if best is None or ranked < best[0]:
                best = (ranked, span, values)
        if best is None:  # a single cluster left, and it is not ℓ-diverse
            raise InfeasibleError(f"no l-diverse clustering: l = {l} exceeds the table's diversity")
        (score, b), span, values = best
        cb = live.pop(b)
        live[a] = Cluster(sorted(ca.rows + cb.rows), span, values)
        anon[a] = len(live[a].rows) * cost(trees, costs, span)
        anon.pop(b)
        merges.append((a, b, score))
    return list(live.values()), merges


def l_diversify(
    store: Store,
    data: TableData,
    clusters: list[list[int]],
    l: float,  # noqa: E741
    w: float,
    fn: CostMeasure,
) -> tuple[list[list[int]], int]:
    """Algorithm 8 over a k-clustering of the loaded table (lists of rids); the merges are
    kept in table `l_merge`."""
    keep_sensitive(store, data.sensitive)
    table = store.run_arrow("rel_diversity_rows")
    leaf = dict(zip(table["rid"].to_pylist(), table["leaf"].to_pylist(), strict=True))
    value = dict(zip(table["rid"].to_pylist(), table["value"].to_pylist(), strict=True))
    start = [
        Cluster(
            rows,
            tuple(
                (min(leaf[r][j] for r in rows), max(leaf[r][j] for r in rows))
                for j in range(len(data.qi))
            ),
            Counter(value[r] for r in rows),
        )
        for rows in clusters
    ]
    costs = [[fn(t, i) for i in range(t.size)] for t in data.trees]
    done, merges = diversify(start, data.trees, costs, l, w)
    store.put_arrow(
        "l_merge",
        pa.table(
            {
                "kept": pa.array([m[0] for m in merges], pa.int32()),
                "absorbed": pa.array([m[1] for m in merges], pa.int32()),
                "score": pa.array([m[2] for m in merges], pa.float64()),
            }
        ),
    )
    return [c.rows for c in done], len(merges)
