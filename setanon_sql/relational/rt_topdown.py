"""A top-down item search for the (k, k^m) model, an alternative to the level-wise lifts of
`rt_sets`: every class starts with its items at the root and specializes them while it stays
k^m-anonymous, so the frequent branches come down far while the rare ones stay high.

A class chooses a set of hierarchy nodes (the root always among them) and releases each item
as the deepest chosen node above it. Unlike a cut, a node and one of its descendants may both
be chosen: the items under the descendant are released as it, the other items of the node's
subtree as the node (Loukides et al.'s set-based generalization restricted to the hierarchy's
nodes). Every released item still generalizes an item of its record, and the verifier's
condition is the same: every itemset of at most m released nodes held by none or at least k
records of the class. An adversary who knows an item finds it under the one node the class
releases it as, so the promise is the model's.

Each round proposes, in every class at once, every child of a chosen node that at least k of
the class's records hold under it; one statement maps the items (`rt_trial_cut`), one per size
counts the violating itemsets of every class (`engine.rt_builders.class_violations`); Python withdraws,
per violating itemset, the proposal of fewest records that it involves (a proposed node of the
itemset, or one carved out of a node of it), and the count is repeated until no itemset
violates. Withdrawing only coarsens, and with every proposal withdrawn the class is back at
its last anonymous choice, so each round ends anonymous; rounds end when one accepts nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import pyarrow as pa

from ..engine import ddl
from ..engine.builders import render
from ..engine.rt_builders import class_violations
from ..progress import Progress
from ..store import hierarchy
from ..store.database import Store
from .rt_sets import SearchStats

Chosen = dict[int, set[int]]  # cluster -> chosen nodes


def proposals(
    tree: hierarchy.Hierarchy, chosen: Chosen, held: dict[int, dict[int, int]]
) -> dict[int, set[int]]:
    """Every class's children of chosen nodes, not chosen, held by at least k of its records
    (`held`: cluster -> node -> records, only nodes held by k or more). A node withdrawn once
    is proposed again next round (its siblings may have changed what it costs), but not its
    children: proposing them too made the search 20 times slower on Adult for no lower loss.

    Example:
        >>> t = hierarchy.from_edges([("a", "A"), ("b", "A"), ("A", "*")])
        >>> ids = t.id_of()
        >>> proposals(t, {0: {ids["*"]}}, {0: {ids["*"]: 5, ids["A"]: 5, ids["a"]: 3}})
        {0: {1}}
    """
    out: dict[int, set[int]] = {}
    for cluster, nodes in chosen.items():
        here = held.get(cluster, {})
        out[cluster] = {c for n in nodes for c in tree.children(n) if c in here and c not in nodes}
    return out


def owner(tree: hierarchy.Hierarchy, nodes: set[int], node: int) -> int:
    """The deepest of `nodes` strictly above `node` (the root is always among them)."""
    a = tree.parent[node]
    while a not in nodes:
        a = tree.parent[a]
    return a


def withdrawals(
    tree: hierarchy.Hierarchy,
    chosen: Chosen,
    proposed: dict[int, set[int]],
    held: dict[int, dict[int, int]],
    found: Sequence[tuple[int, tuple[int, ...]]],
) -> set[tuple[int, int]]:
    """Per violating itemset (cluster, nodes) the proposal of fewest records (ties: the larger
    id) among its proposed nodes and the proposals carved out of its nodes.

    Example:
        >>> t = hierarchy.from_edges([("a", "A"), ("b", "A"), ("A", "*")])
        >>> ids = t.id_of()
        >>> held = {0: {0: 9, 1: 9, 2: 6, 3: 3}}
        >>> sorted(withdrawals(t, {0: {0, 1}}, {0: {2, 3}}, held, [(0, (1,))]))
        [(0, 3)]
    """
    out: set[tuple[int, int]] = set()
    carved: dict[int, dict[int, list[int]]] = {}  # cluster -> owner -> proposals under it
    for cluster, nodes in found:
        mine = proposed[cluster]
        if cluster not in carved:
            trial = chosen[cluster] | mine
            carved[cluster] = defaultdict(list)
            for p in mine:
                carved[cluster][owner(tree, trial, p)].append(p)
        blamed = {n for n in nodes if n in mine}
        blamed.update(p for n in nodes for p in carved[cluster].get(n, ()))
        if not blamed:
            raise AssertionError(f"class {cluster}: {nodes} violates with no proposal in it")
        out.add((cluster, min(blamed, key=lambda p: (held[cluster][p], -p))))
    return out


def km_topdown(
    store: Store, tree: hierarchy.Hierarchy, k: int, m: int, progress: Progress
) -> SearchStats:
    """Make every class k^m-anonymous on its items, top-down (see the module's docstring)."""
    held: dict[int, dict[int, int]] = defaultdict(dict)
    for c, n, r in store.run("rt_subtree_records", {"k": k}).tuples("cluster", "node", "records"):
        held[c][n] = r
    chosen: Chosen = {c: {0} for c in held}
    rounds = violations = 0
    sql = [render(class_violations(size)) for size in range(1, m + 1)]
    while True:
        proposed = proposals(tree, chosen, held)
        if not any(proposed.values()):
            break
        progress(f"items top-down round {rounds + 1}", rounds, tree.height())
        while True:
            rounds += 1
            _put_trial(store, chosen, proposed)
            store.run("rt_trial_cut")
            store.run("rt_generalized")
            found = _violations(store, sql, k)
            if not found:
                break
            violations += len(found)
            for cluster, node in withdrawals(tree, chosen, proposed, held, found):
                proposed[cluster].discard(node)
        accepted = sum(len(p) for p in proposed.values())
        for c, p in proposed.items():
            chosen[c] |= p
        if not accepted:
            break
    _put_trial(store, chosen, {})
    store.run("rt_trial_cut")
    store.run("rt_generalized")
    return SearchStats(rounds, violations, sum(len(c) - 1 for c in chosen.values()))


def _put_trial(store: Store, chosen: Chosen, proposed: dict[int, set[int]]) -> None:
    pairs = [(c, n) for c, ns in chosen.items() for n in sorted(ns | proposed.get(c, set()))]
    store.put_arrow(
        "rt_trial",
        pa.table(
            {
                "cluster": pa.array([c for c, _ in pairs], pa.int32()),
                "node": pa.array([n for _, n in pairs], pa.int32()),
            }
        ),
    )


def _violations(store: Store, sql: Sequence[str], k: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every class's itemsets of 1..m generalized items held by 1..k-1 of its records."""
    out: list[tuple[int, tuple[int, ...]]] = []
    for size, statement in enumerate(sql, 1):
        name = f"rt_violations_l{size}"
        store.execute(ddl.create_table_as(name, statement), {"k": k}, step="rt_violations")
        data = store.arrow(ddl.select_all(name)).to_pydict()
        items = [data[f"item_{j}"] for j in range(1, size + 1)]
        out += [(c, tuple(col[i] for col in items)) for i, c in enumerate(data["cluster"])]
    return sorted(out)
