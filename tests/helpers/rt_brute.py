"""A brute-force (k, k^m) check of a release of a table with a set column, in plain Python:
what the SQL verifier (`relational.rt_verify`) is tested against."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import combinations


def ancestors(edges: Sequence[tuple[str, str]], label: str) -> set[str]:
    """The label and every node above it in a (child, parent) tree."""
    parent = dict(edges)
    out = {label}
    while label in parent:
        label = parent[label]
        out.add(label)
    return out


def problems(
    original: Sequence[Mapping[str, object]],
    released: Sequence[Mapping[str, object]],
    *,
    qi: Sequence[str],
    qi_edges: Mapping[str, Sequence[tuple[str, str]]],
    items: str,
    item_edges: Sequence[tuple[str, str]],
    k: int,
    m: int,
) -> list[str]:
    """Every way the release (rows in the original's order, sets as Python sets) breaks
    (k, k^m)-anonymity, enumerated; empty when it holds."""
    found = []
    if len(original) != len(released):
        return ["rows missing"]
    nodes = {c for c, _ in item_edges} | {p for _, p in item_edges}
    classes: dict[tuple, list[int]] = defaultdict(list)
    for i, (o, r) in enumerate(zip(original, released, strict=True)):
        for c in qi:
            if str(r[c]) not in ancestors(qi_edges[c], str(o[c])):
                found.append(f"row {i}: {c} {r[c]!r} does not generalize {o[c]!r}")
        orig, rel = set(o[items]), set(r[items])  # type: ignore[call-overload]
        for label in rel:
            if label not in nodes or not any(label in ancestors(item_edges, x) for x in orig):
                found.append(f"row {i}: item {label!r} generalizes none of {sorted(orig)}")
        for x in orig:
            if not rel & ancestors(item_edges, x):
                found.append(f"row {i}: item {x!r} not released")
        classes[tuple(str(r[c]) for c in qi)].append(i)
    for key, rows in classes.items():
        if len(rows) < k:
            found.append(f"class {key}: {len(rows)} rows")
        support: dict[frozenset, int] = defaultdict(int)
        for i in rows:
            held = sorted(set(released[i][items]))  # type: ignore[call-overload]
            for size in range(1, m + 1):
                for itemset in combinations(held, size):
                    support[frozenset(itemset)] += 1
        found += [f"class {key}: {sorted(s)} held by {n}" for s, n in support.items() if n < k]
    return found
